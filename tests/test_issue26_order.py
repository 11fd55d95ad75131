"""The move order's cell table apart from the evaluation's (issue 26, s11order).

The big-board engine keeps two cell tables: ``ctx[12]`` orders the moves (the per-cell
values ``st[12][0:2]`` the move order reads), ``ctx[13]`` evaluates (the sums
``counts[4:8]``, from ``st[12][2:4]``, whose entries also hold each cell's threat class).
Held here against a recomputation from scratch (the slow recursive classifier of
``test_mnk_patterns`` read off the board, each set's value of the codes computed from its
definition) after random makes and unmakes; the same set in both must search exactly as one
table did; a wrong set is refused by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from games.test_mnk_patterns import board_codes
from gomoku_support import random_walk

from perfectplay.errors import ParameterError
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk.big_kernel import BigMNKKernel, new_state, with_patterns
from perfectplay.games.mnk.context_layout import P_ATTACK, P_DEFEND, STATS_SIZE
from perfectplay.games.mnk.pattern_classes import class_value, scoring_table, value_table
from perfectplay.games.mnk.pattern_values import (
    FITTED_VALUES,
    HAND_SET_VALUES,
    NAMED_VALUES,
    PLAYED_VALUES,
    RAPFI_CLASS_VALUES,
    PatternValues,
    Values,
)
from perfectplay.games.mnk.patterns import (
    PATTERNS_EVAL,
    VALUE_SHIFT,
    combined_value,
    threat_class,
    two_wins,
)
from perfectplay.games.mnk.rules import game

PAIRS = [
    (RAPFI_CLASS_VALUES, FITTED_VALUES),
    (RAPFI_CLASS_VALUES, HAND_SET_VALUES),
    (FITTED_VALUES, RAPFI_CLASS_VALUES),
]
"""``(evaluation, order)`` sets the incremental test checks (the class set evaluating with a
plain one ordering: what the matches play; and the other way round)."""


def slow_value(values: Values, codes: tuple[int, ...]) -> int:
    """A side's value of a cell with these four codes by ``values``, from the set's
    definition (not its table)."""
    if isinstance(values, PatternValues):
        return combined_value(codes, values)
    return class_value(codes, values)


def split_context(size: int, evaluation: Values, order: Values | None) -> tuple[Any, Any]:
    """A 15x15 (``size``) freestyle game and a context evaluating by ``evaluation`` and
    ordering by ``order``."""
    g = game(size, size, 5)
    ctx = BigMNKKernel(g, KernelOptions()).context(True)
    return g, with_patterns(ctx, g.spec, PATTERNS_EVAL, evaluation, order)


def check_from_scratch(st: Any, size: int, evaluation: Values, order: Values) -> None:
    """Every cell's two values and the evaluation's sums as recomputed from the board."""
    totals, twos = [0, 0], [0, 0]
    for c in range(size * size):
        for side in range(2):
            if st[4][c] != 0:
                assert st[12][side, c] == st[12][2 + side, c] == 0
                continue
            codes = tuple(board_codes(st[4], c, side, size, size, False))
            two = two_wins(codes)
            assert st[12][side, c] == 2 * slow_value(order, codes) + two, (c, side)
            entry = slow_value(evaluation, codes) << VALUE_SHIFT | threat_class(codes) << 1 | two
            assert st[12][2 + side, c] == entry, (c, side)
            totals[side] += slow_value(evaluation, codes)
            twos[side] += two
    assert [st[3][4], st[3][5]] == totals
    assert [st[3][6], st[3][7]] == twos


@pytest.mark.parametrize(("evaluation", "order"), PAIRS)
def test_both_tables_follow_random_makes_and_unmakes(evaluation: Values, order: Values) -> None:
    from perfectplay.games.mnk import board_compiled

    size = 15
    g, ctx = split_context(size, evaluation, order)
    st = new_state(g.spec, g.initial(), ctx, board_compiled.load)
    check_from_scratch(st, size, evaluation, order)
    for step, _ in random_walk(ctx, st, steps=120, seed=26, undo=0.35, most=40):
        if step % 30 == 29:
            check_from_scratch(st, size, evaluation, order)


def test_the_order_set_reaches_its_slot_and_its_defend_share() -> None:
    spec = game(15, 15, 5).spec
    _, ctx = split_context(15, RAPFI_CLASS_VALUES, FITTED_VALUES)
    _, same = split_context(15, RAPFI_CLASS_VALUES, None)
    assert ctx[10][P_ATTACK] == RAPFI_CLASS_VALUES.attack
    assert ctx[10][P_DEFEND] == FITTED_VALUES.defend
    assert np.array_equal(ctx[13], same[13]) and not np.array_equal(ctx[12], same[12])
    assert np.array_equal(ctx[12], value_table(FITTED_VALUES))
    assert with_patterns(same, spec)[12] is value_table(RAPFI_CLASS_VALUES)  # built once
    assert with_patterns(same, spec)[13] is scoring_table(RAPFI_CLASS_VALUES)


@pytest.mark.parametrize("wrong", ["fitted", FITTED_VALUES.numbers(), 3])
def test_an_order_that_is_not_a_set_is_refused_by_name(wrong: Any) -> None:
    spec = game(15, 15, 5).spec
    ctx = BigMNKKernel(game(15, 15, 5), KernelOptions()).context(True)
    with pytest.raises(
        ParameterError,
        match=r"order values .*: give a PatternValues, ClassValues or TripleValues set",
    ):
        with_patterns(ctx, spec, PATTERNS_EVAL, PLAYED_VALUES, wrong)
    with pytest.raises(ParameterError, match=r"evaluation values .*" + ", ".join(NAMED_VALUES)):
        with_patterns(ctx, spec, PATTERNS_EVAL, wrong)


def searched(ctx: Any, g: Any, position: Any, depth: int) -> tuple[int, int, int]:
    """``(move, value, nodes)`` of one fixed-depth search of ``position`` on ``ctx``."""
    from perfectplay.games.mnk import big_compiled, board_compiled

    kernel = BigMNKKernel(g, KernelOptions())
    st = new_state(g.spec, position, ctx, board_compiled.load)
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    stats[2] = 1 << 40
    side = kernel.side(position)
    cell, value = big_compiled.search_root(
        side, depth, -1, ctx, st, kernel.new_table(1 << 16), stats
    )
    return int(cell), int(value), int(stats[0])


def test_one_set_in_two_tables_searches_as_one_table() -> None:
    g = game(15, 15, 5)
    position = g.initial()
    for cell in [(7, 7), (7, 8), (8, 8), (6, 6), (8, 7), (9, 9)]:
        position = g.play(position, cell)
    plain = BigMNKKernel(g, KernelOptions()).context(True)
    copied = (*plain[:12], plain[12].copy(), plain[13].copy(), plain[14])  # equal, not the same
    assert searched(copied, g, position, 5) == searched(plain, g, position, 5)
    _, split = split_context(15, PLAYED_VALUES, FITTED_VALUES)
    assert searched(split, g, position, 3)[0] >= 0  # another order still finds a move
