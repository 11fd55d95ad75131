"""Positions as the web pages see them: loaded from the CLI notation, written back, drawn.

:func:`load` is the web's checked entry (it goes through :mod:`perfectplay.api` and
:mod:`perfectplay.notation`, so errors are the library's precise ones). It keeps the move
list of a move-sequence text, so that a move played on the page extends the same text:
``4453`` + column 2 is ``44532``.

:func:`state_json` is what a page needs to draw a position and take the next click::

    {"game": "connect4", "size": "7x6", "k": 4, "rows": 6, "cols": 7, "gravity": true,
     "position": "4453", "moves": [{"column": 4}, ...], "ply": 4,
     "to_move": "1", "to_move_number": 1,
     "cells": [[null, ..., {"player": 1, "mark": "x"}, ...], ...],   # rows top to bottom
     "legal": [{"column": 1}, ...],
     "outcome": null | {"winner": 1, "winner_name": "1", "reason": "player 1 connects 4",
                        "line": [[5, 3], [4, 3], ...]},               # [row, col], top row 0
     "quotas": null | {"1": {"O": 10, "X": 11}, "2": {...}}}          # shape-and-color only

Cells are ``null`` or ``{"player": 1|2, "mark": "x"|"o"}``; shape-and-color cells are
``{"player": 1|2, "shape": "O"|"X", "color": "red"|"blue"}`` (red is player 1's colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay import api
from perfectplay.games.protocol import Player
from perfectplay.notation import format_moves, parse_move_json


@dataclass(frozen=True)
class Loaded:
    """A validated position with the moves that reached it (``None`` for a board given as a
    picture, whose moves are unknown: tic-tac-toe boards and Connect Four pictures)."""

    game: Any
    position: Any
    moves: tuple[Any, ...] | None


def load(game_name: str, text: str, size: str | None = None, k: int | None = None) -> Loaded:
    """The checked position of ``text`` in the game's CLI notation, with its moves (see
    :func:`api.load_with_moves`).

    Raises the :mod:`perfectplay.errors` exception that names the bad input.
    """
    return Loaded(*api.load_with_moves(game_name, text, size=size, k=k))


def start(game: Any) -> Loaded:
    """The empty board of ``game``, with its empty move list (none for tic-tac-toe, whose
    positions are written as boards)."""
    return Loaded(game, game.initial(), None if game.name == "tictactoe" else ())


def play(loaded: Loaded, move: Any) -> Loaded:
    """``loaded`` after ``move`` (already a game move, not JSON).

    Raises :class:`~perfectplay.errors.IllegalMoveError` (or ``GameOverError``) naming it.
    """
    position = loaded.game.play(loaded.position, move)
    moves = None if loaded.moves is None else (*loaded.moves, move)
    return Loaded(loaded.game, position, moves)


def play_json(loaded: Loaded, data: Any) -> Loaded:
    """``loaded`` after the move written as JSON (see :func:`parse_move_json`)."""
    return play(loaded, parse_move_json(loaded.game, data))


def replay(
    game_name: str, size: str | None, k: int | None, moves: list[Any]
) -> tuple[Loaded, tuple[Any, ...]]:
    """The position after ``moves`` (JSON objects) from the empty board, and the moves as
    the game's own values.

    Raises the error of the first bad move, prefixed with its 1-based number.
    """
    game, _ = api.new_game(game_name, size=size, k=k)
    loaded, played = start(game), []
    for number, data in enumerate(moves, start=1):
        try:
            move = parse_move_json(game, data)
            loaded = play(loaded, move)
        except ValueError as exc:
            raise type(exc)(f"moves item {number}: {exc}") from None
        played.append(move)
    return loaded, tuple(played)


def position_text(loaded: Loaded) -> str:
    """The CLI notation of the position: the move list when known, else the board."""
    game, position = loaded.game, loaded.position
    if game.name == "tictactoe":
        from perfectplay.notation import format_mnk_board

        return format_mnk_board(position)
    if loaded.moves is None:
        from perfectplay.notation import format_connect4_picture

        return format_connect4_picture(position).replace("\n", "/")
    return format_moves(game, loaded.moves)


def size_text(game: Any) -> str:
    """The board size in the game's own ``--size`` order."""
    spec = game.spec
    if game.name == "connect4":
        return f"{spec.width}x{spec.height}"
    return f"{spec.rows}x{spec.cols}"


def grid_shape(game: Any) -> tuple[int, int]:
    """Rows and columns of the drawn board."""
    spec = game.spec
    if game.name == "connect4":
        return spec.height, spec.width
    return spec.rows, spec.cols


def state_json(loaded: Loaded) -> dict[str, Any]:
    """What a page draws: see the module docstring."""
    game, position = loaded.game, loaded.position
    rows, cols = grid_shape(game)
    player = game.to_move(position)
    outcome = game.outcome(position)
    moves = loaded.moves
    return {
        "game": game.name,
        "size": size_text(game),
        "k": getattr(game.spec, "k", 4),
        "rows": rows,
        "cols": cols,
        "gravity": game.name != "tictactoe",
        "position": position_text(loaded),
        "moves": None if moves is None else [game.move_to_json(m) for m in moves],
        "ply": game.ply(position),
        "to_move": game.player_name(player),
        "to_move_number": int(player),
        "cells": cells_json(game, position),
        "legal": [game.move_to_json(m) for m in game.legal_moves(position)],
        "outcome": None if outcome is None else _outcome_json(game, outcome),
        "quotas": _quotas(game, position),
    }


def _outcome_json(game: Any, outcome: Any) -> dict[str, Any]:
    winner = outcome.winner
    return {
        "winner": None if winner is None else int(winner),
        "winner_name": None if winner is None else game.player_name(winner),
        "reason": outcome.reason,
        "line": [list(_display_cell(game, cell)) for cell in outcome.line],
    }


def _display_cell(game: Any, cell: Any) -> tuple[int, int]:
    """``[row, col]`` with the top row 0; the connect games' lines are (column, height)."""
    if game.name == "tictactoe":
        return int(cell[0]), int(cell[1])
    rows, _ = grid_shape(game)
    column, height = cell
    return rows - 1 - int(height), int(column)


def cells_json(game: Any, position: Any) -> list[list[dict[str, Any] | None]]:
    """The cells of the drawn board, rows from the top (see the module docstring)."""
    if game.name == "tictactoe":
        from perfectplay.notation import mnk_board_matrix

        return [[_mark(MATRIX_MARKS[v]) for v in row] for row in mnk_board_matrix(position)]
    if game.name == "connect4":
        from perfectplay.notation import connect4_rows

        return [[_mark(char) for char in row] for row in connect4_rows(position)]
    rows, cols = grid_shape(game)
    stride = rows + 1
    return [
        [_piece(position, 1 << (c * stride + rows - 1 - r)) for c in range(cols)]
        for r in range(rows)
    ]


MATRIX_MARKS = {1: "x", -1: "o", 0: "."}
"""Tic-tac-toe's board matrix values as the marks Connect Four's rows use."""


def _mark(char: str) -> dict[str, Any] | None:
    """``x`` (player 1), ``o`` (player 2) or ``.`` (empty) as a cell."""
    return None if char == "." else {"player": 1 if char == "x" else 2, "mark": char}


def _piece(position: Any, bit: int) -> dict[str, Any] | None:
    """A shape-and-color cell."""
    if not position.mask & bit:
        return None
    red = bool(position.red & bit)
    return {
        "player": 1 if red else 2,
        "shape": "O" if position.circles & bit else "X",
        "color": "red" if red else "blue",
    }


def _quotas(game: Any, position: Any) -> dict[str, dict[str, int]] | None:
    if game.name != "simplexity":
        return None
    return {
        str(int(p)): {s: game.quota_left(position, p, s) for s in ("O", "X")}
        for p in (Player.FIRST, Player.SECOND)
    }
