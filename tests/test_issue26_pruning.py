"""Issue 26: a narrower search. Each pruning of the heuristic search (history and killer
order, null move, reverse futility, move-count pruning, logarithmic late move reductions;
session 17: razoring, "improving", Rapfi's move count, singular extensions; session 18: the
singular test's reduction) is
a runtime parameter of the context (:mod:`~perfectplay.games.mnk.context_layout`, 0 = off);
here each one fires (its counter in ``stats``), and with all of them on the proofs and exact
values of the big-board kernel's own tests come out the same: the tests of
``tests/games/test_mnk_big.py`` that hold decisive values, proofs and exact solves are run
again below, in this module, with every pruning on (the autouse fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from games.test_mnk_big import (  # collected again here: run with every pruning on
    test_a_proved_win_below_a_shallow_search_is_not_read_as_exact_by_a_later_one,
    test_a_win_by_threes_is_proved_and_every_reply_loses_to_a_vcf,
    test_every_decisive_value_of_the_heuristic_search_is_true,
    test_exact_values_equal_plain_minimax,
    test_exact_values_equal_the_one_word_kernel,
    test_tactical_wins_are_proved_as_the_oracle_finds_them,
)

from perfectplay.games.common.compiled_bits import NO_DEADLINE
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_compiled, big_kernel
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.rules import game

__all__ = [
    "test_a_proved_win_below_a_shallow_search_is_not_read_as_exact_by_a_later_one",
    "test_a_win_by_threes_is_proved_and_every_reply_loses_to_a_vcf",
    "test_every_decisive_value_of_the_heuristic_search_is_true",
    "test_exact_values_equal_plain_minimax",
    "test_exact_values_equal_the_one_word_kernel",
    "test_tactical_wins_are_proved_as_the_oracle_finds_them",
]

PRUNING = {
    layout.P_HISTORY: 2,
    layout.P_KILLERS: 1,
    layout.P_NULL_DEPTH: 2,
    layout.P_NULL_REDUCTION: 1,
    layout.P_FUTILITY_DEPTH: 2,
    layout.P_FUTILITY_MARGIN: 1,
    layout.P_MOVE_COUNT_DEPTH: 3,
    layout.P_MOVE_COUNT_BASE: 1,
    layout.P_LMR_LOG: 150,
    layout.P_RAZOR_DEPTH: 2,
    layout.P_RAZOR_MARGIN: 1,
    layout.P_IMPROVING: 1,
    layout.P_MOVE_COUNT_POWER: 132,
    layout.P_SINGULAR_DEPTH: 3,
    layout.P_SINGULAR_MARGIN: 1,
    layout.P_SINGULAR_REDUCE: 1,
}
"""Every pruning on, aggressively (small margins, early moves): what the tests must hold
through."""
MOVES = [(7, 7), (7, 8), (8, 6), (6, 9), (9, 8), (5, 6)]
"""An opening of six stones, x first (0-based row, column): no proof at the root, every
pruning fires within six plies (a null move cuts from
six on with the class values the engine plays)."""


@pytest.fixture(autouse=True)
def pruning_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every context the big-board kernel builds has every pruning on."""
    plain = BigMNKKernel.context

    def context(self: BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        return big_kernel.with_params(plain(self, symmetry), PRUNING)

    monkeypatch.setattr(BigMNKKernel, "context", context)
    yield


def searched(
    settings: dict[int, int], depth: int, moves: list[tuple[int, int]] = MOVES
) -> tuple[int, int, np.ndarray[Any, Any]]:
    """``(cell, value, stats)`` of a search of the position after ``moves`` (:data:`MOVES`)
    ``depth`` plies deep with the default parameters and ``settings`` over them."""
    return deepened(settings, depth, moves, first_depth=depth)


def deepened(
    settings: dict[int, int],
    depth: int,
    moves: list[tuple[int, int]] = MOVES,
    first_depth: int = 1,
) -> tuple[int, int, np.ndarray[Any, Any]]:
    """``(cell, value, stats)`` of iterative deepening from ``first_depth`` to ``depth`` plies
    on the position after ``moves`` (one table, each iteration's move first in the next),
    ``stats`` summed over the iterations (its counters; the ordering memory the last's): what
    the table-driven pruning (the singular extension) needs to fire."""
    g = game(15, 15, 5)
    position = g.initial()
    for move in moves:
        position = g.play(position, move)
    kernel = BigMNKKernel(g, KernelOptions())
    ctx = big_kernel.with_params(big_kernel.static_context(g.spec), settings)
    table = kernel.new_table(1 << 16)
    total = np.zeros(layout.STATS_SIZE, dtype=np.int64)
    cell, value = -1, 0
    for plies in range(first_depth, depth + 1):
        st = kernel.state(position, ctx)
        stats = np.zeros(layout.STATS_SIZE, dtype=np.int64)
        stats[layout.S_BUDGET], stats[layout.S_DEADLINE] = 1 << 40, NO_DEADLINE
        side = kernel.side(position)
        cell, value = big_compiled.search_root(side, plies, cell, ctx, st, table, stats)
        stats[: layout.EVALS_AT] += total[: layout.EVALS_AT]
        total = stats
    return int(cell), int(value), total


def test_each_pruning_fires_and_counts_and_none_does_when_off() -> None:
    off = {index: 0 for index in PRUNING}
    _, _, quiet = searched(off, 6)
    counters = (
        layout.COUNT_NULL_TRIED,
        layout.COUNT_NULL_CUT,
        layout.COUNT_FUTILITY,
        layout.COUNT_MOVE_COUNT,
        layout.COUNT_RAZOR,
    )
    assert not quiet[list(counters)].any()
    assert not quiet[layout.HISTORY_AT :].any()  # no history, no killers
    _, _, stats = searched(PRUNING, 6)
    assert all(stats[counter] > 0 for counter in counters), stats[: layout.EVALS_AT]
    assert stats[layout.HISTORY_AT : layout.KILLERS_AT].any()
    assert stats[layout.KILLERS_AT :].any()
    assert stats[layout.S_NULL_CHILD] == 0  # every null move's marker taken back
    assert stats[layout.S_NODES] < quiet[layout.S_NODES]


@pytest.mark.parametrize("index", sorted(PRUNING))
def test_each_parameter_alone_changes_the_search(index: int) -> None:
    """Each switch is read where the search prunes: on alone, the tree differs from off."""
    off = {i: 0 for i in PRUNING}
    alone = dict(off)
    alone[index] = PRUNING[index]
    if index == layout.P_NULL_DEPTH:
        alone[layout.P_NULL_REDUCTION] = PRUNING[layout.P_NULL_REDUCTION]
    if index == layout.P_FUTILITY_DEPTH:
        alone[layout.P_FUTILITY_MARGIN] = PRUNING[layout.P_FUTILITY_MARGIN]
    if index == layout.P_SINGULAR_DEPTH:
        alone[layout.P_SINGULAR_MARGIN] = PRUNING[layout.P_SINGULAR_MARGIN]
    if index == layout.P_RAZOR_DEPTH:
        alone[layout.P_RAZOR_MARGIN] = PRUNING[layout.P_RAZOR_MARGIN]
    if index == layout.P_IMPROVING:
        alone[layout.P_MOVE_COUNT_POWER] = PRUNING[layout.P_MOVE_COUNT_POWER]
    sizes = (
        layout.P_NULL_REDUCTION,
        layout.P_FUTILITY_MARGIN,
        layout.P_MOVE_COUNT_BASE,
        layout.P_RAZOR_MARGIN,
        layout.P_SINGULAR_MARGIN,
    )
    if index in sizes:
        return  # a size, read only with its switch on
    if index == layout.P_MOVE_COUNT_DEPTH:
        alone[layout.P_MOVE_COUNT_BASE] = PRUNING[layout.P_MOVE_COUNT_BASE]
    if index == layout.P_SINGULAR_DEPTH:  # needs the table of earlier iterations
        stats = deepened(alone, 6)[2]
        assert stats[layout.COUNT_SINGULAR] > 0
        assert stats[layout.S_NODES] != deepened(off, 6)[2][layout.S_NODES]
        return
    if index == layout.P_SINGULAR_REDUCE:  # read only where a singular test runs
        tested = dict(off)
        tested[layout.P_SINGULAR_DEPTH] = PRUNING[layout.P_SINGULAR_DEPTH]
        tested[layout.P_SINGULAR_MARGIN] = 40  # wide: beta falls between test and value
        reduced = deepened({**tested, index: PRUNING[index]}, 6)[2][layout.S_NODES]
        assert reduced != deepened(tested, 6)[2][layout.S_NODES]
        return
    assert searched(alone, 5)[2][layout.S_NODES] != searched(off, 5)[2][layout.S_NODES]


def test_the_layout_is_what_the_kernel_fills() -> None:
    """``static_context`` fills each parameter at its index of the layout, the pruning ones
    with the kernel's defaults."""
    params = big_kernel.static_context(game(15, 15, 5).spec)[10]
    assert params.shape == (layout.PARAMS_SIZE,)
    defaults = {
        layout.P_WIDTH: big_kernel.BEAM_WIDTH,
        layout.P_HISTORY: big_kernel.HISTORY_KEEP,
        layout.P_KILLERS: big_kernel.KILLERS,
        layout.P_NULL_DEPTH: big_kernel.NULL_DEPTH,
        layout.P_NULL_REDUCTION: big_kernel.NULL_REDUCTION,
        layout.P_FUTILITY_DEPTH: big_kernel.FUTILITY_DEPTH,
        layout.P_FUTILITY_MARGIN: big_kernel.FUTILITY_MARGIN,
        layout.P_MOVE_COUNT_DEPTH: big_kernel.MOVE_COUNT_DEPTH,
        layout.P_MOVE_COUNT_BASE: big_kernel.MOVE_COUNT_BASE,
        layout.P_LMR_LOG: big_kernel.LMR_LOG,
        layout.P_RAZOR_DEPTH: big_kernel.RAZOR_DEPTH,
        layout.P_RAZOR_MARGIN: big_kernel.RAZOR_MARGIN,
        layout.P_IMPROVING: big_kernel.IMPROVING,
        layout.P_MOVE_COUNT_POWER: big_kernel.MOVE_COUNT_POWER,
        layout.P_SINGULAR_DEPTH: big_kernel.SINGULAR_DEPTH,
        layout.P_SINGULAR_MARGIN: big_kernel.SINGULAR_MARGIN,
        layout.P_SINGULAR_REDUCE: big_kernel.SINGULAR_REDUCE,
    }
    assert {index: params[index] for index in defaults} == defaults
