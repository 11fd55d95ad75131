"""Two course bots of the course's interface: alpha-beta to depth 2 and to depth 4 (the
deeper one deepens iteratively and keeps the last depth it finished in time)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State

SHAPES = ("O", "X")
COLORS = ("RED", "BLUE")
WIN = 1000

Grid = list[list[tuple[str, str]]]
"""The board as (shape, color) pairs, row 0 at the top."""
Quota = list[dict[str, int]]
"""The pieces each player index has left, by shape."""
Move = tuple[int, str]
"""A column and a shape."""


class Clock(Exception):
    pass


def read(state: State) -> tuple[Grid, Quota]:
    board = state.board
    grid = [
        [(board[r, c].shape, board[r, c].color) for c in range(board.col)] for r in range(board.row)
    ]
    quota = [dict(state.players[i].quota) for i in (0, 1)]
    return grid, quota


def drop_row(grid: Grid, col: int) -> int | None:
    for r in range(len(grid) - 1, -1, -1):
        if grid[r][col][0] == "-":
            return r
    return None


def winner_at(grid: Grid, r: int, c: int) -> int | None:
    rows, cols = len(grid), len(grid[0])
    found: int | None = None
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for start in range(-3, 1):
            cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(4)]
            if not all(0 <= y < rows and 0 <= x < cols for y, x in cells):
                continue
            pieces = [grid[y][x] for y, x in cells]
            if any(p[0] == "-" for p in pieces):
                continue
            if len({p[0] for p in pieces}) == 1:
                return SHAPES.index(pieces[0][0])
            if len({p[1] for p in pieces}) == 1 and found is None:
                found = COLORS.index(pieces[0][1])
    return found


def moves(grid: Grid, quota: Quota, player: int) -> list[Move]:
    centre = (len(grid[0]) - 1) / 2
    columns = sorted(
        (c for c in range(len(grid[0])) if grid[0][c][0] == "-"), key=lambda c: abs(c - centre)
    )
    own = SHAPES[player]
    shapes = [s for s in (own, SHAPES[1 - player]) if quota[player][s] > 0]
    return [(c, s) for c in columns for s in shapes]


def search(
    grid: Grid, quota: Quota, player: int, depth: int, alpha: int, beta: int, deadline: float
) -> tuple[int, Move | None]:
    if time.perf_counter() > deadline:
        raise Clock()
    legal = moves(grid, quota, player)
    if not legal:
        return 0, None
    best, best_move = -WIN - 1, legal[0]
    for col, shape in legal:
        row = drop_row(grid, col)
        assert row is not None  # a legal move's column has room
        grid[row][col] = (shape, COLORS[player])
        quota[player][shape] -= 1
        won = winner_at(grid, row, col)
        if won is not None:
            value = WIN + depth if won == player else -WIN - depth
        elif depth <= 1:
            value = 0
        else:
            value = -search(grid, quota, 1 - player, depth - 1, -beta, -alpha, deadline)[0]
        grid[row][col] = ("-", "BLACK")
        quota[player][shape] += 1
        if value > best:
            best, best_move = value, (col, shape)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best, best_move


class Depth2:
    depth = 2

    def find(self, state: State, n_player: int, thinking_time: float) -> Move | None:
        grid, quota = read(state)
        deadline = time.perf_counter() + 0.8 * thinking_time
        best: Move | None = moves(grid, quota, n_player)[0]
        for depth in range(1, self.depth + 1):
            try:
                best = search(grid, quota, n_player, depth, -WIN - 10, WIN + 10, deadline)[1]
            except Clock:
                break
        return best


class Depth4(Depth2):
    depth = 4
