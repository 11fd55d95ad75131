"""Issue 26: the triple set of pattern values (a cell valued by its three strongest direction
codes, the class set refined by the third), checked like the class sets, built into the same
cell table (against a slow oracle over every order of the four codes), carried by
``with_patterns``, and valued by the fit's features exactly as the table values it; and the
labelling script's choice of games (``--every``, ``--offset``, ``--first``)."""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest
from gomoku_support import benchmarks_importable

from perfectplay.errors import ParameterError
from perfectplay.games.mnk.big_kernel import static_context, with_patterns
from perfectplay.games.mnk.context_layout import P_ATTACK, P_DEFEND
from perfectplay.games.mnk.pattern_classes import class_table, class_value
from perfectplay.games.mnk.pattern_values import (
    CLASS_VALUE_COUNT,
    CODES,
    TRIPLE_VALUE_COUNT,
    TRIPLES,
    VALUE_COUNT,
    TripleValues,
    any_values_from,
    triple_index,
    triple_values_from,
)
from perfectplay.games.mnk.patterns import B4, F4, F5, PATTERNS_EVAL
from perfectplay.games.mnk.rules import game

TRIPLE_ORDER: list[tuple[int, ...]] = [
    (a, b, c) for a in range(CODES - 1) for b in range(a + 1) for c in range(b + 1)
]
"""The triples of three codes below a five, not rising, written out in their numbering's order."""


@pytest.fixture
def benchmarks() -> Iterator[None]:
    """The benchmarks' folder importable for the test's duration."""
    with benchmarks_importable():
        yield


def some_triples(seed: int = 26) -> TripleValues:
    """A valid triple set with every triple and score distinct enough to tell them apart."""
    rng = random.Random(seed)
    triples = tuple(rng.randrange(0, 800) for _ in range(TRIPLES))
    scores = (*(rng.randrange(0, 100) for _ in range(CODES - 1)), 0)
    return TripleValues(triples, scores, five=5_000, attack=9, defend=7)


def oracle(codes: tuple[int, ...], values: TripleValues) -> int:
    """A cell's value the slow way: a five wins; else, over every order of the four
    directions, the order whose first three codes are the largest (not rising) names the
    triple, by its place in the list of triples written out; the fourth adds its score."""
    if F5 in codes:
        return values.five
    best = max(
        (o for o in itertools.permutations(codes) if o[0] >= o[1] >= o[2]),
        key=lambda o: o[:3],
    )
    return values.triples[TRIPLE_ORDER.index(best[:3])] + values.scores[best[3]]


def test_the_triples_are_numbered_in_order() -> None:
    assert [triple_index(*abc) for abc in TRIPLE_ORDER] == list(range(TRIPLES)) == list(range(165))


def test_the_triple_table_is_the_oracle_on_every_four_codes() -> None:
    values = some_triples()
    table = class_table(values)
    for index in range(CODES**4):
        codes = tuple(index // CODES**d % CODES for d in range(4))
        assert table[index] >> 1 == oracle(codes, values) == class_value(codes, values)
        two = F4 in codes or sum(c in (B4, F4) for c in codes) >= 2
        assert table[index] & 1 == two


def test_a_triple_set_is_its_numbers_and_is_read_by_its_count() -> None:
    values = some_triples()
    numbers = values.numbers()
    assert len(numbers) == TRIPLE_VALUE_COUNT not in (VALUE_COUNT, CLASS_VALUE_COUNT, 5 + 2)
    assert triple_values_from(numbers) == values == any_values_from(numbers)


BAD = {  # place in the numbers: (a wrong value, what the message says)
    3: (2.0, f"give {TRIPLE_VALUE_COUNT} whole numbers"),
    4: (-1, "triple 2,0,0 -1 is not from 0 to 20,000"),
    TRIPLES + 2: (20_001, "score 2 20001 is not from 0"),
    -2: (0, "attack 0 is not from 1 to 64"),
    -3: (850, r"five 850 must be worth more than any other cell \(\d+"),
}


def test_bad_triple_values_are_refused_naming_the_number() -> None:
    with pytest.raises(ParameterError, match=f"give {TRIPLE_VALUE_COUNT} whole numbers"):
        triple_values_from((0, 1, 2))
    for at, (value, message) in BAD.items():
        numbers: list[object] = list(some_triples().numbers())
        numbers[at] = value
        with pytest.raises(ParameterError, match=message):
            triple_values_from(tuple(numbers))  # type: ignore[arg-type]


def test_a_triple_set_reaches_the_context() -> None:
    spec = game(15, 15, 5).spec
    values = some_triples()
    patterned = with_patterns(static_context(spec), spec, PATTERNS_EVAL, values)
    assert patterned[10][P_ATTACK] == 9 and patterned[10][P_DEFEND] == 7
    assert np.array_equal(patterned[12], class_table(values))


@pytest.mark.usefixtures("benchmarks")
def test_the_fits_triple_features_value_a_position_as_the_table_does() -> None:
    """``fit_gomoku_eval``'s class and triple features times a triple set's weights
    (``triple_weights``: how the fit prints and judges a triple set) give the sum of the
    triple table's values over the empty cells, for each side."""
    # benchmarks/ is on sys.path at run time only: mypy does not see it
    from fit_gomoku_eval import (  # type: ignore[import-not-found]
        Game,
        class_counts,
        quiet_positions,
        triple_counts,
        triple_weights,
    )

    plain = some_triples()  # the features leave out NONE x3 and the NONE score: 0
    values = TripleValues((0, *plain.triples[1:]), (0, *plain.scores[1:]), plain.five, 9)
    weights = triple_weights(values)
    rng = random.Random(7)
    cells = [(x, y) for x in range(5, 10) for y in range(5, 10)]
    games = [Game(tuple(rng.sample(cells, 8)), "draw") for _ in range(8)]
    states = [st for _, _, _, st, _ in quiet_positions(games)]
    assert len(states) >= 8
    for st, side in itertools.product(states, (0, 1)):
        codes = st[11][side].reshape(-1, 4)[st[4] == 0]
        kept = [tuple(int(c) for c in row) for row in codes if F5 not in row]
        features = np.concatenate([class_counts(codes), triple_counts(codes)])
        assert features @ weights == sum(class_value(c, values) for c in kept)


@pytest.mark.usefixtures("benchmarks")
def test_the_labels_games_are_chosen_by_every_offset_and_first() -> None:
    # benchmarks/ is on sys.path at run time only: mypy does not see it
    from label_gomoku_rapfi import kept_game  # type: ignore[import-not-found]

    games = list(range(20))
    for every, offset, first in ((1, 0, 0), (2, 0, 0), (2, 1, 0), (2, 1, 7), (1, 0, 13)):
        args = argparse.Namespace(every=every, offset=offset, first=first)
        kept = [n for n in games if kept_game(n, n, args) is not None]
        assert kept == [n for n in games if n >= first and (n - offset) % every == 0]


@pytest.mark.usefixtures("benchmarks")
def test_the_fit_leaves_out_a_game_of_a_larger_board() -> None:
    """The records do not name the board: a game with a stone off the 15x15 board (a 20x20
    game of the match records) gives no position, the others theirs."""
    from fit_gomoku_eval import Game, quiet_positions

    small = Game(((7, 7), (7, 8), (8, 7), (9, 9), (6, 6), (3, 3)), "black")
    large = Game(((7, 7), (7, 8), (8, 7), (9, 9), (16, 6), (3, 3)), "black")
    assert [p[:3] for p in quiet_positions([large, None, small])] == [(2, 5, 0.0), (2, 6, 1.0)]
