"""Nim's notation: positions, moves and their JSON objects.

Positions
    The starting heaps separated by commas, ``3,4,5`` (spaces around the commas allowed),
    optionally followed, after a space, by the moves played from them: ``3,4,5 2:3 1:1``.
    :func:`format_position` writes that form, which reads back to the same position (the
    same heaps, and the same side to move).

Moves
    A heap numbered from 1 and the objects taken from it, ``2:3`` or ``2-3`` (heap 2,
    take 3). The JSON object is ``{"heap": 2, "take": 3}``, the heap from 1 too.

Every parser raises a :mod:`perfectplay.errors` exception naming the input and the reason:
:class:`NotationError` for text that does not parse, :class:`ParameterError` for heaps out of
the game's limits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from perfectplay.errors import NotationError, quote
from perfectplay.games.kit import JSONValue

from nim_game.rules import NimMove, NimSpec, make_spec

MAX_TEXT = 2_000
"""The longest position text read (far more than any game of at most 120 moves needs)."""
# ASCII only: Unicode's \s takes characters such as \x1c that int() refuses, and its \d
# digits of other scripts.
HEAPS = re.compile(r"\s*(\d{1,9}(?:\s*,\s*\d{1,9})*)\s*(?:\s(.*))?", re.DOTALL | re.ASCII)
MOVE = re.compile(r"(\d{1,9})\s*[:-]\s*(\d{1,9})", re.ASCII)
MOVE_KEYS = frozenset({"heap", "take"})


def split_position(text: str) -> tuple[NimSpec, list[str]]:
    """The starting heaps of a position text and its move tokens (still to be read).

    Raises :class:`NotationError` for text that is not heaps (empty, a sign, a letter, a
    stray character) and :class:`~perfectplay.errors.ParameterError` for more than
    :data:`~nim_game.rules.MAX_HEAPS` heaps or a heap above :data:`~nim_game.rules.MAX_HEAP`.
    """
    if len(text) > MAX_TEXT:
        raise NotationError(f"position {quote(text)}: longer than {MAX_TEXT} characters")
    if not text.strip():
        raise NotationError(
            f"position {quote(text)}: empty; write the heaps separated by commas, such as 3,4,5"
        )
    found = HEAPS.fullmatch(text)
    if found is None:
        raise NotationError(
            f"position {quote(text)}: expected heap sizes separated by commas (3,4,5), optionally "
            "followed by moves such as 2:3"
        )
    sizes = tuple(int(part) for part in found.group(1).split(","))
    try:
        spec = make_spec(sizes)
    except ValueError as exc:
        raise type(exc)(f"position {quote(text)}: {exc}") from None
    return spec, (found.group(2) or "").split()


def format_position(spec: NimSpec, moves: Sequence[NimMove]) -> str:
    """``3,4,5`` followed by the moves played from it, as :func:`split_position` reads."""
    return " ".join([spec.label, *(move.label for move in moves)])


def parse_move(text: str) -> NimMove:
    """The move of ``2:3`` or ``2-3``: heap 2 (from 1), take 3.

    Raises :class:`NotationError` naming the text when it is not of that form, numbers heap
    0 or takes nothing; whether the heap exists and holds enough is for ``play`` to say.
    """
    found = MOVE.fullmatch(text.strip())
    if found is None:
        raise NotationError(
            f"move {quote(text)}: expected a heap and the objects to take, such as 2:3 "
            "(heap 2, take 3)"
        )
    heap, take = int(found.group(1)), int(found.group(2))
    if heap < 1:
        raise NotationError(f"move {quote(text)}: heaps are numbered from 1")
    if take < 1:
        raise NotationError(f"move {quote(text)}: take at least one object")
    return NimMove(heap - 1, take)


def move_from_json(data: JSONValue) -> NimMove:
    """The move of ``{"heap": h, "take": t}`` (the heap from 1).

    Raises :class:`NotationError` naming the data for another form: not an object, other
    keys, values that are not whole numbers, heap below 1 or take below 1.
    """
    if not isinstance(data, dict) or set(data) != MOVE_KEYS:
        raise NotationError(f"move {quote(data)}: expected an object with keys heap and take")
    heap, take = _whole(data["heap"]), _whole(data["take"])
    if heap is None or take is None:
        raise NotationError(f"move {quote(data)}: heap and take must be whole numbers")
    if heap < 1 or take < 1:
        raise NotationError(f"move {quote(data)}: heap counts from 1 and take is at least 1")
    return NimMove(heap - 1, take)


def _whole(value: JSONValue) -> int | None:
    """``value`` when it is a whole number (not a boolean), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
