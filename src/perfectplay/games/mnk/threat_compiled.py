"""Numba: threat-space search of the big-board m,n,k engine: victory by continuous fours (VCF).

Import lazily (numba). Works on the incremental board of :mod:`.board_compiled`.

A VCF is a win in which every attacking move makes a four, so every reply is forced::

    attacker: a four-maker c (a stone that leaves a cell w completing k)
        two or more win cells after c  -> the defender blocks one, the attacker completes
                                          the other: a win in 3 plies from here
        exactly one (w)                -> the defender must play w (it has no win cell of its
                                          own: checked first), and the attack goes on
    a defender win cell on the board   -> the attacker's move must block it: the attack goes
                                          on only when the blocking cell is itself a four-maker

Every defence considered is the only one that does not lose at once, so a VCF found is a
proof of a forced win (``win in N`` with ``N`` the line's plies), whatever else the
position holds. Its nodes count as search nodes (``stats[0]``) under the search's budget and
deadline (running out sets ``stats[3]``, as the search does). ``stats[5]`` is the node
allowance of a VCF search (spent per node; an exhausted search finds nothing, which is always
safe). The moves of the line found are left in ``st[10]`` by ply.
"""

from __future__ import annotations

from numba import njit, types

from perfectplay.games.common.compiled_bits import I64_ARRAY
from perfectplay.games.mnk.board_compiled import (
    CTX_TYPE,
    P_LINES,
    STATE_TYPE,
    bit_index,
    make,
    makes_four,
    past_deadline,
    unmake,
    win_cells,
)

VCF_SIGNATURE = types.int64(types.int64, types.int64, types.int64, CTX_TYPE, STATE_TYPE, I64_ARRAY)


@njit(cache=True)
def four_cells(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """Every cell where ``side`` makes a four, once each, into ``st[8][ply]``; their number."""
    out = st[8][ply]
    n = 0
    for line in range(ctx[10][P_LINES]):
        w = st[2][side, line]
        while w:
            low = w & -w
            cell = ctx[2][line, bit_index(low)]
            w ^= low
            seen = False
            for i in range(n):
                if out[i] == cell:
                    seen = True
                    break
            if not seen:
                out[n] = cell
                n += 1
    return n


@njit(VCF_SIGNATURE, cache=True)
def vcf(side, depth, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """Plies of a forced win of ``side`` (to move, with no win cell of its own) by at most
    ``depth`` continuous fours: 3, 5, 7, ...; 0 when none was found within ``stats[5]`` nodes.
    """
    if depth <= 0 or stats[5] <= 0:
        return 0
    stats[5] -= 1
    stats[0] += 1
    if stats[0] >= stats[2] or past_deadline(stats[0], stats[4]):
        stats[2] = 0
        stats[3] = 1
        stats[5] = 0
        return 0
    opp = 1 - side
    threats, block = win_cells(opp, ctx, st)
    if threats >= 2:
        return 0
    if threats == 1:
        if not makes_four(block, side, ctx, st):
            return 0
        st[8][ply, 0] = block
        n = 1
    else:
        n = four_cells(side, ply, ctx, st)
    for i in range(n):
        cell = st[8][ply, i]
        make(cell, side, ctx, st)
        wins, reply = win_cells(side, ctx, st)
        result = 0
        if wins >= 2:
            result = 3
        elif wins == 1:
            make(reply, opp, ctx, st)
            deeper = vcf(side, depth - 1, ply + 2, ctx, st, stats)
            unmake(reply, opp, ctx, st)
            if deeper:
                result = deeper + 2
        unmake(cell, side, ctx, st)
        if result:
            st[10][ply] = cell
            st[10][ply + 1] = reply
            return result
    return 0


@njit(cache=True)
def shortest_vcf(side, max_depth, ply, nodes, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The shortest VCF of at most ``max_depth`` fours (deepening one four at a time), within
    ``nodes`` nodes in all: its plies, or 0."""
    stats[5] = nodes
    for depth in range(1, max_depth + 1):
        before = stats[5]
        found = vcf(side, depth, ply, ctx, st, stats)
        if found or stats[5] <= 0 or (stats[5] == before - 1 and depth > 1):
            return found
    return 0
