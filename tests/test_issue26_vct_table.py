"""Issue 26: the win by threats (VCT) with the attacker's moves limited to threat makers
(``P_VCT_MOVES``) and a table of its results (``P_VCT_TABLE``).

Checked on random positions of 9x9 five in a row against the old VCT (every cell near a stone,
no table) and an independent oracle: every proof the new VCT returns is followed move by move,
the defender trying EVERY empty cell (not only the engine's :func:`replies`), the attacker's
next move taken from a fresh search, the leaves settled by the reference's win cells and VCF.
"""

from __future__ import annotations

import random

import pytest
from gomoku_support import Cell, compiled_vct
from reference.vcf_reference import Board

from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk import threat_compiled

SIZE, K = 9, 5
THREATS = 2
"""Threats deep: a three, then a three or a four, then a VCF (the oracle stays quick)."""
NODES = 1_000_000
"""Far more than any of these searches needs: a result is never cut by the allowance."""
OLD = {layout.P_VCT_MOVES: threat_compiled.VCT_ALL, layout.P_VCT_TABLE: 0}
NEW = {layout.P_VCT_MOVES: threat_compiled.VCT_ANY_THREE, layout.P_VCT_TABLE: 12}
BRIEF = {layout.P_VCT_MOVES: threat_compiled.VCT_THREATS, layout.P_VCT_TABLE: 12}
DEEP = {**BRIEF, layout.P_VCT_PAST_FOURS: 8, layout.P_VCT_FOURS: 3}
"""The candidate default: up to 8 defender's fours looked past, the nodes' VCF 3 fours."""


def vct_of(
    xs: frozenset[Cell], os_: frozenset[Cell], settings: dict[int, int], past_fours: int = 1
) -> tuple[int, Cell]:
    """``(plies, first move)`` of the side to move's win by threats (x when the counts are
    equal), by the compiled deepening VCT with these parameters."""
    settings = {layout.P_VCT_PAST_FOURS: past_fours, **settings}
    plies, first, left = compiled_vct(SIZE, K, (xs, os_), settings, THREATS, NODES, True)
    assert left > 0  # never cut
    return plies, first


def random_positions(count: int, seed: int) -> list[tuple[frozenset[Cell], frozenset[Cell]]]:
    """Positions of 5-9 stones a side near the centre, x to move, no win cell for either."""
    rng = random.Random(seed)
    board = Board(SIZE, SIZE, K)
    near = [(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)]
    found: list[tuple[frozenset[Cell], frozenset[Cell]]] = []
    while len(found) < count:
        stones = rng.sample(near, 2 * rng.randint(5, 9))
        xs, os_ = frozenset(stones[0::2]), frozenset(stones[1::2])
        if not board.win_cells(xs, os_) and not board.win_cells(os_, xs):
            found.append((xs, os_))
    return found


POSITIONS = random_positions(100, 26)


def double_win_cell(board: Board, mine: frozenset[Cell], theirs: frozenset[Cell]) -> bool:
    """Whether ``mine`` has a cell giving it two win cells (it wins when the other side has
    no win cell: a five threatened twice)."""
    return any(
        len(board.win_cells(mine | {c}, theirs)) >= 2 for c in board.four_cells(mine, theirs)
    )


def attacker_wins(
    board: Board, xs: frozenset[Cell], os_: frozenset[Cell], settings: dict[int, int]
) -> bool:
    """The oracle, x to move (and attacking; the counts are equal): a five now, the
    reference's VCF, or the fresh compiled proof's first move after which every reply of o
    loses (each level adds stones: the recursion ends)."""
    if board.win_cells(xs, os_) or board.shortest_vcf(xs, os_, 6) is not None:
        return True
    plies, move = vct_of(xs, os_, settings)
    assert plies > 0, (sorted(xs), sorted(os_))
    return every_reply_loses(board, xs | {move}, os_, settings)


def every_reply_loses(
    board: Board, xs: frozenset[Cell], os_: frozenset[Cell], settings: dict[int, int]
) -> bool:
    """The oracle, o to move: every empty cell tried; o's five wins, its double four holds,
    its four is blocked (then o moves again), else x wins by :func:`attacker_wins` or at once
    by a cell of two win cells."""
    if board.win_cells(os_, xs):
        return False
    empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in xs | os_]
    for reply in empty:
        after = os_ | {reply}
        if board.win_cells(xs, after):
            continue  # x completes five
        threats = board.win_cells(after, xs)
        if len(threats) >= 2:
            return False
        if threats:
            (block,) = threats
            if not every_reply_loses(board, xs | {block}, after, settings):
                return False
        elif not double_win_cell(board, xs, after) and not attacker_wins(
            board, xs, after, settings
        ):
            return False
    return True


@pytest.mark.parametrize("past_fours", [0, 1])
def test_the_new_vct_proves_what_the_old_one_proves(past_fours: int) -> None:
    """With every move that can threaten (a three or better) and the table, every proof of
    the old VCT's is found (and more: a forced block of the defender's four that threatens
    goes on); limited to fours, open threes and double threes (the default's candidate),
    the old proofs it misses are counted, and few."""
    old = [vct_of(xs, os_, OLD, past_fours)[0] > 0 for xs, os_ in POSITIONS]
    new = [vct_of(xs, os_, NEW, past_fours)[0] > 0 for xs, os_ in POSITIONS]
    brief = [vct_of(xs, os_, BRIEF, past_fours)[0] > 0 for xs, os_ in POSITIONS]
    assert all(n or not o for o, n in zip(old, new, strict=True))
    missed = sum(o and not b for o, b in zip(old, brief, strict=True))
    assert missed <= sum(old) // 10, missed
    assert sum(old) >= 10  # the set holds proofs to compare


@pytest.mark.parametrize("settings", [NEW, DEEP])
def test_every_new_proof_holds_against_every_reply(settings: dict[int, int]) -> None:
    """The oracle on the first proofs of the set that need more than a VCF."""
    board = Board(SIZE, SIZE, K)
    checked = 0
    for xs, os_ in POSITIONS:
        plies, move = vct_of(xs, os_, settings)
        if plies == 0 or board.shortest_vcf(xs, os_, 6) is not None:
            continue
        assert every_reply_loses(board, xs | {move}, os_, settings), (sorted(xs), sorted(os_))
        checked += 1
        if checked == 6:
            break
    assert checked >= 4
