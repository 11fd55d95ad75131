"""Issue 28, items 1, 2 and 4: a value without the proven line (``line=False``), proven lines
read from the warm table in compiled code, and ``Engine.solve_many`` / ``analyze_many``
with the results of one call each, for every game (a kernel's batch, else a loop)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import game_support
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.errors import IllegalPositionError, ParameterError
from perfectplay.search.alphabeta import alphabeta
from perfectplay.search.result import SearchResult
from perfectplay.values import WIN

SETS = Path(__file__).parent / "data" / "connect4_sets"
C4, _ = api.load("connect4", "")
NO_BOOK = api.kernel_options(book=False)
ENGINE = api.Engine(C4, NO_BOOK)
SMALL, _ = api.load("connect4", "", size="5x4")
SMALL_ENGINE = api.Engine(SMALL, NO_BOOK)


def set_positions(name: str, count: int) -> list[Any]:
    """The first ``count`` positions of one of Pons' sets (the copies kept for the tests)."""
    lines = (SETS / f"{name}.txt").read_text().splitlines()[:count]
    return [api.load("connect4", line.split()[0])[1] for line in lines]


def random_position(game: Any, seed: int, low: int, high: int) -> Any:
    """A random position of ``low`` to ``high`` moves (finished ones included)."""
    rng = random.Random(seed)
    return game_support.random_position(game, rng, rng.randint(low, high))


def same(single: SearchResult[Any], batch: SearchResult[Any]) -> bool:
    """Equal but for nodes and times (a batch's time is shared), and but for where a line
    its allowance of time cut short ends (the shorter line is a prefix of the other)."""
    keep = ("best_move", "score", "depth", "algorithm")
    if not all(getattr(single, name) == getattr(batch, name) for name in keep):
        return False
    shorter, longer = sorted((single.pv, batch.pv), key=len)
    return longer[: len(shorter)] == shorter


def check_line(game: Any, position: Any, result: SearchResult[Any]) -> None:
    """The line is legal from ``position``; played out to the end it reaches the value."""
    current = position
    for move in result.pv:
        assert move in game.legal_moves(current)
        current = game.play(current, move)
    outcome = game.outcome(current)
    if outcome is None:
        return  # a line cut short by its allowance: a legal prefix
    value = result.score.value
    if outcome.winner is None:
        assert value == 0
    else:
        mover_wins = outcome.winner == game.to_move(position)
        assert value == (WIN - len(result.pv) if mover_wins else -(WIN - len(result.pv)))


@pytest.mark.parametrize("name", ["end-easy", "middle-easy"])
def test_a_value_alone_equals_the_full_solve_and_the_line_reaches_it(name: str) -> None:
    for position in set_positions(name, 40):
        full = ENGINE.solve(position)
        alone = ENGINE.solve(position, line=False)
        assert (alone.score, alone.best_move) == (full.score, full.best_move)
        assert alone.pv == (alone.best_move,)
        check_line(C4, position, full)
        assert full.pv[0] == full.best_move


def test_lines_and_values_equal_plain_alpha_beta_on_a_small_board() -> None:
    """The reference search is the oracle: the value, and a line that reaches it."""
    for seed in range(25):
        position = random_position(SMALL, seed, 6, 14)
        if SMALL.outcome(position) is not None:
            continue
        expected = alphabeta(SMALL, position).score.value
        full = SMALL_ENGINE.solve(position)
        assert full.score.value == expected
        assert SMALL_ENGINE.solve(position, line=False).score.value == expected
        check_line(SMALL, position, full)
        assert SMALL.outcome(play_all(SMALL, position, full.pv)) is not None


def play_all(game: Any, position: Any, moves: tuple[Any, ...]) -> Any:
    for move in moves:
        position = game.play(position, move)
    return position


def test_the_api_solve_takes_line_too() -> None:
    _, position = api.load("connect4", "4455")
    alone = api.solve(C4, position, line=False, options=NO_BOOK)
    full = api.solve(C4, position, options=NO_BOOK)
    assert (alone.score, alone.pv) == (full.score, (full.best_move,))
    assert len(full.pv) > 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
    line=st.booleans(),
    clear=st.booleans(),
)
def test_solve_many_equals_one_call_each(seeds: list[int], line: bool, clear: bool) -> None:
    """Connect Four's kernel answers in one compiled call: finished positions and all."""
    positions = [random_position(C4, seed, 22, 42) for seed in seeds]
    batch = ENGINE.solve_many(positions, line=line, clear=clear)
    singles = [ENGINE.solve(position, line=line) for position in positions]
    assert len(batch) == len(positions)
    assert all(same(s, b) for s, b in zip(singles, batch, strict=True))


def test_solve_many_with_the_books_answers_as_one_call_each() -> None:
    engine = api.Engine(C4)
    positions = [api.load("connect4", moves)[1] for moves in ("4", "44", "4455", "1212121")]
    positions += set_positions("end-easy", 5)
    for line in (True, False):
        singles = [engine.solve(position, line=line) for position in positions]
        batch = engine.solve_many(positions, line=line)
        assert all(same(s, b) for s, b in zip(singles, batch, strict=True))
        assert [len(s.pv) for s in singles] == [len(b.pv) for b in batch]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=8), clear=st.booleans())
def test_analyze_many_equals_one_call_each(seeds: list[int], clear: bool) -> None:
    positions = [random_position(C4, seed, 24, 42) for seed in seeds]
    assert ENGINE.analyze_many(positions, clear=clear) == [
        ENGINE.analyze(position) for position in positions
    ]


@pytest.mark.parametrize(
    ("name", "size", "low", "high"),
    [("tictactoe", None, 0, 8), ("mnk", "4x4", 8, 15), ("simplexity", "4x4", 9, 15)],
)
def test_games_without_a_batch_answer_by_one_call_each(
    name: str, size: str | None, low: int, high: int
) -> None:
    game, _ = api.load(name, "", size=size)
    engine = api.Engine(game)
    positions = [random_position(game, seed, low, high) for seed in range(6)]
    for line in (True, False):
        batch = engine.solve_many(positions, line=line, clear=True)
        singles = [solved_alone(engine, position, line) for position in positions]
        assert all(same(s, b) for s, b in zip(singles, batch, strict=True))
        for position, full in zip(positions, singles, strict=True):
            alone = engine.solve(position, line=False)
            assert (alone.score, alone.best_move) == (full.score, full.best_move)
    assert engine.analyze_many(positions) == [engine.analyze(p) for p in positions]


def solved_alone(engine: api.Engine[Any, Any], position: Any, line: bool) -> SearchResult[Any]:
    """One solve on an emptied table (a line read from the table depends on what it holds)."""
    engine.clear()
    return engine.solve(position, line=line)


def test_weak_batches_equal_weak_single_calls() -> None:
    positions = set_positions("middle-easy", 10)
    batch = ENGINE.solve_many(positions, weak=True)
    assert [r.score for r in batch] == [ENGINE.solve(p, weak=True).score for p in positions]


def test_bad_input_in_the_list_names_the_position_index() -> None:
    _, position = api.load("connect4", "4455")
    tictactoe, board = api.load("tictactoe", "")
    with pytest.raises(IllegalPositionError, match=r"positions\[1\]"):
        ENGINE.solve_many([position, board])
    with pytest.raises(IllegalPositionError, match=r"positions\[2\]"):
        ENGINE.analyze_many([position, position, "4455"])
    with pytest.raises(ParameterError, match="must be a list of positions"):
        ENGINE.solve_many("4455")
    with pytest.raises(ParameterError, match="--weak"):
        api.Engine(tictactoe).solve_many([board], weak=True)
    assert ENGINE.solve_many([]) == []
    assert ENGINE.analyze_many([]) == []
