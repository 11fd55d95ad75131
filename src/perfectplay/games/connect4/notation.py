"""Connect Four notation: move sequences and pictures, parsed and checked.

Move sequences
    The 1-based columns played, in order, from the empty board. Up to 9 columns wide the
    digits are written together: ``4453``; wider boards separate the columns with commas:
    ``10,3,4`` (commas are accepted on narrow boards too: ``4,4,5,3``). Whitespace around the
    text and around commas is ignored; the empty text is the empty board.
    :func:`parse_connect4_moves` plays the sequence and :func:`format_connect4_moves` writes it.

Pictures
    Rows from top to bottom separated by new lines (or ``/``), cells ``x`` (player 1, who
    moves first), ``o`` (player 2) and ``.``, ``_`` or ``-`` for empty, case-insensitive::

        .......
        .......
        .......
        ...o...
        ...x...
        ..xox..

    The board size is read from the picture; the position is checked (no floating stones,
    possible counts, at most one line and only the last mover's).
    :func:`~perfectplay.games.connect4.text.format_connect4_picture` writes it (``str`` of a
    position) and :func:`parse_connect4_picture` reads it back.

Every parser raises a precise :mod:`perfectplay.errors` exception naming the input.
"""

from __future__ import annotations

from collections.abc import Sequence

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
    quote,
)
from perfectplay.games.connect4.rules import (
    Connect4Game,
    Connect4Position,
)
from perfectplay.games.connect4.rules import make_spec as make_connect4_spec
from perfectplay.notation import MAX_TEXT, check_rectangular, grid_from_text

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
    quoted = quote(text)
    if not text.strip():
        return []
    if not commas:
        tokens = []
        start, end = len(text) - len(text.lstrip()), len(text.rstrip())
        for i in range(start, end):
            if text[i] not in DIGITS:
                raise NotationError(
                    f"moves {quoted}: unexpected character {quote(text[i])} at index {i + 1} "
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
                    f"moves {quoted}: unexpected character {quote(char)} at index "
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
        raise NotationError(f"moves {quote(text)}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"moves {quote(text)}: longer than {MAX_TEXT} characters")
    width = game.spec.width
    wide = width > DIGITS_UP_TO
    tokens = _move_tokens(text, commas=wide or "," in text)
    position = game.initial()
    columns: list[int] = []
    for number, digits in enumerate(tokens, start=1):
        column = int(digits)
        label = str(column) if column < 10**6 else f"{str(column)[:6]}..."
        where = f"moves {quote(text)}: move {number} (column {label})"
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
                f"column {quote(column)}: not a 0-based column of a {width} columns wide board"
            )
    labels = [str(column + 1) for column in columns]
    return "".join(labels) if width <= DIGITS_UP_TO else ",".join(labels)


def parse_connect4_picture(text: str, k: int = 4) -> tuple[Connect4Game, Connect4Position]:
    """The game (size from the picture, ``k`` given) and the checked position of a picture.

    Raises :class:`NotationError` for text that does not parse (empty, ragged rows, unknown
    characters), :class:`ParameterError` for a size or ``k`` out of range and
    :class:`~perfectplay.errors.IllegalPositionError` for a board legal play cannot produce
    (see :meth:`~perfectplay.games.connect4.Connect4Game.from_bits`).
    """
    if not isinstance(text, str):
        raise NotationError(f"board {quote(text)}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"board {quote(text)}: longer than {MAX_TEXT} characters")
    if not text.strip():
        raise NotationError(
            f"board {quote(text)}: empty text; write rows from the top such as "
            "......./......./......./......./......./...x..."
        )
    grid = grid_from_text(text)
    check_rectangular(text, grid)
    try:
        game = Connect4Game(make_connect4_spec(len(grid[0]), len(grid), k))
    except ParameterError as exc:
        raise ParameterError(f"board {quote(text)}: {exc}") from None
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
        raise type(exc)(f"board {quote(text)}: {exc}") from None
