"""``perfectplay solve``: the value, best move and principal variation of a position, or
of every position read from stdin (BOARD ``-``, :mod:`perfectplay.cli.solve_batch`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from perfectplay.cli import options
from perfectplay.cli.progress import callback, status_line
from perfectplay.cli.report import BestSoFar, interrupted, report
from perfectplay.cli.warm import compile_first

EPILOG = """\
examples:
  perfectplay solve tictactoe '___/___/___'           the empty board is a draw
  perfectplay solve tictactoe 'x__/_o_/__x' --json
  perfectplay solve tictactoe '____/____/____/____' --k 3 --time 5
  perfectplay solve connect4 4455 --json              score 18 (standard Connect Four score)
  perfectplay solve connect4 44455554221 --weak       -1: player 2 to move loses
  perfectplay solve connect4 33434 --size 6x5        a move sequence on a 6x5 board
  perfectplay solve connect4 '....../....../....../..o.../..x...'   a picture (6x5)
  perfectplay solve connect4 - < Test_L3_R1           batch: 'moves [score]' lines

batch mode (BOARD '-'): reads one position per line from stdin, 'position' or
'position score' (an empty line is the empty board; a line of a space and a score is the
empty board with that score), and writes 'position score' for each, in order, flushed
line by line (with --weak the score is -1, 0 or 1, compared by sign with the expected one).
Mismatches with the expected scores are reported on stderr with a summary at the end;
they do not change the exit status. The first bad line stops the batch with exit 2.
connect4 scores: (cells + 1) // 2 + 1 - s when the side to move wins with its s-th
stone, 0 for a draw, negative when the opponent wins (7x6: 22 - s)."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "the value, best move and principal variation of a position"
    sub = options.add_verb(commands, "solve", summary, EPILOG, run)
    options.add_board(sub)
    options.add_limits(sub, exclusive=False)
    options.add_weak(sub)


def run(args: argparse.Namespace) -> int:
    """Value, best move and principal variation (``contract.result_json`` with ``--json``);
    ``--weak`` for win/draw/loss only; BOARD ``-`` for batch mode."""
    from perfectplay import api

    if args.board == "-":
        from perfectplay.cli import solve_batch

        return solve_batch.run(args)
    loaded = options.load(args)
    game, position = loaded.game, loaded.position
    compile_first(args, game, position, options.kernel_options(args))
    bound, trial = options.exact_or_trial(args, game, position)
    kernel = options.kernel_options(args)
    so_far = BestSoFar(loaded, seconds_limit=bound.time)
    try:
        with status_line(sys.stderr.isatty()) as status:
            so_far.status = status
            result = api.solve(
                game,
                position,
                bound,
                weak=args.weak,
                options=kernel,
                on_iteration=so_far,
                on_progress=callback(status),
            )
    except KeyboardInterrupt:
        return interrupted(loaded, so_far)
    if trial:
        estimate = api.trial_estimate(result)
        options.check_trial(args, game, position, result.score.exact, estimate=estimate)
    return report(args, loaded, result, with_pv=True)
