"""Normal-play Nim: the rules, as a :class:`perfectplay.games.protocol.Game`.

A position is a row of heaps of objects. A move takes one or more objects from one heap; the
player who takes the last object wins (normal play), so a position whose heaps are all empty
is lost for the side to move. Player 1 moves first.

A game is Nim from one starting row of heaps, its ``spec`` (at most :data:`MAX_HEAPS` heaps
of at most :data:`MAX_HEAP` objects; ``3,4,5`` by default). Positions are immutable values:
the heaps and the number of moves played since the start, which says whose turn it is.

Nim is impartial: both sides have the same moves, so the value of a position for the side to
move depends on its heaps alone, and :meth:`NimGame.key` is the heaps (positions with the
same heaps share table entries whoever is to move). Bouton's theorem (the side to move loses
exactly when the xor of the heaps, the nim-sum, is 0) only orders the moves and gives the
heuristic; the exact values come from the search, like those of every other game.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import reduce
from operator import xor
from typing import Any, NamedTuple

from perfectplay.errors import GameOverError, IllegalMoveError, ParameterError, quote
from perfectplay.games.protocol import BaseGame, Outcome, Player

MAX_HEAPS = 8
"""Most heaps a game may have."""
MAX_HEAP = 15
"""Most objects a heap may hold."""
DEFAULT_START = (3, 4, 5)
"""The classic starting heaps."""
HEURISTIC = 1.0
"""The size of :meth:`NimGame.evaluate`'s values: far inside the heuristic range."""


class NimMove(NamedTuple):
    """Take ``take`` objects (at least 1) from heap ``heap`` (0-based)."""

    heap: int
    take: int

    @property
    def label(self) -> str:
        """``2:3``: the heap from 1 and the objects taken, as people type it."""
        return f"{self.heap + 1}:{self.take}"


@dataclass(frozen=True, slots=True)
class NimSpec:
    """The starting heaps of a game. Construct through :func:`make_spec` for validation."""

    start: tuple[int, ...]

    @property
    def label(self) -> str:
        """``3,4,5``."""
        return ",".join(str(heap) for heap in self.start)

    @property
    def objects(self) -> int:
        """Objects at the start: the most moves a game can last."""
        return sum(self.start)


def make_spec(start: tuple[int, ...] = DEFAULT_START) -> NimSpec:
    """A checked spec.

    Raises :class:`ParameterError` naming the heaps for no heap or more than
    :data:`MAX_HEAPS`, and naming the heap for a size that is not a whole number from 0 to
    :data:`MAX_HEAP`.
    """
    label = ",".join(str(heap) for heap in start)
    if not 1 <= len(start) <= MAX_HEAPS:
        raise ParameterError(
            f"heaps {label!r}: {len(start)} heaps; a game has from 1 to {MAX_HEAPS}"
        )
    for number, heap in enumerate(start, start=1):
        if isinstance(heap, bool) or not isinstance(heap, int) or not 0 <= heap <= MAX_HEAP:
            raise ParameterError(
                f"heaps {label!r}: heap {number} is {heap!r}; a heap holds a whole number "
                f"of objects from 0 to {MAX_HEAP}"
            )
    return NimSpec(tuple(start))


@dataclass(frozen=True, slots=True)
class NimPosition:
    """The heaps and the moves played since the start (whose parity gives the side to move).

    Make positions with :class:`NimGame` (``initial`` and ``play``), which keeps them valid.
    """

    heaps: tuple[int, ...]
    plies: int = 0

    def __str__(self) -> str:
        return ",".join(str(heap) for heap in self.heaps)


def nim_sum(heaps: tuple[int, ...]) -> int:
    """The xor of the heaps (0: the side to move loses against perfect play)."""
    return reduce(xor, heaps, 0)


class NimGame(BaseGame[NimPosition, NimMove]):
    """Normal-play Nim from the heaps of ``spec``."""

    name = "nim"

    def __init__(self, spec: NimSpec) -> None:
        self._spec = spec

    def __repr__(self) -> str:
        return f"NimGame({self._spec.label})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NimGame) and other._spec == self._spec

    def __hash__(self) -> int:
        return hash(("nim", self._spec))

    @property
    def spec(self) -> NimSpec:
        """The starting heaps."""
        return self._spec

    # -- protocol ------------------------------------------------------------------------
    def initial(self) -> NimPosition:
        """The starting heaps, no move played."""
        return NimPosition(self._spec.start)

    def to_move(self, position: NimPosition) -> Player:
        """Player 1 after an even number of moves, else player 2."""
        return Player.FIRST if position.plies % 2 == 0 else Player.SECOND

    def ply(self, position: NimPosition) -> int:
        """Moves played since the starting heaps."""
        return position.plies

    def plies_left_bound(self, position: NimPosition) -> int:
        """The objects left: every move takes at least one."""
        return sum(position.heaps)

    def legal_moves(self, position: NimPosition) -> tuple[NimMove, ...]:
        """Every ``(heap, take)`` with ``1 <= take <= heap``, by heap then by ``take``;
        none once every heap is empty."""
        return tuple(
            NimMove(heap, take)
            for heap, size in enumerate(position.heaps)
            for take in range(1, size + 1)
        )

    def ordered_moves(self, position: NimPosition) -> tuple[NimMove, ...]:
        """The legal moves, those leaving a nim-sum of 0 first (they win), then the others
        taking the fewest objects first (the slowest way to lose)."""
        total = nim_sum(position.heaps)
        winning = tuple(
            NimMove(heap, size - (size ^ total))
            for heap, size in enumerate(position.heaps)
            if total and size ^ total < size
        )
        rest = sorted(
            (move for move in self.legal_moves(position) if move not in winning),
            key=lambda move: (move.take, move.heap),
        )
        return (*winning, *rest)

    def play(self, position: NimPosition, move: Any) -> NimPosition:
        """The position after taking ``move.take`` objects from heap ``move.heap``.

        Raises :class:`GameOverError` once every heap is empty and :class:`IllegalMoveError`
        for something that is not a ``(heap, take)`` pair of whole numbers, a heap that does
        not exist, or a ``take`` that is not from 1 to the heap's size.
        """
        heap, take = self._checked_move(move)
        label = f"{quote(heap + 1)}:{quote(take)}"  # a JSON move may hold a huge number
        if not any(position.heaps):
            raise GameOverError(f"move {label}: the game is already over (no objects left)")
        heaps = position.heaps
        if not 0 <= heap < len(heaps):
            raise IllegalMoveError(
                f"move {label}: no heap {quote(heap + 1)}; the heaps are numbered 1 to {len(heaps)}"
            )
        if not 1 <= take <= heaps[heap]:
            raise IllegalMoveError(
                f"move {label}: heap {heap + 1} holds {heaps[heap]}; take from 1 to "
                f"{heaps[heap]} objects"
            )
        after = (*heaps[:heap], heaps[heap] - take, *heaps[heap + 1 :])
        return NimPosition(after, position.plies + 1)

    @staticmethod
    def _checked_move(move: Any) -> tuple[int, int]:
        """``move`` as a pair of whole numbers; raises :class:`IllegalMoveError`."""
        try:
            heap, take = move
        except (TypeError, ValueError):
            raise IllegalMoveError(f"move {move!r}: a move is (heap, take)") from None
        for value in (heap, take):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMoveError(f"move {move!r}: heap and take are whole numbers")
        return heap, take

    def outcome(self, position: NimPosition) -> Outcome | None:
        """``None`` while objects are left; then a win for the player who moved last (who
        took the last object), even at the start (whose mover is said to be player 2)."""
        if any(position.heaps):
            return None
        winner = self.to_move(position).other
        return Outcome(winner, f"no objects left: player {int(winner)} took the last one")

    def key(self, position: NimPosition) -> Hashable:
        """The heaps (the side to move is left out: see the module docstring)."""
        return position.heaps

    def evaluate(self, position: NimPosition) -> float:
        """A heuristic for the side to move: +1 when the nim-sum is not 0, else -1.

        It is Bouton's criterion, yet it stays a heuristic (the search reports it as one, far
        inside the heuristic range); exact values come only from searching to the end.
        """
        return HEURISTIC if nim_sum(position.heaps) else -HEURISTIC

    def move_to_json(self, move: NimMove) -> dict[str, Any]:
        """``{"heap": h, "take": t}`` with the heap from 1, as people count it."""
        return {"heap": move.heap + 1, "take": move.take}

    def format_move(self, move: NimMove) -> str:
        """``take 3 from heap 2`` (the heap from 1)."""
        return f"take {move.take} from heap {move.heap + 1}"


def game(start: tuple[int, ...] = DEFAULT_START) -> NimGame:
    """Nim from the heaps ``start``; see :func:`make_spec` for the checks."""
    return NimGame(make_spec(start))
