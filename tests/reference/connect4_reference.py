"""A plain Connect Four on a list-of-lists board, written to be obviously correct.

No bitboards, no shifts, no incremental updates: the board is ``height`` lists of ``width``
strings, each ``"x"``, ``"o"`` or ``"."``. Row 0 is the BOTTOM row, column 0 the left column.
x (player 1) moves first. A move names a column; the stone falls to the lowest empty cell of
that column, and a column whose top cell is taken is full. A side wins when ``k``
consecutive cells across, up or along a diagonal are all its stones; the winner is found by
looking at every line of ``k`` cells on the board. A full board with no winner is a draw.
Nobody moves once the game is over.
"""

from __future__ import annotations

from functools import cache

EMPTY = "."
X = "x"
O = "o"  # noqa: E741

# The four directions a line can run in, as (column step, row step):
# right, up, up-right, down-right.
LINE_DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]

Grid = tuple[tuple[str, ...], ...]
"""The cells as a tuple of rows, bottom row first (``grid[row][column]``)."""


class Board:
    """A Connect Four board: its size, k, and a list of rows of cells (bottom row first)."""

    def __init__(self, width: int, height: int, k: int) -> None:
        self.width = width
        self.height = height
        self.k = k
        self.cells = []
        for _ in range(height):
            row = []
            for _ in range(width):
                row.append(EMPTY)
            self.cells.append(row)

    def copy(self) -> Board:
        """A new board with the same cells."""
        other = Board(self.width, self.height, self.k)
        for r in range(self.height):
            for c in range(self.width):
                other.cells[r][c] = self.cells[r][c]
        return other

    def key(self) -> Grid:
        """The cells as a tuple of tuples (hashable, for sets and dicts), bottom row first."""
        return tuple(tuple(row) for row in self.cells)

    def count(self, stone: str) -> int:
        """How many cells hold ``stone``."""
        total = 0
        for row in self.cells:
            for cell in row:
                if cell == stone:
                    total += 1
        return total


def new_board(width: int, height: int, k: int = 4) -> Board:
    """The empty board."""
    return Board(width, height, k)


def board_from_grid(grid: Grid, k: int) -> Board:
    """A board holding the cells of ``grid`` (bottom row first; no check of legality)."""
    board = Board(len(grid[0]), len(grid), k)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            board.cells[r][c] = cell
    return board


def picture(board: Board) -> str:
    """The rows from the TOP down, one line each, as ``x``, ``o`` and ``.``."""
    lines = []
    for r in range(board.height - 1, -1, -1):
        lines.append("".join(board.cells[r]))
    return "\n".join(lines)


def side_to_move(board: Board) -> str:
    """x when both sides have as many stones, otherwise o."""
    if board.count(X) == board.count(O):
        return X
    return O


@cache
def all_lines(width: int, height: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of ``k`` consecutive cells on the board, each as (column, row) cells.

    A line starts at any cell and runs ``k`` cells in one of the four directions; it counts
    when all of its cells are on the board.
    """
    lines = []
    for c in range(width):
        for r in range(height):
            for dc, dr in LINE_DIRECTIONS:
                cells = []
                for step in range(k):
                    cells.append((c + dc * step, r + dr * step))
                inside = True
                for cc, rr in cells:
                    if cc < 0 or cc >= width or rr < 0 or rr >= height:
                        inside = False
                if inside:
                    lines.append(tuple(cells))
    return tuple(lines)


def lines_of(board: Board, stone: str) -> list[tuple[tuple[int, int], ...]]:
    """Every line of the board whose cells all hold ``stone``."""
    found = []
    for line in all_lines(board.width, board.height, board.k):
        full = True
        for c, r in line:
            if board.cells[r][c] != stone:
                full = False
                break
        if full:
            found.append(line)
    return found


def has_line(board: Board, stone: str) -> bool:
    """True when ``stone`` fills every cell of at least one line of the board."""
    return bool(lines_of(board, stone))


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


def legal_columns(board: Board) -> list[int]:
    """Columns whose top cell is empty, left to right; none once the game is over."""
    if is_over(board):
        return []
    columns = []
    for c in range(board.width):
        if board.cells[board.height - 1][c] == EMPTY:
            columns.append(c)
    return columns


def landing_row(board: Board, column: int) -> int:
    """The lowest empty row of ``column`` (the column must not be full)."""
    for r in range(board.height):
        if board.cells[r][column] == EMPTY:
            return r
    raise ValueError("the column is full")


def drop(board: Board, column: int) -> Board:
    """A new board with the side to move's stone dropped into ``column``; the old board is
    unchanged."""
    if is_over(board):
        raise ValueError("the game is over")
    if column < 0 or column >= board.width:
        raise ValueError("no such column")
    row = landing_row(board, column)
    after = board.copy()
    after.cells[row][column] = side_to_move(board)
    return after


def runs_through(board: Board, column: int, row: int) -> list[frozenset[tuple[int, int]]]:
    """For each of the four directions, every cell of the unbroken run of the stone at
    (column, row) through that cell: walk both ways while the cells hold the same stone."""
    stone = board.cells[row][column]
    runs = []
    for dc, dr in LINE_DIRECTIONS:
        run = {(column, row)}
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < board.width and 0 <= r < board.height and board.cells[r][c] == stone:
                run.add((c, r))
                c, r = c + sign * dc, r + sign * dr
        runs.append(frozenset(run))
    return runs


def mirrored(grid: Grid) -> Grid:
    """The board reflected left to right (every row reversed)."""
    return tuple(tuple(reversed(row)) for row in grid)
