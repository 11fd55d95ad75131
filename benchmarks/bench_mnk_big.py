"""Benchmarks of issue 17: the published m,n,k games solved, and the big-board engine on 15x15.

    python benchmarks/bench_mnk_big.py            # (5,5,4), (6,5,4), 15x15 figures (about 30 s)
    python benchmarks/bench_mnk_big.py --long     # adds (7,4,4)

Prints a Markdown table for BENCHMARKS.md. Each exact solve is timed once through the public
call (an empty table every time) after a warm-up that loads the compiled kernel; timed searches
report the depth they reached and the score.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import common

from perfectplay import limit, new_game, solve
from perfectplay.games.mnk.notation import parse_mnk_move
from perfectplay.games.mnk.rules import MNKGame, MNKPosition, game

TACTICS = Path(__file__).parent.parent / "tests" / "data" / "mnk_tactics.json"
PUBLISHED = [(5, 5, 4, "draw"), (5, 6, 4, "first-player win"), (4, 4, 3, "first-player win")]
LONG = [(4, 7, 4, "draw")]


def solved(rows: int, cols: int, k: int, expected: str) -> tuple[str, str, str, str]:
    """One exact solve from the empty board: (game, expected, value found, time)."""
    g, start = new_game("tictactoe", size=f"{cols}x{rows}", k=k)  # width x height
    began = time.perf_counter()
    result = solve(g, start)
    seconds = time.perf_counter() - began
    name = f"({cols},{rows},{k}) exact solve"
    return name, expected, f"{result.score} ({result.nodes:,} nodes)", common.fmt(seconds)


def position(g: MNKGame, entry: dict[str, object]) -> MNKPosition:
    """A position of the tactics file."""
    bits = [sum(1 << g.index(parse_mnk_move(g, c)) for c in entry[s]) for s in ("x", "o")]  # type: ignore[attr-defined]
    return g.from_bits(bits[0], bits[1])


def timed(g: MNKGame, p: MNKPosition, seconds: float, name: str) -> tuple[str, str, str, str]:
    """A search under a time limit: the depth reached and the score."""
    result = solve(g, p, limit(time=seconds))
    found = f"{result.score}, depth {result.depth}, {result.nodes:,} nodes"
    return name, f"{seconds:g} s limit", found, common.fmt(result.time)


def rows_15x15() -> list[tuple[str, str, str, str]]:
    """The four-three, the open board, and every tactical position, 1 s each."""
    g = game(15, 15, 5)
    tactics = json.loads(TACTICS.read_text())
    found = [timed(g, g.initial(), 1.0, "15x15 k=5, empty board")]
    opening = g.play(g.play(g.play(g.initial(), (7, 7)), (7, 8)), (8, 8))
    found.append(timed(g, opening, 1.0, "15x15 k=5, after h8 i8 i9"))
    for entry in tactics:
        found.append(timed(g, position(g, entry), 1.0, f"15x15 tactic: {entry['name']}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="also (7,4,4)")
    args = parser.parse_args()
    solve(*new_game("tictactoe", size="3x3"))  # load the kernels
    g = game(15, 15, 5)
    solve(g, g.initial(), limit(depth=1))
    rows = [solved(*entry) for entry in PUBLISHED + (LONG if args.long else [])]
    rows += rows_15x15()
    print(common.machine())
    print()
    print("| what | expected / limit | found | time |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
