"""Two source trees side by side on the same searches through the public API: Connect Four,
shape-and-color and the small m,n,k engine (issue 26's engines without numba's reference
counts, against a copy of main).

    python benchmarks/bench_lean.py SRC_A SRC_B                  # 5 rounds, all engines
    python benchmarks/bench_lean.py SRC_A SRC_B --rounds 3 --games connect4
    python benchmarks/bench_lean.py --worker --games mnk         # one run of this tree

``SRC_A`` and ``SRC_B`` are ``src`` folders (``/tmp/x_main/src`` and ``$PWD/src``). Each
round runs one worker process per tree, A then B, then B then A in the next round (the
machine is shared: the load falls on both alike). A worker loads every engine first (each
tree should have its numba cache warm: set ``NUMBA_CACHE_DIR`` per tree), then makes each
search once and prints, per case, the wall time of the public call, the nodes, value and
move as JSON. The table gives the median seconds of each tree over the rounds, their ratio
(B / A: below 1, B is faster) and whether the answers (nodes, values and moves) were the
same in every run of both trees.

Cases: Connect Four ``api.solve`` (exact, the books on, with the principal variation) of
the first positions of two of Pons' sets (``../shared/connect4``, ``--data``); shape-and-
color ``api.best`` at a fixed depth (deterministic nodes) on 7x6 positions; the m,n,k
game's ``api.solve`` of empty 4x4, 5x4 and 4x5 boards with k=4.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import PONS_SETS

CONNECT4_SETS = (("Test_L2_R2", 100), ("Test_L1_R2", 40))
"""Pons' set files and how many of their first positions each round solves."""
SIMPLEXITY_POSITIONS = (
    "2O 5X",
    "2O 5X 6O 6X 6O 7X 6O 6X",
    "2O 5X 6O 6X 6O 7X 6O 6X 7O 2X 4O 4X",
)
"""Positions of bench_simplexity.py's timed searches, searched here to a fixed depth."""
SIMPLEXITY_DEPTH = 11
MNK_BOARDS = ("4x4", "5x4", "4x5")
"""Empty boards (width x height) the m,n,k engine solves, k=4."""
GAMES = ("connect4", "simplexity", "mnk")

Case = tuple[str, Any, Any, Any]
"""``(name, game, position, call)``: ``call(game, position)`` runs one search."""


def connect4_cases(data: Path) -> list[Case]:
    """One exact solve per position of :data:`CONNECT4_SETS`."""
    from perfectplay import api

    cases: list[Case] = []
    for file, count in CONNECT4_SETS:
        for line in (data / file).read_text().splitlines()[:count]:
            moves = line.split()[0]
            game, position = api.load("connect4", moves)
            cases.append((f"connect4 {file}", game, position, api.solve))
    return cases


def simplexity_cases() -> list[Case]:
    """A fixed-depth best move per position of :data:`SIMPLEXITY_POSITIONS`."""
    from perfectplay import api

    def call(game: Any, position: Any) -> Any:
        return api.best(game, position, api.limit(depth=SIMPLEXITY_DEPTH))

    cases: list[Case] = []
    for text in SIMPLEXITY_POSITIONS:
        game, position = api.load("simplexity", text)
        cases.append((f"simplexity {len(text.split())} plies", game, position, call))
    return cases


def mnk_cases() -> list[Case]:
    """An exact solve of each empty board of :data:`MNK_BOARDS`."""
    from perfectplay import api

    cases: list[Case] = []
    for size in MNK_BOARDS:
        game, position = api.new_game("tictactoe", size=size, k=4)
        cases.append((f"mnk {size} k=4", game, position, api.solve))
    return cases


def worker(games: list[str], data: Path) -> None:
    """Print one JSON object: case name -> list of ``[seconds, nodes, value, move]``."""
    from perfectplay import api

    makers = {
        "connect4": lambda: connect4_cases(data),
        "simplexity": simplexity_cases,
        "mnk": mnk_cases,
    }
    cases = [case for name in games for case in makers[name]()]
    for _, game, _, _ in cases:
        api.warm_game(game)  # loaded (or compiled) outside the timings
    out: dict[str, list[list[Any]]] = {}
    for name, game, position, call in cases:
        started = time.perf_counter()
        result = call(game, position)
        seconds = time.perf_counter() - started
        row = [seconds, result.nodes, str(result.score), str(result.best_move)]
        out.setdefault(name, []).append(row)
    print(json.dumps(out))


def run_worker(
    src: str, cache: str | None, games: list[str], data: Path
) -> dict[str, list[list[Any]]]:
    """One worker process on the tree ``src``, with numba's cache in ``cache`` (None: the
    environment's, by default beside the tree's modules)."""
    command = [sys.executable, __file__, "--worker", "--data", str(data), "--games", *games]
    env = dict(os.environ, PYTHONPATH=src)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def report(runs: dict[str, list[dict[str, list[list[Any]]]]], a: str, b: str) -> None:
    """The Markdown table of medians, ratios and identity."""
    print(f"A = {a}\nB = {b}\n")
    print("| case | positions | nodes (A) | A median | B median | B / A | same answers |")
    print("|---|---|---|---|---|---|---|")
    first = runs[a][0]
    for name in first:
        totals = {src: [sum(row[0] for row in run[name]) for run in runs[src]] for src in (a, b)}
        answers = {
            json.dumps([row[1:] for row in run[name]]) for src in (a, b) for run in runs[src]
        }
        nodes = sum(row[1] for row in first[name])
        med_a, med_b = statistics.median(totals[a]), statistics.median(totals[b])
        cells = [name, str(len(first[name])), f"{nodes:,}", f"{med_a:.3f} s", f"{med_b:.3f} s"]
        cells += [f"{med_b / med_a:.2f}", "yes" if len(answers) == 1 else "NO"]
        print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("trees", nargs="*", metavar="SRC", help="two src folders: A, then B")
    parser.add_argument("--worker", action="store_true", help="one run in this process")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", type=Path, default=PONS_SETS)
    parser.add_argument(
        "--caches", nargs=2, metavar="DIR", help="NUMBA_CACHE_DIR of A and of B (warm ones)"
    )
    args = parser.parse_args()
    if args.worker:
        worker(args.games, args.data)
        return
    if len(args.trees) != 2:
        parser.error(f"give two src folders (A, then B), not {len(args.trees)}")
    if not args.data.is_dir():
        parser.error(f"--data {args.data}: no such folder (Pons' sets)")
    a, b = args.trees
    caches = dict(zip((a, b), args.caches or (None, None), strict=True))
    runs: dict[str, list[dict[str, list[list[Any]]]]] = {a: [], b: []}
    for index in range(args.rounds):
        for src in (a, b) if index % 2 == 0 else (b, a):
            runs[src].append(run_worker(src, caches[src], args.games, args.data))
    report(runs, a, b)


if __name__ == "__main__":
    main()
