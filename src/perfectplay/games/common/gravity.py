"""Bitboards of games where pieces fall down columns (Connect Four and its variants).

Layout (Pascal Pons' solver's): one column after another, ``height + 1`` bits per column,
bit 0 of a column at the bottom, the top bit of every column always empty so that lines
cannot wrap from one column into the next::

    7 wide x 6 high:                     bit index = column * (height + 1) + row
      .  .  .  .  .  .  .     <- sentinel row, always 0
      5 12 19 26 33 40 47     row 5 (top)
      4 11 18 25 32 39 46
      3 10 17 24 31 38 45
      2  9 16 23 30 37 44
      1  8 15 22 29 36 43
      0  7 14 21 28 35 42     row 0 (bottom)

A line of ``k`` is found with shifts: along a direction of step ``d`` (1 up, ``height + 1``
across, ``height`` and ``height + 2`` the diagonals), ``b & (b >> d) & (b >> 2d) ...`` is
non-zero exactly when ``b`` has ``k`` aligned pieces. The piece a move drops into column ``c``
is ``(mask + bottom_of(c)) & column_mask(c)``: the carry of the addition lands on the lowest
empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from perfectplay.games.common.grid import bit_indices


@dataclass(frozen=True)
class GravityLayout:
    """The masks of a ``width`` x ``height`` board in the layout above, lines of ``k``."""

    width: int
    height: int
    k: int

    @property
    def stride(self) -> int:
        """Bits per column (the column plus its sentinel bit)."""
        return self.height + 1

    @property
    def cells(self) -> int:
        """Cells on the board."""
        return self.width * self.height

    @property
    def bottom(self) -> int:
        """The bottom cell of every column."""
        return sum(1 << (c * self.stride) for c in range(self.width))

    @property
    def board(self) -> int:
        """Every cell of the board (no sentinel bits)."""
        return self.bottom * ((1 << self.height) - 1)

    def column_mask(self, column: int) -> int:
        """The cells of ``column``."""
        return ((1 << self.height) - 1) << (column * self.stride)

    def top_cell(self, column: int) -> int:
        """The top cell of ``column`` (set in ``mask`` exactly when the column is full)."""
        return 1 << (self.height - 1 + column * self.stride)

    def drop(self, mask: int, column: int) -> int:
        """The cell a piece dropped into the non-full ``column`` lands on."""
        return (mask + (1 << (column * self.stride))) & self.column_mask(column)

    def cell_of(self, bit: int) -> tuple[int, int]:
        """``(column, row)`` of a bit index, both 0-based, row 0 at the bottom."""
        return divmod(bit, self.stride)

    def display_cell(self, cell: tuple[int, int]) -> tuple[int, int]:
        """A ``(column, row)`` cell (row 0 at the bottom) as people see it drawn: ``(row,
        column)`` with the top row 0."""
        column, row = cell
        return self.height - 1 - int(row), int(column)

    def bit_of(self, column: int, row: int) -> int:
        """The bit index of ``(column, row)``, row 0 at the bottom."""
        return column * self.stride + row

    @cached_property
    def steps(self) -> tuple[int, ...]:
        """Bit steps of the four directions: up, across and the two diagonals."""
        stride = self.stride
        return (1, stride, stride - 1, stride + 1)

    def line_through(self, pieces: int, piece: int) -> int:
        """The pieces of a ``k``-line of ``pieces`` that contains the single bit ``piece``,
        or 0 when there is none."""
        for step in self.steps:
            # Grow the run through ``piece`` one cell both ways per round, along the direction.
            run = piece
            for _ in range(self.k - 1):
                grown = run | (((run << step) | (run >> step)) & pieces)
                if grown == run:
                    break
                run = grown
            if run.bit_count() >= self.k:
                return run
        return 0

    def lines(self, pieces: int) -> int:
        """Every piece of ``pieces`` that lies on a ``k``-line (0 when none)."""
        found = 0
        k = self.k
        for step in self.steps:
            starts = pieces
            for i in range(1, k):
                starts &= pieces >> (i * step)
            for i in range(k):
                found |= starts << (i * step)
        return found

    def floating(self, mask: int) -> int:
        """Cells of ``mask`` that are empty while the cell above is filled (gravity broken)."""
        return (mask >> 1) & ~mask & self.board

    def tops(self, mask: int) -> int:
        """The topmost piece of every non-empty column of ``mask``."""
        return mask & ~(mask >> 1)

    def mirror(self, bits: int) -> int:
        """``bits`` reflected left to right."""
        stride, width = self.stride, self.width
        column = (1 << stride) - 1
        out = 0
        for c in range(width):
            out |= ((bits >> (c * stride)) & column) << ((width - 1 - c) * stride)
        return out

    @cached_property
    def windows(self) -> tuple[int, ...]:
        """Every set of ``k`` aligned cells (across, up and both diagonals)."""
        found = []
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for c in range(self.width):
                for r in range(self.height):
                    end_c, end_r = c + dc * (self.k - 1), r + dr * (self.k - 1)
                    if 0 <= end_c < self.width and 0 <= end_r < self.height:
                        cells = (self.bit_of(c + dc * i, r + dr * i) for i in range(self.k))
                        found.append(sum(1 << bit for bit in cells))
        return tuple(found)

    def centre_first(self) -> tuple[int, ...]:
        """Columns ordered from the centre outwards (left first on ties)."""
        centre = (self.width - 1) / 2
        return tuple(sorted(range(self.width), key=lambda c: (abs(c - centre), c)))

    def cells_of(self, bits: int) -> tuple[tuple[int, int], ...]:
        """``(column, row)`` of every set bit, lowest bit first."""
        return tuple(self.cell_of(bit) for bit in bit_indices(bits))
