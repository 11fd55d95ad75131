"""A plain shape-and-color Connect Four ("Simplexity"), written to be obviously correct.

The rules of ``shapecolor-rules.md``, with no bitboards: the board is ``rows`` lists of
``cols`` cells, row 0 at the BOTTOM, column 0 at the left. A cell is ``None`` (empty) or a
:class:`Piece` with a ``shape`` (``"O"`` or ``"X"``) and a ``color`` (``"red"`` or ``"blue"``).

* Player 1 is red and owns shape O; player 2 is blue and owns shape X; player 1 starts and
  the players alternate.
* Each player has rows * cols / 2 pieces: ceil(half / 2) of its own shape and floor(half / 2)
  of the other shape. A move is (column, shape); the piece has the mover's color and falls to
  the lowest empty cell. A full column or a used-up shape is illegal.
* After every move every window of 4 aligned cells on the board is looked at. Windows whose
  pieces all have one shape are shape fours, one color color fours. Any shape four decides
  (for the owner of that shape, whoever placed the pieces); otherwise a color four decides
  (for that color's owner). The game ends at the first four; a full board without one is a
  draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

O = "O"  # noqa: E741
X = "X"
RED = "red"
BLUE = "blue"
SHAPES = (O, X)
COLOR_OF_PLAYER = {1: RED, 2: BLUE}
OWNER_OF_SHAPE = {O: 1, X: 2}
OWNER_OF_COLOR = {RED: 1, BLUE: 2}

# The four directions a window can run in, as (column step, row step):
# right, up, up-right, down-right.
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


@dataclass(frozen=True)
class Piece:
    """One piece on the board."""

    shape: str
    color: str


Cell = Piece | None
Grid = tuple[tuple[Cell, ...], ...]
"""The cells as a tuple of rows, bottom row first (``grid[row][column]``)."""


class IllegalMove(ValueError):
    """A move the reference refuses; ``kind`` says why (one word)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def quotas_at_start(rows: int, cols: int) -> dict[int, dict[str, int]]:
    """Each player's pieces per shape before the first move."""
    half = rows * cols // 2
    own = math.ceil(half / 2)
    other = math.floor(half / 2)
    return {1: {O: own, X: other}, 2: {O: other, X: own}}


class Game:
    """One game in progress: board, quotas, side to move, and how it ended (if it did)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.cells: list[list[Cell]] = []
        for _ in range(rows):
            self.cells.append([None] * cols)
        self.quotas = quotas_at_start(rows, cols)
        self.to_move = 1
        self.winner: int | None = None
        self.over = False
        self.pieces_played = 0

    def copy(self) -> Game:
        """An independent copy."""
        other = Game(self.rows, self.cols)
        other.cells = [list(row) for row in self.cells]
        other.quotas = {p: dict(q) for p, q in self.quotas.items()}
        other.to_move = self.to_move
        other.winner = self.winner
        other.over = self.over
        other.pieces_played = self.pieces_played
        return other

    def grid(self) -> Grid:
        """The cells, bottom row first, as a hashable value."""
        return tuple(tuple(row) for row in self.cells)

    def column_full(self, column: int) -> bool:
        """Whether the top cell of ``column`` holds a piece."""
        return self.cells[self.rows - 1][column] is not None

    def landing_row(self, column: int) -> int:
        """The lowest empty row of a column that is not full."""
        for row in range(self.rows):
            if self.cells[row][column] is None:
                return row
        raise IllegalMove("full")

    def legal_moves(self) -> list[tuple[int, str]]:
        """Every (column, shape) the side to move may play: by column, O before X."""
        if self.over:
            return []
        moves = []
        for column in range(self.cols):
            if self.column_full(column):
                continue
            for shape in SHAPES:
                if self.quotas[self.to_move][shape] > 0:
                    moves.append((column, shape))
        return moves

    def check(self, column: object, shape: object) -> None:
        """Raise :class:`IllegalMove` (kind ``shape``, ``over``, ``column``, ``full`` or
        ``quota``, the first that applies, in this order) unless ``(column, shape)`` is legal
        now. A shape other than O and X is refused as such even after the end."""
        if shape not in SHAPES:
            raise IllegalMove("shape")
        if self.over:
            raise IllegalMove("over")
        if not isinstance(column, int) or column < 0 or column >= self.cols:
            raise IllegalMove("column")
        if self.column_full(column):
            raise IllegalMove("full")
        if self.quotas[self.to_move][str(shape)] <= 0:
            raise IllegalMove("quota")

    def play(self, column: int, shape: str) -> tuple[int, int]:
        """Play a checked move; returns the (column, row) where the piece landed."""
        self.check(column, shape)
        row = self.landing_row(column)
        self.cells[row][column] = Piece(shape, COLOR_OF_PLAYER[self.to_move])
        self.quotas[self.to_move][shape] -= 1
        self.pieces_played += 1
        self.to_move = 2 if self.to_move == 1 else 1
        self.winner = decide(self.cells, self.rows, self.cols)
        full = self.pieces_played == self.rows * self.cols
        self.over = self.winner is not None or full
        return column, row


@cache
def windows(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every set of 4 aligned cells on the board, as (column, row) cells."""
    found = []
    for c in range(cols):
        for r in range(rows):
            for dc, dr in DIRECTIONS:
                cells = [(c + dc * i, r + dr * i) for i in range(4)]
                if all(0 <= cc < cols and 0 <= rr < rows for cc, rr in cells):
                    found.append(tuple(cells))
    return tuple(found)


def fours(
    cells: list[list[Cell]], rows: int, cols: int
) -> tuple[list[tuple[tuple[int, int], ...]], list[tuple[tuple[int, int], ...]]]:
    """The shape fours and the color fours on the board."""
    shape_fours = []
    color_fours = []
    for window in windows(rows, cols):
        pieces = [cells[r][c] for c, r in window]
        if any(p is None for p in pieces):
            continue
        if len({p.shape for p in pieces if p is not None}) == 1:
            shape_fours.append(window)
        if len({p.color for p in pieces if p is not None}) == 1:
            color_fours.append(window)
    return shape_fours, color_fours


def decide(cells: list[list[Cell]], rows: int, cols: int) -> int | None:
    """The winner of the board: a shape four's owner first, else a color four's, else None."""
    shape_fours, color_fours = fours(cells, rows, cols)
    if shape_fours:
        c, r = shape_fours[0][0]
        piece = cells[r][c]
        assert piece is not None
        return OWNER_OF_SHAPE[piece.shape]
    if color_fours:
        c, r = color_fours[0][0]
        piece = cells[r][c]
        assert piece is not None
        return OWNER_OF_COLOR[piece.color]
    return None


# -- the two heuristics, computed cell by cell ------------------------------------------------
def neighbors_value(game: Game) -> int:
    """The background note's neighbour heuristic for the side to move.

    For every piece, walk both ways along its row, its column and both diagonals to the edge
    of the board; every other piece met adds 1 if it has the same color and 1 if it has the
    same shape. The side to move's pieces count plus, the opponent's minus.
    """
    mine = COLOR_OF_PLAYER[game.to_move]
    total = 0
    for r in range(game.rows):
        for c in range(game.cols):
            piece = game.cells[r][c]
            if piece is None:
                continue
            count = 0
            for dc, dr in DIRECTIONS:
                for sign in (1, -1):
                    cc, rr = c + sign * dc, r + sign * dr
                    while 0 <= cc < game.cols and 0 <= rr < game.rows:
                        other = game.cells[rr][cc]
                        if other is not None:
                            count += other.color == piece.color
                            count += other.shape == piece.shape
                        cc, rr = cc + sign * dc, rr + sign * dr
            total += count if piece.color == mine else -count
    return total


def windows_value(
    game: Game, shape_weights: tuple[int, ...], color_weights: tuple[int, ...]
) -> int:
    """The ``windows`` heuristic for the side to move, before clamping.

    For every window of 4: with n pieces of one shape and none of the other, the shape's
    owner scores ``shape_weights[n]``; with n pieces of one color and none of the other, the
    color's owner scores ``color_weights[n]``. Player 1's gains count plus, player 2's minus;
    the total is negated when player 2 is to move.
    """
    total = 0
    for window in windows(game.rows, game.cols):
        pieces = [game.cells[r][c] for c, r in window]
        shapes = [p.shape for p in pieces if p is not None]
        colors = [p.color for p in pieces if p is not None]
        if shapes.count(X) == 0:
            total += shape_weights[shapes.count(O)]
        elif shapes.count(O) == 0:
            total -= shape_weights[shapes.count(X)]
        if colors.count(BLUE) == 0:
            total += color_weights[colors.count(RED)]
        elif colors.count(RED) == 0:
            total -= color_weights[colors.count(BLUE)]
    return total if game.to_move == 1 else -total
