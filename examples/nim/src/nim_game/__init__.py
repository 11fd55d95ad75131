"""Normal-play Nim for perfectplay: an example of a game installed as a plug-in.

:mod:`nim_game.rules` holds the rules (a :class:`perfectplay.games.protocol.Game`),
:mod:`nim_game.notation` the text and JSON forms, :mod:`nim_game.kit` the kit that the entry
point ``perfectplay.games: nim`` registers. See ``docs/adding-a-game.md`` in perfectplay.
"""

from __future__ import annotations

from nim_game.rules import NimGame, NimMove, NimPosition, NimSpec, game

__all__ = ["NimGame", "NimMove", "NimPosition", "NimSpec", "game"]
