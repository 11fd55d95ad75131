"""ExactValues: every engine it picks gives the exact values of plain minimax."""

from __future__ import annotations

import random
from typing import Any

import pytest

from perfectplay import api
from perfectplay.analysis.exact import ExactValues, complete_table
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position
from perfectplay.games.mnk.rules import game
from perfectplay.search.minimax import minimax
from perfectplay.values import WIN


def random_positions(g: Any, count: int, min_stones: int, seed: int) -> list[Any]:
    """Running positions reached by random play, with at least ``min_stones`` stones."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        position = g.initial()
        while g.outcome(position) is None and g.ply(position) < min_stones:
            position = g.play(position, rng.choice(g.legal_moves(position)))
        if g.outcome(position) is None:
            found.append(position)
    return found


@pytest.mark.parametrize(
    ("rows", "cols", "k", "engine"),
    [(3, 3, 3, "auto"), (3, 3, 3, "python"), (3, 4, 3, "auto"), (4, 4, 4, "auto")],
    ids=["3x3-table", "3x3-python", "4x3-kernel", "4x4-kernel"],
)
def test_values_are_minimax_values(rows: int, cols: int, k: int, engine: str) -> None:
    g = game(rows, cols, k)
    values = ExactValues(g, engine)
    for position in random_positions(g, 12, rows * cols - 6, seed=rows * cols):
        assert values.value(position) == minimax(g, position).score.value
    assert len(values) == 12


def test_complete_table_is_shared_and_finished_positions_are_valued() -> None:
    g = game()
    assert complete_table(g) is complete_table(game())
    assert len(complete_table(g)) == 5478
    _, won = api.load("tictactoe", "xxx/oo_/___")
    _, full = api.load("tictactoe", "xox/xoo/oxx")
    values = ExactValues(g)
    assert (values.value(won), values.value(full)) == (-WIN, 0)
    assert values.move_value(g.initial(), (1, 1)) == 0


def test_connect4_values_match_the_solver() -> None:
    g, position = api.load("connect4", "...../...../.o.../oxxxo")
    assert isinstance(g, Connect4Game) and isinstance(position, Connect4Position)
    values = ExactValues(g)
    kernel = g.kernel()
    scores = kernel.move_scores(position, kernel.new_table(1 << 16))
    for column, score in scores.items():
        value = values.move_value(position, column)
        standard = 0 if value == 0 else g.score_of(position, WIN - abs(value), value > 0)
        assert standard == score
