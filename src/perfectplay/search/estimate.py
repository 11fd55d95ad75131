"""How long an exact solve would take: an estimate from the exact solver's own work.

Nobody knows the size of an exact search before it ends, but its growth can be measured on
the position itself. A trial (:meth:`perfectplay.search.solver.Searcher.run` with
:attr:`~perfectplay.search.limits.Limit.trial`) plays a line from the position to the end of
the game (the game's favourite move at every ply, :func:`line_to_end`), then has the exact
solver prove the positions of that line from the end back towards the position, on one
table (:func:`measure`): each step is a position one ply further from the end, and the work
the steps have cost so far (nodes, counted together) grows with the plies left. That growth,
fitted over the last levels measured (:func:`growth`), is extrapolated to the position's
plies left (:func:`extrapolate`), and the nodes become seconds at the rate the trial
searched. It is an estimate, never a bound: the line's positions stand for the position's
subtree, and a forced win nearer the root can end a solve far sooner. Measured against solves
of known size in docs/reliability.md ("Estimates against solves").

Everything here counts nodes, so the estimate of a measurement is the same on any machine;
only the seconds depend on the rate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ESTIMATE_KEY = "estimate"
"""The key of a trial's :class:`Estimate` in its result's ``extra`` (``None``: none made)."""
FIT_LEVELS = 6
"""The growth is fitted over at most this many levels, the ones nearest the position (the
growth far from the end, where the solver's work is large, is what the position needs)."""
MIN_LEVEL_NODES = 1_000
"""Levels whose work so far is below this many nodes measure noise (a position near the end
takes a handful of nodes whatever its plies), and are left out of the fit."""
LEAST_GROWTH = 1.2
"""The least growth a ply assumed: a solve one ply further from the end never costs less."""
MOST_GROWTH = 16.0
"""The most growth a ply assumed (the largest the games' branching makes plausible)."""


@dataclass(frozen=True, slots=True)
class Level:
    """A position of the line proved by the exact solver: its ``plies`` left, and the nodes
    the line's steps have cost up to it, this one included."""

    plies: int
    nodes: int


@dataclass(frozen=True, slots=True)
class Estimate:
    """The estimated work of an exact solve of a position ``plies`` from the end: ``nodes``
    in all, ``seconds`` of processor time at the trial's rate, from ``levels`` positions of a
    line proved by the solver, the nearest ``nearest`` plies from the end, the work growing
    ``growth`` times a ply. ``spent``: the nodes the trial searched (the solve needs more)."""

    nodes: float
    seconds: float
    growth: float
    levels: int
    nearest: int
    plies: int
    spent: int

    @property
    def tried(self) -> float:
        """The seconds of processor time the trial searched (its ``spent`` nodes at its rate:
        less than the trial's limit when a busy machine gave it less before its wall-clock
        bound)."""
        return self.spent * self.seconds / self.nodes if self.nodes > 0 else 0.0

    def text(self) -> str:
        """The estimate in words with its basis (for a refusal): ``about 3.5 min (estimated
        from 12 positions of a line to the end, up to 30 plies from it: 2.1x the work a ply;
        the first 10 s proved nothing)``."""
        return (
            f"about {duration(self.seconds)} (estimated from {self.levels} positions of a line "
            f"to the end, up to {self.nearest} plies from it: {self.growth:.1f}x the work a "
            f"ply; the first {duration(self.tried)} proved nothing)"
        )


def line_to_end(game: Any, position: Any) -> list[Any]:
    """``position`` and the positions after it when the game's favourite move (the first of
    its search order) is played at every ply, to the end of the game."""
    line = [position]
    while game.outcome(line[-1]) is None:
        line.append(game.play(line[-1], game.ordered_moves(line[-1])[0]))
    return line


def measure(
    line: Sequence[Any],
    plies_left: Callable[[Any], int],
    attempt: Callable[[Any], tuple[int, bool]],
) -> list[Level]:
    """The levels of ``line`` (see :func:`line_to_end`) proved from its end back to its
    second position (the first is the one estimated), nearest the end first: ``attempt``
    runs the exact solver on a position within the caller's budget and answers the nodes it
    searched and whether it ended; the walk stops at the first that does not."""
    levels: list[Level] = []
    total = 0
    for position in reversed(line[1:-1]):  # the last is finished
        nodes, ended = attempt(position)
        total += nodes
        if not ended:
            break
        levels.append(Level(plies_left(position), total))
    return levels


def growth(levels: Sequence[Level]) -> float | None:
    """The factor by which the work grows a ply: the least-squares slope of log-nodes over
    plies left, on the last :data:`FIT_LEVELS` of ``levels`` (in the order of
    :func:`measure`) with at least :data:`MIN_LEVEL_NODES` nodes, within
    [:data:`LEAST_GROWTH`, :data:`MOST_GROWTH`]; ``None`` with fewer than two such levels."""
    fit = [level for level in levels if level.nodes >= MIN_LEVEL_NODES][-FIT_LEVELS:]
    if len(fit) < 2 or fit[0].plies == fit[-1].plies:
        return None
    xs = [float(level.plies) for level in fit]
    ys = [math.log(level.nodes) for level in fit]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
    return min(MOST_GROWTH, max(LEAST_GROWTH, math.exp(slope)))


def extrapolate(levels: Sequence[Level], plies: int, spent: int, rate: float) -> Estimate | None:
    """The estimate for a position ``plies`` from the end from the ``levels`` measured on
    its line, after a trial that searched ``spent`` nodes at ``rate`` nodes a second: the
    nearest level's work times the growth to the power of the plies between them, and never
    less than ``spent`` (the trial did not end). ``None`` when the levels give no growth.
    Monotone: more plies never make a smaller estimate."""
    factor = growth(levels)
    if factor is None or rate <= 0:
        return None
    nearest = levels[-1]
    nodes = max(float(spent), nearest.nodes * factor ** max(0, plies - nearest.plies))
    return Estimate(nodes, nodes / rate, factor, len(levels), nearest.plies, plies, spent)


def duration(seconds: float) -> str:
    """``seconds`` in a person's unit, to two figures (``40 s``, ``3.5 min``, ``12 h``,
    ``4 days``, ``2e+06 years``)."""
    units = ((60.0, "s", 1.0), (3600.0, "min", 60.0), (86400.0 * 2, "h", 3600.0))
    for below, name, size in units:
        if seconds < below:
            return f"{_figures(seconds / size)} {name}"
    days = seconds / 86400.0
    if days < 730:
        return f"{_figures(days)} days"
    return f"{_figures(days / 365.25)} years"


def _figures(value: float) -> str:
    """``value`` to two significant figures, without an exponent below a million."""
    if value >= 1e6:
        return f"{value:.1e}"
    return f"{float(f'{value:.2g}'):,.15g}"
