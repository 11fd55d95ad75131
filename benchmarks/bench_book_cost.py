"""What one position of a deep Connect Four book costs, measured through ``perfectplay batch``.

Samples ``--samples`` random positions with ``--depth`` stones (random games from the empty
board, seeded; games that end earlier are drawn again; each position once, mirror images
counted as one), solves them exactly with ``perfectplay batch`` on ``--workers`` workers (the
path a book build takes: long-lived workers that keep their table), and prints the
distribution of time and nodes per position, and what a book of ``--book-positions``
positions would take on this machine and on N such machines at that mean. The basis of the
estimate in docs/scaling.md.

    python3 benchmarks/bench_book_cost.py --depth 12 --samples 1000 --workers 2
    python3 benchmarks/bench_book_cost.py --depth 12 --samples 1000 --uniform
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine

BOOK_12_PLY_7X6 = 5_832_236
"""Running 7x6 positions of 12 stones, one per mirror pair, as ``book --depth 12`` lists them
(the 12-ply file of bitbully-databases has 4,200,899 records)."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--book-positions", type=int, default=BOOK_12_PLY_7X6)
    parser.add_argument(
        "--uniform",
        action="store_true",
        help="draw from the list of every position of that depth (as a book build makes it), "
        "not from random games",
    )
    return parser.parse_args()


def sample(width: int, height: int, depth: int, count: int, seed: int) -> list[str]:
    """``count`` distinct positions (as column digits from 1) of ``depth`` stones, no game over."""
    from perfectplay import api

    chooser = random.Random(seed)
    size = f"{width}x{height}"
    found: dict[str, str] = {}
    while len(found) < count:
        columns: list[int] = []
        heights = [0] * width
        while len(columns) < depth:
            column = chooser.choice([c for c in range(width) if heights[c] < height])
            columns.append(column + 1)
            heights[column] += 1
        text = "".join(str(c) for c in columns) if width < 10 else ",".join(map(str, columns))
        try:
            game, position = api.load("connect4", text, size=size)
        except ValueError:  # refused: the game ended on the way
            continue
        if game.outcome(position) is not None:  # ended with the last stone
            continue
        mirror = "".join(str(width + 1 - c) for c in columns)
        found.setdefault(min(text, mirror), text)
    return list(found.values())


def uniform_sample(width: int, height: int, depth: int, count: int, seed: int) -> list[str]:
    """``count`` positions drawn evenly from every position of ``depth`` stones (one of each
    mirror pair), written as pictures; the list is made as a book build makes it."""
    from perfectplay import api

    game, _ = api.load("connect4", "", size=f"{width}x{height}")
    started = time.perf_counter()
    every = api.kit_of(game).book_positions(game, depth)
    print(f"{len(every):,} positions of {depth} stones listed in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr)  # fmt: skip
    chosen = random.Random(seed).sample(every, count)
    return [api.position_text(api.Loaded(game, position, None)) for position in chosen]


def main() -> None:
    args = parse_args()
    draw = uniform_sample if args.uniform else sample
    positions = draw(args.width, args.height, args.depth, args.samples, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "in.txt", Path(folder) / "out.jsonl"
        source.write_text("\n".join(positions) + "\n")
        command = [
            sys.executable, "-m", "perfectplay.cli", "batch", "connect4", str(source),
            "--out", str(out), "--size", f"{args.width}x{args.height}",
            "--workers", str(args.workers), "--no-book",
        ]  # fmt: skip
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"status {done.returncode}: {done.stderr}")
        answers = [json.loads(line) for line in out.read_text().splitlines()]
    seconds = sorted(answer["time_ms"] / 1000 for answer in answers)
    nodes = sorted(answer["nodes"] for answer in answers)
    mean = statistics.fmean(seconds)
    print(f"machine: {machine()}")
    origin = "drawn evenly from all" if args.uniform else "from random games"
    print(f"{len(answers)} {args.width}x{args.height} positions of {args.depth} stones, {origin} "
          f"(seed {args.seed}), {args.workers} workers, no book: wall {wall:.1f} s")  # fmt: skip
    print(f"{done.stderr.strip().splitlines()[-1]}")
    for name, values, unit in (("seconds", seconds, "s"), ("nodes", nodes, "")):
        quantiles = statistics.quantiles(values, n=10)
        print(f"{name} per position: mean {statistics.fmean(values):.4g}{unit}, median "
              f"{statistics.median(values):.4g}{unit}, p90 {quantiles[-1]:.4g}{unit}, "
              f"max {max(values):.4g}{unit}")  # fmt: skip
    core_hours = mean * args.book_positions / 3600
    print(f"a book of {args.book_positions:,} such positions: {core_hours:,.3g} core-hours at "
          f"the mean; {core_hours / args.workers:,.3g} h on this machine's {args.workers} "
          f"workers; {core_hours / 64:,.3g} h on 64 cores, {core_hours / 512:,.3g} h on "
          "512")  # fmt: skip


if __name__ == "__main__":
    main()
