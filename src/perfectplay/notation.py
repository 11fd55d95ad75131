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
    ``AxB`` such as ``4x4`` (rows x columns for tic-tac-toe, width x height for Connect Four),
    or a single number for a square board.

Connect Four move sequences
    The 1-based columns played, in order, from the empty board. Up to 9 columns wide the
    digits are written together: ``4453``; wider boards separate the columns with commas:
    ``10,3,4`` (commas are accepted on narrow boards too: ``4,4,5,3``). Whitespace around the
    text and around commas is ignored; the empty text is the empty board.
    :func:`parse_connect4_moves` plays the sequence and :func:`format_connect4_moves` writes it.

Connect Four pictures
    Rows from top to bottom separated by new lines (or ``/``), cells ``x`` (player 1, who
    moves first), ``o`` (player 2) and ``.``, ``_`` or ``-`` for empty, case-insensitive::

        .......
        .......
        .......
        ...o...
        ...x...
        ..xox..

    The board size is read from the picture; the position is checked (no floating stones,
    possible counts, at most one line and only the last mover's). :func:`format_connect4_picture`
    writes it (``str`` of a position) and :func:`parse_connect4_picture` reads it back.
    :func:`render_connect4_board` draws it for a terminal, with column numbers and colours.

Shape-and-color moves and positions
    A move is the 1-based column followed by the shape, ``4O`` or ``4x`` (case-insensitive); a
    position is the moves played from the empty board, separated by spaces or commas or
    written together: ``4O 4X 3O`` or ``4O4X3O``. :func:`parse_simplexity_moves` plays them and
    :func:`format_simplexity_moves` writes them back (space-separated).
    :func:`render_simplexity_board` draws the board as the course's engine prints it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
    PerfectplayError,
)
from perfectplay.games.connect4 import Connect4Game, Connect4Position
from perfectplay.games.connect4 import make_spec as make_connect4_spec
from perfectplay.games.mnk import MAX_SIZE, Cell, MNKGame, MNKPosition, make_spec
from perfectplay.games.protocol import Player
from perfectplay.games.simplexity import SimplexityMove

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
        raise ParameterError(f"size {_quote(text)}: expected a size such as 4x4, or one number")
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


def _check_rectangular(text: str, grid: list[list[int]]) -> None:
    """Raise :class:`NotationError` when the rows of a parsed board differ in length."""
    for r, row in enumerate(grid, start=1):
        if len(row) != len(grid[0]):
            raise NotationError(
                f"board {_quote(text)}: ragged rows, row {r} has {len(row)} cells but row 1 has "
                f"{len(grid[0])}"
            )


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
    _check_rectangular(text, grid)
    rows, cols = len(grid), len(grid[0])
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


# -- Connect Four ------------------------------------------------------------------------------
DIGITS = frozenset("0123456789")
DIGITS_UP_TO = 9
"""Boards up to this many columns wide write their move sequences as plain digits."""


def _move_tokens(text: str, commas: bool) -> list[str]:
    """The column numbers of a move sequence, as digit strings: single digits, or with
    ``commas`` the numbers between commas.

    Raises :class:`NotationError` for a character that is not a digit (whitespace is allowed
    at either end and, with commas, around them), naming it and its 1-based index, and for
    an empty column between commas.
    """
    quoted = _quote(text)
    if not text.strip():
        return []
    if not commas:
        tokens = []
        start, end = len(text) - len(text.lstrip()), len(text.rstrip())
        for i in range(start, end):
            if text[i] not in DIGITS:
                raise NotationError(
                    f"moves {quoted}: unexpected character {text[i]!r} at index {i + 1} "
                    "(write the columns as digits such as 4453, or separated by commas)"
                )
            tokens.append(text[i])
        return tokens
    tokens = []
    offset = 0  # index in ``text`` of the current piece's first character
    for number, piece in enumerate(text.split(","), start=1):
        digits = piece.strip()
        if not digits:
            where = (
                f"after the comma at index {offset}"
                if number > 1
                else f"before the comma at index {offset + len(piece) + 1}"
            )
            raise NotationError(f"moves {quoted}: move {number} is empty (no column {where})")
        lead = len(piece) - len(piece.lstrip())
        for i, char in enumerate(digits):
            if char not in DIGITS:
                raise NotationError(
                    f"moves {quoted}: unexpected character {char!r} at index "
                    f"{offset + lead + i + 1} (write the columns as numbers separated by "
                    "commas, such as 10,3,4)"
                )
        tokens.append(digits)
        offset += len(piece) + 1
    return tokens


def parse_connect4_moves(game: Connect4Game, text: str) -> tuple[Connect4Position, list[int]]:
    """Play a move sequence of 1-based columns (``4453``, or ``10,3,4``) from the empty board.

    Up to 9 columns wide a column is one digit unless the text has commas; wider boards
    always read numbers separated by commas (so ``10`` is column 10 there). Returns the
    position reached and the 0-based columns played. Raises :class:`NotationError` for text
    that is not a sequence of columns (naming the character and its 1-based index),
    :class:`IllegalMoveError` for a column that does not exist or is full and
    :class:`GameOverError` for a move after the game has ended; those name the move's
    1-based number in the sequence and its column.
    """
    if not isinstance(text, str):
        raise NotationError(f"moves {text!r}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"moves {_quote(text)}: longer than {MAX_TEXT} characters")
    width = game.spec.width
    wide = width > DIGITS_UP_TO
    tokens = _move_tokens(text, commas=wide or "," in text)
    position = game.initial()
    columns: list[int] = []
    for number, digits in enumerate(tokens, start=1):
        column = int(digits)
        label = str(column) if column < 10**6 else f"{str(column)[:6]}..."
        where = f"moves {_quote(text)}: move {number} (column {label})"
        outcome = game.outcome(position)
        if outcome is not None:
            raise GameOverError(f"{where}: the game is already over ({outcome.reason})")
        if not 1 <= column <= width:
            hint = " (separate the columns with commas, such as 10,3,4)" if wide else ""
            raise IllegalMoveError(
                f"{where}: no such column, the board has columns 1-{width}{hint}"
            )
        if not game.can_play(position, column - 1):
            raise IllegalMoveError(f"{where}: the column is full")
        position = game.play_column(position, column - 1)
        columns.append(column - 1)
    return position, columns


def format_connect4_moves(game: Connect4Game, columns: Sequence[int]) -> str:
    """The move sequence of 0-based ``columns`` as :func:`parse_connect4_moves` reads it:
    digits (``4453``) up to 9 columns wide, comma-separated numbers (``10,3,4``) beyond.

    Raises :class:`IllegalMoveError` for a column that is not on the board (it only checks
    the range; whether the moves can be played is for the parser to say)."""
    width = game.spec.width
    for column in columns:
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < width:
            raise IllegalMoveError(
                f"column {column!r}: not a 0-based column of a {width} columns wide board"
            )
    labels = [str(column + 1) for column in columns]
    return "".join(labels) if width <= DIGITS_UP_TO else ",".join(labels)


def connect4_rows(position: Connect4Position) -> list[list[str]]:
    """The cells as ``x``/``o``/``.`` rows, top row first."""
    spec = position.spec
    rows = []
    for row in range(spec.height - 1, -1, -1):
        cells = []
        for column in range(spec.width):
            bit = 1 << (column * spec.stride + row)
            cells.append("x" if position.first & bit else "o" if position.second & bit else ".")
        rows.append(cells)
    return rows


def format_connect4_picture(position: Connect4Position) -> str:
    """Rows top to bottom, one line each: ``.`` empty, ``x`` player 1, ``o`` player 2."""
    return "\n".join("".join(row) for row in connect4_rows(position))


def parse_connect4_picture(text: str, k: int = 4) -> tuple[Connect4Game, Connect4Position]:
    """The game (size from the picture, ``k`` given) and the checked position of a picture.

    Raises :class:`NotationError` for text that does not parse (empty, ragged rows, unknown
    characters), :class:`ParameterError` for a size or ``k`` out of range and
    :class:`~perfectplay.errors.IllegalPositionError` for a board legal play cannot produce
    (see :meth:`~perfectplay.games.connect4.Connect4Game.from_bits`).
    """
    if not isinstance(text, str):
        raise NotationError(f"board {text!r}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"board {_quote(text)}: longer than {MAX_TEXT} characters")
    if not text.strip():
        raise NotationError(
            f"board {_quote(text)}: empty text; write rows from the top such as "
            "......./......./......./......./......./...x..."
        )
    grid = _grid_from_text(text)
    _check_rectangular(text, grid)
    try:
        game = Connect4Game(make_connect4_spec(len(grid[0]), len(grid), k))
    except ParameterError as exc:
        raise ParameterError(f"board {_quote(text)}: {exc}") from None
    height, stride = len(grid), game.spec.stride
    first = second = 0
    for r, row in enumerate(grid):
        for column, value in enumerate(row):
            bit = 1 << (column * stride + height - 1 - r)
            if value == 1:
                first |= bit
            elif value == -1:
                second |= bit
    try:
        return game, game.from_bits(first, second)
    except ValueError as exc:
        raise type(exc)(f"board {_quote(text)}: {exc}") from None


RED = "\x1b[31m"
YELLOW = "\x1b[33m"
RESET = "\x1b[0m"


def render_connect4_board(position: Connect4Position, color: bool = False) -> str:
    """A drawing for the terminal: the 1-based column numbers on top, then the rows from the
    top with ``.``, ``x`` and ``o`` separated by spaces; with ``color`` x is red and o yellow
    (ANSI escape codes)."""
    spec = position.spec
    cell = len(str(spec.width))
    paint = {".": ".", "x": "x", "o": "o"}
    if color:
        paint.update(x=f"{RED}x{RESET}", o=f"{YELLOW}o{RESET}")
    lines = [" ".join(f"{c:>{cell}}" for c in range(1, spec.width + 1))]
    for row in connect4_rows(position):
        lines.append(" ".join(" " * (cell - 1) + paint[char] for char in row))
    return "\n".join(lines)


SIMPLEXITY_MOVE = re.compile(r"\s*(\d+)\s*([A-Za-z])\s*,?")


def _simplexity_tokens(text: str) -> list[tuple[str, str]]:
    """``(digits, shape letter)`` pairs of a move sequence, with precise errors."""
    tokens: list[tuple[str, str]] = []
    index = 0
    while index < len(text):
        if text[index:].strip(" \t\n,") == "":
            break
        match = SIMPLEXITY_MOVE.match(text, index)
        if match is None:
            start = len(text) - len(text[index:].lstrip(" \t\n,"))
            raise NotationError(
                f"moves {_quote(text)}: move {len(tokens) + 1} at character {start + 1} "
                f"({text[start]!r}): a move is a column number and a shape, such as 4O"
            )
        tokens.append((match.group(1), match.group(2)))
        index = match.end()
    return tokens


def parse_simplexity_move(text: str, number: int = 1) -> tuple[int, str]:
    """One move ``4O``: the 0-based column and the shape (``O`` or ``X``).

    Raises :class:`NotationError` for text that is not one move, naming the move's ``number``.
    """
    try:
        tokens = _simplexity_tokens(text) if isinstance(text, str) else []
    except NotationError:  # its message would count moves from 1; this one is ``number``
        tokens = []
    if len(tokens) != 1:
        raise NotationError(
            f"move {number} {_quote(str(text))}: a move is a column number and a shape, such as 4O"
        )
    digits, letter = tokens[0]
    try:
        return _simplexity_move(text, number, digits, letter)
    except PerfectplayError as exc:  # one move: no need to quote a sequence
        raise type(exc)(str(exc).removeprefix(f"moves {_quote(text)}: ")) from None


def _simplexity_move(text: str, number: int, digits: str, letter: str) -> tuple[int, str]:
    shape = letter.upper()
    if shape not in ("O", "X"):
        raise NotationError(
            f"moves {_quote(text)}: move {number} ({digits}{letter}): the shape is O or X"
        )
    if len(digits) > 6:
        label = f"{digits[:6]}...{letter}"
        raise IllegalMoveError(f"moves {_quote(text)}: move {number} ({label}): no such column")
    return int(digits) - 1, shape


def parse_simplexity_moves(game: Any, text: str) -> tuple[Any, list[Any]]:
    """Play a shape-and-color move sequence (``4O 4X 3O`` or ``4O4X3O``) from the empty board.

    Returns the position reached and the moves played. Raises :class:`NotationError` for text
    that is not a sequence of moves and :class:`IllegalMoveError` (a bad column, a full
    column, a used-up shape) or :class:`GameOverError` (a move after the end); every message
    names the move's 1-based number in the sequence and the move.
    """
    if not isinstance(text, str):
        raise NotationError(f"moves {text!r}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"moves {_quote(text)}: longer than {MAX_TEXT} characters")
    position = game.initial()
    moves: list[Any] = []
    for number, (digits, letter) in enumerate(_simplexity_tokens(text), start=1):
        column, shape = _simplexity_move(text, number, digits, letter)
        try:
            position = game.play(position, (column, shape))
        except ValueError as exc:
            reason = str(exc).removeprefix(f"move {column + 1}{shape}: ")
            where = f"moves {_quote(text)}: move {number} ({column + 1}{shape})"
            raise type(exc)(f"{where}: {reason}") from None
        moves.append(SimplexityMove(column, shape))
    return position, moves


def format_simplexity_moves(moves: Sequence[Any]) -> str:
    """``4O 4X 3O``: the moves, 1-based columns, space-separated."""
    return " ".join(f"{column + 1}{shape}" for column, shape in moves)


SEPARATOR = ". -=- "
BLUE = "\x1b[34m"


def render_simplexity_board(position: Any, color: bool = False) -> str:
    """The board as the course's engine prints it: the column numbers (1-based, as moves are
    written), then every row from the top between ``. -=- .`` lines, cells ``|  O  |`` with
    ``-`` for empty; with ``color`` red and blue pieces are painted (ANSI escape codes)."""
    spec = position.spec
    rows, cols = spec.rows, spec.cols
    separator = SEPARATOR * cols + "."
    lines = ["".join(f"{c:^6}" for c in range(1, cols + 1)).rstrip(), separator]
    for row in range(rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            bit = 1 << (col * (rows + 1) + row)
            cells.append(_simplexity_cell(position, bit, color))
        lines.append("|" + "|".join(f"  {cell}  " for cell in cells) + "|")
        lines.append(separator)
    return "\n".join(lines)


def _simplexity_cell(position: Any, bit: int, color: bool) -> str:
    if not position.mask & bit:
        return "-"
    shape = "O" if position.circles & bit else "X"
    if not color:
        return shape
    paint = RED if position.red & bit else BLUE
    return f"{paint}{shape}{RESET}"


def simplexity_quotas(game: Any, position: Any) -> str:
    """Each player's pieces left per shape: ``player 1 (red): O 11, X 10 | player 2 ...``."""
    parts = []
    for player, color in ((Player.FIRST, "red"), (Player.SECOND, "blue")):
        left = ", ".join(f"{s} {game.quota_left(position, player, s)}" for s in ("O", "X"))
        parts.append(f"player {int(player)} ({color}): {left}")
    return " | ".join(parts)


# -- moves as JSON objects (the web's and the saved games' form) -------------------------------
def parse_move_json(game: Any, data: Any) -> Any:
    """The move of ``game`` written as the JSON object ``move_to_json`` gives: ``{"row": r,
    "col": c}`` (0-based) for tic-tac-toe, ``{"column": c}`` (1-based) for Connect Four,
    ``{"column": c, "shape": "O"}`` for the shape-and-color game.

    Only the form is checked here (keys and types, the cell or column on the board); whether
    the move is legal in a position is for ``game.play`` to say. Raises
    :class:`NotationError` naming the object.
    """
    if isinstance(game, MNKGame):
        return parse_json_cell(game, data)
    keys = {"column", "shape"} if game.name == "simplexity" else {"column"}
    if not isinstance(data, dict) or set(data) != keys:
        names = " and ".join(sorted(keys))
        raise NotationError(f"move {_quote(repr(data))}: expected an object with keys {names}")
    column = data["column"]
    width = game.spec.cols if game.name == "simplexity" else game.spec.width
    if isinstance(column, bool) or not isinstance(column, int) or not 1 <= column <= width:
        raise NotationError(f"move {_quote(repr(data))}: column must be a whole number 1-{width}")
    if game.name != "simplexity":
        return column - 1
    if data["shape"] not in ("O", "X"):
        raise NotationError(f"move {_quote(repr(data))}: shape must be 'O' or 'X'")
    return SimplexityMove(column - 1, data["shape"])


def format_moves(game: Any, moves: Sequence[Any]) -> str:
    """A move list in the game's text notation: ``4453`` (Connect Four), ``4O 4X`` (the
    shape-and-color game), ``b2 a1`` (tic-tac-toe, as :func:`parse_mnk_move` reads each)."""
    if isinstance(game, MNKGame):
        return " ".join(format_mnk_move(move) for move in moves)
    if isinstance(game, Connect4Game):
        return format_connect4_moves(game, moves)
    return format_simplexity_moves(moves)
