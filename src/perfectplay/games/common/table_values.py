"""Values in the transposition tables of the negamax kernels (numba).

Inside a search a decisive value is relative to the root (``WIN - p``: a win ``p`` plies from
the root, the scale of :mod:`perfectplay.search.result`); a table entry must hold for the
position wherever it is met, so it is stored relative to the position itself: ``p`` counted
from that position instead of from the root. Heuristic and draw values are stored as they
are.
"""

from __future__ import annotations

from numba import njit

from perfectplay.games import compile_guard  # noqa: F401  (importing it is the cache's check)
from perfectplay.values import INFINITY as INF
from perfectplay.values import MATE, WIN

__all__ = ["INF", "MATE", "WIN"]
EXACT, LOWER, UPPER = 0, 1, 2
"""Bound kinds of a table entry."""


@njit(cache=True, inline="always")
def to_table(value, ply):  # type: ignore[no-untyped-def]
    """The value to store for a position ``ply`` plies below the root."""
    if value > MATE:
        return value + ply
    if value < -MATE:
        return value - ply
    return value


@njit(cache=True, inline="always")
def from_table(value, ply):  # type: ignore[no-untyped-def]
    """The root-relative value of an entry read ``ply`` plies below the root."""
    if value > MATE:
        return value - ply
    if value < -MATE:
        return value + ply
    return value
