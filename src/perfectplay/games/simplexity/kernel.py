"""The shape-and-color kernel driver: builds the compiled engine's arrays for one board size
and converts between public positions/moves and the kernel's boards and move codes.

Move code: ``column * 2 + shape`` (shape 0 for ``O``, 1 for ``X``). The kernel honours a wall
clock deadline itself (trait ``keeps_deadline``), so a time limit is never overshot by more than the
1024 nodes between two clock checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay.games.kernel import (
    DEFAULT_CONTROLS,
    CompiledEngine,
    KernelBase,
    KernelOptions,
    KernelResult,
    KernelTraits,
    SearchControls,
    check_table_memory,
)
from perfectplay.games.simplexity.board import (
    EVALUATIONS,
    SHAPES,
    SimplexityMove,
    SimplexityPosition,
)
from perfectplay.games.simplexity.heuristics import line_masks
from perfectplay.values import INFINITY, UNLIMITED_NODES, WIN

if TYPE_CHECKING:
    from perfectplay.games.simplexity.rules import SimplexityGame

ENGINE = CompiledEngine(
    label="the shape-and-color engine",
    compile_seconds=15,
    entry_points=(
        ("perfectplay.games.simplexity.compiled", ("negamax", "stored_move")),
        ("perfectplay.games.common.compiled_bits", ("now",)),
    ),
)
"""The engine's compiled search, and the clock it reads."""
DEFAULT_TABLE_BITS = 21
"""2**21 slots of 24 bytes: 48 MiB."""
MAX_TABLE_BITS = 27


def encode(move: SimplexityMove) -> int:
    """The kernel's code of a move."""
    return move.column * 2 + SHAPES.index(move.shape)


def decode(code: int) -> SimplexityMove:
    """The move of a kernel code."""
    return SimplexityMove(code >> 1, SHAPES[code & 1])


class SimplexityKernel(KernelBase[SimplexityPosition, SimplexityMove]):
    """Compiled search for one board size and evaluation. Not thread-safe: the history
    table and statistics are scratch memory of the instance."""

    traits = KernelTraits(keeps_deadline=True)
    engine = ENGINE

    def __init__(self, game: SimplexityGame, options: KernelOptions) -> None:
        self.table_bits = options.table_bits
        spec, layout = game.spec, game.layout
        self.game = game
        order = layout.centre_first()
        self._geo = np.array(
            [
                spec.rows,
                spec.cols,
                spec.cells,
                spec.own_quota,
                spec.other_quota,
                EVALUATIONS.index(game.evaluation),
                1,
                1,
                1,
                *order,
            ],
            dtype=np.int64,
        )
        columns = [layout.column_mask(c) for c in range(spec.cols)]
        self._masks = np.array([layout.bottom, layout.board, spec.rows, *columns], dtype=np.uint64)
        self._windows = np.array(layout.windows or [0], dtype=np.uint64)
        self._rays = np.array(line_masks(spec.rows, spec.cols), dtype=np.uint64)
        self._history = np.zeros((2, 128), dtype=np.int64)
        from perfectplay.games.common.compiled_bits import now

        now()  # the first trip to the clock from compiled code takes ~0.1 s: not mid-search

    # -- tables ------------------------------------------------------------------------------
    def new_table(self, entries: int) -> np.ndarray:
        """A fresh table of ``entries`` slots (rounded down to a power of two, at least 2**10),
        three uint64 words each.

        A new table starts a new public search: the move-ordering history is forgotten too, so
        that equal calls give equal answers."""
        self._history[:] = 0
        bits = max(10, min(MAX_TABLE_BITS, int(math.log2(max(1, entries)))))
        check_table_memory(1 << bits, 24)
        return np.zeros(3 << bits, dtype=np.uint64)

    def table_entries_hint(self) -> int:
        """The default table: 2**21 slots (48 MiB), less for tiny boards; or ``2**table_bits``
        when the options set it."""
        if self.table_bits is not None:
            return 1 << self.table_bits
        return 1 << min(DEFAULT_TABLE_BITS, 10 + 2 * self.game.spec.cells)

    def warm_up(self, start: SimplexityPosition) -> None:
        """Load the search and the clock (the first trip to the clock from compiled code
        takes about 0.1 s, and compiles it after an install: not in a timed search)."""
        from perfectplay.games.common.compiled_bits import now

        now()
        super().warm_up(start)

    def exact_value(self, position: SimplexityPosition, table: Any) -> int:
        """The exact value of a running position: a search to the end of the game."""
        depth = self.game.plies_left_bound(position)
        return self.search(position, depth, None, table, UNLIMITED_NODES).value

    # -- search ------------------------------------------------------------------------------
    def search(
        self,
        position: SimplexityPosition,
        depth: int,
        first: SimplexityMove | None,
        table: Any,
        node_budget: int,
        controls: SearchControls = DEFAULT_CONTROLS,
    ) -> KernelResult[SimplexityMove]:
        """Search a running position ``depth`` plies deep, ``first`` tried first; stop past
        ``node_budget`` nodes or the ``deadline`` (``time.perf_counter`` seconds). With
        ``symmetry`` mirror images share table entries.

        A search as deep as the rest of the game is an exact solve: it first asks only
        whether the position is won, drawn or lost (a window around 0, where any win cuts),
        then narrows a win or loss down to its length by bisection on null windows.
        """
        from perfectplay.games.simplexity import compiled as sk

        geo = self._geo.copy()
        geo[sk.ORDERING] = 1 if controls.ordering else 0
        geo[sk.TABLE] = 0 if table is None else 1
        geo[sk.SYMMETRY] = 1 if controls.symmetry else 0
        tt = table if table is not None else self.new_table(1 << 10)
        stats = np.zeros(sk.STATS_SIZE, dtype=np.int64)
        stats[sk.BUDGET] = max(1, node_budget)
        stats[sk.ROOT_MOVE] = -1 if first is None else encode(first)
        deadline = controls.deadline
        clock = np.array([math.inf if deadline is None else deadline], dtype=np.float64)
        scratch = np.zeros((self.game.spec.cells + 2, 2 * sk.MAX_MOVES), dtype=np.int64)
        ctx = (
            geo,
            self._masks,
            self._windows,
            self._rays,
            tt,
            stats,
            clock,
            self._history,
            scratch,
        )
        boards = (np.uint64(b) for b in (position.red, position.blue, position.circles))
        red, blue, circles = boards
        plies = position.plies

        def probe(alpha: int, beta: int) -> int:
            return int(sk.negamax(red, blue, circles, plies, 0, depth, alpha, beta, ctx))

        if depth < self.game.spec.cells - plies:
            value = probe(-INFINITY, INFINITY)
        else:
            value = self._solve(probe, self.game.spec.cells - plies, stats)
        aborted = bool(stats[sk.ABORTED])
        code = int(stats[sk.ROOT_MOVE])
        move = decode(code) if code >= 0 else None
        if aborted:
            move = None  # an unfinished iteration's move is not trustworthy
        return KernelResult(move, int(value), int(stats[sk.NODES]), int(stats[sk.HORIZON]), aborted)

    @staticmethod
    def _solve(probe: Callable[[int, int], int], remaining: int, stats: np.ndarray) -> int:
        """The exact value by null-window probes: win/draw/loss first, then the length."""
        from perfectplay.games.simplexity import compiled as sk

        value = probe(-1, 1)
        if value == 0 or stats[sk.ABORTED]:
            return value
        if value > 0:
            low, high = max(value, WIN - remaining), WIN - 1
        else:
            low, high = -(WIN - 1), min(value, -(WIN - remaining))
        while low < high and not stats[sk.ABORTED]:
            middle = (low + high) // 2
            found = probe(middle, middle + 1)
            if found <= middle:
                high = found
            else:
                low = found
        if not stats[sk.ABORTED]:
            probe(low - 1, low)  # leaves the move that reaches the value in stats[ROOT_MOVE]
        return low

    def table_move(self, position: SimplexityPosition, table: Any) -> SimplexityMove | None:
        """The table's best move for a running position, if it stores one and it is legal."""
        from perfectplay.games.simplexity import compiled as sk

        if table is None:
            return None
        red, blue, circles = (np.uint64(b) for b in (position.red, position.blue, position.circles))
        code = int(sk.stored_move(red, blue, circles, table, self._geo, self._masks))
        if code < 0:
            return None
        move = decode(code)
        return move if move in self.game.legal_moves(position) else None

    def principal_variation(
        self, position: SimplexityPosition, first: SimplexityMove | None, table: Any
    ) -> tuple[SimplexityMove, ...]:
        """``first`` and then the table's best moves until the game ends or the table is silent
        (or a position repeats its move chain, which a table clash could cause)."""
        if first is None:
            return ()
        line = [first]
        current = self.game.play(position, first)
        while self.game.outcome(current) is None and len(line) < self.game.spec.cells:
            move = self.table_move(current, table)
            if move is None:
                break
            line.append(move)
            current = self.game.play_move(current, move)
        return tuple(line)
