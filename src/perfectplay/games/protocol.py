"""The game protocol: what every game offers to search, analysis and the interfaces.

A game object is a cheap, immutable description of one ruleset with its static facts in
``game.spec`` (a frozen dataclass: board size, k, gravity, quotas...). Positions are immutable,
hashable values created by the game; ``play`` returns a new position and never mutates.
Outcomes are values: ``outcome(position)`` is ``None`` while the game runs and an
:class:`Outcome` once it has ended.

Search code only needs :class:`Game`. A compiled kernel, a heuristic and the conventional
score scale and the symmetry group are hooks with a sensible default in :class:`BaseGame`
(no kernel, a weak score, no symmetry). What the front doors need beyond
the rules (notation, drawing, policy) is in the game's kit (:mod:`perfectplay.games.kit`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from perfectplay.games.kernel import DEFAULT_KERNEL_OPTIONS, KernelOptions

if TYPE_CHECKING:
    from perfectplay.games.kernel import CompiledEngine, Kernel, OpeningBooks

P = TypeVar("P")
M = TypeVar("M")


class Player(IntEnum):
    """The two sides; ``FIRST`` moves first in every game."""

    FIRST = 1
    SECOND = 2

    @property
    def other(self) -> Player:
        """The opponent of this player."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is ``None`` for a draw. ``reason`` is a short human sentence
    ("x has 3 in a row", "the board is full"). ``line`` lists the cells (in the game's own
    move notation, e.g. ``(row, col)`` pairs) that decided the game, empty for a draw.
    """

    winner: Player | None
    reason: str
    line: tuple[Any, ...] = ()

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None


class Game(Protocol[P, M]):
    """What search and analysis rely on. Every method is pure."""

    name: str

    @property
    def spec(self) -> Any:
        """The frozen static facts of this ruleset."""
        ...

    def initial(self) -> P:
        """The position before the first move."""
        ...

    def to_move(self, position: P) -> Player:
        """The side to move (also defined for finished positions: who would move next)."""
        ...

    def legal_moves(self, position: P) -> Sequence[M]:
        """Legal moves in a fixed, deterministic order; empty once the game has ended."""
        ...

    def play(self, position: P, move: M) -> P:
        """The position after ``move``.

        Raises :class:`~perfectplay.errors.GameOverError` on a finished position and
        :class:`~perfectplay.errors.IllegalMoveError` for a move that is not legal.
        """
        ...

    def outcome(self, position: P) -> Outcome | None:
        """``None`` while the game runs, else how it ended."""
        ...

    def key(self, position: P) -> Hashable:
        """A compact hashable key identifying the position (used by tables)."""
        ...

    def canonical_key(self, position: P) -> Hashable:
        """A key shared by all positions equivalent under the game's symmetries."""
        ...

    def ply(self, position: P) -> int:
        """Moves played since the initial position."""
        ...

    def plies_left_bound(self, position: P) -> int:
        """An upper bound on the moves still to come; search to this depth is exact."""
        ...

    def evaluate(self, position: P) -> float:
        """Heuristic value for the side to move, strictly inside (-1e5, 1e5)."""
        ...

    def ordered_moves(self, position: P) -> Sequence[M]:
        """Legal moves in the order search should try them (most promising first)."""
        ...

    def move_to_json(self, move: M) -> dict[str, Any]:
        """The JSON object for a move in the CLI/web contract."""
        ...

    def format_move(self, move: M) -> str:
        """A short human-readable form of a move."""
        ...

    def player_name(self, player: Player) -> str:
        """How the game names a side ("x"/"o", "1"/"2")."""
        ...

    def canonical_form(self, position: P) -> tuple[Hashable, int]:
        """The key shared by the position's symmetric images and the number of the symmetry
        that maps ``position`` onto it (``(key, 0)`` for a game without symmetries)."""
        ...

    def map_move(self, move: M, symmetry: int) -> M:
        """Where ``move`` lands under symmetry number ``symmetry``."""
        ...

    def unmap_move(self, move: M, symmetry: int) -> M:
        """The inverse of :meth:`map_move`."""
        ...

    def kernel(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> Kernel[P, M] | None:
        """A fresh compiled kernel with ``options``, or ``None`` (the generic search runs)."""
        ...

    def compiled_engine(self) -> CompiledEngine | None:
        """The compiled engine :meth:`kernel` searches with, declared without loading it, or
        ``None`` for a game without one."""
        ...

    def books(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> OpeningBooks[P] | None:
        """The exact values the game knows without a search under ``options`` (its opening
        books), read without loading compiled code, or ``None``."""
        ...

    def conventional_score(self, position: P, win: bool, plies: int) -> int:
        """The game's own score of a win (``win``) or loss ``plies`` plies away."""
        ...

    def finished_score(self, position: P) -> int:
        """The game's own score of a finished position for the side that would move."""
        ...


class BaseGame(Generic[P, M]):
    """Default hooks; concrete games override what they can do better."""

    name: str = ""

    def canonical_key(self, position: P) -> Hashable:
        """No symmetry by default: the plain key."""
        return self.key(position)  # type: ignore[attr-defined, no-any-return]

    def canonical_form(self, position: P) -> tuple[Hashable, int]:
        """No symmetry by default: the plain key and the identity (0)."""
        return self.key(position), 0  # type: ignore[attr-defined]

    def map_move(self, move: M, symmetry: int) -> M:
        """The identity by default."""
        return move

    def unmap_move(self, move: M, symmetry: int) -> M:
        """The identity by default."""
        return move

    def evaluate(self, position: P) -> float:
        """No knowledge by default: every unfinished position looks even."""
        return 0.0

    def ordered_moves(self, position: P) -> Sequence[M]:
        """The legal order by default."""
        return self.legal_moves(position)  # type: ignore[attr-defined, no-any-return]

    def player_name(self, player: Player) -> str:
        """Players are "1" and "2" by default."""
        return str(int(player))

    def kernel(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> Kernel[P, M] | None:
        """No compiled kernel by default."""
        return None

    def compiled_engine(self) -> CompiledEngine | None:
        """No compiled engine by default."""
        return None

    def books(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> OpeningBooks[P] | None:
        """No opening books by default."""
        return None

    def conventional_score(self, position: P, win: bool, plies: int) -> int:
        """By default a weak score: 1 for a win, -1 for a loss."""
        return 1 if win else -1

    def finished_score(self, position: P) -> int:
        """By default -1 when the side that would move has lost, else 0."""
        outcome = self.outcome(position)  # type: ignore[attr-defined]
        if outcome is None or outcome.winner is None:
            return 0
        return 1 if outcome.winner == self.to_move(position) else -1  # type: ignore[attr-defined]
