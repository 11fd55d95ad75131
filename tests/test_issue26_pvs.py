"""Issue 26: principal-variation search, a root aspiration window and ordering memory that
lasts a move's search, each a runtime parameter of the context (0 = off). With them on
(and every pruning of ``test_issue26_pruning``) the proofs and exact values of the big-board
kernel's own tests come out the same: the tests of ``tests/games/test_mnk_big.py`` that hold
decisive values, proofs and exact solves are run again here (the autouse fixture)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import test_issue26_pruning as pruning_tests
from games import test_mnk_big
from games.test_mnk_big import running_positions
from test_issue26_pruning import MOVES, PRUNING

from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_kernel
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.kernel import MNKKernel
from perfectplay.games.mnk.rules import MNKGame, MNKPosition, game
from perfectplay.values import UNLIMITED_NODES

# The big-board kernel's tests of proofs and exact values that test_issue26_pruning runs
# again, collected in this module too (run with the switches on).
globals().update({name: getattr(test_mnk_big, name) for name in pruning_tests.__all__})

SWITCHES = {
    layout.P_PVS: 1,
    layout.P_KEEP_ORDER: layout.KEEP_AGED,
    layout.P_ASPIRATION: 1,
    layout.P_MOVE_COUNT_SCALE: 50,
}
"""Every switch of this step on, the aspiration window as narrow as it goes (a second search
nearly every time): what the tests must hold through."""
ON = {**PRUNING, **SWITCHES}


@pytest.fixture(autouse=True)
def switches_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every context the big-board kernel builds has every switch and pruning on."""
    monkeypatch.setattr(BigMNKKernel, "context", setting(BigMNKKernel.context, ON))


def setting(plain: Any, settings: dict[int, int]) -> Any:
    """A ``BigMNKKernel.context`` that is ``plain``'s with ``settings`` over it."""
    return lambda self, symmetry: big_kernel.with_params(plain(self, symmetry), settings)


def deepening(
    kernel: BigMNKKernel, position: MNKPosition, depth: int, table: Any
) -> tuple[Any, int, int]:
    """Iterative deepening as the solver drives it (the first iteration without a move to try
    first, each later one with the last's move): ``(move, value, nodes)`` of the last."""
    move, value, nodes = None, 0, 0
    for d in range(1, depth + 1):
        result = kernel.search(position, d, move, table, UNLIMITED_NODES)
        move, value, nodes = result.move, result.value, nodes + result.nodes
    return move, value, nodes


def opening(g: MNKGame) -> MNKPosition:
    """:data:`~test_issue26_pruning.MOVES` played on ``g``."""
    position = g.initial()
    for move in MOVES:
        position = g.play(position, move)
    return position


@pytest.mark.parametrize(("rows", "cols", "k"), [(3, 3, 3), (4, 4, 4), (4, 3, 3), (5, 3, 3)])
def test_iterative_deepening_with_every_switch_ends_at_the_exact_value(
    rows: int, cols: int, k: int
) -> None:
    """The aspiration window (each iteration's root around the last's value, narrow: most
    roots fail high or low and are searched again), PVS's null windows and the kept ordering
    memory leave the exact solve at its end exact: the one-word kernel's value."""
    g = game(rows, cols, k)
    big, small = BigMNKKernel(g, KernelOptions()), MNKKernel(g, KernelOptions())
    for position in running_positions(g, 12, 12, seed=rows * 100 + cols * 10 + k):
        expected = small.exact_value(position, small.new_table(1 << 16))
        depth = g.plies_left_bound(position)
        _, value, _ = deepening(big, position, depth, big.new_table(1 << 16))
        assert value == expected, position


def test_the_ordering_memory_lasts_a_move_and_ages_into_the_next() -> None:
    """With ``KEEP_AGED`` the history and killers of one iteration reach the next (kept in
    the table's memory), and a new move's search halves the history and empties the killers;
    the last completed root's depth is kept for the aspiration window, forgotten there too."""
    g = game(15, 15, 5)
    kernel = BigMNKKernel(g, KernelOptions())
    table = kernel.new_table(1 << 16)
    memory = table[5]
    position = opening(g)
    deepening(kernel, position, 5, table)
    history = memory[: layout.KILLERS_AT - layout.HISTORY_AT].copy()
    assert history.any() and memory[layout.KILLERS_AT - layout.HISTORY_AT : layout.ORDER_SIZE].any()
    assert memory[layout.M_DEPTH] == 5
    big_kernel.forget(memory, layout.KEEP_AGED)
    assert (memory[: len(history)] == history // 2).all()
    assert not memory[len(history) : layout.ORDER_SIZE].any() and memory[layout.M_DEPTH] == 0
    big_kernel.forget(memory, layout.KEEP_MOVE)
    assert not memory[: layout.ORDER_SIZE].any()


def test_each_switch_alone_changes_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each switch is read where the search uses it: on alone (over the default pruning),
    the nodes of an iterative deepening to depth 6 differ from all off; the move stays a legal
    one."""
    g = game(15, 15, 5)
    position = opening(g)
    plain = BigMNKKernel.context

    def nodes(settings: dict[int, int]) -> int:
        monkeypatch.setattr(BigMNKKernel, "context", setting(plain, settings))
        kernel = BigMNKKernel(g, KernelOptions())
        move, _, used = deepening(kernel, position, 6, kernel.new_table(1 << 16))
        assert move in g.legal_moves(position)
        return used

    off = {index: 0 for index in SWITCHES}
    base = nodes(off)
    for index, value in SWITCHES.items():
        if index == layout.P_MOVE_COUNT_SCALE:  # bites only below the move-count depth
            continue
        assert nodes({**off, index: value}) != base, index


def test_a_new_table_carries_an_empty_memory() -> None:
    table = BigMNKKernel.new_table(1 << 4)
    assert len(table) == 6 and table[5].shape == (layout.MEMORY_SIZE,)
    assert table[5].dtype == np.int64 and not table[5].any()
