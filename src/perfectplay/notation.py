"""Every text format of perfectplay, parsed and checked in one place.

This module is the checked boundary: the command line, the web API and the public library
functions turn user text into games, positions and moves only through it. Each parser raises
a precise :mod:`perfectplay.errors` exception whose message quotes the input and gives the
reason; everything behind it may assume valid values.

m,n,k boards (tic-tac-toe)
    Rows from top to bottom separated by ``/`` (or new lines), cells ``x``, ``o`` and ``_``,
    ``.`` or ``-`` for empty, case-insensitive: ``xox/oox/___``. Alternatively a JSON matrix of
    ``1`` (x), ``-1`` (o) and ``0`` (empty): ``[[1,-1,1],[-1,-1,1],[0,0,0]]``. The board size
    is read from the text; ``k`` defaults to ``min(rows, cols)``. :func:`format_mnk_board`
    writes the compact form, which parses back to the same position.

m,n,k moves
    ``b3`` (column letter, row number from the top, both 1-based as on the drawn board) or two
    1-based numbers ``3 2`` / ``3,2`` (row, column).

Sizes
    ``ROWSxCOLS`` such as ``4x4``, or a single number for a square board.
"""

from __future__ import annotations

import json
import re
from typing import Any

from perfectplay.errors import IllegalMoveError, NotationError, ParameterError
from perfectplay.games.mnk import MAX_SIZE, Cell, MNKGame, MNKPosition, make_spec
from perfectplay.games.protocol import Player

EMPTY_CHARS = frozenset("_.-")
X_CHARS = frozenset("xX")
O_CHARS = frozenset("oO")
MAX_TEXT = 4096
"""Longest board text accepted (a 15x15 board needs 239 characters)."""


def _quote(text: str, limit: int = 60) -> str:
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)


def parse_size(text: str) -> tuple[int, int]:
    """``"4x3"`` -> ``(4, 3)``; ``"5"`` -> ``(5, 5)``. Raises :class:`ParameterError`."""
    pattern = r"\s*(\d{1,3})\s*(?:[x\u00d7*]\s*(\d{1,3}))?\s*"  # \u00d7 is the sign "times"
    match = re.fullmatch(pattern, text, flags=re.IGNORECASE)
    if not match:
        raise ParameterError(f"size {_quote(text)}: expected ROWSxCOLS such as 4x4, or one number")
    rows = int(match.group(1))
    cols = int(match.group(2)) if match.group(2) else rows
    return rows, cols


# -- m,n,k boards ----------------------------------------------------------------------------
def _grid_from_text(text: str) -> list[list[int]]:
    rows_text = [r for r in re.split(r"[/\n]", text.strip().replace("\r", ""))]
    if rows_text and rows_text[-1] == "" and len(rows_text) > 1:
        rows_text.pop()  # a trailing separator is harmless
    grid: list[list[int]] = []
    for r, row_text in enumerate(rows_text, start=1):
        row_text = row_text.strip()
        if not row_text:
            raise NotationError(f"board {_quote(text)}: row {r} is empty")
        row: list[int] = []
        for c, char in enumerate(row_text, start=1):
            if char in X_CHARS:
                row.append(1)
            elif char in O_CHARS:
                row.append(-1)
            elif char in EMPTY_CHARS:
                row.append(0)
            else:
                raise NotationError(
                    f"board {_quote(text)}: unknown character {char!r} at row {r}, column {c} "
                    "(use x, o and _ . - for empty)"
                )
        grid.append(row)
    return grid


def _grid_from_json(text: str) -> list[list[int]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"board {_quote(text)}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, list) or not data:
        raise NotationError(f"board {_quote(text)}: a JSON board must be a non-empty list of rows")
    grid: list[list[int]] = []
    for r, row in enumerate(data, start=1):
        if not isinstance(row, list) or not row:
            raise NotationError(f"board {_quote(text)}: row {r} is not a non-empty list")
        for c, value in enumerate(row, start=1):
            if isinstance(value, bool) or value not in (1, -1, 0) or not isinstance(value, int):
                raise NotationError(
                    f"board {_quote(text)}: value {value!r} at row {r}, column {c} "
                    "(use 1 for x, -1 for o, 0 for empty)"
                )
        grid.append(list(row))
    return grid


def parse_mnk_board(text: str, k: int | None = None) -> tuple[MNKGame, MNKPosition]:
    """The game (size from the board, ``k`` or its default) and the validated position.

    Raises :class:`NotationError` for text that does not parse (empty, ragged rows, unknown
    characters), :class:`ParameterError` for a size or ``k`` out of range and
    :class:`~perfectplay.errors.IllegalPositionError` for a board no legal game reaches.
    """
    if not isinstance(text, str):
        raise NotationError(f"board {text!r}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"board {_quote(text)}: longer than {MAX_TEXT} characters")
    if not text.strip():
        raise NotationError(f"board {_quote(text)}: empty text; write rows such as xox/oox/___")
    is_json = text.lstrip().startswith("[")
    grid = _grid_from_json(text) if is_json else _grid_from_text(text)
    widths = [len(row) for row in grid]
    for r, width in enumerate(widths, start=1):
        if width != widths[0]:
            raise NotationError(
                f"board {_quote(text)}: ragged rows, row {r} has {width} cells but row 1 has "
                f"{widths[0]}"
            )
    rows, cols = len(grid), widths[0]
    if rows > MAX_SIZE or cols > MAX_SIZE:
        raise ParameterError(
            f"board {_quote(text)}: {rows}x{cols} is too large; at most {MAX_SIZE}x{MAX_SIZE}"
        )
    game = MNKGame(make_spec(rows, cols, k))
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
        raise type(exc)(f"board {_quote(text)}: {exc}") from None


def format_mnk_board(position: MNKPosition, empty: str = "_") -> str:
    """Compact form ``xox/oox/___`` (parses back to the same position)."""
    spec = position.spec
    rows = []
    for r in range(spec.rows):
        cells = []
        for c in range(spec.cols):
            bit = 1 << (r * spec.cols + c)
            cells.append("x" if position.x & bit else "o" if position.o & bit else empty)
        rows.append("".join(cells))
    return "/".join(rows)


def mnk_board_matrix(position: MNKPosition) -> list[list[int]]:
    """The board as a JSON-ready matrix of 1 (x), -1 (o) and 0."""
    spec = position.spec
    matrix: list[list[int]] = []
    for r in range(spec.rows):
        row: list[int] = []
        for c in range(spec.cols):
            bit = 1 << (r * spec.cols + c)
            row.append(1 if position.x & bit else -1 if position.o & bit else 0)
        matrix.append(row)
    return matrix


def column_letters(cols: int) -> str:
    """``abc...`` labels of the first ``cols`` columns."""
    return "abcdefghijklmnopqrstuvwxyz"[:cols]


def render_mnk_board(position: MNKPosition) -> str:
    """A multi-line drawing with column letters and row numbers, as :func:`parse_mnk_move` reads."""
    spec = position.spec
    letters = column_letters(spec.cols)
    lines = ["     " + "   ".join(letters)]
    separator = "    " + "+".join(["---"] * spec.cols)
    for r, row in enumerate(format_mnk_board(position, empty=".").split("/"), start=1):
        lines.append(f"{r:>2}   " + " | ".join(row))
        if r < spec.rows:
            lines.append(separator)
    return "\n".join(lines)


def parse_mnk_move(game: MNKGame, text: str) -> Cell:
    """A cell from ``b3`` (column letter, 1-based row) or ``3 2`` / ``3,2`` (1-based row, col).

    Raises :class:`NotationError` when the text is neither form and :class:`IllegalMoveError`
    when it names a cell off the board.
    """
    spec = game.spec
    cleaned = text.strip().lower()
    letter = re.fullmatch(r"([a-z])\s*(\d{1,2})", cleaned)
    numbers = re.fullmatch(r"(\d{1,2})\s*[ ,;]\s*(\d{1,2})", cleaned)
    if letter:
        row, col = int(letter.group(2)), ord(letter.group(1)) - ord("a") + 1
    elif numbers:
        row, col = int(numbers.group(1)), int(numbers.group(2))
    else:
        raise NotationError(
            f"move {_quote(text)}: expected a cell such as b3 (column letter, row number) or "
            "'3 2' (row, column, from 1)"
        )
    if not (1 <= row <= spec.rows and 1 <= col <= spec.cols):
        raise IllegalMoveError(
            f"move {_quote(text)}: off the {spec.rows}x{spec.cols} board "
            f"(rows 1-{spec.rows}, columns a-{column_letters(spec.cols)[-1]})"
        )
    return Cell(row - 1, col - 1)


def format_mnk_move(move: Cell) -> str:
    """``b3``-style label of a cell, as :func:`parse_mnk_move` reads it."""
    return f"{column_letters(26)[move[1]]}{move[0] + 1}"


def parse_json_cell(game: MNKGame, data: Any) -> Cell:
    """A cell from the JSON object ``{"row": r, "col": c}`` (0-based)."""
    if not isinstance(data, dict) or set(data) != {"row", "col"}:
        raise NotationError(f"move {data!r}: expected an object with keys row and col")
    row, col = data["row"], data["col"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
        raise NotationError(f"move {data!r}: row and col must be whole numbers")
    game.index((row, col))
    return Cell(row, col)


def player_from_text(text: str) -> Player:
    """``x``/``1``/``first`` -> FIRST, ``o``/``2``/``second`` -> SECOND."""
    lowered = text.strip().lower()
    if lowered in ("x", "1", "first"):
        return Player.FIRST
    if lowered in ("o", "2", "second"):
        return Player.SECOND
    raise NotationError(f"player {_quote(text)}: expected x or o (1 or 2)")
