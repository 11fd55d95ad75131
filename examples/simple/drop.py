"""Drop Three, a tiny gravity game written as a plain perfectplay game, with a board view.

Pieces drop to the lowest empty cell of a column of a 4-wide, 3-high board; three in a row
(across, down or diagonal) wins, a full board is a draw. A position is the tuple of the
columns, each a tuple of the players' pieces from the bottom up. A move is a column from 1;
the game declares ``gravity``, so the web's board drops pieces in the column clicked.
"""

from __future__ import annotations

WIDTH, HEIGHT, K = 4, 3, 3
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
Columns = tuple[tuple[int, ...], ...]


class DropThree:
    """Drop Three: drop pieces into columns of a 4x3 board; three in a row wins."""

    title = "Drop Three"
    players = ("red", "yellow")
    gravity = True
    max_plies = WIDTH * HEIGHT  # the longest game: a full board (no need to measure it)

    def start(self) -> Columns:
        return ((),) * WIDTH

    def moves(self, columns: Columns) -> list[int]:
        return [c + 1 for c in range(WIDTH) if len(columns[c]) < HEIGHT]

    def play(self, columns: Columns, column: int) -> Columns:
        player = 1 if sum(map(len, columns)) % 2 == 0 else 2
        return tuple((*col, player) if c == column - 1 else col for c, col in enumerate(columns))

    def piece(self, columns: Columns, c: int, r: int) -> int:
        inside = 0 <= c < WIDTH and 0 <= r < len(columns[c])
        return columns[c][r] if inside else 0

    def result(self, columns: Columns) -> int | None:
        for c in range(WIDTH):
            for r, player in enumerate(columns[c]):
                for dc, dr in DIRECTIONS:
                    if all(self.piece(columns, c + i * dc, r + i * dr) == player for i in range(K)):
                        return player
        return 0 if all(len(col) == HEIGHT for col in columns) else None

    def board(self, columns: Columns) -> list[list[int]]:
        # Rows from the top: row 0 is the highest.
        return [
            [self.piece(columns, c, HEIGHT - 1 - r) for c in range(WIDTH)] for r in range(HEIGHT)
        ]

    def heuristic(self, columns: Columns) -> float:
        # Central pieces take part in more lines.
        centre = [c for c in range(WIDTH) if 0 < c < WIDTH - 1]
        return sum((1 if p == 1 else -1) for c in centre for p in columns[c])
