"""What the Gomoku tests share: the compiled win by threats (VCT) run on a board given by its
stones, with runtime parameters of its context; the benchmark scripts (the evaluation's fit,
the labelling) importable for a test of them."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from perfectplay.games.common.compiled_bits import NO_DEADLINE
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_kernel, threat_compiled
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.rules import game

Cell = tuple[int, int]
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def plain(cell: tuple[int, int]) -> Cell:
    """An engine's cell (a :class:`perfectplay.games.mnk.rules.Cell`, a named tuple) as the
    plain ``(row, col)`` tuple the reference board (:mod:`reference.vcf_reference`) keeps:
    what ``tuple(cell)`` gives, typed as a pair."""
    return (cell[0], cell[1])


def random_walk(
    ctx: tuple[object, ...],
    st: tuple[np.ndarray, ...],
    steps: int,
    seed: int,
    undo: float,
    most: int,
) -> Iterator[tuple[int, int]]:
    """Random makes and unmakes of the compiled board on ``st`` (``ctx``'s board, from its
    stones): at each step the last stone is taken back with probability ``undo`` (always past
    ``most`` stones made), else a stone of the side to move goes on a random empty cell. Yields
    ``(step, side to move)`` after each."""
    from perfectplay.games.mnk import board_compiled

    rng = random.Random(seed)
    stack: list[tuple[int, int]] = []
    for step in range(steps):
        if stack and (rng.random() < undo or len(stack) > most):
            cell, side = stack.pop()
            board_compiled.unmake(cell, side, ctx, st)
        else:
            empty = [c for c in range(len(st[4])) if st[4][c] == 0]
            cell, side = rng.choice(empty), len(stack) % 2
            board_compiled.make(cell, side, ctx, st)
            stack.append((cell, side))
        yield step, len(stack) % 2


@contextmanager
def benchmarks_importable() -> Iterator[None]:
    """The benchmarks' folder on ``sys.path`` for the block's duration (its scripts import
    one another by name, as they do when run from there), removed again after."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield
    finally:
        sys.path.remove(str(BENCHMARKS))


def compiled_vct(
    size: int,
    k: int,
    stones: tuple[frozenset[Cell], frozenset[Cell]],
    settings: Mapping[int, int],
    threats: int,
    nodes: int,
    deepening: bool,
) -> tuple[int, Cell, int]:
    """``(plies, first move, nodes left)`` of the side to move's win by threats on a
    ``size`` x ``size`` board, ``k`` in a row, ``stones`` x's and o's (x moves when the
    counts are equal; 0-based cells), at most ``threats`` threats deep, on ``nodes`` nodes
    and no clock: :func:`threat_compiled.vct_deepening` (one threat deeper at a time) or
    :func:`threat_compiled.vct` at that depth alone. 0 plies: none found."""
    g = game(size, size, k)
    xs, os_ = stones
    position = g.from_bits(sum(1 << g.index(c) for c in xs), sum(1 << g.index(c) for c in os_))
    kernel = BigMNKKernel(g, KernelOptions())
    ctx = big_kernel.with_params(big_kernel.static_context(g.spec), settings)
    st = kernel.state(position, ctx)
    stats = np.zeros(layout.STATS_SIZE, dtype=np.int64)
    stats[layout.S_BUDGET], stats[layout.S_DEADLINE] = 1 << 40, NO_DEADLINE
    stats[layout.S_VCF_LEFT] = nodes
    search = threat_compiled.vct_deepening if deepening else threat_compiled.vct
    plies = search(kernel.side(position), threats, 0, ctx, st, stats)
    first = int(st[10][0])
    return int(plies), (first // size, first % size), int(stats[layout.S_VCF_LEFT])
