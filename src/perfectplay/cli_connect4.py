"""Connect Four in the ``perfectplay`` command line; :mod:`perfectplay.cli` calls these handlers
once GAME names Connect Four (``connect4``, ``c4``, ``connect-four``).

Positions are move sequences of 1-based columns (``4453``; ``10,3,4`` on boards wider than 9;
``''`` for the empty board) on a ``--size WIDTHxHEIGHT`` board (default 7x6), or pictures (see
:mod:`perfectplay.notation`). Scores are the standard Connect Four scores of the side to
move: ``(cells + 1) // 2 + 1 - s`` for a win with its ``s``-th stone, 0 for a draw, the
negative for a loss (``22 - s`` on 7x6); weak scores are 1, 0 and -1.

Exact solves (no --depth/--time) call the compiled solver of
:mod:`perfectplay.games.connect4.kernel` directly, so that a long solve can show its progress (the
score window narrowing, nodes, nodes per second) on stderr, when stderr is a terminal. The
result is what :func:`perfectplay.api.solve` gives (the same solver and move choice: the first
optimal column in centre-first order) and prints as :func:`perfectplay.api.result_json`.
Limited searches (--depth/--time) and ``best --seed`` go through :mod:`perfectplay.api`.

Batch mode (``solve connect4 -``) is described at :func:`cmd_batch`.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from perfectplay import api
from perfectplay.cli import (
    EXIT_OK,
    PROG,
    PROMPT_COMMANDS,
    PlayText,
    _console,
    _duration,
    _limit,
    _load,
    _print_json,
    _say,
    _search_line,
    _stderr,
)
from perfectplay.errors import NotationError, ParameterError, PerfectplayError
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position
from perfectplay.notation import (
    format_connect4_moves,
    parse_connect4_moves,
    render_connect4_board,
)
from perfectplay.search.result import MoveValue, Score, SearchResult
from perfectplay.values import WIN

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

    from perfectplay.games.connect4.kernel import Connect4Kernel, Connect4Table

Progress = Callable[[int, int, int, float], None]
"""The solver's progress callback: (low, high, nodes, seconds) after each null-window probe."""


from perfectplay.values import UNLIMITED_NODES as UNLIMITED

DEFAULT_TABLE_BITS = 23
MIN_TABLE_BITS, MAX_TABLE_BITS = 10, 30
PROGRESS_DELAY = 0.25
"""Seconds a solve runs before its status line appears (quick solves show nothing)."""
ALGORITHM = "connect4-solver"
SIDES = {"1": "player 1 (x)", "2": "player 2 (o)"}
OUTCOMES = {1: "win", 0: "draw", -1: "loss"}

_WARMED: set[str] = set()
"""Set once the compiled solver has been loaded in this process."""


# -- best / solve ----------------------------------------------------------------------------
def cmd_best(args: argparse.Namespace) -> int:
    """``best connect4``: the best column (``api.result_json`` with ``--json``)."""
    _check_options(args, "best")
    game, position = _load(args)
    limit = _limit(args)
    if limit.unlimited and args.seed is None:
        result = exact_result(game, position, with_pv=False)
    else:
        result = api.best(game, position, limit, seed=args.seed)
    return _report(args, game, position, result, with_pv=False)


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve connect4``: score, best column and principal variation; ``--weak`` for the
    win/draw/loss value only; BOARD ``-`` for batch mode (:func:`cmd_batch`)."""
    _check_options(args, "solve")
    if args.board == "-":
        return cmd_batch(args)
    game, position = _load(args)
    if args.weak:
        return _weak_solve(args, game, position)
    limit = _limit(args)
    if limit.unlimited:
        result = exact_result(game, position, with_pv=True)
    else:
        result = api.solve(game, position, limit)
    return _report(args, game, position, result, with_pv=True)


_SETTINGS = {"table_bits": DEFAULT_TABLE_BITS}
"""This process's solver table size (``--table-bits``)."""


def _check_options(args: argparse.Namespace, command: str) -> None:
    """Reject option combinations that mean nothing for Connect Four, naming them, and apply
    ``--table-bits`` and ``--book``."""
    _apply_solver_options(args)
    if getattr(args, "eval", None) is not None:
        raise ParameterError(f"--eval {args.eval}: only simplexity has named evaluations")
    if args.board == "-" and command != "solve":
        raise ParameterError(
            f"BOARD '-' (positions from stdin): batch mode is solve's, not {command}'s"
        )
    limited = args.depth is not None or args.time is not None
    if getattr(args, "weak", False) and limited and args.board != "-":
        raise ParameterError("--weak: the weak solve is exact; it takes no --depth or --time")


def _apply_solver_options(args: argparse.Namespace) -> None:
    """``--table-bits`` sets this process's table size; ``--book`` loads an opening book into
    the board size's kernel, ``--no-book`` unloads the one shipped for it. Raises
    :class:`ParameterError` naming a bad value or file."""
    bits = getattr(args, "table_bits", None)
    if bits is not None:
        if not MIN_TABLE_BITS <= bits <= MAX_TABLE_BITS:
            raise ParameterError(
                f"--table-bits {bits}: must be from {MIN_TABLE_BITS} to {MAX_TABLE_BITS} "
                f"(2**N slots of 16 bytes; the default {DEFAULT_TABLE_BITS} is 128 MiB)"
            )
        _SETTINGS["table_bits"] = bits
    if getattr(args, "no_book", False):
        game, _ = api.new_game("connect4", size=args.size, k=args.k)
        game.kernel().use_book(None)
    if getattr(args, "book", None) is not None:
        from pathlib import Path

        from perfectplay.games.connect4.book import OpeningBook

        game, _ = api.new_game("connect4", size=args.size, k=args.k)
        game.kernel().use_book(OpeningBook.load(Path(args.book)))


def exact_result(
    game: Connect4Game, position: Connect4Position, with_pv: bool
) -> SearchResult[int]:
    """The exact solve of ``position`` as :func:`perfectplay.api.solve` reports it, with a
    progress line on stderr when it is a terminal; ``with_pv`` adds the principal variation
    (else the line is just the best move)."""
    outcome = game.outcome(position)
    if outcome is not None:
        value = 0 if outcome.winner is None else -WIN
        return SearchResult(None, Score(value, True), (), 0, 0, 0.0, ALGORITHM)
    kernel, table = _solver(game)
    started = time.perf_counter()
    with status_line(sys.stderr.isatty()) as status:
        solved = kernel.solve(position, table, progress=_callback(status))
        if status is not None:
            found = "best move and principal variation" if with_pv else "best move"
            status.phase(f"score {solved.score}: {found}")
        column, extra = kernel.best_column(position, solved.score, table, UNLIMITED)
        if column is None:  # pragma: no cover - the solver contradicting itself
            raise RuntimeError(f"no column achieves the solved score {solved.score}")
        value = kernel.to_value(position, solved.score)
        pv = kernel.exact_line(position, column, value, table) if with_pv else (column,)
    return SearchResult(
        best_move=column,
        score=Score(value, True),
        pv=tuple(pv),
        nodes=solved.nodes + extra,
        depth=game.plies_left_bound(position),
        time=time.perf_counter() - started,
        algorithm=ALGORITHM,
    )


def _solver(game: Connect4Game) -> tuple[Connect4Kernel, Connect4Table]:
    """The game's kernel, loaded, and a fresh table of the chosen size."""
    kernel: Connect4Kernel = game.kernel()
    _warm_up(kernel, game)
    return kernel, kernel.new_table(1 << _SETTINGS["table_bits"])


def _warm_up(kernel: Connect4Kernel, game: Connect4Game) -> None:
    """Load the compiled solver (both of its entry points) before any clock starts, once."""
    if ALGORITHM in _WARMED:
        return
    _WARMED.add(ALGORITHM)
    table = kernel.new_table(1 << 4)
    start = game.initial()
    kernel.solve(start, table, node_budget=1)
    kernel.solve(start, table, node_budget=1, progress=lambda *_: None)


def position_score(
    kernel: Connect4Kernel,
    table: Connect4Table,
    position: Connect4Position,
    weak: bool,
    progress: Progress | None = None,
) -> tuple[int, int, float]:
    """``(score, nodes, seconds)`` of the side to move: the standard score (weak: -1, 0, 1);
    a finished position has its finished score (minus the winner's, 0 for a draw)."""
    game = kernel.game
    if game.outcome(position) is not None:
        score = game.finished_score(position)
        return (_sign(score) if weak else score), 0, 0.0
    started = time.perf_counter()
    solved = kernel.solve(position, table, weak=weak, progress=progress)
    return solved.score, solved.nodes, time.perf_counter() - started


def _sign(value: int) -> int:
    """-1, 0 or 1."""
    return (value > 0) - (value < 0)


def _weak_solve(args: argparse.Namespace, game: Connect4Game, position: Connect4Position) -> int:
    """``solve --weak``: win (1), draw (0) or loss (-1) for the side to move."""
    kernel, table = _solver(game)
    with status_line(sys.stderr.isatty()) as status:
        score, nodes, seconds = position_score(kernel, table, position, True, _callback(status))
    side = game.player_name(game.to_move(position))
    if args.json:
        _print_json(
            {
                "to_move": side,
                "score": score,
                "outcome": OUTCOMES[score],
                "weak": True,
                "nodes": nodes,
                "time_ms": round(seconds * 1000, 3),
            }
        )
        return EXIT_OK
    console = _console()
    show_board(console, position)
    if game.outcome(position) is not None:
        _say(console, _game_over(game, position))
        return EXIT_OK
    _say(console, _side_line(game, position))
    _say(console, f"player {side} to move: {OUTCOMES[score]} (weak solve, score {score})")
    _say(console, f"searched {nodes:,} node{'' if nodes == 1 else 's'} in {_duration(seconds)}")
    return EXIT_OK


# -- text output -----------------------------------------------------------------------------
def _report(
    args: argparse.Namespace,
    game: Connect4Game,
    position: Connect4Position,
    result: SearchResult[int],
    with_pv: bool,
) -> int:
    """Print a search result as ``api.result_json`` or as the board, the side to move, the
    verdict, the principal variation (``with_pv``) and the search figures."""
    if args.json:
        _print_json(api.result_json(game, position, result))
        return EXIT_OK
    console = _console()
    show_board(console, position)
    if result.best_move is None or game.outcome(position) is not None:
        _say(console, _game_over(game, position))
        return EXIT_OK
    _say(console, _side_line(game, position))
    _say(console, verdict(game, position, result))
    if with_pv:
        _say(console, "principal variation: " + format_connect4_moves(game, result.pv))
    _say(console, _search_line(result))
    return EXIT_OK


def show_board(console: Console, position: Connect4Position) -> None:
    """Print the board with its column numbers, coloured when the console is a terminal."""
    from rich.text import Text

    board = render_connect4_board(position, color=console.is_terminal)
    console.print(Text.from_ansi(board), soft_wrap=True)


def _side_line(game: Connect4Game, position: Connect4Position) -> str:
    """``player 1 (x) to move, 4 stones on the 7x6 board``."""
    side = SIDES[game.player_name(game.to_move(position))]
    stones = position.plies
    return (
        f"{side} to move, {stones} stone{'' if stones == 1 else 's'} on the {game.spec.label} board"
    )


def _game_over(game: Connect4Game, position: Connect4Position) -> str:
    """``game over: player 1 connects 4`` or ``game over: the board is full (draw)``."""
    outcome = game.outcome(position)
    assert outcome is not None
    return f"game over: {outcome.reason}" + (" (draw)" if outcome.winner is None else "")


def verdict(game: Connect4Game, position: Connect4Position, result: SearchResult[int]) -> str:
    """``player 1 to move: best move column 4 — win, score 1 (wins with its 21st stone)``."""
    data = api.result_json(game, position, result)
    side = game.player_name(game.to_move(position))
    column = data["best_move"]["column"]
    return (
        f"player {side} to move: best move column {column} — "
        f"{value_text(game, data['outcome'], data['score'])}"
    )


def value_text(game: Connect4Game, outcome: str | None, score: float) -> str:
    """``win, score 18 (wins with its 4th stone)``, ``draw, score 0``, ``loss, score -15 (the
    opponent wins with its 7th stone)`` or ``heuristic score +12 (not proven)``."""
    if outcome in ("win", "loss"):
        stones = (game.spec.cells + 1) // 2 + 1 - abs(int(score))
        who = "wins" if outcome == "win" else "the opponent wins"
        return f"{outcome}, score {score} ({who} with its {ordinal(stones)} stone)"
    if outcome == "draw":
        return "draw, score 0"
    return f"heuristic score {score:+g} (not proven)"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


# -- analyze ---------------------------------------------------------------------------------
def cmd_analyze(args: argparse.Namespace) -> int:
    """``analyze connect4``: every column's score (``api.analysis_json`` with ``--json``;
    with ``--weak`` the same shape with scores -1, 0, 1 and ``"weak": true``)."""
    _check_options(args, "analyze")
    game, position = _load(args)
    limit = _limit(args)
    if not limit.unlimited:
        data = api.analysis_json(game, position, api.analyze(game, position, limit))
    else:
        scores, nodes, seconds = column_scores(game, position, args.weak)
        data = _analysis_data(game, position, scores, args.weak)
        if args.weak:
            data.update(weak=True, nodes=nodes, time_ms=round(seconds * 1000, 3))
    if args.json:
        _print_json(data)
        return EXIT_OK
    console = _console()
    show_board(console, position)
    if not data["moves"]:
        _say(console, _game_over(game, position) + "; no moves to analyze")
        return EXIT_OK
    console.print(_analysis_table(game, position, data["moves"], args.weak))
    return EXIT_OK


def column_scores(
    game: Connect4Game, position: Connect4Position, weak: bool
) -> tuple[dict[int, int], int, float]:
    """The mover's standard (or weak) score of every playable column, with the nodes and
    seconds used; one table for all columns, progress on stderr when it is a terminal."""
    kernel, table = _solver(game)
    scores: dict[int, int] = {}
    total = 0
    started = time.perf_counter()
    with status_line(sys.stderr.isatty()) as status:
        for column in game.legal_moves(position):
            if status is not None:
                status.label = f"column {column + 1}"
            child = game.play_column(position, column)
            score, nodes, _ = position_score(kernel, table, child, weak, _callback(status))
            scores[column] = -score
            total += nodes
    return scores, total, time.perf_counter() - started


def _analysis_data(
    game: Connect4Game, position: Connect4Position, scores: dict[int, int], weak: bool
) -> dict[str, Any]:
    """``api.analysis_json`` of exact column scores; the weak variant in the same shape."""
    if weak:
        moves = [
            {"column": column + 1, "outcome": OUTCOMES[score], "score": score, "weak": True}
            for column, score in scores.items()
        ]
        return {"moves": moves}
    kernel: Connect4Kernel = game.kernel()
    values = [
        MoveValue(column, Score(kernel.to_value(position, score), True))
        for column, score in scores.items()
    ]
    return api.analysis_json(game, position, values)


def _analysis_table(
    game: Connect4Game, position: Connect4Position, moves: list[dict[str, Any]], weak: bool
) -> Any:
    """A rich table: column, outcome, score, how the game ends, and a mark on the best."""
    from rich.table import Table

    top = max(_rank(item) for item in moves)
    side = SIDES[game.player_name(game.to_move(position))]
    title = f"{side} to move: {len(moves)} columns" + (" (weak solve)" if weak else "")
    table = Table(title=title, title_justify="left")
    table.add_column("column", justify="right")
    table.add_column("outcome")
    table.add_column("score", justify="right")
    if not weak:
        table.add_column("end of the game")
    table.add_column("")
    for item in moves:
        cells = [str(item["column"]), item["outcome"] or "heuristic", f"{item['score']:g}"]
        if not weak:
            cells.append(_ending(value_text(game, item["outcome"], item["score"])))
        cells.append("best" if _rank(item) == top else "")
        table.add_row(*cells)
    return table


def _rank(item: dict[str, Any]) -> tuple[int, float]:
    """Order of the analysis rows: proven wins, then draws and heuristic values, then losses
    (a heuristic value never outranks a proven win)."""
    tier = {"win": 2, "loss": 0}.get(item["outcome"], 1)
    return tier, item["score"]


def _ending(text: str) -> str:
    """``wins with its 4th stone``: the part of a value text in parentheses (or nothing)."""
    if "(" not in text or text.startswith("heuristic"):
        return ""
    return text[text.index("(") + 1 : -1]


# -- batch mode ------------------------------------------------------------------------------
SCORED_LINE = re.compile(r"(.*[^,\s])\s+([+-]?\d+)")
"""``moves score``: the score is the last field, after whitespace that follows no comma."""
EMPTY_SCORED_LINE = re.compile(r"\s+([+-]?\d+)")
"""`` 1``: the empty board's line, as batch mode writes it."""


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One parsed input line: the moves as written back, the position, the expected score."""

    moves: str
    position: Connect4Position
    expected: int | None


@dataclass(slots=True)
class BatchTally:
    """What the summary line reports."""

    positions: int = 0
    checked: int = 0
    mismatches: int = 0
    nodes: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """``20 positions, 0 mismatches, mean 51.2 µs, 51 nodes``."""
        count = max(1, self.positions)
        text = (
            f"{self.positions} position{'' if self.positions == 1 else 's'}, "
            f"{self.mismatches} mismatch{'' if self.mismatches == 1 else 'es'}, "
            f"mean {_mean_time(self.seconds / count)}, {round(self.nodes / count):,} nodes"
        )
        if self.checked < self.positions:
            text += f" ({self.checked} with expected scores)"
        return text


def cmd_batch(args: argparse.Namespace) -> int:
    """``solve connect4 -``: solve every line of stdin, write ``moves score`` lines.

    Each input line is ``moves`` or ``moves score`` (trailing whitespace ignored; an empty
    line is the empty board, and a space followed by a score is the empty board with that
    expected score, which is how its output line reads). The output repeats the moves in
    canonical form with the computed score (weak: -1, 0, 1), one flushed line per input line.
    One table serves the whole batch, cleared before each position. An expected score that
    differs (with ``--weak``: in sign) is still answered with the computed score, reported on
    stderr and counted; a summary line closes the batch on stderr when any line had an
    expected score. Mismatches leave the exit status 0. A bad line stops the batch: the
    lines before it have been answered, the error names the line and the problem, status 2.
    """
    if args.json or args.depth is not None or args.time is not None:
        raise ParameterError(
            "BOARD '-' (batch mode) writes 'moves score' lines of exact solves; "
            "it takes no --json, --depth or --time"
        )
    game, _ = api.new_game("connect4", size=args.size, k=args.k)
    kernel, table = _solver(game)
    # Touch every page of the table now: otherwise the first positions pay for the memory's
    # first use (milliseconds each) and the mean time says more about the kernel than the solver.
    table.touch()
    tally = BatchTally()
    show = sys.stderr.isatty() and not sys.stdout.isatty()
    with status_line(show) as status:
        for number, text in enumerate(sys.stdin, start=1):
            line = parse_batch_line(game, text, number)
            if status is not None:
                status.label = f"line {number}"
            table.clear()
            solved = position_score(kernel, table, line.position, args.weak, _callback(status))
            sys.stdout.write(f"{line.moves} {solved[0]}\n")
            sys.stdout.flush()
            _tally(tally, status, number, line.expected, solved, args.weak)
    if tally.checked:
        _stderr(f"{PROG}: {tally.summary()}")
    return EXIT_OK


def _tally(
    tally: BatchTally,
    status: StatusLine | None,
    number: int,
    expected: int | None,
    solved: tuple[int, int, float],
    weak: bool,
) -> None:
    """Count one answered line; report a mismatch with its expected score on stderr."""
    score, nodes, seconds = solved
    tally.positions += 1
    tally.nodes += nodes
    tally.seconds += seconds
    if expected is None:
        return
    tally.checked += 1
    if (_sign(expected) if weak else expected) != score:
        tally.mismatches += 1
        kind = "weak score" if weak else "score"
        _note(status, f"{PROG}: line {number}: expected {kind} {expected}, computed {score}")


def parse_batch_line(game: Connect4Game, text: str, number: int) -> BatchLine:
    """The position and expected score of input line ``number``; errors start ``line N:``."""
    try:
        return _parse_batch_line(game, text.rstrip())
    except PerfectplayError as exc:
        raise type(exc)(f"line {number}: {exc}") from None


def _parse_batch_line(game: Connect4Game, text: str) -> BatchLine:
    """:func:`parse_batch_line` without the line number."""
    _check_fields(text)
    empty, scored = EMPTY_SCORED_LINE.fullmatch(text), SCORED_LINE.fullmatch(text)
    if empty:
        moves, expected = "", empty.group(1)
    elif scored:
        moves, expected = scored.group(1), scored.group(2)
    else:
        moves, expected = text, None
    position, columns = parse_connect4_moves(game, moves)
    score = None if expected is None else _expected_score(game, expected)
    return BatchLine(format_connect4_moves(game, columns), position, score)


def _check_fields(text: str) -> None:
    """Name the problem of a line that is not ``moves`` or ``moves score``."""
    fields = re.sub(r"\s*,\s*", ",", text.strip()).split()
    if len(fields) == 2 and not re.fullmatch(r"[+-]?\d+", fields[1]):
        raise NotationError(
            f"score {fields[1]!r}: not a whole number (a line is 'moves' or 'moves score')"
        )
    if len(fields) > 2:
        raise NotationError(
            f"{text.strip()!r}: {len(fields)} fields; a line is 'moves' or 'moves score'"
        )


def _expected_score(game: Connect4Game, text: str) -> int:
    """An expected score, checked against the board's range."""
    score, top = int(text), game.spec.max_score
    if abs(score) > top:
        raise NotationError(
            f"score {score}: out of range, scores on {game.spec.label} lie from -{top} to {top}"
        )
    return score


def _mean_time(seconds: float) -> str:
    """``51.2 µs``, ``10.2 ms`` or ``1.25 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return _duration(seconds)


# -- progress --------------------------------------------------------------------------------
class StatusLine:
    """A transient rich status line on stderr showing a solve's progress: the score window,
    nodes and nodes per second. It appears only once a solve has run ``PROGRESS_DELAY``
    seconds, and leaves nothing behind when stopped. Set ``label`` to name the current task."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.label = "solving"
        self._live: Live | None = None
        self._spinner: Spinner | None = None

    def update(self, low: int, high: int, nodes: int, seconds: float) -> None:
        """The solver's progress callback."""
        if self._live is None and seconds < PROGRESS_DELAY:
            return
        text = f"{self.label}: score {low}..{high}, {nodes:,} nodes{_rate(nodes, seconds)}"
        if self._spinner is not None:
            self._spinner.update(text=text)
            return
        from rich.live import Live
        from rich.spinner import Spinner

        self._spinner = Spinner("dots", text)
        self._live = Live(
            self._spinner,
            console=self.console,
            transient=True,
            refresh_per_second=8,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._live.start()

    def phase(self, text: str) -> None:
        """Say what follows the solve (shown only if the status line is already up)."""
        self.label = text
        if self._spinner is not None:
            self._spinner.update(text=f"{text} ...")

    def print(self, message: str) -> None:
        """A line on the status line's console, above the status."""
        self.console.print(message, markup=False, highlight=False)

    def stop(self) -> None:
        """Remove the status line."""
        if self._live is not None:
            self._live.stop()
            self._live = self._spinner = None


def _rate(nodes: int, seconds: float) -> str:
    """``, 9.1 M nodes/s`` (empty before any time has passed)."""
    if seconds <= 0:
        return ""
    rate = nodes / seconds
    return f", {rate / 1e6:.1f} M nodes/s" if rate >= 1e6 else f", {rate / 1e3:.0f} k nodes/s"


@contextmanager
def status_line(show: bool) -> Iterator[StatusLine | None]:
    """A :class:`StatusLine` on stderr when ``show`` (else ``None``), removed at the end."""
    if not show:
        yield None
        return
    line = StatusLine(_console(stderr=True))
    try:
        yield line
    finally:
        line.stop()


def _callback(status: StatusLine | None) -> Progress | None:
    """The progress callback of a status line (``None``: the solver runs fully compiled)."""
    return None if status is None else status.update


def _note(status: StatusLine | None, message: str) -> None:
    """A line on stderr that does not tear the status line."""
    if status is None:
        _stderr(message)
    else:
        status.print(message)


# -- play ------------------------------------------------------------------------------------
def play_text() -> PlayText:
    """How ``play connect4`` draws the board and reads and names columns."""
    return PlayText(
        show_board=show_board,
        move=lambda column: str(column + 1),
        side=lambda name: SIDES.get(name, name),
        value=engine_value,
        read=read_column,
        entry=lambda game: f"a column number 1-{game.spec.width}",
        help=_play_help,
    )


def engine_value(score: Score) -> str:
    """``win in 13``, ``draw``, ``loss in 4`` or ``heuristic +12``."""
    if score.outcome is None:
        return f"heuristic {score.value:+g}"
    return str(score)


def read_column(
    game: Connect4Game, position: Connect4Position, text: str
) -> tuple[int, Connect4Position]:
    """The 0-based column of a typed 1-based number and the position after it; errors say
    what is wrong (not a number, no such column, a full column)."""
    cleaned = text.strip()
    if not re.fullmatch(r"\d{1,3}", cleaned):
        raise NotationError(f"move {text!r}: expected a column number from 1 to {game.spec.width}")
    column = int(cleaned) - 1
    return column, game.play(position, column)


def _play_help(game: Connect4Game) -> str:
    """The commands understood at the prompt."""
    return (
        f"moves: a column number from 1 (left) to {game.spec.width} (right); the stone falls "
        "to the lowest empty cell\n" + PROMPT_COMMANDS
    )


# -- opening books ---------------------------------------------------------------------------
def cmd_book(args: argparse.Namespace) -> int:
    """``book connect4 --depth D --out FILE``: solve every position with D stones (one per
    mirror pair) into an opening book that ``--book FILE`` makes the solver consult."""
    from pathlib import Path

    from perfectplay.games.connect4.book import build_book, positions_at

    _apply_solver_options(args)
    game, _ = api.new_game("connect4", size=args.size, k=args.k)
    if not 0 <= args.depth < game.spec.cells:
        raise ParameterError(f"--depth {args.depth}: must be from 0 to {game.spec.cells - 1}")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise ParameterError(f"--out {args.out!r}: no such folder {str(out.parent)!r}")
    total = len(positions_at(game, args.depth))
    with status_line(sys.stderr.isatty()) as status:

        def progress(done: int, count: int, seconds: float) -> None:
            if status is not None:
                status.phase(f"book: {done}/{count} positions solved, {seconds:.1f} s")

        started = time.perf_counter()
        book = build_book(game, args.depth, 1 << _SETTINGS["table_bits"], progress)
    book.save(out)
    _say(
        _console(),
        f"opening book {game.spec.label}, depth {args.depth}: {total} positions "
        f"in {time.perf_counter() - started:.1f} s, written to {out}",
    )
    return EXIT_OK
