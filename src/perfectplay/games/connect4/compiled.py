"""Compiled exact Connect Four solver (the ideas of Pascal Pons' solver), numba.

Import lazily: loading numba costs about half a second, the first compile several seconds
(then cached on disk).

Position: ``current`` (stones of the side to move) and ``mask`` (all stones), uint64 in the
column-major layout drawn in :mod:`perfectplay.games.connect4.rules` (``height + 1`` bits per
column, bit 0 at the bottom, the top bit of each column a sentinel). Then::

    possible moves  = (mask + bottom) & board     one bit per non-full column
    key             = current + mask              unique thanks to the sentinel row
    play(move)      : current ^= mask; mask |= move

Scores are the standard ones for the side to move: a win with the winner's ``s``-th stone is
``(cells + 1) // 2 + 1 - s``, a loss its negative, a draw 0. With ``n`` stones on the board
the side to move has played ``n // 2`` stones and its opponent ``(n + 1) // 2``.

Search: negamax alpha-beta on null windows (:func:`solve` narrows the score range by
bisection), pruning every move that lets the opponent win at once (:func:`non_losing_moves`),
wins by two stacked threats seen at once (:func:`stacked_threat`), bounds from the earliest
possible win and loss and from the opponent's claimeven (:func:`claimeven_bound`), a
transposition table of upper and lower bounds (early positions share
a slot with their mirror image; the children's slots are prefetched and, early on, read for
a cutoff), the deep opening book at 12 stones, and moves ordered by how many winning cells
they create (in the opening, ties by the lines through the cell).

The kernels share three arrays:

``work`` (uint64)::

    [0] width  [1] height  [2] k  [3] cells  [4] bottom mask  [5] board mask
    [6] (cells + 1) // 2 + 1: the score of a win with a 0th stone
    [7] the opening book's depth (NO_BOOK without one)  [8] where its keys start  [9] how many
    [10] the deep book's depth (NO_BOOK without one)  [11] where the cells' line counts start
    [12] the cells of rows ``r`` with ``r % 2 == height % 2`` (rows from 0 at the bottom),
    [13] the cells of the other rows: when every column has an even number of empty cells,
         the lower and the upper cell of each pair of empty cells (:func:`claimeven_bound`)
    [14 .. 14+w)      columns, centre first
    [14+w .. 14+2w)   each column's playable cells
    [14+2w + ply * 2w ...]    per ply (cells + 1 of them): w sorted move bits, w move scores
    then 3 * MAX_FRAMES       the stack of :func:`negamax`: boards, masks, keys
    then 64 line counts       per bit of the layout: the lines of ``k`` cells through it
    then the book             sorted canonical keys, then their scores + 128

``deep`` (uint64): the deep 7x6 book of :mod:`perfectplay.games.connect4.deep_book`, one
word a position, sorted: ``code << 8 | score + 128`` (``code`` the position's 32-bit
offset-binary Huffman code); empty without one.

``table`` (uint64, one word a slot, ``2**n`` slots): a position's key is hashed as
``h = key * HASH_A`` (a bijection of 64-bit words); the high ``n`` bits of ``h`` pick the
slot, and the slot keeps the other ``64 - n`` bits, so a match is exact::

    bits 63 .. n          n-1 .. 8   7       6 .. 0
    h's low 64 - n bits   epoch      lower   score + 64

with ``lower`` set for a lower bound and clear for an upper bound. A slot counts only in the
current epoch, so clearing the table is ``epoch += 1`` (the table is zeroed when the ``n - 8``
epoch bits wrap: every 65,536 clears of a 2^24-slot table). One word a slot means a write
is never torn and a slot costs 8 bytes. Only positions with an even number of stones and
more than :data:`UNSTORED_PLIES` empty cells have a slot (as in BitBully): half the trips to
memory, for a few more nodes.

``marks`` (uint64, :data:`MARK_SLOTS` long): positions being searched by one of several
threads sharing a table, as their hashed key at the slot of its high bits; a thread tries
the siblings another thread is on after the others (:func:`next_sibling`).

``stats`` (int64, :data:`STATS_SIZE` long): ``[0]`` nodes, ``[1]`` node budget (past it the
search unwinds returning 0; callers check ``stats[0] > stats[1]``), ``[2]`` horizon leaves of
the depth-limited search, ``[3]`` the epoch, ``[4]`` 64 - log2(slots): the hash's high bits
pick the slot, ``[5]`` the deadline in ``time.perf_counter_ns`` units (``NO_DEADLINE``: none;
the clock is read every 4096 nodes, and a passed deadline sets the budget to 0, so the search
unwinds as when the budget runs out), ``[6]`` the processor cycles the last
:func:`solve_call` took inside compiled code, ``[7]`` for a search sharing its table with
other threads, the stones below which a position is marked in ``marks`` while searched (0
alone); from ``[8]`` the integer stack of :func:`negamax`
(windows, slots, move counters).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from perfectplay.games.common.compiled_bits import (
    HASH_A,
    I64_ARRAY,
    NO_DEADLINE,
    U0,
    U1,
    U64_ARRAY,
    cycle_counter,
    lean,
    past_deadline,
    popcount,
    prefetch,
    shift,
    winning_cells_4,
)
from perfectplay.values import WIN

UPPER, LOWER = 0, 1
"""A slot's bound kind: the value is at most (upper) or at least (lower) its score."""
WIDTH, HEIGHT, K, CELLS, BOTTOM, BOARD, TOP = 0, 1, 2, 3, 4, 5, 6
BOOK_DEPTH, BOOK_START, BOOK_COUNT, DEEP_DEPTH, LINES_START = 7, 8, 9, 10, 11
PAIR_LOWER, PAIR_UPPER, ORDER = 12, 13, 14
NODES, BUDGET, HORIZON, EPOCH, HASH_SHIFT, DEADLINE, CYCLES, SHARED = 0, 1, 2, 3, 4, 5, 6, 7
"""Where ``stats`` keeps its counters and settings."""
NO_BOOK = 1 << 20
"""``work[BOOK_DEPTH]`` when no opening book is loaded."""
LINES_BITS = np.uint64(6)
"""Line counts (at most 4k, capped at 63) take the low bits of a move's ordering score."""
LINES_PLIES = 16
"""Below this many stones, moves equal in threats go by the lines through their cell (the
centre matters most in the opening); later they keep the columns' centre-first order. Nodes
over begin-hard's 10 positions, strong: 189 M never, 203 M always, 164 M below 16 stones
(weak 129 M, 109 M, 83 M); middle-medium is as without."""
SCORE_BIAS = 64
"""A slot keeps ``score + SCORE_BIAS`` in 7 bits (scores of boards up to 64 cells: +-33)."""
SCORE_MASK = np.uint64(0x7F)
KIND_SHIFT = 7
"""Where a slot keeps its bound kind (1 bit)."""
META_BITS = 8
"""A slot's bits below its epoch: score (7) and kind (1). (A best move's column in 4 more
bits saved under 1 % of the nodes once cells on more lines come first, and cost 16 times
more zero-fills.)"""
ETC_EMPTY = 16
"""Positions with an odd number of stones and more empty cells than this first look for a
child whose slot already refutes them (enhanced transposition cutoffs, as BitBully does):
8 % fewer nodes on begin-medium; nearer the end the extra loads cost more than they save."""
UNSTORED_PLIES = 6
"""Positions this close to a full board are neither looked up nor stored: their searches
cost less than a trip to memory."""
MIRROR_PLIES = 20
"""Positions with fewer stones than this are looked up and stored under the smaller of their
key and their mirror image's: early in the game many positions have a mirror twin (the
search of ``4444`` visited 506 M nodes without, 251 M with), later almost none, and the
mirror costs a few operations a node."""
DEEP_SIGN = 0x8000_0000
"""The deep book's codes are offset binary: the two's-complement code XOR this."""
MAX_FRAMES = 66
"""Stack frames of the iterative negamax: one per ply, at most 64 cells plus two."""
FRAMES = 8
"""Where the integer stack frames start in ``stats``."""
STATS_SIZE = FRAMES + 6 * MAX_FRAMES
MARK_BITS = 12
"""``marks`` has ``2**MARK_BITS`` slots: far more than the positions several threads are
on at once below :data:`SHARED_PLIES` stones."""
MARK_SLOTS = 1 << MARK_BITS
SHARED_PLIES = 14
"""Threads sharing a table mark the positions of fewer stones than this while they search
them, and leave a sibling another thread is on for later: their subtrees are large enough
to split the work by (12, 14, 16, 20 and 24 gave the same speed-up on ``4444``, 1.5-1.7x on
two cores; 14 was the best by a little)."""
DEFERRED = np.int64(1 << 62)
"""The bit of a frame's deferred siblings (bits 0 to width - 1) saying that the first pass
over its moves is over: the moves left are those deferred."""

# Recursive kernels need an explicit signature: numba's cache of inferred self-recursive
# functions crashes when reloaded.
NEGAMAX_SIGNATURE = types.int64(
    types.uint64,
    types.uint64,
    types.int64,
    types.int64,
    types.int64,
    U64_ARRAY,
    U64_ARRAY,
    I64_ARRAY,
    U64_ARRAY,
    U64_ARRAY,
)
SOLVE_CALL_SIGNATURE = types.int64(
    types.uint64, types.uint64, types.boolean, types.int64, types.int64,
    U64_ARRAY, U64_ARRAY, I64_ARRAY, U64_ARRAY, U64_ARRAY,
)  # fmt: skip
SOLVE_BEST_SIGNATURE = types.int64(
    types.uint64, types.uint64, types.int64, types.int64,
    U64_ARRAY, U64_ARRAY, I64_ARRAY, U64_ARRAY, U64_ARRAY, I64_ARRAY,
)  # fmt: skip
LINE_SIGNATURE = types.int64(
    types.uint64, types.uint64, types.int64, types.int64, types.int64,
    U64_ARRAY, U64_ARRAY, I64_ARRAY, U64_ARRAY, U64_ARRAY, I64_ARRAY,
)  # fmt: skip
DEPTH_SIGNATURE = types.int64(
    types.uint64, types.uint64, types.int64, types.int64, types.int64, types.int64,
    types.int64, U64_ARRAY, I64_ARRAY,
)  # fmt: skip


def work_size(width: int, cells: int) -> int:
    """Length of the ``work`` array of a board, without a book."""
    return lines_start(width, cells) + 64


def lines_start(width: int, cells: int) -> int:
    """Where the line counts start in ``work``."""
    return ORDER + 2 * width + (cells + 1) * 2 * width + 3 * MAX_FRAMES


@lean()
def mirror(bits, work):  # type: ignore[no-untyped-def]
    """A bitboard (or key) reflected left to right: columns are independent blocks."""
    width = np.int64(work[WIDTH])
    stride = np.uint64(work[HEIGHT] + U1)
    column = (U1 << stride) - U1
    out = U0
    for c in range(width):
        block = (bits >> (np.uint64(c) * stride)) & column
        out |= block << (np.uint64(width - 1 - c) * stride)
    return out


@njit(cache=True, inline="always")
def canonical(key, work):  # type: ignore[no-untyped-def]
    """The smaller of a key and its mirror image's: the key mirror twins share."""
    mirrored = mirror(key, work)
    return key if key < mirrored else mirrored


@njit(cache=True, inline="always")
def lower_bound(values, low, high, wanted, shift):  # type: ignore[no-untyped-def]
    """The first index in ``[low, high)`` of sorted ``values`` whose value shifted right by
    ``shift`` is at least ``wanted`` (``high`` when none is)."""
    while low < high:
        middle = (low + high) >> 1
        if (values[middle] >> shift) < wanted:
            low = middle + 1
        else:
            high = middle
    return low


@lean()
def book_score(key, work):  # type: ignore[no-untyped-def]
    """The book's score of a position key (mirror images share an entry), or ``NO_BOOK``."""
    count = np.int64(work[BOOK_COUNT])
    if count == 0:
        return NO_BOOK
    wanted = canonical(key, work)
    start = np.int64(work[BOOK_START])
    low = lower_bound(work, start, start + count, wanted, U0)
    if low < start + count and work[low] == wanted:
        return np.int64(work[low + count]) - 128
    return NO_BOOK


@lean()
def position_code(current, mask, moves_played, mirrored, work):  # type: ignore[no-untyped-def]
    """The deep book's offset-binary code of a position (read from the rightmost column
    first when ``mirrored``); the Python oracle and the layout are in
    :mod:`perfectplay.games.connect4.deep_book`."""
    width = np.int64(work[WIDTH])
    height = np.int64(work[HEIGHT])
    first = current if moves_played % 2 == 0 else current ^ mask
    code = U0
    for index in range(width):
        column = width - 1 - index if mirrored else index
        for row in range(height):
            bit = U1 << np.uint64(column * (height + 1) + row)
            if mask & bit == U0:
                break
            code = (code << np.uint64(2)) | (np.uint64(2) if first & bit else np.uint64(3))
        code <<= U1
    return ((code << U1) ^ np.uint64(DEEP_SIGN)) & np.uint64(0xFFFF_FFFF)


@lean()
def deep_score(current, mask, moves_played, work, deep):  # type: ignore[no-untyped-def]
    """The deep book's score of a position, tried as it is and mirrored, or ``NO_BOOK``."""
    for mirrored in (False, True):
        wanted = position_code(current, mask, moves_played, mirrored, work)
        low = lower_bound(deep, 0, len(deep), wanted, np.uint64(8))
        if low < len(deep) and (deep[low] >> np.uint64(8)) == wanted:
            return np.int64(deep[low] & np.uint64(0xFF)) - 128
    return NO_BOOK


@lean()
def _winning_cells_k(p, height, k):  # type: ignore[no-untyped-def]
    result = U0
    for step in (1, height + 1, height, height + 2):
        for hole in range(k):
            run = ~U0
            for i in range(k):
                if i != hole:
                    run &= shift(p, (hole - i) * step)
            result |= run
    return result


@njit(cache=True, inline="always")
def winning_cells(position, mask, work):  # type: ignore[no-untyped-def]
    """Empty cells (playable now or later) that would complete a line of ``position``."""
    if work[K] == 4:
        r = winning_cells_4(position, work[HEIGHT])
    else:
        r = _winning_cells_k(position, np.int64(work[HEIGHT]), np.int64(work[K]))
    return r & (work[BOARD] ^ mask)


@njit(cache=True, inline="always")
def possible(mask, work):  # type: ignore[no-untyped-def]
    """One bit per playable column: its lowest empty cell."""
    return (mask + work[BOTTOM]) & work[BOARD]


@njit(cache=True, inline="always")
def non_losing_moves(current, mask, work):  # type: ignore[no-untyped-def]
    """Moves that do not let the opponent win at once; 0 when every move loses.

    Contract: the side to move cannot win with its next stone.
    """
    moves = possible(mask, work)
    opponent_wins = winning_cells(current ^ mask, mask, work)
    forced = moves & opponent_wins
    if forced:
        if forced & (forced - U1):
            return U0
        moves = forced
    return moves & ~(opponent_wins >> U1)


@lean()
def can_win_next(current, mask, work):  # type: ignore[no-untyped-def]
    """True when the side to move wins with its next stone."""
    return (winning_cells(current, mask, work) & possible(mask, work)) != U0


@njit(cache=True, inline="always")
def stacked_threat(candidates, mine, theirs):  # type: ignore[no-untyped-def]
    """True when a candidate move sits under two stacked winning cells of the side to move
    (``mine``) and under no winning cell of the opponent (``theirs``): after it, the
    opponent must block the cell above and so lets the side to move win on top of it.

    Contract: the side to move cannot win with its next stone and ``candidates`` are its
    moves that do not let the opponent win at once."""
    return (candidates & (mine >> U1) & (mine >> np.uint64(2)) & ~(theirs >> U1)) != U0


@njit(cache=True, inline="always")
def has_line(bits, work):  # type: ignore[no-untyped-def]
    """True when ``bits`` hold a line of ``k`` cells (the sentinel row keeps lines from
    wrapping from one column into the next)."""
    height = work[HEIGHT]
    k = np.int64(work[K])
    for step in (U1, height + U1, height, height + np.uint64(2)):
        if k == 4:
            pairs = bits & (bits >> step)
            run = pairs & (pairs >> (step + step))
        else:
            run = bits
            for i in range(1, k):
                run &= bits >> (np.uint64(i) * step)
        if run:
            return True
    return False


@njit(cache=True, inline="always")
def claimeven_bound(current, mask, work):  # type: ignore[no-untyped-def]
    """An upper bound on the value of a position from the opponent's claimeven (Allis), or
    ``NO_BOOK`` when it gives none.

    When every column has an even number of empty cells, the opponent can answer every move
    in the same column, on top of it: the side to move then gets exactly the lower cell of
    each pair of empty cells, the opponent the upper one. If the side to move has no line
    within its stones and those lower cells, it never wins (a bound of 0); if moreover the
    opponent has a line within its stones and the upper cells, the opponent wins (a bound of
    -1: a loss, however late)."""
    if possible(mask, work) & work[PAIR_UPPER]:
        return NO_BOOK  # a column with an odd number of empty cells
    empty = work[BOARD] ^ mask
    if has_line(current | (empty & work[PAIR_LOWER]), work):
        return NO_BOOK
    if has_line((current ^ mask) | (empty & work[PAIR_UPPER]), work):
        return -1
    return 0


@njit(cache=True, inline="always")
def score_bounds(moves_played, top):  # type: ignore[no-untyped-def]
    """``(win_next, best, worst, lose_next)``: scores of winning at once, the best and worst
    possible when neither side wins at once, and of losing to the opponent's next stone.
    ``top`` is ``(cells + 1) // 2 + 1``, the score of a win with a 0th stone."""
    mine = moves_played >> 1
    theirs = (moves_played + 1) >> 1
    return top - (mine + 1), top - (mine + 2), -(top - (theirs + 2)), -(top - (theirs + 1))


@njit(cache=True, inline="always")
def _sorted_moves(current, mask, candidates, base, work, mine, early):  # type: ignore[no-untyped-def]
    """Write the candidate moves, best first (stable among equals), at ``work[base:]`` with
    their scores after them; return how many there are.

    A move's score is the number of winning cells it leaves its side, one less when it
    fills the cell under one of them (``mine``: the opponent then blocks it); when ``early``,
    equal scores go by the number of lines through the cell played."""
    width = np.int64(work[WIDTH])
    count = 0
    for i in range(width):
        move = candidates & work[ORDER + width + np.int64(work[ORDER + i])]
        if move:
            score = np.uint64(popcount(winning_cells(current | move, mask, work))) + U1
            if mine & (move << U1):
                score -= U1
            # equals in threats: the cell on more lines first (BitBully orders by centrality)
            lines = work[np.int64(work[LINES_START]) + popcount(move - U1)]
            score = (score << LINES_BITS) | (lines if early else U0)
            j = count
            while j > 0 and work[base + width + j - 1] < score:
                work[base + j] = work[base + j - 1]
                work[base + width + j] = work[base + width + j - 1]
                j -= 1
            work[base + j] = move
            work[base + width + j] = score
            count += 1
    return count


@njit(cache=True, inline="always")
def out_of_budget(stats):  # type: ignore[no-untyped-def]
    """Count a node; True when the node budget is spent or the deadline has passed (which
    spends the budget: every later check says so too). A search without a deadline skips
    the clock at its first node (read there for Ctrl-C alone): the trip to the interpreter
    costs more than the smallest searches, and Ctrl-C during them needs no answer."""
    stats[NODES] += 1
    if stats[NODES] > stats[BUDGET]:
        return True
    if stats[NODES] == 1 and stats[DEADLINE] == NO_DEADLINE:
        return False
    if past_deadline(stats[NODES], stats[DEADLINE]):
        stats[BUDGET] = 0
        return True
    return False


@njit(cache=True, inline="always")
def _store(table, slot, hashed, index_bits, epoch, kind, score):  # type: ignore[no-untyped-def]
    meta = np.uint64(kind << KIND_SHIFT | (score + SCORE_BIAS))
    table[slot] = (hashed << index_bits) | (epoch << np.uint64(META_BITS)) | meta


@njit(cache=True, inline="always")
def slot_holds(data, hashed, index_bits, epoch_mask, epoch):  # type: ignore[no-untyped-def]
    """True when a slot's word ``data`` is the entry of the hashed key ``hashed`` written in
    the current ``epoch``."""
    same_key = (data ^ (hashed << index_bits)) >> index_bits == U0
    return same_key and (data >> np.uint64(META_BITS)) & epoch_mask == epoch


@njit(cache=True, inline="always")
def slot_score(data):  # type: ignore[no-untyped-def]
    """The score a slot's word keeps."""
    return np.int64(data & SCORE_MASK) - SCORE_BIAS


@njit(cache=True, inline="always")
def child_refutation(current, mask, played, beta, base, count, work, table, slots):  # type: ignore[no-untyped-def]
    """Enhanced transposition cutoff: a score of at least ``beta`` for the position through
    a child whose slot holds an upper bound low enough, or ``NO_BOOK``. The children's moves
    are ``work[base:base + count]``; their slots were prefetched. ``slots`` is the search's
    ``(shift, index_bits, epoch_mask, epoch)``. Contract: ``played`` is odd (children with an
    even number of stones have slots)."""
    shift, index_bits, epoch_mask, epoch = slots
    for i in range(count):
        key = (current ^ mask) + (mask | work[base + i])
        if played + 1 < MIRROR_PLIES:
            key = canonical(key, work)
        key = key * HASH_A
        data = table[np.int64(key >> shift)]
        if not slot_holds(data, key, index_bits, epoch_mask, epoch):
            continue
        if (data >> np.uint64(KIND_SHIFT)) & U1 == UPPER and -slot_score(data) >= beta:
            return -slot_score(data)
    return NO_BOOK


@njit(cache=True, inline="always")
def mark_slot(key):  # type: ignore[no-untyped-def]
    """The slot in ``marks`` of a hashed key."""
    return np.int64(key >> np.uint64(64 - MARK_BITS))


@njit(cache=True, inline="always")
def next_sibling(following, count, deferred, parent, parent_mask, base, work, marks):  # type: ignore[no-untyped-def]
    """The index of the next move to search among ``work[base:base + count]`` from
    ``following`` on, and the frame's deferred moves, in a search sharing its table (as in
    ABDADA): in the first pass a move whose position another thread is searching is
    deferred, and once the others are done the deferred ones are searched in turn.
    ``deferred`` holds a bit per deferred move and :data:`DEFERRED` once the first pass is
    over. Returns ``count`` or more when no move is left."""
    if deferred & DEFERRED == 0:
        while following < count:
            key = ((parent ^ parent_mask) + (parent_mask | work[base + following])) * HASH_A
            if marks[mark_slot(key)] != key:
                return following, deferred
            deferred |= np.int64(1) << following
            following += 1
        if deferred == 0:
            return following, deferred
        following = popcount(np.uint64((deferred & -deferred) - 1))
        return following, deferred | DEFERRED
    while following < count and (deferred >> following) & 1 == 0:
        following += 1
    return following, deferred


@lean(NEGAMAX_SIGNATURE, error_model="numpy", nogil=True)
def negamax(current, mask, moves_played, alpha, beta, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """Exact score within ``(alpha, beta)`` of a position whose side to move cannot win with
    its next stone (fail-soft: outside the window the value is a bound).

    The recursion runs on an explicit stack (one frame per ply below the root), which is
    cheaper than compiled recursive calls. At each node: prune to the moves that do not lose
    at once, tighten the window with the earliest possible win and loss and with the table,
    then try the moves that create the most winning cells first.

    Several threads may search one position on one table at once (the GIL is released):
    each gives its own ``work`` and ``stats``, ``stats[SHARED]`` set, and all the same
    ``marks``; a thread that sets another's budget to 0 stops it at its next node.
    """
    cells = np.int64(work[CELLS])
    top = np.int64(work[TOP])
    width = np.int64(work[WIDTH])
    epoch = np.uint64(stats[EPOCH])
    shift = np.uint64(stats[HASH_SHIFT])
    index_bits = np.uint64(64) - shift
    epoch_mask = (U1 << (index_bits - np.uint64(META_BITS))) - U1
    slots = (shift, index_bits, epoch_mask, epoch)
    book_depth = np.int64(work[BOOK_DEPTH])
    deep_depth = np.int64(work[DEEP_DEPTH])
    frames = cells - moves_played + 2
    start = ORDER + 2 * width + (cells + 1) * 2 * width
    f_cur = work[start : start + frames]
    f_mask = work[start + MAX_FRAMES : start + MAX_FRAMES + frames]
    f_key = work[start + 2 * MAX_FRAMES : start + 2 * MAX_FRAMES + frames]
    f_alpha = stats[FRAMES : FRAMES + frames]
    f_beta = stats[FRAMES + MAX_FRAMES : FRAMES + MAX_FRAMES + frames]
    f_slot = stats[FRAMES + 2 * MAX_FRAMES : FRAMES + 2 * MAX_FRAMES + frames]
    f_next = stats[FRAMES + 3 * MAX_FRAMES : FRAMES + 3 * MAX_FRAMES + frames]
    f_count = stats[FRAMES + 4 * MAX_FRAMES : FRAMES + 4 * MAX_FRAMES + frames]
    f_deferred = stats[FRAMES + 5 * MAX_FRAMES : FRAMES + 5 * MAX_FRAMES + frames]
    shared = stats[SHARED]
    f_cur[0], f_mask[0], f_alpha[0], f_beta[0] = current, mask, alpha, beta
    depth = 0
    entering = True
    result = 0
    while True:
        if entering:
            if out_of_budget(stats):
                return 0
            cur, msk, a, b = f_cur[depth], f_mask[depth], f_alpha[depth], f_beta[depth]
            played = moves_played + depth
            entering = False
            if played < shared:  # other threads leave this position to us for now
                key = (cur + msk) * HASH_A
                marks[mark_slot(key)] = key
                f_deferred[depth] = 0
            if played == book_depth:
                known = book_score(cur + msk, work)
                if known != NO_BOOK:
                    result = known
                    continue
            if played == deep_depth:
                known = deep_score(cur, msk, played, work, deep)
                if known != NO_BOOK:
                    result = known
                    continue
            candidates = non_losing_moves(cur, msk, work)
            _, best_bound, worst_bound, lose_next = score_bounds(played, top)
            if candidates == U0:
                result = lose_next
                continue
            if played >= cells - 2:
                result = 0
                continue
            mine = winning_cells(cur, msk, work)
            if stacked_threat(candidates, mine, winning_cells(cur ^ msk, msk, work)):
                result = best_bound  # a win with the second stone from now
                continue
            if a < worst_bound:
                a = worst_bound
                if a >= b:
                    result = a
                    continue
            if b > best_bound:
                b = best_bound
                if a >= b:
                    result = b
                    continue
            if b >= 0:  # the opponent's claimeven: weak searches visit 7-16 % fewer nodes
                claim = claimeven_bound(cur, msk, work)
                if claim != NO_BOOK and claim < b:
                    b = claim
                    if a >= b:
                        result = b
                        continue
            key = U0
            slot = np.int64(-1)  # no slot: the position is not looked up or stored
            if played & 1 == 0 and played < cells - UNSTORED_PLIES:
                key = cur + msk
                if played < MIRROR_PLIES:  # a position and its mirror image share one slot
                    key = canonical(key, work)
                key = key * HASH_A
                slot = np.int64(key >> shift)
                data = table[slot]
                if slot_holds(data, key, index_bits, epoch_mask, epoch):
                    value = slot_score(data)
                    if (data >> np.uint64(KIND_SHIFT)) & U1 == UPPER:
                        if value < b:
                            b = value
                            if a >= b:
                                result = b
                                continue
                    elif value > a:
                        a = value
                        if a >= b:
                            result = a
                            continue
            base = ORDER + 2 * width + played * 2 * width
            f_count[depth] = _sorted_moves(
                cur, msk, candidates, base, work, mine, played < LINES_PLIES
            )
            if played & 1 and played < cells - UNSTORED_PLIES - 1:
                for i in range(f_count[depth]):  # the children's slots load while we go on
                    child = (cur ^ msk) + (msk | work[base + i])
                    prefetch(table, np.int64((child * HASH_A) >> shift))  # type: ignore[call-arg]
                if played < cells - ETC_EMPTY:
                    refuted = child_refutation(
                        cur, msk, played, b, base, f_count[depth], work, table, slots
                    )
                    if refuted != NO_BOOK:
                        result = refuted
                        continue
            f_key[depth], f_slot[depth], f_next[depth] = key, slot, 0
            f_alpha[depth], f_beta[depth] = a, b
            f_cur[depth + 1], f_mask[depth + 1] = cur ^ msk, msk | work[base]
            f_alpha[depth + 1], f_beta[depth + 1] = -b, -a
            depth += 1
            entering = True
            continue
        # ``result`` is the value of the node at ``depth``: hand it to its parent.
        if moves_played + depth < shared:
            key = (f_cur[depth] + f_mask[depth]) * HASH_A
            if marks[mark_slot(key)] == key:
                marks[mark_slot(key)] = U0
        if depth == 0:
            return result
        depth -= 1
        score = -result
        a, b = f_alpha[depth], f_beta[depth]
        if score >= b:
            if f_slot[depth] >= 0:
                _store(table, f_slot[depth], f_key[depth], index_bits, epoch, LOWER, score)
            result = score
            continue
        if score > a:
            a = score
            f_alpha[depth] = a
        following = f_next[depth] + 1
        base = ORDER + 2 * width + (moves_played + depth) * 2 * width
        if moves_played + depth + 1 < shared:
            following, f_deferred[depth] = next_sibling(
                following, f_count[depth], f_deferred[depth], f_cur[depth], f_mask[depth], base,
                work, marks,
            )  # fmt: skip
        if following < f_count[depth]:
            f_next[depth] = following
            f_cur[depth + 1] = f_cur[depth] ^ f_mask[depth]
            f_mask[depth + 1] = f_mask[depth] | work[base + following]
            f_alpha[depth + 1], f_beta[depth + 1] = -b, -a
            depth += 1
            entering = True
            continue
        if f_slot[depth] >= 0:
            _store(table, f_slot[depth], f_key[depth], index_bits, epoch, UPPER, a)
        result = a


@lean()
def next_probe(low, high):  # type: ignore[no-untyped-def]
    """The score to test next while the exact score lies in ``[low, high]``: the middle,
    pulled towards 0 where most scores are, so that early probes settle win, draw or loss."""
    med = low + (high - low) // 2
    if med <= 0 and low // 2 < med:
        return low // 2
    if med >= 0 and high // 2 > med:
        return high // 2
    return med


@lean()
def solve(current, mask, moves_played, weak, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """Exact score of a running position (weak: only its sign, as -1, 0 or 1).

    Narrows the score range with null-window searches, probing near 0 first (the range starts
    at losing to the opponent's next stone and winning with one's own, as Pons' solver does).
    Returns 0 with ``stats[0] > stats[1]`` when the node budget or the deadline ran out.
    """
    return solve_root(current, mask, moves_played, weak, work, table, stats, deep, marks)[0]


@lean()
def solve_root(current, mask, moves_played, weak, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """:func:`solve`, and what its probes showed of the root's moves: ``(score, best,
    refuted)``, ``best`` the bit of a move that achieves the (strong) score and ``refuted``
    the bits of moves proved to score less (both 0 where no probe showed it), for
    :func:`best_move_known`.

    The probe that raised the lower bound to the score last failed high at the root on a
    move (the root frame's move counter, set to -1 before each probe, tells it from a cut
    without one: a bound, the table): that move scores at least the score, and the moves
    tried before it in that probe scored at most the probe's window, below it. One thread
    alone (threads sharing a table reorder the root's moves)."""
    win_next, _, _, lose_next = score_bounds(moves_played, np.int64(work[TOP]))
    if can_win_next(current, mask, work):
        stats[NODES] += 1
        return (1 if weak else win_next), U0, U0
    low, high = lose_next, win_next
    if weak:
        low, high = -1, 1
    root = FRAMES + 3 * MAX_FRAMES  # the root frame's move counter (see negamax's stack)
    base = ORDER + 2 * np.int64(work[WIDTH]) * (1 + moves_played)  # the root's moves
    best, refuted = U0, U0
    while low < high:
        med = next_probe(low, high)
        stats[root] = -1
        result = negamax(current, mask, moves_played, med, med + 1, work, table, stats, deep, marks)
        if stats[NODES] > stats[BUDGET]:
            return 0, U0, U0
        if result <= med:
            high = result
            continue
        low, best, refuted = result, U0, U0
        cut = stats[root]
        if cut >= 0 and stats[SHARED] == 0:
            best = work[base + cut]
            for index in range(cut):
                refuted |= work[base + index]
    if weak:
        return (1 if low > 0 else -1 if low < 0 else 0), U0, U0
    return low, best, refuted


@lean(SOLVE_CALL_SIGNATURE)
def solve_call(first, second, weak, budget, deadline, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """:func:`solve` of the running position of the ``first`` and ``second`` players' stones,
    the search counters set first (no nodes yet, the node ``budget``, the ``deadline`` in
    ``time.perf_counter_ns`` units): a position solved from Python in one compiled call,
    which the driver makes without numba's dispatch
    (:func:`~perfectplay.games.common.compiled_bits.direct_entry`). ``stats[CYCLES]`` gets
    the cycles the solve took, the call from Python left out."""
    mask = first | second
    moves_played = popcount(mask)
    current = first if moves_played & 1 == 0 else second
    stats[NODES] = 0
    stats[BUDGET] = budget
    stats[HORIZON] = 0
    stats[DEADLINE] = deadline
    # the kernel's own clock around the search alone, as C++ solvers time theirs
    started = cycle_counter()  # type: ignore[call-arg,var-annotated]
    score = solve(current, mask, moves_played, weak, work, table, stats, deep, marks)
    stats[CYCLES] = cycle_counter() - started
    return score


@lean()
def solve_many(boards, weak, work, table, stats, deep, marks, answers):  # type: ignore[no-untyped-def]
    """:func:`solve` of many positions in one call, the table emptied (a new epoch) before
    where asked: ``boards`` holds ``current, mask, moves played, clear`` per position
    (uint64 rows; ``clear`` 1: the table is emptied first, a new epoch), ``answers`` gets
    ``score, nodes`` per position (int64 rows). Without a trip to the interpreter between
    positions, a batch of small positions costs what their searches do. Stops at the first
    position the budget or the deadline cuts short and returns how many were answered. The
    caller keeps the epochs from wrapping (``epochs`` of the table)."""
    for index in range(boards.shape[0]):
        if boards[index, 3]:
            stats[EPOCH] += 1
        before = stats[NODES]
        score = solve(
            boards[index, 0], boards[index, 1], np.int64(boards[index, 2]), weak, work, table,
            stats, deep, marks,
        )  # fmt: skip
        if stats[NODES] > stats[BUDGET]:
            return index
        answers[index, 0] = score
        answers[index, 1] = stats[NODES] - before
    return boards.shape[0]


@lean()
def best_move(current, mask, moves_played, score, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """The first column in centre-first order whose move achieves ``score``, the exact score
    of the running position, or -1 when the node budget or the deadline runs out first (or
    no column does: the solver contradicting itself).

    A winning stone is always best; a move after which the opponent's reply scores at most
    ``-score`` achieves it: one null-window search per candidate, answered by the warm table
    where the solve just stored the position (a search only where it lost the entry).
    """
    return best_move_known(
        current, mask, moves_played, score, U0, U0, work, table, stats, deep, marks
    )


@lean()
def best_move_known(current, mask, played, score, best, refuted, work, table, stats, deep, marks):  # type: ignore[no-untyped-def]
    """:func:`best_move` told by :func:`solve_root` the bit of a move known to achieve
    ``score`` (``best``, 0: none) and the bits of moves known not to (``refuted``): the same
    column, without searching those moves again (a move of the end game, whose positions the
    table does not keep, cost a search each)."""
    width = np.int64(work[WIDTH])
    cells = np.int64(work[CELLS])
    top = np.int64(work[TOP])
    playable = possible(mask, work)
    for rank in range(width):
        column = np.int64(work[ORDER + rank])
        move = playable & work[ORDER + width + column]
        if move == U0 or move & refuted:
            continue
        if move == best or has_line(current | move, work):
            return column
        if played + 1 == cells:
            if score == 0:
                return column
            continue
        child, child_mask = current ^ mask, mask | move
        if can_win_next(child, child_mask, work):
            if -score_bounds(played + 1, top)[0] == score:
                return column
            continue
        reply = negamax(
            child, child_mask, played + 1, -score, -score + 1, work, table, stats, deep,
            marks,
        )  # fmt: skip
        if stats[NODES] > stats[BUDGET]:
            return -1
        if reply <= -score:
            return column
    return -1


@lean(LINE_SIGNATURE)
def line_from(current, mask, moves_played, score, column, work, table, stats, deep, marks, out):  # type: ignore[no-untyped-def]
    """Write a principal variation of a running position of exact ``score`` into ``out``,
    starting with ``column`` (an optimal move): after each move the first optimal column in
    centre-first order (:func:`best_move`), until the game ends or the node budget or the
    deadline runs out. Returns the moves written (at least 1)."""
    cells = np.int64(work[CELLS])
    count = 0
    while column >= 0:
        out[count] = column
        count += 1
        move = possible(mask, work) & work[ORDER + np.int64(work[WIDTH]) + column]
        won = has_line(current | move, work)
        current, mask = current ^ mask, mask | move
        moves_played += 1
        score = -score
        if won or moves_played == cells:
            break
        column = best_move(current, mask, moves_played, score, work, table, stats, deep, marks)
    return count


@njit(cache=True, inline="always")
def search_value(score, moves_played, top):  # type: ignore[no-untyped-def]
    """A standard ``score`` of a position with ``moves_played`` stones as the search layer's
    value for its side to move: ``WIN - plies`` for a win ending ``plies`` plies from now,
    its negative for a loss, 0 for a draw (``Connect4Kernel.to_value`` in compiled code)."""
    if score == 0:
        return 0
    win = score > 0
    winner_stones = top - abs(score)
    stones_now = (moves_played + (0 if win else 1)) // 2
    plies = 2 * (winner_stones - stones_now) - (1 if win else 0)
    return WIN - plies if win else -(WIN - plies)


@lean(SOLVE_BEST_SIGNATURE)
def solve_best_call(first, second, budget, deadline, work, table, stats, deep, marks, out):  # type: ignore[no-untyped-def]
    """:func:`solve_call`'s exact solve, then the best move (:func:`best_move`) within the
    same node budget and ``deadline``, in one call: ``out[0]`` gets the column (-1 when the
    budget ran out first), ``out[1]`` (when there is one) the score as the search layer's
    value (:func:`search_value`). Returns the score (0 with ``stats[0] > stats[1]`` when the
    solve itself ran out)."""
    mask = first | second
    played = popcount(mask)
    current = first if played & 1 == 0 else second
    stats[NODES] = 0
    stats[BUDGET] = budget
    stats[HORIZON] = 0
    stats[DEADLINE] = deadline
    score, best, refuted = solve_root(current, mask, played, False, work, table, stats, deep, marks)
    out[0] = -1
    if stats[NODES] > stats[BUDGET]:
        return score
    out[0] = best_move_known(
        current, mask, played, score, best, refuted, work, table, stats, deep, marks
    )
    if out.shape[0] > 1:
        out[1] = search_value(score, played, np.int64(work[TOP]))
    return score


@lean()
def best_many(boards, line, floor, factor, work, table, stats, deep, marks, answers, lines):  # type: ignore[no-untyped-def]
    """The exact score, best move and (``line`` set) principal variation of many running
    positions in one call: ``boards`` holds ``current, mask, moves played, clear`` per
    position (uint64 rows; ``clear`` 1 empties the table first: a new epoch), ``answers``
    gets ``score, nodes, moves in the line`` (int64 rows; the nodes of the solve and the
    move), ``lines`` the columns of each line (int64 rows as long as the board has cells;
    without ``line`` the best move alone). A line ends where its position's allowance does:
    proofs of ``factor`` times the nodes of its solve, at least ``floor`` nodes (the rule of
    single solves); the batch's node budget and deadline (``stats``) bound everything.
    Stops at the first position they cut short and returns how many were answered. The
    caller keeps the epochs from wrapping."""
    budget = stats[BUDGET]
    for index in range(boards.shape[0]):
        if boards[index, 3]:
            stats[EPOCH] += 1
        current, mask = boards[index, 0], boards[index, 1]
        played = np.int64(boards[index, 2])
        stats[NODES] = 0
        score, best, refuted = solve_root(
            current, mask, played, False, work, table, stats, deep, marks
        )
        if stats[NODES] > stats[BUDGET]:
            return index
        column = best_move_known(
            current, mask, played, score, best, refuted, work, table, stats, deep, marks
        )
        if column < 0:
            return index
        answers[index, 0], answers[index, 1], answers[index, 2] = score, stats[NODES], 1
        lines[index, 0] = column
        if line:
            allowance = max(floor, np.int64(factor * stats[NODES]))
            stats[BUDGET] = min(budget, stats[NODES] + allowance)
            answers[index, 2] = line_from(
                current, mask, played, score, column, work, table, stats, deep, marks,
                lines[index],
            )  # fmt: skip
            stats[BUDGET] = budget
    return boards.shape[0]


@lean()
def evaluate(current, mask, work):  # type: ignore[no-untyped-def]
    """Heuristic value for the side to move: each side's winning cells (threats) and stones
    in the central columns."""
    opponent = current ^ mask
    score = 8 * (
        popcount(winning_cells(current, mask, work)) - popcount(winning_cells(opponent, mask, work))
    )
    width = np.int64(work[WIDTH])
    for rank in range(width):
        column = work[ORDER + width + np.int64(work[ORDER + rank])]
        score += (width - rank) * (popcount(current & column) - popcount(opponent & column))
    return score


@lean(DEPTH_SIGNATURE, error_model="numpy")
def negamax_depth(current, mask, moves_played, ply, depth, alpha, beta, work, stats):  # type: ignore[no-untyped-def]
    """Depth-limited negamax on the ``WIN - plies`` scale (root-relative ``ply``), heuristic at
    the horizon; same contract as :func:`negamax`. Counts horizon leaves in ``stats[2]``."""
    if out_of_budget(stats):
        return 0
    candidates = non_losing_moves(current, mask, work)
    if candidates == U0:
        return -(WIN - (ply + 2))
    if moves_played >= np.int64(work[CELLS]) - 2:
        return 0
    if depth <= 0:
        stats[HORIZON] += 1
        return evaluate(current, mask, work)
    width = np.int64(work[WIDTH])
    base = ORDER + 2 * width + moves_played * 2 * width
    mine = winning_cells(current, mask, work)
    count = _sorted_moves(current, mask, candidates, base, work, mine, moves_played < LINES_PLIES)
    best = -WIN - 1
    for i in range(count):
        value = -negamax_depth(
            current ^ mask, mask | work[base + i], moves_played + 1, ply + 1, depth - 1, -beta,
            -alpha, work, stats,
        )  # fmt: skip
        if stats[NODES] > stats[BUDGET]:
            return 0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best
