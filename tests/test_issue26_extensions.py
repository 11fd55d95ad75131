"""Issue 26: threat extensions. A node blocking the opponent's four (``P_FOUR_EXTENSION``)
or answering its open three (``P_THREE_EXTENSION``) searches its replies deeper, so a line
of threats costs the attacker's moves only. Here each extension changes the search where it
should (and only there), and with both on the proofs and exact values of the big-board
kernel's own tests come out the same: those tests of ``tests/games/test_mnk_big.py`` are
run again below, in this module, with the extensions on (the autouse fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from games.test_mnk_big import (  # collected again here: run with the extensions on
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

EXTENSIONS = {layout.P_FOUR_EXTENSION: 1, layout.P_THREE_EXTENSION: 1}
OFF = {layout.P_FOUR_EXTENSION: 0, layout.P_THREE_EXTENSION: 0}
FOUR_ON_BOARD = [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10), (7, 6)]
"""x has four in a row in row 8 (h-k), blocked at g by o, and o to move must block at l: a
forced block at the root's child (0-based row, column, x first)."""


def with_settings(ctx: tuple[Any, ...], settings: dict[int, int]) -> tuple[Any, ...]:
    """``ctx`` with the parameters of ``settings`` set (a copy: the shared one is not written)."""
    params = ctx[10].copy()
    for index, value in settings.items():
        params[index] = value
    return (*ctx[:10], params, *ctx[11:])


@pytest.fixture(autouse=True)
def extensions_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every context the big-board kernel builds has both extensions on."""
    plain = BigMNKKernel.context

    def context(self: BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        return with_settings(plain(self, symmetry), EXTENSIONS)

    monkeypatch.setattr(BigMNKKernel, "context", context)
    yield


def nodes(moves: list[tuple[int, int]], settings: dict[int, int], depth: int) -> int:
    """The nodes of a search of the position after ``moves``, ``depth`` plies deep, with the
    default parameters and ``settings`` over them."""
    g = game(15, 15, 5)
    position = g.initial()
    for move in moves:
        position = g.play(position, move)
    kernel = BigMNKKernel(g, KernelOptions())
    ctx = with_settings(big_kernel.static_context(g.spec), settings)
    st = kernel.state(position, ctx)
    stats = np.zeros(layout.STATS_SIZE, dtype=np.int64)
    stats[layout.S_BUDGET], stats[layout.S_DEADLINE] = 1 << 40, NO_DEADLINE
    table = kernel.new_table(1 << 16)
    big_compiled.search_root(kernel.side(position), depth, -1, ctx, st, table, stats)
    return int(stats[layout.S_NODES])


@pytest.mark.parametrize("index", sorted(EXTENSIONS))
def test_each_extension_alone_deepens_the_search(index: int) -> None:
    """On alone, an extension searches more nodes than off, on an opening where fours and
    threes come up inside the tree."""
    alone = dict(OFF)
    alone[index] = 1
    opening = [(7, 7), (7, 8), (8, 6), (6, 9), (9, 8), (5, 6)]
    assert nodes(opening, alone, 5) > nodes(opening, OFF, 5)


def test_the_four_extension_reads_only_forced_blocks() -> None:
    """The position's only threat is a four: the three extension changes nothing."""
    three_only = {layout.P_FOUR_EXTENSION: 0, layout.P_THREE_EXTENSION: 1}
    assert nodes(FOUR_ON_BOARD[:-1], three_only, 3) == nodes(FOUR_ON_BOARD[:-1], OFF, 3)


def test_the_layout_has_the_kernel_defaults() -> None:
    params = big_kernel.static_context(game(15, 15, 5).spec)[10]
    assert params[layout.P_FOUR_EXTENSION] == big_kernel.FOUR_EXTENSION
    assert params[layout.P_THREE_EXTENSION] == big_kernel.THREE_EXTENSION
