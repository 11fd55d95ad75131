"""Numba: the incremental board of the big-board m,n,k engine (boards up to 20x20).

Import lazily (numba). The board is kept line by line (see :mod:`.lines`): per line and side a
bit set of stones, and two threat maps computed from them by shifts, never by scanning windows
cell by cell:

    wins[side, line]   empty cells where ``side`` completes k (exactly k under the exact rule)
    fours[side, line]  empty cells where ``side`` makes a four: a window of k cells then holds
                       k-1 of its stones and one empty cell (which becomes a win cell)

Both maps come from the windows' starts, found for the whole line at once by a bit-sliced
count of the empty cells over ``k`` shifted copies of the line (:func:`window_starts`):
``O(k)`` word operations per line and side (issue 26; it was ``O(k**3)``). Making or unmaking
a stone refreshes the four lines through it only.

Context tuple ``ctx`` (constant per board size, built by :mod:`.big_kernel`)::

    0 cell_line  int64[cells, 4]    line id of each family through a cell
    1 cell_bit   int64[cells, 4]    the cell's bit in that line
    2 line_cells int64[lines, w]    bit -> cell (-1 past the end)
    3 line_len   int64[lines]
    4 zobrist    uint64[s, 2, cells]  per symmetry, the key of a stone (its image's key)
    5 near       int64[cells, 24]   cells within two rows and columns (-1 padded)
    6 perm       int64[s, cells]    cell -> image cell
    7 inv_perm   int64[s, cells]    image cell -> cell
    8 weights    int64[k + 2]       value of an open window holding n stones (n = 0..k),
                                    then the tempo bonus (see ``lines.evaluation_weights``)
    9 order      int64[cells]       cells, centre first
    10 params    int64[P]           the parameters, by the indices of :mod:`.context_layout`
                                    (``P_*``): the board, the searches' depths and budgets,
                                    the pattern mode (:data:`PATTERNS_OFF`, ..._ORDER,
                                    ..._EVAL), the pattern radius, what orders the moves
                                    (``ORDER_*``), the pattern weights of the evaluation and
                                    the order (eighths), the root's threat searches' shares,
                                    the pruning's switches
    11 patterns  int8[4**(2r)]     :func:`.patterns.pattern_table` (one zero when off)
    12 cell_val  int64[10**4]      the move order's cell table (:func:`.pattern_classes.
                                    value_table`, one zero when off): ``st[12][0:2]``
    13 eval_val  int64[10**4]      the evaluation's cell table (:func:`.patterns.
                                    scoring_entries`): each entry ``value << VALUE_SHIFT |
                                    threat class << 1 | two wins``; the sums ``counts[4:]``
    14 threats   int64[2**11]      the evaluation's threat table by threat mask (added
                                    times ``P_THREAT_EVAL`` eighths; :func:`threat_mask`)

State tuple ``st`` (one per search; side 0 is x, side 1 is o)::

    0 lines    int64[2, lines]   stone bits       1 wins  int64[2, lines]   2 fours int64[2, lines]
    3 counts   int64[COUNTS_SIZE]  lines with a win cell for x, for o; stones; evaluation
                                 for x; from 4 on the sums of ``st[12][2:4]`` (below), then
                                 from ``THREATS_AT`` the empty cells of each threat class for
                                 x, then for o (``THREAT_CLASSES`` a side)
    4 board    int64[cells]      0 empty, 1 x, 2 o
    5 nearby   int64[cells]      stones within two rows and columns
    6 hashes   uint64[s]         Zobrist hash of each symmetric image
    7 line_val int64[lines]      each line's share of the evaluation (x's view)
    8 moves    int64[plies, cells]  per ply, the moves to try   9 scores: their order scores
    10 line    int64[plies]      the moves of the last proved VCF, by ply
    11 codes   int64[2, 4 cells] per side, the pattern code of each empty cell and direction
                                 (index ``4 cell + d``; stale on occupied cells)
    12 values  int64[4, cells]   rows 0, 1 (x, o): each empty cell's combined pattern value
                                 by the order's table (``ctx[12]``) times 2, plus 1 when a
                                 stone there leaves two win cells (0 on occupied cells);
                                 rows 2, 3 the entries of the evaluation's table
                                 (``ctx[13]``): the values' sums are ``counts[4]`` (x),
                                 ``[5]`` (o), the cells leaving two wins ``counts[6]``,
                                 ``[7]``, the cells by threat class ``counts[THREATS_AT:]``
    13 undo    int64[cells + 1, UNDO_SIZE]  what a :func:`make` changed, by the stones on the
                                 board before it (a row each; :func:`unmake` restores it,
                                 see ``context_layout.UNDO_*``)

Pattern tables (issue 26, :mod:`.patterns`, for ``k`` = 5 only): with the mode on, a stone
refreshes the codes of the empty cells within the radius along its four lines and their
values (recomputed from the line bits; the full unmake copies back what its make kept in
the state's undo rows); the move order (:func:`gain`) reads them, and in mode
``PATTERNS_EVAL`` the evaluation (:func:`evaluate`) too, the window evaluation per line then
skipped. Other ``k`` keep the window scans.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from perfectplay.games.common.compiled_bits import clock_reached, lean, popcount
from perfectplay.games.mnk.context_layout import (
    P_ATTACK,
    P_CELLS,
    P_DEFEND,
    P_EXACT,
    P_K,
    P_LINES,
    P_NSYM,
    P_ORDER,
    P_PATTERNS,
    P_RADIUS,
    P_THREAT_EVAL,
    THREATS_AT,
    UNDO_CELL_SLOTS,
    UNDO_CELLS,
    UNDO_LINE_VALUES,
    UNDO_MAPS,
    UNDO_SPAN,
)
from perfectplay.games.mnk.pattern_values import EIGHTHS
from perfectplay.games.mnk.patterns import (
    CLASS_BITS,
    MASK_MY_FLEX_FOUR,
    MASK_MY_FOUR,
    MASK_MY_FOUR_PLUS,
    MASK_MY_THREE,
    MASK_MY_THREE_PLUS,
    MASK_THEIR_FIVE,
    MASK_THEIR_FLEX_FOUR,
    MASK_THEIR_FOUR,
    MASK_THEIR_FOUR_PLUS,
    MASK_THEIR_THREE,
    MASK_THEIR_THREE_PLUS,
    PATTERNS_EVAL,
    PATTERNS_OFF,
    THREAT_CLASSES,
    THREAT_DOUBLE_THREE,
    THREAT_FIVE,
    THREAT_FLEX_FOUR,
    THREAT_FOUR,
    THREAT_FOUR_PLUS,
    THREAT_FOUR_THREE,
    THREAT_THREE,
    THREAT_THREE_PLUS,
    VALUE_SHIFT,
)
from perfectplay.values import HEURISTIC_LIMIT

I2 = types.Array(types.int64, 2, "C")
I1 = types.Array(types.int64, 1, "C")
U1D = types.Array(types.uint64, 1, "C")
CTX_TYPE = types.Tuple(  # type: ignore[no-untyped-call]
    (
        I2,
        I2,
        I2,
        I1,
        types.Array(types.uint64, 3, "C"),
        I2,
        I2,
        I2,
        I1,
        I1,
        I1,
        types.Array(types.int8, 1, "C"),
        I1,
        I1,
        I1,
    )
)
STATE_TYPE = types.Tuple(  # type: ignore[no-untyped-call]
    (I2, I2, I2, I1, I1, I1, U1D, I1, I2, I2, I1, I2, I2, I2)
)
ORDER_WINDOWS, ORDER_PATTERNS, ORDER_BOTH = range(3)
"""What :func:`gain` reads with the pattern tables on: the window scan, the cells' pattern
values, or their sum."""


CLASS_MASK = (1 << CLASS_BITS) - 1
"""A threat class's bits in an evaluation cell-table entry, below its value."""
CLOCK_MASK = 255
"""The clock is read at the first node and every 256 nodes after it: this engine's nodes are
slow (tens of microseconds), so the common 4096 would overshoot a short limit."""


@njit(cache=True, inline="always")
def past_deadline(nodes, deadline_ns):  # type: ignore[no-untyped-def]
    """True when the clock (read every :data:`CLOCK_MASK` + 1 nodes) has reached
    ``deadline_ns``, or Ctrl-C asked the search to stop."""
    if (nodes & CLOCK_MASK) != 1:
        return False
    return clock_reached(deadline_ns)


@njit(cache=True, inline="always")
def sh(x, d):  # type: ignore[no-untyped-def]
    """``x`` moved ``d`` bits down (negative: up): bit ``p`` of the result is bit ``p + d``."""
    if d >= 0:
        return x >> d
    return x << (-d)


@njit(cache=True, inline="always")
def bit_index(low):  # type: ignore[no-untyped-def]
    """The index of the single set bit of ``low``."""
    return popcount(np.uint64(low - 1))


@njit(cache=True, inline="always")
def window_starts(m, e, k, exact):  # type: ignore[no-untyped-def]
    """``(one, two)``: bit ``s`` set when the window of ``k`` cells from bit ``s`` holds only
    cells of ``m`` (stones) and ``e`` (empty cells, disjoint from ``m``), exactly one (two) of
    them empty. Under the exact rule the cells just outside the window must not hold ``m``.

    Bit-parallel (issue 26): every window start at once, a saturating count of the empty
    cells kept in three bit sets (at least one, two, three) over the ``k`` shifted copies of
    ``e``; a window past either end of the line holds a cell of neither set."""
    full = np.int64(-1)
    at1 = at2 = at3 = np.int64(0)
    for i in range(k):
        x = e >> i
        full &= (m | e) >> i
        at3 |= at2 & x
        at2 |= at1 & x
        at1 |= x
    one = full & at1 & ~at2
    two = full & at2 & ~at3
    if exact:
        outside = ~((m << 1) | (m >> k))
        one &= outside
        two &= outside
    return one, two


@njit(cache=True, inline="always")
def spread(starts, e, k):  # type: ignore[no-untyped-def]
    """The cells of ``e`` inside some window of ``k`` cells starting at a bit of ``starts``."""
    covered = np.int64(0)
    for i in range(k):
        covered |= starts << i
    return covered & e


@njit(cache=True, inline="always")
def threat_maps(m, e, k, exact):  # type: ignore[no-untyped-def]
    """``(wins, fours)``: the cells of ``e`` (a line's empty cells, disjoint from its stones
    ``m``) where a stone of ``m`` completes ``k`` in a row, and where it makes a four (some
    window of ``k`` cells through it then holds ``k - 1`` stones and one empty cell, which
    would complete the line). Under the exact rule the cells just outside the window must not
    hold ``m``'s stones. A win cell is the one empty cell of a window holding ``k - 1``
    stones; a four cell either empty cell of a window holding ``k - 2``."""
    one, two = window_starts(m, e, k, exact)
    return spread(one, e, k), spread(two, e, k)


@lean()
def threat_map(m, e, k, exact, four):  # type: ignore[no-untyped-def]
    """The four map of :func:`threat_maps` (``four`` true) or its win map."""
    one, two = window_starts(m, e, k, exact)
    return spread(two if four else one, e, k)


SLICED_K = 7
"""The largest ``k`` whose window counts fit the three bit slices of :func:`line_value`."""


@njit(cache=True, inline="always")
def slice_of(c, b0, b1, b2):  # type: ignore[no-untyped-def]
    """The bits where the three-slice count ``b2 b1 b0`` equals ``c``."""
    return (b0 if c & 1 else ~b0) & (b1 if c & 2 else ~b1) & (b2 if c & 4 else ~b2)


@njit(cache=True, inline="always")
def line_value(a, b, length, k, weights):  # type: ignore[no-untyped-def]
    """Open windows of a line weighted by their stones: x's (``a``) minus o's (``b``).

    A window held by one side only counts for it; its weight grows with the stones, so open
    and closed twos, threes and fours are told apart by how many open windows hold them.
    Bit-parallel for ``k`` up to :data:`SLICED_K` (issue 26): each side's stones are counted
    for every window start at once in three bit slices (a ripple adder over the ``k`` shifted
    copies), then ``weights[c]`` times the windows holding ``c`` and none of the other's."""
    if length < k:
        return 0
    if k > SLICED_K:
        return line_value_loop(a, b, length, k, weights)
    a0 = a1 = a2 = b0 = b1 = b2 = np.int64(0)
    for i in range(k):
        x, y = a >> i, b >> i
        carry_a, carry_b = a0 & x, b0 & y
        a0 ^= x
        b0 ^= y
        a2 ^= a1 & carry_a
        b2 ^= b1 & carry_b
        a1 ^= carry_a
        b1 ^= carry_b
    starts = (np.int64(1) << (length - k + 1)) - 1
    only_a, only_b = starts & ~(b0 | b1 | b2), starts & ~(a0 | a1 | a2)
    value = 0
    for c in range(1, k + 1):
        held_a = popcount(np.uint64(only_a & slice_of(c, a0, a1, a2)))
        held_b = popcount(np.uint64(only_b & slice_of(c, b0, b1, b2)))
        value += weights[c] * (held_a - held_b)
    return value


@lean()
def line_value_loop(a, b, length, k, weights):  # type: ignore[no-untyped-def]
    """:func:`line_value` window by window (any ``k``)."""
    value = 0
    full = (1 << k) - 1
    for s in range(length - k + 1):
        w = full << s
        ca = popcount(np.uint64(a & w))
        cb = popcount(np.uint64(b & w))
        if ca and not cb:
            value += weights[ca]
        elif cb and not ca:
            value -= weights[cb]
    return value


@njit(cache=True, inline="always")
def refresh_line(  # type: ignore[no-untyped-def]
    line, length, k, exact, windows, skip, weights, lines, wins, fours, counts, values
):
    """Recompute a line's threat maps and (``windows`` true) evaluation share after its
    stones changed; the maps of side ``skip`` (-1: none) are kept when both are empty (a stone
    of the other side's came: it only takes cells from ``skip``'s windows, so they stay
    empty; issue 26). The state's arrays come one by one (``lines``, ``wins``, ``fours``,
    ``counts``, ``values`` = ``st[0, 1, 2, 3, 7]``), taken from the tuple once per stone."""
    a, b = lines[0, line], lines[1, line]
    empty = ((1 << length) - 1) & ~(a | b)
    for side in range(2):
        old = wins[side, line]
        if side == skip and old == 0 and fours[side, line] == 0:
            continue  # a stone of the other side's came: no window of this side's grew
        new, four = threat_maps(a if side == 0 else b, empty, k, exact)
        wins[side, line] = new
        fours[side, line] = four
        counts[side] += np.int64(new != 0) - np.int64(old != 0)
    if windows:
        value = line_value(a, b, length, k, weights)
        counts[3] += value - values[line]
        values[line] = value


@lean()
def make(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """Put a stone of ``side`` on the empty ``cell``, keeping what it changes in the undo row
    of the stones on the board before it (``st[13]``), for :func:`unmake`."""
    save_undo(cell, ctx, st)
    _place(cell, side, ctx, st)


@lean()
def unmake(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """Take ``side``'s stone off ``cell``: the last stone :func:`make` put on (those made
    after it taken off already). The state is restored from the stone's undo row, not
    computed again (issue 26: recomputing the pattern codes and values was most of an
    unmake's cost)."""
    counts = st[3]
    row = st[13][counts[2] - 1]
    take_off(cell, side, row, UNDO_MAPS, ctx, st)
    cell_line, line_val = ctx[0], st[7]
    for d in range(4):
        line_val[cell_line[cell, d]] = row[UNDO_LINE_VALUES + d]
    for i in range(counts.shape[0]):
        counts[i] = row[i]
    if ctx[10][P_PATTERNS] != PATTERNS_OFF:
        swap_pattern_cells(cell, row, False, ctx, st)
    neighbours_and_hashes(cell, side, -1, ctx, st)


@njit(cache=True, inline="always")
def save_undo(cell, ctx, st):  # type: ignore[no-untyped-def]
    """Keep in the undo row of the stones now on the board what a stone on ``cell`` will
    change besides the board, the stone bits, ``nearby`` and the hashes: the counts, the four
    lines' evaluation shares and threat maps, and the codes and values of the cells within
    the pattern radius along them (with the pattern tables on)."""
    counts = st[3]
    row = st[13][counts[2]]
    for i in range(counts.shape[0]):
        row[i] = counts[i]
    cell_line, wins, fours, line_val = ctx[0], st[1], st[2], st[7]
    for d in range(4):
        line = cell_line[cell, d]
        row[UNDO_LINE_VALUES + d] = line_val[line]
        at = UNDO_MAPS + 4 * d
        row[at], row[at + 1], row[at + 2], row[at + 3] = line_maps(line, wins, fours)
    if ctx[10][P_PATTERNS] != PATTERNS_OFF:
        swap_pattern_cells(cell, row, True, ctx, st)


@njit(cache=True, inline="always")
def swap_pattern_cells(cell, row, keep, ctx, st):  # type: ignore[no-untyped-def]
    """The codes and values of the cells within the pattern radius of ``cell`` along its
    four lines (each cell's code in that line's direction) copied into the undo ``row``
    (``keep``), or back from it. The cells are those :func:`refresh_patterns` refreshes (and
    occupied ones, whose copies change nothing); ``cell``'s own values are copied once a
    direction, the same each time."""
    r = ctx[10][P_RADIUS]
    cell_line, cell_bit, line_cells, line_len = ctx[0], ctx[1], ctx[2], ctx[3]
    codes, values = st[11], st[12]
    for d in range(4):
        line = cell_line[cell, d]
        p = cell_bit[cell, d]
        first = UNDO_CELLS + UNDO_CELL_SLOTS * (UNDO_SPAN * d - (p - r))
        for q in range(max(0, p - r), min(line_len[line], p + r + 1)):
            other = line_cells[line, q]
            at = first + UNDO_CELL_SLOTS * q
            code = 4 * other + d
            if keep:
                row[at], row[at + 1] = codes[0, code], codes[1, code]
                for v in range(4):
                    row[at + 2 + v] = values[v, other]
            else:
                codes[0, code], codes[1, code] = row[at], row[at + 1]
                for v in range(4):
                    values[v, other] = row[at + 2 + v]


@njit(cache=True, inline="always")
def make_threats(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`make` for the threat searches (issue 26): the board, the stone count, the four
    lines' stone bits and threat maps (``st[0:4]``, ``st[4]``) only. The evaluation, the
    pattern values, ``nearby`` and the hashes are left as they were, stale until the matching
    :func:`unmake_threats`: only code that reads none of them may run in between."""
    _place_lines(cell, side, 1, False, ctx, st)


@njit(cache=True, inline="always")
def unmake_threats(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """Undo :func:`make_threats` (the last one made)."""
    _place_lines(cell, side, -1, False, ctx, st)


@njit(cache=True, inline="always")
def saved_threats(cell, ctx, st):  # type: ignore[no-untyped-def]
    """What :func:`make_threats` on ``cell`` changes besides the board and the stone bits,
    read before it: the threat maps of both sides on the four lines through ``cell`` (wins x,
    wins o, fours x, fours o, line by line) and the win-line counts, for
    :func:`restore_threats`."""
    cell_line, wins, fours, counts = ctx[0], st[1], st[2], st[3]
    return (
        line_maps(cell_line[cell, 0], wins, fours)
        + line_maps(cell_line[cell, 1], wins, fours)
        + line_maps(cell_line[cell, 2], wins, fours)
        + line_maps(cell_line[cell, 3], wins, fours)
        + (counts[0], counts[1])
    )


@njit(cache=True, inline="always")
def line_maps(line, wins, fours):  # type: ignore[no-untyped-def]
    """The threat maps of ``line`` in the order both unmakes keep them (:func:`take_off`):
    wins of x, of o, fours of x, of o."""
    return wins[0, line], wins[1, line], fours[0, line], fours[1, line]


@njit(cache=True, inline="always")
def restore_threats(cell, side, saved, ctx, st):  # type: ignore[no-untyped-def]
    """Undo :func:`make_threats` of ``side``'s stone on ``cell`` (the last one made) from
    :func:`saved_threats` read just before it: the same state as :func:`unmake_threats`
    (the maps are a function of the lines' stones, so they are what they were), without
    computing the maps again (issue 26: the threat searches' unmake was half their make's
    cost)."""
    take_off(cell, side, saved, 0, ctx, st)
    counts = st[3]
    counts[0], counts[1] = saved[16], saved[17]
    counts[2] -= 1


@njit(cache=True, inline="always")
def take_off(cell, side, maps, first, ctx, st):  # type: ignore[no-untyped-def]
    """The board and the stone bits without ``side``'s stone on ``cell``, and the threat maps
    of the four lines through it as ``maps`` (a tuple or an array) holds them from ``first``:
    wins of x, of o, fours of x, of o, line by line. What both unmakes restore alike."""
    st[4][cell] = 0
    cell_line, cell_bit = ctx[0], ctx[1]
    lines, wins, fours = st[0], st[1], st[2]
    for d in range(4):
        line = cell_line[cell, d]
        lines[side, line] &= ~(1 << cell_bit[cell, d])
        at = first + 4 * d
        wins[0, line], wins[1, line] = maps[at], maps[at + 1]
        fours[0, line], fours[1, line] = maps[at + 2], maps[at + 3]


@njit(cache=True, inline="always")
def _place_lines(cell, side, sign, windows, ctx, st):  # type: ignore[no-untyped-def]
    """The board, the stone count and the four lines through ``cell`` (their evaluation
    shares too when ``windows``) after a stone of ``side`` came (``sign`` 1) or went (-1)."""
    st[4][cell] = side + 1 if sign > 0 else 0
    params, cell_line, cell_bit, line_len = ctx[10], ctx[0], ctx[1], ctx[3]
    lines, wins, fours, counts, values = st[0], st[1], st[2], st[3], st[7]
    k, exact = params[P_K], params[P_EXACT] != 0
    weights = ctx[8]
    skip = 1 - side if sign > 0 else -1
    for d in range(4):
        line = cell_line[cell, d]
        bit = 1 << cell_bit[cell, d]
        if sign > 0:
            lines[side, line] |= bit
        else:
            lines[side, line] &= ~bit
        length = line_len[line]
        refresh_line(
            line, length, k, exact, windows, skip, weights, lines, wins, fours, counts, values
        )
    counts[2] += sign


@njit(cache=True, inline="always")
def _place(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    params = ctx[10]
    _place_lines(cell, side, 1, params[P_PATTERNS] != PATTERNS_EVAL, ctx, st)
    if params[P_PATTERNS] != PATTERNS_OFF:
        refresh_patterns(cell, ctx, st)
    neighbours_and_hashes(cell, side, 1, ctx, st)


@njit(cache=True, inline="always")
def neighbours_and_hashes(cell, side, sign, ctx, st):  # type: ignore[no-untyped-def]
    """``nearby`` and the symmetric hashes after a stone of ``side`` came on ``cell``
    (``sign`` 1) or went (-1)."""
    params = ctx[10]
    near, nearby = ctx[5], st[5]
    for i in range(near.shape[1]):
        other = near[cell, i]
        if other < 0:
            break
        nearby[other] += sign
    zobrist, hashes = ctx[4], st[6]
    for s in range(params[P_NSYM]):
        hashes[s] ^= zobrist[s, side, cell]


@lean()
def pattern_code(side, line, q, ctx, st):  # type: ignore[no-untyped-def]
    """The pattern code of a stone of ``side`` at bit ``q`` of ``line``: its neighbourhood
    (the radius's cells each way, the other side's stones and the cells off the line blocked)
    looked up in the pattern table."""
    return line_code(side, line, q, ctx[10][P_RADIUS], st[0], ctx[3], ctx[11])


@njit(cache=True, inline="always")
def line_code(side, line, q, r, lines, line_len, table):  # type: ignore[no-untyped-def]
    """:func:`pattern_code` from the arrays themselves (``st[0]``, ``ctx[3]``, ``ctx[11]``),
    inlined: :func:`refresh_patterns` asks it for some 70 cells a stone."""
    valid = (1 << line_len[line]) - 1
    mine, theirs = lines[side, line], lines[1 - side, line] | ~valid
    full = (1 << (2 * r + 1)) - 1
    low = (1 << r) - 1
    m = sh(mine, q - r) & full
    b = sh(theirs, q - r) & full
    if q < r:  # the cells before the line's start are blocked too
        b |= (1 << (r - q)) - 1
    m = (m & low) | ((m >> (r + 1)) << r)
    b = (b & low) | ((b >> (r + 1)) << r)
    return np.int64(table[m | (b << (2 * r))])


@lean()
def set_value(cell, ctx, st):  # type: ignore[no-untyped-def]
    """Refresh an empty cell's combined values from its codes (0 when occupied): by the
    order's table in ``st[12][0:2]``, by the evaluation's in ``st[12][2:4]``, keeping the
    latter's sums in ``counts[4:6]`` and the number of cells giving two win cells in
    ``counts[6:8]``."""
    cell_value(cell, st[4], st[3], st[11], st[12], ctx[12], ctx[13])


@njit(cache=True, inline="always")
def cell_value(cell, board, counts, codes, values, ordering, scoring):  # type: ignore[no-untyped-def]
    """:func:`set_value` from the arrays themselves (``st[4]``, ``st[3]``, ``st[11]``,
    ``st[12]``, ``ctx[12]``, ``ctx[13]``), inlined (see :func:`line_code`). The evaluation's
    old entry (its value, threat class and two wins) is read from ``values[2 + side]``: the
    codes are already the new ones."""
    for side in range(2):
        entry, scored = 0, 0
        if board[cell] == 0:
            at = 4 * cell
            key = codes[side, at] + 10 * codes[side, at + 1]
            key += 100 * codes[side, at + 2] + 1000 * codes[side, at + 3]
            entry, scored = ordering[key], scoring[key]
        old = values[2 + side, cell]
        counts[4 + side] += (scored >> VALUE_SHIFT) - (old >> VALUE_SHIFT)
        counts[6 + side] += (scored & 1) - (old & 1)
        if (scored ^ old) >> 1 & CLASS_MASK:  # rarely: most cells keep their class
            threats = THREATS_AT + THREAT_CLASSES * side
            counts[threats + (scored >> 1 & CLASS_MASK)] += 1
            counts[threats + (old >> 1 & CLASS_MASK)] -= 1
        values[side, cell] = entry
        values[2 + side, cell] = scored


@lean()
def refresh_patterns(cell, ctx, st):  # type: ignore[no-untyped-def]
    """Refresh the codes and values of the empty cells within the radius of ``cell`` along its
    four lines after a stone came on it (``cell``'s own values then 0: :func:`unmake` takes
    the old ones back from the undo row). The arrays are taken from the tuples once (see
    :func:`line_code`)."""
    r = ctx[10][P_RADIUS]
    cell_line, cell_bit, line_cells, line_len = ctx[0], ctx[1], ctx[2], ctx[3]
    table, ordering, scoring = ctx[11], ctx[12], ctx[13]
    lines, counts, board, codes, values = st[0], st[3], st[4], st[11], st[12]
    for d in range(4):
        line = cell_line[cell, d]
        p = cell_bit[cell, d]
        for q in range(max(0, p - r), min(line_len[line], p + r + 1)):
            other = line_cells[line, q]
            if board[other] != 0:
                continue
            for side in range(2):
                codes[side, 4 * other + d] = line_code(side, line, q, r, lines, line_len, table)
            cell_value(other, board, counts, codes, values, ordering, scoring)
    cell_value(cell, board, counts, codes, values, ordering, scoring)


@lean()
def load(x_cells, o_cells, ctx, st):  # type: ignore[no-untyped-def]
    """Set up a fresh state (all zero) with the given stones (with the pattern tables on, the
    empty board's codes first: a cell no stone comes near keeps them)."""
    if ctx[10][P_PATTERNS] != PATTERNS_OFF:
        for cell in range(ctx[10][P_CELLS]):
            for d in range(4):
                line = ctx[0][cell, d]
                for side in range(2):
                    st[11][side, 4 * cell + d] = pattern_code(side, line, ctx[1][cell, d], ctx, st)
            set_value(cell, ctx, st)
    for i in range(x_cells.shape[0]):
        make(x_cells[i], 0, ctx, st)
    for i in range(o_cells.shape[0]):
        make(o_cells[i], 1, ctx, st)


@njit(cache=True, inline="always")
def first_two(w, line, first, line_cells):  # type: ignore[no-untyped-def]
    """``(first, two)`` after the cells of the bit set ``w`` of ``line``, lowest bit first:
    the first cell seen (``first`` coming in, -1 for none yet), and True as soon as a second
    distinct one is seen (the walk stops there)."""
    while w:
        low = w & -w
        cell = line_cells[line, bit_index(low)]
        if first < 0:
            first = cell
        elif cell != first:
            return first, True
        w ^= low
    return first, False


@lean()
def win_cells(side, ctx, st):  # type: ignore[no-untyped-def]
    """``(n, cell)``: how many distinct cells complete a line for ``side`` (0, 1, or 2 meaning
    two or more) and the first of them (-1 when none)."""
    return scan_win_cells(side, ctx, st)


@njit(cache=True, inline="always")
def scan_win_cells(side, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`win_cells` inlined, for the threat searches' hot paths (a call passing the
    context and state tuples costs more than most of its bodies; issue 26)."""
    if st[3][side] == 0:
        return 0, -1
    first = -1
    wins, line_cells = st[1], ctx[2]
    for line in range(ctx[10][P_LINES]):
        first, two = first_two(wins[side, line], line, first, line_cells)
        if two:
            return 2, first
    return (1 if first >= 0 else 0), first


@njit(cache=True, inline="always")
def win_cells_at(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`win_cells` read from the four lines through ``cell`` when they hold every line
    with a win cell of ``side`` (``counts[side]`` says how many there are; the whole board is
    read otherwise): the same answer, in the same order (a cell's line ids grow with the
    direction), without scanning the other lines (issue 26)."""
    cell_line, line_cells, wins = ctx[0], ctx[2], st[1]
    through = np.int64(0)
    for d in range(4):
        through += np.int64(wins[side, cell_line[cell, d]] != 0)
    if through != st[3][side]:
        return win_cells(side, ctx, st)
    first = -1
    for d in range(4):
        line = cell_line[cell, d]
        first, two = first_two(wins[side, line], line, first, line_cells)
        if two:
            return 2, first
    return (1 if first >= 0 else 0), first


@njit(cache=True, inline="always")
def wins_after(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """What :func:`win_cells` would answer after a stone of ``side`` on the empty ``cell``,
    for a ``side`` with no win cell now: ``(n, first)``, computed from the lines' bits with
    nothing made (issue 26). Only a line where ``cell`` makes a four can then hold a win
    cell: the stone completes no other window to ``k - 1`` and makes no other window whole
    (under the exact rule it can only spoil one)."""
    params = ctx[10]
    k, exact = params[P_K], params[P_EXACT] != 0
    cell_line, cell_bit, line_cells, line_len = ctx[0], ctx[1], ctx[2], ctx[3]
    lines, fours = st[0], st[2]
    first = -1
    for d in range(4):
        line = cell_line[cell, d]
        bit = 1 << cell_bit[cell, d]
        if not fours[side, line] & bit:
            continue
        mine = lines[side, line] | bit
        empty = ((1 << line_len[line]) - 1) & ~(mine | lines[1 - side, line])
        one, _ = window_starts(mine, empty, k, exact)  # threat_map's win map, inlined
        first, two = first_two(spread(one, empty, k), line, first, line_cells)
        if two:
            return 2, first
    return (1 if first >= 0 else 0), first


@lean()
def makes_four(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """True when a stone of ``side`` on the empty ``cell`` makes a four."""
    return four_at(cell, side, ctx, st)


@njit(cache=True, inline="always")
def four_at(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`makes_four` inlined (the threat searches' hot paths)."""
    found = False
    fours, cell_line, cell_bit = st[2], ctx[0], ctx[1]
    for d in range(4):
        found |= (fours[side, cell_line[cell, d]] >> cell_bit[cell, d] & 1) != 0
    return found


@lean()
def evaluate(side, ctx, st):  # type: ignore[no-untyped-def]
    """The evaluation for the side to move, clamped to the heuristic range. Pattern mode
    ``PATTERNS_EVAL``: the sum of its cells' pattern values (weighted by the attack ratio)
    less the opponent's, plus the threat table's value of the position's threat mask times
    ``P_THREAT_EVAL`` eighths. Otherwise the windows' evaluation plus the tempo bonus (the last
    weight) for each of its lines holding a four-maker (it moves first)."""
    counts = st[3]
    if ctx[10][P_PATTERNS] == PATTERNS_EVAL:
        mine, theirs = counts[4 + side], counts[5 - side]
        value = mine * ctx[10][P_ATTACK] // EIGHTHS - theirs
        if ctx[10][P_THREAT_EVAL]:
            value += ctx[14][threat_mask(side, counts)] * ctx[10][P_THREAT_EVAL] // EIGHTHS
        return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))
    value = counts[3]
    if side == 1:
        value = -value
    k = ctx[10][P_K]
    if k >= 2:
        for line in range(ctx[10][P_LINES]):
            if st[2][side, line]:
                value += ctx[8][k + 1]
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))


@njit(cache=True, inline="always")
def threat_mask(side, counts):  # type: ignore[no-untyped-def]
    """The threat mask of the position for ``side`` to move (:func:`.patterns.threat_mask`,
    the same bits) from the counts of the empty cells by threat class (``counts[THREATS_AT:]``,
    :data:`THREAT_CLASSES` a side)."""
    mine = counts[THREATS_AT + THREAT_CLASSES * side :]
    theirs = counts[THREATS_AT + THREAT_CLASSES * (1 - side) :]
    mask = np.int64(theirs[THREAT_FIVE] > 0) << MASK_THEIR_FIVE
    mask |= np.int64(mine[THREAT_FLEX_FOUR] > 0) << MASK_MY_FLEX_FOUR
    mask |= np.int64(theirs[THREAT_FLEX_FOUR] > 0) << MASK_THEIR_FLEX_FOUR
    mask |= np.int64(mine[THREAT_FOUR_PLUS] + mine[THREAT_FOUR_THREE] > 0) << MASK_MY_FOUR_PLUS
    mask |= np.int64(mine[THREAT_FOUR] > 0) << MASK_MY_FOUR
    mask |= np.int64(mine[THREAT_THREE_PLUS] + mine[THREAT_DOUBLE_THREE] > 0) << MASK_MY_THREE_PLUS
    mask |= np.int64(mine[THREAT_THREE] > 0) << MASK_MY_THREE
    mask |= (
        np.int64(theirs[THREAT_FOUR_PLUS] + theirs[THREAT_FOUR_THREE] > 0) << MASK_THEIR_FOUR_PLUS
    )
    mask |= np.int64(theirs[THREAT_FOUR] > 0) << MASK_THEIR_FOUR
    mask |= (
        np.int64(theirs[THREAT_THREE_PLUS] + theirs[THREAT_DOUBLE_THREE] > 0)
        << MASK_THEIR_THREE_PLUS
    )
    mask |= np.int64(theirs[THREAT_THREE] > 0) << MASK_THEIR_THREE
    return mask


@lean()
def gains(side, moves, scores, n, ctx, st):  # type: ignore[no-untyped-def]
    """``scores[i]``: the :func:`gain` of ``moves[i]`` for ``side``, for the first ``n``. The
    arrays are taken from the tuples once for all the moves."""
    params, weights, cell_line, cell_bit, line_len = ctx[10], ctx[8], ctx[0], ctx[1], ctx[3]
    lines, values = st[0], st[12]
    for i in range(n):
        scores[i] = gain(
            moves[i], side, params, weights, cell_line, cell_bit, line_len, lines, values
        )


@njit(cache=True, inline="always")
def gain(  # type: ignore[no-untyped-def]
    cell, side, params, weights, cell_line, cell_bit, line_len, lines, values
):
    """How much a stone of ``side`` on the empty ``cell`` is worth for ordering. With pattern
    tables: the cell's pattern value for the side (attack) plus the opponent's (defence).
    Otherwise (``k`` other than 5) the open windows through it that it grows (attack) and
    the opponent's that it kills (defence). The arrays are the context's and the state's
    (``ctx[10]``, ``ctx[8]``, ``ctx[0]``, ``ctx[1]``, ``ctx[3]``, ``st[0]``, ``st[12]``)."""
    total = 0
    order = params[P_ORDER] if params[P_PATTERNS] != PATTERNS_OFF else ORDER_WINDOWS
    if order != ORDER_WINDOWS:
        mine, theirs = values[side, cell] >> 1, values[1 - side, cell] >> 1
        total = mine + theirs * params[P_DEFEND] // EIGHTHS
        if order == ORDER_PATTERNS:
            return total
    k = params[P_K]
    full = (1 << k) - 1
    for d in range(4):
        line = cell_line[cell, d]
        length = line_len[line]
        if length < k:
            continue
        p = cell_bit[cell, d]
        mine, theirs = lines[side, line], lines[1 - side, line]
        for s in range(max(0, p - k + 1), min(p, length - k) + 1):
            w = full << s
            ca = popcount(np.uint64(mine & w))
            cb = popcount(np.uint64(theirs & w))
            if cb == 0:
                total += weights[ca + 1] - weights[ca]
            elif ca == 0:
                total += weights[cb]
    return total


@lean()
def canonical(st, ctx):  # type: ignore[no-untyped-def]
    """``(key, sym)``: the smallest hash over the symmetric images and its symmetry."""
    hashes = st[6]
    best, sym = hashes[0], 0
    for s in range(1, ctx[10][P_NSYM]):
        if hashes[s] < best:
            best, sym = hashes[s], s
    return best, sym
