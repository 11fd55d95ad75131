"""The layout of the big-board engine's parameters and counters, defined once (issue 26).

Numba-free: the driver (:mod:`.big_kernel`) fills the context's ``params`` by these indices
and sizes the search's ``stats`` by them, the compiled modules (:mod:`.board_compiled`,
:mod:`.threat_compiled`, :mod:`.big_compiled`) read them, so a parameter cannot land in the
wrong slot by the order of a list.

``params`` (the context's entry 10, int64[:data:`PARAMS_SIZE`]): what each ``P_*`` holds is
said where :func:`.big_kernel.static_context` fills it. The pruning parameters (``P_HISTORY``
on) are runtime choices, each 0 for off, so values are tried without a recompile.

``stats`` (int64[:data:`STATS_SIZE`], or only its first :data:`STATS_CORE` slots): the
search's own slots, then counters of what fired, then the ordering memory of one search
(history scores per side and cell, two killer moves per ply).
"""

from __future__ import annotations

from perfectplay.games.mnk.patterns import PATTERN_K, THREAT_CLASSES, radius

(
    P_CELLS,
    P_K,
    P_EXACT,
    P_NSYM,
    P_LINES,
    P_WIDTH,
    P_VCF_ROOT,
    P_VCF_LEAF,
    P_VCF_NODES,
    P_VCT,
    P_VCT_INNER_DEPTH,
    P_VCT_INNER_NODES,
    P_PATTERNS,
    P_RADIUS,
    P_ORDER,
    P_ATTACK,
    P_DEFEND,
    P_ROOT_VCT_SHARE,
    P_ROOT_VCT_NODES,
    P_THREAT_SHARE,
    P_THREAT_NODES,
    P_THREAT_THREATS,
    P_REFUTE_SHARE,
    P_INNER_VCT_THREATS,
    P_HISTORY,
    P_KILLERS,
    P_NULL_DEPTH,
    P_NULL_REDUCTION,
    P_FUTILITY_DEPTH,
    P_FUTILITY_MARGIN,
    P_MOVE_COUNT_DEPTH,
    P_MOVE_COUNT_BASE,
    P_LMR_LOG,
    P_PVS,
    P_KEEP_ORDER,
    P_ASPIRATION,
    P_MOVE_COUNT_SCALE,
    P_THREE_EXTENSION,
    P_FOUR_EXTENSION,
    P_VCT_PAST_FOURS,
    P_VCT_MOVES,
    P_VCT_TABLE,
    P_VCT_FOURS,
    P_THREAT_EVAL,
    P_RAZOR_DEPTH,
    P_RAZOR_MARGIN,
    P_IMPROVING,
    P_MOVE_COUNT_POWER,
    P_SINGULAR_DEPTH,
    P_SINGULAR_MARGIN,
    P_SINGULAR_REDUCE,
    PARAMS_SIZE,
) = range(52)
"""Indices of the context's parameters. The pruning ones (issue 26, each 0 = off):
``P_HISTORY`` the beam's moves kept first by gain before the rest go by history score;
``P_KILLERS`` 1 to try a ply's killer moves right after those; ``P_NULL_DEPTH`` the least
depth of a null move, ``P_NULL_REDUCTION`` its reduction (plus a ply per four of depth);
``P_FUTILITY_DEPTH`` the deepest node reverse futility prunes, ``P_FUTILITY_MARGIN`` its
margin per ply; ``P_MOVE_COUNT_DEPTH`` the deepest node that tries only its first
``P_MOVE_COUNT_BASE + depth**2`` quiet moves; ``P_LMR_LOG`` the divisor (hundredths) of the
logarithmic late move reductions, ``log(depth) * log(move)``.

Appended by issue 26's search work (each 0 = off): ``P_PVS`` 1 for principal-variation
search (every move after a node's first searched with a null window first); ``P_KEEP_ORDER``
the ordering memory's life (:data:`KEEP_FRESH`, :data:`KEEP_MOVE`, :data:`KEEP_AGED`);
``P_ASPIRATION`` the half-width of the root's aspiration window around the last iteration's
value; ``P_MOVE_COUNT_SCALE`` the move count's ``depth**2`` in hundredths (0: whole).
``P_THREE_EXTENSION`` (plies, 0 = off): a node answering an open three searches its defences
that much deeper (the attacker's threat line costs its own moves only); ``P_FOUR_EXTENSION``
the same for a forced block of the opponent's four. ``P_VCT_PAST_FOURS`` 1: the win by
threats looks past a defender's four made in answer to a three (0: such a four holds).
``P_VCT_MOVES`` the attacker's moves in the win by threats (``threat_compiled.VCT_ALL``: every
cell near a stone; ``VCT_THREATS``: with the pattern tables on, the cells making a four, an
open three or two threes; ``VCT_ANY_THREE``: those and every three); ``P_VCT_TABLE`` the log2
of the slots of the table one search by threats keeps its proofs and failures in (0: none);
``P_VCT_FOURS`` the longest VCF, in fours, a node of the win by threats looks for first (0:
``P_VCF_ROOT``'s, the root's). ``P_THREAT_EVAL`` the weight, in eighths, of the threat
table's value of the position's threat mask the evaluation adds (``board_compiled.
threat_mask``; 8: the table as fitted; 0: the cells' values alone).

Appended by session 17 (each 0 = off): ``P_RAZOR_DEPTH`` the deepest unthreatened node that
returns its evaluation when that stays below alpha by ``P_RAZOR_MARGIN`` a ply (razoring: the
node's own VCF has been looked for already); ``P_IMPROVING`` 1: a node whose evaluation is not
above its side's two plies earlier (not improving) tries half the move count's quiet moves
and reduces its late moves a ply more; ``P_MOVE_COUNT_POWER`` (hundredths): the move count
at every depth is ``3 + depth ** (P_MOVE_COUNT_POWER / 100)`` quiet moves (Rapfi's form)
instead of ``P_MOVE_COUNT_BASE + depth**2`` up to ``P_MOVE_COUNT_DEPTH``;
``P_SINGULAR_DEPTH`` the least depth of a singular extension (the table's move searched a ply
deeper when every other move, searched half as deep, stays below the table's value less
``P_SINGULAR_MARGIN`` a ply).

Appended by session 18 (0 = off): ``P_SINGULAR_REDUCE`` the plies a tested table move loses
when the test fails high below beta while the table's value reaches beta (the node will
likely fail high anyway: Rapfi's negative extension)."""

(
    S_NODES,
    S_HORIZON,
    S_BUDGET,
    S_ABORTED,
    S_DEADLINE,
    S_VCF_LEFT,
    S_BOUNDED,
    COUNT_OWN,
    COUNT_OWN_NODES,
    COUNT_THREAT,
    COUNT_THREAT_NODES,
    COUNT_REFUTED,
    COUNT_REFUTES,
    COUNT_NULL_TRIED,
    COUNT_NULL_CUT,
    COUNT_FUTILITY,
    COUNT_MOVE_COUNT,
    S_NULL_CHILD,
    COUNT_RAZOR,
    COUNT_SINGULAR,
    EVALS_AT,
) = range(21)
"""Slots of ``stats``: nodes, horizon leaves, node budget, aborted flag, deadline
(``time.perf_counter_ns`` units), VCF nodes left, bounded wins (the search's own: the first
:data:`STATS_CORE`); the root's own VCT found and its nodes, the opponent's VCT found at the
root and its nodes, root moves refuted by the opponent's VCT and the nodes those refutations
spent; null moves tried and those that cut, nodes cut by reverse futility, moves skipped by
the move count; the ply of a null move's child (no null move there: never two in a row);
nodes cut by razoring, table moves extended as singular; then one search's scratch by ply
(from :data:`EVALS_AT`) and the ordering memory (from :data:`HISTORY_AT`)."""
THREATS_AT = 8
"""The first slot of the state's ``counts`` (``st[3]``) counting the empty cells by threat
class (:data:`~.patterns.THREAT_CLASSES` slots for x, then as many for o); the slots before it
are said in :mod:`.board_compiled`."""
COUNTS_SIZE = THREATS_AT + 2 * THREAT_CLASSES
"""The length of the state's ``counts``."""
UNDO_SPAN = 2 * radius(PATTERN_K, True) + 1
"""The most cells of a line whose pattern codes a stone changes: the widest pattern's radius
each way (the exact rule's) and the stone's own cell."""
UNDO_CELL_SLOTS = 6
"""What a row of the state's undo rows keeps of each such cell: its code in the line's
direction for x and for o, then its four rows of values (``st[12]``)."""
UNDO_LINE_VALUES = COUNTS_SIZE
"""The first slot of an undo row after the saved ``counts``: the evaluation shares of the
stone's four lines (``st[7]``), then from :data:`UNDO_MAPS` their threat maps."""
UNDO_MAPS = UNDO_LINE_VALUES + 4
UNDO_CELLS = UNDO_MAPS + 16
"""The first slot of an undo row's cells (:data:`UNDO_CELL_SLOTS` each, :data:`UNDO_SPAN` a
direction)."""
UNDO_SIZE = UNDO_CELLS + 4 * UNDO_SPAN * UNDO_CELL_SLOTS
"""The length of an undo row (:mod:`.board_compiled`, the state's ``undo``)."""
STATS_CORE = COUNT_OWN
"""The slots every caller of the compiled search gives; the counters and the ordering memory
are used only when ``stats`` is :data:`STATS_SIZE` long."""
MAX_CELLS = 400
"""The most cells of a board (20x20): the history has a score per side and cell."""
KILLER_PLIES = 512
"""Plies with killer, evaluation and skip slots (deeper plies keep none)."""
NO_EVAL = -(1 << 62)
"""An evaluation slot's value when its ply's node did not evaluate (threatened, exact or a
forced block): the node below counts as improving."""
SKIPS_AT = EVALS_AT + KILLER_PLIES
"""The first slot of the moves left out by ply (one per ply of :data:`KILLER_PLIES`; a cell
plus one, 0 for none): a singular extension's test searches its node without the table's
move. The evaluations by ply come before them, from :data:`EVALS_AT` (see :data:`NO_EVAL`):
whether a node improves on its side's node two plies up. Both are one search's scratch,
kept apart from the ordering memory that follows."""
HISTORY_AT = SKIPS_AT + KILLER_PLIES
"""The first slot of the ordering memory: the history scores (one per side and cell)."""
KILLERS_AT = HISTORY_AT + 2 * MAX_CELLS
"""The first killer slot: two per ply (a cell, or 0 for none: cells are stored plus one)."""
STATS_SIZE = KILLERS_AT + 2 * KILLER_PLIES
"""The full length of ``stats``."""
KEEP_FRESH, KEEP_MOVE, KEEP_AGED = range(3)
"""Values of ``P_KEEP_ORDER``: the history and killers start empty each iteration of the
iterative deepening; kept over the iterations of one move's search, emptied when the next
move's starts; kept, the history halved (the killers emptied) when the next move's starts."""
ORDER_SIZE = STATS_SIZE - HISTORY_AT
"""The ordering memory's slots (history and killers), as ``stats`` holds them from
:data:`HISTORY_AT`."""
M_VALUE, M_DEPTH = ORDER_SIZE, ORDER_SIZE + 1
"""Slots of the table's memory (its last array) after the ordering memory: the value and
depth of the last iteration the root completed (the aspiration window's centre)."""
MEMORY_SIZE = ORDER_SIZE + 2
"""The length of the table's memory array."""
