"""What the check of numba's cache costs (compile_cache.keep_coherent, run once per process
by compile_guard before the first compiled import), and the stamp check cached() adds.

Usage: ``python3 benchmarks/bench_compile_guard.py [--runs N]``. Every measurement uses a
cache folder of its own (``NUMBA_CACHE_DIR`` in a temporary folder): the checkout's cache
is never read nor touched. Measured, ``N`` times each (20 by default), the median, the
fastest and the slowest printed as a Markdown table, with the machine, the date and the load
average before and after:

* the first check in a fresh interpreter, stamps current (every process after the first);
* the same check again in one process (file contents in the OS's cache, code warm);
* a check that finds every stamp stale and removes 25 fake cache files a module;
* the stamp check :func:`~perfectplay.games.compile_cache.cached` adds (``stamped``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from common import fmt, machine

from perfectplay.games import compile_cache
from perfectplay.games.connect4.engine import ENGINE

RUNS = 20
"""Measurements of each kind."""
FILES_A_MODULE = 25
"""Fake cache files a compiled module has in the stale case (an index and data files)."""
FIRST_CHECK = (
    "import time; from perfectplay.games import compile_cache; t = time.perf_counter(); "
    "compile_cache.keep_coherent(); print(time.perf_counter() - t)"
)
"""A fresh interpreter's first check (the module imported before the clock starts)."""


def first_checks(runs: int) -> list[float]:
    """Seconds of the first check in each of ``runs`` fresh interpreters."""
    return [
        float(
            subprocess.run(
                [sys.executable, "-c", FIRST_CHECK], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    ]


def timed(
    runs: int, work: Callable[[], object], before: Callable[[], None] | None = None
) -> list[float]:
    """Seconds of ``work`` in this process, ``runs`` times (``before`` each, unmeasured)."""
    seconds = []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return seconds


def make_stale() -> None:
    """Every stamp stale and ``FILES_A_MODULE`` cache files of each compiled module."""
    for source in compile_cache.source_digests():
        folder = compile_cache.cache_folder(source)
        compile_cache.write_stamp(folder, {})
        for number in range(FILES_A_MODULE):
            (folder / f"{source.stem}.f-{number}.py311.nbi").write_bytes(b"")


def row(label: str, seconds: list[float]) -> str:
    """A table row: median, fastest, slowest."""
    middle, low, high = statistics.median(seconds), min(seconds), max(seconds)
    return f"| {label} | {fmt(middle)} | {fmt(low)} | {fmt(high)} |"


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    runs = parser.parse_args().runs
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["NUMBA_CACHE_DIR"] = folder
        compile_cache.keep_coherent()  # the stamps written: current from here on
        rows = [
            row("first check in a fresh interpreter", first_checks(runs)),
            row("check again in one process", timed(runs, compile_cache.keep_coherent)),
            row(
                f"check finding every stamp stale ({FILES_A_MODULE} files a module removed)",
                timed(runs, compile_cache.keep_coherent, make_stale),
            ),
            row(
                "cached()'s stamp check (stamped)",
                timed(runs, lambda: compile_cache.stamped(ENGINE)),
            ),
        ]
    print(f"{machine()}; {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    print(
        f"{len(compile_cache.source_digests())} compiled modules; {runs} runs each; "
        f"load {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after\n"
    )
    print("| what | median | fastest | slowest |\n|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
