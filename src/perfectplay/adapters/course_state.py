"""The course's state objects for the shape-and-color game, built by us for course bots.

A course bot is a class with ``find(state, n_player, thinking_time) -> (column, shape)``.
The referee of :mod:`perfectplay.analysis.tournament` sends each position to the bot's
process as plain data (:func:`state_data` writes it, JSON-friendly) and the runner
(:mod:`perfectplay.adapters.bot_runner`) turns it into a :class:`State` with
:func:`state_from_data`. What a bot may read (the course engine's names)::

    state.board.row, state.board.col        rows and columns (6 and 7 by default)
    state.board[row, col]                   a Piece; row 0 is the TOP row, col 0 the left
    state.board[row][col]                   the same cell
    piece.shape, piece.color                "O" / "X" / "-" (empty) and "RED" / "BLUE" /
                                            "BLACK" (empty)
    state.players[i].quota                  {"O": n, "X": n}: pieces player index i has left
    state.players[i].shape / .color         its own shape and color ("O", "RED" for index 0)
    state.round                             the turn number, 1 for the first move

Player index 0 is red, owns ``O`` and moves first; index 1 is blue and owns ``X``. This
module imports only the standard library (it runs inside the bot's sandbox).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EMPTY_SHAPE, EMPTY_COLOR = "-", "BLACK"
COLORS = ("RED", "BLUE")
SHAPES = ("O", "X")
"""Index 0 (player 1) owns red and ``O``; index 1 (player 2) owns blue and ``X``."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One cell: ``shape`` ``O``/``X``/``-`` and ``color`` ``RED``/``BLUE``/``BLACK``."""

    shape: str
    color: str


class Board:
    """``row`` x ``col`` cells, read as ``board[row, col]`` or ``board[row][col]`` (row 0 at
    the top)."""

    def __init__(self, rows: int, cols: int, cells: list[list[Piece]]) -> None:
        self.row = rows
        self.col = cols
        self.board = cells

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, tuple):
            row, col = index
            return self.board[row][col]
        return self.board[index]

    def is_valid(self, row: int, col: int) -> bool:
        """Whether ``(row, col)`` is on the board."""
        return 0 <= row < self.row and 0 <= col < self.col


@dataclass(slots=True)
class PlayerState:
    """A player: its own ``shape`` and ``color`` and the ``quota`` of pieces it has left."""

    shape: str
    color: str
    quota: dict[str, int]


@dataclass(slots=True)
class State:
    """What a course bot's ``find`` gets: ``board``, ``players`` (index 0 red, 1 blue) and
    ``round`` (1 for the first move)."""

    board: Board
    players: list[PlayerState]
    round: int


def state_from_data(data: dict[str, Any]) -> State:
    """The :class:`State` of the plain data :func:`state_data` writes. Raises ``KeyError``,
    ``TypeError`` or ``ValueError`` for data of another form (the referee's, never a bot's)."""
    rows, cols = int(data["rows"]), int(data["cols"])
    cells = [[Piece(str(shape), str(color)) for shape, color in row] for row in data["cells"]]
    if len(cells) != rows or any(len(row) != cols for row in cells):
        raise ValueError(f"cells are not {rows} rows of {cols}")
    players = [
        PlayerState(SHAPES[i], COLORS[i], {k: int(v) for k, v in data["quota"][i].items()})
        for i in (0, 1)
    ]
    return State(Board(rows, cols, cells), players, int(data["round"]))


def state_data(
    rows: int,
    cols: int,
    pieces: dict[tuple[int, int], tuple[str, int]],
    quota: list[dict[str, int]],
) -> dict[str, Any]:
    """Plain data of a position: ``pieces`` maps ``(row from the top, column)`` to
    ``(shape, player index)``; ``quota[i]`` player index ``i``'s pieces left per shape. The
    round is one more than the pieces on the board."""
    cells = [
        [
            [pieces[(r, c)][0], COLORS[pieces[(r, c)][1]]]
            if (r, c) in pieces
            else [EMPTY_SHAPE, EMPTY_COLOR]
            for c in range(cols)
        ]
        for r in range(rows)
    ]
    return {
        "rows": rows,
        "cols": cols,
        "cells": cells,
        "quota": [dict(q) for q in quota],
        "round": len(pieces) + 1,
    }
