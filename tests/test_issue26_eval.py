"""Issue 26: the class set of pattern values (a cell valued by the pair of its two strongest
direction codes, after Rapfi's classes), checked like the plain sets, built into the same
cell table the compiled board reads (against a slow oracle over every order of the four
codes), carried by the kernel's options and by ``with_patterns``, and valued by the fit's
features exactly as the table values it (so the fit fits what the engine plays)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from gomoku_support import benchmarks_importable

from perfectplay.api import limit, solve
from perfectplay.errors import ParameterError
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk.big_kernel import BigMNKKernel, static_context, with_patterns
from perfectplay.games.mnk.context_layout import P_ATTACK, P_DEFEND, P_PATTERNS
from perfectplay.games.mnk.pattern_classes import class_table, class_value, value_table
from perfectplay.games.mnk.pattern_values import (
    CLASS_VALUE_COUNT,
    CODES,
    DEFAULT_VALUES,
    NAMED_VALUES,
    PAIRS,
    PLAYED_VALUES,
    VALUE_COUNT,
    ClassValues,
    any_values_from,
    class_values_from,
    with_combinations,
)
from perfectplay.games.mnk.patterns import B4, F3, F4, F5, PATTERNS_EVAL, cell_values
from perfectplay.games.mnk.rules import game


def some_set(seed: int = 26) -> ClassValues:
    """A valid class set with every pair and score distinct enough to tell them apart."""
    rng = random.Random(seed)
    pairs = tuple(rng.randrange(0, 800) for _ in range(PAIRS))
    scores = (*(rng.randrange(0, 100) for _ in range(CODES - 1)), 0)
    return ClassValues(pairs, scores, five=5_000, attack=9, defend=7)


def oracle(codes: tuple[int, ...], values: ClassValues) -> int:
    """A cell's value the slow way: a five wins; else, over every order of the four
    directions, the order whose first two codes are the largest (as a pair, the first
    not below the second) names the class, the other two add their scores."""
    if F5 in codes:
        return values.five
    best = max(
        (order for order in itertools.permutations(codes) if order[0] >= order[1]),
        key=lambda order: (order[0], order[1]),
    )
    a, b, c, d = best
    pair = [(x, y) for x in range(CODES - 1) for y in range(x + 1)].index((a, b))
    return values.pairs[pair] + values.scores[c] + values.scores[d]


def test_the_class_table_is_the_oracle_on_every_four_codes() -> None:
    values = some_set()
    table = class_table(values)
    for index in range(CODES**4):
        codes = tuple(index // CODES**d % CODES for d in range(4))
        assert table[index] >> 1 == oracle(codes, values) == class_value(codes, values)
        two = F4 in codes or sum(c in (B4, F4) for c in codes) >= 2
        assert table[index] & 1 == two  # the compiled board counts those cells


def test_a_class_set_is_its_numbers_and_either_kind_is_read_by_its_count() -> None:
    values = some_set()
    numbers = values.numbers()
    assert len(numbers) == CLASS_VALUE_COUNT not in (VALUE_COUNT, 5 + 2)
    assert class_values_from(numbers) == values == any_values_from(numbers)
    assert any_values_from(DEFAULT_VALUES.numbers()) == DEFAULT_VALUES


def bad(at: int, value: object) -> tuple[object, ...]:
    """``some_set()``'s numbers with one of them replaced."""
    numbers: list[object] = list(some_set().numbers())
    numbers[at] = value
    return tuple(numbers)


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        ((0, 1, 2), f"give {CLASS_VALUE_COUNT} whole numbers"),
        (bad(3, True), f"give {CLASS_VALUE_COUNT} whole numbers"),
        (bad(3, 2.0), f"give {CLASS_VALUE_COUNT} whole numbers"),
        (bad(2, -1), "pair 1,1 -1 is not from 0 to 20,000"),
        (bad(PAIRS + 2, 20_001), "score 2 20001 is not from 0"),
        (bad(-2, 0), "attack 0 is not from 1 to 64"),
        (bad(-1, 65), "defend 65 is not from 1 to 64"),
        (bad(-3, 900), r"five 900 must be worth more than any other cell \(\d+"),
    ],
)
def test_bad_class_values_are_refused_naming_the_number(
    numbers: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ParameterError, match=message):
        class_values_from(numbers)


def test_either_kind_of_set_reaches_the_context() -> None:
    spec = game(15, 15, 5).spec
    ctx = static_context(spec)
    values = some_set()
    patterned = with_patterns(ctx, spec, PATTERNS_EVAL, values)
    assert patterned[10][P_ATTACK] == 9 and patterned[10][P_DEFEND] == 7
    assert np.array_equal(patterned[12], class_table(values))
    assert np.array_equal(value_table(DEFAULT_VALUES), cell_values(DEFAULT_VALUES))
    assert np.array_equal(ctx[12], value_table(PLAYED_VALUES))  # the default, unwritten


def test_the_kernel_takes_a_class_set_as_its_evaluation() -> None:
    g = game(15, 15, 5)
    values = some_set()
    ctx = BigMNKKernel(g, KernelOptions(evaluation=values.numbers())).context(True)
    assert ctx[10][P_PATTERNS] == PATTERNS_EVAL
    assert np.array_equal(ctx[12], class_table(values))
    position = g.play(g.play(g.play(g.initial(), (7, 7)), (7, 8)), (8, 8))
    options = KernelOptions(evaluation=values.numbers())
    assert solve(g, position, limit(depth=2), options=options).best_move is not None
    with pytest.raises(ParameterError, match="class values: attack 0"):
        BigMNKKernel(g, KernelOptions(evaluation=bad(-2, 0)))  # type: ignore[arg-type]


def test_every_named_set_is_a_valid_set() -> None:
    for values in NAMED_VALUES.values():  # each kind read back by its count of numbers
        assert any_values_from(values.numbers()) == values
    assert NAMED_VALUES["fitted"] == DEFAULT_VALUES
    assert NAMED_VALUES["classes"] == PLAYED_VALUES


def test_lifted_combinations_are_worth_the_plain_sets_and_nothing_else_moves() -> None:
    values = some_set()
    plain = DEFAULT_VALUES
    lifted = with_combinations(values, plain)
    least = {
        (F3, F3): plain.double_three,
        (B4, F3): plain.four_three,
        (B4, B4): plain.double_four,
        **{(F4, b): max(plain.double_four, plain.four_three) for b in range(F4 + 1)},
    }
    order = [(a, b) for a in range(F4 + 1) for b in range(a + 1)]
    for (a, b), old, new in zip(order, values.pairs, lifted.pairs, strict=True):
        assert new == max(old, least.get((a, b), 0))
    assert (lifted.scores, lifted.five, lifted.attack) == (values.scores, values.five, 9)


def test_the_fits_class_features_value_a_position_as_the_table_does() -> None:
    """``fit_gomoku_eval.class_counts`` is linear in the set: its counts times a set's
    numbers give the sum of the table's values over the empty cells, so the fitted weights
    are the values the engine plays."""
    with benchmarks_importable():
        # benchmarks/ is on sys.path at run time only: mypy does not see it
        from fit_gomoku_eval import board, class_counts  # type: ignore[import-not-found]
    from perfectplay.games.mnk import board_compiled
    from perfectplay.games.mnk.big_kernel import new_state

    plain = some_set()  # the features leave out the NONE+NONE pair and the NONE score: 0
    values = ClassValues((0, *plain.pairs[1:]), (0, *plain.scores[1:]), plain.five, 9)
    weights = np.array([*values.pairs[1:], *values.scores[1:F5]], dtype=np.float64)
    g, start, spec, ctx = board()
    rng = random.Random(7)
    for _ in range(20):
        position = start
        for cell in rng.sample([(r, c) for r in range(5, 10) for c in range(5, 10)], 7):
            position = g.play(position, cell)
        st = new_state(spec, position, ctx, board_compiled.load)
        empty = st[4] == 0
        for side in (0, 1):
            codes = st[11][side].reshape(-1, 4)[empty]
            kept = [tuple(int(c) for c in row) for row in codes if F5 not in row]
            assert class_counts(codes) @ weights == sum(class_value(c, values) for c in kept)


def test_the_fits_read_match_records_of_the_15x15_board_only(tmp_path: Path) -> None:
    """A match record names its board last (``board 20x20 rule 0``) and the fits read the
    15x15 games only, of either rule; a record without it (before session 13) is read."""
    with benchmarks_importable():
        # benchmarks/ is on sys.path at run time only: mypy does not see it
        from bench_gomoku_peers import Game as Played  # type: ignore[import-not-found]
        from bench_gomoku_peers import save
        from fit_gomoku_eval import Game, read_games

    records = tmp_path / "records.txt"
    for number, board in enumerate(("15x15 rule 0", "20x20 rule 0", "15x15 rule 1")):
        played = Played(((7, 7), (8, 6)), True, [(1, 1), (2, 2 + number)], "win", "five")
        save(str(records), played, "50000 nodes", f"run {number}", board=board)
    text = records.read_text()
    assert text.count(" | board ") == 3 and text.splitlines()[1].endswith("| board 20x20 rule 0")
    old = "old | 2026-11-26 14:00 | vs 1500 nodes | perfectplay white | loss (five) | "
    records.write_text(text + old + "opening 7,7 8,6 | moves 1,1 2,9\n")
    black = [Game(((7, 7), (8, 6), (1, 1), (2, y)), "black") for y in (2, 4, 9)]
    assert read_games([str(records)]) == black
