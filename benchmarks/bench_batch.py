"""``perfectplay batch``: one worker against two, locally and on Ray, interleaved in one run.

Runs the command as a user would (a fresh process each time, output to a new file) on the
first ``--positions`` lines of one of Pons' sets, for every (executor, workers) pair, the
pairs alternating for ``--rounds`` rounds so that the machine's load falls on all of them
alike. Prints, per pair, the medians of the whole command's wall time and of the solving
time (from the moment every worker was ready to the last answer, as the command's summary
line states it), the speed-up of two workers over one on each, and checks every score
against the published one.

    python3 benchmarks/bench_batch.py --positions 150 --rounds 3
    python3 benchmarks/bench_batch.py --executors local --rounds 5
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine

SETS = Path(__file__).resolve().parent.parent.parent / "shared" / "connect4"
SUMMARY = re.compile(r"(\d+) positions? in ([0-9.]+) s \(.*ready after ([0-9.]+) s\)")
"""The command's summary line: positions, wall seconds, seconds until every worker was ready."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="Test_L2_R2", help="one of Pons' sets (middle-medium)")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--executors", default="local,ray", help="comma-separated")
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    return parser.parse_args()


def run_once(source: Path, executor: str, workers: int, folder: Path) -> tuple[float, float, Path]:
    """One command: (wall seconds as measured here, solving seconds from its summary, output)."""
    out = folder / f"{executor}-{workers}-{time.monotonic_ns()}.jsonl"
    command = [
        sys.executable, "-m", "perfectplay.cli", "batch", "connect4", str(source),
        "--out", str(out), "--executor", executor, "--workers", str(workers),
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    found = SUMMARY.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(command)}: status {done.returncode}\n{done.stderr}")
    return wall, float(found.group(2)) - float(found.group(3)), out


def mismatches(out: Path, expected: list[int]) -> int:
    """Output lines whose score differs from the published one (or that are missing)."""
    scores = {}
    for line in out.read_text().splitlines():
        answer = json.loads(line)
        scores[answer["index"]] = answer.get("score")
    return sum(scores.get(index) != score for index, score in enumerate(expected))


def main() -> None:
    args = parse_args()
    lines = (SETS / args.set).read_text().splitlines()[: args.positions]
    expected = [int(line.split()[1]) for line in lines]
    pairs = [
        (executor, int(workers))
        for executor in args.executors.split(",")
        for workers in args.workers.split(",")
    ]
    walls: dict[tuple[str, int], list[float]] = {pair: [] for pair in pairs}
    solving: dict[tuple[str, int], list[float]] = {pair: [] for pair in pairs}
    wrong = 0
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.txt"
        source.write_text("\n".join(lines) + "\n")
        for round_number in range(args.rounds):
            for pair in pairs if round_number % 2 == 0 else pairs[::-1]:
                wall, solve_time, out = run_once(source, *pair, Path(folder))
                walls[pair].append(wall)
                solving[pair].append(solve_time)
                wrong += mismatches(out, expected)
                print(f"  round {round_number + 1} {pair[0]} x{pair[1]}: {wall:.2f} s, "
                      f"solving {solve_time:.2f} s", file=sys.stderr)  # fmt: skip
    print(f"machine: {machine()}")
    print(f"{len(lines)} positions of {args.set}, {args.rounds} rounds, medians")
    print("| executor | workers | command wall time | solving (all workers ready) |")
    print("|---|---|---|---|")
    for executor, workers in pairs:
        wall, solve_time = (statistics.median(v[executor, workers]) for v in (walls, solving))
        print(f"| {executor} | {workers} | {wall:.2f} s | {solve_time:.2f} s |")
    for executor in args.executors.split(","):
        one, two = (executor, 1), (executor, 2)
        if one in walls and two in walls:
            whole = statistics.median(walls[one]) / statistics.median(walls[two])
            work = statistics.median(solving[one]) / statistics.median(solving[two])
            print(f"{executor}: 2 workers against 1: {whole:.2f}x wall, {work:.2f}x solving")
    print(f"scores differing from the published ones: {wrong} in {len(pairs) * args.rounds} runs")


if __name__ == "__main__":
    main()
