"""``perfectplay history``: rebuild a board's history: the optimal move orders that reach
it, or one with the fewest mistakes (games whose moves can be taken back)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK, cell_mark, console, print_json, say
from perfectplay.cli.progress import status_line
from perfectplay.cli.warm import compile_first
from perfectplay.errors import quote

if TYPE_CHECKING:
    from perfectplay.api import History, HistoryStep, RegisteredGame

LINE_WIDTH = 78
"""Boards after each move are printed side by side up to this width."""

EPILOG = """\
examples:
  perfectplay history tictactoe 'xox/xoo/oxx'         a drawn board: 222 optimal histories
  perfectplay history tictactoe 'xo_/_x_/o_x' --json  no optimal history: move 4 lost
  perfectplay history tictactoe 'xo_/_x_/o_x' --strict   quickest wins, slowest losses too
  perfectplay history tictactoe 'xoox/ooox/oxxx/oxxo' --k 4
  perfectplay history connect4 '...../...../..x../.xoo.'   a 5x4 picture

A move is optimal when it keeps the mover's game-theoretic result (--outcome, the
default) or, with --strict, also the quickest win or the slowest loss. When no history
has only optimal moves, one with the fewest mistakes is shown, each mistake naming what
it threw away ('move 5 turned a draw into a loss')."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "rebuild a board's history: optimal move orders, or the fewest mistakes"
    sub = options.add_verb(
        commands, "history", summary, EPILOG, run, requires=options.capability("HISTORY")
    )
    sub.add_argument("board", metavar="BOARD", help="the board (connect4: a picture)")
    notion = sub.add_mutually_exclusive_group()
    notion.add_argument(
        "--outcome", action="store_true", help="optimal keeps win/draw/loss (default)"
    )
    notion.add_argument("--strict", action="store_true", help="optimal also keeps the distance")
    options.add_size(sub, board=True)
    sub.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    """The board's optimal (or fewest-mistakes) history."""
    from perfectplay import api, contract
    from perfectplay.errors import IllegalPositionError

    loaded = options.load(args)
    game = loaded.game
    compile_first(args, game, loaded.position, every_position=True)
    notion: api.Notion = "strict" if args.strict else "outcome"
    with status_line(sys.stderr.isatty()) as status:

        def progress(stones: int, target: int, valued: int, seconds: float) -> None:
            if status is not None:
                text = f"history: boards of {stones} of {target} stones, {valued:,} valued"
                status.show(text, seconds)

        try:
            found = api.history(game, loaded.position, notion, on_progress=progress)
        except IllegalPositionError as exc:
            raise IllegalPositionError(f"board {quote(args.board)}: {exc}") from None
    if args.json:
        print_json(contract.history_json(game, found))
        return EXIT_OK
    out = console()
    say(out, verdict(game, found))
    if found.steps:
        out.print(steps_table(game, found))
        say(out, "boards after each move:")
        say(out, boards_in_rows(game, found.steps))
    return EXIT_OK


def verdict(game: RegisteredGame, found: History) -> str:
    """The first lines: the board, reachable optimally or not, the count, the mistakes."""
    from perfectplay import api

    moves = len(found.steps)
    outcome = game.outcome(found.position)
    mover = api.kit_of(game).side_label(game, int(game.to_move(found.position)))
    state = f"{mover} to move" if outcome is None else f"game over, {outcome.reason}"
    head = f"{moves} move{'' if moves == 1 else 's'} on the board, {state}"
    if not moves:
        return f"{head}\nnothing has been played yet"
    notion = f"every move optimal ({found.notion})"
    if found.reachable_optimally:
        count = found.optimal_histories
        return (
            f"{head}\nreachable with {notion}: {count:,} "
            f"histor{'y' if count == 1 else 'ies'}; one of them:"
        )
    mistakes = found.mistakes
    named = "; ".join(api.mistake_text(step, found.notion) for step in mistakes)
    return (
        f"{head}\nnot reachable with {notion}; fewest mistakes: {len(mistakes)} "
        f"({named}); one such history:"
    )


def steps_table(game: RegisteredGame, found: History) -> Any:
    """A rich table: move number, player, move, best value before, value played, verdict."""
    from rich import box
    from rich.table import Table

    from perfectplay import api

    game_kit = api.kit_of(game)
    grid = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("#", "player", "move", "best available", "move's value", ""):
        grid.add_column(name)
    for step in found.steps:
        grid.add_row(
            str(step.ply),
            game_kit.side_label(game, int(step.player)),
            api.move_name(game, step.move),
            api.value_words(step.best, found.notion),
            api.value_words(step.played, found.notion),
            "optimal" if step.optimal else "MISTAKE",
            style="" if step.optimal else "bold red",
        )
    return grid


def boards_in_rows(game: RegisteredGame, steps: tuple[HistoryStep, ...]) -> str:
    """The boards after each move, side by side, as many per line as fit."""
    drawn = [(f"{step.ply}.", board_lines(game, step.position)) for step in steps]
    width = max(len(line) for _, lines in drawn for line in lines) + 3
    per_line = max(1, LINE_WIDTH // width)
    blocks = []
    for start in range(0, len(drawn), per_line):
        group = drawn[start : start + per_line]
        lines = ["".join(f"{title:<{width}}" for title, _ in group).rstrip()]
        for r in range(max(len(rows) for _, rows in group)):
            cells = (rows[r] if r < len(rows) else "" for _, rows in group)
            lines.append("".join(f"{cell:<{width}}" for cell in cells).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def board_lines(game: RegisteredGame, position: object) -> list[str]:
    """A board as rows of marks with spaces between the cells (``x o .``), from the game's
    board view; the game's own text for a game without one."""
    from perfectplay import api

    view = api.board(game, position)
    if view is None:
        return api.render(game, position).splitlines() or [""]
    return [" ".join(cell_mark(piece) for piece in row) for row in view.cells]
