"""Nim's kit: what the perfectplay api, command line and web learn about the game.

Registered through the entry point ``nim = "nim_game.kit:KIT"`` of the group
``perfectplay.games`` (see this package's ``pyproject.toml``). Nim has no board to draw, no
size, no ``k`` and no compiled kernel: it declares no capability, and the generic alpha-beta
solves it.
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import ParameterError
from perfectplay.games.kit import GameKit, GameParams, JSONValue, Loaded, Policy

from nim_game.notation import format_position, move_from_json, parse_move, split_position
from nim_game.rules import DEFAULT_START, MAX_HEAP, MAX_HEAPS, NimGame, NimMove, NimPosition, game

EXACT_PLIES = 32
"""An unbounded exact search is refused with more objects left than this (eight heaps of
four take about 5 s; twice as many objects can take minutes)."""
WHOLE_TREE_PLIES = 24
"""``perft`` without ``--depth`` only from at most this many objects."""


class NimKit(GameKit):
    """Normal-play Nim: heaps ``3,4,5``, moves ``2:3``; taking the last object wins."""

    name = "nim"
    title = "Nim"
    summary = (
        f"Take any number of objects from one heap; taking the last object wins. Positions "
        f"are heaps such as 3,4,5 (at most {MAX_HEAPS} heaps of at most {MAX_HEAP}), then "
        "optionally the moves played, such as 2:3 (heap 2, take 3)."
    )
    policy = Policy(play_time=1.0, exact_plies=EXACT_PLIES, whole_tree_cells=WHOLE_TREE_PLIES)
    examples = ("3,4,5", "1,2", "3,4,5 3:2")

    # -- games and positions --------------------------------------------------------------
    def make(self, params: GameParams) -> NimGame:
        """Nim from the classic heaps ``3,4,5``; raises :class:`ParameterError` for a size
        or a ``k``, which Nim does not take (the heaps come with the position)."""
        if params.size is not None:
            raise ParameterError(
                f"size {params.size[0]}x{params.size[1]}: nim takes no board size; give the "
                "heaps as the position, such as 3,4,5"
            )
        if params.k is not None:
            raise ParameterError(f"k={params.k}: nim takes no k")
        return game(DEFAULT_START)

    def load(self, text: str, params: GameParams) -> Loaded:
        """The position of ``3,4,5 2:3 ...``: Nim from those heaps after those moves.

        Raises :class:`~perfectplay.errors.NotationError` for text that does not parse,
        :class:`ParameterError` for heaps out of the limits (or a size or ``k``), and
        :class:`~perfectplay.errors.IllegalMoveError` for a move that cannot be played; a
        move's error names its number.
        """
        self.make(params)  # refuses a size or a k
        spec, tokens = split_position(text)
        loaded_game = NimGame(spec)
        position, moves = self.parse_moves(loaded_game, " ".join(tokens))
        return Loaded(loaded_game, position, tuple(moves))

    def position_text(self, loaded: Loaded) -> str:
        """The starting heaps and the moves played (``3,4,5 2:3``), which :meth:`load` reads
        back to the same position; only the current heaps when the moves are unknown."""
        if loaded.moves is None:
            return str(loaded.position)
        return format_position(_nim(loaded.game).spec, loaded.moves)

    def parse_move(self, game: Any, position: Any, text: str) -> NimMove:
        """``2:3`` or ``2-3``: heap 2 (from 1), take 3; see
        :func:`nim_game.notation.parse_move`."""
        return parse_move(text)

    def move_text(self, game: Any, move: NimMove) -> str:
        """``2:3``."""
        return move.label

    def move_from_json(self, game: Any, data: JSONValue) -> NimMove:
        """``{"heap": 2, "take": 3}``, the heap from 1."""
        return move_from_json(data)

    # -- text -----------------------------------------------------------------------------
    def render(self, game: Any, position: Any, color: bool = False) -> str:
        """One line a heap: its number, its objects as bars and its size."""
        heaps: tuple[int, ...] = position.heaps
        width = max(heaps, default=0)
        return "\n".join(
            f"heap {number}  {'|' * size:<{width}}  {size}"
            for number, size in enumerate(heaps, start=1)
        )

    def notes(self, game: Any, position: Any) -> list[str]:
        """The objects left."""
        return [f"objects left: {sum(position.heaps)}"]

    def move_entry(self, game: Any) -> str:
        """A heap and a number."""
        return "a move such as 2:3 (heap 2, take 3)"

    def move_help(self, game: Any) -> str:
        """Heaps from 1; who wins."""
        return (
            "moves: a heap number from 1 and how many objects to take from it, such as 2:3 "
            "or 2-3 (heap 2, take 3); whoever takes the last object wins"
        )


def _nim(found: Any) -> NimGame:
    """``found`` as a :class:`NimGame`; raises :class:`ParameterError` for another game."""
    if not isinstance(found, NimGame):
        raise ParameterError(f"nim: {found!r} is not a game of nim")
    return found


__all__ = ["KIT", "NimKit", "NimPosition"]

KIT = NimKit()
"""The kit the entry point names."""
