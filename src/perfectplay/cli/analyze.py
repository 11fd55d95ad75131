"""``perfectplay analyze``: the value of every legal move of a position."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    cell_mark,
    console,
    game_over,
    print_json,
    rank,
    say,
    show_board,
    side,
    stderr,
)
from perfectplay.cli.progress import PROGRESS_DELAY, StatusLine, status_line
from perfectplay.cli.warm import compile_first

if TYPE_CHECKING:
    from perfectplay.api import Loaded, MoveValue, RegisteredGame
    from perfectplay.contract import JSONObject, JSONValue

EPILOG = """\
examples:
  perfectplay analyze tictactoe 'xox/oox/___'
  perfectplay analyze tictactoe 'x__/___/___' --json
  perfectplay analyze tictactoe '____/_x__/__o_/____' --k 3 --depth 6
  perfectplay analyze connect4 4455                   every column's standard score
  perfectplay analyze connect4 4455 --weak --json     win (1), draw (0) or loss (-1) only
  perfectplay analyze simplexity '4O 4X' --size 4x4

The table ranks proven wins first, then draws and heuristic values, then losses, and marks
the best moves. Values are from the mover's point of view after the move."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "the value of every legal move of a position"
    sub = options.add_verb(commands, "analyze", summary, EPILOG, run)
    options.add_board(sub)
    options.add_limits(sub, exclusive=False)
    options.add_weak(sub)


def run(args: argparse.Namespace) -> int:
    """Every legal move's value (``contract.analysis_json`` with ``--json``)."""
    from perfectplay import api, contract

    loaded = options.load(args)
    game, position = loaded.game, loaded.position
    compile_first(args, game, position, options.kernel_options(args))
    bound, trial = options.exact_or_trial(args, game, position, every_move=True)
    kernel = options.kernel_options(args)
    so_far = MovesSoFar(loaded)
    try:
        with status_line(sys.stderr.isatty()) as status:
            so_far.start(status, len(game.legal_moves(position)))
            values = api.analyze(
                game, position, bound, weak=args.weak, options=kernel, on_move=so_far
            )
    except KeyboardInterrupt:
        return so_far.interrupted()
    if trial:
        options.check_trial(
            args, game, position, all(v.score.exact for v in values), every_move=True
        )
    data = contract.analysis_json(game, position, values)
    if args.json:
        print_json(data)
        return EXIT_OK
    out = console()
    moves = data["moves"]
    assert isinstance(moves, list)
    played = [v.move for v in values]
    board = value_board(game, position, moves, played) if moves else None
    if board is None:  # the value board shows the position itself
        show_board(out, game, position)
    if not moves:
        say(out, game_over(game, position) + "; no moves to analyze")
        return EXIT_OK
    out.print(table(game, position, moves, played))
    if board is not None:
        say(out, board)
    return EXIT_OK


def value_board(
    game: RegisteredGame, position: object, moves: list[JSONValue], played: list[object]
) -> str | None:
    """The board with the cell each move fills showing its value compactly (W1 wins with
    the 1st ply, D draws, L4 loses at the 4th, +12 a heuristic score); ``None`` for a game
    without a board view, or where two moves fill one cell."""
    from perfectplay import api

    view = api.board(game, position)
    game_kit = api.kit_of(game)
    labels: dict[tuple[int, int], str] = {}
    for item, move in zip(moves, played, strict=True):
        cell = game_kit.move_cell(game, position, move)
        if view is None or cell is None or cell in labels or not isinstance(item, dict):
            return None
        labels[cell] = short_value(item)
    assert view is not None
    width = max(3, *(len(label) for label in labels.values()))
    heads = "abcdefghijklmnopqrstuvwxyz" if game_kit.board_notation else None
    names = [heads[c] if heads else str(c + 1) for c in range(view.cols)]
    lines = ["    " + " ".join(f"{name:^{width + 2}}" for name in names)]
    separator = "    " + "+".join(["-" * (width + 2)] * view.cols)
    for r, row in enumerate(view.cells):
        cells = [labels.get((r, c), cell_mark(piece)) for c, piece in enumerate(row)]
        lines.append(f"{r + 1:>2}  " + "|".join(f" {cell:^{width}} " for cell in cells))
        if r < view.rows - 1:
            lines.append(separator)
    return "\n".join(line.rstrip() for line in lines)


def short_value(item: JSONObject) -> str:
    """``W1``, ``D``, ``L4`` or a heuristic ``+12``: a value drawn in a board cell."""
    outcome, score = item["outcome"], item["score"]
    if outcome == "win" and not item.get("weak"):
        return f"W{item['plies']}"
    if outcome == "loss" and not item.get("weak"):
        return f"L{item['plies']}"
    if outcome == "draw":
        return "D"
    if item.get("weak"):
        return "W" if outcome == "win" else "L"
    assert isinstance(score, int | float)
    return f"{round(score):+d}"


def table(
    game: RegisteredGame, position: object, moves: list[JSONValue], played: list[object]
) -> Any:
    """A rich table: move, outcome, plies, score, how the game ends, a mark on the best."""
    from rich.table import Table

    from perfectplay import api

    game_kit = api.kit_of(game)
    rows: list[JSONObject] = [item for item in moves if isinstance(item, dict)]
    top = max(rank(item) for item in rows)
    weak = " (weak solve)" if rows[0].get("weak") else ""
    title = f"{side(game, position)} to move: {len(rows)} moves{weak}"
    grid = Table(title=title, title_justify="left")
    grid.add_column("move")
    grid.add_column("outcome")
    grid.add_column("plies", justify="right")
    grid.add_column("score", justify="right")
    grid.add_column("end of the game")
    grid.add_column("")
    for item, move in zip(rows, played, strict=True):
        score, plies, outcome = item["score"], item["plies"], item["outcome"]
        assert isinstance(score, int | float)
        decisive = outcome in ("win", "loss") and not item.get("weak")
        ending = game_kit.ending(game, outcome == "win", int(score)) if decisive else ""
        grid.add_row(
            game_kit.move_label(game, move),
            str(outcome or "heuristic"),
            "" if plies is None else str(plies),
            f"{score:g}",
            ending,
            "best" if rank(item) == top else "",
        )
    return grid


class MovesSoFar:
    """The ``on_move`` callback of an analysis: keeps the moves valued so far, shows them on
    ``status`` (when set) and says them after Ctrl-C."""

    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.status: StatusLine | None = None
        self.valued: list[str] = []

    def start(self, status: StatusLine | None, total: int) -> None:
        """Show the analysis on ``status`` from its start (each move may take a while)."""
        self.status = status
        if status is not None and total:
            status.show(f"analysing move 1 of {total}", PROGRESS_DELAY)

    def __call__(self, value: MoveValue[Any], done: int, total: int, seconds: float) -> None:
        from perfectplay import api

        game = self.loaded.game
        text = f"{api.kit_of(game).move_text(game, value.move)} {value.score}"
        self.valued.append(text)
        if self.status is not None and done < total:
            self.status.show(
                f"analysing move {done + 1} of {total}; {done} valued, last {text}", seconds
            )

    def interrupted(self) -> int:
        """After Ctrl-C: the moves valued so far on stderr; the interrupted exit status."""
        found = ", ".join(self.valued) if self.valued else "none yet"
        stderr(f"perfectplay: interrupted; moves valued so far: {found}")
        return EXIT_INTERRUPTED
