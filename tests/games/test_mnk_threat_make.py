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


PLY = 0
"""The scratch rows the VCT's readers use (``st[8][PLY + 1]``, ``st[9][PLY + 1]``)."""


def threes_after_make(cell: int, side: int, ctx: Any, st: Any) -> tuple[int, int, list[int]]:
    """``(wins, first win cell, open-four cells)`` of ``side`` after a full make of ``cell``
    (unmade after); the open-four cells only when it has no win cell, as the VCT reads them."""
    from perfectplay.games.mnk import board_compiled as bc
    from perfectplay.games.mnk import threat_compiled as tc

    bc.make(cell, side, ctx, st)
    wins, first = bc.win_cells(side, ctx, st)
    cells: list[int] = []
    if wins == 0:
        count = tc.open_four_cells(side, PLY + 1, st[9][PLY + 1], ctx, st)
        cells = [int(c) for c in st[9][PLY + 1][:count]]
    bc.unmake(cell, side, ctx, st)
    return int(wins), int(first), cells


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_the_vct_reads_a_move_with_the_light_make_as_the_full_make_would(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    """The VCT's attacker reads each move with the light make (``threat_after``), looking the
    board over for a three only when one can be new (a four cell through the move) or was
    there (``scan_open_four``): the same win cells and the same open-four cells, in the same
    order, as after the full make, for every empty cell; and the state unchanged."""
    from perfectplay.games.mnk import board_compiled as bc
    from perfectplay.games.mnk import threat_compiled as tc

    ctx, st = setup(size, k, exact, tables)
    rng = random.Random(size * 11 + k + exact)
    stack: list[tuple[int, int]] = []
    seen = {"four": 0, "three": 0}
    for _ in range(12):
        random_walk(rng, size, ctx, st, 20, stack)
        for side in range(2):
            if bc.win_cells(side, ctx, st)[0] != 0:
                continue  # the attacker's contract: no win cell of its own
            standing = bool(tc.scan_open_four(side, PLY + 1, ctx, st))
            before = snapshot(st)
            for cell in [c for c in range(size * size) if st[4][c] == 0]:
                wins, first, count = tc.threat_after(cell, side, standing, PLY, ctx, st)
                cells = [int(c) for c in st[9][PLY + 1][:count]] if wins == 0 else []
                assert (int(wins), int(first), cells) == threes_after_make(cell, side, ctx, st)
                seen["four"] += wins > 0
                seen["three"] += bool(cells)
            assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(st), strict=True))
    assert min(seen.values()) > 0


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_the_vct_reads_a_defence_with_the_light_make_as_the_full_make_would(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    """The VCT's defender reads each reply to a three with the light make (``reply_after``):
    the same win cells of its own and the same verdict on the three (a threat cell still
    standing) as after the full make, for every empty cell; and the state unchanged."""
    from perfectplay.games.mnk import board_compiled as bc
    from perfectplay.games.mnk import threat_compiled as tc

    ctx, st = setup(size, k, exact, tables)
    rng = random.Random(size * 13 + k + exact)
    stack: list[tuple[int, int]] = []
    verdicts = {True: 0, False: 0}
    threats = np.zeros(size * size + 1, dtype=np.int64)
    for _ in range(12):
        random_walk(rng, size, ctx, st, 20, stack)
        for side in range(2):
            count = tc.open_four_cells(side, PLY + 1, threats, ctx, st)
            if count == 0:
                continue
            opp, before = 1 - side, snapshot(st)
            for reply in [c for c in range(size * size) if st[4][c] == 0]:
                fours, first, stands = tc.reply_after(reply, opp, threats, count, ctx, st)
                bc.make(reply, opp, ctx, st)
                full = bc.win_cells(opp, ctx, st)
                full_stands = full[0] == 0 and tc.threat_stands(side, threats, count, ctx, st)
                bc.unmake(reply, opp, ctx, st)
                assert (int(fours), int(first), bool(stands)) == (full[0], full[1], full_stands)
                verdicts[bool(stands)] += 1
            assert all(np.array_equal(a, b) for a, b in zip(before, snapshot(st), strict=True))
    assert min(verdicts.values()) > 0
