"""Nim written as a plain perfectplay game: take objects from one heap; taking the last wins.

A position is ``(heaps, player)``: the heap sizes and the player to move (1 or 2), both
needed by ``result`` to name the winner. A move is ``(heap, take)``, the heap counted from 1,
written ``2-3`` (heap 2, take 3) on the command line and in the web's move list. Positions
are move lists from the start (``1-2 3-5``) or, through ``parse``, heaps (``1,2,3`` with
player 1 to move, ``1,2,3/2`` with player 2).
"""

from __future__ import annotations

from functools import reduce
from operator import xor

Heaps = tuple[int, ...]
Position = tuple[Heaps, int]
Move = tuple[int, int]


class Nim:
    """Nim: take one or more objects from one heap; whoever takes the last object wins."""

    title = "Plain Nim"

    def __init__(self, heaps: Heaps = (3, 4, 5)) -> None:
        self.heaps = tuple(heaps)

    def start(self) -> Position:
        return self.heaps, 1

    def moves(self, position: Position) -> list[Move]:
        heaps, _ = position
        return [(h + 1, take) for h, size in enumerate(heaps) for take in range(1, size + 1)]

    def play(self, position: Position, move: Move) -> Position:
        (heaps, player), (heap, take) = position, move
        after = tuple(size - take if h == heap - 1 else size for h, size in enumerate(heaps))
        return after, 3 - player

    def result(self, position: Position) -> int | None:
        heaps, player = position
        # No objects left: the player who moved last took the last one and won.
        return None if any(heaps) else 3 - player

    def parse(self, text: str) -> Position:
        # Heaps such as "3,4,5" (player 1 to move) or "3,4,5/2" (player 2); a ValueError
        # tells perfectplay that the text is no position.
        heaps_text, _, player = text.strip().partition("/")
        heaps = tuple(int(size) for size in heaps_text.split(","))
        if not 1 <= len(heaps) <= 8 or not all(0 <= size <= 15 for size in heaps):
            raise ValueError("write 1 to 8 heaps of 0 to 15 objects, such as 3,4,5")
        if player not in ("", "1", "2"):
            raise ValueError("the player to move, after '/', is 1 or 2")
        return heaps, int(player or 1)

    def player(self, position: Position) -> int:
        return position[1]

    def format(self, position: Position) -> str:
        heaps, player = position
        return ",".join(map(str, heaps)) + ("/2" if player == 2 else "")

    def heuristic(self, position: Position) -> float:
        # Bouton: the side to move wins exactly when the xor of the heaps is not 0.
        heaps, player = position
        good_for_mover = 1.0 if reduce(xor, heaps, 0) else -1.0
        return good_for_mover if player == 1 else -good_for_mover

    def __str__(self) -> str:
        return "Nim"
