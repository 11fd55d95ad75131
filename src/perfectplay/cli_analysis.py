"""The ``history`` and ``tree`` commands (their parsers are in :mod:`perfectplay.cli`).

``history GAME BOARD [--outcome | --strict] [--json]``: whether the board can be reached by
a game of only optimal moves, one such history (or one with the fewest mistakes, each named),
and how many there are (:mod:`perfectplay.analysis.history`).

``tree GAME BOARD [--depth D] [--alphabeta] [--heuristic] [--svg FILE | --dot FILE]``: the
game tree with minimax values, or alpha-beta's windows and cuts
(:mod:`perfectplay.analysis.tree`), in the terminal or as a Graphviz picture
(:mod:`perfectplay.analysis.render`).

The error contract is :mod:`perfectplay.cli`'s: input errors raise
:class:`~perfectplay.errors.PerfectplayError` (exit 2, one line on stderr).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from perfectplay import api
from perfectplay.analysis.history import History, HistoryStep, Notion, mistake_text, value_words
from perfectplay.analysis.render import move_name, side_name
from perfectplay.analysis.tree import GameTree, Leaves
from perfectplay.cli import EXIT_OK, _console, _print_json, _say
from perfectplay.errors import IllegalPositionError, ParameterError

BOARD_CELLS = 36
"""Boards up to this many cells are shown in the terminal tree."""
LINE_WIDTH = 78
TREE_WIDTH = 1_000


def _load(args: argparse.Namespace) -> tuple[Any, Any]:
    """The game and validated position of ``GAME BOARD [--size] [--k]``."""
    return api.load(args.game, args.board, size=args.size, k=args.k)


# -- history ----------------------------------------------------------------------------------
def cmd_history(args: argparse.Namespace) -> int:
    """``history``: the board's optimal (or fewest-mistakes) history."""
    from perfectplay.analysis.history import reconstruct

    game, position = _load(args)
    notion: Notion = "strict" if args.strict else "outcome"
    try:
        history = reconstruct(game, position, notion)
    except IllegalPositionError as exc:
        raise IllegalPositionError(f"board {args.board!r}: {exc}") from None
    if args.json:
        _print_json(history.as_dict(game))
        return EXIT_OK
    console = _console()
    _say(console, _verdict(game, history))
    if history.steps:
        console.print(_steps_table(game, history))
        _say(console, "boards after each move:")
        _say(console, _boards_in_rows(history.steps))
    return EXIT_OK


def _verdict(game: Any, history: History) -> str:
    """The first lines: the board, reachable optimally or not, the count, the mistakes."""
    moves = len(history.steps)
    outcome = game.outcome(history.position)
    side = side_name(game, game.to_move(history.position))
    state = f"{side} to move" if outcome is None else f"game over, {outcome.reason}"
    head = f"{moves} move{'' if moves == 1 else 's'} on the board, {state}"
    if not moves:
        return f"{head}\nnothing has been played yet"
    notion = f"every move optimal ({history.notion})"
    if history.reachable_optimally:
        count = history.optimal_histories
        return (
            f"{head}\nreachable with {notion}: {count:,} "
            f"histor{'y' if count == 1 else 'ies'}; one of them:"
        )
    mistakes = history.mistakes
    named = "; ".join(mistake_text(step, history.notion) for step in mistakes)
    return (
        f"{head}\nnot reachable with {notion}; fewest mistakes: {len(mistakes)} "
        f"({named}); one such history:"
    )


def _steps_table(game: Any, history: History) -> Any:
    """A rich table: move number, player, move, best value before, value played, verdict."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("#", "player", "move", "best available", "move's value", ""):
        table.add_column(name)
    for step in history.steps:
        verdict = "optimal" if step.optimal else "MISTAKE"
        table.add_row(
            str(step.ply),
            side_name(game, step.player),
            move_name(game, step.move),
            value_words(step.best, history.notion),
            value_words(step.played, history.notion),
            verdict,
            style="" if step.optimal else "bold red",
        )
    return table


def _boards_in_rows(steps: tuple[HistoryStep, ...]) -> str:
    """The boards after each move, side by side, as many per line as fit."""
    from perfectplay.analysis.render import board_rows

    drawn = [
        (f"{step.ply}.", [" ".join(row) for row in board_rows(step.position)]) for step in steps
    ]
    width = max(len(lines[0]) for _, lines in drawn) + 3
    per_line = max(1, LINE_WIDTH // width)
    blocks = []
    for start in range(0, len(drawn), per_line):
        group = drawn[start : start + per_line]
        lines = ["".join(f"{title:<{width}}" for title, _ in group).rstrip()]
        for r in range(len(group[0][1])):
            lines.append("".join(f"{rows[r]:<{width}}" for _, rows in group).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# -- tree -------------------------------------------------------------------------------------
def cmd_tree(args: argparse.Namespace) -> int:
    """``tree``: the game tree in the terminal, or as an SVG/DOT picture."""
    from perfectplay.analysis.tree import build_tree

    game, position = _load(args)
    depth = api.limit(depth=args.depth).depth
    leaves: Leaves = "heuristic" if args.heuristic else "exact"
    if args.heuristic and depth is None:
        raise ParameterError("--heuristic: values at a depth limit; give --depth D too")
    tree = build_tree(game, position, depth, alphabeta=args.alphabeta, leaves=leaves)
    console = _console()
    if args.svg or args.dot:
        path = _write_picture(tree, args.svg, args.dot)
        _say(console, f"wrote {path} ({tree.node_count():,} nodes)")
    else:
        from perfectplay.analysis.render import rich_tree

        console.width = TREE_WIDTH  # long lines are not cropped (a terminal wraps them)
        console.print(rich_tree(tree, boards=_show_boards(game)))
    _say(console, _tree_footer(tree))
    return EXIT_OK


def _show_boards(game: Any) -> bool:
    """Show boards in the terminal tree when they are small."""
    return bool(game.spec.cells <= BOARD_CELLS)


def _tree_footer(tree: GameTree) -> str:
    """The node counts and the best line."""
    from perfectplay.analysis.render import summary_text

    game = tree.game
    line = ", ".join(move_name(game, move) for move in tree.principal) or "(none)"
    return f"{summary_text(tree)}\nbest line: {line}"


def _write_picture(tree: GameTree, svg: str | None, dot: str | None) -> str:
    """Write the SVG or DOT file; :class:`ParameterError` naming a file that cannot be written."""
    from perfectplay.analysis.render import to_dot, to_svg

    option, name = ("--svg", svg) if svg else ("--dot", dot)
    assert name is not None
    text = to_svg(tree) if option == "--svg" else to_dot(tree)
    try:
        Path(name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ParameterError(f"{option} {name!r}: cannot write it: {exc.strerror}") from None
    return name
