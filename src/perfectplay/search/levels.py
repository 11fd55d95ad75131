"""Strength levels a person can beat: a shallow look ahead, and now and then a slip.

At a level, the engine values every legal move with a search of the level's depth (the
game's heuristic beyond it, exact where the game ends sooner), then plays one of the best of
those moves, except that with the level's slip rate it plays a worse one instead: a move
from the better half of the rest, as a person who has missed something would, never one
chosen from all moves alike. Both draws come from the caller's random generator, so a seed
makes a game repeatable. The levels grow in depth and shrink in slips; the strongest still
slips, and none is perfect (the ``perfect`` strength of the front doors is the exact search).

    level      depth  slips
    beginner     1    35 %   sees what a move does at once, and often not even that
    casual       2    20 %   sees the reply
    club         4     8 %
    strong       6     2 %
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from perfectplay.errors import ParameterError, quote
from perfectplay.search.limits import make_limit
from perfectplay.search.result import MoveValue
from perfectplay.search.solver import DEFAULT_SEARCH, SearchOptions, analyze

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength: moves are valued ``depth`` plies deep, and a worse move is played
    with probability ``slip_rate``."""

    name: str
    depth: int
    slip_rate: float
    summary: str


LEVELS: tuple[Level, ...] = (
    Level("beginner", 1, 0.35, "looks one move ahead and slips about one move in three"),
    Level("casual", 2, 0.20, "sees your reply and slips about one move in five"),
    Level("club", 4, 0.08, "looks four plies ahead and slips about one move in twelve"),
    Level("strong", 6, 0.02, "looks six plies ahead and rarely slips"),
)
"""Every level, weakest first."""


def level_named(name: str) -> Level:
    """The level called ``name``; :class:`ParameterError` naming the levels otherwise."""
    for level in LEVELS:
        if level.name == name:
            return level
    names = ", ".join(level.name for level in LEVELS)
    raise ParameterError(f"level {quote(name)}: expected one of {names}")


@dataclass(frozen=True, slots=True)
class LevelMove(Generic[M]):
    """The move a level plays, every move's value as it saw them, and whether the move is a
    slip (not among the best it found)."""

    move: M
    values: tuple[MoveValue[M], ...]
    slipped: bool


def level_move(
    game: Any,
    position: Any,
    level: Level,
    rng: random.Random,
    search: SearchOptions = DEFAULT_SEARCH,
) -> LevelMove[Any]:
    """The move ``level`` plays in a running ``position`` (see the module docstring)."""
    values = tuple(analyze(game, position, make_limit(depth=level.depth), search=search))
    top = max(value.score.value for value in values)
    best = [value for value in values if value.score.value == top]
    rest = sorted(
        (value for value in values if value.score.value < top), key=lambda v: -v.score.value
    )
    if rest and rng.random() < level.slip_rate:
        better_half = rest[: (len(rest) + 1) // 2]
        return LevelMove(rng.choice(better_half).move, values, True)
    return LevelMove(rng.choice(best).move, values, False)
