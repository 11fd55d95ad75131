"""The pattern tables' values (issue 26): a set of values reaches the compiled context as
arrays and numbers only (no recompile), the default set keeps a five on top, and Gomoku's
engine evaluates with the tables and the values fitted to game results (they won the matches
against Rapfi that the window evaluation lost; BENCHMARKS.md). A caller passes a set as the
kernel's ``KernelOptions.evaluation`` (its numbers), checked there (issue 26's tuning)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from perfectplay.api import limit, solve
from perfectplay.errors import ParameterError
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk.big_kernel import (
    BigMNKKernel,
    static_context,
    with_patterns,
)
from perfectplay.games.mnk.context_layout import P_ATTACK, P_DEFEND, P_PATTERNS
from perfectplay.games.mnk.pattern_classes import value_table
from perfectplay.games.mnk.pattern_values import (
    CODES,
    DEFAULT_VALUES,
    FITTED_SCORES,
    HAND_SET_VALUES,
    PLAYED_VALUES,
    RAPFI_CLASS_VALUES,
    VALUE_COUNT,
    values_from,
)
from perfectplay.games.mnk.patterns import (
    B3,
    B4,
    F3,
    F4,
    F5,
    NONE,
    PATTERNS_EVAL,
    PATTERNS_OFF,
    cell_values,
    combined_value,
)
from perfectplay.games.mnk.rules import game


def index(codes: tuple[int, ...]) -> int:
    """The cell table's index of four codes."""
    return sum(c * CODES**d for d, c in enumerate(codes))


def test_the_cell_table_follows_the_values_it_is_given() -> None:
    for values in (HAND_SET_VALUES, DEFAULT_VALUES):
        table = cell_values(values)
        assert table[index((F5, NONE, NONE, NONE))] >> 1 == values.five
        assert table[index((F4, NONE, NONE, NONE))] == 2 * values.double_four + 1
        assert table[index((B4, B4, NONE, NONE))] == 2 * values.double_four + 1
        assert table[index((B4, F3, NONE, NONE))] == 2 * values.four_three
        assert table[index((F3, NONE, F3, NONE))] == 2 * values.double_three
        single = values.scores[B3] + values.scores[F3]
        assert table[index((B3, F3, NONE, NONE))] == 2 * single
        assert combined_value((B3, F3, NONE, NONE), values) == single


def test_with_patterns_puts_the_values_in_the_context() -> None:
    spec = game(15, 15, 5).spec
    ctx = static_context(spec)
    for values in (HAND_SET_VALUES, DEFAULT_VALUES):
        patterned = with_patterns(ctx, spec, values=values)
        assert patterned[10][P_ATTACK] == values.attack
        assert np.array_equal(patterned[12], cell_values(values))
    assert ctx[10][P_ATTACK] == PLAYED_VALUES.attack  # the shared context is not written


def test_a_five_outvalues_every_other_cell() -> None:
    best_other = max(
        int(cell_values()[i]) >> 1
        for i in range(CODES**4)
        if F5 not in {i // CODES**d % CODES for d in range(4)}
    )
    assert DEFAULT_VALUES.five > best_other


def test_gomoku_evaluates_by_the_tables_with_the_played_values() -> None:
    """The engine plays the class set fitted to Rapfi (issue 26), on every board and rule."""
    assert PLAYED_VALUES == RAPFI_CLASS_VALUES
    for spec in (game(15, 15, 5).spec, game(15, 15, 5, exactly=True).spec, game(20, 20, 5).spec):
        ctx = static_context(spec)
        assert ctx[10][P_PATTERNS] == PATTERNS_EVAL
        assert ctx[10][P_ATTACK] == RAPFI_CLASS_VALUES.attack
        assert np.array_equal(ctx[12], value_table(RAPFI_CLASS_VALUES))
    assert static_context(game(15, 15, 6).spec)[10][P_PATTERNS] == PATTERNS_OFF  # no tables


def test_a_set_scores_every_pattern_code() -> None:
    """A set holds one score per pattern code, ``NONE`` to ``F5``."""
    assert CODES == len(DEFAULT_VALUES.scores) == F5 + 1


def test_a_set_of_values_is_its_numbers() -> None:
    for values in (HAND_SET_VALUES, DEFAULT_VALUES):
        numbers = values.numbers()
        assert len(numbers) == VALUE_COUNT != 5 + 2  # never the window weights' length
        assert values_from(numbers) == values
    assert static_context(game(15, 15, 5).spec)[10][P_DEFEND] == PLAYED_VALUES.defend


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        ((0, 1, 2), "give 16 whole numbers"),
        ((*FITTED_SCORES, 1_000, 340, 515, 134, 9, True), "give 16 whole numbers"),
        ((*FITTED_SCORES, 1_000, 340, 515, 134, 9.0, 8), "give 16 whole numbers"),
        ((0, -1, *FITTED_SCORES[2:], 1_000, 340, 515, 134, 9, 8), "score 1 -1 is not from 0"),
        ((*FITTED_SCORES, 1_000, 340, 515, 99_999, 9, 8), "double_three 99999 is not from 0"),
        ((*FITTED_SCORES, 1_000, 340, 515, 134, 0, 8), "attack 0 is not from 1 to 64"),
        ((*FITTED_SCORES, 1_000, 340, 515, 134, 9, 65), "defend 65 is not from 1 to 64"),
        ((*FITTED_SCORES, 500, 340, 515, 134, 9, 8), r"five 500 must be worth more .*\(515"),
    ],
)
def test_bad_values_are_refused_naming_the_number(numbers: tuple[int, ...], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        values_from(numbers)


def test_the_kernel_takes_pattern_values_as_its_evaluation() -> None:
    g = game(15, 15, 5)
    default = BigMNKKernel(g, KernelOptions()).context(True)
    ctx = BigMNKKernel(g, KernelOptions(evaluation=HAND_SET_VALUES.numbers())).context(True)
    assert ctx[10][P_PATTERNS] == PATTERNS_EVAL
    assert ctx[10][P_ATTACK] == HAND_SET_VALUES.attack
    assert np.array_equal(ctx[12], cell_values(HAND_SET_VALUES))
    assert np.array_equal(ctx[8], default[8])  # the window weights stay the defaults
    bolder = replace(DEFAULT_VALUES, defend=12)
    assert (
        BigMNKKernel(g, KernelOptions(evaluation=bolder.numbers())).context(True)[10][P_DEFEND]
        == 12
        != default[10][P_DEFEND]
    )


def test_pattern_values_travel_with_the_call() -> None:
    """Issue 26: a tuner plays one set of values against another in one process; a call's
    values change its evaluation and are not kept for the next call."""
    g = game(15, 15, 5)
    position = g.play(g.play(g.play(g.initial(), (7, 7)), (7, 8)), (8, 8))
    default = solve(g, position, limit(depth=1)).score.value
    hand = KernelOptions(evaluation=HAND_SET_VALUES.numbers())
    same = KernelOptions(evaluation=PLAYED_VALUES.numbers())
    assert solve(g, position, limit(depth=1), options=hand).score.value != default
    assert solve(g, position, limit(depth=1), options=same).score.value == default
    assert solve(g, position, limit(depth=1)).score.value == default


def test_bad_pattern_values_are_refused_at_the_kernel() -> None:
    g = game(15, 15, 5)
    bad = (*FITTED_SCORES, 1_000, 340, 515, 134, 0, 8)
    with pytest.raises(ParameterError, match="pattern values: attack 0"):
        BigMNKKernel(g, KernelOptions(evaluation=bad))
    with pytest.raises(ParameterError, match=r"give 7 whole numbers .*, or 16 pattern values"):
        BigMNKKernel(g, KernelOptions(evaluation=(0, 1, 2)))
    with pytest.raises(ParameterError, match=r"give 8 whole numbers from 0 to [\d,]+$"):
        BigMNKKernel(game(15, 15, 6), KernelOptions(evaluation=DEFAULT_VALUES.numbers()))
