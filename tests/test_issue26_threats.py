"""Issue 26: the root's threat searches sized by the clock. A timed search looks for the
opponent's win by threats (threes and fours) at its root within a share of the time left,
and then checks every root move against it: a move after which the opponent still wins by
threats is a proved loss. The share's end stops that look only, never the search."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from perfectplay import api
from perfectplay.games.common.compiled_bits import NO_DEADLINE
from perfectplay.games.common.table_values import MATE
from perfectplay.games.kernel import SearchControls
from perfectplay.games.mnk import big_compiled, big_kernel, context_layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel

BUDGET = 10_000_000
"""Nodes no search here reaches: the clock or the depth ends them."""
FORK_ONE = {(7, 5), (7, 6), (5, 7), (6, 7)}
"""Two open twos of o's crossing at (7, 7): o there makes two open threes (0-based row,
column)."""
FORK_TWO = {(11, 9), (11, 10), (9, 11), (10, 11)}
"""The same at (11, 11): no x stone stops both forks."""
X_STONES = {(0, 0), (0, 7), (0, 14), (14, 0), (14, 7), (14, 14), (7, 0), (7, 14)}
"""x's stones, far from each other and from o's: x has no threat of its own."""
GUARDS = {(8, 8), (5, 8), (8, 5), (0, 0)}
"""x's stones against :data:`FORK_ONE` alone: the fork's diagonals taken, a defence left."""


def board(o_stones: set[tuple[int, int]], x_stones: set[tuple[int, int]]) -> str:
    """The 15x15 picture of the stones."""
    rows = []
    for r in range(15):
        row = ["x" if (r, c) in x_stones else "o" if (r, c) in o_stones else "_" for c in range(15)]
        rows.append("".join(row))
    return "/".join(rows)


def timed_depth_one(text: str) -> tuple[Any, Any, Any]:
    """``(game, position, result)``: one search of depth 1 of x to move, with a clock far off
    (a timed search's first iteration: the root's proofs run, each within its share)."""
    game, position = loaded(text)
    kernel = BigMNKKernel(game, api.kernel_options())
    controls = SearchControls(deadline=time.perf_counter() + 120)
    return game, position, kernel.search(position, 1, None, None, BUDGET, controls)


def test_every_root_move_refuted_by_the_opponents_win_by_threats_is_a_proved_loss() -> None:
    """Two forks of o's: whatever x plays, o wins by threes. Depth 1 alone sees no loss (no
    open three stands yet); the root's check of every move against o's VCT proves it (and
    o's own root, searching from its side, proves its win after either fork is taken)."""
    game, position, result = timed_depth_one(board(FORK_ONE | FORK_TWO, X_STONES))
    assert not result.aborted
    assert result.value < -MATE
    for fork in ((7, 7), (11, 11)):  # o's own search proves its win after either block
        assert own_proof(game, game.play(position, fork)) > MATE


def test_a_defence_against_the_opponents_win_by_threats_is_found_and_holds() -> None:
    """One fork of o's, its diagonals guarded: x's move answers it, and afterwards o's own
    root (its VCF and VCT, from o's side) proves no win."""
    game, position, result = timed_depth_one(board(FORK_ONE, GUARDS))
    assert not result.aborted and result.value > -MATE
    assert own_proof(game, game.play(position, result.move)) < MATE


def own_proof(game: Any, position: Any) -> int:
    """The value of a timed depth-1 search of ``position`` for its side to move: a win only
    when its own root proves one (a VCF or a VCT)."""
    kernel = BigMNKKernel(game, api.kernel_options())
    controls = SearchControls(deadline=time.perf_counter() + 120)
    return kernel.search(position, 1, None, None, BUDGET, controls).value


def test_a_threat_search_past_its_share_stops_itself_not_the_search() -> None:
    """The look ends at its own time (already past here) and leaves the search's budget,
    deadline and running flag as they were; past the search's own deadline it stops the
    search (``stats[3]``)."""
    game, position = loaded(board(FORK_ONE, set(sorted(X_STONES)[:4])))
    kernel = BigMNKKernel(game, api.kernel_options())
    ctx = kernel.context(True)
    side = 1  # o, as if it moved: it has a win by threats given the time
    past = int((time.perf_counter() - 1) * 1e9)
    for deadline, stopped in ((NO_DEADLINE, 0), (past, 1)):
        st = kernel.state(position, ctx)
        stats = np.zeros(context_layout.STATS_SIZE, dtype=np.int64)
        stats[2], stats[4] = BUDGET, deadline
        found = big_compiled.threats_until(side, 3, 0, 1 << 30, past, ctx, st, stats)
        assert found == 0 and stats[3] == stopped and stats[4] == deadline
        assert stats[2] == (BUDGET if not stopped else 0)
    st = kernel.state(position, ctx)
    stats = np.zeros(context_layout.STATS_SIZE, dtype=np.int64)
    stats[2], stats[4] = BUDGET, NO_DEADLINE
    assert big_compiled.threats_until(side, 3, 0, 100_000, NO_DEADLINE, ctx, st, stats) > 0


def test_the_threat_budgets_sit_where_the_compiled_search_reads_them() -> None:
    """The context's parameters are positional: each of the kernel's budgets at its index."""
    params = big_kernel.static_context(game_spec())[10]
    assert params[context_layout.P_ROOT_VCT_SHARE] == big_kernel.ROOT_VCT_SHARE
    assert params[context_layout.P_ROOT_VCT_NODES] == big_kernel.ROOT_VCT_NODES
    assert params[context_layout.P_THREAT_SHARE] == big_kernel.THREAT_SHARE
    assert params[context_layout.P_THREAT_NODES] == big_kernel.THREAT_NODES
    assert params[context_layout.P_THREAT_THREATS] == big_kernel.THREAT_THREATS
    assert params[context_layout.P_REFUTE_SHARE] == big_kernel.REFUTE_SHARE
    assert params[context_layout.P_INNER_VCT_THREATS] == big_kernel.INNER_VCT_THREATS
    assert params[context_layout.P_VCT] == big_kernel.ROOT_VCT_THREATS


def game_spec() -> Any:
    """The 15x15 five-in-a-row spec."""
    game, _ = loaded(board(set(), set()))
    return game.spec


def loaded(text: str) -> tuple[Any, Any]:
    """The 15x15 five-in-a-row game and the position of the picture ``text``."""
    return api.load("tictactoe", text, k=5)
