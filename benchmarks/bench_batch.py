"""``perfectplay batch``: one worker against two, locally and on Ray, interleaved in one run.

Runs the command as a user would (a fresh process each time, output to a new file, without
the opening books unless ``--books``) on the first ``--positions`` lines of each of Pons' sets
named, one executor after another (so that Ray's daemons never run beside the local pool;
``ray-head`` joins a Ray head started once, as on a cluster), one worker and two alternating
for ``--rounds`` rounds. Prints, per set and executor, the medians of the whole command's wall
time and of the solving time (from the moment the first worker was ready to the last answer,
as the command's summary line states it: start-up and shut-down excluded), the speed-up of two
workers over one on each, the load average before and after, and checks every score against
the published one.

``--phases`` first measures where a worker's start-up goes (the imports, numba's CPU target,
the compiled code loaded from numba's cache, the table, the warm-up search), in fresh
interpreters, one alone and two at once, as a pool's worker starts (SciPy's BLAS probe
skipped, the table's pages left to the searches).

    python3 benchmarks/bench_batch.py --executors local --phases
    python3 benchmarks/bench_batch.py --sets Test_L2_R2 --positions 150 --rounds 5
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
from dataclasses import dataclass, field
from pathlib import Path

from common import PONS_SETS, machine

SUMMARY = re.compile(
    r"(\d+) positions? in ([0-9.]+) s \(.*ready after ([0-9.]+) s, answering ([0-9.]+) s\)"
)
"""The command's summary line: positions, wall seconds, seconds until the first worker was
ready, seconds from then to the last answer."""
HEAD_PORT = 6391
"""The port of the Ray head the ``ray-head`` runs use (loopback only)."""
PHASES = """
import json, sys, time
marks = [("start", time.perf_counter())]
def mark(name):
    marks.append((name, time.perf_counter()))
from perfectplay.jobs.worker import Worker, blas_probe_skipped
from perfectplay.search.solver import Searcher, SearchOptions
from perfectplay import api
mark("perfectplay imports")
skipping = blas_probe_skipped()  # as a pool's worker loads numba, in its warm-up
skipping.__enter__()
import numba
mark("numba import")
from numba.core.registry import cpu_target
cpu_target.target_context.refresh()
mark("numba CPU target (SciPy probe)" if sys.modules.get("scipy") else "numba CPU target")
skipping.__exit__(None, None, None)
game = api.load("connect4", "")[0]
searcher = Searcher(game, SearchOptions(kernel=api.kernel_options(book=False)))
searcher.kernel
mark("kernel module, cached code")
searcher.table
mark("table allocated")
searcher.warm_up()
mark("warm-up search")
print(json.dumps([(b[0], b[1] - a[1]) for a, b in zip(marks, marks[1:])]))
"""
"""A worker's start-up, step by step, as :class:`perfectplay.jobs.worker.Worker` makes it."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sets",
        default="Test_L2_R2,Test_L1_R2",
        help="comma-separated names of Pons' sets (default: middle-medium, begin-medium)",
    )
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--executors",
        default="local,ray,ray-head",
        help="comma-separated: local, ray (a local Ray instance per command), ray-head "
        "(--executor ray --address 127.0.0.1:PORT on a head started once here, as on a cluster)",
    )
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--books", action="store_true", help="with the opening books")
    parser.add_argument("--phases", action="store_true", help="first, a worker's start-up")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds between commands")
    return parser.parse_args()


def load() -> str:
    """The load averages (1, 5, 15 minutes)."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def phases(together: int) -> list[list[tuple[str, float]]]:
    """:data:`PHASES` in ``together`` fresh interpreters started at once."""
    started = [
        subprocess.Popen([sys.executable, "-c", PHASES], stdout=subprocess.PIPE, text=True)
        for _ in range(together)
    ]
    return [json.loads(process.communicate()[0]) for process in started]


def print_phases(rounds: int) -> None:
    """The medians of each start-up step, one process alone and two at once."""
    print("| a worker's start-up step | alone | two at once |")
    print("|---|---|---|")
    found: dict[int, list[list[tuple[str, float]]]] = {1: [], 2: []}
    for _ in range(rounds):
        for together in (1, 2):
            found[together] += phases(together)
    names = [name for name, _ in found[1][0]]
    for step, name in enumerate(names):
        alone = statistics.median(run[step][1] for run in found[1])
        both = statistics.median(run[step][1] for run in found[2])
        print(f"| {name} | {alone:.3f} s | {both:.3f} s |")
    total = [statistics.median(sum(s for _, s in run) for run in found[n]) for n in (1, 2)]
    print(f"| all (after the interpreter's own start) | {total[0]:.3f} s | {total[1]:.3f} s |")


def run_once(
    source: Path, executor: str, workers: int, folder: Path, books: bool
) -> tuple[float, float, Path]:
    """One command: (wall seconds as measured here, solving seconds from its summary, output)."""
    out = folder / f"{executor}-{workers}-{time.monotonic_ns()}.jsonl"
    command = [
        sys.executable, "-m", "perfectplay.cli", "batch", "connect4", str(source),
        "--out", str(out), "--workers", str(workers),
    ]  # fmt: skip
    if not books:
        command.append("--no-book")
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


Key = tuple[str, str, int]
"""(set, executor, workers)."""


@dataclass
class Runs:
    """Every command's wall and solving seconds by (set, executor, workers), and the scores
    that differed from the published ones."""

    walls: dict[Key, list[float]] = field(default_factory=dict)
    solving: dict[Key, list[float]] = field(default_factory=dict)
    wrong: int = 0


def measure(args: argparse.Namespace, folder: Path) -> Runs:
    """Every command of the run."""
    runs = Runs()
    counts = [int(workers) for workers in args.workers.split(",")]
    for executor in args.executors.split(","):  # one at a time: Ray's daemons settle between
        with ray_head(executor == "ray-head"):
            for name in args.sets.split(","):
                lines = (PONS_SETS / name).read_text().splitlines()[: args.positions]
                source = folder / f"{name}.txt"
                source.write_text("\n".join(lines) + "\n")
                expected = [int(line.split()[1]) for line in lines]
                for round_number in range(args.rounds):
                    for workers in counts if round_number % 2 == 0 else counts[::-1]:
                        time.sleep(args.settle)
                        wall, solve_time, out = run_once(
                            source, executor, workers, folder, args.books
                        )
                        runs.walls.setdefault((name, executor, workers), []).append(wall)
                        runs.solving.setdefault((name, executor, workers), []).append(solve_time)
                        runs.wrong += mismatches(out, expected)
                        print(f"  {name} round {round_number + 1} {executor} x{workers}: "
                              f"{wall:.2f} s, solving {solve_time:.2f} s, load {load()}",
                              file=sys.stderr)  # fmt: skip
    return runs


def report(runs: Runs) -> None:
    """The table of medians and the speed-ups."""
    walls, solving = runs.walls, runs.solving
    print("| set | executor | workers | command wall time | solving (first worker ready) |")
    print("|---|---|---|---|---|")
    for (name, executor, workers), times in walls.items():
        solve_time = statistics.median(solving[name, executor, workers])
        print(f"| {name} | {executor} | {workers} | {statistics.median(times):.2f} s | "
              f"{solve_time:.2f} s |")  # fmt: skip
    for name, executor, workers in walls:
        if workers != 2 or (name, executor, 1) not in walls:
            continue
        one, two = (name, executor, 1), (name, executor, 2)
        whole = statistics.median(walls[one]) / statistics.median(walls[two])
        work = statistics.median(solving[one]) / statistics.median(solving[two])
        print(f"{name} {executor}: 2 workers against 1: {whole:.2f}x wall, {work:.2f}x solving")


def main() -> None:
    args = parse_args()
    print(f"machine: {machine()}")
    print(f"load average before: {load()}")
    if args.phases:
        print_phases(args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        runs = measure(args, Path(folder))
    books = "with the books" if args.books else "--no-book"
    print(f"the first {args.positions} positions of each set, {books}, "
          f"{args.rounds} rounds, medians")  # fmt: skip
    report(runs)
    count = sum(len(times) for times in runs.walls.values())
    print(f"scores differing from the published ones: {runs.wrong} in {count} runs")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
