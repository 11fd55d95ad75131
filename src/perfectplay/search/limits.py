"""Search limits: how deep, how long, how many nodes.

A :class:`Limit` with no field set means "solve exactly". ``depth`` bounds the plies searched
(positions at the horizon get the game's heuristic value); ``time`` (seconds) runs iterative
deepening and returns the best move of the last completed iteration; ``nodes`` caps the
work of one search.
"""

from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass

from perfectplay.errors import ParameterError, quote

MAX_TIME = 24 * 3600.0
MIN_TIME = 0.001
"""The shortest time limit: a millisecond (shorter ones cannot be kept by any clock here)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """Bounds of one search; validated by :func:`make_limit`."""

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None
    started: float | None = None
    """The ``time.perf_counter()`` at which ``time`` started to run (``None``: when the search
    starts), so that a front door can count its own loading against the limit."""
    trial: bool = False
    """A trial of an exact solve (``time`` set): the whole time goes to the exact solver,
    since an answer that is not exact is refused anyway (see
    :mod:`perfectplay.analysis.reach`)."""

    @property
    def unlimited(self) -> bool:
        """True when the search must run to the exact value."""
        return self.depth is None and self.time is None and self.nodes is None


EXACT = Limit()


def make_limit(
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    started: float | None = None,
    trial: bool = False,
) -> Limit:
    """A checked limit (``started``: see :attr:`Limit.started`; ``trial``: see
    :attr:`Limit.trial`, with a time only). Raises :class:`ParameterError` naming the bad
    field."""
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 10_000
    ):
        raise ParameterError(f"depth={quote(depth)}: must be a whole number from 0 to 10000")
    if time is not None and (
        isinstance(time, bool)
        or not isinstance(time, int | float)
        or not MIN_TIME <= time <= MAX_TIME  # also NaN and infinities; no float() of a huge int
    ):
        raise ParameterError(
            f"time={quote(time)}: must be a number of seconds from {MIN_TIME:g} to {MAX_TIME:g}"
        )
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise ParameterError(f"nodes={quote(nodes)}: must be a whole number of at least 1")
    if started is not None and (isinstance(started, bool) or not isinstance(started, float)):
        raise ParameterError(f"started={quote(started)}: must be a time.perf_counter() reading")
    if trial and (time is None or depth is not None or nodes is not None):
        raise ParameterError("trial: a trial has a time limit alone")
    return Limit(depth, None if time is None else float(time), nodes, started, trial)


class Deadline:
    """A wall-clock deadline; ``expired()`` is cheap enough to call every few hundred nodes."""

    __slots__ = ("end", "start")

    def __init__(self, seconds: float | None, start: float | None = None) -> None:
        self.start = _time.perf_counter() if start is None else start
        self.end = math.inf if seconds is None else self.start + seconds

    def expired(self) -> bool:
        """True once the time is up."""
        return _time.perf_counter() >= self.end

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return _time.perf_counter() - self.start

    def remaining(self) -> float:
        """Seconds left (``inf`` without a time limit)."""
        return self.end - _time.perf_counter()

    def share(self, fraction: float) -> Deadline:
        """A deadline ``fraction`` of the way from now to this one (same start)."""
        part = Deadline(None)
        part.start = self.start
        part.end = _time.perf_counter() + fraction * self.remaining()
        return part


class SearchAborted(Exception):
    """Raised inside a search when its deadline or node budget runs out."""
