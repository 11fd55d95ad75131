"""Benchmarks of history reconstruction (``perfectplay history``); a Markdown table for
BENCHMARKS.md.

    python benchmarks/bench_history.py              # every reachable 3x3 board, 4x4, 5x4
    python benchmarks/bench_history.py --sample 500 # 500 random 3x3 boards instead of all

Each reconstruction is one ``reconstruct`` call with a fresh :class:`ExactValues` (so a
fresh transposition table), as in one ``perfectplay history`` call; the compiled kernels are
loaded before the clock starts (one warm-up call per game). Boards of up to 9 cells are valued
from the complete value table, built once per process (its cost is the "first call" row).
3x3 boards: every board reachable from the empty board (5,478), outcome notion, wall time of
each call, then the maximum, 99th percentile, mean and median. Larger boards: the median of
three calls.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import common

from perfectplay import api
from perfectplay.analysis.exact import ExactValues, complete_table
from perfectplay.analysis.history import History

LARGER = [
    ("4x4 k=4, full drawn board", "tictactoe", "xxoo/ooxx/xxoo/xxoo", 4),
    ("4x4 k=4, full board, o's line with the last stone", "tictactoe", "ooxo/xxox/xoxx/ooxo", 4),
    ("4x4 k=4, 8 stones", "tictactoe", "xo__/_xo_/o_x_/__xo", 4),
    ("Connect Four 5x4, full drawn board", "connect4", "oooxx/xxxoo/oxoxo/oxxox", 4),
    ("Connect Four 5x4, 19 stones, x has won", "connect4", "ooxx./xoxoo/ooxxx/xxxoo", 4),
    ("Connect Four 6x5, 12 stones", "connect4", "....../....../x.x.../oxo.ox/xxo.oo", 4),
]


def timed_call(run: Callable[[], History]) -> tuple[float, History]:
    """Seconds of one call, and its result."""
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def reachable_3x3() -> list[Any]:
    """Every position reachable from the empty 3x3 board."""
    game, start = api.new_game("tictactoe")
    seen: dict[Any, Any] = {}
    stack = [start]
    while stack:
        position = stack.pop()
        if game.key(position) not in seen:
            seen[game.key(position)] = position
            stack.extend(game.play(position, m) for m in game.legal_moves(position))
    return list(seen.values())


def row_3x3(sample: int | None) -> tuple[str, str, str, str]:
    game, full = api.load("tictactoe", "xox/xoo/oxx")
    api.history(game, full)  # load the kernel before timing
    boards = reachable_3x3()
    if sample is not None:
        boards = random.Random(1).sample(boards, sample)
    times: list[float] = []
    slowest, optimal = "", 0
    for position in boards:
        seconds, history = timed_call(partial(api.history, game, position, "outcome"))
        if not times or seconds > max(times):
            slowest = str(position)
        times.append(seconds)
        optimal += history.reachable_optimally
    label = f"3x3: {len(boards):,} boards, max / 99th percentile / mean / median"
    p99 = statistics.quantiles(times, n=100)[98]
    figures = " / ".join(
        fmt(t) for t in (max(times), p99, statistics.mean(times), statistics.median(times))
    )
    return label, figures, f"slowest `{slowest}`", f"{optimal:,} reachable optimally"


def row_first_3x3() -> tuple[str, str, str, str]:
    """A full 3x3 board as the first reconstruction of a process (the kernel loaded): the
    complete 3x3 value table is built inside the call."""
    game, full = api.load("tictactoe", "xox/xoo/oxx")
    runs = []
    for _ in range(5):
        complete_table.cache_clear()
        runs.append(timed_call(lambda: api.history(game, full))[0])
    label = "3x3, first call of a process (builds the complete 3x3 table) `xox/xoo/oxx`"
    return label, fmt(statistics.median(runs)), "9 stones", "222 optimal histories"


def row_larger(label: str, name: str, text: str, k: int) -> tuple[str, str, str, str]:
    game, position = api.load(name, text, k=k)
    ExactValues(game).value(game.initial())  # load the kernel before timing
    runs = [timed_call(lambda: api.history(game, position)) for _ in range(3)]
    seconds = statistics.median(s for s, _ in runs)
    history = runs[0][1]
    verdict = (
        f"{history.optimal_histories:,} optimal histories"
        if history.reachable_optimally
        else f"{len(history.mistakes)} mistake(s)"
    )
    return f"{label} `{text}`", fmt(seconds), f"{game.ply(position)} stones", verdict


def fmt(seconds: float) -> str:
    return common.fmt(seconds, micro_digits=0)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sample", type=int, help="time this many random 3x3 boards only")
    args = parser.parse_args()
    print(f"Machine: {common.machine()}")
    print(f"Command: python {' '.join(sys.argv)}")
    print(f"Date: {time.strftime('%Y-%m-%d')}\n")
    print("| board | time | stones / slowest | result |")
    print("|---|---|---|---|")
    rows = [row_3x3(args.sample), row_first_3x3()] + [row_larger(*entry) for entry in LARGER]
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
