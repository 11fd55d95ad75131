"""Issue 26: threat extensions. A node blocking the opponent's four (``P_FOUR_EXTENSION``)
or answering its open three (``P_THREE_EXTENSION``) searches its replies deeper, so a line
of threats costs the attacker's moves only. Here each extension changes the search where it
should (and only there), and with both on the proofs and exact values of the big-board
kernel's own tests come out the same: those tests of ``tests/games/test_mnk_big.py`` are
run again below, in this module, with the extensions on (the autouse fixture)."""

from __future__ import annotations

from typing import Any

import pytest
import test_issue26_pruning as pruning_tests
from games import test_mnk_big
from test_issue26_pruning import searched

from perfectplay.games.mnk import big_kernel
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.rules import game

# The big-board kernel's tests of proofs and exact values that test_issue26_pruning runs
# again, collected in this module too (run with the extensions on).
globals().update({name: getattr(test_mnk_big, name) for name in pruning_tests.__all__})

EXTENSIONS = {layout.P_FOUR_EXTENSION: 1, layout.P_THREE_EXTENSION: 1}
OFF = {layout.P_FOUR_EXTENSION: 0, layout.P_THREE_EXTENSION: 0}
FOUR_ON_BOARD = [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10), (7, 6)]
"""x has four in a row in row 8 (h-k), blocked at g by o, and o to move must block at l: a
forced block at the root's child (0-based row, column, x first)."""


@pytest.fixture(autouse=True)
def extensions_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every context the big-board kernel builds has both extensions on."""
    plain = BigMNKKernel.context

    def context(self: BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        return big_kernel.with_params(plain(self, symmetry), EXTENSIONS)

    monkeypatch.setattr(BigMNKKernel, "context", context)


def nodes(moves: list[tuple[int, int]], settings: dict[int, int], depth: int) -> int:
    """The nodes of a search of the position after ``moves``, ``depth`` plies deep, with the
    default parameters and ``settings`` over them."""
    return int(searched(settings, depth, moves)[2][layout.S_NODES])


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
