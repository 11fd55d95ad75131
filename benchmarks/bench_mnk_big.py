"""Benchmarks of issue 17: the published m,n,k games solved, and the big-board engine on 15x15.

    python benchmarks/bench_mnk_big.py            # (5,5,4), (6,5,4), 15x15 figures (about 30 s)
    python benchmarks/bench_mnk_big.py --long     # adds (7,4,4)
    python benchmarks/bench_mnk_big.py --inner-vct  # A/B: VCT inside the search, on and off
    python benchmarks/bench_mnk_big.py --inner-vct-match 1  # on against off, 1 s a move

Prints a Markdown table for BENCHMARKS.md. Each exact solve is timed once through the public
call (an empty table every time) after a warm-up that loads the compiled kernel; timed searches
report the depth they reached and the score.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import common

from perfectplay import limit, new_game, solve
from perfectplay.games.mnk import big_kernel
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

    def bits(side: str) -> int:
        cells = entry[side]
        assert isinstance(cells, list), f"{side}: a list of cells"
        return sum(1 << g.index(parse_mnk_move(g, str(cell))) for cell in cells)

    return g.from_bits(bits("x"), bits("o"))


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


def inner_vct_ab(g: MNKGame) -> None:
    """Depth and nodes in 1 s from the empty board and the ten openings of the Gomoku match,
    and the tactics' values, with the inner nodes' VCT on (the default) and off, interleaved
    position by position in this process (the kernel's context rebuilt for each)."""
    from bench_gomoku_match import openings

    on = big_kernel.INNER_VCT_DEPTH
    starts = [("empty board", g.initial())]
    starts += [(f"opening {i}", p) for i, p in enumerate(openings(g), 1)]
    starts += [(e["name"][:20], position(g, e)) for e in json.loads(TACTICS.read_text())]
    print("| position | on: value, depth, nodes | off: value, depth, nodes |")
    print("| --- | --- | --- |")
    for name, start in starts:
        found = []
        for depth in (on, 1 << 30):
            big_kernel.INNER_VCT_DEPTH = depth
            big_kernel.static_context.cache_clear()
            result = solve(g, start, limit(time=1.0))
            found.append(f"{result.score}, {result.depth}, {result.nodes:,}")
        print(f"| {name} | {found[0]} | {found[1]} |", flush=True)
    big_kernel.INNER_VCT_DEPTH = on
    big_kernel.static_context.cache_clear()


def inner_vct_at(depth: int, seconds: float) -> Any:
    """Our engine at ``seconds`` a move with the inner nodes' VCT from ``depth`` plies left
    (a depth past any search: off), set before each move (the context is rebuilt)."""
    from bench_gomoku_match import ours

    engine = ours(seconds)

    def play(g: MNKGame, start: MNKPosition) -> Any:
        big_kernel.INNER_VCT_DEPTH = depth
        big_kernel.static_context.cache_clear()
        return engine(g, start)

    return play


def inner_vct_match(seconds: float) -> None:
    """The engine with the inner VCT against the engine without, on the Gomoku match's ten
    openings, both colours."""
    from bench_gomoku_match import gomoku_game, match, openings, print_game, summary

    g = gomoku_game()
    on = inner_vct_at(big_kernel.INNER_VCT_DEPTH, seconds)
    tally = match(g, openings(g), on, inner_vct_at(1 << 30, seconds), print_game)
    print(common.machine())
    print(summary("the inner VCT off", tally))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="also (7,4,4)")
    parser.add_argument("--inner-vct", action="store_true", help="only the inner VCT's A/B")
    parser.add_argument("--inner-vct-match", type=float, help="on against off, seconds a move")
    args = parser.parse_args()
    if args.inner_vct_match:
        inner_vct_match(args.inner_vct_match)
        return
    if args.inner_vct:
        g = game(15, 15, 5)
        solve(g, g.initial(), limit(depth=1))
        print(common.machine())
        inner_vct_ab(g)
        return
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
