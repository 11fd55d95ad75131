"""Connect Four solver benchmark on the public test sets of Pascal Pons' tutorial.

    python benchmarks/bench_connect4.py                       # the five easier sets, 1000 each
    python benchmarks/bench_connect4.py --sets begin-hard --limit 100
    python benchmarks/bench_connect4.py --weak                # win/draw/loss only
    python benchmarks/bench_connect4.py --empty               # the empty 7x6 board
    python benchmarks/bench_connect4.py --sets --empty --table-bits 27 --threads 2

Every score is checked against the set. As in the reference measurements, the transposition
table is cleared before each position (a new epoch: O(1)) and the time is that of the solve
call itself, with the position already built; the table's memory is touched once before the
first position so that page faults are not timed. The sets are read from ``../shared/connect4``
next to the repository (or ``--data DIR``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import PONS_SETS, fmt, machine

from perfectplay.games.connect4 import compiled as kernel
from perfectplay.games.connect4.kernel import DEFAULT_TABLE_BITS
from perfectplay.games.connect4.rules import game as connect4
from perfectplay.games.kernel import KernelOptions

SETS = {
    "end-easy": ("Test_L3_R1", 7.6e-6, 3.8e-6, 51, 6.1e-6),
    "middle-easy": ("Test_L2_R1", 46e-6, 7.2e-6, 449, 70e-6),
    "middle-medium": ("Test_L2_R2", 4.5e-3, 1.3e-3, 39_808, 2.9e-3),
    "begin-easy": ("Test_L1_R1", 0.31e-3, 23e-6, 3_296, 3.0e-3),
    "begin-medium": ("Test_L1_R2", 127e-3, 48e-3, 1_187_923, 67e-3),
    "begin-hard": ("Test_L1_R3", 5.6, 1.6, 48_293_442, 3.5),
}
"""name -> (file, reference strong mean, strong median, mean nodes, weak mean) from
shared/connect4/README.md (the C++ reference solver on this machine kind)."""


def load(path: Path, limit: int | None) -> list[tuple[np.uint64, np.uint64, int, int]]:
    """``(current, mask, moves, expected score)`` for each line of a set."""
    g = connect4()
    positions = []
    for line in path.read_text().splitlines()[:limit]:
        moves, expected = line.split()
        position = g.initial()
        for char in moves:
            position = g.play(position, int(char) - 1)
        current = position.first if position.plies % 2 == 0 else position.second
        positions.append(
            (np.uint64(current), np.uint64(position.mask), position.plies, int(expected))
        )
    return positions


def run_set(
    positions: list[tuple[np.uint64, np.uint64, int, int]],
    weak: bool,
    work: Any,
    table: Any,
    deep: Any,
) -> dict[str, Any]:
    times, nodes, mismatches = [], [], 0
    stats = table.stats
    for current, mask, moves, expected in positions:
        stats[0], stats[1], stats[3] = 0, 1 << 62, stats[3] + 1
        start = time.perf_counter()
        score = kernel.solve(
            current, mask, moves, weak, work, table.slots, stats, deep, table.marks
        )
        times.append(time.perf_counter() - start)
        nodes.append(int(stats[0]))
        want = (expected > 0) - (expected < 0) if weak else expected
        mismatches += int(score != want)
    total = sum(times)
    return {
        "n": len(times),
        "mismatches": mismatches,
        "mean": total / len(times),
        "median": statistics.median(times),
        "nodes": sum(nodes) / len(nodes),
        "rate": sum(nodes) / total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sets",
        nargs="*",
        default=["end-easy", "middle-easy", "middle-medium", "begin-easy", "begin-medium"],
    )
    parser.add_argument("--limit", type=int, default=None, help="positions per set (default all)")
    parser.add_argument("--weak", action="store_true")
    parser.add_argument("--empty", action="store_true", help="also solve the empty 7x6 board")
    parser.add_argument(
        "--book", action="store_true", help="consult the opening books (off: as the reference)"
    )
    parser.add_argument("--table-bits", type=int, default=DEFAULT_TABLE_BITS)
    parser.add_argument(
        "--threads", type=int, default=1, help="threads sharing the table (the empty board)"
    )
    parser.add_argument("--data", type=Path, default=PONS_SETS)
    args = parser.parse_args()

    g = connect4()
    driver = g.kernel(KernelOptions(book=args.book, threads=args.threads))
    work = driver.work
    table = driver.new_table(1 << args.table_bits)
    table.touch()  # every page once, outside the timings
    table.start(1 << 62)
    driver.solve(g.initial(), table, node_budget=10)  # load the compiled code
    print(f"Machine: {machine()}")
    print(
        f"Table: 2^{args.table_bits} slots, {table.bytes / 2**20:.0f} MiB; "
        f"mode: {'weak' if args.weak else 'strong'}; books {'on' if args.book else 'off'}\n"
    )
    print("| set | n | mismatches | mean | median | mean nodes | nodes/s | mean vs reference |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.sets:
        file, ref_mean, _ref_median, _ref_nodes, ref_weak = SETS[name]
        positions = load(args.data / file, args.limit)
        result = run_set(positions, args.weak, work, table, driver.deep)
        reference = ref_weak if args.weak else ref_mean
        print(
            f"| {name} | {result['n']} | {result['mismatches']} | {fmt(result['mean'])} | "
            f"{fmt(result['median'])} | {result['nodes']:,.0f} | {result['rate'] / 1e6:.2f} M | "
            f"{result['mean'] / reference:.2f}x |",
            flush=True,
        )
    if args.empty:
        table.clear()
        start = time.perf_counter()
        solved = driver.solve(g.initial(), table, weak=args.weak)
        print(
            f"\nempty 7x6 board, {args.threads} thread(s): score {solved.score}, "
            f"{solved.nodes:,} nodes, "
            f"{fmt(time.perf_counter() - start)}"
        )


if __name__ == "__main__":
    main()
