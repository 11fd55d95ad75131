"""Compiled negamax alpha-beta for m,n,k-games whose board fits one 64-bit word.

Import this module lazily: importing it loads numba (about half a second) and the first call
compiles the kernel (a few seconds, then cached on disk by ``cache=True``).

Board: ``cur`` and ``opp`` are uint64 bitboards of the side to move and of its opponent, in the
dense row-major layout of :mod:`perfectplay.games.common.grid` (bit ``row * cols + col``). Values
use the scale of :mod:`perfectplay.search.result`, root-relative inside a search, stored
position-relative in the table.

Context tuple ``ctx`` (built once per board size by :class:`MNKKernel`)::

    cell_windows  uint64[cells, w]    the windows through each cell (padded with 0)
    window_count  int64[cells]        how many of them are real
    order         int64[cells]        cells, centre first: the static move order
    sym_tables    uint64[s, chunks, 256]  per symmetry, byte -> permuted bits
    perm          int64[s, cells]     per symmetry, cell -> image cell
    inv_perm      int64[s, cells]     per symmetry, image cell -> cell
    all_windows   uint64[n]           every window, for the evaluation
    weights       int64[k + 1]        value of an open window holding i stones
    params        int64[4]            cells, symmetries in use, table on (1/0), ordering on
    steps         int64[4]            bit step of each direction: across, down, diagonal, anti
    column_steps  int64[4]            column step of each direction (1, 0, 1, -1)
    column_masks  uint64[2k - 1]      per column offset t (from -(k-1)): cells whose column
                                      plus t is on the board

Threat maps: the cells completing k for a side are computed for the whole board at once, by
shifts: a window with the new stone at offset ``j`` is ``empty & AND_{i != j} toward(stones,
i - j)`` per direction, where ``toward(x, n)`` moves each cell's n-th neighbour along the
direction onto the cell (the column masks drop what would wrap around an edge). The same
shifts tell whether any window is still free of a side's stones: when neither side has one
the position is a draw, and a side without one can no longer win (a bound on the value).

Table tuple ``tt``: ``key_a``, ``key_b`` (uint64 canonical boards), ``value`` (int64),
``bound`` (int8: 0 exact, 1 lower, 2 upper), ``draft`` (int32, FULL_DRAFT when no horizon was
hit below), ``move`` (int16, in the canonical frame; negative marks an empty slot, whose other
columns are garbage). ``stats`` (int64[5]): nodes, horizon leaves, node budget, aborted flag,
the deadline in ``time.perf_counter_ns`` units (``NO_DEADLINE``: none; the clock is read at the
first node and every 4096 nodes after it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from perfectplay.games.common.compiled_bits import (
    HASH_A,
    HASH_B,
    I64_ARRAY,
    U0,
    U1,
    U64_ARRAY,
    lean,
    past_deadline,
    popcount,
    shift,
)
from perfectplay.games.common.table_values import (
    EXACT,
    INF,
    LOWER,
    MATE,
    UPPER,
    WIN,
    from_table,
    to_table,
)
from perfectplay.values import FULL_DRAFT, HEURISTIC_LIMIT

CTX_TYPE = types.Tuple(
    (
        types.Array(types.uint64, 2, "C"),
        I64_ARRAY,
        I64_ARRAY,
        types.Array(types.uint64, 3, "C"),
        types.Array(types.int64, 2, "C"),
        types.Array(types.int64, 2, "C"),
        U64_ARRAY,
        I64_ARRAY,
        I64_ARRAY,
        I64_ARRAY,
        I64_ARRAY,
        U64_ARRAY,
    )
)
TABLE_TYPE = types.Tuple(
    (
        U64_ARRAY,
        U64_ARRAY,
        I64_ARRAY,
        types.Array(types.int8, 1, "C"),
        types.Array(types.int32, 1, "C"),
        types.Array(types.int16, 1, "C"),
    )
)
# Recursive kernels get an explicit signature: with inferred types numba compiles several
# variants of a self-recursive function, and their on-disk cache crashes when reloaded.
NEGAMAX_SIGNATURE = types.int64(
    types.uint64,
    types.uint64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    CTX_TYPE,
    TABLE_TYPE,
    I64_ARRAY,
)
EXACT_VALUES_SIGNATURE = types.int64(
    types.uint64, types.uint64, CTX_TYPE, U64_ARRAY, U64_ARRAY, I64_ARRAY, I64_ARRAY
)


@lean()
def wins_with(stones, cell, ctx):  # type: ignore[no-untyped-def]
    """True when ``stones`` (including ``cell``) fill a window through ``cell``."""
    cell_windows = ctx[0]
    for i in range(ctx[1][cell]):
        window = cell_windows[cell, i]
        if stones & window == window:
            return True
    return False


@lean()
def permute(bits, sym, ctx):  # type: ignore[no-untyped-def]
    """``bits`` under symmetry ``sym``, one table look-up per byte."""
    tables = ctx[3]
    out = U0
    chunk = 0
    while bits:
        out |= tables[sym, chunk, bits & np.uint64(0xFF)]
        bits >>= np.uint64(8)
        chunk += 1
    return out


@lean()
def canonical(cur, opp, ctx):  # type: ignore[no-untyped-def]
    """``(a, b, sym)``: the smallest transformed ``(cur, opp)`` and the symmetry giving it."""
    best_a, best_b, best_sym = cur, opp, 0
    for sym in range(1, ctx[8][1]):
        a = permute(cur, sym, ctx)
        if a > best_a:
            continue
        b = permute(opp, sym, ctx)
        if a < best_a or b < best_b:
            best_a, best_b, best_sym = a, b, sym
    return best_a, best_b, best_sym


@lean()
def slot_of(a, b, size):  # type: ignore[no-untyped-def]
    """Table slot of a canonical key."""
    h = a * HASH_A ^ (b * HASH_B) ^ (a >> np.uint64(29))
    return np.int64(h % np.uint64(size))


@lean()
def evaluate(cur, opp, ctx):  # type: ignore[no-untyped-def]
    """Open windows weighted by their stones: side to move minus opponent."""
    all_windows, weights = ctx[6], ctx[7]
    score = 0
    for i in range(all_windows.shape[0]):
        window = all_windows[i]
        mine, theirs = cur & window, opp & window
        if mine and not theirs:
            score += weights[popcount(mine)]
        elif theirs and not mine:
            score -= weights[popcount(theirs)]
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


@njit(cache=True, inline="always")
def toward(x, n, d, ctx):  # type: ignore[no-untyped-def]
    """Cells whose ``n``-th neighbour along direction ``d`` is in ``x`` (on the board)."""
    k1 = (ctx[11].shape[0] - 1) // 2
    return shift(x, -n * ctx[9][d]) & ctx[11][n * ctx[10][d] + k1]


@lean()
def threat_map(stones, empty, gaps, ctx):  # type: ignore[no-untyped-def]
    """Cells of ``empty`` where a stone completes a window of ``k`` (``gaps`` 0), or makes a
    four, leaving a window one stone short with its last cell empty (``gaps`` 1)."""
    k = ctx[11].shape[0] // 2 + 1
    result = U0
    for d in range(4):
        for j in range(k):
            for q in range(k if gaps else 1):
                if gaps and q == j:
                    continue
                acc = empty & toward(empty, q - j, d, ctx) if gaps else empty
                for i in range(k):
                    if acc == U0:
                        break
                    if i != j and not (gaps and i == q):
                        acc &= toward(stones, i - j, d, ctx)
                result |= acc
    return result


@lean()
def can_win(free, ctx):  # type: ignore[no-untyped-def]
    """True when some window of ``k`` cells lies entirely in ``free`` (cells without the
    opponent's stones)."""
    k = ctx[11].shape[0] // 2 + 1
    for d in range(4):
        acc = free
        for i in range(1, k):
            if acc == U0:
                break
            acc &= toward(free, i, d, ctx)
        if acc:
            return True
    return False


@lean()
def live_cells(free, ctx):  # type: ignore[no-untyped-def]
    """Cells lying in some window of ``k`` cells entirely in ``free``."""
    k = ctx[11].shape[0] // 2 + 1
    result = U0
    for d in range(4):
        starts = free
        for i in range(1, k):
            starts &= toward(free, i, d, ctx)
        for i in range(k):
            result |= toward(starts, -i, d, ctx)
    return result


@lean()
def move_ranks(cur, opp, empty, full, ctx):  # type: ignore[no-untyped-def]
    """The four groups of the move order, best first: cells making a four, cells in a window
    either side can still fill, cells only one side can use, dead cells (every window through
    them holds both sides' stones, for good: playing any of them is playing all of them)."""
    mine = live_cells(full & ~opp, ctx)
    theirs = live_cells(full & ~cur, ctx)
    fours = threat_map(cur, empty, 1, ctx)
    both = empty & mine & theirs & ~fours
    one = empty & (mine | theirs) & ~fours & ~both
    return fours, both, one, empty & ~(fours | both | one)


@lean(NEGAMAX_SIGNATURE)
def negamax(cur, opp, ply, depth, alpha, beta, ctx, tt, stats):  # type: ignore[no-untyped-def]
    """Value of a running position for the side to move (``cur``), searched ``depth`` plies.

    Contract: the position is not won by either side. Returns a root-relative value; sets
    ``stats[3]`` and returns 0 when the node budget or the deadline runs out (the caller must
    discard it).
    """
    stats[0] += 1
    if stats[0] >= stats[2] or past_deadline(stats[0], stats[4]):
        stats[2] = 0  # spent: the nodes still to come stop at once too
        stats[3] = 1
        return 0
    cells = ctx[8][0]
    full = (U1 << np.uint64(cells)) - U1 if cells < 64 else ~U0
    empty = full & ~(cur | opp)
    if empty == 0:
        return 0
    if threat_map(cur, empty, 0, ctx):
        return WIN - (ply + 1)
    if depth <= 0:
        stats[1] += 1
        return evaluate(cur, opp, ctx)
    threat_bits = threat_map(opp, empty, 0, ctx)
    threats = popcount(threat_bits)
    if threats >= 2:
        return -(WIN - (ply + 2))
    threat_cell = -1
    if threats == 1:
        threat_cell = popcount(threat_bits - U1)
    # The loser delays and the winner hurries: no value outside these bounds is possible.
    alpha = max(alpha, -(WIN - (ply + 2)))
    beta = min(beta, WIN - (ply + 3))
    # A side with no window free of the other's stones can no longer win.
    if not can_win(full & ~cur, ctx):
        alpha = max(alpha, 0)
    if not can_win(full & ~opp, ctx):
        beta = min(beta, 0)
    if alpha >= beta:
        return alpha

    use_table = ctx[8][2] != 0
    alpha_start = alpha
    table_move = -1
    slot, key_a, key_b, sym = 0, U0, U0, 0
    if use_table:
        key_a, key_b, sym = canonical(cur, opp, ctx)
        size = tt[0].shape[0]
        slot = slot_of(key_a, key_b, size)
        if tt[5][slot] >= 0 and tt[0][slot] == key_a and tt[1][slot] == key_b:
            table_move = ctx[5][sym, tt[5][slot]]
            if tt[4][slot] >= depth:
                value = from_table(tt[2][slot], ply)
                if tt[4][slot] < FULL_DRAFT:
                    stats[1] += 1
                bound = tt[3][slot]
                if bound == EXACT:
                    return value
                if bound == LOWER:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    return value

    horizon_before = stats[1]
    best, best_cell = -INF, -1
    # A single threat must be blocked; otherwise the table's move goes first.
    first = threat_cell if threats == 1 else table_move
    if first >= 0:
        best_cell = first
        best = -negamax(
            opp, cur | (U1 << np.uint64(first)), ply + 1, depth - 1, -beta, -alpha, ctx, tt, stats
        )
        alpha = max(alpha, best)
    ordering = ctx[8][3] != 0
    groups = move_ranks(cur, opp, empty, full, ctx) if ordering else (empty, U0, U0, U0)
    for phase in range(4 if threats != 1 and alpha < beta else 0):
        group = groups[phase]
        for i in range(cells):
            cell = ctx[2][i] if ordering else i
            bit = U1 << np.uint64(cell)
            if not group & bit or cell == table_move:
                continue
            value = -negamax(opp, cur | bit, ply + 1, depth - 1, -beta, -alpha, ctx, tt, stats)
            if value > best:
                best, best_cell = value, cell
                alpha = max(alpha, value)
            if alpha >= beta or phase == 3:  # dead cells are interchangeable: one will do
                break
        if alpha >= beta:
            break
    if stats[3]:
        return 0
    if use_table:
        bound = UPPER if best <= alpha_start else LOWER if best >= beta else EXACT
        draft = FULL_DRAFT if stats[1] == horizon_before else depth
        stored_draft = tt[4][slot]
        same = tt[5][slot] >= 0 and tt[0][slot] == key_a and tt[1][slot] == key_b
        if not same or draft >= stored_draft:
            tt[0][slot] = key_a
            tt[1][slot] = key_b
            tt[2][slot] = to_table(best, ply)
            tt[3][slot] = bound
            tt[4][slot] = draft
            tt[5][slot] = ctx[4][sym, best_cell]
    return best


@lean()
def search_root(cur, opp, depth, first, ctx, tt, stats):  # type: ignore[no-untyped-def]
    """``(best_cell, value)`` of a running position; ties go to the first cell in order.

    ``first`` (a cell or -1) is tried first. ``stats[3]`` set on return means aborted.
    """
    cells = ctx[8][0]
    full = (U1 << np.uint64(cells)) - U1 if cells < 64 else ~U0
    empty = full & ~(cur | opp)
    stats[0] += 1
    if past_deadline(stats[0], stats[4]):  # started after its deadline
        stats[3] = 1
        return -1, -INF
    order = ctx[2]
    for i in range(cells):
        cell = order[i]
        bit = U1 << np.uint64(cell)
        if empty & bit and wins_with(cur | bit, cell, ctx):
            return cell, WIN - 1
    best_cell, alpha = -1, -INF
    for i in range(-1, cells):
        if i == -1:
            cell = first
            if cell < 0:
                continue
        else:
            cell = order[i] if ctx[8][3] else i
            if cell == first:
                continue
        bit = U1 << np.uint64(cell)
        if not empty & bit:
            continue
        value = -negamax(opp, cur | bit, 1, depth - 1, -INF, -alpha, ctx, tt, stats)
        if stats[3]:
            return best_cell, alpha
        if value > alpha:
            best_cell, alpha = cell, value
    return best_cell, alpha


@lean()
def table_move(cur, opp, ctx, tt):  # type: ignore[no-untyped-def]
    """The table's best cell for a position, or -1."""
    key_a, key_b, sym = canonical(cur, opp, ctx)
    slot = slot_of(key_a, key_b, tt[0].shape[0])
    if tt[5][slot] >= 0 and tt[0][slot] == key_a and tt[1][slot] == key_b:
        return ctx[5][sym, tt[5][slot]]
    return -1


FREE = -INF - 1
"""Value marking a free slot of the exact-value map."""


@lean()
def map_slot(a, b, keys_a, keys_b, values):  # type: ignore[no-untyped-def]
    """The slot holding key ``(a, b)``, or the free slot where it would go."""
    size = keys_a.shape[0]
    slot = slot_of(a, b, size)
    while values[slot] != FREE and not (keys_a[slot] == a and keys_b[slot] == b):
        slot = (slot + 1) % size
    return slot


@lean()
def map_store(a, b, value, keys_a, keys_b, values, count):  # type: ignore[no-untyped-def]
    slot = map_slot(a, b, keys_a, keys_b, values)
    if values[slot] == FREE:
        count[0] += 1
    keys_a[slot] = a
    keys_b[slot] = b
    values[slot] = value


@lean(EXACT_VALUES_SIGNATURE)
def exact_values(cur, opp, ctx, keys_a, keys_b, values, count):  # type: ignore[no-untyped-def]
    """Exact value of ``(cur, opp)`` and of every position reachable from it, memoised.

    ``keys_a``/``keys_b``/``values`` form an open-addressing map from ``(side to move,
    opponent)`` boards to position-relative values (``WIN - plies``; a position already lost
    is ``-WIN``), free slots holding :data:`FREE`; it must have room for every reachable
    position. ``count[0]`` counts stored positions. The position must not be won.
    """
    slot = map_slot(cur, opp, keys_a, keys_b, values)
    if values[slot] != FREE:
        return values[slot]
    cells = ctx[8][0]
    full = (U1 << np.uint64(cells)) - U1 if cells < 64 else ~U0
    empty = full & ~(cur | opp)
    best = 0 if empty == 0 else -INF
    for cell in range(cells):
        bit = U1 << np.uint64(cell)
        if not empty & bit:
            continue
        if wins_with(cur | bit, cell, ctx):
            map_store(opp, cur | bit, -WIN, keys_a, keys_b, values, count)
            value = WIN - 1
        else:
            child = exact_values(opp, cur | bit, ctx, keys_a, keys_b, values, count)
            value = -child + 1 if child > MATE else -child - 1 if child < -MATE else -child
        if value > best:
            best = value
    map_store(cur, opp, best, keys_a, keys_b, values, count)
    return best
