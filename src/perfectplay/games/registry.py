"""The game registry: names to factories, so that every interface finds games the same way.

A new game plugs in with :func:`register`; :func:`get_game` builds it from keyword parameters
(each factory validates its own parameters and raises :class:`ParameterError`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from perfectplay.errors import UnknownGameError

_FACTORIES: dict[str, Callable[..., Any]] = {}
_ALIASES: dict[str, str] = {}


def register(name: str, factory: Callable[..., Any], *aliases: str) -> None:
    """Make ``factory(**params)`` available as ``get_game(name, **params)``."""
    _FACTORIES[name] = factory
    for alias in aliases:
        _ALIASES[alias] = name


def canonical_name(name: str) -> str:
    """The registered name for ``name`` or one of its aliases (case-insensitive).

    Raises :class:`UnknownGameError` naming the known games.
    """
    lowered = name.strip().lower()
    lowered = _ALIASES.get(lowered, lowered)
    if lowered not in _FACTORIES:
        known = ", ".join(sorted(_FACTORIES))
        raise UnknownGameError(f"game {name!r}: unknown; known games are {known}")
    return lowered


def get_game(name: str, **params: Any) -> Any:
    """Build the game ``name`` with ``params`` (e.g. ``get_game("tictactoe", rows=4, k=4)``)."""
    return _FACTORIES[canonical_name(name)](**params)


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_FACTORIES)


def _register_builtins() -> None:
    from perfectplay.games import connect4, mnk, simplexity

    register("tictactoe", mnk.game, "mnk", "ttt", "tic-tac-toe")
    register("connect4", connect4.game, "connect-four", "connectfour", "c4")
    register("simplexity", simplexity.game, "shapecolor", "shape-color", "sc")


_register_builtins()
