"""Shape-and-color notation: moves and move sequences, parsed and checked.

A move is the 1-based column followed by the shape, ``4O`` or ``4x`` (case-insensitive); a
position is the moves played from the empty board, separated by spaces or commas or written
together: ``4O 4X 3O`` or ``4O4X3O``. :func:`parse_simplexity_moves` plays them and
:func:`format_simplexity_moves` writes them back (space-separated). Every parser raises a
precise :mod:`perfectplay.errors` exception naming the input (and the move's number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from perfectplay.errors import (
    IllegalMoveError,
    NotationError,
    PerfectplayError,
    quote,
)
from perfectplay.games.simplexity.rules import SimplexityMove
from perfectplay.notation import MAX_TEXT

SIMPLEXITY_MOVE = re.compile(r"\s*([0-9]+)\s*([A-Za-z])\s*,?")


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
                f"moves {quote(text)}: move {len(tokens) + 1} at character {start + 1} "
                f"({quote(text[start])}): a move is a column number and a shape, such as 4O"
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
            f"move {number} {quote(str(text))}: a move is a column number and a shape, such as 4O"
        )
    digits, letter = tokens[0]
    try:
        return _simplexity_move(text, number, digits, letter)
    except PerfectplayError as exc:  # one move: no need to quote a sequence
        raise type(exc)(str(exc).removeprefix(f"moves {quote(text)}: ")) from None


def _simplexity_move(text: str, number: int, digits: str, letter: str) -> tuple[int, str]:
    shape = letter.upper()
    label = f"{digits[:6]}...{letter}" if len(digits) > 6 else f"{digits}{letter}"
    if shape not in ("O", "X"):
        raise NotationError(f"moves {quote(text)}: move {number} ({label}): the shape is O or X")
    if len(digits) > 6:
        raise IllegalMoveError(f"moves {quote(text)}: move {number} ({label}): no such column")
    return int(digits) - 1, shape


def parse_simplexity_moves(game: Any, text: str) -> tuple[Any, list[Any]]:
    """Play a shape-and-color move sequence (``4O 4X 3O`` or ``4O4X3O``) from the empty board.

    Returns the position reached and the moves played. Raises :class:`NotationError` for text
    that is not a sequence of moves and :class:`IllegalMoveError` (a bad column, a full
    column, a used-up shape) or :class:`GameOverError` (a move after the end); every message
    names the move's 1-based number in the sequence and the move.
    """
    if not isinstance(text, str):
        raise NotationError(f"moves {quote(text)}: expected text")
    if len(text) > MAX_TEXT:
        raise NotationError(f"moves {quote(text)}: longer than {MAX_TEXT} characters")
    position = game.initial()
    moves: list[Any] = []
    for number, (digits, letter) in enumerate(_simplexity_tokens(text), start=1):
        column, shape = _simplexity_move(text, number, digits, letter)
        try:
            position = game.play(position, (column, shape))
        except ValueError as exc:
            reason = str(exc).removeprefix(f"move {column + 1}{shape}: ")
            where = f"moves {quote(text)}: move {number} ({column + 1}{shape})"
            raise type(exc)(f"{where}: {reason}") from None
        moves.append(SimplexityMove(column, shape))
    return position, moves


def format_simplexity_moves(moves: Sequence[Any]) -> str:
    """``4O 4X 3O``: the moves, 1-based columns, space-separated."""
    return " ".join(f"{column + 1}{shape}" for column, shape in moves)
