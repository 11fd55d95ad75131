"""How closely timed searches keep their limit: overshoot per game, position and limit.

Each case runs ``api.solve(game, position, limit(time=T))`` in this process after a warm-up
(compiled code loaded, the clock's first trip made) and reports the median wall time of the
call against ``T`` over ``--rounds`` runs, with the depth reached. ``--cold`` also runs each
case once as a whole ``perfectplay best ... --time T`` process: ``--time`` counts from the
command's start, so loading the compiled engine is inside the answer's time.

    python3 benchmarks/bench_deadline.py --rounds 5
    python3 benchmarks/bench_deadline.py --rounds 3 --cold   # also whole processes, cold
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from common import fmt, machine

from perfectplay import api

CASES = (
    ("tictactoe 3x3, empty", "tictactoe", "", None, None),
    ("tictactoe 8x8 k=5, empty (kernel)", "tictactoe", "", "8x8", 5),
    ("tictactoe 15x15 k=5, empty (generic)", "tictactoe", "", "15x15", 5),
    ("connect4 7x6 '44'", "connect4", "44", None, None),
    ("connect4 7x6 '4453'", "connect4", "4453", None, None),
    ("simplexity 7x6 mid-game", "simplexity", "4O 4X 3O 5X 4O 3X", None, None),
)
LIMITS = (0.01, 0.2, 1.0, 3.0)


def load(
    name: str, text: str, size: str | None, k: int | None
) -> tuple[api.RegisteredGame, object]:
    """The case's game and position."""
    if size is None:
        return api.load(name, text)
    game, start = api.new_game(name, size=size, k=k)
    return game, start


def warm(name: str, text: str, size: str | None, k: int | None, rounds: int) -> list[str]:
    """Table rows of one case in this (warm) process."""
    game, position = load(name, text, size, k)
    api.solve(game, position, api.limit(time=0.05))
    rows = []
    for seconds in LIMITS:
        times, depths = [], []
        for _ in range(rounds):
            began = time.perf_counter()
            result = api.solve(game, position, api.limit(time=seconds))
            times.append(time.perf_counter() - began)
            depths.append(result.depth)
        median = statistics.median(times)
        over = (median - seconds) / seconds * 100
        rows.append(
            f"| {seconds:g} s | {fmt(median)} | {over:+.1f} % | {fmt(max(times))} | "
            f"{min(depths)}-{max(depths)} |"
        )
    return rows


def cold(name: str, text: str, size: str | None, k: int | None) -> list[str]:
    """Whole ``perfectplay best --json`` processes, one per limit: the answer's time as the
    command reports it (counted from the command's start, loading included), its overshoot,
    the depth, and the process's wall time (Python's own start-up and exit on top)."""
    rows = [
        "",
        "| limit | answer (cold process) | overshoot | depth | process wall |",
        "|---|---|---|---|---|",
    ]
    for seconds in LIMITS:
        argv = [sys.executable, "-m", "perfectplay.cli", "best", name, text, "--json"]
        argv += ["--time", str(seconds)]
        if size is not None:
            argv += ["--size", size, "--k", str(k)]
        began = time.perf_counter()
        done = subprocess.run(argv, check=True, capture_output=True, text=True)
        wall = time.perf_counter() - began
        data = json.loads(done.stdout)
        answer = data["time_ms"] / 1000
        rows.append(
            f"| {seconds:g} s | {fmt(answer)} | {100 * (answer - seconds) / seconds:+.1f} % | "
            f"{data['depth']} | {fmt(wall)} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time whole processes")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    for title, name, text, size, k in CASES:
        print(f"\n{title}\n\n| limit | median call | overshoot | worst call | depth |")
        print("|---|---|---|---|---|")
        print("\n".join(warm(name, text, size, k, args.rounds)))
        if args.cold:
            print("\n".join(cold(name, text, size, k)))


if __name__ == "__main__":
    main()
