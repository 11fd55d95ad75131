"""Issue 26: the win by threats (VCT) looks past the defender's four. Answering a three with
a four of its own is the defender's usual resistance (in Rapfi's winning lines against our
lost games it came in each one looked at); the VCT counted any such four as a defence that
holds, so it proved none of those wins. Now the four is blocked and the three answered
again, every defence tried (``P_VCT_PAST_FOURS``, a runtime choice); the proof is checked
here by an independent oracle."""

from __future__ import annotations

from typing import Any

import numpy as np
from reference.vcf_reference import Board

from perfectplay.games.common.compiled_bits import NO_DEADLINE
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_kernel, threat_compiled
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.notation import parse_mnk_move
from perfectplay.games.mnk.rules import game

Cell = tuple[int, int]
ATTACKER = "f8 g8 h6 h7"
"""x: a double three at h8 (across and down), no four anywhere."""
DEFENDER = "a1 b1 c1 o15"
"""o: a three on the edge of row 1 (d1 or e1 makes a four with one win cell)."""


def cells(text: str) -> frozenset[Cell]:
    g = game(15, 15, 5)
    return frozenset(tuple(parse_mnk_move(g, c)) for c in text.split())  # type: ignore[misc]


def vct_of(
    xs: frozenset[Cell], os_: frozenset[Cell], threats: int, past_fours: int = 1
) -> tuple[int, Cell]:
    """``(plies, first move)`` of x's win by threats (x to move), by the compiled VCT that
    looks past the defender's fours (``past_fours``; 0: they hold)."""
    g = game(15, 15, 5)
    position = g.from_bits(sum(1 << g.index(c) for c in xs), sum(1 << g.index(c) for c in os_))
    kernel = BigMNKKernel(g, KernelOptions())
    ctx: Any = big_kernel.static_context(g.spec)
    params = ctx[10].copy()
    params[layout.P_VCT_PAST_FOURS] = past_fours
    ctx = (*ctx[:10], params, *ctx[11:])
    st = kernel.state(position, ctx)
    stats = np.zeros(layout.STATS_SIZE, dtype=np.int64)
    stats[layout.S_BUDGET], stats[layout.S_DEADLINE] = 1 << 40, NO_DEADLINE
    stats[layout.S_VCF_LEFT] = 200_000
    plies = threat_compiled.vct(kernel.side(position), threats, 0, ctx, st, stats)
    first = int(st[10][0])
    return int(plies), (first // 15, first % 15)


def test_a_win_by_threes_past_the_defenders_four_is_found() -> None:
    board = Board(15, 15, 5)
    xs, os_ = cells(ATTACKER), cells(DEFENDER)
    assert board.four_cells(os_, xs)  # o can answer a three with a four
    assert board.shortest_vcf(xs, os_, 4) is None  # no VCF: threes are needed
    plies, _ = vct_of(xs, os_, 1)
    assert plies > 0
    assert vct_of(xs, os_, 1, past_fours=0)[0] == 0  # o's four holds: no proof


def test_the_proof_holds_against_every_reply_and_every_four() -> None:
    """The oracle: after x's move, each reply of o either leaves x a VCF, or is a four that x
    blocks, after which every reply of o leaves x a VCF."""
    board = Board(15, 15, 5)
    xs, os_ = cells(ATTACKER), cells(DEFENDER)
    _, first = vct_of(xs, os_, 1)
    xs = xs | {first}
    empty = [(r, c) for r in range(15) for c in range(15) if (r, c) not in xs | os_]
    fours = 0
    for reply in empty:
        after = os_ | {reply}
        threats = board.win_cells(after, xs)
        if not threats:
            assert board.shortest_vcf(xs, after, 3) is not None, reply
            continue
        fours += 1
        (block,) = threats
        blocked = xs | {block}
        for again in (c for c in empty if c not in (reply, block)):
            assert board.shortest_vcf(blocked, after | {again}, 3) is not None, (reply, again)
    assert fours == 2  # d1 and e1
