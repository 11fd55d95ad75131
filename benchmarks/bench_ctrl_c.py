"""How soon Ctrl-C stops a long command: the seconds from SIGINT to the process's exit (its
answer printed, the interpreter gone), for the searches the tests interrupt.

    python3 benchmarks/bench_ctrl_c.py --rounds 5

Each command runs with stderr on a pseudo-terminal (so it shows its progress) and gets SIGINT
``--after`` seconds after the terminal first shows its marker (the first completed depth, the
first valued move, the first sub-board): a slow start does not move the signal before the work.
The tests (``tests/test_hardening.py``, ``tests/test_cli_time.py``) check that each stops,
with what it found so far, long before its end; the latency itself, which a loaded machine
stretches, is measured here: median and slowest of the rounds, with the load (``uptime``)
before and after. The brief's target: within 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

import common

TESTS = Path(__file__).resolve().parent.parent / "tests"
COMMANDS: list[tuple[tuple[str, ...], str]] = [
    (("best", "connect4", "", "--no-book", "--time", "60"), "so far"),
    (("best", "connect4", "", "--no-book", "--time", "60", "--threads", "2"), "so far"),
    (("best", "simplexity", "", "--time", "60"), "so far"),
    (("best", "tictactoe", "", "--size", "8x8", "--k", "5", "--time", "60"), "so far"),
    (("analyze", "connect4", "", "--size", "8x7", "--time", "14"), "1 valued"),
    (("history", "connect4", "....../....../..ox../.xoxo./xoxoxo"), "history: boards of"),
]
"""The interrupted commands (``perfectplay`` arguments) and the marker SIGINT waits for."""


def stop_seconds(argv: tuple[str, ...], marker: str, after: float) -> tuple[int, float]:
    """The exit status and the seconds from SIGINT to the exit of one run."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from cli_support import COMMAND, interrupt  # type: ignore[import-not-found]  # tests/ on the path

    code, _, waited = interrupt([*COMMAND, *argv], after=after, when=marker)
    return code, waited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command")
    parser.add_argument("--after", type=float, default=0.5, help="seconds after the marker")
    args = parser.parse_args()
    print(f"Machine: {common.machine()}; load {os.getloadavg()[0]:.2f}")
    print("| command | median | slowest | exit 130 |\n|---|---|---|---|")
    for argv, marker in COMMANDS:
        runs = [stop_seconds(argv, marker, args.after) for _ in range(args.rounds)]
        seconds = [waited for _, waited in runs]
        codes = sum(code == 130 for code, _ in runs)
        shown = " ".join(repr(a) if a == "" else a for a in argv)
        print(
            f"| `perfectplay {shown}` | {statistics.median(seconds):.2f} s | "
            f"{max(seconds):.2f} s | {codes}/{len(runs)} |"
        )
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
