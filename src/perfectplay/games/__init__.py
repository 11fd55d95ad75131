"""Games: the protocol, the registry and one module per game."""

from perfectplay.games.protocol import BaseGame, Game, Outcome, Player
from perfectplay.games.registry import game_names, get_game, register

__all__ = ["BaseGame", "Game", "Outcome", "Player", "game_names", "get_game", "register"]
