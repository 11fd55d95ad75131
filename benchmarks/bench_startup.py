"""How long a cold process takes to answer: the wall time of fresh interpreters running
commands that need no deep search, against the interpreter's own floors.

Usage: ``python3 benchmarks/bench_startup.py [--runs N]``. Each command runs once unmeasured
(byte-code and disk caches warm, as on any second start: the commands run without
``PYTHONDONTWRITEBYTECODE``, so that the first run writes the byte code of modules changed
since it was last written), then ``N`` times (10 by default),
the commands taking turns so that a change of load on the machine touches them alike; the
median, the fastest and the slowest run of each are printed as a Markdown table, with the
machine, the Python, the date and the load average before and after (from ``os.getloadavg``).

``perfectplay`` runs as the installed console script under this interpreter (no shell
wrapper such as pyenv's shim, which adds its own tenth of a second), or as
``python -m perfectplay.cli`` where the script is not beside the interpreter.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 10
"""Measured runs of each command."""
BOOK_POSITION = "44444412222"
"""Eleven stones: every move leads to a twelve-stone position of the deep book."""


def perfectplay() -> list[str]:
    """The command that starts ``perfectplay`` in a fresh interpreter."""
    script = Path(sys.executable).parent / "perfectplay"
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "perfectplay.cli"]


def commands() -> list[tuple[str, list[str]]]:
    """The commands measured, each with the label it is shown by."""
    cli = perfectplay()
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ('python -c "import numpy"', [sys.executable, "-c", "import numpy"]),
        ("perfectplay --help", [*cli, "--help"]),
        ("perfectplay best tictactoe xox/oox/___", [*cli, "best", "tictactoe", "xox/oox/___"]),
        (
            f"perfectplay analyze connect4 {BOOK_POSITION}",
            [*cli, "analyze", "connect4", BOOK_POSITION],
        ),
    ]


def wall_time(command: list[str]) -> float:
    """Seconds ``command`` takes from start to exit (its output discarded); raises
    :class:`RuntimeError` when it fails."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    done = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{command}: exit {done.returncode}: {done.stderr.decode()[-300:]}")
    return elapsed


def measure(runs: int) -> dict[str, list[float]]:
    """``runs`` wall times of each command, after one unmeasured run each."""
    measured = commands()
    times: dict[str, list[float]] = {label: [] for label, _ in measured}
    for _, command in measured:
        wall_time(command)
    for _ in range(runs):
        for label, command in measured:
            times[label].append(wall_time(command))
    return times


def machine() -> str:
    """The processor, cores and system, in one line."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def table(times: dict[str, list[float]]) -> str:
    """The Markdown table of the runs: median, fastest and slowest of each command."""
    lines = ["| command | median s | fastest s | slowest s |", "|---|---:|---:|---:|"]
    for label, runs in times.items():
        lines.append(
            f"| `{label}` | {statistics.median(runs):.3f} | {min(runs):.3f} | {max(runs):.3f} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Measure and print the table with the conditions it was measured in."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="measured runs of each command")
    args = parser.parse_args()
    before = load()
    times = measure(args.runs)
    print(f"Machine: {machine()}; Python {platform.python_version()}")
    print(f"Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    print(f"Load average (1, 5, 15 min): {before} before, {load()} after")
    print(f"Runs: {args.runs} of each command, cold processes; `perfectplay` is {perfectplay()}")
    print()
    print(table(times))


if __name__ == "__main__":
    main()
