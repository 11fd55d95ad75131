"""The numbers every search shares, defined once.

Score scale (one for all games, algorithms and compiled kernels, from the side to move's
point of view)::

    +WIN - p   win with the p-th ply from now (p = 1: the next move wins)
    0          draw (exact) or an even heuristic value
    -(WIN - p) loss, the opponent's deciding move being the p-th ply from now
    |v| < HEURISTIC_BOUND   a heuristic value from an evaluation at the search horizon

Values beyond ``±MATE`` are decisive. This module imports nothing, so that the compiled
kernels (numba reads these as compile-time constants), the search layer and the games can all
depend on it without depending on each other.
"""

from __future__ import annotations

WIN = 1_000_000
"""The value of winning on the spot; a win ``p`` plies away is ``WIN - p``."""
MAX_PLIES = 10_000
"""More plies than any game here lasts: decisive values stay beyond ``±MATE``."""
MATE = WIN - MAX_PLIES
"""Values beyond ``±MATE`` are decisive (a win or a loss at some distance)."""
HEURISTIC_BOUND = 100_000
"""Heuristic values stay strictly inside ``(-HEURISTIC_BOUND, HEURISTIC_BOUND)``."""
HEURISTIC_LIMIT = HEURISTIC_BOUND - 1
"""The largest heuristic value: evaluations clamp to ``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``."""
FULL_DRAFT = 1 << 30
"""The draft (depth searched) of a table entry that holds an exact value."""
INFINITY = WIN + 1
"""Above every value: the open bound of a search window."""
UNLIMITED_NODES = 1 << 62
"""A node budget that never runs out."""
