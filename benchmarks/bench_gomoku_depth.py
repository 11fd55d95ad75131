"""Nodes and time to a fixed depth on Gomoku positions from self-play (issue 26).

    PYTHONPATH=src python benchmarks/bench_gomoku_depth.py                 # this checkout
    PYTHONPATH=/tmp/old/src python benchmarks/bench_gomoku_depth.py        # another one

Takes the first ``--positions`` games of ``benchmarks/data/gomoku_selfplay_records.txt``
that reach ``--stones`` stones, the board after that many, and searches each with
``api.best(..., limit(depth=N))`` on 15x15 freestyle (the engine loaded first). Prints per
position the nodes, the processor time and the move, then the totals and the load. Run two
checkouts one after the other in the same minute to compare them, or one checkout's pattern
tables off and on (``--patterns order`` or ``eval``: :func:`~perfectplay.games.mnk.big_kernel.
with_patterns` on every context the kernel builds; issue 26).

``--time T`` searches each position for ``T`` seconds instead (``limit(time=T)``, what play
sees) and prints the depth reached too; its nodes and time are the clock's, not a fixed search.

``--nodes N`` searches each position within ``N`` nodes instead (``limit(nodes=N)``) and
prints the depth reached: a measure of depth that no load moves (issue 26's pruning).

``--param NAME=VALUE`` (repeatable) sets a context parameter of
:mod:`~perfectplay.games.mnk.context_layout` (``P_NAME``; the pruning switches of issue 26)
on every context, a runtime choice: ``--param NULL_DEPTH=4 --param HISTORY=3``. The totals
line gives the mean depth with ``--time`` or ``--nodes`` (the pruning's counters are not
seen through ``api.best``: ``tests/test_issue26_pruning.py`` reads them from the kernel).

``--deepen`` reaches ``--depth`` by iterative deepening (depth 1, 2, ... on one table, each
iteration's move tried first in the next), as play does: what the memory kept over the
iterations and the root's aspiration window change (issue 26); without it one search of that
depth.

``--micro R`` times the board instead of the search: on each position, ``R`` rounds of
make + evaluate + unmake of every empty cell within two of a stone (the work of a node's
children), printing the processor time per make + evaluate + unmake.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from gomoku_params import parameter, with_params

from perfectplay import api
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_kernel
from perfectplay.games.mnk.patterns import PATTERNS_EVAL, PATTERNS_ORDER

MODES = {"order": PATTERNS_ORDER, "eval": PATTERNS_EVAL}

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "data" / "gomoku_selfplay_records.txt"
DEEPEN_NODES = 1 << 50
"""A node budget no search reaches: with a depth, the solver deepens one ply at a time."""


def positions(count: int, stones: int) -> list[list[tuple[int, int]]]:
    """The first ``count`` games' first ``stones`` moves (0-based row, column)."""
    found = []
    for line in RECORDS.read_text().splitlines():
        fields = dict(part.strip().split(" ", 1) for part in line.split("|")[4:6])
        moves = fields["opening"].split() + fields["moves"].split()
        if len(moves) >= stones:
            found.append([tuple(int(v) for v in m.split(",")) for m in moves[:stones]])
        if len(found) == count:
            break
    return found  # type: ignore[return-value]


def with_tables(mode: int) -> None:
    """Every context of the big-board kernel with the pattern tables in ``mode``."""
    plain = big_kernel.BigMNKKernel.context

    def context(self: big_kernel.BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        return big_kernel.with_patterns(plain(self, symmetry), self.game.spec, mode)

    big_kernel.BigMNKKernel.context = context  # type: ignore[method-assign]


def micro(game: Any, moves_list: list[list[tuple[int, int]]], rounds: int) -> None:
    """Print the processor time of one make + evaluate + unmake on the positions' boards."""
    from numba import njit

    from perfectplay.games.mnk import board_compiled as bc

    # Not cached: the cache would keep the board of whichever checkout compiled it first.
    @njit
    def children(rounds: int, side: int, ctx: Any, st: Any) -> int:
        done = 0
        for _ in range(rounds):
            for cell in range(st[4].shape[0]):
                if st[4][cell] == 0 and st[5][cell] > 0:
                    bc.make(cell, side, ctx, st)
                    done += bc.evaluate(1 - side, ctx, st) & 1
                    bc.unmake(cell, side, ctx, st)
                    done += 2
        return done // 2

    kernel = big_kernel.BigMNKKernel(game, KernelOptions())
    ctx = kernel.context(True)
    total = cpu = 0.0
    for moves in moves_list:
        position = game.initial()
        for r, c in moves:
            position = game.play(position, (r, c))
        st = kernel.state(position, ctx)
        side = kernel.side(position)
        children(1, side, ctx, st)
        start = time.process_time()
        total += children(rounds, side, ctx, st)
        cpu += time.process_time() - start
    print(f"make+evaluate+unmake: {total:.0f} in {cpu:.2f} s = {cpu / total * 1e6:.3f} us each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--time", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--nodes", type=int, default=0, help="a node budget instead of a depth")
    parser.add_argument("--deepen", action="store_true", help="iterative deepening to --depth")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--stones", type=int, default=14)
    parser.add_argument("--patterns", choices=("off", *MODES), default="off")
    parser.add_argument("--micro", type=int, default=0, metavar="ROUNDS")
    parser.add_argument(
        "--param", action="append", default=[], type=parameter, metavar="NAME=VALUE"
    )
    args = parser.parse_args()
    if args.patterns != "off":
        with_tables(MODES[args.patterns])
    if args.param:
        with_params(args.param)
    game: Any = api.new_game("tictactoe", size="15x15", k=5)[0]
    if args.micro:
        print(f"load before: {os.getloadavg()[0]:.2f}")
        micro(game, positions(args.positions, args.stones), args.micro)
        print(f"load after: {os.getloadavg()[0]:.2f}")
        return
    api.best(game, game.initial(), api.limit(depth=1))
    print(f"load before: {os.getloadavg()[0]:.2f}")
    nodes = cpu = depths = 0.0
    count = 0
    for i, moves in enumerate(positions(args.positions, args.stones)):
        position = game.initial()
        for r, c in moves:
            position = game.play(position, (r, c))
        limit = api.limit(depth=args.depth, nodes=DEEPEN_NODES if args.deepen else None)
        if args.time or args.nodes:
            limit = api.limit(time=args.time) if args.time else api.limit(nodes=args.nodes)
        start = time.process_time()
        result = api.best(game, position, limit)
        spent = time.process_time() - start
        nodes += result.nodes
        cpu += spent
        depths += result.depth
        count += 1
        shown = f" depth {result.depth}" if args.time or args.nodes else ""
        print(f"{i:2d} nodes {result.nodes:8d} cpu {spent:6.2f} s move {result.best_move}{shown}")
    print(f"total nodes {nodes:.0f} cpu {cpu:.2f} s ({nodes / cpu / 1000:.1f} k nodes/s)", end="")
    print(f" mean depth {depths / max(count, 1):.2f}" if args.time or args.nodes else "")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
