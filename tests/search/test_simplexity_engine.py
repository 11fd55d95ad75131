"""The compiled shape-and-color engine against the slow, obvious searches.

Plain minimax (the textbook reference) checks the generic alpha-beta on late positions; the
generic alpha-beta checks the kernel's exact values on many positions of small boards; the
kernel's evaluations equal the reference heuristics of
:mod:`perfectplay.games.simplexity.heuristics`.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from game_support import random_position

from perfectplay.games.kernel import SearchControls
from perfectplay.games.simplexity.heuristics import evaluate as reference_evaluate
from perfectplay.games.simplexity.rules import (
    EVALUATIONS,
    SimplexityGame,
    SimplexityMove,
    SimplexityPosition,
    game,
)
from perfectplay.search.limits import make_limit
from perfectplay.search.minimax import minimax
from perfectplay.search.solver import SearchOptions, analyze, solve

DATA = Path(__file__).parent.parent / "data" / "simplexity_values.json"


def running_position(g: SimplexityGame, rng: random.Random, plies: int) -> Any:
    """A running position after ``plies`` random moves (``None`` if the game ended)."""
    position = random_position(g, rng, plies)
    return None if g.outcome(position) is not None else position


def positions(rows: int, cols: int, count: int, empty_at_most: int, seed: int) -> list[Any]:
    """``count`` running positions with at most ``empty_at_most`` empty cells, reached by
    random moves that do not end the game when another move does not (else random games on
    big boards rarely last long enough)."""
    g, rng = game(rows, cols), random.Random(seed)
    found: list[SimplexityPosition] = []
    while len(found) < count:
        position = g.initial()
        for _ in range(rows * cols - rng.randint(1, empty_at_most)):
            moves = list(g.legal_moves(position))
            rng.shuffle(moves)
            quiet = [m for m in moves if g.outcome(g.play(position, m)) is None]
            position = g.play(position, (quiet or moves)[0])
            if g.outcome(position) is not None:
                break
        else:
            found.append(position)
    return found


@pytest.mark.parametrize(("rows", "cols", "count", "empty", "seed"), [(4, 4, 40, 8, 1)])
def test_alphabeta_equals_minimax(rows: int, cols: int, count: int, empty: int, seed: int) -> None:
    g = game(rows, cols)
    for position in positions(rows, cols, count, empty, seed):
        reference = minimax(g, position, make_limit())
        fast = solve(g, position, search=SearchOptions(engine="python"))
        assert fast.score.value == reference.score.value, str(position)


@pytest.mark.parametrize(
    ("rows", "cols", "count", "empty", "seed"),
    [(4, 4, 120, 9, 2), (4, 5, 40, 9, 3), (5, 4, 40, 9, 4), (6, 7, 25, 6, 5)],
)
def test_kernel_equals_alphabeta(rows: int, cols: int, count: int, empty: int, seed: int) -> None:
    g = game(rows, cols)
    for position in positions(rows, cols, count, empty, seed):
        kernel = solve(g, position, search=SearchOptions(engine="kernel"))
        python = solve(g, position, search=SearchOptions(engine="python"))
        assert kernel.score.value == python.score.value, str(position)
        assert kernel.best_move in g.legal_moves(position)
        # The move the kernel chose is worth the value it claims.
        values = {
            v.move: v.score.value
            for v in analyze(g, position, search=SearchOptions(engine="python"))
        }
        assert values[kernel.best_move] == kernel.score.value


@pytest.mark.parametrize("name", EVALUATIONS)
@pytest.mark.parametrize(("rows", "cols"), [(6, 7), (4, 5)])
def test_kernel_evaluation_equals_reference(name: str, rows: int, cols: int) -> None:
    from perfectplay.games.simplexity import compiled as sk

    g = game(rows, cols, name)
    kernel = g.kernel()
    geo = kernel._geo
    rng = random.Random(rows * 10 + cols)
    checked = 0
    while checked < 300:
        position = running_position(g, rng, rng.randint(0, rows * cols - 1))
        if position is None:
            continue
        red, blue, circ = (np.uint64(b) for b in (position.red, position.blue, position.circles))
        compiled = sk.evaluate(red, blue, circ, position.plies, geo, kernel._windows, kernel._rays)
        assert compiled == reference_evaluate(g, position, name), str(position)
        checked += 1


def forced_to_hand_over(g: SimplexityGame, rng: random.Random) -> Any:
    """A running position where every legal move completes a four that wins for the opponent
    (found by random play), or ``None``."""
    position = g.initial()
    while g.outcome(position) is None:
        moves = g.legal_moves(position)
        mover = g.to_move(position)
        endings = [g.outcome(g.play(position, move)) for move in moves]
        if all(e is not None and e.winner is mover.other for e in endings):
            return position
        position = g.play(position, rng.choice(moves))
    return None


def test_a_position_where_every_move_hands_over_is_lost_in_one() -> None:
    g, rng = game(4, 4), random.Random(7)
    found = 0
    while found < 5:
        position = forced_to_hand_over(g, rng)
        if position is None:
            continue
        found += 1
        for engine in ("kernel", "python"):
            result = solve(g, position, search=SearchOptions(engine=engine))
            assert result.score.outcome == "loss"
            assert result.score.plies == 1
            assert result.best_move in g.legal_moves(position)


def test_known_values() -> None:
    known = json.loads(DATA.read_text())
    for entry in known["empty_boards"]:
        if entry["seconds"] > 15:
            continue  # recorded by benchmarks/bench_simplexity.py, too slow for the suite
        g = game(entry["rows"], entry["cols"])
        result = solve(g, g.initial())
        assert result.score.outcome == entry["outcome"]
        assert (result.score.plies or g.spec.cells) == entry["plies"]


def test_time_limit_gives_a_legal_move_and_a_depth() -> None:
    g = game()
    position = g.play(g.initial(), SimplexityMove(3, "O"))
    result = solve(g, position, make_limit(time=0.3))
    assert result.best_move in g.legal_moves(position)
    assert result.depth >= 1
    assert not result.exact


def test_deadline_in_the_past_aborts() -> None:
    g = game()
    kernel = g.kernel()
    result = kernel.search(
        g.initial(),
        30,
        None,
        kernel.new_table(1 << 12),
        1 << 60,
        SearchControls(deadline=time.perf_counter()),
    )
    assert result.aborted
    assert result.move is None
    assert result.nodes <= 2048


def test_node_budget_aborts() -> None:
    g = game()
    kernel = g.kernel()
    result = kernel.search(g.initial(), 30, None, kernel.new_table(1 << 12), 5_000)
    assert result.aborted
    assert result.nodes <= 5_000 + 1024


@pytest.mark.parametrize("moves", ["1O", "4O", "1O 2X", "4O 3X"])
def test_table_move_reads_entries_stored_under_the_mirror_image(moves: str) -> None:
    # Searches with symmetry store a position under the smaller of its key and its mirror
    # image's; the table's move must be found (and flipped back) either way.
    g = game(4, 4)
    position = g.initial()
    for token in moves.split():
        position = g.play(position, SimplexityMove(int(token[0]) - 1, token[1]))
    kernel = g.kernel()
    table = kernel.new_table(1 << 20)
    result = kernel.search(position, g.spec.cells - position.plies, None, table, 1 << 60)
    assert kernel.table_move(position, table) == result.move
