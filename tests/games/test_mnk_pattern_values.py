"""The pattern tables' values (issue 26): a set of values reaches the compiled context as
arrays and numbers only (no recompile), the default set keeps a five on top, and Gomoku's
engine evaluates with the tables and the values fitted to game results (they won the matches
against Rapfi that the window evaluation lost; BENCHMARKS.md)."""

from __future__ import annotations

import numpy as np

from perfectplay.games.mnk.big_kernel import P_ATTACK, P_PATTERNS, static_context, with_patterns
from perfectplay.games.mnk.pattern_values import DEFAULT_VALUES, FITTED_VALUES, HAND_SET_VALUES
from perfectplay.games.mnk.patterns import (
    B3,
    B4,
    CODES,
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
    assert ctx[10][P_ATTACK] == DEFAULT_VALUES.attack  # the shared context is not written


def test_a_five_outvalues_every_other_cell() -> None:
    best_other = max(
        int(cell_values()[i]) >> 1
        for i in range(CODES**4)
        if F5 not in {i // CODES**d % CODES for d in range(4)}
    )
    assert DEFAULT_VALUES.five > best_other


def test_gomoku_evaluates_by_the_tables_with_the_fitted_values() -> None:
    for spec in (game(15, 15, 5).spec, game(15, 15, 5, exactly=True).spec, game(20, 20, 5).spec):
        ctx = static_context(spec)
        assert ctx[10][P_PATTERNS] == PATTERNS_EVAL
        assert ctx[10][P_ATTACK] == FITTED_VALUES.attack
        assert np.array_equal(ctx[12], cell_values(FITTED_VALUES))
    assert static_context(game(15, 15, 6).spec)[10][P_PATTERNS] == PATTERNS_OFF  # no tables
