"""Transposition tables: remember what a search proved about a position.

An entry keeps a value and what kind of bound it is (the value searched with window
``(alpha, beta)`` is EXACT inside it, a LOWER bound when it failed high, an UPPER bound when it
failed low), the draft (plies searched below the entry; :data:`FULL_DRAFT` when no horizon was
hit, so the value holds at any depth) and the best move found.

Decisive values are stored relative to the entry's own position (``WIN - plies from here``)
and turned back into root-relative values when read, so one entry serves every path.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from perfectplay.values import MAX_PLIES, WIN


class Bound(IntEnum):
    """What an entry's value means."""

    EXACT = 0
    LOWER = 1
    UPPER = 2


def to_table(value: float, ply: int) -> float:
    """Root-relative value at ``ply`` -> position-relative value for storage."""
    if value > WIN - MAX_PLIES:
        return value + ply
    if value < -(WIN - MAX_PLIES):
        return value - ply
    return value


def from_table(value: float, ply: int) -> float:
    """Position-relative stored value -> root-relative value at ``ply``."""
    if value > WIN - MAX_PLIES:
        return value - ply
    if value < -(WIN - MAX_PLIES):
        return value + ply
    return value


@dataclass(slots=True)
class Entry:
    """One stored result."""

    value: float
    bound: Bound
    draft: int
    move: Any


class TranspositionTable:
    """A dictionary-backed table with a size cap (cleared when full, which keeps it simple and
    bounded); the compiled kernels use fixed arrays instead.
    """

    __slots__ = ("_entries", "capacity", "hits", "stores")

    def __init__(self, capacity: int = 1 << 21) -> None:
        self._entries: dict[Any, Entry] = {}
        self.capacity = capacity
        self.hits = 0
        self.stores = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Any) -> Entry | None:
        """The entry for ``key`` or ``None``."""
        return self._entries.get(key)

    def put(self, key: Any, entry: Entry) -> None:
        """Store ``entry``; a deeper existing entry of the same position is kept."""
        old = self._entries.get(key)
        if old is not None and old.draft > entry.draft:
            return
        if old is None and len(self._entries) >= self.capacity:
            self._entries.clear()
        self._entries[key] = entry
        self.stores += 1

    def clear(self) -> None:
        """Forget everything."""
        self._entries.clear()
