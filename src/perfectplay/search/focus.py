"""An analysis of some of the moves: the values of the moves a kit puts in focus (on a big
board, those near the stones), on one engine, the time shared equally between them.

:func:`perfectplay.search.solver.analyze` values every legal move; on a 15x15 board that is
225 searches of which most are of cells far from any stone. This values the moves given, in
their order, the same way: a finished child by its outcome, a running one by a search of the
reply (an exact value when the limit is exact).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from perfectplay.search.limits import EXACT, MIN_TIME, Limit
from perfectplay.search.result import MoveValue, Score, finished_value, score_of_move
from perfectplay.search.solver import (
    DEFAULT_SEARCH,
    MoveCallback,
    Searcher,
    SearchOptions,
    sized_for,
)


def share(limit: Limit, started: float, moves: int) -> Limit:
    """The limit of one move's search: a ply less deep, an equal share of the time left."""
    left = None if limit.time is None else max(0.0, limit.time - (time.perf_counter() - started))
    return Limit(
        None if limit.depth is None else max(0, limit.depth - 1),
        None if left is None or not moves else max(MIN_TIME, left / moves),
        limit.nodes,
        trial=limit.trial,
    )


def analyze_moves(
    game: Any,
    position: Any,
    moves: Sequence[Any],
    limit: Limit = EXACT,
    *,
    search: SearchOptions = DEFAULT_SEARCH,
    on_move: MoveCallback | None = None,
) -> list[MoveValue[Any]]:
    """The value of each of ``moves`` (legal moves of the running ``position``) for the side
    to move; ``on_move`` hears of each move valued. Raises the game's ``IllegalMoveError``
    for a move that is not legal."""
    started = time.perf_counter() if limit.started is None else limit.started
    searcher = Searcher(game, sized_for(search, limit), position)
    searcher.warm_up()
    per_move = share(limit, started, len(moves))
    values: list[MoveValue[Any]] = []
    for move in moves:
        child = game.play(position, move)
        outcome = game.outcome(child)
        if outcome is not None:
            score = Score(-finished_value(game, child, outcome.winner, 1), True)
        else:
            score = score_of_move(searcher.value(child, per_move))
        values.append(MoveValue(move, score))
        if on_move is not None:
            on_move(values[-1], len(values), len(moves), time.perf_counter() - started)
    return values
