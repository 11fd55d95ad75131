"""Moves as JSON objects, shared by the games whose moves name a column."""

from __future__ import annotations

from perfectplay.errors import NotationError, quote
from perfectplay.games.kit import JSONValue

COLUMN_KEYS = frozenset({"column"})


def column_from_json(data: JSONValue, width: int, keys: frozenset[str] = COLUMN_KEYS) -> int:
    """The 0-based column of a JSON move object with exactly ``keys``; only the form is
    checked. Raises :class:`NotationError` naming the object."""
    if not isinstance(data, dict) or set(data) != keys:
        names = " and ".join(sorted(keys))
        raise NotationError(f"move {quote(data)}: expected an object with keys {names}")
    column = data["column"]
    if isinstance(column, bool) or not isinstance(column, int) or not 1 <= column <= width:
        raise NotationError(f"move {quote(data)}: column must be a whole number 1-{width}")
    return column - 1
