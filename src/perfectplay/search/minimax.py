"""Plain minimax, exactly as the textbook writes it: the reference every faster search is
tested against.

Values are from the root player's point of view with the depth adjustment of the classic
tic-tac-toe article: a win whose deciding move is the ``d``-th ply from the root is worth
``WIN - d``, a loss ``-(WIN - d)``, a draw 0, so the maximiser takes the quickest win and the
slowest loss. No pruning, no table, no ordering: every node of the tree is visited (and
counted), which makes it slow on purpose.
"""

from __future__ import annotations

import time
from typing import Any

from perfectplay.search.limits import EXACT, Limit
from perfectplay.search.result import Score, SearchResult, is_decisive, loss_in, win_in


def minimax(game: Any, position: Any, limit: Limit = EXACT) -> SearchResult[Any]:
    """Best move and value of ``position`` by plain minimax.

    With ``limit.depth`` the tree is cut at that many plies and unfinished positions there get
    ``game.evaluate`` (turned to the root player's view); the score is exact only when no cut
    happened. Ties between equal moves go to the first move in ``game.legal_moves`` order.
    """
    started = time.perf_counter()
    root_player = game.to_move(position)
    max_depth = limit.depth
    nodes = 0
    cut = False

    def value(node: Any, depth: int) -> float:
        nonlocal nodes, cut
        nodes += 1
        outcome = game.outcome(node)
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return win_in(depth) if outcome.winner == root_player else loss_in(depth)
        if max_depth is not None and depth >= max_depth:
            cut = True
            heuristic = float(game.evaluate(node))
            return heuristic if game.to_move(node) == root_player else -heuristic
        children = [value(game.play(node, move), depth + 1) for move in game.legal_moves(node)]
        if game.to_move(node) == root_player:
            return max(children)
        return min(children)

    nodes += 1
    best_move = None
    best_value = 0.0
    pv: tuple[Any, ...] = ()
    if game.outcome(position) is None:
        best_value = -float("inf")
        for move in game.legal_moves(position):
            move_value = value(game.play(position, move), 1)
            if move_value > best_value:
                best_value, best_move = move_value, move
        pv = (best_move,)
    exact = not cut or is_decisive(best_value)
    return SearchResult(
        best_move=best_move,
        score=Score(best_value, exact),
        pv=pv,
        nodes=nodes,
        depth=max_depth if max_depth is not None and cut else game.plies_left_bound(position),
        time=time.perf_counter() - started,
        algorithm="minimax",
    )
