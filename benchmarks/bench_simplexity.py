"""Shape-and-color engine benchmark: search speed and depth under a time limit, exact solves.

    python benchmarks/bench_simplexity.py                 # nodes/s and depth in 3 s, 7x6
    python benchmarks/bench_simplexity.py --time 1        # the same with 1 s a position
    python benchmarks/bench_simplexity.py --exact 4x4 5x4 4x5 --cap 1800

The timed searches go through the public ``solve`` (iterative deepening under the hard
deadline, a fresh table each position); the kernel is loaded before any clock starts. The
exact solves call the kernel on the empty board with a search as deep as the board (null
windows: win/draw/loss first, then the length) and give up at ``--cap`` seconds.

The arena figures of BENCHMARKS.md come from the command line::

    perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors,depth=3 \\
        --games 40 --time 3 --opening-plies 2 --seed 1
"""

from __future__ import annotations

import argparse
import time

from common import fmt, machine

from perfectplay.api import load, new_game
from perfectplay.games.kernel import SearchControls
from perfectplay.search.limits import make_limit
from perfectplay.search.solver import solve
from perfectplay.values import UNLIMITED_NODES

POSITIONS = {
    "empty board": "",
    "after 2 plies": "2O 5X",
    "after 8 plies": "2O 5X 6O 6X 6O 7X 6O 6X",
    "after 12 plies": "2O 5X 6O 6X 6O 7X 6O 6X 7O 2X 4O 4X",
    "after 16 plies": "2O 5X 6O 6X 6O 7X 6O 6X 7O 2X 4O 4X 4O 4X 1O 3X",
}
"""Positions of the timed searches (7x6): two random plies, then the engine against itself
at 0.15 s a move."""


def timed(seconds: float) -> None:
    """Depth completed, nodes, nodes per second and time used for each position."""
    game, start = new_game("simplexity")
    solve(game, start, make_limit(depth=2))  # load the kernel before the clocks
    print(f"| position | depth | nodes | nodes/s | time used (limit {seconds:g} s) | value |")
    print("|---|---|---|---|---|---|")
    for name, moves in POSITIONS.items():
        game, position = load("simplexity", moves)
        began = time.perf_counter()
        result = solve(game, position, make_limit(time=seconds))
        used = time.perf_counter() - began
        rate = result.nodes / max(used, 1e-9)
        print(
            f"| {name} | {result.depth} | {result.nodes:,} | {rate:,.0f} | {fmt(used)} "
            f"| {result.score} |"
        )


def exact(sizes: list[str], cap: float) -> None:
    """The exact value of each empty board, or how long the solve ran without finishing."""
    print("| board | value for player 1 | length (plies) | nodes | time |")
    print("|---|---|---|---|---|")
    for size in sizes:
        game, start = new_game("simplexity", size=size)
        kernel = game.kernel()
        assert kernel is not None  # the shape-and-color game has a compiled engine
        kernel.search(start, 1, None, kernel.new_table(1 << 10), 1_000)
        table = kernel.new_table(1 << 24)
        began = time.perf_counter()
        deadline = began + cap
        cells = game.plies_left_bound(start)
        controls = SearchControls(deadline=deadline)
        result = kernel.search(start, cells, None, table, UNLIMITED_NODES, controls)
        used = time.perf_counter() - began
        if result.aborted:
            print(f"| {size} | not solved within {fmt(cap)} | | {result.nodes:,} | {fmt(used)} |")
            continue
        from perfectplay.search.result import Score

        score = Score(result.value, True)
        plies = score.plies if score.plies is not None else game.spec.cells
        print(
            f"| {size} | {score.outcome} | {plies} | {result.nodes:,} | {fmt(used)} |", flush=True
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=3.0, help="seconds a timed search")
    parser.add_argument("--exact", nargs="*", metavar="RxC", help="solve these empty boards")
    parser.add_argument("--cap", type=float, default=1800.0, help="seconds an exact solve")
    args = parser.parse_args()
    print(machine())
    print(time.strftime("%Y-%m-%d"))
    if args.exact:
        exact(args.exact, args.cap)
    else:
        timed(args.time)


if __name__ == "__main__":
    main()
