"""Input lines of a batch: ``position`` or ``position score``, in the game's notation.

An empty line or a lone ``-`` is the initial position (where the game has one), and a line
of whitespace (or ``-``) and a score is the initial position with that expected score, as
Pons' benchmark files and ``solve -`` write it. The score, when given, is the expected score
on the game's conventional scale and must lie in its range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import NotationError, PerfectplayError, quote
from perfectplay.games.kit import GameParams, Loaded
from perfectplay.games.registry import get_kit

SCORED_LINE = re.compile(r"(.*[^,\s])\s+([+-]?[0-9]+)")
"""``position score``: the score is the last field, after whitespace that follows no comma."""
INITIAL_MARK = "-"
"""A position written as ``-``: the initial position, as on the command line."""
EMPTY_SCORED_LINE = re.compile(r"\s+([+-]?[0-9]+)")
"""`` 1``: the initial position's line, as batch output writes it."""
NOT_A_SCORE = re.compile(r"[+-]?[0-9]+[.,eE]\S*|[+-][^0-9]\S*")
"""A last field that looks like a score but is not a whole number (``1.5``, ``+x``)."""


@dataclass(frozen=True, slots=True)
class ScoredLine:
    """One input line read: the position as written (without its score), the checked
    position and the moves that reached it, the expected score if the line gave one."""

    text: str
    loaded: Loaded
    expected: int | None


def read_line(game_name: str, params: GameParams, text: str, number: int) -> ScoredLine:
    """Input line ``number`` (from 1) read; every error's message starts ``line N:``."""
    try:
        return _read(game_name, params, text.rstrip("\r\n").rstrip())
    except PerfectplayError as exc:
        raise type(exc)(f"line {number}: {exc}") from None


def _read(game_name: str, params: GameParams, text: str) -> ScoredLine:
    """:func:`read_line` without the line number."""
    check_fields(text)
    empty, scored = EMPTY_SCORED_LINE.fullmatch(text), SCORED_LINE.fullmatch(text)
    if empty:
        board, expected = "", empty.group(1)
    elif scored:
        board, expected = scored.group(1), scored.group(2)
    else:
        board, expected = text, None
    loaded = get_kit(game_name).load("" if board == INITIAL_MARK else board, params)
    return ScoredLine(board, loaded, None if expected is None else checked_score(loaded, expected))


def checked_score(loaded: Loaded, expected: str) -> int:
    """``expected`` as a score of the game; :class:`NotationError` when out of range."""
    top = score_bound(loaded.game)
    if len(expected) > len(str(top)) + 1 or abs(int(expected)) > top:
        shown = expected if len(expected) <= 12 else expected[:9] + "..."
        raise NotationError(f"score {shown}: out of range, scores lie from -{top} to {top}")
    return int(expected)


def score_bound(game: Any) -> int:
    """The largest score magnitude of the game: the conventional score of winning at once
    from the initial position."""
    return int(game.conventional_score(game.initial(), True, 1))


def check_fields(text: str) -> None:
    """Name the problem of a line whose last field looks like a score but is not a whole
    number (``4453 1.5``)."""
    fields = text.split()
    if len(fields) >= 2 and NOT_A_SCORE.fullmatch(fields[-1]):
        raise NotationError(
            f"score {quote(fields[-1])}: not a whole number (a line is 'position' or "
            "'position score')"
        )
