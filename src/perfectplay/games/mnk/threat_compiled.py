"""Numba: threat-space search of the big-board m,n,k engine: victory by continuous fours (VCF)
and by threats of three (VCT).

Import lazily (numba). Works on the incremental board of :mod:`.board_compiled`.

numba's cache keys each module on its own source file, not on the functions it calls: a change
to :mod:`.board_compiled` (issue 26 inlined its make/unmake, then gave the state undo rows)
needs this file touched too, or a stale cached build keeps the old board code.

A VCF is a win in which every attacking move makes a four, so every reply is forced::

    attacker: a four-maker c (a stone that leaves a cell w completing k)
        two or more win cells after c  -> the defender blocks one, the attacker completes
                                          the other: a win in 3 plies from here
        exactly one (w)                -> the defender must play w (it has no win cell of its
                                          own: checked first), and the attack goes on
    a defender win cell on the board   -> the attacker's move must block it: the attack goes
                                          on only when the blocking cell is itself a four-maker

Every defence considered is the only one that does not lose at once, so a VCF found is a
proof of a forced win within ``N`` plies, the line's, whatever else the position holds (a
sooner win that is not a VCF, by a double three say, may exist). Its nodes, and the VCT's
moves and replies, count as search nodes (``stats[0]``) under the search's budget and
deadline (:func:`spend`: running out sets ``stats[3]``, as the search does), so a proof never
holds a move past its time. ``stats[5]`` is the node allowance of a VCF or VCT search (spent
per node; an exhausted search finds nothing, which is always safe). The moves of the line
found are left in ``st[10]`` by ply.

Most of a search's nodes are VCF nodes (issue 26: about 90 % at depth 7 on 15x15), so the VCF
node is kept cheap: its stones are made with :func:`~.board_compiled.make_threats` (the lines
and threat maps only; undone by :func:`~.board_compiled.restore_threats` from the maps read
before it), its last four is tried without a make
(:func:`~.board_compiled.wins_after`), and its helpers are inlined (``inline="always"``): the
call costs more than most of their bodies. The VCT reads each attacker's move and each
defender's reply with the same light make (:func:`threat_after`, :func:`reply_after`) and
makes in full, pattern update and all, only those it follows (issue 26). Every other
function is compiled without numba's reference counts
(:func:`~perfectplay.games.common.compiled_bits.lean`): with them, a call passing the
context and state tuples cost about 200 ns, and the VCF node ran 6-7 times slower (issue 26).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from perfectplay.games.common.compiled_bits import I64_ARRAY, allocating, lean
from perfectplay.games.mnk.board_compiled import (
    CTX_TYPE,
    STATE_TYPE,
    bit_index,
    four_at,
    make,
    make_threats,
    past_deadline,
    restore_threats,
    saved_threats,
    scan_win_cells,
    threat_map,
    unmake,
    win_cells,
    win_cells_at,
    wins_after,
)
from perfectplay.games.mnk.context_layout import (
    P_CELLS,
    P_EXACT,
    P_K,
    P_LINES,
    P_PATTERNS,
    P_VCF_ROOT,
    P_VCT_FOURS,
    P_VCT_MOVES,
    P_VCT_PAST_FOURS,
    P_VCT_TABLE,
)
from perfectplay.games.mnk.patterns import B3, B4, F3, PATTERNS_OFF

VCF_SIGNATURE = types.int64(types.int64, types.int64, types.int64, CTX_TYPE, STATE_TYPE, I64_ARRAY)


@njit(cache=True, inline="always")
def add_once(cell, out, n):  # type: ignore[no-untyped-def]
    """``cell`` appended to the first ``n`` of ``out`` unless there already: the new count."""
    for i in range(n):
        if out[i] == cell:
            return n
    out[n] = cell
    return n + 1


@njit(cache=True, inline="always")
def spend(stats):  # type: ignore[no-untyped-def]
    """Count one node of a threat search against its allowance, the search's budget and its
    deadline (every proof reads the clock, as the search does): True when the search must
    stop (``stats[3]`` set when the budget or the deadline ran out)."""
    stats[5] -= 1
    stats[0] += 1
    if stats[0] >= stats[2] or past_deadline(stats[0], stats[4]):
        stats[2] = 0
        stats[3] = 1
        stats[5] = 0
        return True
    return False


@lean()
def four_cells(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """Every cell where ``side`` makes a four, once each, into ``st[8][ply]``; their number."""
    return add_four_cells(side, st[8][ply], 0, ctx, st)


@njit(cache=True, inline="always")
def add_four_cells(side, out, n, ctx, st):  # type: ignore[no-untyped-def]
    """Every cell where ``side`` makes a four appended to the first ``n`` of ``out`` unless
    there already: the new count."""
    fours, line_cells = st[2], ctx[2]
    for line in range(ctx[10][P_LINES]):
        w = fours[side, line]
        while w:
            low = w & -w
            w ^= low
            n = add_once(line_cells[line, bit_index(low)], out, n)
    return n


@njit(cache=True, inline="always")
def last_four(side, n, ply, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`vcf` one four deep, for a ``side`` with no win cell, over its ``n`` candidate
    four-makers in ``st[8][ply]``: 3 when one leaves two win cells (its line in ``st[10]``),
    else 0 (a single win cell would need a deeper four). Nothing is made (issue 26): most
    VCF nodes are these last ones."""
    moves = st[8]
    for i in range(n):
        cell = moves[ply, i]
        wins, reply = wins_after(cell, side, ctx, st)
        if wins >= 2:
            st[10][ply] = cell
            st[10][ply + 1] = reply
            return 3
    return 0


@njit(cache=True, inline="always")
def vcf_moves(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """The attacking moves of a VCF node into ``st[8][ply]``, their number: the one cell
    blocking the opponent's win cell when it makes a four (none when it does not, or the
    opponent has two win cells), else every four-maker of ``side``'s."""
    opp = 1 - side
    threats, block = (0, -1) if st[3][opp] == 0 else scan_win_cells(opp, ctx, st)
    if threats >= 2:
        return 0
    if threats == 1:
        if not four_at(block, side, ctx, st):
            return 0
        st[8][ply, 0] = block
        return 1
    return add_four_cells(side, st[8][ply], 0, ctx, st)


@lean(VCF_SIGNATURE)
def vcf(side, depth, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """Plies of a forced win of ``side`` (to move, with no win cell of its own) by at most
    ``depth`` continuous fours: 3, 5, 7, ...; 0 when none was found within ``stats[5]`` nodes.
    """
    if depth <= 0 or stats[5] <= 0 or spend(stats):
        return 0
    opp = 1 - side
    n = vcf_moves(side, ply, ctx, st)
    if depth == 1 and st[3][side] == 0:
        return last_four(side, n, ply, ctx, st)
    moves = st[8]
    for i in range(n):
        cell = moves[ply, i]
        saved = saved_threats(cell, ctx, st)
        make_threats(cell, side, ctx, st)
        wins, reply = win_cells_at(cell, side, ctx, st)
        result = 0
        if wins >= 2:
            result = 3
        elif wins == 1:
            saved_reply = saved_threats(reply, ctx, st)
            make_threats(reply, opp, ctx, st)
            deeper = vcf(side, depth - 1, ply + 2, ctx, st, stats)
            restore_threats(reply, opp, saved_reply, ctx, st)
            if deeper:
                result = deeper + 2
        restore_threats(cell, side, saved, ctx, st)
        if result:
            st[10][ply] = cell
            st[10][ply + 1] = reply
            return result
    return 0


@lean()
def shortest_vcf(side, max_depth, ply, nodes, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The shortest VCF of at most ``max_depth`` fours (deepening one four at a time), within
    ``nodes`` nodes in all: its plies, or 0.

    The same search, nodes and line as deepening with :func:`vcf` from one four (issue 26),
    with less work: the first pass is inlined, and when the position has no attacking move
    the deeper passes, which would try nothing, are not run: only the node the second one
    spends is counted (it ends the deepening)."""
    stats[5] = nodes
    if max_depth < 1:
        return 0
    if st[3][side] != 0 or stats[5] <= 0:  # outside the contract, or no allowance
        return deepen(side, 1, max_depth, ply, ctx, st, stats)
    if spend(stats):
        return 0
    n = vcf_moves(side, ply, ctx, st)
    found = last_four(side, n, ply, ctx, st)
    if found or stats[5] <= 0:
        return found
    if n == 0:
        if max_depth >= 2:
            spend(stats)
        return 0
    return deepen(side, 2, max_depth, ply, ctx, st, stats)


@njit(cache=True, inline="always")
def deepen(side, first, max_depth, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """:func:`shortest_vcf`'s deepening from ``first`` fours: a pass that spends only its own
    node (nothing to try) ends it."""
    for depth in range(first, max_depth + 1):
        before = stats[5]
        found = vcf(side, depth, ply, ctx, st, stats)
        if found or stats[5] <= 0 or (stats[5] == before - 1 and depth > 1):
            return found
    return 0


@lean()
def fours_within(side, max_depth, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The shortest VCF of at most ``max_depth`` fours on the current allowance: its plies."""
    for depth in range(1, max_depth + 1):
        found = vcf(side, depth, ply, ctx, st, stats)
        if found or stats[5] <= 0:
            return found
    return 0


@lean()
def open_four_cells(side, ply, out, ctx, st):  # type: ignore[no-untyped-def]
    """The cells where ``side`` would have two win cells at once (an open four, or two
    fours), into ``out``; their number. ``st[8][ply]`` is scratch."""
    n = four_cells(side, ply, ctx, st)
    found = 0
    for i in range(n):
        cell = st[8][ply, i]
        if two_wins_after(cell, side, ctx, st):
            out[found] = cell
            found += 1
    return found


@lean()
def two_wins_after(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """True when a stone of ``side`` on the empty ``cell`` would give it two win cells or
    more in the lines through ``cell`` (an open four, or two fours): only those four lines'
    win maps are computed, nothing is made (the callers' side has no win cell elsewhere)."""
    params = ctx[10]
    k, exact = params[P_K], params[P_EXACT] != 0
    cell_line, cell_bit, line_cells, line_len, lines = ctx[0], ctx[1], ctx[2], ctx[3], st[0]
    first = -1
    for d in range(4):
        line = cell_line[cell, d]
        mine = lines[side, line] | (1 << cell_bit[cell, d])
        empty = ((1 << line_len[line]) - 1) & ~(mine | lines[1 - side, line])
        w = threat_map(mine, empty, k, exact, False)
        while w:
            low = w & -w
            w ^= low
            win = line_cells[line, bit_index(low)]
            if first < 0:
                first = win
            elif win != first:
                return True
    return False


@lean()
def has_open_four(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """True when ``side`` (no win cell on the board) has a cell giving it two win cells at
    once (an open three, or a double four, ready); ``st[8][ply]`` is scratch. With the
    pattern tables on, their count of such cells (``counts[6 + side]``), else every
    four-maker tried."""
    if ctx[10][P_PATTERNS] != PATTERNS_OFF:
        return st[3][6 + side] > 0
    return scan_open_four(side, ply, ctx, st)


@njit(cache=True, inline="always")
def scan_open_four(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """:func:`has_open_four` by trying every four-maker, whatever the tables: exact."""
    n = four_cells(side, ply, ctx, st)
    i = 0
    while i < n and not two_wins_after(st[8][ply, i], side, ctx, st):
        i += 1
    return i < n


@lean()
def has_four_maker(side, ctx, st):  # type: ignore[no-untyped-def]
    """True when ``side`` can make a four somewhere."""
    fours = 0
    for line in range(ctx[10][P_LINES]):
        fours |= st[2][side, line]
    return fours != 0


@lean()
def threat_stands(side, threats, count, ctx, st):  # type: ignore[no-untyped-def]
    """True when one of the ``count`` cells of ``threats`` still gives ``side`` two win cells."""
    for i in range(count):
        cell = threats[i]
        if st[4][cell] == 0 and two_wins_after(cell, side, ctx, st):
            return True
    return False


@lean()
def replies(side, threats, count, out, ply, ctx, st):  # type: ignore[no-untyped-def]
    """The defender's moves that could answer a three: its own four-makers and the empty
    cells on the lines through the threat's cells within ``k`` of them; into ``out``. Every
    other move leaves a threat cell standing and no four of the defender's: it loses."""
    opp = 1 - side
    n = four_cells(opp, ply, ctx, st)
    moves = st[8]
    for i in range(n):
        out[i] = moves[ply, i]
    k = ctx[10][1]
    cell_line, cell_bit, line_cells, line_len, board = ctx[0], ctx[1], ctx[2], ctx[3], st[4]
    for i in range(count):
        for d in range(4):
            line = cell_line[threats[i], d]
            p = cell_bit[threats[i], d]
            for bit in range(max(0, p - k), min(line_len[line], p + k + 1)):
                cell = line_cells[line, bit]
                if board[cell] == 0:
                    n = add_once(cell, out, n)
    return n


@lean()
def near_cells(ply, ctx, st):  # type: ignore[no-untyped-def]
    """The empty cells near stones into ``st[8][ply]``; their number."""
    moves, board, nearby = st[8][ply], st[4], st[5]
    n = 0
    for cell in range(ctx[10][0]):
        if board[cell] == 0 and nearby[cell] > 0:
            moves[n] = cell
            n += 1
    return n


@njit(cache=True, inline="always")
def threat_after(cell, side, standing, ply, ctx, st):  # type: ignore[no-untyped-def]
    """What a stone of ``side`` (no win cell) on the empty ``cell`` threatens, read with the
    threat searches' light make and taken back (nothing else changes): ``(wins, block,
    count)``, its win cells as :func:`win_cells` counts them and the first, and when it has
    none, how many cells would then give it two at once (a three), those cells put in
    ``st[9][ply + 1]`` (``st[8][ply + 1]`` is scratch). ``standing``: whether such a cell
    is on the board before the stone (:func:`scan_open_four`).

    A VCT's attacker tries every cell near a stone, and most threaten nothing: the full
    make, with its pattern update, is kept for the few that do (issue 26: the inner VCT was
    a third of the search's time). The board's cells are looked over only when one can give
    two win cells: with none standing before and no win cell after, a new one must gain a
    win cell in a line through ``cell``, so it is a four cell of one of them."""
    saved = saved_threats(cell, ctx, st)
    make_threats(cell, side, ctx, st)
    wins, block = win_cells_at(cell, side, ctx, st)
    count = 0
    if wins == 0 and (standing or fours_through(cell, side, ctx, st)):
        count = open_four_cells(side, ply + 1, st[9][ply + 1], ctx, st)
    restore_threats(cell, side, saved, ctx, st)
    return wins, block, count


@njit(cache=True, inline="always")
def fours_through(cell, side, ctx, st):  # type: ignore[no-untyped-def]
    """True when ``side`` has a four cell in a line through ``cell``."""
    cell_line, fours = ctx[0], st[2]
    found = 0
    for d in range(4):
        found |= fours[side, cell_line[cell, d]]
    return found != 0


@njit(cache=True, inline="always")
def reply_after(reply, opp, threats, count, ctx, st):  # type: ignore[no-untyped-def]
    """What the defender's (``opp``'s) stone on the empty ``reply`` does against the
    attacker's three (``count`` cells of ``threats`` give the attacker two win cells), read
    with the light make and taken back: ``(fours, block, stands)``, the defender's win cells
    then and the first, and whether it made none and left a threat cell standing (the reply
    loses: nothing need be made)."""
    saved = saved_threats(reply, ctx, st)
    make_threats(reply, opp, ctx, st)
    fours, block = win_cells_at(reply, opp, ctx, st)
    stands = fours == 0 and threat_stands(1 - opp, threats, count, ctx, st)
    restore_threats(reply, opp, saved, ctx, st)
    return fours, block, stands


VCT_ALL, VCT_THREATS, VCT_ANY_THREE = range(3)
"""Values of ``P_VCT_MOVES``, the attacker's moves in the win by threats: every empty cell
near a stone; with the pattern tables on, only the cells making a four, an open three or
threes (B3 or better) in two directions; those and every cell making a three (B3) in one
direction (every move that can threaten at all: a new cell of two win cells needs a four
through the move)."""
FOUR_FIRST = 1 << 40
"""Added to a four-maker's pattern value when the attacker's moves are ordered: the fours
(and four-threes, the highest valued of them) are tried before every three."""


@njit(cache=True, inline="always")
def threat_kind(side, cell, codes):  # type: ignore[no-untyped-def]
    """``(threes, strong, four)`` of a stone of ``side`` on the empty ``cell`` by its pattern
    codes (``st[11]``): its directions with a three or better (B3+), whether one makes an
    open three or better (F3+), whether one makes a four (B4+)."""
    threes, strong, four = 0, False, False
    for d in range(4):
        code = codes[side, 4 * cell + d]
        threes += code >= B3
        strong |= code >= F3
        four |= code >= B4
    return threes, strong, four


@lean()
def threat_makers(side, mode, ply, ctx, st):  # type: ignore[no-untyped-def]
    """The attacker's moves of :data:`VCT_THREATS` or :data:`VCT_ANY_THREE` into
    ``st[8][ply]``, the fours first, then by pattern value (best first); their number.
    ``st[9][ply + 1]`` is scratch (the caller fills it only after)."""
    moves, scores, board, codes, values = st[8][ply], st[9][ply + 1], st[4], st[11], st[12]
    least = 1 if mode == VCT_ANY_THREE else 2
    n = 0
    for cell in range(ctx[10][P_CELLS]):
        if board[cell] != 0:
            continue
        threes, strong, four = threat_kind(side, cell, codes)
        if strong or threes >= least:
            score = values[side, cell] + (FOUR_FIRST if four else 0)
            i = n
            while i > 0 and scores[i - 1] < score:  # insertion: the list stays sorted
                moves[i], scores[i] = moves[i - 1], scores[i - 1]
                i -= 1
            moves[i], scores[i] = cell, score
            n += 1
    return n


@lean()
def attacker_moves(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """The attacker's moves of a VCT node into ``st[8][ply]`` by ``P_VCT_MOVES`` (every
    cell near a stone when the pattern tables are off); their number."""
    params = ctx[10]
    mode = params[P_VCT_MOVES]
    if mode == VCT_ALL or params[P_PATTERNS] == PATTERNS_OFF:
        return near_cells(ply, ctx, st)
    return threat_makers(side, mode, ply, ctx, st)


@njit(cache=True, inline="always")
def forced_blocks(ctx):  # type: ignore[no-untyped-def]
    """The defender's win cells a VCT node still attacks from: 1 with the attacker's moves
    limited to threat makers (it blocks the one, which must threaten), else 0 (the old
    VCT's refusal)."""
    return 1 if ctx[10][P_VCT_MOVES] != VCT_ALL else 0


VCT_TABLE_TYPE = types.Array(types.uint64, 2, "C")
"""The VCT's table: a row per slot, the key (the position's hash and the attacker) and the
entry (:func:`vct_entry`); all zero when empty. Its rows are a power of two (or none)."""
SIDE_KEY = np.uint64(0x9E3779B97F4A7C15)
"""Mixed into the key when ``o`` attacks (the hash is the stones' only)."""
DEPTH_BITS, PLIES_BITS = 8, 16
"""An entry's fields: the depth in threats (low bits), the plies (0: none found), then the
first move plus one."""
LEAST_TABLE_BITS = 6
"""The smallest table kept (slots' log2) when the allowance is small."""


@allocating()
def new_vct_table(ctx, stats):  # type: ignore[no-untyped-def]
    """The VCT table of one search: ``P_VCT_TABLE`` gives its slots' log2 (0: none, no
    slot), fewer for a small node allowance (``stats[5]``; the inner nodes' looks are
    many and short: the table is zeroed each time), never under :data:`LEAST_TABLE_BITS`."""
    bits = ctx[10][P_VCT_TABLE]
    if bits <= 0:
        return np.zeros((0, 2), dtype=np.uint64)
    while bits > LEAST_TABLE_BITS and (1 << (bits - 1)) >= stats[5]:
        bits -= 1
    return np.zeros((1 << bits, 2), dtype=np.uint64)


@njit(cache=True, inline="always")
def vct_key(side, st):  # type: ignore[no-untyped-def]
    """The table's key of the position (``st[6][0]``, the identity image's hash) with
    ``side`` attacking."""
    return st[6][0] ^ (SIDE_KEY if side else np.uint64(0))


@lean()
def probe_vct(side, depth, ply, st, table):  # type: ignore[no-untyped-def]
    """A stored answer for ``side`` attacking with ``depth`` threats: ``(True, plies)`` for a
    proof within ``depth`` (its first move put in ``st[10][ply]``) or a failure at ``depth``
    or deeper (plies 0); ``(False, 0)`` when nothing applies."""
    size = table.shape[0]
    if size == 0:
        return False, 0
    key = vct_key(side, st)
    slot = np.int64(key & np.uint64(size - 1))
    entry = table[slot, 1]
    if entry == 0 or table[slot, 0] != key:
        return False, 0
    stored = np.int64(entry & np.uint64((1 << DEPTH_BITS) - 1))
    plies = np.int64((entry >> np.uint64(DEPTH_BITS)) & np.uint64((1 << PLIES_BITS) - 1))
    if plies > 0 and stored <= depth:
        st[10][ply] = np.int64(entry >> np.uint64(DEPTH_BITS + PLIES_BITS)) - 1
        return True, plies
    if plies == 0 and stored >= depth:
        return True, 0
    return False, 0


@lean()
def store_vct(side, depth, plies, move, st, table):  # type: ignore[no-untyped-def]
    """Keep ``side``'s result with ``depth`` threats (``plies`` 0: none; the caller keeps
    no failure that its allowance or clock cut), replacing a shallower entry or the same
    position's."""
    size = table.shape[0]
    if size == 0:
        return
    key = vct_key(side, st)
    slot = np.int64(key & np.uint64(size - 1))
    entry = table[slot, 1]
    old = np.int64(entry & np.uint64((1 << DEPTH_BITS) - 1))
    if entry != 0 and table[slot, 0] != key and old > depth:
        return
    table[slot, 0] = key
    table[slot, 1] = (
        np.uint64(depth)
        | (np.uint64(plies) << np.uint64(DEPTH_BITS))
        | (np.uint64(move + 1) << np.uint64(DEPTH_BITS + PLIES_BITS))
    )


ATTACKER, NO_PAST = np.int64(-1), np.int64(0)
""":func:`vct_node`'s role arguments for the attacker to move, typed (numba's literal
constants in a recursive call leave a symbol its cache cannot load)."""
PAST_SCALE = 64
"""``past`` of a defender's node: the three's open-four cells times this, plus the
defender's fours still to look past (``P_VCT_PAST_FOURS``, at most this less one)."""
VCT_NODE_SIGNATURE = types.int64(
    *(types.int64,) * 5, CTX_TYPE, STATE_TYPE, I64_ARRAY, VCT_TABLE_TYPE
)


@allocating()
def vct(side, depth, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """Plies of a forced win of ``side`` (to move, no win cell of its own; with
    ``P_VCT_MOVES`` on, the opponent may have one, which is then blocked) by threats, at most
    ``depth`` threats deep, with a table of its own (``P_VCT_TABLE``): a VCF first (of
    ``P_VCT_FOURS`` fours); else an attacker's move (``P_VCT_MOVES``) after which

    * the attacker has two win cells: a win in 3;
    * it has one (a four): the defender's one reply, then a deeper VCT;
    * it can make an open four next (a three): every defence of :func:`replies` is tried
      (a reply leaving a threat cell standing loses in 5), each answered by a deeper VCT;
      any other reply loses in 5. A defender's four counts as a defence that holds, unless
      ``P_VCT_PAST_FOURS``: then it is blocked and the three answered again, every defence
      tried (issue 26: the best resistance to a win by threes is often a four first), up
      to that many fours in a row (a block that makes a four of the attacker's is answered
      and the attack goes on); a four past those, or two, still hold.

    The plies are the longest line over the defences. 0 when none was found within
    ``stats[5]`` nodes. The first move is left in ``st[10][ply]``."""
    return vct_node(side, depth, ply, ATTACKER, NO_PAST, ctx, st, stats, new_vct_table(ctx, stats))


@allocating()
def vct_deepening(side, threats, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The plies of ``side``'s shortest win by threats found on the current allowance (one
    threat deeper at a time, at most ``threats``; one table for every pass: the deeper pass
    finds the shallower proofs of its subtrees kept), its first move in ``st[10][ply]``;
    0 when none."""
    table = new_vct_table(ctx, stats)
    found = 0
    for depth in range(1, threats + 1):
        found = vct_node(side, depth, ply, ATTACKER, NO_PAST, ctx, st, stats, table)
        if found or stats[5] <= 0 or stats[3]:
            break
    return found


@lean(VCT_NODE_SIGNATURE)
def vct_node(side, depth, ply, three, past, ctx, st, stats, table):  # type: ignore[no-untyped-def]
    """:func:`vct`'s node, in two roles (numba compiles one self-recursive function, not two
    calling each other). ``three < 0``: ``side`` to move at ``ply``, its plies returned (0:
    none), results kept in ``table``. ``three >= 0``: the defender to move at ``ply`` against
    the attacker's three made at ply ``three`` (its open-four cells in ``st[9][three + 1]``,
    their number ``past // PAST_SCALE``): the plies from ``three`` of the attacker's win
    against its every defence (0: one holds); ``past % PAST_SCALE`` defender's fours may
    still be blocked and the three answered again (a four past those holds)."""
    opp = 1 - side
    if three >= 0:  # the defender's role
        threats, count = st[9][three + 1], past // PAST_SCALE
        answers = st[9][ply + 1]
        m = replies(side, threats, count, answers, ply, ctx, st)
        result = ply + 4 - three  # a reply leaving a threat cell loses: an open four, a win
        for j in range(m):
            reply = answers[j]
            if spend(stats):
                return 0
            fours, block, stands = reply_after(reply, opp, threats, count, ctx, st)
            if stands:  # no four, the three still there: the reply loses, nothing made
                pass
            elif fours > 0:
                # The defender's four: the attacker blocks it, then every answer to the
                # three is tried again. Not looked into (a sound refusal): two fours, a
                # four past the allowed ones, a three the four's stone broke.
                again = 0
                if fours == 1 and past % PAST_SCALE > 0:
                    make(reply, opp, ctx, st)
                    make(block, side, ctx, st)
                    wins, push = win_cells(side, ctx, st)
                    if wins >= 2:  # the block leaves two win cells: a five next
                        again = ply + 4 - three
                    elif threat_stands(side, threats, count, ctx, st) and wins == 0:
                        again = vct_node(
                            side, depth, ply + 2, three, past - 1, ctx, st, stats, table
                        )
                    elif wins == 1:
                        # The block made a four: the defender's one reply, then the open
                        # four when the three stands, else a deeper win by threats.
                        make(push, opp, ctx, st)
                        if win_cells(opp, ctx, st)[0] == 0:
                            if threat_stands(side, threats, count, ctx, st):
                                again = ply + 6 - three
                            else:
                                deeper = vct_node(
                                    side,
                                    depth - 1,
                                    ply + 3,
                                    ATTACKER,
                                    NO_PAST,
                                    ctx,
                                    st,
                                    stats,
                                    table,
                                )
                                again = deeper + ply + 3 - three if deeper else 0
                        unmake(push, opp, ctx, st)
                    unmake(block, side, ctx, st)
                    unmake(reply, opp, ctx, st)
                result = max(result, again) if again else 0
            else:
                make(reply, opp, ctx, st)
                deeper = vct_node(
                    side, depth - 1, ply + 1, ATTACKER, NO_PAST, ctx, st, stats, table
                )
                result = max(result, deeper + ply + 1 - three) if deeper else 0
                unmake(reply, opp, ctx, st)
            if result == 0 or stats[5] <= 0 or stats[3]:
                return 0
        return result
    known, plies = probe_vct(side, depth, ply, st, table)
    if known:
        return plies
    fours = ctx[10][P_VCT_FOURS]
    found = fours_within(side, fours if fours else ctx[10][P_VCF_ROOT], ply, ctx, st, stats)
    against, block = win_cells(opp, ctx, st)
    if found or depth <= 0 or stats[5] <= 0 or stats[3] or against > forced_blocks(ctx):
        if found or (depth > 0 and stats[5] > 0 and not stats[3]):
            store_vct(side, depth, found, st[10][ply], st, table)
        return found
    if against:  # the defender's four (a forced block's): blocking it is the only move
        st[8][ply, 0] = block
        n = 1
    else:
        n = attacker_moves(side, ply, ctx, st)
    past = min(ctx[10][P_VCT_PAST_FOURS], PAST_SCALE - 1)
    standing = scan_open_four(side, ply + 1, ctx, st)
    for i in range(n):
        cell = st[8][ply, i]
        if spend(stats):
            return 0
        wins, block, count = threat_after(cell, side, standing, ply, ctx, st)
        result = 0
        if wins >= 2:
            result = 3
        elif wins == 1:
            make(cell, side, ctx, st)
            make(block, opp, ctx, st)
            deeper = vct_node(side, depth - 1, ply + 2, ATTACKER, NO_PAST, ctx, st, stats, table)
            unmake(block, opp, ctx, st)
            unmake(cell, side, ctx, st)
            result = deeper + 2 if deeper else 0
        elif count:  # a three: its open-four cells are in st[9][ply + 1]
            make(cell, side, ctx, st)
            result = vct_node(
                side, depth, ply + 1, ply, PAST_SCALE * count + past, ctx, st, stats, table
            )
            unmake(cell, side, ctx, st)
        if result:
            st[10][ply] = cell
            store_vct(side, depth, result, cell, st, table)
            return result
        if stats[5] <= 0 or stats[3]:
            return 0
    store_vct(side, depth, 0, -1, st, table)
    return 0
