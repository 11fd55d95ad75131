"""Notation shared by every game: sizes, quoting user text in messages, limits on text.

Each game's own notation (its boards, move lists and moves) lives in its package:
:mod:`perfectplay.games.mnk.notation`, :mod:`perfectplay.games.connect4.notation`,
:mod:`perfectplay.games.simplexity.notation`. Every parser raises a precise
:mod:`perfectplay.errors` exception whose message quotes the input and gives the reason.

Sizes
    ``WIDTHxHEIGHT`` (columns x rows) in every game: ``7x6`` is 7 columns wide and 6 rows
    high in Connect Four, the shape-and-color game and tic-tac-toe alike; a single number
    for a square board.
"""

from __future__ import annotations

import re

from perfectplay.errors import NotationError, ParameterError, quote
from perfectplay.games.protocol import Player

EMPTY_CHARS = frozenset("_.-")
X_CHARS = frozenset("xX")
O_CHARS = frozenset("oO")
MAX_TEXT = 4096
"""Longest board text accepted (a 19x19 board needs 379 characters)."""


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")
"""A whole number as people type one: ASCII digits, an optional sign, at most 18 digits (so
that no input reaches Python's limit on converting long digit strings)."""


def parse_whole(text: str, name: str, low: int, high: int) -> int:
    """The whole number ``text`` from ``low`` to ``high``; raises :class:`ParameterError`
    naming ``name``, the text (quoted, shortened) and the range for anything else."""
    cleaned = text.strip()
    if not WHOLE_NUMBER.fullmatch(cleaned) or not low <= int(cleaned) <= high:
        raise ParameterError(f"{name} {quote(text)}: must be a whole number from {low} to {high}")
    return int(cleaned)


def parse_size(text: str) -> tuple[int, int]:
    """``"4x3"`` -> ``(4, 3)``; ``"5"`` -> ``(5, 5)``. Raises :class:`ParameterError`."""
    pattern = r"\s*([0-9]{1,3})\s*(?:[x\u00d7*]\s*([0-9]{1,3}))?\s*"  # \u00d7 is the sign "times"
    match = re.fullmatch(pattern, text, flags=re.IGNORECASE)
    if not match:
        raise ParameterError(f"size {quote(text)}: expected a size such as 4x4, or one number")
    width = int(match.group(1))
    height = int(match.group(2)) if match.group(2) else width
    return width, height


def player_from_text(text: str) -> Player:
    """``x``/``1``/``first`` -> FIRST, ``o``/``2``/``second`` -> SECOND."""
    lowered = text.strip().lower()
    if lowered in ("x", "1", "first"):
        return Player.FIRST
    if lowered in ("o", "2", "second"):
        return Player.SECOND
    raise NotationError(f"player {quote(text)}: expected x or o (1 or 2)")


def grid_from_text(text: str) -> list[list[int]]:
    """The cells of a board picture, rows from the top: 1 (x), -1 (o), 0 (empty).

    Raises :class:`NotationError` naming an empty row (``x/`` ends with one) or an unknown
    character.
    """
    # the text is stripped, so a final new line is no row; a trailing "/" is an empty row
    rows_text = re.split(r"[/\n]", text.strip().replace("\r", ""))
    grid: list[list[int]] = []
    for r, row_text in enumerate(rows_text, start=1):
        row_text = row_text.strip()
        if not row_text:
            raise NotationError(f"board {quote(text)}: row {r} is empty")
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
                    f"board {quote(text)}: unknown character {quote(char)} at row {r}, column {c} "
                    "(use x, o and _ . - for empty)"
                )
        grid.append(row)
    return grid


def check_rectangular(text: str, grid: list[list[int]]) -> None:
    """Raise :class:`NotationError` when the rows of a parsed board differ in length."""
    for r, row in enumerate(grid, start=1):
        if len(row) != len(grid[0]):
            raise NotationError(
                f"board {quote(text)}: ragged rows, row {r} has {len(row)} cells but row 1 has "
                f"{len(grid[0])}"
            )
