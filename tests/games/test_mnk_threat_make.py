"""The big-board engine's cheaper threat-search node (issue 26) against the full make.

The VCF search makes its stones with ``make_threats`` (the lines' bits and threat maps only),
reads win cells from the four lines through the last stone (``win_cells_at``) and tries the
last four of a line without a make (``wins_after``). The search must be unchanged, so each is
held here against the full ``make`` and the whole-board ``win_cells`` after random makes and
unmakes, on 15x15 and 20x20, under the exact rule and for ``k`` other than 5 (the engine plays
every m,n,k game past 64 cells).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk.big_kernel import BigMNKKernel, new_state, with_patterns
from perfectplay.games.mnk.rules import game

BOARDS = [(15, 5, False, True), (20, 5, False, False), (15, 5, True, True), (10, 6, False, False)]
BOARDS += [(9, 4, True, False), (12, 4, False, False)]
"""``(size, k, exact, pattern tables)``: the tables need ``k`` = 5."""


def setup(size: int, k: int, exact: bool, tables: bool) -> tuple[Any, Any]:
    """A context and an empty state of the size-by-size board."""
    from perfectplay.games.mnk import board_compiled

    g = game(size, size, k, exactly=exact)
    ctx = BigMNKKernel(g, KernelOptions()).context(True)
    if tables:
        ctx = with_patterns(ctx, g.spec)
    return ctx, new_state(g.spec, g.initial(), ctx, board_compiled.load)


def snapshot(st: Any) -> list[Any]:
    """Copies of every array of the state but the scratch move lists."""
    return [np.copy(st[i]) for i in (0, 1, 2, 3, 4, 5, 6, 7, 11, 12)]


def random_walk(
    rng: random.Random, size: int, ctx: Any, st: Any, steps: int, stack: list[tuple[int, int]]
) -> None:
    """Random full makes and unmakes (more makes, up to a third of the board) on ``stack``."""
    from perfectplay.games.mnk import board_compiled

    for _ in range(steps):
        if stack and (rng.random() < 0.3 or len(stack) >= size * size // 3):
            cell, side = stack.pop()
            board_compiled.unmake(cell, side, ctx, st)
        else:
            empty = [c for c in range(size * size) if st[4][c] == 0]
            cell, side = rng.choice(empty), rng.randrange(2)
            board_compiled.make(cell, side, ctx, st)
            stack.append((cell, side))


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_threat_make_is_the_full_make_on_the_lines_and_unmakes_to_the_same_state(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    from perfectplay.games.mnk import board_compiled as bc

    ctx, st = setup(size, k, exact, tables)
    rng = random.Random(size * 10 + k + exact)
    stack: list[tuple[int, int]] = []
    for _ in range(12):
        random_walk(rng, size, ctx, st, 25, stack)
        before = snapshot(st)
        empty = [c for c in range(size * size) if st[4][c] == 0]
        made = [(c, rng.randrange(2)) for c in rng.sample(empty, 6)]
        for cell, side in made:
            bc.make_threats(cell, side, ctx, st)
        light = snapshot(st)
        for cell, side in reversed(made):
            bc.unmake_threats(cell, side, ctx, st)
        assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(st), strict=True))
        for cell, side in made:
            bc.make(cell, side, ctx, st)
        full = snapshot(st)
        for i in range(3):  # lines, wins, fours
            assert np.array_equal(light[i], full[i])
        assert np.array_equal(light[3][:3], full[3][:3])  # win lines per side, stones
        assert np.array_equal(light[4], full[4])  # the board
        for cell, side in reversed(made):
            bc.unmake(cell, side, ctx, st)


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_the_full_unmake_from_its_undo_row_gives_the_state_built_from_scratch(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    """The full unmake restores what its make changed from the state's undo rows (the
    stones taken back in reverse order): after every walk of makes and unmakes the state is
    the one loaded from scratch with the same stones (the codes of occupied cells aside:
    they are stale by contract), and a make and its unmake change nothing."""
    from perfectplay.games.mnk import board_compiled as bc

    ctx, st = setup(size, k, exact, tables)
    g = game(size, size, k, exactly=exact)
    rng = random.Random(size * 7 + k + exact)
    stack: list[tuple[int, int]] = []
    for _ in range(10):
        random_walk(rng, size, ctx, st, 30, stack)
        fresh = new_state(g.spec, g.initial(), ctx, bc.load)
        for cell, side in stack:
            bc.make(cell, side, ctx, fresh)
        empty = st[4] == 0
        for i in (0, 1, 2, 3, 4, 5, 6, 7, 12):
            assert np.array_equal(st[i], fresh[i]), i
        for side in range(2):
            assert np.array_equal(
                st[11][side][np.repeat(empty, 4)], fresh[11][side][np.repeat(empty, 4)]
            )
        before = snapshot(st)
        cell = rng.choice([c for c in range(size * size) if st[4][c] == 0])
        bc.make(cell, len(stack) % 2, ctx, st)
        bc.unmake(cell, len(stack) % 2, ctx, st)
        assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(st), strict=True))


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_win_cells_from_the_lines_through_a_stone_equal_the_whole_board_scan(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    from perfectplay.games.mnk import board_compiled as bc

    ctx, st = setup(size, k, exact, tables)
    rng = random.Random(size * 7 + k + exact)
    checked = {True: 0, False: 0}
    stack: list[tuple[int, int]] = []
    for _ in range(40):
        random_walk(rng, size, ctx, st, 12, stack)
        empty = [c for c in range(size * size) if st[4][c] == 0]
        for cell in rng.sample(empty, 20):
            side = rng.randrange(2)
            fresh = int(st[3][side]) == 0
            if fresh:  # no win cell now: the answer after a stone, with nothing made
                expected_after = wins_after_make(cell, side, ctx, st)
                assert bc.wins_after(cell, side, ctx, st) == expected_after
            bc.make(cell, side, ctx, st)
            assert bc.win_cells_at(cell, side, ctx, st) == bc.win_cells(side, ctx, st)
            checked[fresh] += 1
            bc.unmake(cell, side, ctx, st)
    assert min(checked.values()) > 0


def wins_after_make(cell: int, side: int, ctx: Any, st: Any) -> tuple[int, int]:
    """``win_cells`` of ``side`` after a full make of ``cell`` (unmade after)."""
    from perfectplay.games.mnk import board_compiled as bc

    bc.make(cell, side, ctx, st)
    found = bc.win_cells(side, ctx, st)
    bc.unmake(cell, side, ctx, st)
    return (int(found[0]), int(found[1]))
