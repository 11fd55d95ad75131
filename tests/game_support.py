"""What the game and search tests share: random reachable positions of any game, and a game
typed as one of the registry."""

from __future__ import annotations

import random
from typing import Any

from perfectplay.api import RegisteredGame
from perfectplay.games.protocol import Game


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


def registered(game: Game[Any, Any]) -> RegisteredGame:
    """``game`` itself, typed as a game of the registry is (``Game[object, object]``, whose
    position and move types the type checker does not know): what the command line's output
    takes (:mod:`perfectplay.contract` takes a game of a known class as it is)."""
    return game
