"""The big-board m,n,k kernel driver: boards past 64 cells (up to 20x20) and the exact rule.

Layers, bottom up (each a module of this package)::

    lines.py            the line layout: every row, column and diagonal as a bit line
    board_compiled.py   numba: the incremental board (stones, threat maps, evaluation per line)
    threat_compiled.py  numba: VCF and VCT, the proof searches by fours and threes
    big_compiled.py     numba: negamax alpha-beta with the Zobrist table, proofs inside
    big_kernel.py       this driver: positions in, moves and values out (the Kernel protocol)

The game hands this kernel out for boards the one-word kernel of :mod:`.kernel` cannot hold
(more than 64 cells) and for the exact rule (see ``MNKSpec.exactly``). Searches as deep as the
empty cells are exact (every move tried); shallower ones are heuristic with VCF and VCT
proofs, so a decisive value reported is always a proved one, its distance an upper bound
(``KernelTraits.bounded_distances``: the search reports such a decision as a horizon).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.common.grid import bit_indices
from perfectplay.games.interrupt import deadline_ns
from perfectplay.games.kernel import (
    DEFAULT_CONTROLS,
    CompiledEngine,
    KernelBase,
    KernelOptions,
    KernelResult,
    KernelTraits,
    SearchControls,
    check_table_memory,
    follow_table,
)
from perfectplay.games.mnk import context_layout as slots
from perfectplay.games.mnk.context_layout import (
    HISTORY_AT,
    KEEP_AGED,
    KEEP_FRESH,
    KILLERS_AT,
    M_DEPTH,
    MEMORY_SIZE,
    ORDER_SIZE,
    P_ATTACK,
    P_DEFEND,
    P_KEEP_ORDER,
    P_PATTERNS,
    STATS_SIZE,
)
from perfectplay.games.mnk.lines import (
    centre_order,
    evaluation_weights,
    line_layout,
    neighbourhoods,
    permutations,
    zobrist_keys,
)
from perfectplay.games.mnk.pattern_classes import scoring_table, threat_table, value_table
from perfectplay.games.mnk.pattern_values import (
    CLASS_VALUE_COUNT,
    NAMED_VALUES,
    PLAYED_THREATS,
    PLAYED_VALUES,
    VALUE_COUNT,
    Values,
    any_values_from,
)
from perfectplay.games.mnk.patterns import (
    PATTERN_K,
    PATTERNS_EVAL,
    PATTERNS_OFF,
    PATTERNS_ORDER,
    pattern_table,
    radius,
)
from perfectplay.values import UNLIMITED_NODES

if TYPE_CHECKING:
    from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition, MNKSpec

ENGINE = CompiledEngine(
    label="the big-board m,n,k engine (Gomoku)",
    compile_seconds=200,
    entry_points=(
        ("perfectplay.games.mnk.big_compiled", ("search_root", "table_move")),
        ("perfectplay.games.common.compiled_bits", ("now",)),
    ),
)
"""The compiled search of boards past 64 cells and of the exact rule, and the clock."""
MAX_BIG_SIZE = 20
"""The largest board side the line layout holds (a line's bits fit one word with room for
the shifts)."""
BEAM_WIDTH = 12
"""Moves a heuristic node tries (the best by gain)."""
ROOT_VCF_FOURS = 16
"""Longest VCF the root looks for, in fours."""
LEAF_VCF_FOURS = 3
"""Longest VCF a horizon leaf looks for, in fours."""
ROOT_VCF_NODES = 50_000
"""VCF nodes the root may spend (once per timed search: on its first iteration)."""
ROOT_VCT_THREATS = 4
"""Deepest win by threats (fours and threes) the root looks for, in threats (one deeper at a
time, within its share of the turn)."""
ROOT_VCT_SHARE = 100
"""Thousandths of the time left that the root spends at most looking for its own win by
threats (a timed search's first iteration; issue 26: a few thousand nodes were a small share
of a turn of a second)."""
ROOT_VCT_NODES = 6_000
"""Nodes that look may spend when the search has no clock (about a tenth of a second)."""
THREAT_SHARE = 100
"""Thousandths of the time left that the root spends at most looking for the opponent's win
by threats (to defend first)."""
THREAT_NODES = 3_000
"""Nodes that look may spend when the search has no clock."""
THREAT_THREATS = 3
"""Deepest win by threats of the opponent's the root looks for, in threats."""
REFUTE_SHARE = 100
"""Thousandths of the time left that the root spends at most checking its moves against the
opponent's win by threats, when the opponent has one: a move after which it still has one is
a proved loss (0: not checked)."""
INNER_VCT_THREATS = 2
"""Deepest win by threats an inner node looks for, in threats (a three, then a VCF)."""
INNER_VCT_DEPTH = 5
"""An inner node with at least this many plies left to search looks for its side's win by
threats (nodes near the root: few, and a proof there cuts a whole subtree)."""
INNER_VCT_NODES = 400
"""Nodes such a look may spend."""
MAX_WEIGHT = 1 << 24
"""The largest evaluation weight: its sum over every window of a 20x20 board stays far inside
64 bits (the evaluation is clamped to the heuristic range afterwards)."""
DEFAULT_PATTERN_MODE = PATTERNS_EVAL
"""The pattern mode the kernel plays with (``k`` = 5; other ``k`` have no tables): the tables
evaluate (with :data:`~.pattern_values.PLAYED_VALUES`, fitted to Rapfi's values) and order the
moves with the window scan. Chosen by matches against Rapfi in issue 26 (BENCHMARKS.md,
"Gomoku: the evaluation's values tuned": with the fitted values the tables beat main's
window evaluation at 3,000 and 6,000 Rapfi nodes; with the hand-set values they had lost);
:func:`with_patterns` sets another mode or set of values on a context (tests, tuning). With
explicit window weights (``KernelOptions.evaluation``) the window scan evaluates, the tables
ordering the moves."""
PATTERN_ORDER = 2
"""What orders the moves with the tables on (``board_compiled.ORDER_*``: 0 the window scan,
1 the cells' pattern values, 2 their sum)."""
HISTORY_KEEP = 3
"""The beam's moves kept first by gain before the rest are ordered by their history score
(cut-offs they caused in this search; 0: no history order). The pruning's defaults here are
"V2" of issue 26's measures (BENCHMARKS.md, "Gomoku: a narrower search"): 26 % fewer nodes
to depth 8, half a ply deeper at a fixed node budget; null move off (it seldom cuts)."""
KILLERS = 1
"""1: a ply's two latest cut-off moves are tried right after those (0: not)."""
NULL_DEPTH = 0
"""The least depth at which an unthreatened heuristic node whose evaluation reaches beta
tries a null move (0: never)."""
NULL_REDUCTION = 2
"""A null move's reduction in plies, plus one per four plies of depth."""
FUTILITY_DEPTH = 4
"""The deepest unthreatened heuristic node that returns its evaluation when it stays at or
above beta by the margin times its depth (reverse futility; 0: never)."""
FUTILITY_MARGIN = 80
"""That margin per ply, in the evaluation's units."""
MOVE_COUNT_DEPTH = 4
"""The deepest heuristic node that tries only its first ``MOVE_COUNT_BASE + depth**2`` quiet
moves (moves making a four are always tried; 0: no move-count pruning)."""
MOVE_COUNT_BASE = 1
"""See :data:`MOVE_COUNT_DEPTH`."""
LMR_LOG = 150
"""Late move reductions of ``log(depth) * log(move) * 100 / LMR_LOG`` plies (at least one)
instead of the fixed one or two (0: the fixed ones)."""
PVS = 0
"""1: principal-variation search, in the beam and at the root (0: every move with the full
window; issue 26, "Gomoku: principal-variation search and lasting ordering memory")."""
KEEP_ORDER = 0
"""How long the history and killers last (``context_layout.KEEP_*``): 0 one iteration, 1
one move's search, 2 that and halved into the next move's."""
ASPIRATION = 0
"""Half the root's aspiration window around the last iteration's value (0: full window)."""
MOVE_COUNT_SCALE = 0
"""The move count's ``depth**2`` in hundredths (0: whole; see :data:`MOVE_COUNT_DEPTH`)."""
THREE_EXTENSION = 0
"""Plies a node answering the opponent's open three searches its defences deeper (0: none):
a line of threes then costs the attacker's moves only."""
FOUR_EXTENSION = 0
"""Plies a forced block of the opponent's four is searched deeper (0: none). Off: at 1 it
takes 2.5 times the nodes to depth 8 and scored 37.8 % against main's 36.5 % at Rapfi 50,000
nodes over 192 paired games (31 better, 28 worse; BENCHMARKS.md, session 18)."""
VCT_PAST_FOURS = 0
"""1: the win by threats blocks a defender's four made in answer to a three and tries the
answers again; 0: such a four counts as a defence that holds (cheaper, proves less)."""
VCT_MOVES = 0
"""The attacker's moves in the win by threats (``P_VCT_MOVES``): 0 every cell near a stone,
1 the cells making a four, an open three or two threes, 2 those and every three."""
VCT_TABLE_BITS = 0
"""The log2 of the slots of a win by threats' table (``P_VCT_TABLE``; 0: none)."""
VCT_FOURS = 0
"""The longest VCF a node of the win by threats looks for, in fours (``P_VCT_FOURS``; 0: the
root's, :data:`ROOT_VCF_FOURS`)."""
THREAT_EVAL = 16
"""The weight, in eighths, of the threat table's value of the position's threat mask in the
evaluation (``P_THREAT_EVAL``; the table :data:`~.pattern_values.PLAYED_THREATS`; 8: as
fitted; 0: off). Twice the fitted table paid against Rapfi at 50,000 nodes: 43.2 % against
33.1 % without it over 192 paired games, 41 games better and 21 worse (the fitted weight,
8: 35.7 % against 32.1 % over 168, 27 and 22; BENCHMARKS.md, "Gomoku: a threat table in the
evaluation")."""
RAZOR_DEPTH = 0
"""The deepest unthreatened heuristic node that returns its evaluation when it stays below
alpha by :data:`RAZOR_MARGIN` a ply (razoring; 0: never). Off: at depth 3 it saved 7 % of the
nodes to depth 8 and was not shown to pay against Rapfi (BENCHMARKS.md, session 16; with
:data:`IMPROVING` and :data:`MOVE_COUNT_POWER` in session 17, 35.4 % against 38.8 %)."""
RAZOR_MARGIN = 100
"""That margin per ply, in the evaluation's units."""
IMPROVING = 0
"""1: a node whose evaluation is not above its side's two plies up tries half the move
count's quiet moves and reduces its late moves a ply more (Rapfi's "improving"; 0: off)."""
MOVE_COUNT_POWER = 0
"""The move count at every depth as ``3 + depth ** (MOVE_COUNT_POWER / 100)`` quiet moves
(Rapfi's form: 132), instead of :data:`MOVE_COUNT_DEPTH`'s (0: that one)."""
SINGULAR_DEPTH = 0
"""The least depth at which a node's table move is tested for a singular extension (0:
never): searched a ply deeper when every other move, half as deep, stays below the table's
value less :data:`SINGULAR_MARGIN` a ply; the node returns that bound when even those reach
beta (multi-cut). Off: at 6 (margin 2) it scored 42.3 % against main's 37.5 % at Rapfi
50,000 nodes over 240 paired games in session 17 (43 better, 30 worse), and 37.5 % against
37.5 % over 240 more in session 18 (33 better, 35 worse): 39.9 % against 37.5 % over the 480,
not shown (BENCHMARKS.md, sessions 17 and 18)."""
SINGULAR_MARGIN = 2
"""That margin per ply, in the evaluation's units."""
SINGULAR_REDUCE = 0
"""The plies a tested table move is searched shallower when its test fails high below beta
while the table's value reaches beta (Rapfi's negative extension; 0: none)."""
DEFAULT_TABLE_BITS = 20
UNUSED_MOVE = -1
SLOT_BYTES = 8 + 8 + 1 + 4 + 2
"""Bytes of one table slot (the columns of :meth:`BigMNKKernel.new_table`)."""
EXTRA_PLIES = 2 * (ROOT_VCF_FOURS + max(ROOT_VCT_THREATS, THREAT_THREATS)) + 8
"""Rows of the per-ply move buffers beyond one per cell (a VCF goes two plies per four, a
VCT two per threat before its VCF)."""


class BigMNKKernel(KernelBase["MNKPosition", "Cell"]):
    """Compiled search on the line-indexed board. Stateless apart from constant tables."""

    traits = KernelTraits(keeps_deadline=True, bounded_distances=True, move_ready=True)
    engine = ENGINE

    def __init__(self, game: MNKGame, options: KernelOptions) -> None:
        """A kernel for ``game``'s board with the options' table size and evaluation: window
        weights (:func:`checked_weights`) or, for ``k`` = 5, a set of pattern values
        (:func:`chosen_values`); raises :class:`~perfectplay.errors.ParameterError`."""
        self.game = game
        self.table_bits = options.table_bits
        self.values = chosen_values(game.spec.k, options.evaluation)
        weights = None if self.values is not None else options.evaluation
        self.weights = checked_weights(game.spec.k, weights)
        self.patterns = pattern_mode(game.spec.k, weights is not None)

    def context(self, symmetry: bool) -> tuple[Any, ...]:
        """The compiled context, symmetries in use or not, with this kernel's weights (or its
        pattern values)."""
        ctx = static_context(self.game.spec)
        if self.values is not None:
            ctx = with_patterns(ctx, self.game.spec, self.patterns, self.values)
        settings = {P_PATTERNS: self.patterns}
        if not symmetry:
            settings[slots.P_NSYM] = 1
        ctx = with_params(ctx, settings)
        return (*ctx[:8], self.weights, *ctx[9:])

    def table_entries_hint(self) -> int:
        """``2**table_bits`` slots, by default 2**20 (24 MiB)."""
        bits = DEFAULT_TABLE_BITS if self.table_bits is None else self.table_bits
        return 1 << bits

    @staticmethod
    def new_table(entries: int) -> tuple[np.ndarray[Any, Any], ...]:
        """A fresh table of ``entries`` slots (23 bytes each) and the search's memory beside
        it (see :mod:`.big_compiled`; issue 26); raises
        :class:`~perfectplay.errors.ParameterError` when it would not fit in memory."""
        check_table_memory(entries, SLOT_BYTES)
        return (
            np.zeros(entries, dtype=np.uint64),
            np.zeros(entries, dtype=np.int64),
            np.zeros(entries, dtype=np.int8),
            np.zeros(entries, dtype=np.int32),
            np.full(entries, UNUSED_MOVE, dtype=np.int16),
            np.zeros(MEMORY_SIZE, dtype=np.int64),
        )

    def warm_up(self, start: MNKPosition) -> None:
        """Load the search and the clock before any clock starts."""
        from perfectplay.games.common.compiled_bits import now

        now()
        super().warm_up(start)

    def state(self, position: MNKPosition, ctx: tuple[Any, ...]) -> tuple[Any, ...]:
        """The compiled state of ``position`` (see :mod:`.board_compiled`)."""
        from perfectplay.games.mnk import board_compiled

        return new_state(self.game.spec, position, ctx, board_compiled.load)

    def side(self, position: MNKPosition) -> int:
        """0 when x is to move, 1 for o."""
        return 0 if self.game.to_move(position).value == 1 else 1

    def search(
        self,
        position: MNKPosition,
        depth: int,
        first: Cell | None,
        table: Any,
        node_budget: int,
        controls: SearchControls = DEFAULT_CONTROLS,
    ) -> KernelResult[Cell]:
        """One search of a running position ``depth`` plies deep (exact when ``depth`` reaches
        the empty cells), stopping at ``node_budget`` nodes or ``controls.deadline``; ``table``
        ``None`` searches with a throw-away one."""
        from perfectplay.games.mnk import big_compiled

        if table is None:
            table = self.new_table(1 << 12)
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        stats[2], stats[4] = node_budget, deadline_ns(controls.deadline)
        ctx = self.context(controls.symmetry)
        st = self.state(position, ctx)
        first_cell = -1 if first is None else self.game.index(first)
        keep = int(ctx[10][P_KEEP_ORDER])
        memory = table[5]
        if first is None:  # a new search (iterative deepening's first iteration): a new move
            forget(memory, keep)
        if keep != KEEP_FRESH:
            stats[HISTORY_AT:] = memory[:ORDER_SIZE]
        cell, value = big_compiled.search_root(
            self.side(position), depth, first_cell, ctx, st, table, stats
        )
        if keep != KEEP_FRESH:
            memory[:ORDER_SIZE] = stats[HISTORY_AT:]
        move = None if cell < 0 else self.game.cell(int(cell))
        # A win decided by a proof or among a beam counts as a horizon: its distance is a bound.
        horizon = int(stats[1] + stats[6])
        return KernelResult(move, int(value), int(stats[0]), horizon, bool(stats[3]))

    def exact_value(self, position: MNKPosition, table: Any) -> int:
        """The exact value of a running position: a search as deep as the empty cells."""
        depth = self.game.plies_left_bound(position)
        return self.search(position, depth, None, table, UNLIMITED_NODES).value

    def table_move(self, position: MNKPosition, table: Any) -> Cell | None:
        """The table's best move for a running position, if it has one."""
        from perfectplay.games.mnk import big_compiled

        if table is None:
            return None
        ctx = self.context(True)
        cell = int(big_compiled.table_move(ctx, self.state(position, ctx), table))
        if cell < 0 or (position.x | position.o) >> cell & 1:
            return None
        return self.game.cell(cell)

    def principal_variation(
        self, position: MNKPosition, first: Cell | None, table: Any
    ) -> tuple[Cell, ...]:
        """``first`` and then the table's best moves until the game ends or the table is silent
        (at most one move per empty cell)."""
        if first is None:
            return ()
        return follow_table(
            position,
            first,
            self.game.play,
            lambda current: self.table_move(current, table),
            lambda current: self.game.outcome(current) is None,
            self.game.spec.cells,
        )


def forget(memory: np.ndarray[Any, Any], keep: int) -> None:
    """The table's search memory as a new move's search starts (``keep`` a
    ``context_layout.KEEP_*``): the last root's depth forgotten (no aspiration around
    another position's value); the history halved with :data:`~.context_layout.KEEP_AGED`
    (the cut-offs of the last move's search still say something of this one's), else
    emptied with the killers (ply-relative: the root moved)."""
    memory[M_DEPTH] = 0
    killers = KILLERS_AT - HISTORY_AT
    if keep == KEEP_AGED:
        memory[:killers] //= 2
    else:
        memory[:killers] = 0
    memory[killers:ORDER_SIZE] = 0


@lru_cache(maxsize=16)
def static_context(spec: MNKSpec) -> tuple[Any, ...]:
    """The constant context of a board size and rule (see :mod:`.board_compiled`), built once
    and never written."""
    layout = line_layout(spec.rows, spec.cols)
    perm, inv_perm = permutations(spec.rows, spec.cols)
    params = np.zeros(slots.PARAMS_SIZE, dtype=np.int64)
    params[slots.P_CELLS] = spec.cells
    params[slots.P_K] = spec.k
    params[slots.P_EXACT] = int(spec.exactly)
    params[slots.P_NSYM] = perm.shape[0]
    params[slots.P_LINES] = layout.line_len.shape[0]
    params[slots.P_WIDTH] = BEAM_WIDTH
    params[slots.P_VCF_ROOT] = ROOT_VCF_FOURS
    params[slots.P_VCF_LEAF] = LEAF_VCF_FOURS
    params[slots.P_VCF_NODES] = ROOT_VCF_NODES
    params[slots.P_VCT] = ROOT_VCT_THREATS
    params[slots.P_VCT_INNER_DEPTH] = INNER_VCT_DEPTH
    params[slots.P_VCT_INNER_NODES] = INNER_VCT_NODES
    params[P_PATTERNS] = pattern_mode(spec.k, False)
    params[slots.P_RADIUS] = radius(spec.k, spec.exactly)
    params[slots.P_ORDER] = PATTERN_ORDER
    params[P_ATTACK] = PLAYED_VALUES.attack
    params[P_DEFEND] = PLAYED_VALUES.defend
    params[slots.P_ROOT_VCT_SHARE] = ROOT_VCT_SHARE
    params[slots.P_ROOT_VCT_NODES] = ROOT_VCT_NODES
    params[slots.P_THREAT_SHARE] = THREAT_SHARE
    params[slots.P_THREAT_NODES] = THREAT_NODES
    params[slots.P_THREAT_THREATS] = THREAT_THREATS
    params[slots.P_REFUTE_SHARE] = REFUTE_SHARE
    params[slots.P_INNER_VCT_THREATS] = INNER_VCT_THREATS
    params[slots.P_HISTORY] = HISTORY_KEEP
    params[slots.P_KILLERS] = KILLERS
    params[slots.P_NULL_DEPTH] = NULL_DEPTH
    params[slots.P_NULL_REDUCTION] = NULL_REDUCTION
    params[slots.P_FUTILITY_DEPTH] = FUTILITY_DEPTH
    params[slots.P_FUTILITY_MARGIN] = FUTILITY_MARGIN
    params[slots.P_MOVE_COUNT_DEPTH] = MOVE_COUNT_DEPTH
    params[slots.P_MOVE_COUNT_BASE] = MOVE_COUNT_BASE
    params[slots.P_LMR_LOG] = LMR_LOG
    params[slots.P_PVS] = PVS
    params[slots.P_KEEP_ORDER] = KEEP_ORDER
    params[slots.P_ASPIRATION] = ASPIRATION
    params[slots.P_MOVE_COUNT_SCALE] = MOVE_COUNT_SCALE
    params[slots.P_THREE_EXTENSION] = THREE_EXTENSION
    params[slots.P_FOUR_EXTENSION] = FOUR_EXTENSION
    params[slots.P_VCT_PAST_FOURS] = VCT_PAST_FOURS
    params[slots.P_VCT_MOVES] = VCT_MOVES
    params[slots.P_VCT_TABLE] = VCT_TABLE_BITS
    params[slots.P_VCT_FOURS] = VCT_FOURS
    params[slots.P_THREAT_EVAL] = THREAT_EVAL
    params[slots.P_RAZOR_DEPTH] = RAZOR_DEPTH
    params[slots.P_RAZOR_MARGIN] = RAZOR_MARGIN
    params[slots.P_IMPROVING] = IMPROVING
    params[slots.P_MOVE_COUNT_POWER] = MOVE_COUNT_POWER
    params[slots.P_SINGULAR_DEPTH] = SINGULAR_DEPTH
    params[slots.P_SINGULAR_MARGIN] = SINGULAR_MARGIN
    params[slots.P_SINGULAR_REDUCE] = SINGULAR_REDUCE
    tables = pattern_mode(spec.k, False) != PATTERNS_OFF
    off = np.zeros(1, dtype=np.int64)
    return (
        layout.cell_line,
        layout.cell_bit,
        layout.line_cells,
        layout.line_len,
        zobrist_keys(spec.rows, spec.cols),
        neighbourhoods(spec.rows, spec.cols),
        perm,
        inv_perm,
        np.array(evaluation_weights(spec.k), dtype=np.int64),
        centre_order(spec.rows, spec.cols),
        params,
        pattern_table(spec.k, spec.exactly) if tables else np.zeros(1, dtype=np.int8),
        value_table(PLAYED_VALUES) if tables else off,
        scoring_table(PLAYED_VALUES) if tables else off,
        threat_table(PLAYED_THREATS),
    )


def with_patterns(
    ctx: tuple[Any, ...],
    spec: MNKSpec,
    mode: int = PATTERNS_EVAL,
    values: Values = PLAYED_VALUES,
    order: Values | None = None,
) -> tuple[Any, ...]:
    """``ctx`` (a context of ``spec``'s board, ``k`` = 5) with the pattern tables in ``mode``
    (``PATTERNS_ORDER`` or ``PATTERNS_EVAL``), ``values`` evaluating (their attack share) and
    ``order`` (``None``: ``values``) ordering the moves (the cells' values the move order
    reads, and that set's defend share; issue 26): runtime choices, no recompile. A state for
    it must be loaded with it. Raises :class:`~perfectplay.errors.ParameterError` when either
    is not a set of values (:data:`~.pattern_values.Values`). By default one set does both:
    against Rapfi at 25,000 nodes neither plain set ordering beside the class set evaluating
    paid beyond the noise (BENCHMARKS.md, "Gomoku: a cell table for the move order apart from
    the evaluation's": fitted 32.8 % against 33.9 % over 96 paired games, hand-set 42.7 %
    against 37.5 % over 192, 35 games better and 24 worse)."""
    order = values if order is None else order
    for role, chosen in (("evaluation", values), ("order", order)):
        if not isinstance(chosen, Values):
            raise ParameterError(
                f"{role} values {chosen!r}: give a PatternValues, ClassValues or TripleValues set "
                f"(pattern_values.NAMED_VALUES: {', '.join(NAMED_VALUES)})"
            )
    settings = {P_PATTERNS: mode, P_ATTACK: values.attack, P_DEFEND: order.defend}
    ctx = with_params(ctx, settings)
    table = pattern_table(spec.k, spec.exactly)
    return (*ctx[:11], table, value_table(order), scoring_table(values), ctx[14])


def with_params(ctx: tuple[Any, ...], settings: Mapping[int, int]) -> tuple[Any, ...]:
    """``ctx`` with its runtime parameters ``settings`` (index of :mod:`.context_layout`:
    value) set, in a copy of its parameters (``ctx`` itself, maybe shared, is not written):
    a runtime choice, no recompile. A state for it must be loaded with it."""
    params = ctx[10].copy()
    for index, value in settings.items():
        params[index] = value
    return (*ctx[:10], params, *ctx[11:])


def pattern_mode(k: int, explicit_weights: bool) -> int:
    """The pattern mode of ``k`` in a row: tables only for :data:`~.patterns.PATTERN_K`, and
    with explicit window weights for the move order only (those weights evaluate)."""
    if k != PATTERN_K or DEFAULT_PATTERN_MODE == PATTERNS_OFF:
        return PATTERNS_OFF
    return PATTERNS_ORDER if explicit_weights else DEFAULT_PATTERN_MODE


def chosen_values(k: int, evaluation: tuple[int, ...] | None) -> Values | None:
    """The pattern values ``KernelOptions.evaluation`` gives, checked by
    :func:`~.pattern_values.any_values_from` (raises
    :class:`~perfectplay.errors.ParameterError`): for ``k`` = 5 (the tables' length) an
    evaluation of :data:`~.pattern_values.VALUE_COUNT` numbers (a plain set) or
    :data:`~.pattern_values.CLASS_VALUE_COUNT` (a class set); ``None`` for anything else
    (window weights, or the defaults)."""
    if evaluation is None or k != PATTERN_K:
        return None
    if len(evaluation) not in (VALUE_COUNT, CLASS_VALUE_COUNT):
        return None
    return any_values_from(evaluation)


def checked_weights(k: int, weights: tuple[int, ...] | None) -> np.ndarray[Any, Any]:
    """The evaluation weights of ``k`` in a row as the compiled context holds them: ``weights``
    (``k + 2`` whole numbers, the layout of :func:`~.lines.evaluation_weights`, each from 0 to
    :data:`MAX_WEIGHT`) or the defaults when ``None``; raises
    :class:`~perfectplay.errors.ParameterError` otherwise."""
    if weights is None:
        weights = evaluation_weights(k)
    if len(weights) != k + 2 or any(not 0 <= w <= MAX_WEIGHT for w in weights):
        also = (
            f", or {VALUE_COUNT} pattern values or {CLASS_VALUE_COUNT} class values"
            if k == PATTERN_K
            else ""
        )
        raise ParameterError(
            f"evaluation weights {weights!r}: give {k + 2} whole numbers from 0 to "
            f"{MAX_WEIGHT:,}{also}"
        )
    return np.array(weights, dtype=np.int64)


def new_state(
    spec: MNKSpec, position: MNKPosition, ctx: tuple[Any, ...], load: Any
) -> tuple[Any, ...]:
    """Fresh state arrays for a board of ``spec``, loaded with ``position``'s stones by the
    compiled ``load``."""
    cells, lines = spec.cells, ctx[3].shape[0]
    plies = cells + EXTRA_PLIES
    st = (
        np.zeros((2, lines), dtype=np.int64),
        np.zeros((2, lines), dtype=np.int64),
        np.zeros((2, lines), dtype=np.int64),
        np.zeros(slots.COUNTS_SIZE, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(ctx[4].shape[0], dtype=np.uint64),
        np.zeros(lines, dtype=np.int64),
        np.zeros((plies, cells + 1), dtype=np.int64),
        np.zeros((plies, cells + 1), dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros((2, 4 * cells), dtype=np.int64),
        np.zeros((4, cells), dtype=np.int64),
        np.zeros((cells + 1, slots.UNDO_SIZE), dtype=np.int64),
    )
    x = np.array(list(bit_indices(position.x)), dtype=np.int64)
    o = np.array(list(bit_indices(position.o)), dtype=np.int64)
    load(x, o, ctx, st)
    return st
