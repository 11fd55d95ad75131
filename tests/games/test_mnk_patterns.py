"""The pattern tables of the big-board engine (issue 26): every neighbourhood's code against
a slow recursive classifier written here from the definition, for both rules, and the
compiled board's incremental codes and values against the same classifier read off the
board after random makes and unmakes."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk.big_kernel import (
    BigMNKKernel,
    new_state,
    with_params,
    with_patterns,
)
from perfectplay.games.mnk.context_layout import P_PATTERNS
from perfectplay.games.mnk.lines import DIRECTIONS
from perfectplay.games.mnk.pattern_values import DEFAULT_VALUES
from perfectplay.games.mnk.patterns import (
    B1,
    B2,
    B3,
    B4,
    BLOCKED,
    EMPTY,
    F1,
    F2,
    F3,
    F4,
    F5,
    NONE,
    OWN,
    PATTERNS_OFF,
    VALUE_SHIFT,
    combined_value,
    pattern_table,
    radius,
    two_wins,
)
from perfectplay.games.mnk.rules import game

UP = {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1}
"""A segment's code from its best child's (one stone more): a three from a four and so
on (F1, B1 and NONE lead nowhere; five cells are counted apart)."""


def five_through_centre(segment: tuple[int, ...], k: int, exact: bool) -> bool:
    """Whether the run of own stones through the segment's centre is k long (at least k)."""
    centre = len(segment) // 2
    run = 1
    i = centre - 1
    while i >= 0 and segment[i] == OWN:
        run, i = run + 1, i - 1
    i = centre + 1
    while i < len(segment) and segment[i] == OWN:
        run, i = run + 1, i + 1
    return run == k if exact else run >= k


@cache
def slow_code(segment: tuple[int, ...], k: int, exact: bool) -> int:
    """The pattern of the segment with its centre stone placed, straight from the definition:
    a five through the centre; else by the stone that would do best next."""
    if five_through_centre(segment, k, exact):
        return F5
    children = [
        slow_code((*segment[:i], OWN, *segment[i + 1 :]), k, exact)
        for i, cell in enumerate(segment)
        if cell == EMPTY
    ]
    fives = children.count(F5)
    if fives:
        return F4 if fives >= 2 else B4
    return UP.get(max(children, default=NONE), NONE)


def code_of(neighbours: list[int], k: int, exact: bool) -> int:
    """The slow code of a stone between ``neighbours`` (offsets -r..-1 then 1..r)."""
    half = len(neighbours) // 2
    return slow_code((*neighbours[:half], OWN, *neighbours[half:]), k, exact)


@pytest.mark.parametrize("exact", [False, True])
def test_every_neighbourhood_is_classified_as_the_definition_says(exact: bool) -> None:
    k = 5
    width = 2 * radius(k, exact)
    table = pattern_table(k, exact)
    for number in range(3**width):
        digits = [number // 3**i % 3 for i in range(width)]
        own = sum(1 << i for i, d in enumerate(digits) if d == OWN)
        blocked = sum(1 << i for i, d in enumerate(digits) if d == BLOCKED)
        assert table[own | blocked << width] == code_of(digits, k, exact), digits


def shape(text: str, exact: bool) -> int:
    """The table's code of ``?`` in a line like ``..xx?..`` (x own, o blocked, . empty), the
    cells past the text's ends blocked."""
    rad = radius(5, exact)
    at = text.index("?")
    cells = [{"x": OWN, "o": BLOCKED, ".": EMPTY, "?": EMPTY}[c] for c in text]
    around = [
        cells[at + off] if 0 <= at + off < len(cells) else BLOCKED
        for off in [*range(-rad, 0), *range(1, rad + 1)]
    ]
    own = sum(1 << i for i, d in enumerate(around) if d == OWN)
    blocked = sum(1 << i for i, d in enumerate(around) if d == BLOCKED)
    return int(pattern_table(5, exact)[own | blocked << (2 * rad)])


def test_the_named_shapes() -> None:
    assert shape("....xx?....", False) == F3
    assert shape("...xxx?....", False) == F4
    assert shape("oxxx?.....", False) == B4
    assert shape("xxxx?", False) == F5
    assert shape(".xxxxx?.", False) == F5  # freestyle: an overline wins
    assert shape(".xxxxx?.", True) != F5  # the exact rule: it does not
    assert shape("....x?....", False) < F3
    assert combined_value((F3, F3, NONE, NONE)) > combined_value((F3, B3, NONE, NONE))


def board_codes(
    board: np.ndarray[Any, Any], cell: int, side: int, rows: int, cols: int, exact: bool
) -> list[int]:
    """The slow codes of a stone of ``side`` on ``cell`` in the four directions, read off the
    board (0 empty, 1 x, 2 o)."""
    rad = radius(5, exact)
    r0, c0 = divmod(cell, cols)
    codes = []
    for dr, dc in DIRECTIONS:
        around = []
        for off in [*range(-rad, 0), *range(1, rad + 1)]:
            r, c = r0 + off * dr, c0 + off * dc
            if not (0 <= r < rows and 0 <= c < cols):
                around.append(BLOCKED)
            else:
                v = board[r * cols + c]
                around.append(EMPTY if v == 0 else OWN if v == side + 1 else BLOCKED)
        codes.append(code_of(around, 5, exact))
    return codes


@pytest.mark.parametrize(("size", "exact"), [(15, False), (11, True), (20, False)])
def test_incremental_codes_equal_the_codes_from_scratch(size: int, exact: bool) -> None:
    from perfectplay.games.mnk import board_compiled, threat_compiled

    g = game(size, size, 5, exactly=exact)
    kernel = BigMNKKernel(g, KernelOptions())
    # The plain default set: the values below are its combined_value's.
    ctx = with_patterns(kernel.context(True), g.spec, values=DEFAULT_VALUES)
    windows = with_params(ctx, {P_PATTERNS: PATTERNS_OFF})
    st = new_state(g.spec, g.initial(), ctx, board_compiled.load)
    rng = random.Random(size)
    stack: list[tuple[int, int]] = []
    for step in range(160):
        empty = [c for c in range(size * size) if st[4][c] == 0]
        if stack and (rng.random() < 0.35 or len(stack) > 40):
            cell, side = stack.pop()
            board_compiled.unmake(cell, side, ctx, st)
        else:
            cell, side = rng.choice(empty), len(stack) % 2
            board_compiled.make(cell, side, ctx, st)
            stack.append((cell, side))
        if step % 20 != 19:
            continue
        totals, twos = [0, 0], [0, 0]
        for c in range(size * size):
            for side in range(2):
                if st[4][c] != 0:
                    assert st[12][side, c] == 0
                    continue
                codes = board_codes(st[4], c, side, size, size, exact)
                assert list(st[11][side, 4 * c : 4 * c + 4]) == codes, (c, side)
                two = two_wins(tuple(codes))
                assert st[12][side, c] == 2 * combined_value(tuple(codes)) + two
                assert st[12][2 + side, c] >> VALUE_SHIFT == combined_value(tuple(codes))
                totals[side] += combined_value(tuple(codes))
                twos[side] += two
        assert [st[3][4], st[3][5]] == totals
        assert [st[3][6], st[3][7]] == twos
        for side in range(2):  # the count answers as the four-makers tried one by one do
            if st[3][side] == 0:
                expected = threat_compiled.has_open_four(side, 0, windows, st)
                assert threat_compiled.has_open_four(side, 0, ctx, st) == expected
