"""The tree pictures' cost (issue 25's SVG renderer): the tidy layout of large random trees
and the SVG of the largest alpha-beta tree a picture accepts. Replaces the timed assertions
the tests once made (a test asserts behaviour; speed is measured here).

    python benchmarks/bench_tree_svg.py            # median of 5 rounds each

Prints one Markdown row per case: nodes, median and slowest seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable

from perfectplay import api
from perfectplay.analysis.tree_svg import tidy_layout, to_svg


def random_tree(rng: random.Random, count: int) -> list[list[int]]:
    """A random tree of ``count`` nodes, node 0 the root: children lists."""
    children: list[list[int]] = [[] for _ in range(count)]
    for node in range(1, count):
        children[rng.randrange(node)].append(node)
    return children


def timed(work: Callable[[], object], rounds: int) -> list[float]:
    """Seconds of each of ``rounds`` calls of ``work``."""
    seconds = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    chain = [[node + 1] for node in range(4_999)] + [[]]
    wide = random_tree(random.Random(7), 2_000)
    game = api.load("tictactoe", "___/___/___")[0]
    tree = api.tree(game, game.initial(), 4, alphabeta=True)
    cases = [
        ("tidy layout, a chain", 5_000, lambda: tidy_layout(chain, [(10.0, 10.0)] * 5_000)),
        ("tidy layout, a random tree", 2_000, lambda: tidy_layout(wide, [(90.0, 70.0)] * 2_000)),
        ("SVG of 3x3 depth 4 alpha-beta", tree.node_count(), lambda: ET.fromstring(to_svg(tree))),
    ]
    print("| case | nodes | median | slowest |\n|---|---|---|---|")
    for name, nodes, work in cases:
        seconds = timed(work, rounds)
        print(f"| {name} | {nodes:,} | {statistics.median(seconds):.3f} s | {max(seconds):.3f} s |")


if __name__ == "__main__":
    main()
