"""Alpha-beta step by step (issue 15, item 10): the steps agree with the tree they walk in
every registered game and every order, each order searches the moves in the order it names,
and the policy of unbounded jobs and the node cap refuse what a teacher should not try."""

from __future__ import annotations

from typing import Any

import pytest

from perfectplay import api
from perfectplay.analysis.steps import ORDERS, record_steps
from perfectplay.analysis.tree import build_tree
from perfectplay.errors import ParameterError

NEAR_END = 4
"""Positions with at most this many plies left (by the game's bound) are stepped through."""


def near_end(name: str) -> tuple[Any, Any]:
    """A running position of game ``name`` near its end: from the initial position, the
    first legal move that does not end the game, until at most :data:`NEAR_END` plies are
    left (or every move would end it)."""
    game, position = api.new_game(name)
    while game.plies_left_bound(position) > NEAR_END:
        running = (game.play(position, move) for move in game.legal_moves(position))
        after = next((child for child in running if game.outcome(child) is None), None)
        if after is None:
            break
        position = after
    return game, position


@pytest.mark.parametrize("name", api.game_names())
@pytest.mark.parametrize("order", list(ORDERS))
def test_every_game_and_order_agrees_with_the_tree(name: str, order: str) -> None:
    game, position = near_end(name)
    found = api.steps(game, position, order=order)
    minimax = build_tree(game, position)
    assert found.tree.root.value == minimax.root.value  # a full tree: alpha-beta is exact
    assert found.minimax_nodes == minimax.visited
    assert 1 <= found.visited <= found.minimax_nodes
    kinds = [step.kind for step in found.steps]
    assert kinds[0] in ("enter", "leaf") and kinds[-1] == "done"
    assert kinds.count("enter") + kinds.count("leaf") == found.visited
    assert kinds.count("return") == found.visited - 1  # every node but the root returns
    assert found.cuts == sum(1 for step in found.steps if step.skipped)
    assert found.steps[-1].visited == found.visited
    for step in found.steps:
        if step.kind == "cut":
            assert step.alpha >= step.beta and step.reason is not None
            assert "cannot change the choice above" in step.reason


def first_moves(found: api.Steps) -> list[Any]:
    """The root's moves in the order the search tried them (returns to the root)."""
    return [step.move for step in found.steps if step.kind == "return" and not step.path]


def test_orders_try_the_moves_in_the_order_they_name() -> None:
    game, position = api.load("tictactoe", "xox/oox/___")
    a3, b3, c3 = game.legal_moves(position)  # worth -9, 0 and 10 to x
    assert first_moves(api.steps(game, position)) == [a3, b3, c3]
    assert first_moves(api.steps(game, position, order="reversed")) == [c3, b3, a3]
    assert first_moves(api.steps(game, position, order="worst")) == [a3, b3, c3]
    assert first_moves(api.steps(game, position, order="best")) == [c3, b3, a3]


def test_heuristic_best_first_is_the_depth_limited_minimax_order() -> None:
    """With heuristic leaves, best first ranks the root's moves by the depth-limited tree's
    own values: its first move is the best one, so its value is the root's."""
    game, position = api.load("tictactoe", "x__/_o_/___")
    found = api.steps(game, position, 2, order="best", leaves="heuristic")
    plain = build_tree(game, position, 2, leaves="heuristic")
    first = next(step for step in found.steps if step.kind == "return" and not step.path)
    assert first.value == plain.root.value == found.tree.root.value


def test_refusals() -> None:
    game, empty = api.new_game("tictactoe")
    with pytest.raises(ParameterError, match="order up: expected one of game, best"):
        api.steps(game, empty, 2, order="up", leaves="heuristic")
    with pytest.raises(ParameterError, match="more than 2,000 nodes"):
        api.steps(game, empty)
    with pytest.raises(ParameterError, match="give a depth"):
        record_steps(game, empty, leaves="heuristic")
    big, start = api.new_game("tictactoe", size="6x6")  # 36 plies: beyond exact reach (24)
    with pytest.raises(ParameterError, match="ordering the moves best first solves every"):
        api.steps(big, start, 1, order="best")
    with pytest.raises(ParameterError, match="its leaves, 1 plies down, have 35 plies left"):
        api.steps(big, start, 1)
    assert api.steps(big, start, 1, order="best", leaves="heuristic").visited == 37
