"""Connect Four on any board whose bitboard fits 64 bits: ``width * (height + 1) <= 64``.

Player 1 (``x``) moves first; a move drops a stone into a column, where it falls onto the
lowest empty cell; ``k`` (4 by default) stones in a row across, up or diagonally win; a full
board without a line is a draw.

Bit layout: Pascal Pons' column layout, drawn in :mod:`perfectplay.games.common.gravity`
(``bit = column * (height + 1) + row``, row 0 at the bottom, a sentinel bit above each column).
A position keeps one bitboard per player.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    ParameterError,
    quote,
)
from perfectplay.games.common.gravity import GravityLayout
from perfectplay.games.kernel import DEFAULT_KERNEL_OPTIONS, KernelOptions
from perfectplay.games.protocol import BaseGame, Outcome, Player
from perfectplay.values import HEURISTIC_LIMIT

if TYPE_CHECKING:
    from perfectplay.games.connect4.books import Connect4Books
    from perfectplay.games.connect4.kernel import Connect4Kernel
    from perfectplay.games.kernel import CompiledEngine

MIN_SIDE = 4
MAX_BITS = 64


@dataclass(frozen=True, slots=True)
class Connect4Spec:
    """Static facts of a Connect Four board. Construct through :func:`make_spec`."""

    width: int
    height: int
    k: int = 4

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.width * self.height

    @property
    def stride(self) -> int:
        """Bits per column (the column plus its sentinel bit)."""
        return self.height + 1

    @property
    def label(self) -> str:
        """Human label such as ``7x6``."""
        return f"{self.width}x{self.height}" + ("" if self.k == 4 else f", k={self.k}")

    @property
    def max_score(self) -> int:
        """The score of winning with one's first stone: ``(cells + 1) // 2 + 1 - 1``."""
        return (self.cells + 1) // 2


def make_spec(width: int = 7, height: int = 6, k: int = 4) -> Connect4Spec:
    """A checked spec: sides from 4, ``width * (height + 1) <= 64``, ``k`` from 2 to the
    larger side. Raises :class:`ParameterError` naming the bad value."""
    for name, value in (("width", width), ("height", height), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParameterError(f"{name}={quote(value)}: must be a whole number")
    if width < MIN_SIDE or height < MIN_SIDE:
        raise ParameterError(
            f"size {quote(width)}x{quote(height)}: width and height must be at least {MIN_SIDE}"
        )
    if width * (height + 1) > MAX_BITS:
        raise ParameterError(
            f"size {quote(width)}x{quote(height)}: too large, width * (height + 1) = "
            f"{quote(width * (height + 1))} must be at most {MAX_BITS}"
        )
    if not 2 <= k <= max(width, height):
        raise ParameterError(f"k={quote(k)}: must be from 2 to {max(width, height)}")
    return Connect4Spec(width, height, k)


@dataclass(frozen=True, slots=True)
class Connect4Position:
    """An immutable Connect Four position: the spec and one bitboard per player.

    Make positions with :class:`Connect4Game`; ``win_mask`` (the winning stones, 0 while
    nobody has a line) is derived and ignored by equality and hashing.
    """

    spec: Connect4Spec
    first: int
    second: int
    win_mask: int = field(default=0, compare=False)

    @property
    def mask(self) -> int:
        """All stones."""
        return self.first | self.second

    @property
    def plies(self) -> int:
        """Stones on the board."""
        return (self.first | self.second).bit_count()

    @property
    def to_move_stones(self) -> int:
        """The stones of the side to move."""
        return self.first if self.plies % 2 == 0 else self.second

    def __str__(self) -> str:
        from perfectplay.games.connect4.text import format_connect4_picture

        return format_connect4_picture(self)

    def _repr_svg_(self) -> str:
        """The board as a picture, for notebooks (Jupyter shows it in place of the text)."""
        from perfectplay.games.connect4.text import connect4_svg

        return connect4_svg(self)


class Connect4Game(BaseGame[Connect4Position, int]):
    """The rules of Connect Four on one board size. Moves are 0-based column indices
    (notation and JSON show them 1-based)."""

    name = "connect4"

    def __init__(self, spec: Connect4Spec) -> None:
        self._spec = spec
        self.layout = GravityLayout(spec.width, spec.height, spec.k)
        layout = self.layout
        self._board = layout.board
        self._top = tuple(layout.top_cell(c) for c in range(spec.width))
        self._order = layout.centre_first()

    def __repr__(self) -> str:
        return f"Connect4Game({self._spec.label})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Connect4Game) and other._spec == self._spec

    def __hash__(self) -> int:
        return hash(("connect4", self._spec))

    @property
    def spec(self) -> Connect4Spec:
        """The static facts of this board."""
        return self._spec

    # -- protocol ------------------------------------------------------------------------
    def initial(self) -> Connect4Position:
        """The empty board."""
        return Connect4Position(self._spec, 0, 0)

    def to_move(self, position: Connect4Position) -> Player:
        """Player 1 after an even number of stones, else player 2."""
        return Player.FIRST if position.plies % 2 == 0 else Player.SECOND

    def ply(self, position: Connect4Position) -> int:
        """Stones on the board."""
        return position.plies

    def plies_left_bound(self, position: Connect4Position) -> int:
        """Empty cells, 0 once the game is over."""
        return 0 if position.win_mask else self._spec.cells - position.plies

    def can_play(self, position: Connect4Position, column: int) -> bool:
        """True when ``column`` exists and is not full (ignores whether the game is over)."""
        return 0 <= column < self._spec.width and not position.mask & self._top[column]

    def legal_moves(self, position: Connect4Position) -> tuple[int, ...]:
        """Columns that are not full, left to right; none once the game is over."""
        if position.win_mask:
            return ()
        return tuple(c for c in range(self._spec.width) if not position.mask & self._top[c])

    def ordered_moves(self, position: Connect4Position) -> tuple[int, ...]:
        """Playable columns, centre first."""
        if position.win_mask:
            return ()
        return tuple(c for c in self._order if not position.mask & self._top[c])

    def play(self, position: Connect4Position, move: int) -> Connect4Position:
        """Drop the side to move's stone in column ``move`` (0-based).

        Raises :class:`GameOverError` after the end and :class:`IllegalMoveError` for a column
        that does not exist or is full.
        """
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"move {quote(move)}: a column is a whole number")
        outcome = self.outcome(position)
        if outcome is not None:
            raise GameOverError(
                f"move column {move + 1}: the game is already over ({outcome.reason})"
            )
        if not 0 <= move < self._spec.width:
            raise IllegalMoveError(
                f"move column {move + 1}: no such column, the board has columns "
                f"1-{self._spec.width}"
            )
        if position.mask & self._top[move]:
            raise IllegalMoveError(f"move column {move + 1}: the column is full")
        return self.play_column(position, move)

    def play_column(self, position: Connect4Position, column: int) -> Connect4Position:
        """Unchecked fast path of :meth:`play` for a playable column of a running game."""
        stone = self.layout.drop(position.mask, column)
        if position.plies % 2 == 0:
            first, second, mover = position.first | stone, position.second, position.first | stone
        else:
            first, second, mover = position.first, position.second | stone, position.second | stone
        return Connect4Position(self._spec, first, second, self.line_through(mover, stone))

    def line_through(self, stones: int, stone: int) -> int:
        """The stones of a ``k``-line of ``stones`` that contains ``stone``, or 0."""
        return self.layout.line_through(stones, stone)

    def lines(self, stones: int) -> int:
        """Mask of every stone of ``stones`` that lies on a ``k``-line (0 when none)."""
        return self.layout.lines(stones)

    def outcome(self, position: Connect4Position) -> Outcome | None:
        """Win for the owner of the line, draw on a full board, else ``None``."""
        if position.win_mask:
            winner = Player.FIRST if position.first & position.win_mask else Player.SECOND
            cells = self.layout.cells_of(position.win_mask)
            return Outcome(winner, f"player {int(winner)} connects {self._spec.k}", cells)
        if position.plies == self._spec.cells:
            return Outcome(None, "the board is full")
        return None

    def cell_of(self, bit: int) -> tuple[int, int]:
        """``(column, row)`` of a bit index, both 0-based, row 0 at the bottom."""
        return self.layout.cell_of(bit)

    def key(self, position: Connect4Position) -> Hashable:
        """``(first, second)`` bitboards."""
        return (position.first, position.second)

    def mirror(self, bits: int) -> int:
        """A bitboard reflected left to right."""
        return self.layout.mirror(bits)

    def canonical_key(self, position: Connect4Position) -> Hashable:
        """The smaller of the key and the mirrored key."""
        return self.canonical_form(position)[0]

    def canonical_form(self, position: Connect4Position) -> tuple[tuple[int, int], int]:
        """The canonical key and the symmetry (0 identity, 1 mirror) that gives it."""
        plain = (position.first, position.second)
        mirrored = (self.mirror(position.first), self.mirror(position.second))
        return (plain, 0) if plain <= mirrored else (mirrored, 1)

    def map_move(self, move: int, symmetry: int) -> int:
        """A column under the symmetry of :meth:`canonical_form`."""
        return self._spec.width - 1 - move if symmetry else move

    def unmap_move(self, move: int, symmetry: int) -> int:
        """The inverse of :meth:`map_move` (the mirror is its own inverse)."""
        return self.map_move(move, symmetry)

    def evaluate(self, position: Connect4Position) -> float:
        """Open windows of ``k`` weighted by the stones in them, for the side to move."""
        mine, theirs = (
            (position.first, position.second)
            if self.to_move(position) is Player.FIRST
            else (position.second, position.first)
        )
        score = 0
        for window in self.layout.windows:
            a, b = mine & window, theirs & window
            if a and not b:
                score += 4 ** a.bit_count()
            elif b and not a:
                score -= 4 ** b.bit_count()
        return float(max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score)))

    def kernel(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> Connect4Kernel:
        """A compiled solver for this board (:mod:`perfectplay.games.connect4.kernel`)."""
        from perfectplay.games.connect4.kernel import Connect4Kernel

        return Connect4Kernel(self, options)

    def compiled_engine(self) -> CompiledEngine:
        """The exact solver's engine (:mod:`perfectplay.games.connect4.engine`)."""
        from perfectplay.games.connect4.engine import ENGINE

        return ENGINE

    def books(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> Connect4Books | None:
        """The opening books ``options`` ask for, read without the compiled solver
        (:mod:`perfectplay.games.connect4.books`), or ``None``; raises
        :class:`~perfectplay.errors.ParameterError` for a book file that cannot be used."""
        from perfectplay.games.connect4.books import Connect4Books

        return Connect4Books.of(self, options)

    def move_to_json(self, move: int) -> dict[str, Any]:
        """``{"column": c}``, 1-based."""
        return {"column": move + 1}

    def format_move(self, move: int) -> str:
        """The 1-based column."""
        return str(move + 1)

    def player_name(self, player: Player) -> str:
        """ "1" or "2"."""
        return str(int(player))

    # -- construction from a board --------------------------------------------------------
    def from_bits(self, first: int, second: int) -> Connect4Position:
        """A validated position from the two players' bitboards (in the layout above).

        Raises :class:`IllegalPositionError` for boards that legal play cannot produce:
        overlapping stones, stones off the board (or on the sentinel row), a stone floating
        above an empty cell, impossible counts (player 1 must have as many stones as player 2
        or one more), both players with a line, a winner who did not move last, or a won
        board whose winner has no top stone lying on every one of its lines (with gravity
        only a column's top stone can have been played last, and the game ends at the first
        line). These checks are necessary, not sufficient: a board can pass them and still
        be unreachable (player 2's stone under player 1's, alone on the board, for one).
        """
        self._check_stones(first, second)
        first_lines, second_lines = self.lines(first), self.lines(second)
        self._check_lines(first, second, first_lines, second_lines)
        if not (first_lines or second_lines):
            return Connect4Position(self._spec, first, second)
        winner, on_lines, number = (
            (first, first_lines, 1) if first_lines else (second, second_lines, 2)
        )
        tops = self.layout.tops(first | second) & on_lines
        while tops:
            stone = tops & -tops
            tops ^= stone
            if not self.lines(winner & ~stone):
                return Connect4Position(self._spec, first, second, self.line_through(winner, stone))
        raise IllegalPositionError(
            f"no legal game reaches this board: no top stone of player {number} lies on every "
            f"one of its lines, so its last stone cannot have completed them all (the game "
            "would have ended earlier)"
        )

    def _check_stones(self, first: int, second: int) -> None:
        """Whole-number boards, no overlap, on the board, nothing floating, possible counts."""
        for name, bits in (("first", first), ("second", second)):
            if isinstance(bits, bool) or not isinstance(bits, int):
                raise IllegalPositionError(f"{name}={quote(bits)}: a bitboard is a whole number")
        if first & second:
            raise IllegalPositionError("a cell holds stones of both players")
        mask = first | second
        if mask < 0 or mask & ~self._board:
            raise IllegalPositionError("stones lie outside the board")
        floating = self.layout.floating(mask)
        if floating:
            columns = sorted({column + 1 for column, _ in self.layout.cells_of(floating)})
            named = ", ".join(str(c) for c in columns)
            plural = "s" if len(columns) > 1 else ""
            raise IllegalPositionError(
                f"a stone floats above an empty cell in column{plural} {named}"
            )
        n_first, n_second = first.bit_count(), second.bit_count()
        if not (n_first == n_second or n_first == n_second + 1):
            raise IllegalPositionError(
                f"impossible stone counts: player 1 (x) has {n_first} and player 2 (o) has "
                f"{n_second}; player 1 moves first, so it must have as many stones as "
                "player 2 or one more"
            )

    @staticmethod
    def _check_lines(first: int, second: int, first_lines: int, second_lines: int) -> None:
        """At most one side has a line, and only the side that moved last."""
        moved_last_first = first.bit_count() == second.bit_count() + 1
        if first_lines and second_lines:
            raise IllegalPositionError("both players have a line; the game ends at the first line")
        if first_lines and not moved_last_first:
            raise IllegalPositionError(
                "player 1 (x) has a line but did not move last; the game ends at the first line"
            )
        if second_lines and moved_last_first:
            raise IllegalPositionError(
                "player 2 (o) has a line but did not move last; the game ends at the first line"
            )

    # -- conversions -----------------------------------------------------------------------
    def conventional_score(self, position: Connect4Position, win: bool, plies: int) -> int:
        """The standard score of a decisive result ``plies`` away (see :meth:`score_of`)."""
        return self.score_of(position, plies, win)

    def finished_score(self, position: Connect4Position) -> int:
        """A finished board's standard score for the side to move: minus the winner's, 0."""
        if not position.win_mask:
            return 0
        winner = position.first if position.first & position.win_mask else position.second
        return -((self._spec.cells + 1) // 2 + 1 - winner.bit_count())

    def score_of(self, position: Connect4Position, plies: int, win: bool) -> int:
        """The standard score of a decisive result ``plies`` away for the side to move:
        ``(cells + 1) // 2 + 1 - s`` where ``s`` counts the winner's stones at the end."""
        stones_now = (position.plies + (0 if win else 1)) // 2
        winner_stones = stones_now + (plies + 1) // 2
        value = (self._spec.cells + 1) // 2 + 1 - winner_stones
        return value if win else -value

    def plies_of(self, position: Connect4Position, score: int) -> int:
        """Plies until the end for a non-zero standard score (the inverse of :meth:`score_of`)."""
        win = score > 0
        winner_stones = (self._spec.cells + 1) // 2 + 1 - abs(score)
        stones_now = (position.plies + (0 if win else 1)) // 2
        return 2 * (winner_stones - stones_now) - (1 if win else 0)


def game(width: int = 7, height: int = 6, k: int = 4) -> Connect4Game:
    """The Connect Four game of that size; see :func:`make_spec` for the checks."""
    return Connect4Game(make_spec(width, height, k))
