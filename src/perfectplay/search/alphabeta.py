"""Negamax alpha-beta over the game protocol, with every classic refinement switchable.

    negamax(node, alpha, beta):
        if node is terminal or at the horizon: return its value for the side to move
        for each move (table move first, then the game's order):
            value = -negamax(child, -beta, -alpha)
            best = max(best, value); alpha = max(alpha, value)
            if alpha >= beta: stop (the opponent will not allow this line)
        remember best in the table as an exact value or a bound
        return best

Values use the scale of :mod:`perfectplay.search.result`, root-relative inside the search.
Options: a transposition table, symmetry reduction (keys shared by symmetric positions, the
game's ``canonical_form`` hook), move ordering, a depth limit with the game's heuristic at the
horizon, a node budget and a deadline (iterative deepening lives in :mod:`.iterative`).

This module is game-agnostic and pure Python; the solver uses a compiled kernel instead when
the game has one, and the tests check the two against each other and against plain minimax.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from perfectplay.search.limits import EXACT, Deadline, Limit, SearchAborted
from perfectplay.search.ordering import move_first
from perfectplay.search.result import (
    Score,
    SearchResult,
    finished_value,
    is_decisive,
)
from perfectplay.search.transposition import (
    Bound,
    Entry,
    TranspositionTable,
    from_table,
    to_table,
)
from perfectplay.values import FULL_DRAFT, INFINITY


@dataclass(frozen=True, slots=True)
class Options:
    """Which refinements a search uses."""

    table: bool = True
    symmetry: bool = True
    ordering: bool = True


DEFAULT_OPTIONS = Options()


class _Search:
    """State of one search call: counters, the table, the limits. Private to this module."""

    def __init__(
        self,
        game: Any,
        options: Options,
        table: TranspositionTable | None,
        deadline: Deadline | None,
        node_budget: int | None,
    ) -> None:
        self.game = game
        self.options = options
        self.table = table if options.table else None
        self.deadline = deadline
        self.node_budget = node_budget
        self.nodes = 0
        self.horizon = 0

    def lookup_key(self, position: Any) -> tuple[Any, int]:
        """The table key and the symmetry that maps the position onto it (the identity, 0,
        when symmetry reduction is off)."""
        if self.options.symmetry:
            key, symmetry = self.game.canonical_form(position)
            return key, symmetry
        return self.game.key(position), 0

    def count_node(self) -> None:
        """Count a node; raise :class:`SearchAborted` past the budget or the deadline (read at
        every node: a clock read costs well under 1% of an interpreted node)."""
        self.nodes += 1
        if self.deadline is not None and self.deadline.expired():
            raise SearchAborted
        if self.node_budget is not None and self.nodes >= self.node_budget:
            raise SearchAborted

    def negamax(self, position: Any, ply: int, depth: int, alpha: float, beta: float) -> float:
        """Value of ``position`` for the side to move, searched ``depth`` plies deep."""
        self.count_node()
        game = self.game
        outcome = game.outcome(position)
        if outcome is not None:
            return finished_value(game, position, outcome.winner, ply)
        if depth <= 0:
            self.horizon += 1
            return float(game.evaluate(position))

        key, symmetry = (None, 0)
        table_move = None
        alpha_start = alpha
        if self.table is not None:
            key, symmetry = self.lookup_key(position)
            entry = self.table.get(key)
            if entry is not None:
                table_move = self._unmap(entry.move, symmetry)
                if entry.draft >= depth:
                    value = from_table(entry.value, ply)
                    if entry.draft < FULL_DRAFT:
                        self.horizon += 1  # the stored value itself rests on a horizon
                    if entry.bound is Bound.EXACT:
                        return value
                    if entry.bound is Bound.LOWER:
                        alpha = max(alpha, value)
                    else:
                        beta = min(beta, value)
                    if alpha >= beta:
                        return value

        horizon_before = self.horizon
        moves = (
            game.ordered_moves(position) if self.options.ordering else game.legal_moves(position)
        )
        if table_move is not None and self.options.ordering:
            moves = move_first(moves, table_move)
        best, best_move = -float(INFINITY), None
        for move in moves:
            value = -self.negamax(game.play(position, move), ply + 1, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break

        if self.table is not None:
            bound = (
                Bound.UPPER if best <= alpha_start else Bound.LOWER if best >= beta else Bound.EXACT
            )
            draft = FULL_DRAFT if self.horizon == horizon_before else depth
            self.table.put(
                key, Entry(to_table(best, ply), bound, draft, self._map(best_move, symmetry))
            )
        return best

    def _map(self, move: Any, symmetry: int) -> Any:
        return move if symmetry == 0 or move is None else self.game.map_move(move, symmetry)

    def _unmap(self, move: Any, symmetry: int) -> Any:
        return move if symmetry == 0 or move is None else self.game.unmap_move(move, symmetry)


def search_root(
    game: Any,
    position: Any,
    depth: int,
    options: Options,
    table: TranspositionTable | None,
    first: Any = None,
    deadline: Deadline | None = None,
    node_budget: int | None = None,
) -> tuple[Any, float, int, bool]:
    """One fixed-depth search of the root: ``(best_move, value, nodes, exact)``.

    ``first`` is tried first (the previous iteration's best). Raises :class:`SearchAborted`
    when the deadline or node budget runs out. Ties go to the first move in search order.
    """
    search = _Search(game, options, table, deadline, node_budget)
    search.count_node()
    moves = game.ordered_moves(position) if options.ordering else game.legal_moves(position)
    if first is not None:
        moves = move_first(moves, first)
    best_move, alpha = None, -float(INFINITY)
    for move in moves:
        value = -search.negamax(game.play(position, move), 1, depth - 1, -INFINITY, -alpha)
        if value > alpha:
            best_move, alpha = move, value
    exact = search.horizon == 0 or is_decisive(alpha)
    return best_move, alpha, search.nodes, exact


def principal_variation(
    game: Any, position: Any, first: Any, table: TranspositionTable | None, options: Options
) -> tuple[Any, ...]:
    """``first`` followed by the table's best moves, as far as the table knows them."""
    if first is None:
        return ()
    line = [first]
    current = game.play(position, first)
    seen = {game.key(position)}
    helper = _Search(game, options, table, None, None)
    while table is not None and game.outcome(current) is None and game.key(current) not in seen:
        seen.add(game.key(current))
        key, symmetry = helper.lookup_key(current)
        entry = table.get(key)
        move = helper._unmap(entry.move, symmetry) if entry is not None else None
        if move is None or move not in game.legal_moves(current):
            break
        line.append(move)
        current = game.play(current, move)
    return tuple(line)


def alphabeta(
    game: Any,
    position: Any,
    limit: Limit = EXACT,
    options: Options = DEFAULT_OPTIONS,
    table: TranspositionTable | None = None,
) -> SearchResult[Any]:
    """Best move and value of ``position`` by one alpha-beta search.

    Without ``limit.depth`` the search is exact. A depth limit makes the horizon positions
    take ``game.evaluate``; the score is exact when no horizon was reached or it is a proven
    win or loss. ``limit.time`` and ``limit.nodes`` abort the search with
    :class:`SearchAborted` (use :func:`perfectplay.search.iterative.iterative_deepening` to
    get the best move found so far instead). A fresh table is used unless one is given.
    """
    started = time.perf_counter()
    if table is None and options.table:
        table = TranspositionTable()
    if game.outcome(position) is not None:
        return SearchResult(None, Score(0, True), (), 1, 0, 0.0, "alphabeta")
    depth = game.plies_left_bound(position) if limit.depth is None else limit.depth
    deadline = Deadline(limit.time) if limit.time is not None else None
    best_move, value, nodes, exact = search_root(
        game, position, depth, options, table, deadline=deadline, node_budget=limit.nodes
    )
    pv = principal_variation(game, position, best_move, table, options)
    return SearchResult(
        best_move=best_move,
        score=Score(value, exact),
        pv=pv,
        nodes=nodes,
        depth=depth,
        time=time.perf_counter() - started,
        algorithm="alphabeta",
        extra={"table": options.table, "symmetry": options.symmetry, "ordering": options.ordering},
    )
