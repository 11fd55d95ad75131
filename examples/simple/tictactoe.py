"""Tic-tac-toe written as a plain perfectplay game, with a board view.

A position is the board as a string of nine characters, row by row from the top: ``x``,
``o`` or ``.``. A move is the index of a cell (0 to 8); since the game draws a board, people
name cells as on the built-in board (``b2`` is the centre) and the web's board takes clicks.
"""

from __future__ import annotations

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MARKS = ".xo"


class TicTacToe:
    """Tic-tac-toe: three in a row wins; x moves first."""

    title = "Plain tic-tac-toe"
    players = ("x", "o")

    def start(self) -> str:
        return "." * 9

    def moves(self, board: str) -> list[int]:
        return [cell for cell in range(9) if board[cell] == "."]

    def play(self, board: str, cell: int) -> str:
        mark = "x" if board.count("x") == board.count("o") else "o"
        return board[:cell] + mark + board[cell + 1 :]

    def result(self, board: str) -> int | None:
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return MARKS.index(board[a])
        return 0 if "." not in board else None

    def board(self, board: str) -> list[list[int]]:
        return [[MARKS.index(board[3 * row + col]) for col in range(3)] for row in range(3)]

    def cell(self, cell: int) -> tuple[int, int]:
        return cell // 3 + 1, cell % 3 + 1
