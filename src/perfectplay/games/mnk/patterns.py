"""Pattern tables of the big-board m,n,k engine (issue 26): what a stone would make on a line.

For an empty cell, one direction and one side, the *pattern* is what a stone of that side on
the cell makes along that line, read from the ``radius`` cells each way (each empty, the
side's own, or blocked: the other side's or off the board), strongest first::

    F5  k in a row through the cell (exactly k under the exact rule)
    F4  an open four: two or more cells then complete k with it
    B4  a four: one such cell
    F3  an open three: some cell then makes an F4      B3  a three: some cell then makes a B4
    F2  an open two: some cell then makes an F3        B2  a two: some cell then makes a B3
    F1  an open one: some cell then makes an F2        B1  some cell then makes a B2
    NONE

Each level is defined by the one above it, always on the same segment of ``2 * radius + 1``
cells with everything outside it blocked, and a five counts only through the cell itself.
The tables are built once per (k, rule) by that definition, run over every neighbourhood
(numpy, a level at a time from the fullest segments down), never typed in by hand. They cover
``k`` = :data:`PATTERN_K` only (radius ``k - 1`` for freestyle, ``k`` for the exact rule,
whose overline test needs the cells just past a five); other ``k`` keep the window evaluation
of :mod:`.board_compiled`.

Then the four directions of a cell combine (:func:`cell_values`) into one value per side:
a five, a double four or four-three, a double open three, else a sum by pattern; the values
are those of :mod:`.pattern_values` (apart, so that a new set needs no recompile).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from perfectplay.games.mnk.pattern_values import CODES, DEFAULT_VALUES, PatternValues

PATTERNS_OFF, PATTERNS_ORDER, PATTERNS_EVAL = range(3)
"""Pattern modes of the compiled board: window scans only; the tables order the moves; they
order the moves and evaluate."""
PATTERN_K = 5
"""The only ``k`` the pattern tables cover (Gomoku)."""
(NONE, B1, F1, B2, F2, B3, F3, B4, F4, F5) = range(CODES)
"""Pattern codes, weakest first (see the module docstring; their number, ``CODES``, is
:mod:`.pattern_values`')."""
CODE_NAMES = ("NONE", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "F5")
EMPTY, OWN, BLOCKED = 0, 1, 2
"""A neighbourhood cell's state, the digits of a segment's base-3 number."""


def radius(k: int, exact: bool) -> int:
    """The cells each way a pattern reads: ``k - 1``, or ``k`` under the exact rule."""
    return k if exact else k - 1


def _stepped(radius_: int) -> tuple[int, np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``(cells, digits, powers)`` of the segments without the centre: every base-3 number
    over ``2 * radius`` cells and its digits (index ``i`` is the segment's cell ``i``, the
    centre left out)."""
    cells = 2 * radius_
    powers = 3 ** np.arange(cells, dtype=np.int64)
    numbers = np.arange(3**cells, dtype=np.int64)
    digits = (numbers[:, None] // powers[None, :]) % 3
    return cells, digits, powers


def _has_five(own: np.ndarray[Any, Any], k: int, exact: bool, centre: int) -> np.ndarray[Any, Any]:
    """Per segment (``own``: bool[n, 2 * radius + 1], centre included), whether a run of own
    stones through the centre is at least ``k`` long (exactly ``k`` under the exact rule)."""
    width = own.shape[1]
    left = np.zeros(own.shape[0], dtype=np.int64)
    going = np.ones(own.shape[0], dtype=bool)
    for i in range(centre - 1, -1, -1):
        going &= own[:, i]
        left += going
    right = np.zeros(own.shape[0], dtype=np.int64)
    going = np.ones(own.shape[0], dtype=bool)
    for i in range(centre + 1, width):
        going &= own[:, i]
        right += going
    run = left + right + own[:, centre]
    found: np.ndarray[Any, Any] = run == k if exact else run >= k
    return found


@lru_cache(maxsize=4)
def segment_codes(k: int, exact: bool) -> np.ndarray[Any, Any]:
    """``codes[n]``: the pattern of a stone on the centre of the segment whose other cells
    are the base-3 digits of ``n`` (:data:`EMPTY`, :data:`OWN`, :data:`BLOCKED`; digit ``i`` is
    cell ``i`` of the segment with the centre taken out). Built by the module's definition,
    the fullest segments first (a level's answer reads the segments with one more stone)."""
    rad = radius(k, exact)
    cells, digits, powers = _stepped(rad)
    own = digits == OWN
    full = np.concatenate([own[:, :rad], np.ones((own.shape[0], 1), bool), own[:, rad:]], 1)
    five = _has_five(full, k, exact, rad)
    codes = np.zeros(3**cells, dtype=np.int8)
    stones = own.sum(axis=1)
    for count in range(cells, -1, -1):
        rows = np.nonzero(stones == count)[0]
        best = np.full(rows.shape[0], NONE, dtype=np.int64)
        fives = np.zeros(rows.shape[0], dtype=np.int64)
        for i in range(cells):
            empty = digits[rows, i] == EMPTY
            child = codes[rows[empty] + powers[i]].astype(np.int64)
            fives[empty] += child == F5
            best[empty] = np.maximum(best[empty], child)
        codes[rows] = _level(best, fives)
        codes[rows[five[rows]]] = F5
    return codes


def _level(best: np.ndarray[Any, Any], fives: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A segment's code from its best child's (one more stone) and its count of five cells."""
    up = np.array([NONE, NONE, NONE, B1, F1, B2, F2, B3, F3, NONE], dtype=np.int64)
    result = up[best]
    result[best == F5] = B4
    result[fives >= 2] = F4
    codes: np.ndarray[Any, Any] = result.astype(np.int8)
    return codes


@lru_cache(maxsize=4)
def pattern_table(k: int, exact: bool) -> np.ndarray[Any, Any]:
    """``table[own | blocked << 2r]``: :func:`segment_codes` indexed by two bit sets of the
    ``2r`` neighbour cells (``r`` = :func:`radius`; bit ``i`` is segment cell ``i`` without
    the centre: offsets ``-r .. -1`` then ``1 .. r`` along the line), as the compiled board
    reads them; 0 where both bits are set (never read)."""
    rad = radius(k, exact)
    cells = 2 * rad
    codes = segment_codes(k, exact)
    masks = np.arange(1 << cells, dtype=np.int64)
    base3 = np.zeros(1 << cells, dtype=np.int64)
    for i in range(cells):
        base3 += ((masks >> i) & 1) * 3**i
    own = masks[:, None]
    blocked = masks[None, :]
    index = (base3[:, None] + 2 * base3[None, :]).astype(np.int64)
    valid = (own & blocked) == 0
    table = np.where(valid, codes[np.where(valid, index, 0)], 0).astype(np.int8)
    flat: np.ndarray[Any, Any] = np.ascontiguousarray(table.T).reshape(-1)
    return flat


def combined_value(codes: tuple[int, ...], values: PatternValues = DEFAULT_VALUES) -> int:
    """A side's value of a cell from its four directions' pattern codes, by ``values``."""
    fours = sum(c in (B4, F4) for c in codes)
    threes = sum(c == F3 for c in codes)
    if F5 in codes:
        return values.five
    if F4 in codes or fours >= 2:
        return values.double_four
    if fours and threes:
        return values.four_three
    if threes >= 2:
        return values.double_three
    return sum(values.scores[c] for c in codes)


def two_wins(codes: tuple[int, ...]) -> bool:
    """Whether a stone with these four codes leaves two win cells or more: an F4 (two in one
    line), or fours in two lines (lines through a cell meet only there)."""
    return F4 in codes or sum(c in (B4, F4) for c in codes) >= 2


@lru_cache(maxsize=4)
def cell_values(values: PatternValues = DEFAULT_VALUES) -> np.ndarray[Any, Any]:
    """``table[c0 + 10 c1 + 100 c2 + 1000 c3]``: :func:`combined_value` of every four codes
    by ``values``, times 2, plus 1 when :func:`two_wins` (the compiled board counts those
    cells). Built once per set of values and never written."""
    table = np.zeros(CODES**4, dtype=np.int64)
    for index in range(CODES**4):
        codes = tuple(index // CODES**d % CODES for d in range(4))
        table[index] = 2 * combined_value(codes, values) + two_wins(codes)
    return table
