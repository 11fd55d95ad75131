"""Numba: negamax alpha-beta of the big-board m,n,k engine, over :mod:`.board_compiled`'s
incremental board, with :mod:`.threat_compiled`'s VCF and VCT as a proof layer.

Import lazily (numba). Two regimes, chosen per node by the depth asked:

numba's cache keys each module on its own source file, not on the functions it calls: a change
to :mod:`.board_compiled` (issue 26 inlined its make/unmake, then gave the state undo rows)
needs this file touched too, or a stale cached build keeps the old board code.

* **exact** (``depth`` at least the empty cells): every empty cell is tried, best first by
  :func:`~.board_compiled.gain`; values are game-theoretic, with exact distances (this is the
  regime the tests hold against plain minimax on small boards);
* **heuristic** (shallower): only cells near stones, the ``width`` best by gain; the side to
  move's VCF is tried at the root (the shortest first) and at every node and horizon leaf (a
  few fours), its win by threats (VCT) at the root and at the inner nodes with enough plies
  left to search (a small budget each), so forced wins are proved and forced losses seen
  below the root too. Pruned nodes count as horizon
  leaves, and a pruned node whose best is a loss reports the lowest heuristic value instead:
  a loss is only claimed where every defence was tried (forced replies and double threats are
  exact), a win wherever one line proves it.

  Threats are answered first (issue 26): a node facing the opponent's open three tries only
  :func:`defences` (its four-makers and the side's own: every move that does not lose, so a
  loss there is proved); facing only a VCF of the opponent's (as if it moved), those and the
  line's cells (a beam: pruned). A horizon leaf facing an open three, with no four of its
  own, tries its answers (:func:`answer_three`: a double three is almost lost). Each root
  move is checked against the opponent's VCF (a refuted move is a proved loss, kept in the
  table for the later iterations), and when every root move tried loses, every other empty
  cell is tried before the loss is claimed. The root's own win by threats and the
  opponent's (to defend first) are looked for within a share of the time left
  (``P_ROOT_VCT_SHARE``, ``P_THREAT_SHARE``, thousandths; their node counts without a clock:
  :func:`threats_until`); when the opponent has one, its four-makers and the side's join the
  root's moves and each move is checked against it until ``P_REFUTE_SHARE`` of the time left
  is spent: a move after which it still wins by threats is a proved loss. Late quiet
  moves of a beam are searched a ply shallower first (late move reductions), the latest of
  a deep node two plies (:data:`LMR2_FROM`, :data:`LMR2_DEPTH`); a node one ply above its
  horizon tries only the :data:`FRONTIER_WIDTH` best of its beam (issue 26: its children
  are leaves, each with its VCF look).

In both, a cell completing k wins at once, two opponent win cells lose, one must be blocked;
a forced block at the horizon is searched past it.

Table tuple ``tt``: ``key`` (uint64 smallest Zobrist hash over the symmetries), ``value``
(int64, position-relative), ``bound`` (int8: 0 exact, 1 lower, 2 upper), ``draft`` (int32,
FULL_DRAFT when nothing below stopped short of the end, see below; else the depth searched),
``move`` (int16, in the canonical frame; negative: empty); then the search's memory beside
the table (int64[:data:`~.context_layout.MEMORY_SIZE`]: the ordering memory the driver keeps
over one move's iterations, and the last completed root's value and depth, see
:func:`search_root`).
``stats``: the slots of :mod:`.context_layout` (``S_*``; at least its seven own: nodes,
horizon leaves, node budget, aborted flag, deadline in ``time.perf_counter_ns`` units, VCF
nodes left, bounded wins, see below); the counters (``COUNT_*``) and the pruning's ordering
memory only when it is :data:`~.context_layout.STATS_SIZE` long.

Pruning (issue 26, each switched by a context parameter, 0 = off): in a heuristic beam node
that does not defend, the history and killers order the moves after the first by gain
(:func:`history_order`), late quiet moves are reduced (:func:`reduction`) or past a move
count not tried (:func:`move_limit`), and an unthreatened node may return its evaluation
(reverse futility), its evaluation when that is far below alpha (razoring) or a null move's
bound (:func:`early_cut`). A node whose evaluation is not above its side's two plies up
(:func:`improving`, the evaluations kept by ply in ``stats``) may try fewer moves and reduce
more. A node's table move may be extended a ply when it is singular: every other move,
searched half as deep without it (the node again at the same ply, its move left out through
``stats``' skip slots, no table read or written), stays below the table's value by a margin
(:func:`singular_value`); when those reach beta instead, the node returns that bound
(multi-cut); when they reach the bound below beta while the table's value reaches beta, the
table's move may be searched shallower (``P_SINGULAR_REDUCE``). Each such value counts as a
horizon leaf (``stats[1]``), like a pruned beam: nothing pruned is stored at FULL_DRAFT nor
reported exact, and no proof reads it.

Windows (issue 26, runtime parameters too): with ``P_PVS`` every move after a node's first
(the root's too) is searched with a null window first and in full only when its value lands
inside the window (a value outside is a bound, stored as one); with ``P_ASPIRATION`` the
root of a later iteration searches a window around the last iteration's value (kept in the
table's memory) and again with the full window when the value falls outside it.

A decisive value is always proved, but its distance is exact only where every move was tried
down to the end. ``stats[6]`` counts the places where a win was decided otherwise: by a
threat-space proof (a VCF or a VCT: the shortest such line, not necessarily the shortest win;
a double three can win sooner than any VCF) or by a move among a beam (a shorter win may lie
outside it). Such a distance is an upper bound: the game is won within it. The root's proofs
of at most :data:`EXACT_PROOF_PLIES` plies are the exception (exact).

So a node's entry gets FULL_DRAFT, the draft every search reads, exact ones included, only
when neither ``stats[1]`` nor ``stats[6]`` moved while it was searched (a table entry of a
smaller draft that narrowed its window counts as a horizon leaf); otherwise the depth searched,
which a search as deep as the empty cells never reads. The root's proofs store FULL_DRAFT
bounds, not exact values: the attacker's win within the line's plies as a lower bound, the
defender's loss within them as an upper bound, both true whatever the soonest win.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from perfectplay.games.common.compiled_bits import (
    I64_ARRAY,
    NO_DEADLINE,
    U64_ARRAY,
    allocating,
    clock_reached,
    lean,
    now,
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
from perfectplay.games.mnk.board_compiled import (
    CTX_TYPE,
    STATE_TYPE,
    canonical,
    evaluate,
    gains,
    make,
    makes_four,
    past_deadline,
    unmake,
    win_cells,
)
from perfectplay.games.mnk.context_layout import (
    COUNT_FUTILITY,
    COUNT_MOVE_COUNT,
    COUNT_NULL_CUT,
    COUNT_NULL_TRIED,
    COUNT_OWN,
    COUNT_OWN_NODES,
    COUNT_RAZOR,
    COUNT_REFUTED,
    COUNT_REFUTES,
    COUNT_SINGULAR,
    COUNT_THREAT,
    COUNT_THREAT_NODES,
    EVALS_AT,
    HISTORY_AT,
    KILLER_PLIES,
    KILLERS_AT,
    M_DEPTH,
    M_VALUE,
    MAX_CELLS,
    NO_EVAL,
    P_ASPIRATION,
    P_CELLS,
    P_FOUR_EXTENSION,
    P_FUTILITY_DEPTH,
    P_FUTILITY_MARGIN,
    P_HISTORY,
    P_IMPROVING,
    P_INNER_VCT_THREATS,
    P_KILLERS,
    P_LMR_LOG,
    P_MOVE_COUNT_BASE,
    P_MOVE_COUNT_DEPTH,
    P_MOVE_COUNT_POWER,
    P_MOVE_COUNT_SCALE,
    P_NULL_DEPTH,
    P_NULL_REDUCTION,
    P_PVS,
    P_RAZOR_DEPTH,
    P_RAZOR_MARGIN,
    P_REFUTE_SHARE,
    P_ROOT_VCT_NODES,
    P_ROOT_VCT_SHARE,
    P_SINGULAR_DEPTH,
    P_SINGULAR_MARGIN,
    P_SINGULAR_REDUCE,
    P_THREAT_NODES,
    P_THREAT_SHARE,
    P_THREAT_THREATS,
    P_THREE_EXTENSION,
    P_VCF_LEAF,
    P_VCF_NODES,
    P_VCF_ROOT,
    P_VCT,
    P_VCT_INNER_DEPTH,
    P_VCT_INNER_NODES,
    P_WIDTH,
    S_NULL_CHILD,
    SKIPS_AT,
    STATS_SIZE,
)
from perfectplay.games.mnk.threat_compiled import (
    add_four_cells,
    add_once,
    four_cells,
    has_four_maker,
    has_open_four,
    shortest_vcf,
    vct_deepening,
)
from perfectplay.values import FULL_DRAFT, HEURISTIC_LIMIT

TABLE_TYPE = types.Tuple(  # type: ignore[no-untyped-call]
    (
        U64_ARRAY,
        I64_ARRAY,
        types.Array(types.int8, 1, "C"),
        types.Array(types.int32, 1, "C"),
        types.Array(types.int16, 1, "C"),
        I64_ARRAY,
    )
)
NEGAMAX_SIGNATURE = types.int64(
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    CTX_TYPE,
    STATE_TYPE,
    TABLE_TYPE,
    I64_ARRAY,
)
DEFENCE_BONUS = 1 << 40
"""Order score added to the cells of the opponent's VCF line: the defences go first."""
SHARE_SCALE = 1000
"""The unit of the context's time shares (``P_*_SHARE``): thousandths of the time left."""
TIMED_NODES = 1 << 40
"""A threat search's node allowance when the search has a clock: the share of time bounds it."""
KILLER_BONUS = 1 << 50
"""Order key added to a ply's killer moves (twice for the latest): above any history score."""
NULL_KEY = np.uint64(0x9E3779B97F4A7C15)
"""Hash flip of a null move's subtree (see :func:`pass_turn`)."""
LEAF_VCF_NODES = 24
"""VCF nodes a horizon leaf may spend."""
REFUTE_FOURS = 8
"""Longest VCF of the opponent's looked for after each root move, in fours."""
REFUTE_NODES = 300
"""Nodes such a look may spend: a root move it refutes is a proved loss, not searched."""
THREE_LOST = HEURISTIC_LIMIT // 4
"""A horizon leaf's value when the opponent's open threes cannot all be answered (two at
once) and the side to move has no four: almost lost, not proved."""
LMR_FROM = 3
"""Moves of a beam searched to the full depth before the later ones are reduced."""
LMR_DEPTH = 3
"""The least depth at which a node reduces its late moves."""
LMR2_FROM = 6
LMR2_DEPTH = 5
"""From this move of a beam, at this depth or more, late moves are reduced by two plies."""
FRONTIER_WIDTH = 8
"""Moves a heuristic node one ply from its horizon tries (the beam's best: its children are
leaves)."""
SINGULAR_DRAFT = 2
"""How much shallower than the node a table entry may be for its move's singular test."""
EXACT_PROOF_PLIES = 5
"""The root's proofs of at most this many plies are exact: a mover's win takes an odd number
of plies, the root has no win in 1 (checked first), and none in 3 when its VCF search, one
four deeper at a time, found nothing of one four (a win in 3 is a move leaving two win cells
and the opponent none: exactly a VCF of one four)."""


@lean()
def candidates(side, ply, exact, threat, ctx, st):  # type: ignore[no-untyped-def]
    """The moves to try, best first by gain, into ``st[8][ply]``: every empty cell (exact),
    or the ``width`` best near stones (heuristic). The cells of an opponent's VCF line of
    ``threat`` plies (``st[10][ply:]``, the defences) go first. Returns ``(count, pruned)``."""
    cells = ctx[10][P_CELLS]
    order = ctx[9]
    board, nearby = st[4], st[5]
    moves, scores = st[8][ply], st[9][ply]
    n = 0
    for i in range(cells):
        cell = order[i]
        if board[cell] == 0 and (exact or nearby[cell] > 0):
            moves[n] = cell
            n += 1
    gains(side, moves, scores, n, ctx, st)
    line = st[10]
    for j in range(n):
        for i in range(threat - 1):
            if line[ply + i] == moves[j]:
                scores[j] += DEFENCE_BONUS
    pruned = not exact
    if n == 0:  # an empty board: the centre
        moves[0] = order[0]
        return 1, pruned
    keep = n if exact else min(n, ctx[10][P_WIDTH])
    best_first(n, keep, ply, st)
    return keep, pruned


@lean()
def best_first(n, keep, ply, st):  # type: ignore[no-untyped-def]
    """The best ``keep`` of the ply's ``n`` moves to its front by score, stable for equal
    scores (a selection: ``keep`` is small)."""
    moves, scores = st[8][ply], st[9][ply]
    for i in range(keep):
        top = i
        for j in range(i + 1, n):
            if scores[j] > scores[top]:
                top = j
        if top != i:
            cell, score = moves[top], scores[top]
            for j in range(top, i, -1):
                moves[j], scores[j] = moves[j - 1], scores[j - 1]
            moves[i], scores[i] = cell, score


@lean()
def defences(side, ply, threat, complete, ctx, st):  # type: ignore[no-untyped-def]
    """The moves that can answer the opponent's threat, best first by gain, into
    ``st[8][ply]``: the opponent's four-makers, the side's own four-makers (a counter-attack
    that forces replies) and the cells of the opponent's VCF line of ``threat`` plies
    (``st[10][ply:]``). Against an open three this is every defence: a stone that stops the
    open four made at ``c`` must take ``c`` or one of the win cells it would make, and each of
    those is a four-maker of the opponent's now; a move of the side's that makes no four lets
    the open four come, which only a five answers. So ``complete`` (the opponent has an open
    three) says the set holds every move that does not lose: ``pruned`` is its negation (a
    VCF alone can be answered elsewhere too). Returns ``(count, pruned)``."""
    moves, scores = st[8][ply], st[9][ply]
    n = four_cells(1 - side, ply, ctx, st)
    n = add_four_cells(side, moves, n, ctx, st)
    for i in range(threat - 1):
        n = add_once(st[10][ply + i], moves, n)
    gains(side, moves, scores, n, ctx, st)
    best_first(n, n, ply, st)
    return n, not complete


@lean()
def threatened(side, ply, threat, ctx, st):  # type: ignore[no-untyped-def]
    """How the side to move must defend: 2 when the opponent has an open three (a cell
    giving it two win cells at once), 1 when it has a VCF of ``threat`` plies (3 or more),
    else 0 (free to play anything)."""
    if has_open_four(1 - side, ply, ctx, st):
        return 2
    return 1 if threat >= 3 else 0


@lean()
def to_front(cell, n, ply, add, st):  # type: ignore[no-untyped-def]
    """Move ``cell`` to the front of the ply's moves (added when missing if ``add``, else
    left out); the new count."""
    moves = st[8][ply]
    at = n
    for i in range(n):
        if moves[i] == cell:
            at = i
            break
    if at == n:
        if not add:
            return n
        n += 1
    for j in range(at, 0, -1):
        moves[j] = moves[j - 1]
    moves[0] = cell
    return n


@lean()
def probe(ply, depth, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """``(slot, key, sym, move, value, bound)`` of the table for the current board; ``move``
    -1 when the entry is not this board's, ``bound`` -1 when its draft is too small."""
    key, sym = canonical(st, ctx)
    slot = np.int64(key % np.uint64(tt[0].shape[0]))
    if tt[4][slot] < 0 or tt[0][slot] != key:
        return slot, key, sym, -1, 0, -1
    move = ctx[7][sym, tt[4][slot]]
    if tt[3][slot] < depth:
        return slot, key, sym, move, 0, -1
    if tt[3][slot] < FULL_DRAFT:
        stats[1] += 1
    return slot, key, sym, move, from_table(tt[1][slot], ply), tt[2][slot]


@lean()
def store(slot, key, sym, value, bound, draft, cell, ply, ctx, tt):  # type: ignore[no-untyped-def]
    """Keep an entry unless it would replace a deeper one of the same board."""
    same = tt[4][slot] >= 0 and tt[0][slot] == key
    if same and draft < tt[3][slot]:
        return
    tt[0][slot] = key
    tt[1][slot] = to_table(value, ply)
    tt[2][slot] = bound
    tt[3][slot] = draft
    tt[4][slot] = ctx[6][sym, cell]


@lean()
def leaf(side, ply, ctx, st, stats):  # type: ignore[no-untyped-def]
    """A horizon leaf: the side to move's short VCF, else the evaluation."""
    found = shortest_vcf(side, ctx[10][P_VCF_LEAF], ply, LEAF_VCF_NODES, ctx, st, stats)
    if found and not stats[3]:
        stats[6] += 1
        return WIN - (ply + found)
    stats[1] += 1
    if has_four_maker(side, ctx, st) or not has_open_four(1 - side, ply, ctx, st):
        return evaluate(side, ctx, st)
    return answer_three(side, ply, ctx, st)


@lean()
def answer_three(side, ply, ctx, st):  # type: ignore[no-untyped-def]
    """A horizon leaf where the opponent has an open three and the side to move no four to
    counter with: the best of its answers (the opponent's four-makers: see :func:`defences`)
    that leaves no open three standing, by the evaluation after it; ``-THREE_LOST`` when none
    does (two threes at once). One ply of threat quiescence: the evaluation alone misses it."""
    opp = 1 - side
    answers = st[9][ply]
    n = four_cells(opp, ply, ctx, st)
    for i in range(n):
        answers[i] = st[8][ply, i]
    best = -THREE_LOST
    for i in range(n):
        cell = answers[i]
        make(cell, side, ctx, st)
        if not has_open_four(opp, ply + 1, ctx, st):
            best = max(best, -evaluate(opp, ctx, st))
        unmake(cell, side, ctx, st)
    return best


@lean()
def threat_scan(side, ply, depth, ctx, st, stats):  # type: ignore[no-untyped-def]
    """``(win, threat)``: plies of a short VCF of the side to move (0: none), or with
    ``depth`` plies left of at least the context's inner-VCT depth, of a win by threats; else
    the plies of the opponent's short VCF, as if it moved (its line left in ``st[10][ply:]``)."""
    params = ctx[10]
    fours = params[P_VCF_LEAF]
    found = shortest_vcf(side, fours, ply, LEAF_VCF_NODES, ctx, st, stats)
    if found:
        return found, 0
    if depth >= params[P_VCT_INNER_DEPTH] and not stats[3]:
        stats[5] = params[P_VCT_INNER_NODES]
        found = vct_deepening(side, params[P_INNER_VCT_THREATS], ply, ctx, st, stats)
        if found and not stats[3]:
            return found, 0
    return 0, shortest_vcf(1 - side, fours, ply, LEAF_VCF_NODES, ctx, st, stats)


@njit(cache=True, inline="always")
def count(stats, slot, amount):  # type: ignore[no-untyped-def]
    """Add ``amount`` to the counter ``slot`` of ``stats`` when it has one (see COUNT_*)."""
    if stats.shape[0] > slot:
        stats[slot] += amount


@njit(cache=True, inline="always")
def full_stats(stats):  # type: ignore[no-untyped-def]
    """Whether ``stats`` has the counters and the ordering memory (:data:`STATS_SIZE` slots):
    the pruning and the history need them; a shorter ``stats`` searches without."""
    return stats.shape[0] >= STATS_SIZE


@lean()
def history_order(side, ply, n, ctx, st, stats):  # type: ignore[no-untyped-def]
    """Reorder the ply's ``n`` moves past the first ``P_HISTORY`` (the best by gain, the
    table's move among them; one when the history is off): the ply's killers first (with
    ``P_KILLERS``), then by history score (with ``P_HISTORY``), stable, so without either
    memory the gain order stays. Moves outside the beam are not added."""
    params = ctx[10]
    use_history = params[P_HISTORY] > 0
    start = params[P_HISTORY] if use_history else 1
    moves, keys = st[8][ply], st[9][ply]
    first = second = -1
    if params[P_KILLERS] > 0 and ply < KILLER_PLIES:
        first = stats[KILLERS_AT + 2 * ply] - 1
        second = stats[KILLERS_AT + 2 * ply + 1] - 1
    base = HISTORY_AT + side * MAX_CELLS
    for i in range(start, n):
        cell = moves[i]
        key = stats[base + cell] if use_history else 0
        if cell == first:
            key += 2 * KILLER_BONUS
        elif cell == second:
            key += KILLER_BONUS
        keys[i] = key
    for i in range(start + 1, n):
        cell, key = moves[i], keys[i]
        j = i
        while j > start and keys[j - 1] < key:
            moves[j], keys[j] = moves[j - 1], keys[j - 1]
            j -= 1
        moves[j], keys[j] = cell, key


@lean()
def remember(cell, side, ply, depth, ctx, stats):  # type: ignore[no-untyped-def]
    """A quiet move of a beam caused a cut-off: its history score grows by ``depth**2`` and
    it becomes the ply's first killer."""
    params = ctx[10]
    if params[P_HISTORY] > 0:
        stats[HISTORY_AT + side * MAX_CELLS + cell] += depth * depth
    if params[P_KILLERS] > 0 and ply < KILLER_PLIES:
        at = KILLERS_AT + 2 * ply
        if stats[at] != cell + 1:
            stats[at + 1] = stats[at]
            stats[at] = cell + 1


@lean()
def early_cut(side, ply, depth, alpha, beta, ctx, st, stats):  # type: ignore[no-untyped-def]
    """What an unthreatened heuristic node (no win cell, open three or VCF of the opponent's)
    may do before its moves, and its evaluation ``static`` (read only when a cut can use it
    at this depth, or for ``P_IMPROVING``; else ``NO_EVAL``): ``(value, 1, static)`` return
    ``value`` (reverse futility: the evaluation stays at or above ``beta`` by
    ``P_FUTILITY_MARGIN`` a ply; or razoring: it stays below ``alpha`` by ``P_RAZOR_MARGIN``
    a ply), ``(reduction, 2, static)`` try a null move reduced by that many plies more than
    one (the evaluation reaches ``beta``, the depth is ``P_NULL_DEPTH`` or more, the parent's
    move was no null move), else ``(0, 0, static)``. Only inside the heuristic range: a
    window at a decided value is never cut so."""
    params = ctx[10]
    null_depth, futility_depth = params[P_NULL_DEPTH], params[P_FUTILITY_DEPTH]
    razor_depth = params[P_RAZOR_DEPTH]
    can_null = null_depth > 0 and depth >= null_depth and stats[S_NULL_CHILD] != ply
    can_cut = futility_depth > 0 and depth <= futility_depth
    can_razor = razor_depth > 0 and depth <= razor_depth and alpha > -HEURISTIC_LIMIT
    cuts = (can_null or can_cut or can_razor) and -HEURISTIC_LIMIT < beta < HEURISTIC_LIMIT
    if not cuts and params[P_IMPROVING] <= 0:
        return 0, 0, NO_EVAL
    static = evaluate(side, ctx, st)
    if not cuts:
        return 0, 0, static
    if can_cut and static - params[P_FUTILITY_MARGIN] * depth >= beta:
        stats[COUNT_FUTILITY] += 1
        return static, 1, static
    if can_razor and static + params[P_RAZOR_MARGIN] * depth <= alpha:
        stats[COUNT_RAZOR] += 1
        return static, 1, static
    if can_null and static >= beta:
        stats[COUNT_NULL_TRIED] += 1
        return params[P_NULL_REDUCTION] + depth // 4, 2, static
    return 0, 0, static


@lean()
def improving(ply, static, stats):  # type: ignore[no-untyped-def]
    """Whether a node of evaluation ``static`` (``NO_EVAL``: none) improves on its side's
    node two plies up (``stats[EVALS_AT:]``); a node without both counts as improving."""
    if static == NO_EVAL or ply < 3 or ply >= KILLER_PLIES:
        return True
    before = stats[EVALS_AT + ply - 2]
    return before == NO_EVAL or static > before


@njit(cache=True, inline="always")
def pass_turn(st):  # type: ignore[no-untyped-def]
    """Flip every symmetric image's hash by :data:`NULL_KEY` (twice: back): the boards of a
    null move's subtree, the other side to move, keyed apart from the same boards in play."""
    hashes = st[6]
    for s in range(hashes.shape[0]):
        hashes[s] ^= NULL_KEY


@lean()
def reduction(depth, i, rising, ctx):  # type: ignore[no-untyped-def]
    """Plies a late quiet move ``i`` of a beam at ``depth`` loses: one, two for the latest of
    a deep node (:data:`LMR2_FROM`, :data:`LMR2_DEPTH`); with ``P_LMR_LOG``
    ``log(depth) * log(i + 1)`` over it (hundredths), a ply more when it is over one and the
    node is not ``rising`` (with ``P_IMPROVING``), at least one, at most ``depth - 1``."""
    params = ctx[10]
    divisor = params[P_LMR_LOG]
    if divisor <= 0:
        return 2 if depth >= LMR2_DEPTH and i >= LMR2_FROM else 1
    r = np.int64(np.log(depth) * np.log(i + 1) * 100.0 / divisor)
    if params[P_IMPROVING] > 0 and not rising and r > 1:
        r += 1
    return min(max(r, 1), depth - 1)


@lean()
def move_limit(depth, n, shaping, rising, ctx):  # type: ignore[no-untyped-def]
    """The quiet moves a beam node tries: ``P_MOVE_COUNT_BASE + depth**2`` (times
    ``P_MOVE_COUNT_SCALE`` hundredths when that is set) at a depth of ``P_MOVE_COUNT_DEPTH``
    or less (move-count pruning), or with ``P_MOVE_COUNT_POWER`` ``3 + depth**(power / 100)``
    at every depth; half as many when the node is not ``rising`` (with ``P_IMPROVING``);
    else all ``n``."""
    params = ctx[10]
    if not shaping or depth <= 0:
        return n
    power = params[P_MOVE_COUNT_POWER]
    if power > 0:
        limit = 3 + np.int64(depth ** (power / 100.0))
    elif depth <= params[P_MOVE_COUNT_DEPTH]:
        scale = params[P_MOVE_COUNT_SCALE]
        square = depth * depth if scale <= 0 else depth * depth * scale // 100
        limit = params[P_MOVE_COUNT_BASE] + square
    else:
        return n
    if params[P_IMPROVING] > 0 and not rising:
        limit //= 2
    return min(n, limit)


@lean()
def singular_value(ply, depth, table_move, slot, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """The table's value a heuristic node's table move is tested against for singularity
    (the other moves must stay ``P_SINGULAR_MARGIN`` a ply below it), or ``-INF`` for no
    test: the test needs at least ``P_SINGULAR_DEPTH`` plies to go, a table entry of this board
    (``table_move`` an empty cell) that is a heuristic lower bound or value at most
    :data:`SINGULAR_DRAFT` plies shallower, and no such test running at this ply already."""
    params = ctx[10]
    least = params[P_SINGULAR_DEPTH]
    if least <= 0 or depth < least or table_move < 0 or st[4][table_move] != 0:
        return -INF
    if not full_stats(stats) or ply >= KILLER_PLIES or stats[SKIPS_AT + ply] != 0:
        return -INF
    if tt[2][slot] == UPPER or tt[3][slot] < depth - SINGULAR_DRAFT:
        return -INF
    value = from_table(tt[1][slot], ply)
    if abs(value) >= HEURISTIC_LIMIT:
        return -INF
    return value


@lean()
def keep_eval(ply, static, skip, stats):  # type: ignore[no-untyped-def]
    """Keep a node's evaluation (``NO_EVAL``: none) for :func:`improving` two plies down;
    a singular extension's test of the node (``skip`` a cell) keeps the node's own."""
    if full_stats(stats) and ply < KILLER_PLIES and skip < 0:
        stats[EVALS_AT + ply] = static


@lean(NEGAMAX_SIGNATURE)
def negamax(side, ply, depth, alpha, beta, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """Value of a running position for ``side`` (to move), searched ``depth`` plies.

    Returns a root-relative value; sets ``stats[3]`` and returns 0 when the node budget or the
    deadline runs out (the caller must discard it)."""
    stats[0] += 1
    if stats[0] >= stats[2] or past_deadline(stats[0], stats[4]):
        stats[2] = 0
        stats[3] = 1
        return 0
    counts = st[3]
    if counts[side] > 0:
        return WIN - (ply + 1)
    empties = ctx[10][P_CELLS] - counts[2]
    if empties == 0:
        return 0
    opp = 1 - side
    threats, block = win_cells(opp, ctx, st)
    if threats >= 2:
        return -(WIN - (ply + 2))
    exact = depth >= empties
    if depth <= 0 and threats == 0:  # a forced block is searched past the horizon
        return leaf(side, ply, ctx, st, stats)
    alpha = max(alpha, -(WIN - (ply + 2)))
    beta = min(beta, WIN - (ply + 3))
    if alpha >= beta:
        return alpha
    alpha_start = alpha
    static = NO_EVAL  # the node's evaluation, when it is an unthreatened heuristic one
    # A singular extension's test of this node: searched without that move, no table, no
    # threat scan or early cut (the node itself did those), nothing stored.
    skip = stats[SKIPS_AT + ply] - 1 if full_stats(stats) and ply < KILLER_PLIES else -1
    # Counted from before the probe: a heuristic entry that narrows the window (the probe
    # counts it as a horizon leaf) makes the result rest on it, however exact all below is.
    horizon_before, bounded_before = stats[1], stats[6]
    slot, key, sym, table_move, value, bound = probe(ply, depth, ctx, st, tt, stats)
    if skip >= 0:
        table_move, bound = -1, -1
    if bound == EXACT:
        return value
    if bound == LOWER:
        alpha = max(alpha, value)
    elif bound == UPPER:
        beta = min(beta, value)
    if alpha >= beta:
        return value
    # A forced block is searched past the horizon too (a line of fours to its end);
    # answering an open three or a VCF tries the defences only (:func:`defences`).
    defend = 0
    extended, extension = -1, 0  # the table's move when tested: its depth's change
    if threats == 1:
        keep_eval(ply, static, skip, stats)
        st[8][ply, 0] = block
        n, pruned = 1, False
    else:
        threat = 0
        if not exact and skip < 0:
            found, threat = threat_scan(side, ply, depth, ctx, st, stats)
            if stats[3]:
                return 0
            if found:
                stats[6] += 1
                return WIN - (ply + found)
        defend = 0 if exact else threatened(side, ply, threat, ctx, st)
        quiet = not exact and defend == 0 and threat == 0 and full_stats(stats) and skip < 0
        amount, action = 0, 0
        if quiet:
            amount, action, static = early_cut(side, ply, depth, alpha, beta, ctx, st, stats)
        keep_eval(ply, static, skip, stats)  # before any search below this node reads it
        if action == 1:
            stats[1] += 1  # pruned: a heuristic value
            return amount
        if action == 2:
            # Null move: the opponent moves twice; when even that stays at or above beta,
            # so (almost surely) does the node. Its subtree is keyed apart (pass_turn).
            pass_turn(st)
            parent = stats[S_NULL_CHILD]
            stats[S_NULL_CHILD] = ply + 1
            value = -negamax(opp, ply + 1, depth - 1 - amount, -beta, -beta + 1, ctx, st, tt, stats)
            stats[S_NULL_CHILD] = parent
            pass_turn(st)
            if stats[3]:
                return 0
            if value >= beta:
                count(stats, COUNT_NULL_CUT, 1)
                stats[1] += 1
                return beta
        held_value = -INF
        if quiet:
            held_value = singular_value(ply, depth, table_move, slot, ctx, st, tt, stats)
        if held_value > -INF:
            # Every other move stays below the table's value by the margin: the table's
            # move alone holds the node, and is searched deeper; multi-cut when even
            # the others reach beta.
            test = held_value - ctx[10][P_SINGULAR_MARGIN] * depth
            stats[SKIPS_AT + ply] = table_move + 1
            value = negamax(side, ply, depth // 2, test - 1, test, ctx, st, tt, stats)
            stats[SKIPS_AT + ply] = 0
            if stats[3]:
                return 0
            if value < test:
                extended, extension = table_move, 1
                stats[COUNT_SINGULAR] += 1
            elif test >= beta:
                stats[1] += 1  # pruned: a heuristic bound
                return test
            elif held_value >= beta:
                # Others hold too and the table's value reaches beta: the node will likely
                # fail high anyway, so the table's move costs less.
                extended, extension = table_move, -ctx[10][P_SINGULAR_REDUCE]
        if defend:
            n, pruned = defences(side, ply, threat, defend == 2, ctx, st)
        else:
            n, pruned = candidates(side, ply, exact, threat, ctx, st)
            if pruned and depth <= 1:
                n = min(n, FRONTIER_WIDTH)
        if table_move >= 0 and st[4][table_move] == 0:
            n = to_front(table_move, n, ply, defend == 0, st)
    # A heuristic beam, not defending: its late quiet moves are reduced or pruned, and the
    # search's memory of cut-offs orders it.
    shaping = pruned and not defend and not exact
    memory = shaping and full_stats(stats)
    if memory and (ctx[10][P_HISTORY] > 0 or ctx[10][P_KILLERS] > 0):
        history_order(side, ply, n, ctx, st, stats)
    rising = improving(ply, static, stats)
    limit = move_limit(depth, n, memory, rising, ctx)
    pvs = ctx[10][P_PVS] > 0
    # Answering an open three or blocking a four, the replies are searched deeper: the
    # attacker's line of threats then costs its own moves only (each still spends a ply).
    child = depth - 1
    if threats == 1:
        child += ctx[10][P_FOUR_EXTENSION]
    elif defend == 2:
        child += ctx[10][P_THREE_EXTENSION]
    best, best_cell = -INF, st[8][ply, 0]
    for i in range(n):
        cell = st[8][ply, i]
        if cell == skip:
            continue
        deeper = child + extension if cell == extended else child
        # Late move reduction: a late quiet move of the beam is searched shallower (see
        # reduction) with a null window first, and again only when it beats alpha; past the
        # move count it is not searched at all. With PVS (principal-variation search) every
        # move after the first gets a null window at the full depth too, and the full window
        # only when its value lands inside (alpha, beta): outside, the value is a bound of the
        # side it fell on, stored as such below (UPPER at or under alpha_start, else LOWER).
        cut = 0
        late = shaping and i >= LMR_FROM and (depth >= LMR_DEPTH or i >= limit)
        if late and not makes_four(cell, side, ctx, st):
            if i >= limit:
                count(stats, COUNT_MOVE_COUNT, 1)
                continue
            if depth >= LMR_DEPTH:
                cut = 1 + reduction(depth, i, rising, ctx)
        make(cell, side, ctx, st)
        value, final = alpha + 1, False  # searched in full unless a null window settles it
        if cut:
            value = -negamax(opp, ply + 1, depth - cut, -alpha - 1, -alpha, ctx, st, tt, stats)
        if pvs and i > 0 and value > alpha and beta > alpha + 1 and not stats[3]:
            value = -negamax(opp, ply + 1, deeper, -alpha - 1, -alpha, ctx, st, tt, stats)
            final = value >= beta  # a lower bound at or above beta: the cut-off as it stands
        if value > alpha and not final and not stats[3]:
            value = -negamax(opp, ply + 1, deeper, -beta, -alpha, ctx, st, tt, stats)
        unmake(cell, side, ctx, st)
        if stats[3]:
            return 0
        if value > best:
            best, best_cell = value, cell
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    if memory and not makes_four(cell, side, ctx, st):
                        remember(cell, side, ply, depth, ctx, stats)
                    break
    if pruned and best < MATE:
        stats[1] += 1
        if best < -MATE:
            best = -HEURISTIC_LIMIT
    elif pruned:
        stats[6] += 1  # a win among the beam: a sooner one may lie outside it
    kind = UPPER if best <= alpha_start else LOWER if best >= beta else EXACT
    # Good at every depth only when nothing below stopped short of the end: a horizon leaf
    # made it a heuristic value, a proof or a beam's win a distance that is only a bound,
    # which a later exact search of this board must not read as exact.
    full = stats[1] == horizon_before and stats[6] == bounded_before
    draft = FULL_DRAFT if full else depth
    if skip < 0:
        store(slot, key, sym, best, kind, draft, best_cell, ply, ctx, tt)
    return best


@lean()
def root_vct(side, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """The side to move's shortest win by threats (fours and threes, one threat deeper at a
    time) at the root, within its share of the time left (its nodes without a clock):
    ``(cell, plies)`` or ``(-1, 0)``; the move is kept in the table."""
    params = ctx[10]
    before = stats[0]
    until = share_until(params[P_ROOT_VCT_SHARE], stats)
    nodes = params[P_ROOT_VCT_NODES]
    found = threats_until(side, params[P_VCT], 0, nodes, until, ctx, st, stats)
    count(stats, COUNT_OWN_NODES, stats[0] - before)
    if not found or stats[3]:
        return -1, 0
    count(stats, COUNT_OWN, 1)
    key, sym = canonical(st, ctx)
    slot = np.int64(key % np.uint64(tt[0].shape[0]))
    store(slot, key, sym, WIN - found, LOWER, FULL_DRAFT, st[10][0], 0, ctx, tt)
    return st[10][0], found


@lean()
def share_until(share, stats):  # type: ignore[no-untyped-def]
    """The clock time (``stats[4]``'s units) ``share`` thousandths of the way from now to the
    search's deadline; that deadline itself when there is none or the share is whole."""
    deadline = stats[4]
    if deadline == NO_DEADLINE or share >= SHARE_SCALE:
        return deadline
    t = now() * 1e9
    if t < 0:  # Ctrl-C: the search's own check stops it
        return deadline
    return np.int64(t + (deadline - t) * (share / SHARE_SCALE))


@lean()
def threats_until(side, threats, ply, nodes, until, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The plies of ``side``'s shortest win by threats (to move; one threat deeper at a time,
    at most ``threats``), its first move in ``st[10][ply]``, or 0: looked for before the clock
    time ``until`` (earlier than the search's deadline: a share of it), within ``nodes`` nodes
    when the search has no clock. Reaching ``until`` ends this look only, the search goes on;
    the search's own budget and deadline stop both (``stats[3]`` stays set, 0 returned)."""
    budget, deadline = stats[2], stats[4]
    stats[4] = min(until, deadline)
    stats[5] = nodes if deadline == NO_DEADLINE else TIMED_NODES
    found = vct_deepening(side, threats, ply, ctx, st, stats)
    stats[4] = deadline
    if stats[3]:
        found = 0
        if stats[0] < budget and not clock_reached(deadline):
            stats[2], stats[3] = budget, 0
    return found


@lean()
def root_vcf(side, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """The side to move's shortest VCF at the root, its line kept in the table (attacker's
    moves and forced replies) so that the principal variation follows it: ``(cell, plies)``
    or ``(-1, 0)``."""
    params = ctx[10]
    found = shortest_vcf(side, params[P_VCF_ROOT], 0, params[P_VCF_NODES], ctx, st, stats)
    if not found:
        return root_vct(side, ctx, st, tt, stats)
    line = st[10]
    for i in range(found - 2):  # the attacker's fours and the forced replies between them
        mover = side if i % 2 == 0 else 1 - side
        key, sym = canonical(st, ctx)
        slot = np.int64(key % np.uint64(tt[0].shape[0]))
        if mover == side:
            store(slot, key, sym, WIN - (found - i), LOWER, FULL_DRAFT, line[i], 0, ctx, tt)
        else:
            store(slot, key, sym, -(WIN - (found - i)), UPPER, FULL_DRAFT, line[i], 0, ctx, tt)
        make(line[i], mover, ctx, st)
    for i in range(found - 3, -1, -1):
        unmake(line[i], side if i % 2 == 0 else 1 - side, ctx, st)
    return line[0], found


@lean()
def root_threat(opp, threes, ctx, st, stats):  # type: ignore[no-untyped-def]
    """The opponent's threat at the root, as if it moved: the plies of its VCF (the line in
    ``st[10]``), else (``threes``) 2 when it has a win by threes (its first move in
    ``st[10][0]``; looked for within its share of the time left), else 0; the root tries
    those cells first."""
    params = ctx[10]
    found = shortest_vcf(opp, params[P_VCF_LEAF], 0, LEAF_VCF_NODES, ctx, st, stats)
    if found or stats[3] or not threes:
        return found
    before = stats[0]
    until = share_until(params[P_THREAT_SHARE], stats)
    nodes = params[P_THREAT_NODES]
    found = threats_until(opp, params[P_THREAT_THREATS], 0, nodes, until, ctx, st, stats)
    count(stats, COUNT_THREAT_NODES, stats[0] - before)
    if found:
        count(stats, COUNT_THREAT, 1)
    return 2 if found else 0


@allocating()
def search_root(side, depth, first, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """``(best_cell, value)`` of a running position for ``side``; ``first`` (a cell or -1) is
    tried first. ``stats[3]`` set on return means aborted: the value is the best so far and
    the cell the best so far, at worst ``first`` (else the first by gain): a move is always
    ready, even from a search whose deadline has passed before it starts, and it is not
    ``first`` only when ``first`` was searched to the end and that move beat it."""
    stats[0] += 1
    counts = st[3]
    opp = 1 - side
    wins, cell = win_cells(side, ctx, st)
    if wins:
        return cell, WIN - 1
    threats, block = win_cells(opp, ctx, st)
    if threats >= 2:
        return block, -(WIN - 2)
    exact = depth >= ctx[10][P_CELLS] - counts[2]
    ready = block
    if threats == 0:
        candidates(side, 0, exact, 0, ctx, st)  # cheap: one pass over the cells
        ready = first if first >= 0 and st[4][first] == 0 else st[8][0, 0]
    if past_deadline(stats[0], stats[4]):
        stats[3] = 1
        return ready, -INF
    # The proofs do not depend on the depth: iterative deepening runs them once, on its first
    # search (no move to try first); a one-shot search runs them too.
    proofs = not exact and first < 0
    if proofs:
        cell, plies = root_vcf(side, ctx, st, tt, stats)
        if stats[3]:
            return ready, -INF
        if plies:
            if plies > EXACT_PROOF_PLIES:
                stats[6] += 1
            return cell, WIN - plies
    until = 0  # the clock time until which root moves are checked against a VCT: none
    if threats == 1:
        st[8][0, 0] = block
        n, pruned = 1, False
    else:
        threat = 0 if exact else root_threat(opp, proofs, ctx, st, stats)
        if stats[3]:
            return ready, -INF
        defend = 0 if exact else threatened(side, 0, threat, ctx, st)
        if defend:
            n, pruned = defences(side, 0, threat, defend == 2, ctx, st)
        else:
            n, pruned = candidates(side, 0, exact, threat, ctx, st)
        if threat == 2 and ctx[10][P_REFUTE_SHARE] > 0:
            # The opponent wins by threats: the four-makers (its, to stop a three first; ours,
            # to force) join the beam, and every move is checked against its VCT.
            n = add_four_cells(opp, st[8][0], n, ctx, st)
            n = add_four_cells(side, st[8][0], n, ctx, st)
            until = share_until(ctx[10][P_REFUTE_SHARE], stats)
        if first >= 0 and st[4][first] == 0:
            n = to_front(first, n, 0, True, st)
    refute = -1 if exact else 1 if proofs else 0
    tried = np.zeros(ctx[10][P_CELLS], dtype=np.bool_)
    low, high = aspiration(depth, first, ctx, tt)
    best_cell, alpha = root_moves(
        n, side, depth, low, high, refute, until, tried, ctx, st, tt, stats
    )
    if not stats[3] and not low < alpha < high and (low > -INF or high < INF):
        # Outside the aspiration window: a bound only. Searched again with the full window,
        # the move that failed high (if one did) first.
        if alpha >= high:
            to_front(best_cell, n, 0, False, st)
        best_cell, alpha = root_moves(
            n, side, depth, -INF, INF, refute, until, tried, ctx, st, tt, stats
        )
    if stats[3]:
        return best_cell, alpha
    if pruned and alpha < -MATE:
        # Every move tried loses: a loss is claimed only once every other move has lost too.
        order = ctx[9]
        for i in range(ctx[10][P_CELLS]):
            cell = order[i]
            if st[4][cell] != 0 or tried[cell]:
                continue
            value = root_move(cell, side, depth, alpha, INF, False, 1, until, ctx, st, tt, stats)
            if stats[3]:
                return best_cell, alpha
            if value > alpha:
                best_cell, alpha = cell, value
        pruned = alpha > -MATE
    if pruned and alpha < MATE:
        stats[1] += 1
        if alpha < -MATE:
            alpha = -HEURISTIC_LIMIT
    elif pruned:
        stats[6] += 1
    tt[5][M_VALUE], tt[5][M_DEPTH] = alpha, depth
    return best_cell, alpha


@lean()
def aspiration(depth, first, ctx, tt):  # type: ignore[no-untyped-def]
    """The root's window ``(low, high)``: ``P_ASPIRATION`` either side of the value of the
    last root the table's memory completed when that was one ply shallower, this search has
    a move to try first (a later iteration of iterative deepening) and the value is
    heuristic; else the full window. A wrong centre (another position's) costs a second
    search, never a wrong value."""
    half, memory = ctx[10][P_ASPIRATION], tt[5]
    centre = memory[M_VALUE]
    if half <= 0 or first < 0 or memory[M_DEPTH] != depth - 1 or abs(centre) >= HEURISTIC_LIMIT:
        return -INF, INF
    return centre - half, centre + half


@lean()
def root_moves(n, side, depth, alpha, beta, refute, until, tried, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """``(best_cell, value)`` of the root's ``n`` moves (``st[8][0]``, marked in ``tried``)
    within ``(alpha, beta)``: ``alpha`` itself, the first move the cell, when none beats it;
    a value at or above ``beta`` ends the loop (a lower bound). With ``P_PVS`` the moves after
    the first are searched with a null window first. On ``stats[3]`` the best so far."""
    pvs = ctx[10][P_PVS] > 0
    best_cell = st[8][0, 0]
    for i in range(n):
        cell = st[8][0, i]
        tried[cell] = True
        scout = pvs and i > 0
        value = root_move(cell, side, depth, alpha, beta, scout, refute, until, ctx, st, tt, stats)
        if stats[3]:
            break
        if value > alpha:
            best_cell, alpha = cell, value
            if alpha >= beta:
                break
    return best_cell, alpha


@lean()
def root_move(cell, side, depth, alpha, beta, scout, refute, until, ctx, st, tt, stats):  # type: ignore[no-untyped-def]
    """The value of the root move ``cell`` searched ``depth - 1`` plies below (a fail-soft
    value against ``(alpha, beta)``; with ``scout`` a null window first, the full one only
    when the value lands inside). A move the opponent's VCF refutes is a proved loss, not searched:
    found when ``refute`` is 1 (the VCF looked for, its line's first move kept in the table;
    with ``until`` a clock time, not 0, its win by threats too until then) or read from the
    table (a later iteration) unless ``refute`` is -1 (an exact search, which must not read a
    distance that is only a bound)."""
    opp = 1 - side
    make(cell, side, ctx, st)
    key, sym = canonical(st, ctx)
    slot = np.int64(key % np.uint64(tt[0].shape[0]))
    value = 0
    known = tt[4][slot] >= 0 and tt[0][slot] == key and tt[3][slot] == FULL_DRAFT
    if known and refute >= 0 and tt[2][slot] == LOWER and from_table(tt[1][slot], 1) > MATE:
        value = -from_table(tt[1][slot], 1)
    elif refute > 0:
        found = shortest_vcf(opp, REFUTE_FOURS, 1, REFUTE_NODES, ctx, st, stats)
        if not found and until != 0 and not stats[3] and st[3][opp] == 0:
            found = refute_by_threats(opp, until, ctx, st, stats)
        if found and not stats[3]:
            value = -(WIN - (1 + found))
            store(slot, key, sym, -value, LOWER, FULL_DRAFT, st[10][1], 1, ctx, tt)
    if value != 0:
        stats[6] += 1  # a loss within the line's plies: the distance is a bound
    elif not stats[3]:
        value = alpha + 1  # searched in full unless the null window settles it
        if scout:
            value = -negamax(opp, 1, depth - 1, -alpha - 1, -alpha, ctx, st, tt, stats)
        if value > alpha and not (scout and value >= beta) and not stats[3]:
            value = -negamax(opp, 1, depth - 1, -beta, -alpha, ctx, st, tt, stats)
    unmake(cell, side, ctx, st)
    return value


@lean()
def refute_by_threats(opp, until, ctx, st, stats):  # type: ignore[no-untyped-def]
    """After a root move: the plies of the opponent's win by threats (to move, no win cell;
    its first move in ``st[10][1]``) looked for until the clock time ``until``, or 0."""
    params = ctx[10]
    before = stats[0]
    nodes = params[P_THREAT_NODES]
    found = threats_until(opp, params[P_THREAT_THREATS], 1, nodes, until, ctx, st, stats)
    count(stats, COUNT_REFUTES, stats[0] - before)
    if found:
        count(stats, COUNT_REFUTED, 1)
    return found


@lean()
def table_move(ctx, st, tt):  # type: ignore[no-untyped-def]
    """The table's best cell for the current board, or -1."""
    key, sym = canonical(st, ctx)
    slot = np.int64(key % np.uint64(tt[0].shape[0]))
    if tt[4][slot] >= 0 and tt[0][slot] == key:
        return ctx[7][sym, tt[4][slot]]
    return -1
