"""m,n,k-games: tic-tac-toe and its generalisations (``rows`` x ``cols`` board, ``k`` in a row).

x moves first; a side wins by owning ``k`` aligned cells (across, down or diagonal): ``k`` or
more (freestyle, the default), or exactly ``k`` under the exact rule (``MNKSpec.exactly``,
standard Gomoku: an overline does not win); a full board without a line is a draw. Board
sizes run from 1x1 to 20x20 and ``k`` from 1 to ``max(rows, cols)``.

Representation: two bitboards, one per side, in the dense row-major layout of
:mod:`perfectplay.games.common.grid`::

    x = 0b000_010_101  and  o = 0b000_101_010  is   x o x     bit 0 is the top-left cell,
                                                    o x o     bit rows*cols-1 the bottom-right
                                                    . . .

Positions carry the mask of their winning window (0 when nobody has a line), computed once
when the position is made, so ``outcome`` is O(1) and ``play`` only inspects the windows
through the new stone.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    ParameterError,
    quote,
)
from perfectplay.games.common.grid import (
    BitPermutation,
    bit_indices,
    bit_permutations,
    centre_first_order,
    inverse,
    symmetries,
    windows,
    windows_by_cell,
)
from perfectplay.games.kernel import DEFAULT_KERNEL_OPTIONS, KernelOptions
from perfectplay.games.mnk.text import column_letters
from perfectplay.games.protocol import BaseGame, Outcome, Player
from perfectplay.values import HEURISTIC_LIMIT

if TYPE_CHECKING:
    from perfectplay.games.kernel import CompiledEngine
    from perfectplay.games.mnk.big_kernel import BigMNKKernel
    from perfectplay.games.mnk.kernel import MNKKernel

MAX_SIZE = 20
"""Largest number of rows or columns."""

ARTICLE_WIN = 10
"""The classic tic-tac-toe article's value of a win, from which its scores count down."""


class Cell(NamedTuple):
    """A move of an m,n,k-game: the 0-based row (top = 0) and column (left = 0)."""

    row: int
    col: int


@dataclass(frozen=True, slots=True)
class MNKSpec:
    """Static facts of an m,n,k-game. Construct through :func:`make_spec` for validation."""

    rows: int
    cols: int
    k: int
    exactly: bool = False
    """The exact rule (standard Gomoku): only exactly ``k`` in a row wins, an overline does not;
    by default (freestyle) ``k`` or more wins."""

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols

    @property
    def label(self) -> str:
        """Human label such as ``3x3, k=3`` (``15x15, k=5, exactly`` under the exact rule);
        the size is width x height, ``7x4`` for 7 columns and 4 rows."""
        rule = ", exactly" if self.exactly else ""
        return f"{self.size}, k={self.k}{rule}"

    @property
    def size(self) -> str:
        """``WIDTHxHEIGHT`` (columns x rows) as ``--size`` reads it: ``7x4``."""
        return f"{self.cols}x{self.rows}"


GOMOKU_K = 5
"""Gomoku's line length: the default ``k`` of boards :data:`GOMOKU_COLUMNS` wide or wider."""
GOMOKU_COLUMNS = 15
"""From this width on, boards are Gomoku boards (15x15 is Gomoku's, 19x19 Go's)."""


def default_k(rows: int, cols: int) -> int:
    """The ``k`` a board gets when none is given: five in a row from 15 columns on, as
    Gomoku players expect; otherwise the shorter side (3x3: 3, 4x4: 4)."""
    if cols >= GOMOKU_COLUMNS:
        return GOMOKU_K
    return min(rows, cols)


def make_spec(
    rows: int = 3, cols: int | None = None, k: int | None = None, exactly: bool = False
) -> MNKSpec:
    """A checked spec. ``cols`` defaults to ``rows`` and ``k`` to :func:`default_k`;
    ``exactly`` asks for the exact rule (an overline does not win).

    Raises :class:`ParameterError` for sizes outside 1..15 or k outside 1..max(rows, cols).
    """
    cols = rows if cols is None else cols
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIZE:
            raise ParameterError(
                f"size {quote(cols)}x{quote(rows)}: {name}={quote(value)} must be a whole "
                f"number from 1 to {MAX_SIZE}"
            )
    k = default_k(rows, cols) if k is None else k
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= max(rows, cols):
        raise ParameterError(
            f"k={quote(k)}: must be a whole number from 1 to {max(rows, cols)} on a {cols}x{rows} "
            "board"
        )
    return MNKSpec(rows, cols, k, exactly)


@dataclass(frozen=True, slots=True)
class MNKPosition:
    """An immutable m,n,k position: the spec and one bitboard per side.

    Make positions with :class:`MNKGame` (``initial``, ``play``, ``from_bits``) so that they are
    validated and ``win_mask`` is right; equality and hashing use the spec and the boards only.
    """

    spec: MNKSpec
    x: int
    o: int
    win_mask: int = field(default=0, compare=False)

    def __str__(self) -> str:
        from perfectplay.games.mnk.text import format_mnk_board

        return format_mnk_board(self)

    def _repr_svg_(self) -> str:
        """The board as a picture, for notebooks (Jupyter shows it in place of the text)."""
        from perfectplay.games.mnk.text import mnk_board_svg

        return mnk_board_svg(self)


class MNKGame(BaseGame[MNKPosition, Cell]):
    """The rules of one m,n,k-game."""

    name = "tictactoe"

    def __init__(self, spec: MNKSpec) -> None:
        self._spec = spec
        if spec.exactly:
            self.name = "gomoku"  # the exact rule is the Gomoku kit's game
        self._full = (1 << spec.cells) - 1
        self._windows = windows(spec.rows, spec.cols, spec.k)
        self._windows_by_cell = windows_by_cell(spec.rows, spec.cols, spec.k)
        self._flanked = flanked_windows(spec) if spec.exactly else ()
        self._order = centre_first_order(spec.rows, spec.cols)
        self._cells = tuple(Cell(*divmod(i, spec.cols)) for i in range(spec.cells))

    def __repr__(self) -> str:
        return f"MNKGame({self._spec.size}, k={self._spec.k})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MNKGame) and other._spec == self._spec

    def __hash__(self) -> int:
        return hash(("mnk", self._spec))

    @property
    def spec(self) -> MNKSpec:
        """The static facts of this game."""
        return self._spec

    # -- cells ---------------------------------------------------------------------------
    def cell(self, index: int) -> Cell:
        """The (row, col) of a bit index."""
        return self._cells[index]

    def index(self, move: Cell | tuple[int, int]) -> int:
        """The bit index of a (row, col); raises :class:`IllegalMoveError` off the board."""
        row, col = move
        if not (0 <= row < self._spec.rows and 0 <= col < self._spec.cols):
            raise IllegalMoveError(
                f"move (row {quote(row + 1)}, column {quote(col + 1)}): off the "
                f"{self._spec.size} board"
            )
        return row * self._spec.cols + col

    # -- protocol ------------------------------------------------------------------------
    def initial(self) -> MNKPosition:
        """The empty board."""
        return MNKPosition(self._spec, 0, 0)

    def to_move(self, position: MNKPosition) -> Player:
        """x (FIRST) when both sides have as many stones, else o (SECOND)."""
        return Player.FIRST if position.x.bit_count() == position.o.bit_count() else Player.SECOND

    def ply(self, position: MNKPosition) -> int:
        """Stones on the board."""
        return (position.x | position.o).bit_count()

    def plies_left_bound(self, position: MNKPosition) -> int:
        """Empty cells, or 0 once the game is over."""
        if position.win_mask:
            return 0
        return self._spec.cells - self.ply(position)

    def empty_mask(self, position: MNKPosition) -> int:
        """Mask of empty cells."""
        return self._full & ~(position.x | position.o)

    def legal_moves(self, position: MNKPosition) -> tuple[Cell, ...]:
        """Empty cells in row-major order; none once the game is over."""
        if position.win_mask:
            return ()
        return tuple(self._cells[i] for i in bit_indices(self.empty_mask(position)))

    def ordered_moves(self, position: MNKPosition) -> tuple[Cell, ...]:
        """Empty cells, centre first."""
        if position.win_mask:
            return ()
        empty = self.empty_mask(position)
        return tuple(self._cells[i] for i in self._order if empty >> i & 1)

    def play(self, position: MNKPosition, move: Cell | tuple[int, int]) -> MNKPosition:
        """Place the side to move's stone on ``move``.

        Raises :class:`GameOverError` after the end and :class:`IllegalMoveError` for an
        occupied or off-board cell.
        """
        if self.outcome(position) is not None:
            raise GameOverError(
                f"move {cell_words(move)}: the game is already over "
                f"({self.describe_outcome(position)})"
            )
        index = self.index(move)
        bit = 1 << index
        if (position.x | position.o) & bit:
            raise IllegalMoveError(f"move {cell_words(move)}: the cell is occupied")
        return self.play_index(position, index)

    def play_index(self, position: MNKPosition, index: int) -> MNKPosition:
        """Unchecked fast path of :meth:`play` for an empty cell of an unfinished position."""
        bit = 1 << index
        if position.x.bit_count() == position.o.bit_count():
            x, o = position.x | bit, position.o
            mine = x
        else:
            x, o = position.x, position.o | bit
            mine = o
        if self._spec.exactly:
            for window, flanks in self._flanked[index]:
                if mine & window == window and not mine & flanks:
                    return MNKPosition(self._spec, x, o, window)
            return MNKPosition(self._spec, x, o)
        for window in self._windows_by_cell[index]:
            if mine & window == window:
                return MNKPosition(self._spec, x, o, window)
        return MNKPosition(self._spec, x, o)

    def outcome(self, position: MNKPosition) -> Outcome | None:
        """Win for the owner of the line, draw on a full board, else ``None``."""
        if position.win_mask:
            winner = Player.FIRST if position.x & position.win_mask else Player.SECOND
            line = tuple(self._cells[i] for i in bit_indices(position.win_mask))
            name = self.player_name(winner)
            return Outcome(winner, f"{name} has {self._spec.k} in a row", line)
        if (position.x | position.o) == self._full:
            return Outcome(None, "the board is full")
        return None

    def describe_outcome(self, position: MNKPosition) -> str:
        """The outcome's reason, or "in progress"."""
        outcome = self.outcome(position)
        return "in progress" if outcome is None else outcome.reason

    def key(self, position: MNKPosition) -> Hashable:
        """``(x, o)`` bitboards."""
        return (position.x, position.o)

    def canonical_key(self, position: MNKPosition) -> Hashable:
        """The smallest ``(x, o)`` over the board's symmetries."""
        return min((p.apply(position.x), p.apply(position.o)) for p in self._permutations)

    def canonical_form(self, position: MNKPosition) -> tuple[tuple[int, int], int]:
        """The canonical key and the index of the symmetry that maps the position onto it."""
        return min(
            ((p.apply(position.x), p.apply(position.o)), i)
            for i, p in enumerate(self._permutations)
        )

    def map_move(self, move: Cell, symmetry: int) -> Cell:
        """Where ``move`` lands under symmetry number ``symmetry`` (see :meth:`canonical_form`)."""
        return self._cells[self._perms[symmetry][move[0] * self._spec.cols + move[1]]]

    def unmap_move(self, move: Cell, symmetry: int) -> Cell:
        """The inverse of :meth:`map_move`."""
        return self._cells[self._inverse_perms[symmetry][move[0] * self._spec.cols + move[1]]]

    @cached_property
    def _permutations(self) -> tuple[BitPermutation, ...]:
        return bit_permutations(self._spec.rows, self._spec.cols)

    @cached_property
    def _perms(self) -> tuple[tuple[int, ...], ...]:
        return symmetries(self._spec.rows, self._spec.cols)

    @cached_property
    def _inverse_perms(self) -> tuple[tuple[int, ...], ...]:
        return tuple(inverse(p) for p in self._perms)

    def evaluate(self, position: MNKPosition) -> float:
        """Open windows weighted by how full they are, side to move minus opponent.

        A window counts for a side when the opponent has no stone in it; a window holding
        ``n`` stones is worth ``4**n``. The result is clamped inside the heuristic range.
        """
        x_score = o_score = 0
        x, o = position.x, position.o
        for window in self._windows:
            xs, os_ = x & window, o & window
            if xs and not os_:
                x_score += 4 ** xs.bit_count()
            elif os_ and not xs:
                o_score += 4 ** os_.bit_count()
        value = float(x_score - o_score)
        if self.to_move(position) is Player.SECOND:
            value = -value
        return float(max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value)))

    def kernel(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> MNKKernel | BigMNKKernel:
        """A compiled search kernel for this board: the one-word kernel up to 64 cells, the
        line-indexed big-board kernel beyond (and for the exact rule)."""
        from perfectplay.games.mnk.big_kernel import BigMNKKernel
        from perfectplay.games.mnk.kernel import MNKKernel, supports

        if supports(self._spec):
            return MNKKernel(self, options)
        return BigMNKKernel(self, options)

    def compiled_engine(self) -> CompiledEngine:
        """The engine :meth:`kernel` searches this board with: the one-word kernel's up to 64
        cells, the big-board kernel's beyond (and for the exact rule)."""
        from perfectplay.games.mnk import big_kernel
        from perfectplay.games.mnk.kernel import ENGINE, supports

        return ENGINE if supports(self._spec) else big_kernel.ENGINE

    def conventional_score(self, position: MNKPosition, win: bool, plies: int) -> int:
        """The classic article's score of a win (``10 - (plies - 1)``) or loss (its negative)."""
        value = ARTICLE_WIN - (plies - 1)
        return value if win else -value

    def finished_score(self, position: MNKPosition) -> int:
        """The article's ``evaluate`` of a finished board for the side to move: -10 or 0."""
        return -ARTICLE_WIN if position.win_mask else 0

    def move_to_json(self, move: Cell) -> dict[str, Any]:
        """``{"row": r, "col": c}``, counted from 1 as a person counts (``c3`` is
        ``{"row": 3, "col": 3}``); the cell itself is 0-based."""
        return {"row": move[0] + 1, "col": move[1] + 1}

    def format_move(self, move: Cell) -> str:
        """``c3``: the column's letter and the row from 1, as moves are typed."""
        return f"{column_letters(move[1] + 1)[-1]}{move[0] + 1}"

    def player_name(self, player: Player) -> str:
        """ "x" or "o"."""
        return "x" if player is Player.FIRST else "o"

    # -- construction from a board --------------------------------------------------------
    def from_bits(self, x: int, o: int) -> MNKPosition:
        """A validated position from two bitboards.

        Raises :class:`IllegalPositionError` when no legal game from the empty board reaches it:
        overlapping stones, impossible counts (x must equal o or o + 1), both sides with a
        line, a winner who did not move last, or a won board whose winner could not have
        completed the line with a last move (e.g. two disjoint lines).
        """
        if x & o:
            raise IllegalPositionError("a cell holds both x and o")
        if (x | o) & ~self._full:
            raise IllegalPositionError("stones lie outside the board")
        nx, no = x.bit_count(), o.bit_count()
        if not (nx == no or nx == no + 1):
            raise IllegalPositionError(
                f"impossible piece counts: x has {nx} and o has {no}; x moves first, so x must "
                "have as many stones as o or one more"
            )
        x_line, o_line = self._lines(x), self._lines(o)
        if x_line and o_line:
            raise IllegalPositionError("both x and o have a line; the game ends at the first line")
        for name, lines, moved_last in (("x", x_line, nx == no + 1), ("o", o_line, nx == no)):
            if lines and not moved_last:
                raise IllegalPositionError(
                    f"{name} has a line but did not move last; the game ends at the first line"
                )
        winner_bits, winner_lines = (x, x_line) if x_line else (o, o_line)
        if winner_lines and not any(
            not self._lines(winner_bits & ~(1 << i)) for i in bit_indices(winner_bits)
        ):
            raise IllegalPositionError(
                "no legal game reaches this board: no single last stone completes every line "
                "of the winner (the game would have ended earlier)"
            )
        return MNKPosition(self._spec, x, o, winner_lines[0] if winner_lines else 0)

    def _lines(self, bits: int) -> list[int]:
        if self._spec.exactly:
            found = {
                w
                for per_cell in self._flanked
                for w, f in per_cell
                if bits & w == w and not bits & f
            }
            return sorted(found)
        return [w for w in self._windows if bits & w == w]


def game(
    rows: int = 3, cols: int | None = None, k: int | None = None, exactly: bool = False
) -> MNKGame:
    """The m,n,k-game with the given size and rule; see :func:`make_spec` for defaults and
    errors."""
    return MNKGame(make_spec(rows, cols, k, exactly))


def flanked_windows(spec: MNKSpec) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the windows of ``k`` cells through it as ``(window, flanks)`` masks:
    ``flanks`` are the cells just beyond both ends (those on the board). Under the exact rule
    a window wins only when the side owns it and neither flank."""
    rows, cols, k = spec.rows, spec.cols, spec.k
    per_cell: list[list[tuple[int, int]]] = [[] for _ in range(spec.cells)]

    def bit(r: int, c: int) -> int:
        return 1 << (r * cols + c) if 0 <= r < rows and 0 <= c < cols else 0

    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if not all(bit(rr, cc) for rr, cc in cells):
                    continue
                window = sum(bit(rr, cc) for rr, cc in cells)
                flanks = bit(r - dr, c - dc) | bit(r + k * dr, c + k * dc)
                for rr, cc in cells:
                    per_cell[rr * cols + cc].append((window, flanks))
    return tuple(tuple(found) for found in per_cell)


def cell_words(move: Cell | tuple[int, int]) -> str:
    """``(row 3, column 3)``: a cell as a person counts, from 1 (the cell may be off any
    board, so no letter)."""
    return f"(row {quote(move[0] + 1)}, column {quote(move[1] + 1)})"
