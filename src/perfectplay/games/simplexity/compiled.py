"""Compiled negamax alpha-beta for the shape-and-color game (numba).

Import lazily: loading numba costs about half a second, the first compile some seconds (then
cached on disk).

Position: three uint64 boards in the gravity layout of :mod:`perfectplay.games.common.gravity`:
``red`` (player 1), ``blue`` (player 2) and ``circ`` (pieces of shape O, either color), plus
``plies`` (pieces on the board; player 1 moves when it is even). A move is encoded
``column * 2 + shape`` with shape 0 for O and 1 for X. Player ``m`` (0 red, 1 blue) owns shape
``m``.

Values use the scale of :mod:`perfectplay.search.result`, relative to the root inside a
search (``WIN - p``: a win ``p`` plies from the root), stored position-relative in the table.

Search (:func:`negamax`): alpha-beta with principal-variation null windows and:

* immediate wins found with bit tricks before anything else (a cell completes a four of the
  mover's own shape or color; an opponent-shape piece may only win by color and must not
  complete the opponent's shape four, which would hand over the game);
* moves that hand the opponent a shape four are never searched (a loss in 1);
* *robust threats* of the opponent (cells where its own-shape piece would complete a four of
  its shape or color: nothing the mover does elsewhere removes them) force the mover to block
  a playable one, make two playable ones a loss in 2, and forbid playing just under one;
* the window is clamped to the earliest possible win and loss;
* a transposition table of bounds with a *draft* (the depth searched, or ``EXACT_DRAFT`` when
  no horizon leaf was reached below, which makes the value exact at any depth);
* moves ordered by the table's move, the threats a move creates, a history table and the
  distance to the centre, own shape before the opponent's;
* a hard deadline read from the wall clock at the first node and every 1024 nodes after it,
  and a node budget.

Arrays shared by the kernels:

``geo`` (int64): ``[0]`` rows ``[1]`` cols ``[2]`` cells ``[3]`` own-shape quota ``[4]``
other-shape quota ``[5]`` evaluation (0 windows, 1 neighbors) ``[6]`` ordering on ``[7]`` table
on ``[8]`` mirror images share table entries; from ``[9]`` the columns, centre first.
``masks`` (uint64): ``[0]`` bottom ``[1]`` board ``[2]`` rows as uint64; from ``[3]`` each
column's cells.
``windows`` (uint64): every window of four. ``rays`` (uint64): per bit, the other cells of its
row, column and diagonals. ``stats`` (int64): see the ``NODES`` ... constants.
``clock`` (float64): ``[0]`` the deadline in ``time.perf_counter`` seconds (inf: none).
``history`` (int64[2, 128]): per side, per move code, how often it cut off (ordering).
The table (uint64, three adjacent words a slot, so that a probe touches one cache line):
``key_a`` (``red + mask + bottom``: red and all pieces), ``key_b`` (``circ``), then the entry
packed as ``value + 2**31`` (bits 0-31), draft (bits 32-52), bound (bits 53-54) and move + 1
(bits 55-62; 0 marks an empty slot).
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
    now,
    popcount,
    winning_cells_4,
)
from perfectplay.games.common.table_values import (
    EXACT,
    INF,
    LOWER,
    UPPER,
    WIN,
    from_table,
    to_table,
)
from perfectplay.games.simplexity import heuristics as simplexity_eval

EXACT_DRAFT = 1 << 20
"""The draft of an exact entry here: the packed entry's draft field holds 21 bits."""
ROWS, COLS, CELLS, OWN_Q, OTHER_Q, EVAL, ORDERING, TABLE, SYMMETRY, ORDER = range(10)
BOTTOM, BOARD, HEIGHT, COLUMN = 0, 1, 2, 3
NODES, HORIZON, BUDGET, ABORTED, ROOT_MOVE = 0, 1, 2, 3, 4
STATS_SIZE = 8
CHECK_MASK = 1023
ORDER_DEPTH = 3
"""Below this remaining depth moves are ordered without looking at the threats they make."""
# The reference heuristic's weights, so that the two evaluations cannot drift apart.
SHAPE_WEIGHTS = np.array(simplexity_eval.SHAPE_WEIGHTS, dtype=np.int64)
COLOR_WEIGHTS = np.array(simplexity_eval.COLOR_WEIGHTS, dtype=np.int64)
EVAL_BOUND = simplexity_eval.EVALUATION_BOUND
MAX_MOVES = 32

CONTEXT_TYPE = types.Tuple(
    (
        I64_ARRAY,  # geo
        U64_ARRAY,  # masks
        U64_ARRAY,  # windows
        U64_ARRAY,  # rays
        U64_ARRAY,  # the table: three words a slot
        I64_ARRAY,  # stats
        types.Array(types.float64, 1, "C"),  # clock
        types.Array(types.int64, 2, "C"),  # history
        types.Array(types.int64, 2, "C"),  # scratch: per ply, moves then their scores
    )
)
NEGAMAX_SIGNATURE = types.int64(
    types.uint64,  # red
    types.uint64,  # blue
    types.uint64,  # circ
    types.int64,  # plies on the board
    types.int64,  # ply from the root
    types.int64,  # depth
    types.int64,  # alpha
    types.int64,  # beta
    CONTEXT_TYPE,
)


@njit(cache=True, inline="always")
def threats(p, masks):  # type: ignore[no-untyped-def]
    """Empty-or-not cells of the board that would complete a four of ``p``."""
    return winning_cells_4(p, masks[HEIGHT]) & masks[BOARD]


@lean()
def evaluate(red, blue, circ, plies, geo, windows, rays):  # type: ignore[no-untyped-def]
    """The heuristic for the side to move (see :mod:`perfectplay.games.simplexity.heuristics`)."""
    mask = red | blue
    crosses = mask & ~circ
    total = 0
    if geo[EVAL] == 0:
        for i in range(windows.shape[0]):
            w = windows[i]
            o, x = popcount(circ & w), popcount(crosses & w)
            r, b = popcount(red & w), popcount(blue & w)
            if x == 0:
                total += SHAPE_WEIGHTS[o]
            elif o == 0:
                total -= SHAPE_WEIGHTS[x]
            if b == 0:
                total += COLOR_WEIGHTS[r]
            elif r == 0:
                total -= COLOR_WEIGHTS[b]
    else:
        total = _neighbors(red, circ, crosses, rays) - _neighbors(blue, circ, crosses, rays)
    if plies & 1:
        total = -total
    return max(-EVAL_BOUND, min(EVAL_BOUND, total))


@lean()
def _neighbors(color, circ, crosses, rays):  # type: ignore[no-untyped-def]
    """The neighbour heuristic's total over the pieces of ``color``."""
    total = 0
    pieces = color
    while pieces:
        piece = pieces & (~pieces + U1)
        pieces ^= piece
        bit = popcount(piece - U1)
        shape = circ if circ & piece else crosses
        total += popcount(rays[bit] & color) + popcount(rays[bit] & shape)
    return total


@lean()
def mirror(bits, geo, masks):  # type: ignore[no-untyped-def]
    """``bits`` (sentinel row included) reflected left to right."""
    stride = np.uint64(geo[ROWS] + 1)
    column = (U1 << stride) - U1
    cols = geo[COLS]
    out = U0
    for c in range(cols):
        out |= ((bits >> (np.uint64(c) * stride)) & column) << (np.uint64(cols - 1 - c) * stride)
    return out


@njit(cache=True, inline="always")
def table_key(red, blue, circ, geo, masks):  # type: ignore[no-untyped-def]
    """``(key_a, key_b, flip)``: the position's table key (``red + mask + bottom`` is unique
    thanks to the sentinel row, then ``circ``), or with ``geo[SYMMETRY]`` the smaller of it and
    its mirror image's key, ``flip`` saying which (1: the mirror image's)."""
    key_a = red + (red | blue) + masks[BOTTOM]
    key_b = circ
    if geo[SYMMETRY]:
        mirror_a, mirror_b = mirror(key_a, geo, masks), mirror(circ, geo, masks)
        if mirror_a < key_a or (mirror_a == key_a and mirror_b < key_b):
            return mirror_a, mirror_b, 1
    return key_a, key_b, 0


@lean()
def stored_move(red, blue, circ, tt, geo, masks):  # type: ignore[no-untyped-def]
    """The table's move for the position (in its own frame), or -1. Entries may have been
    stored under the position's key or its mirror image's (searches with symmetry keep the
    smaller), so both are tried."""
    key_a, key_b, flip = table_key(red, blue, circ, geo, masks)
    size = tt.shape[0] // 3
    for frame in range(2):
        if frame == 1:
            key_a, key_b, flip = mirror(key_a, geo, masks), mirror(key_b, geo, masks), 1 - flip
        slot = 3 * slot_of(key_a, key_b, size)
        if tt[slot] == key_a and tt[slot + 1] == key_b and tt[slot + 2] != U0:
            return flip_move(entry_move(tt[slot + 2]), flip, geo)
    return -1


@njit(cache=True, inline="always")
def flip_move(move, flip, geo):  # type: ignore[no-untyped-def]
    """A move code in the mirrored frame when ``flip`` (codes below 0 stay)."""
    if flip == 0 or move < 0:
        return move
    return (geo[COLS] - 1 - (move >> 1)) * 2 + (move & 1)


@njit(cache=True, inline="always")
def pack_entry(value, draft, bound, move):  # type: ignore[no-untyped-def]
    """One table word: the value, draft, bound and move of an entry (see the module doc)."""
    return (
        np.uint64(value + (1 << 31))
        | (np.uint64(draft) << np.uint64(32))
        | (np.uint64(bound) << np.uint64(53))
        | (np.uint64(move + 1) << np.uint64(55))
    )


@njit(cache=True, inline="always")
def entry_value(entry):  # type: ignore[no-untyped-def]
    """The stored (position-relative) value of a table word."""
    return np.int64(entry & np.uint64(0xFFFFFFFF)) - (1 << 31)


@njit(cache=True, inline="always")
def entry_draft(entry):  # type: ignore[no-untyped-def]
    """The draft of a table word."""
    return np.int64((entry >> np.uint64(32)) & np.uint64((1 << 21) - 1))


@njit(cache=True, inline="always")
def entry_bound(entry):  # type: ignore[no-untyped-def]
    """The bound kind of a table word."""
    return np.int64((entry >> np.uint64(53)) & np.uint64(3))


@njit(cache=True, inline="always")
def entry_move(entry):  # type: ignore[no-untyped-def]
    """The move code of a table word (-1 for none)."""
    return np.int64(entry >> np.uint64(55)) - 1


@njit(cache=True, inline="always")
def slot_of(key_a, key_b, size):  # type: ignore[no-untyped-def]
    """The table slot of a position key."""
    h = (key_a * HASH_A) ^ (key_b * HASH_B)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(size - 1))


@lean()
def _out_of_time(stats, clock):  # type: ignore[no-untyped-def]
    """Checked at the first node and every 1024 after it: the node budget, then the clock
    (read even without a deadline: a negative reading means Ctrl-C was pressed)."""
    if stats[NODES] >= stats[BUDGET]:
        stats[ABORTED] = 1
    else:
        t = now()
        if t < 0.0 or t >= clock[0]:
            stats[ABORTED] = 1
    return stats[ABORTED] != 0


@lean()
def _pick_win(playable, wins, wc_own, wc_me, q_own, side, geo, masks):  # type: ignore[no-untyped-def]
    """A move code that wins at once (own shape when it can, else the other shape)."""
    for c in range(geo[COLS]):
        cell = playable & masks[COLUMN + c] & wins
        if cell:
            if q_own > 0 and cell & (wc_own | wc_me):
                return c * 2 + side
            return c * 2 + (1 - side)
    return -1


@lean()
def _any_move(playable, q_own, side, geo, masks):  # type: ignore[no-untyped-def]
    """Some legal move (for a lost root position)."""
    for i in range(geo[COLS]):
        c = geo[ORDER + i]
        if playable & masks[COLUMN + c]:
            return c * 2 + (side if q_own > 0 else 1 - side)
    return -1


@lean()
def _generate(red, blue, circ, side, danger, forced, table_move, ply, depth, ctx):  # type: ignore[no-untyped-def]
    """Fill ``scratch[ply, :count]`` with the moves worth searching, best first (their
    ordering scores in ``scratch[ply, MAX_MOVES:]``); return their count and a
    move that loses in 2 (or -1) among those left out. Left out: moves handing the opponent
    a shape four (lose in 1), moves not blocking a forced cell or playing under a robust
    threat (lose in 2)."""
    geo, masks, history, scratch = ctx[0], ctx[1], ctx[7], ctx[8]
    mask = red | blue
    me = blue if side else red
    own_board = circ if side == 0 else mask & ~circ
    oth_board = mask & ~circ if side == 0 else circ
    q_own = geo[OWN_Q] - popcount(me & own_board)
    q_oth = geo[OTHER_Q] - popcount(me & oth_board)
    playable = (mask + masks[BOTTOM]) & masks[BOARD]
    empty = masks[BOARD] & ~mask
    wc_oth = threats(oth_board, masks)
    count = 0
    losing_later = -1
    ordering = geo[ORDERING] != 0
    moves = scratch[ply]
    for i in range(geo[COLS]):
        column = geo[ORDER + i]
        cell = playable & masks[COLUMN + column]
        if not cell:
            continue
        under_threat = (cell << U1) & danger
        blocks = not forced or cell & forced
        if ordering and depth >= ORDER_DEPTH:
            own_score, other_score = _threat_scores(
                cell, me, own_board, oth_board, wc_oth, empty, masks
            )
        else:
            own_score, other_score = 0, 0
        for shape_pick in range(2):
            # shape_pick 0: the mover's own shape; 1: the opponent's shape.
            shape = side if shape_pick == 0 else 1 - side
            if (q_own if shape_pick == 0 else q_oth) <= 0:
                continue
            if shape_pick == 1 and cell & wc_oth:
                continue  # would complete the opponent's shape four
            move = column * 2 + shape
            if under_threat or not blocks:
                losing_later = move
                continue
            moves[count] = move
            if not ordering:
                moves[MAX_MOVES + count] = -count
            elif move == table_move:
                moves[MAX_MOVES + count] = 1 << 40
            else:
                moves[MAX_MOVES + count] = (
                    (own_score if shape_pick == 0 else other_score) * 4096
                    + history[side, move] * 16
                    + (geo[COLS] - i) * 2
                    + (1 - shape_pick)
                )
            count += 1
    # Insertion sort, best first (at most 2 * cols moves).
    for i in range(1, count):
        move, score = moves[i], moves[MAX_MOVES + i]
        j = i - 1
        while j >= 0 and moves[MAX_MOVES + j] < score:
            moves[j + 1], moves[MAX_MOVES + j + 1] = moves[j], moves[MAX_MOVES + j]
            j -= 1
        moves[j + 1], moves[MAX_MOVES + j + 1] = move, score
    return count, losing_later


@njit(cache=True, inline="always")
def _threat_scores(cell, me, own_board, oth_board, wc_oth, empty, masks):  # type: ignore[no-untyped-def]
    """Ordering scores of the two shapes dropped on ``cell``: the cells where the mover could
    then complete a four, minus twice the new ones a piece of the opponent's shape would
    give the opponent."""
    free = empty & ~cell
    color = threats(me | cell, masks)
    own = popcount((threats(own_board | cell, masks) | color) & free)
    gift = threats(oth_board | cell, masks) & ~wc_oth & free
    return own, popcount(color & free) - 2 * popcount(gift)


@lean(NEGAMAX_SIGNATURE)
def negamax(red, blue, circ, plies, ply, depth, alpha, beta, ctx):  # type: ignore[no-untyped-def]
    """Value of the position for the side to move, ``depth`` plies deep, within
    ``(alpha, beta)`` (fail-soft). At ``ply == 0`` the best move goes to ``stats[ROOT_MOVE]``.
    Returns 0 with ``stats[ABORTED]`` set once the budget or the deadline is past."""
    geo, masks, windows, rays, tt, stats, clock, history, scratch = ctx
    stats[NODES] += 1
    if (stats[NODES] & CHECK_MASK) == 1 and _out_of_time(stats, clock):
        return 0
    if stats[ABORTED]:
        return 0
    cells = geo[CELLS]
    if plies >= cells:
        return 0
    mask = red | blue
    side = plies & 1
    me = blue if side else red
    opp = red if side else blue
    circles_are_mine = side == 0
    own_board = circ if circles_are_mine else mask & ~circ
    oth_board = mask & ~circ if circles_are_mine else circ
    q_own = geo[OWN_Q] - popcount(me & own_board)
    q_oth = geo[OTHER_Q] - popcount(me & oth_board)
    board = masks[BOARD]
    playable = (mask + masks[BOTTOM]) & board
    empty = board & ~mask
    wc_own = threats(own_board, masks)
    wc_oth = threats(oth_board, masks)
    wc_me = threats(me, masks)

    # A win on this move ends the search here.
    wins = U0
    if q_own > 0:
        wins |= playable & (wc_own | wc_me)
    if q_oth > 0:
        wins |= playable & wc_me & ~wc_oth
    if wins:
        if ply == 0:
            stats[ROOT_MOVE] = _pick_win(playable, wins, wc_own, wc_me, q_own, side, geo, masks)
        return WIN - (ply + 1)
    if depth <= 0:
        stats[HORIZON] += 1
        if ply == 0:  # a search of depth 0 still names a legal move to play
            stats[ROOT_MOVE] = _any_move(playable, q_own, side, geo, masks)
        return evaluate(red, blue, circ, plies, geo, windows, rays)

    # The opponent's robust threats: its own shape completing its shape or its color.
    opp_own_q = geo[OWN_Q] - popcount(opp & oth_board)
    danger = U0
    if opp_own_q > 0:
        danger = (wc_oth | threats(opp, masks)) & empty
    forced = playable & danger
    if ply > 0 and forced & (forced - U1):
        return -(WIN - (ply + 2))  # two threats to stop: the opponent wins next move

    # The earliest possible loss and win bound the value: no move here wins, so the earliest
    # win is the opponent handing over a shape four next move; the earliest loss is this
    # move, when every move left would hand over the opponent's shape four.
    low = -(WIN - (ply + 1))
    high = WIN - (ply + 2)
    if alpha < low:
        alpha = low
    if beta > high:
        beta = high
    if alpha >= beta and ply > 0:
        return alpha

    key_a, key_b, flip = table_key(red, blue, circ, geo, masks)
    use_table = geo[TABLE] != 0
    size = tt.shape[0] // 3
    slot = 3 * slot_of(key_a, key_b, size) if use_table else 0
    table_move = -1
    if use_table and tt[slot] == key_a and tt[slot + 1] == key_b and tt[slot + 2] != U0:
        entry = tt[slot + 2]
        table_move = flip_move(entry_move(entry), flip, geo)
        draft = entry_draft(entry)
        if draft >= depth and ply > 0:
            if draft != EXACT_DRAFT:
                stats[HORIZON] += 1
            value = from_table(entry_value(entry), ply)
            bound = entry_bound(entry)
            if bound == EXACT:
                return value
            if bound == LOWER and value > alpha:
                alpha = value
            elif bound == UPPER and value < beta:
                beta = value
            if alpha >= beta:
                return value
    if ply == 0 and stats[ROOT_MOVE] >= 0:
        table_move = stats[ROOT_MOVE]

    count, losing_later = _generate(
        red, blue, circ, side, danger, forced, table_move, ply, depth, ctx
    )
    if count == 0:
        loss = -(WIN - (ply + 2)) if losing_later >= 0 else -(WIN - (ply + 1))
        if ply == 0:
            stats[ROOT_MOVE] = (
                losing_later if losing_later >= 0 else _any_move(playable, q_own, side, geo, masks)
            )
        return loss

    alpha_start = alpha
    horizon_before = stats[HORIZON]
    best = -INF
    best_move = scratch[ply, 0]
    for i in range(count):
        move = scratch[ply, i]
        column = move >> 1
        shape = move & 1
        cell = playable & masks[COLUMN + column]
        n_red = red | cell if side == 0 else red
        n_blue = blue | cell if side == 1 else blue
        n_circ = circ | cell if shape == 0 else circ
        # Principal variation search: the first move with the full window, the others with a
        # null window first and again with the full one only when they beat alpha.
        low_bound = -beta if i == 0 else -alpha - 1
        value = -negamax(
            n_red, n_blue, n_circ, plies + 1, ply + 1, depth - 1, low_bound, -alpha, ctx
        )
        if i > 0 and alpha < value < beta and not stats[ABORTED]:
            value = -negamax(
                n_red, n_blue, n_circ, plies + 1, ply + 1, depth - 1, -beta, -value, ctx
            )
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = move
            if ply == 0:
                stats[ROOT_MOVE] = move
        if value > alpha:
            alpha = value
        if alpha >= beta:
            history[side, move] += depth * depth
            break

    if use_table:
        tt[slot] = key_a
        tt[slot + 1] = key_b
        tt[slot + 2] = pack_entry(
            to_table(best, ply),
            EXACT_DRAFT if stats[HORIZON] == horizon_before else depth,
            UPPER if best <= alpha_start else LOWER if best >= beta else EXACT,
            flip_move(best_move, flip, geo),
        )
    return best
