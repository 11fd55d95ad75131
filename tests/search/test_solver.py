"""Known game values, depth and time limits, random tie-breaking, kernel against generic."""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path

import pytest

from perfectplay import api
from perfectplay.errors import ParameterError
from perfectplay.games.mnk.rules import MNKGame, MNKPosition, game
from perfectplay.search import solver
from perfectplay.search.alphabeta import Options, alphabeta
from perfectplay.search.limits import Limit, make_limit
from perfectplay.search.minimax import minimax
from perfectplay.search.result import Score
from perfectplay.search.solver import SearchOptions, analyze, best_move, solve
from perfectplay.values import HEURISTIC_LIMIT

KNOWN = json.loads((Path(__file__).parent.parent / "data" / "mnk_values.json").read_text())


def random_position(g: MNKGame, stones: int, rng: random.Random) -> MNKPosition:
    """A running position with ``stones`` stones reached by random play (restarting on wins)."""
    while True:
        position = g.initial()
        for _ in range(stones):
            moves = g.legal_moves(position)
            if not moves:
                break
            position = g.play(position, rng.choice(moves))
        if g.outcome(position) is None and g.ply(position) == stones:
            return position


@pytest.mark.parametrize(
    "entry",
    [pytest.param(e, marks=pytest.mark.slow) if e.get("slow") else e for e in KNOWN],
    ids=lambda e: f"{e['cols']}x{e['rows']}k{e['k']}",
)
def test_known_values(entry: dict[str, object]) -> None:
    g = game(entry["rows"], entry["cols"], entry["k"])  # type: ignore[arg-type]
    result = solve(g, g.initial())
    assert result.exact
    assert result.score.outcome == entry["outcome"]
    if "plies" in entry:
        assert result.score.plies == entry["plies"]


def test_generic_search_agrees_on_a_small_known_value() -> None:
    g = game(3, 4, 3)
    assert alphabeta(g, g.initial()).score == solve(g, g.initial()).score


def test_kernel_agrees_with_generic_on_random_4x4_positions() -> None:
    g = game(4, 4, 4)
    rng = random.Random(4)
    for _ in range(25):
        position = random_position(g, rng.randint(5, 10), rng)
        kernel = solve(g, position, search=SearchOptions(engine="kernel"))
        python = solve(g, position, search=SearchOptions(engine="python"))
        assert kernel.score == python.score, str(position)


def test_depth_limited_alphabeta_equals_depth_limited_minimax() -> None:
    g = game(4, 4, 3)
    rng = random.Random(7)
    plain = Options(table=False, symmetry=False, ordering=False)
    ordered = Options(table=False, symmetry=False, ordering=True)
    for _ in range(20):
        position = random_position(g, rng.randint(0, 5), rng)
        for depth in (1, 2, 3):
            reference = minimax(g, position, Limit(depth=depth)).score.value
            assert alphabeta(g, position, Limit(depth=depth), plain).score.value == reference
            assert alphabeta(g, position, Limit(depth=depth), ordered).score.value == reference


def test_depth_limit_is_heuristic_until_the_horizon_covers_the_game() -> None:
    g = game(4, 4, 4)
    shallow = solve(g, g.initial(), Limit(depth=2))
    assert not shallow.exact and shallow.score.outcome is None and shallow.depth == 2
    near_end = random_position(g, 13, random.Random(1))
    assert solve(g, near_end, Limit(depth=3)).exact


def test_time_limited_search_returns_a_legal_move_on_every_engine() -> None:
    for g in (game(7, 7, 5), game(9, 9, 5), game(15, 15, 5)):
        position = g.play(g.initial(), (g.spec.rows // 2, g.spec.cols // 2))
        result = solve(g, position, Limit(time=0.3))
        assert result.best_move in g.legal_moves(position)
        assert result.depth >= 1
        assert not result.exact


def test_time_limited_search_solves_small_boards_exactly() -> None:
    g = game()
    result = solve(g, g.initial(), Limit(time=5.0))
    assert result.exact and result.score.outcome == "draw"


def test_iterations_are_reported_in_order() -> None:
    g = game(4, 4, 4)
    seen: list[int] = []
    solve(g, g.initial(), Limit(time=2.0), on_iteration=lambda d, *_: seen.append(d))
    assert seen == list(range(1, len(seen) + 1))
    assert seen


def test_node_budget_stops_iterative_deepening() -> None:
    g = game(5, 5, 4)
    result = solve(g, g.initial(), Limit(nodes=5_000))
    assert result.best_move is not None
    assert not result.exact


def test_quickest_win_is_taken() -> None:
    g = game()
    # x (a1 b1 b2) wins at once with c1 or b3; other moves win later or not at all.
    position = g.from_bits(0b000_010_011, 0b100_101_000)
    result = solve(g, position)
    assert result.best_move in {(0, 2), (2, 1)} and result.score.plies == 1
    assert result.score.outcome == "win" and result.pv == (result.best_move,)


def test_default_choice_is_deterministic_and_random_choice_covers_ties() -> None:
    g = game()
    start = g.initial()
    assert len({best_move(g, start).best_move for _ in range(3)}) == 1
    picks = {best_move(g, start, rng=random.Random(seed)).best_move for seed in range(20)}
    assert len(picks) > 2  # all nine first moves draw
    values = {(v.move, v.score.value) for v in analyze(g, start)}
    assert all(value == 0 for _, value in values)


def test_analyze_scores_match_solving_each_child() -> None:
    g = game(4, 4, 3)
    position = random_position(g, 3, random.Random(3))
    for entry in analyze(g, position):
        alone = solve(g, g.play(position, entry.move))
        child_value = alone.score.value
        if g.outcome(g.play(position, entry.move)) is None:
            assert entry.score.value == (
                -child_value + 1 if child_value > 0 else -child_value - 1 if child_value < 0 else 0
            )


def test_finished_position_has_no_move() -> None:
    g = game()
    won = g.from_bits(0b000_000_111, 0b000_011_000)
    result = solve(g, won)
    assert result.best_move is None and result.score.outcome == "loss" and result.pv == ()


def test_limits_are_checked() -> None:
    for bad in ({"depth": -1}, {"depth": 1.5}, {"time": 0}, {"time": float("nan")}, {"nodes": 0}):
        with pytest.raises(ParameterError, match=next(iter(bad))):
            make_limit(**bad)
    assert make_limit(depth=3, time=1).time == 1.0

    class WithoutKernel(MNKGame):
        def kernel(self, options: object = None) -> None:  # type: ignore[override]
            return None

    bare = WithoutKernel(game(3, 3, 3).spec)
    with pytest.raises(ParameterError, match="kernel"):
        solve(bare, bare.initial(), Limit(depth=1), search=SearchOptions(engine="kernel"))


@pytest.mark.parametrize(
    ("value", "words"), [(HEURISTIC_LIMIT, "winning"), (-HEURISTIC_LIMIT, "losing")]
)
def test_a_saturated_heuristic_score_reads_in_words(value: int, words: str) -> None:
    """A big board's evaluation that saturates sees a decisive threat it has not proved
    (issue 27): never the bare sentinel number, never an outcome."""
    score = Score(value, exact=False)
    assert str(score) == f"{words} by a threat the search sees (heuristic, not proven)"
    assert score.outcome is None and not score.bounded
    assert str(Score(-668, exact=False)) == "-668 (heuristic)"


# -- an untimed exact line is bounded by nodes, not by the clock ---------------------------------

LINE_POSITIONS = (("connect4", "2531276566711153", None, None), ("tictactoe", "", "4x3", 3))
"""Positions whose untimed solves prove their whole line: Connect Four's through the kernel's
compiled line, the 4x3 m,n,k board's step by step (its kernel has no line of its own)."""


def untimed_lines() -> list[tuple[object, ...]]:
    """The line of each of :data:`LINE_POSITIONS` solved alone, and in a batch."""
    lines: list[tuple[object, ...]] = []
    for name, moves, size, k in LINE_POSITIONS:
        game, position = api.load(name, moves, size=size, k=k)
        lines.append(tuple(api.solve(game, position).pv))
        engine = api.Engine(game)
        lines.append(tuple(engine.solve_many([position], clear=True)[0].pv))
    return lines


def test_an_untimed_line_is_the_same_when_the_clock_jumps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine stalled by load, seen as a clock whose every reading jumps further than
    all the time before it, gives the lines an ordinary clock gives, each to the end of
    its game: an allowance in seconds, however it grows with the solve's time, would cut
    them."""
    expected = untimed_lines()
    start, readings = time.perf_counter(), itertools.count()

    def jumping() -> float:
        return start + 3.0 ** min(next(readings), 600)

    monkeypatch.setattr(time, "perf_counter", jumping)  # the module interrupt reads its clock from
    assert untimed_lines() == expected
    monkeypatch.undo()
    for (name, moves, size, k), line in zip(LINE_POSITIONS, expected[::2], strict=True):
        game, position = api.load(name, moves, size=size, k=k)
        for move in line:
            position = game.play(position, move)
        assert game.outcome(position) is not None, (name, moves)


def test_an_untimed_line_ends_where_its_node_allowance_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no nodes allowed for the proofs, the line is the best move alone (alone and in a
    batch): the first move of the whole line."""
    expected = untimed_lines()
    monkeypatch.setattr(solver, "EXACT_LINE_NODES", 0)
    monkeypatch.setattr(solver, "EXACT_LINE_FACTOR", 0.0)
    assert untimed_lines() == [line[:1] for line in expected]
