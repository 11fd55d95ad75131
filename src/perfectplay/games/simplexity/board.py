"""Static facts of the shape-and-color game: shapes, colours, moves, the board spec and the
immutable position (see :mod:`perfectplay.games.simplexity.rules` for the rules and the bit
layout). The compiled kernel and the rules both build on these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from perfectplay.errors import ParameterError, quote
from perfectplay.games.protocol import Player

SHAPES = ("O", "X")
"""Shape names; index 0 belongs to player 1 (red), index 1 to player 2 (blue)."""


COLORS = ("red", "blue")


K = 4


MAX_BITS = 64


EVALUATIONS = ("windows", "neighbors")
"""Names of the heuristic evaluations; the first is the default."""


class SimplexityMove(NamedTuple):
    """A move: the 0-based ``column`` and the ``shape`` (``"O"`` or ``"X"``) of the piece."""

    column: int
    shape: str

    def __str__(self) -> str:
        return f"{self.column + 1}{self.shape}"


@dataclass(frozen=True, slots=True)
class SimplexitySpec:
    """Static facts of a board: ``rows`` x ``cols``, lines of 4, the quotas."""

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        """Cells on the board (even)."""
        return self.rows * self.cols

    @property
    def own_quota(self) -> int:
        """Pieces of its own shape each player has: ``ceil(half / 2)``."""
        return (self.cells // 2 + 1) // 2

    @property
    def other_quota(self) -> int:
        """Pieces of the opponent's shape each player has: ``floor(half / 2)``."""
        return self.cells // 4

    @property
    def label(self) -> str:
        """``WIDTHxHEIGHT`` (columns x rows) as ``--size`` reads it: ``7x6``."""
        return f"{self.cols}x{self.rows}"

    def quota(self, player: Player, shape: str) -> int:
        """The pieces of ``shape`` that ``player`` starts with."""
        own = SHAPES[player - 1]
        return self.own_quota if shape == own else self.other_quota


def make_spec(rows: int = 6, cols: int = 7) -> SimplexitySpec:
    """A checked spec: sides from 1, ``rows * cols`` even, ``cols * (rows + 1) <= 64``.

    Raises :class:`ParameterError` naming the bad value.
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParameterError(f"{name}={quote(value)}: must be a whole number")
        if value < 1:
            raise ParameterError(f"{name}={value}: must be at least 1")
    if (rows * cols) % 2:
        raise ParameterError(
            f"size {cols}x{rows}: columns x rows must be even (each player gets half the pieces)"
        )
    if cols * (rows + 1) > MAX_BITS:
        raise ParameterError(
            f"size {cols}x{rows}: too large, columns * (rows + 1) = {cols * (rows + 1)} must "
            f"be at most {MAX_BITS}"
        )
    return SimplexitySpec(rows, cols)


@dataclass(frozen=True, slots=True)
class SimplexityPosition:
    """An immutable position: the spec and the ``red``, ``blue`` and ``circles`` bitboards.

    ``win_mask`` (the deciding four, 0 while nobody has one) is derived and ignored by
    equality and hashing. Make positions with :class:`SimplexityGame`.
    """

    spec: SimplexitySpec
    red: int
    blue: int
    circles: int
    win_mask: int = field(default=0, compare=False)

    @property
    def mask(self) -> int:
        """All pieces."""
        return self.red | self.blue

    @property
    def crosses(self) -> int:
        """The pieces of shape ``X``."""
        return (self.red | self.blue) & ~self.circles

    @property
    def plies(self) -> int:
        """Pieces on the board."""
        return (self.red | self.blue).bit_count()

    def pieces(self, player: Player, shape: str) -> int:
        """The bitboard of ``player``'s pieces of ``shape``."""
        color = self.red if player is Player.FIRST else self.blue
        return color & (self.circles if shape == "O" else ~self.circles)

    def __str__(self) -> str:
        from perfectplay.games.simplexity.text import render_simplexity_board

        return render_simplexity_board(self)

    def _repr_svg_(self) -> str:
        """The board as a picture, for notebooks (Jupyter shows it in place of the text)."""
        from perfectplay.games.simplexity.text import simplexity_svg

        return simplexity_svg(self)
