"""What the game and search tests share: random reachable positions of any game."""

from __future__ import annotations

import random
from typing import Any


def random_position(game: Any, rng: random.Random, max_moves: int | None = None) -> Any:
    """The position after up to ``max_moves`` random legal moves from the start (by default a
    random number up to the board's cells); possibly finished, when the game ends sooner."""
    position = game.initial()
    limit = rng.randint(0, game.spec.cells) if max_moves is None else max_moves
    for _ in range(limit):
        moves = game.legal_moves(position)
        if not moves:
            break
        position = game.play(position, rng.choice(moves))
    return position
