"""Tic-tac-toe and m,n,k notation: boards and moves.

Boards
    Rows from top to bottom separated by ``/`` (or new lines), cells ``x``, ``o`` and ``_``,
    ``.`` or ``-`` for empty, case-insensitive: ``xox/oox/___``. Alternatively a JSON matrix of
    ``1`` (x), ``-1`` (o) and ``0`` (empty): ``[[1,-1,1],[-1,-1,1],[0,0,0]]``. The board size
    is read from the text; ``k`` defaults to ``rules.default_k`` (the shorter side; 5 from 15
    columns on). :func:`format_mnk_board` writes the compact form, which parses back to the
    same position.

Moves
    ``b3`` (column letter, row number from the top, both 1-based as on the drawn board) or two
    1-based numbers ``3 2`` / ``3,2`` (row, column).
"""

from __future__ import annotations

import json
import re
from typing import Any

from perfectplay.errors import (
    IllegalMoveError,
    NotationError,
    ParameterError,
    quote,
)
from perfectplay.games.mnk.rules import (
    MAX_SIZE,
    Cell,
    MNKGame,
    MNKPosition,
    make_spec,
)
from perfectplay.games.mnk.text import column_letters
from perfectplay.notation import (
    MAX_TEXT,
    check_rectangular,
    grid_from_text,
)

# -- m,n,k boards ----------------------------------------------------------------------------
NESTING_LIMIT = 32
"""JSON nested deeper than this is refused before parsing (a board nests two lists deep; a
little deeper gets the value's own error, far deeper would reach the interpreter's recursion
limit at a depth that depends on the caller's stack)."""


def _nesting(text: str) -> int:
    """How deeply the lists of a JSON text nest (brackets counted: a board has no strings)."""
    depth = deepest = 0
    for char in text:
        if char == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "]":
            depth -= 1
    return deepest


def _grid_from_json(text: str) -> list[list[int]]:
    if _nesting(text) > NESTING_LIMIT:  # refused before parsing, whatever the stack depth
        raise NotationError(f"board {quote(text)}: nested too deeply for a board")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"board {quote(text)}: not valid JSON ({exc.msg})") from None
    except RecursionError:  # hundreds of nested lists: no board is deeper than two
        raise NotationError(f"board {quote(text)}: nested too deeply for a board") from None
    if not isinstance(data, list) or not data:
        raise NotationError(f"board {quote(text)}: a JSON board must be a non-empty list of rows")
    grid: list[list[int]] = []
    for r, row in enumerate(data, start=1):
        if not isinstance(row, list) or not row:
            raise NotationError(f"board {quote(text)}: row {r} is not a non-empty list")
        for c, value in enumerate(row, start=1):
            if isinstance(value, bool) or value not in (1, -1, 0) or not isinstance(value, int):
                raise NotationError(
                    f"board {quote(text)}: value {quote(value)} at row {r}, column {c} "
                    "(use 1 for x, -1 for o, 0 for empty)"
                )
        grid.append(list(row))
    return grid


def parse_mnk_board(
    text: str, k: int | None = None, exactly: bool = False
) -> tuple[MNKGame, MNKPosition]:
    """The game (size from the board, ``k`` or its default) and the validated position.

    Raises :class:`NotationError` for text that does not parse (empty, ragged rows, unknown
    characters), :class:`ParameterError` for a size or ``k`` out of range and
    :class:`~perfectplay.errors.IllegalPositionError` for a board no legal game reaches.
    """
    if not isinstance(text, str):
        raise NotationError(f"board {quote(text)}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"board {quote(text)}: longer than {MAX_TEXT} characters")
    if not text.strip():
        raise NotationError(f"board {quote(text)}: empty text; write rows such as xox/oox/___")
    is_json = text.lstrip().startswith("[")
    grid = _grid_from_json(text) if is_json else grid_from_text(text)
    check_rectangular(text, grid)
    rows, cols = len(grid), len(grid[0])
    if rows > MAX_SIZE or cols > MAX_SIZE:
        raise ParameterError(
            f"board {quote(text)}: {cols}x{rows} is too large; at most {MAX_SIZE}x{MAX_SIZE}"
        )
    game = MNKGame(make_spec(rows, cols, k, exactly))
    x = o = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value == 1:
                x |= 1 << (r * cols + c)
            elif value == -1:
                o |= 1 << (r * cols + c)
    try:
        return game, game.from_bits(x, o)
    except ValueError as exc:
        raise type(exc)(f"board {quote(text)}: {exc}") from None


def parse_mnk_move(game: MNKGame, text: str) -> Cell:
    """A cell from ``b3`` (column letter, 1-based row) or ``3 2`` / ``3,2`` (1-based row, col).

    Raises :class:`NotationError` when the text is neither form and :class:`IllegalMoveError`
    when it names a cell off the board.
    """
    spec = game.spec
    cleaned = text.strip().lower()
    letter = re.fullmatch(r"([a-z])\s*([0-9]{1,2})", cleaned)
    numbers = re.fullmatch(r"([0-9]{1,2})\s*[ ,;]\s*([0-9]{1,2})", cleaned)
    if letter:
        row, col = int(letter.group(2)), ord(letter.group(1)) - ord("a") + 1
    elif numbers:
        row, col = int(numbers.group(1)), int(numbers.group(2))
    else:
        raise NotationError(
            f"move {quote(text)}: expected a cell such as b3 (column letter, row number) or "
            "'3 2' (row, column, from 1)"
        )
    if not (1 <= row <= spec.rows and 1 <= col <= spec.cols):
        raise IllegalMoveError(
            f"move {quote(text)}: off the {spec.size} board "
            f"(rows 1-{spec.rows}, columns a-{column_letters(spec.cols)[-1]})"
        )
    return Cell(row - 1, col - 1)


def format_mnk_move(move: Cell) -> str:
    """``b3``-style label of a cell, as :func:`parse_mnk_move` reads it."""
    return f"{column_letters(26)[move[1]]}{move[0] + 1}"


def parse_json_cell(game: MNKGame, data: Any) -> Cell:
    """A cell from the JSON object ``{"row": r, "col": c}``, counted from 1 (``c3`` is
    ``{"row": 3, "col": 3}``)."""
    if not isinstance(data, dict) or set(data) != {"row", "col"}:
        raise NotationError(f"move {quote(data)}: expected an object with keys row and col")
    row, col = data["row"], data["col"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
        raise NotationError(f"move {quote(data)}: row and col must be whole numbers")
    if not (1 <= row <= game.spec.rows and 1 <= col <= game.spec.cols):
        raise IllegalMoveError(
            f"move {quote(data)}: off the {game.spec.size} board (row 1-"
            f"{game.spec.rows}, col 1-{game.spec.cols})"
        )
    return Cell(row - 1, col - 1)
