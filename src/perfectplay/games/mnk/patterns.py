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

from collections.abc import Callable, Sequence
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
    return code_table(lambda codes: 2 * combined_value(codes, values) + two_wins(codes))


def code_table(entry: Callable[[tuple[int, ...]], int]) -> np.ndarray[Any, Any]:
    """``table[c0 + 10 c1 + 100 c2 + 1000 c3]``: ``entry((c0, c1, c2, c3))`` for every four
    codes, the key the compiled board computes from a cell's four direction codes. The
    cell tables (values, classes) are built by it."""
    table = np.zeros(CODES**4, dtype=np.int64)
    for index in range(CODES**4):
        table[index] = entry(tuple(index // CODES**d % CODES for d in range(4)))
    return table


(
    THREAT_NONE,
    THREAT_THREE,
    THREAT_THREE_PLUS,
    THREAT_DOUBLE_THREE,
    THREAT_FOUR,
    THREAT_FOUR_PLUS,
    THREAT_FOUR_THREE,
    THREAT_FLEX_FOUR,
    THREAT_FIVE,
    THREAT_CLASSES,
) = range(10)
"""A cell's *threat class* for one side, from its four codes (issue 26): what a stone there
threatens, weakest first. A three: one F3 (``THREAT_THREE``), with a B3 or F2 in another
direction (``THREAT_THREE_PLUS``), two F3 (``THREAT_DOUBLE_THREE``); a four: one B4 alone
(``THREAT_FOUR``), with a B3 or F2 (``THREAT_FOUR_PLUS``), with an F3 (``THREAT_FOUR_THREE``);
an F4 or two B4 (``THREAT_FLEX_FOUR``); a five. The same ladder as Rapfi's ``Pattern4``
above its twos (its public types, the game's facts). :data:`THREAT_CLASSES` is their number."""
CLASS_BITS = 4
"""Bits of a threat class in an evaluation cell-table entry (:data:`THREAT_CLASSES` <= 16)."""
VALUE_SHIFT = CLASS_BITS + 1
"""An evaluation cell-table entry is ``value << VALUE_SHIFT | class << 1 | two wins``
(:func:`scoring_entries`): the value, the threat class, whether two win cells are left."""
(
    MASK_THEIR_FIVE,
    MASK_MY_FLEX_FOUR,
    MASK_THEIR_FLEX_FOUR,
    MASK_MY_FOUR_PLUS,
    MASK_MY_FOUR,
    MASK_MY_THREE_PLUS,
    MASK_MY_THREE,
    MASK_THEIR_FOUR_PLUS,
    MASK_THEIR_FOUR,
    MASK_THEIR_THREE_PLUS,
    MASK_THEIR_THREE,
    MASK_BITS,
) = range(12)
"""The bits of a position's *threat mask* for the side to move (:func:`threat_mask`): whether
some empty cell is of these classes for it (MY) or for the opponent (THEIR). A four-three
counts as a four-plus, a double three as a three-plus."""
THREAT_MASKS = 1 << MASK_BITS
"""The threat masks' number: the length of the evaluation's threat table."""


def threat_class(codes: tuple[int, ...]) -> int:
    """The threat class (``THREAT_*``) of a cell whose four direction codes are ``codes``."""
    count = [codes.count(code) for code in range(CODES)]
    more = count[B3] + count[F2] > 0
    if count[F5]:
        return THREAT_FIVE
    if count[F4] or count[B4] >= 2:
        return THREAT_FLEX_FOUR
    if count[B4]:
        if count[F3]:
            return THREAT_FOUR_THREE
        return THREAT_FOUR_PLUS if more else THREAT_FOUR
    if count[F3] >= 2:
        return THREAT_DOUBLE_THREE
    if count[F3]:
        return THREAT_THREE_PLUS if more else THREAT_THREE
    return THREAT_NONE


def threat_mask(mine: Sequence[int], theirs: Sequence[int]) -> int:
    """The threat mask (the ``MASK_*`` bits) of a position whose empty cells number ``mine[c]``
    of threat class ``c`` for the side to move and ``theirs[c]`` for the opponent."""
    bits = {
        MASK_THEIR_FIVE: theirs[THREAT_FIVE],
        MASK_MY_FLEX_FOUR: mine[THREAT_FLEX_FOUR],
        MASK_THEIR_FLEX_FOUR: theirs[THREAT_FLEX_FOUR],
        MASK_MY_FOUR_PLUS: mine[THREAT_FOUR_PLUS] + mine[THREAT_FOUR_THREE],
        MASK_MY_FOUR: mine[THREAT_FOUR],
        MASK_MY_THREE_PLUS: mine[THREAT_THREE_PLUS] + mine[THREAT_DOUBLE_THREE],
        MASK_MY_THREE: mine[THREAT_THREE],
        MASK_THEIR_FOUR_PLUS: theirs[THREAT_FOUR_PLUS] + theirs[THREAT_FOUR_THREE],
        MASK_THEIR_FOUR: theirs[THREAT_FOUR],
        MASK_THEIR_THREE_PLUS: theirs[THREAT_THREE_PLUS] + theirs[THREAT_DOUBLE_THREE],
        MASK_THEIR_THREE: theirs[THREAT_THREE],
    }
    return sum(1 << bit for bit, count in bits.items() if count > 0)


@lru_cache(maxsize=1)
def threat_classes() -> np.ndarray[Any, Any]:
    """``table[c0 + 10 c1 + 100 c2 + 1000 c3]``: :func:`threat_class` of every four codes
    (the key of :func:`cell_values`). Built once and never written."""
    return code_table(threat_class)


def scoring_entries(table: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The evaluation's cell table from a cell table of :func:`cell_values`' layout (``2 value
    + two wins``): ``value << VALUE_SHIFT | threat class << 1 | two wins``, so one lookup gives
    the compiled board the cell's value, its threat class and its two wins."""
    entries: np.ndarray[Any, Any] = (table >> 1) << VALUE_SHIFT | threat_classes() << 1 | table & 1
    return entries
