"""Issue 26: the win by threats (VCT) looks past the defender's four. Answering a three with
a four of its own is the defender's usual resistance (in Rapfi's winning lines against our
lost games it came in each one looked at); the VCT counted any such four as a defence that
holds, so it proved none of those wins. Now the four is blocked and the three answered
again, every defence tried (``P_VCT_PAST_FOURS``, a runtime choice); the proof is checked
here by an independent oracle."""

from __future__ import annotations

from gomoku_support import Cell, compiled_vct
from reference.vcf_reference import Board

from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.notation import parse_mnk_move
from perfectplay.games.mnk.rules import game

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
    settings = {layout.P_VCT_PAST_FOURS: past_fours}
    plies, first, _ = compiled_vct(15, 5, (xs, os_), settings, threats, 200_000, False)
    return plies, first


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
