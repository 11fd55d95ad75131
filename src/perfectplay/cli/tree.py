"""``perfectplay tree``: the game tree of a position with minimax values, or alpha-beta's
windows and cuts, in the terminal, as an SVG picture (drawn by perfectplay, no Graphviz
needed) or as Graphviz DOT source; with ``--steps``, alpha-beta's search one step at a time,
as a numbered list."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import whole
from perfectplay.cli.output import EXIT_OK, console, print_json, say, show_board
from perfectplay.cli.progress import status_line
from perfectplay.cli.warm import compile_first
from perfectplay.errors import quote

if TYPE_CHECKING:
    from perfectplay.api import GameTree, Leaves, Loaded, Steps

BOARD_CELLS = 36
"""Boards up to this many cells are drawn in the terminal tree."""
TREE_WIDTH = 1_000
"""The terminal tree's width: long lines are not cropped (a terminal wraps them)."""

EPILOG = """\
examples:
  perfectplay tree tictactoe 'xox/oox/___'            values -9, 0 and 10 for the 3 moves
  perfectplay tree tictactoe 'x__/_o_/___' --depth 1  exact values, tree cut after 1 ply
  perfectplay tree tictactoe 'xo_/_x_/___' --alphabeta   windows, cuts, nodes saved
  perfectplay tree tictactoe 'x__/_o_/___' --depth 2 --heuristic --alphabeta
  perfectplay tree tictactoe 'xox/oox/___' --svg tree.svg   a picture, boards in the nodes
  perfectplay tree connect4 '....x/...oo/xo.xo/xxxoo' --dot tree.dot   DOT for Graphviz
  perfectplay tree tictactoe 'xox/oox/___' --steps    alpha-beta one step at a time
  perfectplay tree tictactoe 'xox/oox/___' --steps --order best   2 cuts, 7 nodes of 11

Values are the root player's, depth-adjusted as in the classic tic-tac-toe article
(a win with the d-th ply from the root is 10 - (d - 1), a loss its negative, a draw 0;
connect4: the standard score). A bound reads '>= 3' or '<= -9'; the window is alpha-beta's
[alpha, beta] on entering a node. Moves are tried in the game's move order.

--svg draws the tree with perfectplay's own layout (no Graphviz needed): boards in the
nodes, the best line in red, the branches alpha-beta cut off grey, dashed and labelled
'cut'. --dot writes the same tree as DOT source, for laying it out with Graphviz's dot.

--steps lists alpha-beta's search one event at a time: each node entered with its alpha
and beta, each leaf's value, each value returned to its parent, each cut with its reason
and the moves it skips, and the nodes visited so far against plain minimax's count.
--order game (the game's order), best (best move first), worst (worst move first) or
reversed shows how the order of the moves changes the cuts."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "the game tree with minimax values, or alpha-beta's windows and cuts"
    sub = options.add_verb(commands, "tree", summary, EPILOG, run)
    sub.add_argument("board", metavar="BOARD", help="the position at the root")
    sub.add_argument("--depth", type=whole, metavar="D", help="cut the tree D plies deep")
    sub.add_argument("--alphabeta", action="store_true", help="search it with alpha-beta")
    sub.add_argument(
        "--heuristic", action="store_true", help="value the cut by the evaluation, not exactly"
    )
    picture = sub.add_mutually_exclusive_group()
    picture.add_argument(
        "--svg", metavar="FILE", help="draw the tree as an SVG picture (no Graphviz needed)"
    )
    picture.add_argument("--dot", metavar="FILE", help="write the tree as DOT source for Graphviz")
    picture.add_argument(
        "--steps", action="store_true", help="alpha-beta's search one step at a time"
    )
    sub.add_argument(
        "--order",
        metavar="NAME",
        help="with --steps: the move order, game (default), best, worst or reversed",
    )
    options.add_size(sub, board=True)
    sub.add_argument("--json", action="store_true", help="print the tree or the steps as JSON")


def run(args: argparse.Namespace) -> int:
    """The tree in the terminal, or written as an SVG picture or DOT source."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    loaded = options.load(args)
    game = loaded.game
    depth = api.limit(depth=args.depth).depth
    if args.heuristic and depth is None:
        raise ParameterError("--heuristic: values at a depth limit; give --depth D too")
    leaves: api.Leaves = "heuristic" if args.heuristic else "exact"
    if args.order is not None and not args.steps:
        raise ParameterError(f"--order {quote(args.order)}: orders the steps; give --steps too")
    if leaves == "exact":  # the leaves (or a best-first order) may need the compiled engine
        compile_first(args, game, loaded.position, every_position=True)
    if args.steps:
        return run_steps(loaded, depth, leaves, args.order or "game", args.json)
    with status_line(sys.stderr.isatty()) as status:

        def progress(nodes: int, cap: int, seconds: float) -> None:
            if status is not None:
                status.show(f"tree: {nodes:,} nodes (at most {cap:,})", seconds)

        built = api.tree(
            game,
            loaded.position,
            depth,
            alphabeta=args.alphabeta,
            leaves=leaves,
            on_progress=progress,
        )
    if args.json:
        from perfectplay import contract

        print_json(contract.tree_json(built, game))
        return EXIT_OK
    out = console()
    if args.svg is not None or args.dot is not None:
        path = write_picture(built, args.svg, args.dot)
        say(out, f"wrote {path} ({built.node_count():,} nodes)")
    else:
        view = api.board(game, loaded.position)
        boards = view is not None and view.rows * view.cols <= BOARD_CELLS
        out.width = TREE_WIDTH
        out.print(api.rich_tree(built, boards=boards))
    say(out, footer(built))
    return EXIT_OK


def run_steps(loaded: Loaded, depth: int | None, leaves: Leaves, order: str, as_json: bool) -> int:
    """``--steps``: the board, then alpha-beta's search as a numbered list (or JSON)."""
    from perfectplay import api, contract

    game = loaded.game
    found = api.steps(game, loaded.position, depth, order=order, leaves=leaves)
    if as_json:
        print_json(contract.steps_json(found, game))
        return EXIT_OK
    out = console()
    show_board(out, game, loaded.position)
    say(out, f"alpha-beta, moves in {found.order} order ({api.STEP_ORDERS[found.order]}):")
    for line in step_lines(found):
        say(out, line)
    say(out, steps_footer(found))
    return EXIT_OK


def step_lines(found: Steps) -> list[str]:
    """One numbered line per step, with the nodes visited so far; a cut's reason on the
    line after it."""
    width = len(str(len(found.steps)))
    lines = []
    for number, step in enumerate(found.steps, 1):
        lines.append(f"{number:>{width}}. [{step.visited} visited] {step.text}")
        if step.reason is not None:
            lines.append(f"{'':>{width}}  why: {step.reason}")
    return lines


def steps_footer(found: Steps) -> str:
    """``nodes visited: 7 of plain minimax's 11; 2 cuts``."""
    cuts = f"{found.cuts} cut{'' if found.cuts == 1 else 's'}"
    return f"nodes visited: {found.visited:,} of plain minimax's {found.minimax_nodes:,}; {cuts}"


def footer(built: GameTree) -> str:
    """The node counts and the best line."""
    from perfectplay import api

    game = built.game
    line = ", ".join(api.move_name(game, move) for move in built.principal) or "(none)"
    return f"{api.summary_text(built)}\nbest line: {line}"


def write_picture(built: GameTree, svg: str | None, dot: str | None) -> str:
    """Write the SVG picture or the DOT source (both written by perfectplay, no Graphviz
    needed); :class:`ParameterError` for a tree too large to draw, or naming a file that
    cannot be written."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    option, name = ("--svg", svg) if svg is not None else ("--dot", dot)
    assert name is not None
    if not name.strip():
        raise ParameterError(f"{option} {quote(name)}: an empty file name; name the file to write")
    text = api.to_svg(built) if option == "--svg" else api.to_dot(built)
    try:
        Path(name).write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = getattr(exc, "strerror", None) or "not a file name"
        raise ParameterError(f"{option} {quote(name)}: cannot write it: {reason}") from None
    return name
