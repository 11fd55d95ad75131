"""Benchmarks of the m,n,k-game searches; prints a Markdown table for BENCHMARKS.md.

    python benchmarks/bench_mnk.py            # the standard set (about a minute)
    python benchmarks/bench_mnk.py --long     # adds 5x5 k=4 and the generic 4x4 solve

Each figure is the median wall time of several runs of the public call (tables allocated
inside the call, i.e. an empty table every time), after one warm-up run that loads the
compiled kernel. easyAI is measured too when it can be imported (``pip install easyAI``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import common

from perfectplay.analysis.table import value_table
from perfectplay.games.mnk.rules import game
from perfectplay.search.alphabeta import Options, alphabeta
from perfectplay.search.minimax import minimax
from perfectplay.search.solver import solve


def timed(run: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median seconds of ``repeats`` runs after a warm-up, and the last result."""
    result = run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def fmt(seconds: float) -> str:
    return common.fmt(seconds, micro_digits=0)


def easyai_solve() -> Callable[[], Any] | None:
    """easyAI's Negamax (full depth, alpha-beta, no table) on its own TicTacToe, if present."""
    try:
        from easyAI import AI_Player, Negamax  # type: ignore[import-not-found]  # optional peer
        from easyAI.games.TicTacToe import TicTacToe  # type: ignore[import-not-found]
    except ImportError:
        return None

    def run() -> Any:
        algo = Negamax(9)
        board = TicTacToe([AI_Player(algo), AI_Player(algo)])
        return algo(board)

    return run


def rows_3x3(repeats: int) -> list[tuple[str, str, str, str]]:
    g = game()
    start = g.initial()
    rows = []
    seconds, r = timed(lambda: minimax(g, start), 1)
    rows.append(("3x3 solve, plain minimax (Python)", fmt(seconds), f"{r.nodes:,}", str(r.score)))
    plain = Options(table=False, symmetry=False, ordering=False)
    seconds, r = timed(lambda: alphabeta(g, start, options=plain), repeats)
    rows.append(("3x3 solve, alpha-beta (Python)", fmt(seconds), f"{r.nodes:,}", str(r.score)))
    seconds, r = timed(lambda: alphabeta(g, start), repeats)
    rows.append(
        (
            "3x3 solve, alpha-beta + table + symmetry (Python)",
            fmt(seconds),
            f"{r.nodes:,}",
            str(r.score),
        )
    )
    seconds, r = timed(lambda: solve(g, start), repeats)
    rows.append(
        (
            "3x3 solve, alpha-beta + table + symmetry (kernel, `solve`)",
            fmt(seconds),
            f"{r.nodes:,}",
            str(r.score),
        )
    )
    kernel_only = statistics.median(solve(g, start).time for _ in range(repeats))
    rows.append(
        (
            "3x3 solve, same, search time inside the call",
            fmt(kernel_only),
            f"{r.nodes:,}",
            str(r.score),
        )
    )
    easy = easyai_solve()
    if easy is not None:
        seconds, move = timed(easy, 3)
        rows.append(
            ("3x3 solve, easyAI Negamax(9), for comparison", fmt(seconds), "-", f"move {move}")
        )
    return rows


def rows_table(repeats: int) -> list[tuple[str, str, str, str]]:
    g = game()
    seconds, table = timed(lambda: value_table(g), repeats)
    rows = [("complete 3x3 table (kernel)", fmt(seconds), f"{len(table):,} positions", "")]
    seconds, table = timed(lambda: value_table(g, engine="python"), 3)
    rows.append(("complete 3x3 table (Python)", fmt(seconds), f"{len(table):,} positions", ""))
    return rows


def rows_larger(long: bool) -> list[tuple[str, str, str, str]]:
    rows = []
    boards = [(4, 4, 4), (4, 5, 4), (5, 4, 4)] + ([(5, 5, 4)] if long else [])
    for rows_, cols, k in boards:
        g = game(rows_, cols, k)
        seconds, r = timed(partial(solve, g, g.initial()), 3 if rows_ * cols <= 20 else 1)
        label = f"{cols}x{rows_} k={k} solve (kernel)"  # width x height
        rows.append((label, fmt(seconds), f"{r.nodes:,}", f"{r.score}, first move {r.best_move}"))
    if long:
        g = game(4, 4, 4)
        seconds, r = timed(lambda: alphabeta(g, g.initial()), 1)
        rows.append(
            (
                "4x4 k=4 solve (Python alpha-beta + table + symmetry)",
                fmt(seconds),
                f"{r.nodes:,}",
                str(r.score),
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--long", action="store_true", help="include the slow boards")
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    print(f"Machine: {common.machine()}")
    print(f"Command: python {' '.join(sys.argv)}")
    print(f"Date: {time.strftime('%Y-%m-%d')}\n")
    print("| what | median time | nodes | value |")
    print("|---|---|---|---|")
    for row in rows_3x3(args.repeats) + rows_table(args.repeats) + rows_larger(args.long):
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
