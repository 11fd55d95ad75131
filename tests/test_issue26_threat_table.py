"""The evaluation's threat table (issue 26): each empty cell's threat class for each side is
kept incrementally in the evaluation's cell entries and counted in ``counts[THREATS_AT:]``;
the position's threat mask read from those counts picks a value the evaluation adds, times
``P_THREAT_EVAL`` eighths. Held here against the classes recomputed from the board's slow
codes after random makes and unmakes, and against :func:`patterns.threat_mask`; the fit's
reading of a labels file against the engine's own mask and evaluation."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from games.test_mnk_patterns import board_codes
from gomoku_support import benchmarks_importable, random_walk

from perfectplay.errors import ParameterError
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import patterns as pt
from perfectplay.games.mnk.big_kernel import (
    THREAT_EVAL,
    BigMNKKernel,
    new_state,
    static_context,
    with_params,
    with_patterns,
)
from perfectplay.games.mnk.context_layout import P_ATTACK, P_THREAT_EVAL, THREATS_AT
from perfectplay.games.mnk.pattern_classes import threat_table
from perfectplay.games.mnk.pattern_values import PLAYED_THREATS, ThreatValues
from perfectplay.games.mnk.rules import game
from perfectplay.values import HEURISTIC_LIMIT

SIZE = 15


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ((pt.F5, pt.NONE, pt.NONE, pt.NONE), pt.THREAT_FIVE),
        ((pt.F4, pt.NONE, pt.NONE, pt.NONE), pt.THREAT_FLEX_FOUR),
        ((pt.B4, pt.B4, pt.NONE, pt.NONE), pt.THREAT_FLEX_FOUR),
        ((pt.B4, pt.F3, pt.NONE, pt.NONE), pt.THREAT_FOUR_THREE),
        ((pt.B4, pt.B3, pt.B1, pt.NONE), pt.THREAT_FOUR_PLUS),
        ((pt.B4, pt.F2, pt.NONE, pt.NONE), pt.THREAT_FOUR_PLUS),
        ((pt.B4, pt.B2, pt.F1, pt.NONE), pt.THREAT_FOUR),
        ((pt.F3, pt.F3, pt.NONE, pt.NONE), pt.THREAT_DOUBLE_THREE),
        ((pt.F3, pt.B3, pt.NONE, pt.NONE), pt.THREAT_THREE_PLUS),
        ((pt.F3, pt.B2, pt.B2, pt.F1), pt.THREAT_THREE),
        ((pt.B3, pt.B3, pt.F2, pt.F2), pt.THREAT_NONE),
    ],
)
def test_a_cell_s_threat_class_by_its_strongest_codes(
    codes: tuple[int, ...], expected: int
) -> None:
    assert pt.threat_class(codes) == expected
    key = sum(code * 10**d for d, code in enumerate(codes))
    assert pt.threat_classes()[key] == expected


def test_the_mask_s_bits_name_their_side_and_class() -> None:
    mine, theirs = [0] * pt.THREAT_CLASSES, [0] * pt.THREAT_CLASSES
    assert pt.threat_mask(mine, theirs) == 0
    mine[pt.THREAT_FOUR_THREE] = 2
    theirs[pt.THREAT_DOUBLE_THREE] = 1
    theirs[pt.THREAT_FIVE] = 1
    expected = 1 << pt.MASK_MY_FOUR_PLUS | 1 << pt.MASK_THEIR_THREE_PLUS | 1 << pt.MASK_THEIR_FIVE
    assert pt.threat_mask(mine, theirs) == expected


def slow_counts(board: Any, side: int) -> list[int]:
    """A side's empty cells by threat class, from the slow codes read off the board."""
    counts = [0] * pt.THREAT_CLASSES
    for cell in range(SIZE * SIZE):
        if board[cell] == 0:
            counts[pt.threat_class(tuple(board_codes(board, cell, side, SIZE, SIZE, False)))] += 1
    return counts


def check(st: Any, ctx: Any) -> None:
    """The counts by class (the empty class aside: occupied cells' entries are 0 too) and the
    compiled mask against the slow recomputation, for either side to move."""
    from perfectplay.games.mnk import board_compiled

    slow = [slow_counts(st[4], side) for side in range(2)]
    for side in range(2):
        at = THREATS_AT + pt.THREAT_CLASSES * side
        assert list(st[3][at + 1 : at + pt.THREAT_CLASSES]) == slow[side][1:], side
        assert board_compiled.threat_mask(side, st[3]) == pt.threat_mask(slow[side], slow[1 - side])


def context(table: ThreatValues, on: int) -> tuple[Any, Any]:
    """A 15x15 freestyle game and a context whose threat table is ``table``, weighing ``on``
    eighths (0: off)."""
    g = game(SIZE, SIZE, 5)
    ctx = with_patterns(BigMNKKernel(g, KernelOptions()).context(True), g.spec)
    ctx = with_params(ctx, {P_THREAT_EVAL: on})
    return g, (*ctx[:14], threat_table(table))


def test_the_classes_and_the_mask_follow_random_makes_and_unmakes() -> None:
    from perfectplay.games.mnk import board_compiled

    g, ctx = context(PLAYED_THREATS, 0)
    st = new_state(g.spec, g.initial(), ctx, board_compiled.load)
    masks = set()
    for step, side in random_walk(ctx, st, steps=200, seed=2026, undo=0.3, most=45):
        masks.add(int(board_compiled.threat_mask(side, st[3])))
        if step % 25 == 24:
            check(st, ctx)
    assert len(masks) > 10  # the walk met many kinds of position


@pytest.mark.parametrize("eighths", [8, 12, 16])
def test_the_table_s_value_of_the_mask_is_added_by_its_weight(eighths: int) -> None:
    from perfectplay.games.mnk import board_compiled

    entries = tuple((mask, (mask * 37) % 401 - 200) for mask in range(pt.THREAT_MASKS))
    g, on = context(ThreatValues(entries), eighths)
    _, off = context(ThreatValues(entries), 0)
    rng = random.Random(26)
    position = g.initial()
    for _ in range(40):
        position = g.play(position, rng.choice(list(g.legal_moves(position))))
        if g.outcome(position) is not None:
            break
        st = new_state(g.spec, position, on, board_compiled.load)
        side = int(st[3][2]) % 2  # counts[2]: the stones; x moves after an even number
        mask = board_compiled.threat_mask(side, st[3])
        base = int(board_compiled.evaluate(side, off, st))
        added = entries[mask][1] * eighths // 8
        expected = max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, base + added))
        assert int(board_compiled.evaluate(side, on, st)) == expected
    assert on[10][P_ATTACK] == off[10][P_ATTACK]


@pytest.mark.parametrize("entry", [(-1, 5), (pt.THREAT_MASKS, 5), (3, 10**6), (3, -(10**6))])
def test_a_threat_table_out_of_range_is_refused_by_name(entry: tuple[int, int]) -> None:
    with pytest.raises(ParameterError, match=r"threat values entry .*: give a mask from 0 to 2047"):
        threat_table(ThreatValues((entry,)))


def test_the_default_context_holds_the_played_table_at_its_weight() -> None:
    ctx = static_context(game(SIZE, SIZE, 5).spec)
    assert np.array_equal(ctx[14], threat_table(PLAYED_THREATS))
    assert ctx[10][P_THREAT_EVAL] == THREAT_EVAL > 0


def test_the_fit_reads_each_labelled_position_as_the_engine_does(tmp_path: Any) -> None:
    """``fit_gomoku_threats.position_rows``: a labels file's positions with the engine's own
    mask and evaluation (without the table) for the side to move, so the fitted values are
    the ones the engine adds."""
    with benchmarks_importable():
        # benchmarks/ is on sys.path at run time only: mypy does not see it
        from fit_gomoku_threats import COLUMNS, position_rows  # type: ignore[import-not-found]
    from perfectplay.games.mnk import board_compiled

    lines = [
        "game 14 | ply 21 | result 0 | eval -M6 | stones 7,7 5,9 6,6 4,8 7,6 3,7 6,10 4,6 5,5 "
        "2,6 1,5 8,8 7,5 7,8 6,5 4,5 4,7 6,8 5,8 9,8 10,8",
        "game 232 | ply 10 | result 1 | eval +M11 | stones 7,7 6,9 9,6 7,10 6,6 8,11 5,8 6,11 "
        "7,6 8,6",
        "game 3414 | ply 14 | result 1 | eval 206 | stones 7,7 7,6 8,9 6,5 8,7 8,6 9,6 9,7 7,8 "
        "6,9 10,8 8,8 7,10 6,7",
    ]
    path = tmp_path / "labels.txt"
    path.write_text("\n".join(lines) + "\n")
    rows = position_rows(str(path))
    g, off = context(PLAYED_THREATS, 0)
    for line, row in zip(lines, rows, strict=True):
        position = g.initial()
        for stone in line.split("stones ")[1].split():
            x, y = (int(n) for n in stone.split(","))
            position = g.play(position, (y, x))
        st = new_state(g.spec, position, off, board_compiled.load)
        side = int(row[COLUMNS.index("ply")]) % 2
        assert row[COLUMNS.index("mask")] == board_compiled.threat_mask(side, st[3])
        assert row[COLUMNS.index("eval")] == board_compiled.evaluate(side, off, st)
