"""``perfectplay batch``: one worker against two, locally and on Ray, interleaved in one run.

Runs the command as a user would (a fresh process each time, output to a new file) on the
first ``--positions`` lines of one of Pons' sets, one executor after another (so that Ray's
daemons never run beside the local pool; ``ray-head`` joins a Ray head started once, as on a
cluster), one worker and two alternating for ``--rounds`` rounds. Prints, per pair, the
medians of the whole command's wall time and of the solving time (from the moment every
worker was ready to the last answer, as the command's summary line states it: start-up and
shut-down excluded), the speed-up of two workers over one on each, and checks every score
against the published one.

    python3 benchmarks/bench_batch.py --positions 150 --rounds 5
    python3 benchmarks/bench_batch.py --executors local --rounds 9
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from common import machine

SETS = Path(__file__).resolve().parent.parent.parent / "shared" / "connect4"
SUMMARY = re.compile(
    r"(\d+) positions? in ([0-9.]+) s \(.*ready after ([0-9.]+) s, answering ([0-9.]+) s\)"
)
"""The command's summary line: positions, wall seconds, seconds until every worker was ready,
seconds from then to the last answer."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="Test_L2_R2", help="one of Pons' sets (middle-medium)")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--executors",
        default="local,ray,ray-head",
        help="comma-separated: local, ray (a local Ray instance per command), ray-head "
        "(--executor ray --address 127.0.0.1:PORT on a head started once here, as on a cluster)",
    )
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds between commands")
    return parser.parse_args()


HEAD_PORT = 6391
"""The port of the Ray head the ``ray-head`` runs use (loopback only)."""


def run_once(source: Path, executor: str, workers: int, folder: Path) -> tuple[float, float, Path]:
    """One command: (wall seconds as measured here, solving seconds from its summary, output)."""
    out = folder / f"{executor}-{workers}-{time.monotonic_ns()}.jsonl"
    command = [
        sys.executable, "-m", "perfectplay.cli", "batch", "connect4", str(source),
        "--out", str(out), "--workers", str(workers),
    ]  # fmt: skip
    if executor == "ray-head":
        command += ["--executor", "ray", "--address", f"127.0.0.1:{HEAD_PORT}"]
    else:
        command += ["--executor", executor]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    found = SUMMARY.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(command)}: status {done.returncode}\n{done.stderr}")
    return wall, float(found.group(4)), out


@contextmanager
def ray_head(wanted: bool) -> Iterator[None]:
    """A Ray head of two CPUs on loopback while inside, when ``wanted``."""
    if not wanted:
        yield
        return
    ray = [sys.executable, "-m", "ray.scripts.scripts"]
    os.environ["RAY_AUTH_MODE"] = "disabled"  # loopback only; the commands inherit it
    subprocess.run(
        [*ray, "start", "--head", f"--port={HEAD_PORT}", "--num-cpus=2",
         "--node-ip-address=127.0.0.1", "--include-dashboard=false"],
        check=True, capture_output=True,
    )  # fmt: skip
    try:
        time.sleep(5)  # the head's own start-up work, done before anything is measured
        yield
    finally:
        subprocess.run([*ray, "stop", "--force"], check=False, capture_output=True)


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
    executors = args.executors.split(",")
    counts = [int(workers) for workers in args.workers.split(",")]
    walls: dict[tuple[str, int], list[float]] = {}
    solving: dict[tuple[str, int], list[float]] = {}
    wrong = runs = 0
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.txt"
        source.write_text("\n".join(lines) + "\n")
        for executor in executors:  # one executor at a time: Ray's daemons settle between
            with ray_head(executor == "ray-head"):
                for round_number in range(args.rounds):
                    for workers in counts if round_number % 2 == 0 else counts[::-1]:
                        time.sleep(args.settle)
                        wall, solve_time, out = run_once(source, executor, workers, Path(folder))
                        walls.setdefault((executor, workers), []).append(wall)
                        solving.setdefault((executor, workers), []).append(solve_time)
                        wrong += mismatches(out, expected)
                        runs += 1
                        print(f"  round {round_number + 1} {executor} x{workers}: {wall:.2f} s, "
                              f"solving {solve_time:.2f} s", file=sys.stderr)  # fmt: skip
    print(f"machine: {machine()}")
    print(f"{len(lines)} positions of {args.set}, {args.rounds} rounds, medians")
    print("| executor | workers | command wall time | solving (all workers ready) |")
    print("|---|---|---|---|")
    for (executor, workers), times in walls.items():
        wall, solve_time = statistics.median(times), statistics.median(solving[executor, workers])
        print(f"| {executor} | {workers} | {wall:.2f} s | {solve_time:.2f} s |")
    for executor in executors:
        one, two = (executor, 1), (executor, 2)
        if one in walls and two in walls:
            whole = statistics.median(walls[one]) / statistics.median(walls[two])
            work = statistics.median(solving[one]) / statistics.median(solving[two])
            print(f"{executor}: 2 workers against 1: {whole:.2f}x wall, {work:.2f}x solving")
    print(f"scores differing from the published ones: {wrong} in {runs} runs")


if __name__ == "__main__":
    main()
