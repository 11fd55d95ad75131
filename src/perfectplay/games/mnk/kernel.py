"""The m,n,k kernel driver: builds the compiled kernel's tables for one board size and
converts between public positions/moves and the kernel's bitboards and cell indices.

Only boards of at most 64 cells have this kernel; larger ones (and the exact rule) get the
line-indexed kernel of :mod:`.big_kernel`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.common.grid import (
    centre_first_order,
    inverse,
    symmetries,
    windows,
    windows_by_cell,
)
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
)
from perfectplay.values import UNLIMITED_NODES, WIN

if TYPE_CHECKING:
    from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition, MNKSpec

MAX_CELLS = 64
ENGINE = CompiledEngine(
    label="the m,n,k engine (boards up to 64 cells)",
    compile_seconds=15,
    entry_points=(
        ("perfectplay.games.mnk.compiled", ("search_root", "table_move")),
        ("perfectplay.games.common.compiled_bits", ("now",)),
    ),
)
"""The compiled search of boards of at most :data:`MAX_CELLS` cells, and the clock."""
MAX_TABLE = 1 << 22
"""Most positions the complete-table builder will enumerate."""
BIG_TABLE_CELLS = 26
"""Boards of this many cells and more get the larger default table."""
UNUSED_MOVE = -2
SLOT_BYTES = 8 + 8 + 8 + 1 + 4 + 2
"""Bytes of one table slot (the columns of :meth:`MNKKernel.new_table`)."""


def supports(spec: MNKSpec) -> bool:
    """True when the board fits the kernel's 64-bit boards and the rule is freestyle (k or
    more wins; the exact rule is the big-board kernel's)."""
    return spec.cells <= MAX_CELLS and not spec.exactly


class MNKKernel(KernelBase["MNKPosition", "Cell"]):
    """Compiled search for one m,n,k board size. Stateless apart from constant tables."""

    traits = KernelTraits(complete_table=True, keeps_deadline=True)
    engine = ENGINE

    def __init__(self, game: MNKGame, options: KernelOptions) -> None:
        spec = game.spec
        self.game = game
        self.table_bits = options.table_bits
        self.nsym, self._static = static_tables(spec)
        self._threat = threat_tables(spec)
        self._contexts: dict[tuple[bool, bool, bool], tuple[Any, ...]] = {}

    def table_entries_hint(self) -> int:
        """Slots worth allocating: a power of two above 3 ** cells, from 2**10 to 2**20
        (31 MiB), 2**22 (124 MiB) from :data:`BIG_TABLE_CELLS` cells on (7x4, k=4 solves
        twice as fast with it), or ``2**table_bits`` when the options set it."""
        if self.table_bits is not None:
            return 1 << self.table_bits
        states_bound: int = 3**self.game.spec.cells
        cap = 22 if self.game.spec.cells >= BIG_TABLE_CELLS else 20
        return max(1 << 10, 1 << min(cap, states_bound.bit_length()))

    def warm_up(self, start: MNKPosition) -> None:
        """Load the search and the clock (the first trip to the clock from compiled code takes
        about 0.1 s: not in the middle of a timed search)."""
        from perfectplay.games.common.compiled_bits import now

        now()
        super().warm_up(start)

    def exact_value(self, position: MNKPosition, table: Any) -> int:
        """The exact value of a running position: a full-depth search."""
        depth = self.game.plies_left_bound(position)
        return self.search(position, depth, None, table, UNLIMITED_NODES).value

    def context(self, symmetry: bool, table: bool, ordering: bool) -> tuple[Any, ...]:
        """The kernel's context tuple with the given switches (built once per combination)."""
        switches = (symmetry, table, ordering)
        found = self._contexts.get(switches)
        if found is None:
            params = np.array(
                [self.game.spec.cells, self.nsym if symmetry else 1, int(table), int(ordering)],
                dtype=np.int64,
            )
            found = self._contexts[switches] = (*self._static, params, *self._threat)
        return found

    @staticmethod
    def new_table(entries: int) -> tuple[np.ndarray[Any, Any], ...]:
        """A fresh table of ``entries`` slots (24 bytes each).

        Only the move column needs initialising: a slot whose move is :data:`UNUSED_MOVE` is
        empty whatever its other columns hold. Raises :class:`ParameterError` when it would
        not fit in memory.
        """
        check_table_memory(entries, SLOT_BYTES)
        return (
            np.empty(entries, dtype=np.uint64),
            np.empty(entries, dtype=np.uint64),
            np.empty(entries, dtype=np.int64),
            np.empty(entries, dtype=np.int8),
            np.empty(entries, dtype=np.int32),
            np.full(entries, UNUSED_MOVE, dtype=np.int16),
        )

    def boards(self, position: MNKPosition) -> tuple[np.uint64, np.uint64]:
        """``(side to move, opponent)`` bitboards."""
        if self.game.to_move(position).value == 1:
            return np.uint64(position.x), np.uint64(position.o)
        return np.uint64(position.o), np.uint64(position.x)

    def search(
        self,
        position: MNKPosition,
        depth: int,
        first: Cell | None,
        table: Any,
        node_budget: int,
        controls: SearchControls = DEFAULT_CONTROLS,
    ) -> KernelResult[Cell]:
        """One fixed-depth search of a running position (see
        :class:`perfectplay.games.kernel.Kernel`); ``table`` ``None`` searches without a table.
        It stops at ``node_budget`` nodes or at ``controls.deadline``, whichever comes first.
        """
        from perfectplay.games.mnk import compiled as mnk_kernel

        use_table = table is not None
        if table is None:
            table = self.new_table(1)
        stats = np.array([0, 0, node_budget, 0, deadline_ns(controls.deadline)], dtype=np.int64)
        cur, opp = self.boards(position)
        first_cell = -1 if first is None else self.game.index(first)
        ctx = self.context(controls.symmetry, use_table, controls.ordering)
        cell, value = mnk_kernel.search_root(cur, opp, depth, first_cell, ctx, table, stats)
        move = None if cell < 0 else self.game.cell(int(cell))
        return KernelResult(move, int(value), int(stats[0]), int(stats[1]), bool(stats[3]))

    def table_move(self, position: MNKPosition, table: Any) -> Cell | None:
        """The table's best move for a running position, if it has one."""
        from perfectplay.games.mnk import compiled as mnk_kernel

        if table is None:
            return None
        cur, opp = self.boards(position)
        cell = int(mnk_kernel.table_move(cur, opp, self.context(True, True, True), table))
        if cell < 0 or (position.x | position.o) >> cell & 1:
            return None
        return self.game.cell(cell)

    def principal_variation(
        self, position: MNKPosition, first: Cell | None, table: Any
    ) -> tuple[Cell, ...]:
        """``first`` and then the table's best moves until the game ends or the table is silent."""
        from perfectplay.games.mnk import compiled as mnk_kernel

        if first is None:
            return ()
        line = [first]
        current = self.game.play(position, first)
        ctx = self.context(True, True, True)
        while table is not None and self.game.outcome(current) is None:
            cur, opp = self.boards(current)
            cell = int(mnk_kernel.table_move(cur, opp, ctx, table))
            if cell < 0 or (current.x | current.o) >> cell & 1:
                break
            line.append(self.game.cell(cell))
            current = self.game.play_index(current, cell)
        return tuple(line)

    def exact_values(self, position: MNKPosition) -> Mapping[Hashable, int]:
        """Exact position-relative value of every position reachable from ``position``.

        Keys are ``(x, o)`` bitboards; values are ``WIN - plies`` (win), 0 (draw),
        ``-(WIN - plies)`` (loss) for the side to move, ``-WIN`` for a position already lost.
        Raises :class:`ParameterError` when more than :data:`MAX_TABLE` positions could be
        reachable (3 ** empty cells bounds them).
        """
        from perfectplay.games.mnk import compiled as mnk_kernel

        outcome = self.game.outcome(position)
        if outcome is not None:
            return {(position.x, position.o): 0 if outcome.winner is None else -WIN}
        empty = self.game.spec.cells - self.game.ply(position)
        bound = 3**empty
        if bound > MAX_TABLE:
            raise ParameterError(
                f"exact table: up to {bound:,} positions below this {empty}-empty-cell board; "
                f"the complete table is limited to {MAX_TABLE:,}"
            )
        capacity = 1 << (2 * bound).bit_length()
        keys_a = np.zeros(capacity, dtype=np.uint64)
        keys_b = np.zeros(capacity, dtype=np.uint64)
        values = np.full(capacity, mnk_kernel.FREE, dtype=np.int64)
        count = np.zeros(1, dtype=np.int64)
        cur, opp = self.boards(position)
        ctx = self.context(False, False, False)
        mnk_kernel.exact_values(cur, opp, ctx, keys_a, keys_b, values, count)
        used = values != mnk_kernel.FREE
        result: dict[Hashable, int] = {}
        for a, b, v in zip(
            keys_a[used].tolist(), keys_b[used].tolist(), values[used].tolist(), strict=True
        ):
            # a holds the side to move's stones: x exactly when the stone count is even.
            result[(a, b) if (a | b).bit_count() % 2 == 0 else (b, a)] = v
        return result


@lru_cache(maxsize=32)
def static_tables(spec: MNKSpec) -> tuple[int, tuple[np.ndarray[Any, Any], ...]]:
    """The constant tables of a board size (windows through each cell, centre-first order,
    symmetry permutations as byte tables, windows, weights): built once per size and shared
    by every kernel of that size, so they are never written."""
    cells = spec.cells
    per_cell = windows_by_cell(spec.rows, spec.cols, spec.k)
    width = max(1, max(len(w) for w in per_cell))
    cell_windows = np.zeros((cells, width), dtype=np.uint64)
    window_count = np.zeros(cells, dtype=np.int64)
    for cell, found in enumerate(per_cell):
        window_count[cell] = len(found)
        for i, mask in enumerate(found):
            cell_windows[cell, i] = mask
    perms = symmetries(spec.rows, spec.cols)
    chunks = (cells + 7) // 8
    sym_tables = np.zeros((len(perms), chunks, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        for chunk in range(chunks):
            for byte in range(256):
                mapped = 0
                for bit in range(8):
                    cell = chunk * 8 + bit
                    if byte >> bit & 1 and cell < cells:
                        mapped |= 1 << perm[cell]
                sym_tables[s, chunk, byte] = mapped
    static = (
        cell_windows,
        window_count,
        np.array(centre_first_order(spec.rows, spec.cols), dtype=np.int64),
        sym_tables,
        np.array(perms, dtype=np.int64),
        np.array([inverse(p) for p in perms], dtype=np.int64),
        np.array(windows(spec.rows, spec.cols, spec.k), dtype=np.uint64),
        np.array([0] + [4**i for i in range(1, spec.k + 1)], dtype=np.int64),
    )
    return len(perms), static


@lru_cache(maxsize=32)
def threat_tables(spec: MNKSpec) -> tuple[np.ndarray[Any, Any], ...]:
    """The shift tables of the threat maps: per direction (across, down, diagonal,
    anti-diagonal) the bit step and the column step, and per column offset ``t`` from
    ``-(k-1)`` to ``k-1`` the mask of cells whose column plus ``t`` stays on the board."""
    rows, cols, k = spec.rows, spec.cols, spec.k
    steps = np.array([1, cols, cols + 1, cols - 1], dtype=np.int64)
    column_steps = np.array([1, 0, 1, -1], dtype=np.int64)
    masks = np.zeros(2 * k - 1, dtype=np.uint64)
    for t in range(-(k - 1), k):
        mask = 0
        for r in range(rows):
            for c in range(cols):
                if 0 <= c + t < cols:
                    mask |= 1 << (r * cols + c)
        masks[t + k - 1] = mask
    return steps, column_steps, masks
