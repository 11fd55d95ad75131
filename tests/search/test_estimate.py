"""The estimate a refused trial gives of an exact solve's cost (issue 27, item 9): its growth
fit, its monotony in the plies left, its words, and how close it comes on solves of known
size. Everything is counted in nodes (no timed assertion): the solver's work measured on a
line to the end under a node budget stands for the trial's time."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.errors import MAX_MESSAGE, ParameterError
from perfectplay.search.estimate import (
    LEAST_GROWTH,
    MOST_GROWTH,
    Estimate,
    Level,
    extrapolate,
    growth,
    line_to_end,
    measure,
)
from perfectplay.search.solver import Searcher, SearchOptions
from perfectplay.values import UNLIMITED_NODES


def geometric(factor: float, first: int, plies: range) -> list[Level]:
    """Levels whose work grows ``factor`` times a ply from ``first`` nodes."""
    return [Level(p, round(first * factor ** (p - plies.start))) for p in plies]


def test_growth_is_the_fitted_factor_within_its_bounds() -> None:
    assert growth(geometric(3.0, 1_000, range(10, 16))) == pytest.approx(3.0, rel=1e-3)
    assert growth(geometric(1.0, 5_000, range(10, 16))) == LEAST_GROWTH
    assert growth(geometric(40.0, 1_000, range(10, 14))) == MOST_GROWTH
    # levels below the noise floor are left out: one level left measures no growth
    assert growth([Level(3, 5), Level(4, 40), Level(5, 2_000)]) is None
    assert growth([]) is None


@given(
    factor=st.floats(1.0, 20.0),
    first=st.integers(1_000, 10**6),
    count=st.integers(2, 10),
    plies=st.integers(0, 60),
    more=st.integers(0, 20),
)
def test_the_estimate_is_monotone_in_plies(
    factor: float, first: int, count: int, plies: int, more: int
) -> None:
    """More plies left never make a smaller estimate, and an estimate is never less than
    the nodes the trial spent (it did not end)."""
    levels = geometric(factor, first, range(5, 5 + count))
    spent = levels[-1].nodes * 2
    near = extrapolate(levels, plies, spent, 1e6)
    far = extrapolate(levels, plies + more, spent, 1e6)
    assert near is not None and far is not None
    assert far.nodes >= near.nodes >= spent
    assert far.seconds == pytest.approx(far.nodes / 1e6)
    assert far.tried == pytest.approx(spent / 1e6)  # the trial's own seconds


def test_the_words_say_about_and_the_basis() -> None:
    estimate = Estimate(3.4e9, 2.5e6, 4.04, 17, 24, 36, 13_600)  # 1,360 nodes a second
    text = estimate.text()
    assert text == (
        "about 29 days (estimated from 17 positions of a line to the end, up to 24 plies "
        "from it: 4.0x the work a ply; the first 10 s proved nothing)"
    )


def test_the_refusal_gives_the_estimate_in_one_short_line() -> None:
    game, position = api.load("simplexity", "")
    seconds = 3.2e21 * 365.25 * 86400
    estimate = Estimate(seconds * 1e6, seconds, 16.0, 20, 20, 42, 10**7)  # 1e6 nodes a second
    bounds = "give --time S (exact if the search reaches the end), --depth N or a smaller --size"
    with pytest.raises(ParameterError) as refused:
        api.check_tried(game, position, "solve simplexity", bounds, False, estimate=estimate)
    message = str(refused.value)
    assert message.startswith("solve simplexity: 42 plies left; solving would take ")
    assert "about 3.2e+21 years (estimated from 20 positions" in message
    assert message.endswith("the first 10 s proved nothing); " + bounds)
    assert len(message) <= MAX_MESSAGE and "..." not in message
    api.check_tried(game, position, "solve simplexity", bounds, True, estimate=estimate)


def measured(name: str, board: str, size: str, k: int | None, budget: int) -> list[Level]:
    """The levels a trial measures on a position (books off), each attempt within what is
    left of ``budget`` nodes (the trial's clock, counted in nodes)."""
    game, position = api.load(name, board, size=size, k=k)
    searcher = Searcher(game, SearchOptions(kernel=api.kernel_options(book=False)), position)
    left = [budget]

    def attempt(step: object) -> tuple[int, bool]:
        plies = game.plies_left_bound(step)
        it = searcher.fixed_depth(step, plies, None, None, max(1, left[0] // 2))
        left[0] -= it.nodes
        return it.nodes, not it.aborted

    return measure(line_to_end(game, position), game.plies_left_bound, attempt)


def exact_nodes(name: str, board: str, size: str, k: int | None) -> tuple[int, int]:
    """The nodes of an exact solve (books off) and the position's plies left."""
    game, position = api.load(name, board, size=size, k=k)
    searcher = Searcher(game, SearchOptions(kernel=api.kernel_options(book=False)), position)
    plies = game.plies_left_bound(position)
    return searcher.fixed_depth(position, plies, None, None, UNLIMITED_NODES).nodes, plies


@pytest.mark.parametrize(
    ("name", "board", "size", "k"),
    [
        ("connect4", "", "6x5", None),
        ("connect4", "", "5x5", None),
        ("tictactoe", "", "5x4", 4),
        ("tictactoe", "", "5x5", 4),
    ],
)
def test_estimates_of_known_solves_are_within_a_factor_of_ten(
    name: str, board: str, size: str, k: int | None
) -> None:
    """A trial whose budget is a third of the solve's work estimates the whole solve within
    a factor of 10 (docs/reliability.md has the table of larger ones)."""
    actual, plies = exact_nodes(name, board, size, k)
    levels = measured(name, board, size, k, actual // 3)
    estimate = extrapolate(levels, plies, actual // 3, 1e6)
    assert estimate is not None
    assert 0.1 <= estimate.nodes / actual <= 10, (estimate, actual)
    assert not math.isinf(estimate.seconds)
