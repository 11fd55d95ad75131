"""The shape-and-color game ("Simplexity") in the ``perfectplay`` command line;
:mod:`perfectplay.cli` calls these handlers once GAME names it (``simplexity``, ``shapecolor``,
``shape-color``, ``sc``).

Positions are move sequences (``4O 4X 3O`` or ``4O4X3O``, 1-based columns; ``''`` for the
empty board) on a ``--size ROWSxCOLS`` board (default 6x7). Boards print as the course's engine
prints them, red and blue on a terminal, with each player's remaining quota.

* ``best``: the engine's move, 3 seconds by default (``--time``/``--depth`` change it). Its
  JSON is :func:`result_json`: ``finished``, ``winner`` (1, 2 or null), ``to_move`` (1 or 2),
  ``best_move`` ``{"column": c, "shape": "O"|"X"}`` (1-based column), ``score``, ``exact``,
  ``depth``, ``nodes``, ``time_ms``, plus ``outcome``, ``plies``, ``pv`` and ``value`` as in
  :func:`perfectplay.api.result_json`.
* ``solve`` and ``analyze``: exact without ``--time``/``--depth``, for positions with at most
  :data:`EXACT_EMPTY_CELLS` empty cells (bigger ones need a limit: the exact search would run
  for hours); ``analyze`` gives the value of every legal (column, shape).
* ``play``: the terminal game of :mod:`perfectplay.cli` with this module's :func:`play_text`.
* ``arena``: a match between two player specs (:mod:`perfectplay.arena`).

Scores are Connect Four's convention for the side to move: ``(cells + 1) // 2 + 1 - s`` for a
win, ``s`` the winner's pieces at the end (also when the loser's piece handed the win over),
0 for a draw, negative for a loss; heuristic results carry the evaluation as ``score``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from perfectplay import api
from perfectplay.cli import (
    EXIT_OK,
    PROMPT_COMMANDS,
    PlayText,
    _console,
    _limit,
    _print_json,
    _say,
    _search_line,
    _value_text,
)
from perfectplay.cli_connect4 import engine_value
from perfectplay.errors import ParameterError
from perfectplay.games.simplexity.rules import SimplexityGame, SimplexityMove, SimplexityPosition
from perfectplay.notation import (
    format_simplexity_moves,
    parse_simplexity_move,
    render_simplexity_board,
    simplexity_quotas,
)
from perfectplay.search.limits import Limit
from perfectplay.search.result import SearchResult

if TYPE_CHECKING:
    from rich.console import Console

    from perfectplay.arena import ArenaResult, GameRecord

DEFAULT_TIME = 3.0
"""Seconds ``best`` and ``play`` search without --time/--depth."""
EXACT_EMPTY_CELLS = 20
"""Most empty cells ``solve``/``analyze`` solve exactly without a limit (4x5 takes ~20 s)."""
SIDES = {"1": "player 1 (red, O)", "2": "player 2 (blue, X)"}


# -- loading and options ---------------------------------------------------------------------
def check_options(args: argparse.Namespace) -> None:
    """Reject the options the shape-and-color game has no use for, naming them."""
    if getattr(args, "k", None) is not None:
        raise ParameterError(f"--k {args.k}: the shape-and-color game always plays four in a row")
    if getattr(args, "weak", False):
        raise ParameterError("--weak: only connect4 has a weak (win/draw/loss) solver")
    if getattr(args, "board", None) == "-":
        raise ParameterError("BOARD '-' (positions from stdin): only connect4 has batch mode")
    for option in ("book", "table_bits"):
        if getattr(args, option, None) is not None:
            raise ParameterError(f"--{option.replace('_', '-')}: only connect4's solver takes it")
    if getattr(args, "no_book", False):
        raise ParameterError("--no-book: only connect4's solver takes it")


def load(args: argparse.Namespace) -> tuple[SimplexityGame, SimplexityPosition]:
    """The game and position of ``BOARD`` on ``--size`` (the empty board for ``''``)."""
    game, position = api.load("simplexity", args.board, size=args.size)
    return api.with_evaluation(game, getattr(args, "eval", None)), position


def exact_or_limited(
    args: argparse.Namespace, game: SimplexityGame, position: SimplexityPosition
) -> Limit:
    """The limit of --time/--depth; without either an exact solve, refused (with a hint) on
    running positions with more than :data:`EXACT_EMPTY_CELLS` empty cells."""
    limit = _limit(args)
    empty = game.plies_left_bound(position)
    if limit.unlimited and empty > EXACT_EMPTY_CELLS:
        raise ParameterError(
            f"{args.command} simplexity: {empty} empty cells are too many to solve exactly "
            f"(at most {EXACT_EMPTY_CELLS}); give --time S to search S seconds (exact when "
            "the search reaches the end), --depth N, or a smaller --size"
        )
    return limit


# -- best / solve ----------------------------------------------------------------------------
def cmd_best(args: argparse.Namespace) -> int:
    """``best simplexity``: the engine's move (:func:`result_json` with ``--json``)."""
    check_options(args)
    game, position = load(args)
    limit = _limit(args)
    if limit.unlimited:
        limit = api.limit(time=DEFAULT_TIME)
    result = api.best(game, position, limit, seed=args.seed)
    return report(args, game, position, result, with_pv=False)


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve simplexity``: value, best move and principal variation."""
    check_options(args)
    game, position = load(args)
    result = api.solve(game, position, exact_or_limited(args, game, position))
    return report(args, game, position, result, with_pv=True)


def result_json(
    game: SimplexityGame, position: SimplexityPosition, result: SearchResult[Any]
) -> dict[str, Any]:
    """:func:`perfectplay.api.result_json` with ``finished``, ``winner`` (the rules' winner
    of a finished board: 1 or 2, ``None`` when unfinished or drawn) and ``to_move`` as 1 or 2."""
    data = api.result_json(game, position, result)
    outcome = game.outcome(position)
    winner = None if outcome is None or outcome.winner is None else int(outcome.winner)
    data.update(finished=outcome is not None, winner=winner, to_move=int(game.to_move(position)))
    return data


def report(
    args: argparse.Namespace,
    game: SimplexityGame,
    position: SimplexityPosition,
    result: SearchResult[Any],
    with_pv: bool,
) -> int:
    """Print a result as :func:`result_json`, or as the board, the quotas, the verdict, the
    principal variation (``with_pv``) and the search figures."""
    data = result_json(game, position, result)
    if args.json:
        _print_json(data)
        return EXIT_OK
    console = _console()
    show_board(console, position)
    if data["finished"]:
        _say(console, game_over(game, position))
        return EXIT_OK
    _say(console, f"{side_line(game, position)}: best move {data_move(data)} — {_value_text(data)}")
    if with_pv:
        _say(console, "principal variation: " + format_simplexity_moves(result.pv))
    _say(console, _search_line(result))
    return EXIT_OK


def data_move(data: dict[str, Any]) -> str:
    """``4O`` from a JSON move object."""
    move = data["best_move"]
    return f"{move['column']}{move['shape']}"


def show_board(console: Console, position: SimplexityPosition) -> None:
    """The board as the course prints it (red and blue on a terminal), then both quotas."""
    from rich.text import Text

    board = render_simplexity_board(position, color=console.is_terminal)
    console.print(Text.from_ansi(board), soft_wrap=True)
    _say(console, "pieces left: " + simplexity_quotas(SimplexityGame(position.spec), position))


def side_line(game: SimplexityGame, position: SimplexityPosition) -> str:
    """``player 2 (blue, X) to move, 3 pieces on the 6x7 board``."""
    side = SIDES[game.player_name(game.to_move(position))]
    pieces = position.plies
    label = game.spec.label
    return f"{side} to move, {pieces} piece{'' if pieces == 1 else 's'} on the {label} board"


def game_over(game: SimplexityGame, position: SimplexityPosition) -> str:
    """``game over: four X shapes: player 2 wins`` or ``game over: the board is full (draw)``."""
    outcome = game.outcome(position)
    assert outcome is not None
    return f"game over: {outcome.reason}" + (" (draw)" if outcome.winner is None else "")


# -- analyze ---------------------------------------------------------------------------------
def cmd_analyze(args: argparse.Namespace) -> int:
    """``analyze simplexity``: the value of every legal (column, shape) for the side to move
    (``api.analysis_json`` with ``to_move`` and ``finished`` as ``--json``)."""
    check_options(args)
    game, position = load(args)
    limit = exact_or_limited(args, game, position)
    data = api.analysis_json(game, position, api.analyze(game, position, limit))
    data.update(to_move=int(game.to_move(position)), finished=game.outcome(position) is not None)
    if args.json:
        _print_json(data)
        return EXIT_OK
    console = _console()
    show_board(console, position)
    if not data["moves"]:
        _say(console, game_over(game, position) + "; no moves to analyze")
        return EXIT_OK
    console.print(analysis_table(game, position, data["moves"]))
    return EXIT_OK


def analysis_table(
    game: SimplexityGame, position: SimplexityPosition, moves: list[dict[str, Any]]
) -> Any:
    """A rich table: move, outcome, plies, score, and a mark on the best moves."""
    from rich.table import Table

    top = max(rank(item) for item in moves)
    table = Table(title=f"{side_line(game, position)}: {len(moves)} moves", title_justify="left")
    table.add_column("move")
    table.add_column("outcome")
    table.add_column("plies", justify="right")
    table.add_column("score", justify="right")
    table.add_column("")
    for item in moves:
        table.add_row(
            f"{item['column']}{item['shape']}",
            item["outcome"] or "heuristic",
            "" if item["plies"] is None else str(item["plies"]),
            f"{item['score']:g}",
            "best" if rank(item) == top else "",
        )
    return table


def rank(item: dict[str, Any]) -> tuple[int, float]:
    """Proven wins first, then draws and heuristic values, then losses."""
    tier = {"win": 2, "loss": 0}.get(item["outcome"], 1)
    return tier, item["score"]


# -- play ------------------------------------------------------------------------------------
def play_text() -> PlayText:
    """How ``play simplexity`` draws the board and reads and names moves."""
    return PlayText(
        show_board=show_board,
        move=str,
        side=lambda name: SIDES.get(name, name),
        value=engine_value,
        read=read_move,
        entry=lambda game: f"a move such as 4O (column 1-{game.spec.cols}, shape O or X)",
        help=play_help,
    )


def read_move(
    game: SimplexityGame, position: SimplexityPosition, text: str
) -> tuple[SimplexityMove, SimplexityPosition]:
    """The typed move (``4O``, ``4x``) and the position after it; the error names the move
    (numbered in the game) and says what is wrong (not a move, no such shape, no such column,
    a full column, no pieces left)."""
    column, shape = parse_simplexity_move(text, position.plies + 1)
    move = SimplexityMove(column, shape)
    return move, game.play(position, move)


def play_help(game: SimplexityGame) -> str:
    """The commands understood at the prompt."""
    return (
        f"moves: a column number from 1 (left) to {game.spec.cols} (right) and a shape, O or X "
        "(4O, 2x); the piece falls to the lowest empty cell and has your color. Four of one "
        "shape win for that shape's owner (O: player 1, X: player 2), whoever placed them; "
        "four of one color win for that color; a shape four beats a color four\n" + PROMPT_COMMANDS
    )


# -- arena -----------------------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace) -> int:
    """``arena simplexity``: a match of ``--p1`` against ``--p2`` (the
    :meth:`perfectplay.arena.ArenaResult.as_dict` document with ``--json``)."""
    from perfectplay.arena import parse_player, run_arena

    p1, p2 = parse_player(args.p1), parse_player(args.p2)
    game, _ = api.new_game("simplexity", size=args.size)
    if args.time is not None:
        api.limit(time=args.time)
    with arena_progress(sys.stderr.isatty(), args.games) as progress:
        result = run_arena(
            game,
            p1,
            p2,
            args.games,
            time_limit=args.time,
            seed=args.seed,
            opening_plies=args.opening_plies,
            progress=progress,
        )
    if args.json:
        _print_json(result.as_dict())
        return EXIT_OK
    console = _console()
    console.print(arena_table(result))
    _say(console, arena_summary(result))
    return EXIT_OK


@contextmanager
def arena_progress(
    show: bool, games: int
) -> Iterator[Callable[[int, int, GameRecord], None] | None]:
    """A rich progress bar on stderr (when ``show``) counting the games played."""
    if not show:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task("arena", total=games)

        def update(done: int, total: int, record: GameRecord) -> None:
            bar.update(task, completed=done)

        yield update


def arena_table(result: ArenaResult) -> Any:
    """Per player: wins-losses-draws in all, moving first and second; time per move (mean and
    maximum); the mean depth completed. The title names the players' specs."""
    from rich.table import Table

    p1, p2 = result.players
    title = f"arena {result.game} {result.size}, {len(result.games)} games"
    if result.time is not None:
        title += f", {result.time:g} s per move"
    title += f"\np1 = {p1.spec}, p2 = {p2.spec}"
    table = Table(title=title, title_justify="left")
    for name in ("player", "W-L-D", "first", "second"):
        table.add_column(name)
    for name in ("mean/move", "max/move", "depth"):
        table.add_column(name, justify="right")
    for label, record in zip(("p1", "p2"), result.players, strict=True):
        depth = record.mean_depth
        table.add_row(
            label,
            _wld(record.total),
            _wld(record.first),
            _wld(record.second),
            _ms(record.mean_seconds),
            _ms(record.max_seconds),
            "-" if depth is None else f"{depth:.1f}",
        )
    return table


def _wld(side: Any) -> str:
    return f"{side.wins}-{side.losses}-{side.draws}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def arena_summary(result: ArenaResult) -> str:
    """``p1 wins 30, p2 wins 8, 2 draws``."""
    p1, p2 = result.players
    return f"p1 wins {p1.total.wins}, p2 wins {p2.total.wins}, {result.draws} draws"
