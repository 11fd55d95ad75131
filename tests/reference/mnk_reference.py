"""A plain m,n,k-game on a list-of-lists board, written to be obviously correct.

No bitboards, no incremental updates, no cleverness: the board is ``rows`` lists of ``cols``
strings, each ``"x"``, ``"o"`` or ``"."``. Row 0 is the top row, column 0 the left column.
x moves first. A side wins when ``k`` consecutive cells across, down or along a diagonal are
all its stones; the winner is found by looking at every line of ``k`` cells on the board (the
list of lines is computed once per board size). A full board with no winner is a draw. Nobody
moves once the game is over.
"""

from __future__ import annotations

from functools import cache

EMPTY = "."
X = "x"
O = "o"  # noqa: E741

# The four directions a line can run in, as (row step, column step):
# right, down, down-right, down-left.
LINE_DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


class Board:
    """An m,n,k board: its size, k, and a list of rows of cells."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows = rows
        self.cols = cols
        self.k = k
        self.cells = []
        for _ in range(rows):
            row = []
            for _ in range(cols):
                row.append(EMPTY)
            self.cells.append(row)

    def copy(self) -> Board:
        """A new board with the same cells."""
        other = Board(self.rows, self.cols, self.k)
        for r in range(self.rows):
            for c in range(self.cols):
                other.cells[r][c] = self.cells[r][c]
        return other

    def key(self) -> tuple[tuple[str, ...], ...]:
        """The cells as a tuple of tuples (hashable, for sets and dicts)."""
        return tuple(tuple(row) for row in self.cells)

    def count(self, stone: str) -> int:
        """How many cells hold ``stone``."""
        total = 0
        for row in self.cells:
            for cell in row:
                if cell == stone:
                    total += 1
        return total


def new_board(rows: int, cols: int, k: int) -> Board:
    """The empty board."""
    return Board(rows, cols, k)


def board_from_rows(rows_text: list[str], k: int) -> Board:
    """A board from strings such as ``["x.o", "..."]`` (no validation of legality)."""
    board = Board(len(rows_text), len(rows_text[0]), k)
    for r, text in enumerate(rows_text):
        for c, char in enumerate(text):
            board.cells[r][c] = char
    return board


def side_to_move(board: Board) -> str:
    """x when both sides have as many stones, otherwise o."""
    if board.count(X) == board.count(O):
        return X
    return O


@cache
def all_lines(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of ``k`` consecutive cells on the board, each as (row, col) cells.

    A line starts at any cell and runs ``k`` cells in one of the four directions; it counts
    when all of its cells are on the board. (With k = 1 the same single cell is listed once
    per direction, which does no harm.)
    """
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in LINE_DIRECTIONS:
                cells = []
                for step in range(k):
                    cells.append((r + dr * step, c + dc * step))
                inside = True
                for rr, cc in cells:
                    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                        inside = False
                if inside:
                    lines.append(tuple(cells))
    return tuple(lines)


def has_line(board: Board, stone: str) -> bool:
    """True when ``stone`` fills every cell of at least one line of the board."""
    for line in all_lines(board.rows, board.cols, board.k):
        full = True
        for r, c in line:
            if board.cells[r][c] != stone:
                full = False
                break
        if full:
            return True
    return False


def winner(board: Board) -> str | None:
    """``"x"`` or ``"o"`` if that side has a line, else ``None``.

    Boards reached by legal play never have lines for both sides; if asked about such a board
    anyway, this raises instead of guessing.
    """
    x_line = has_line(board, X)
    o_line = has_line(board, O)
    if x_line and o_line:
        raise ValueError("both sides have a line")
    if x_line:
        return X
    if o_line:
        return O
    return None


def is_full(board: Board) -> bool:
    """True when no cell is empty."""
    return board.count(EMPTY) == 0


def is_draw(board: Board) -> bool:
    """A full board without a winner."""
    return winner(board) is None and is_full(board)


def is_over(board: Board) -> bool:
    """Someone won or the board is full."""
    return winner(board) is not None or is_full(board)


def legal_moves(board: Board) -> list[tuple[int, int]]:
    """Empty cells as (row, col), top row first and left to right; none once the game is over."""
    if is_over(board):
        return []
    moves = []
    for r in range(board.rows):
        for c in range(board.cols):
            if board.cells[r][c] == EMPTY:
                moves.append((r, c))
    return moves


def play(board: Board, move: tuple[int, int]) -> Board:
    """A new board with the side to move's stone on ``move``; the old board is unchanged."""
    if is_over(board):
        raise ValueError("the game is over")
    r, c = move
    if r < 0 or r >= board.rows or c < 0 or c >= board.cols:
        raise ValueError("off the board")
    if board.cells[r][c] != EMPTY:
        raise ValueError("occupied")
    stone = side_to_move(board)
    after = board.copy()
    after.cells[r][c] = stone
    return after


# -- symmetries, on grids given as tuples of rows ---------------------------------------------
Grid = tuple[tuple[str, ...], ...]


def upside_down(grid: Grid) -> Grid:
    """The rows in reverse order (a mirror across the horizontal middle line)."""
    return tuple(reversed(grid))


def mirrored(grid: Grid) -> Grid:
    """Every row reversed (a mirror across the vertical middle line)."""
    return tuple(tuple(reversed(row)) for row in grid)


def quarter_turn(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise: a rows x cols grid becomes cols x rows.

    The new row ``c`` is the old column ``c`` read from the bottom up.
    """
    rows = len(grid)
    cols = len(grid[0])
    turned = []
    for c in range(cols):
        new_row = []
        for r in range(rows - 1, -1, -1):
            new_row.append(grid[r][c])
        turned.append(tuple(new_row))
    return tuple(turned)


def symmetric_grids(grid: Grid) -> list[Grid]:
    """The grid under every symmetry of its board (duplicates kept).

    A square board has 8: four quarter turns of the grid and four of its mirror image. Any
    other rectangle has 4: itself, upside down, mirrored, and both (a half turn).
    """
    rows = len(grid)
    cols = len(grid[0])
    if rows == cols:
        found = []
        for start in (grid, mirrored(grid)):
            current = start
            for _ in range(4):
                found.append(current)
                current = quarter_turn(current)
        return found
    return [grid, upside_down(grid), mirrored(grid), mirrored(upside_down(grid))]


def canonical_grid(grid: Grid) -> Grid:
    """One fixed representative of the grid's symmetry class (the smallest variant)."""
    return min(symmetric_grids(grid))
