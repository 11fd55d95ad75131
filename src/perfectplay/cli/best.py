"""``perfectplay best``: the best move of a position."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from perfectplay.cli import options
from perfectplay.cli.options import whole
from perfectplay.cli.output import stderr
from perfectplay.cli.progress import callback, status_line
from perfectplay.cli.report import BestSoFar, interrupted, report
from perfectplay.cli.warm import compile_first

EPILOG = """\
examples:
  perfectplay best tictactoe 'xox/oox/___'            exact best move (c3, win in 1)
  perfectplay best tictactoe 'xox/oox/___' --json     the same as JSON
  perfectplay best tictactoe '____/____/____/____' --time 2
  perfectplay best tictactoe '___/___/___' --seed 7   random choice among equal moves
  perfectplay best connect4 4455                      column 3: win with the 4th stone
  perfectplay best connect4 '' --time 2               the empty 7x6 board, 2 s
  perfectplay best simplexity '4O 4X 3O'              the engine's move (3 s by default)

Without --depth or --time the search is exact, except where the game says a position is
too far from its end to solve in a reasonable time: then it thinks for the game's default
time (the shape-and-color game: 3 s)."""


def add(commands: Any) -> None:
    """Declare the verb."""
    sub = options.add_verb(commands, "best", "the best move of a position", EPILOG, run)
    options.add_board(sub)
    options.add_limits(sub, exclusive=True)
    sub.add_argument("--seed", type=whole, help="choose randomly (reproducibly) among equal moves")


def run(args: argparse.Namespace) -> int:
    """The best move (``contract.result_json`` with ``--json``)."""
    from perfectplay import api

    loaded = options.load(args)
    compile_first(args, loaded.game, loaded.position, options.kernel_options(args))
    bound = options.timed_or_exact(args, loaded.game, loaded.position)
    if bound.time is not None and args.time is None and sys.stderr.isatty():  # said up front
        stderr(
            f"too far from the end to solve exactly in reasonable time: thinking for "
            f"{bound.time:g} s (--time or --depth set another bound)"
        )
    kernel = options.kernel_options(args)
    so_far = BestSoFar(loaded, seconds_limit=bound.time)
    try:
        with status_line(sys.stderr.isatty()) as status:
            so_far.status = status
            result = api.best(
                loaded.game,
                loaded.position,
                bound,
                seed=args.seed,
                options=kernel,
                on_iteration=so_far,
                on_progress=callback(status),
            )
    except KeyboardInterrupt:
        return interrupted(loaded, so_far)
    return report(args, loaded, result, with_pv=False)
