"""Issue 26: a cheaper node, the same search.

The VCF search undoes its stones from the maps saved before them, and ``shortest_vcf``
runs its first pass inline and skips the deeper passes when the position has no attacking
move. The search must be exactly the old one: the same answer, the same nodes
spent (``stats[0]``, the search's budget and its clock reads depend on them), the same
allowance left and the same line. So each is held here against the old algorithm, written
out in Python over the board's compiled primitives, on random positions of 15x15 (pattern
tables on) and of other boards, with allowances and budgets that run out mid-search.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from games.test_mnk_threat_make import setup

from perfectplay.games.common.compiled_bits import NO_DEADLINE

BOARDS = [(15, 5, False, True), (15, 5, True, True), (10, 6, False, False), (12, 4, False, False)]
"""``(size, k, exact, pattern tables)``."""
BIG_BUDGET = 1 << 40


def fresh_stats(budget: int) -> Any:
    """A search's stats: no nodes yet, ``budget`` nodes allowed, no deadline."""
    stats = np.zeros(8, dtype=np.int64)
    stats[2], stats[4] = budget, NO_DEADLINE
    return stats


def spend(stats: Any) -> bool:
    """The threat searches' node count (the old one): True when the search must stop."""
    stats[5] -= 1
    stats[0] += 1
    if stats[0] >= stats[2]:
        stats[2], stats[3], stats[5] = 0, 1, 0
        return True
    return False


def old_vcf(side: int, depth: int, ply: int, ctx: Any, st: Any, stats: Any) -> int:
    """The VCF search before issue 26's cheaper node, step for step."""
    from perfectplay.games.mnk import board_compiled as bc
    from perfectplay.games.mnk import threat_compiled as tc

    if depth <= 0 or stats[5] <= 0 or spend(stats):
        return 0
    opp = 1 - side
    threats, block = (0, -1) if st[3][opp] == 0 else bc.win_cells(opp, ctx, st)
    if threats >= 2:
        return 0
    if threats == 1:
        if not bc.makes_four(block, side, ctx, st):
            return 0
        cells = [block]
    else:
        cells = [int(c) for c in st[8][ply, : tc.four_cells(side, ply, ctx, st)]]
    if depth == 1 and st[3][side] == 0:
        for cell in cells:
            wins, reply = bc.wins_after(cell, side, ctx, st)
            if wins >= 2:
                st[10][ply], st[10][ply + 1] = cell, reply
                return 3
        return 0
    for cell in cells:
        bc.make_threats(cell, side, ctx, st)
        wins, reply = bc.win_cells_at(cell, side, ctx, st)
        result = 0
        if wins >= 2:
            result = 3
        elif wins == 1:
            bc.make_threats(reply, opp, ctx, st)
            deeper = old_vcf(side, depth - 1, ply + 2, ctx, st, stats)
            bc.unmake_threats(reply, opp, ctx, st)
            result = deeper + 2 if deeper else 0
        bc.unmake_threats(cell, side, ctx, st)
        if result:
            st[10][ply], st[10][ply + 1] = cell, reply
            return result
    return 0


def old_shortest_vcf(
    side: int, max_depth: int, ply: int, nodes: int, ctx: Any, st: Any, stats: Any
) -> int:
    """``shortest_vcf`` before issue 26's cheaper node: deepening with the VCF from one four."""
    stats[5] = nodes
    for depth in range(1, max_depth + 1):
        before = stats[5]
        found = old_vcf(side, depth, ply, ctx, st, stats)
        if found or stats[5] <= 0 or (stats[5] == before - 1 and depth > 1):
            return found
    return 0


def random_position(rng: random.Random, size: int, ctx: Any, st: Any) -> None:
    """Stones of both sides near the centre made on the fresh state, none of them five, until
    neither side has a win cell and the side to move (x) has at least one four-maker in
    most positions: the threat searches' ground."""
    from perfectplay.games.mnk import board_compiled as bc

    low, high = size // 4, size - size // 4
    cells = [r * size + c for r in range(low, high) for c in range(low, high)]
    rng.shuffle(cells)
    stones = rng.randrange(6, min(40, len(cells) // 2))
    made = 0
    for cell in cells:
        if made == stones:
            break
        side = made % 2
        bc.make(cell, side, ctx, st)
        if st[3][0] or st[3][1]:  # a win cell: the searches' callers handle those first
            bc.unmake(cell, side, ctx, st)
            continue
        made += 1


def compare(side: int, fours: int, nodes: int, budget: int, ctx: Any, st: Any) -> bool:
    """The new ``shortest_vcf`` and the old one agree on the answer, the stats and the line;
    True when a VCF was found."""
    from perfectplay.games.mnk import threat_compiled as tc

    new_stats, old_stats = fresh_stats(budget), fresh_stats(budget)
    found = tc.shortest_vcf(side, fours, 2, nodes, ctx, st, new_stats)
    new_line = st[10].copy()
    st[10][:] = -7
    expected = old_shortest_vcf(side, fours, 2, nodes, ctx, st, old_stats)
    assert found == expected
    assert list(new_stats) == list(old_stats)
    if found:
        assert list(new_line[2 : 2 + found - 1]) == list(st[10][2 : 2 + found - 1])
    return bool(found)


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_the_shortest_vcf_is_the_old_search_with_the_same_nodes_and_line(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    rng = random.Random(size * 31 + k + exact)
    found = searched = 0
    for _ in range(60):
        ctx, st = setup(size, k, exact, tables)
        random_position(rng, size, ctx, st)
        before = [np.copy(st[i]) for i in (0, 1, 2, 3, 4)]
        for side in (0, 1):
            for fours, nodes, budget in ((3, 24, BIG_BUDGET), (6, 300, BIG_BUDGET), (4, 60, 9)):
                found += compare(side, fours, nodes, budget, ctx, st)
                searched += 1
            after = [st[i] for i in (0, 1, 2, 3, 4)]  # the board is left as it was
            assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert 0 < found < searched  # both kinds of position were met


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS[:2])
def test_the_vcf_at_every_depth_is_the_old_one(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    """``vcf`` at depths 1 to 5 against the old recursion."""
    from perfectplay.games.mnk import threat_compiled as tc

    rng = random.Random(size * 17 + exact)
    found = 0
    for _ in range(30):
        ctx, st = setup(size, k, exact, tables)
        random_position(rng, size, ctx, st)
        for depth in range(1, 6):
            new_stats, old_stats = fresh_stats(BIG_BUDGET), fresh_stats(BIG_BUDGET)
            new_stats[5] = old_stats[5] = 400
            result = tc.vcf(0, depth, 0, ctx, st, new_stats)
            new_line = st[10].copy()
            expected = old_vcf(0, depth, 0, ctx, st, old_stats)
            assert result == expected
            assert list(new_stats) == list(old_stats)
            if result:
                assert list(new_line[: result - 1]) == list(st[10][: result - 1])
            found += bool(result)
    assert found > 0


@pytest.mark.parametrize(("size", "k", "exact", "tables"), BOARDS)
def test_restoring_the_saved_threat_maps_is_the_unmake(
    size: int, k: int, exact: bool, tables: bool
) -> None:
    """``restore_threats`` from ``saved_threats`` leaves the state ``unmake_threats`` does,
    nested as the VCF nests them (the attacker's stone, the defender's reply)."""
    from perfectplay.games.mnk import board_compiled as bc

    rng = random.Random(size * 13 + k + exact)
    for _ in range(20):
        ctx, st = setup(size, k, exact, tables)
        random_position(rng, size, ctx, st)
        empty = [c for c in range(size * size) if st[4][c] == 0]
        made = [(c, i % 2) for i, c in enumerate(rng.sample(empty, 4))]
        states = []
        saved = []
        for cell, side in made:
            states.append([np.copy(a) for a in st])
            saved.append(bc.saved_threats(cell, ctx, st))
            bc.make_threats(cell, side, ctx, st)
        for (cell, side), before, kept in zip(
            reversed(made), reversed(states), reversed(saved), strict=True
        ):
            bc.restore_threats(cell, side, kept, ctx, st)
            assert all(np.array_equal(a, b) for a, b in zip(before, st, strict=True))
