"""Move ordering: try the moves most likely to be best first, so alpha-beta cuts sooner.

The game supplies its static preference (``ordered_moves``, e.g. centre first); search puts
the move remembered in the transposition table or the previous iteration in front of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def ordered(game: Any, position: Any, first: Any = None, use_game_order: bool = True) -> list[Any]:
    """Legal moves in search order: ``first`` (when legal), then the game's preferred order."""
    moves = list(game.ordered_moves(position) if use_game_order else game.legal_moves(position))
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    return moves


def move_first(moves: Sequence[Any], first: Any) -> list[Any]:
    """``moves`` with ``first`` moved to the front (unchanged when absent)."""
    result = list(moves)
    if first in result:
        result.remove(first)
        result.insert(0, first)
    return result
