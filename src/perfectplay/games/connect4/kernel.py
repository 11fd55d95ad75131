"""The Connect Four kernel driver: tables, score conversions and root move choice around the
compiled solver of :mod:`perfectplay.games.connect4.compiled`.

Two scales meet here. The solver works in the standard Connect Four score (a win with the
winner's ``s``-th stone is ``(cells + 1) // 2 + 1 - s``); the generic search layer works in
``WIN - plies`` (:mod:`perfectplay.search.result`). :meth:`Connect4Kernel.search` converts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.common.compiled_bits import CLOCK_CHECK_MASK, direct_entry, now
from perfectplay.games.connect4.book import OpeningBook, bundled_book
from perfectplay.games.connect4.compiled import (
    BUDGET,
    DEADLINE,
    HORIZON,
    MARK_SLOTS,
    META_BITS,
    NO_BOOK,
    NODES,
    STATS_SIZE,
    work_size,
)
from perfectplay.games.connect4.deep_book import DEEP_BOARD, DeepBookKind, installed_kernel_words
from perfectplay.games.connect4.engine import ENGINE
from perfectplay.games.interrupt import NO_DEADLINE_NS, deadline_ns
from perfectplay.games.kernel import (
    DEFAULT_CONTROLS,
    ExactAnswer,
    ExactProgress,
    KernelBase,
    KernelOptions,
    KernelResult,
    KernelTraits,
    LineAllowance,
    SearchControls,
    check_table_memory,
    table_entries,
)
from perfectplay.values import UNLIMITED_NODES as UNLIMITED
from perfectplay.values import WIN

QUICK_NODES = CLOCK_CHECK_MASK + 1
"""The node budget of :meth:`Connect4Kernel.quick_exact`: a search without a deadline reads
the clock (where Ctrl-C's guard answers it) first at node ``CLOCK_CHECK_MASK + 2``, so one of
at most this many nodes never does, and needs no guard: Python's own handler raises
:class:`KeyboardInterrupt` as it returns, well under a millisecond later. Most end-game
positions are solved within it; a longer solve is started again, guarded, on the warm table."""
SHARED_AFTER_NODES = 2_000_000
"""With several threads, a solve runs on one thread for this many nodes first (about 0.2 s):
most positions are solved by then, and starting threads for each probe costs more than it
gains on small searches."""
Probe = Callable[[np.uint64, np.uint64, int, int, int], tuple[int, int, bool]]
"""A null-window search ``(current, mask, moves played, window, node budget) -> (result,
nodes, aborted)``: the position's value is at most ``result`` when ``result <= window`` and
at least ``result`` otherwise (nothing when aborted)."""

if TYPE_CHECKING:
    from perfectplay.games.connect4.rules import Connect4Game, Connect4Position

NO_DEEP_BOOK = np.zeros(0, dtype=np.uint64)
"""The ``deep`` array of a kernel without the deep book (never written)."""
DEFAULT_TABLE_BITS = 24
"""2**24 slots of 8 bytes: 128 MiB, the default table of the exact solver."""
SLOT_BYTES = 8
"""One word a slot (layout in :mod:`perfectplay.games.connect4.compiled`)."""
MIN_TABLE_BITS = 16
"""Smaller tables are made this large: a slot keeps ``bits - META_BITS`` bits of epoch."""
EPOCH_BITS_CAP = 20
"""At most this many epoch bits (a table is zeroed once every million clears at most)."""


class Connect4Table:
    """A transposition table (one uint64 word a slot, at least ``2**16`` slots) with the
    search counters.

    :meth:`clear` is O(1): it starts a new epoch, and slots of older epochs do not count
    (the table is zeroed when the epoch wraps).
    """

    __slots__ = ("epochs", "marks", "slots", "stats")

    def __init__(self, entries: int) -> None:
        """A table of ``entries`` slots (a power of two)."""
        if entries < 2 or entries & (entries - 1):
            raise ParameterError(f"table entries={entries}: must be a power of two, at least 2")
        entries = max(entries, 1 << MIN_TABLE_BITS)
        check_table_memory(entries, SLOT_BYTES)
        bits = entries.bit_length() - 1
        self.epochs = 1 << min(bits - META_BITS, EPOCH_BITS_CAP)
        self.slots = np.zeros(entries, dtype=np.uint64)
        self.marks = np.zeros(MARK_SLOTS, dtype=np.uint64)  # for threads sharing the table
        self.stats = np.zeros(STATS_SIZE, dtype=np.int64)
        self.stats[:6] = [0, UNLIMITED, 0, 1, 64 - bits, NO_DEADLINE_NS]

    @property
    def entries(self) -> int:
        """Number of slots."""
        return int(self.slots.shape[0])

    @property
    def bytes(self) -> int:
        """Memory used."""
        return int(self.slots.nbytes)

    def epochs_left(self) -> int:
        """Clears left before the epochs wrap (at least 1)."""
        return max(1, self.epochs - 1 - int(self.stats[3]))

    def clear(self) -> None:
        """Forget every entry: a new epoch, or a zeroed table when the epochs wrap."""
        epoch = self.stats.item(3) + 1  # plain ints: a numpy scalar's += costs more
        if epoch >= self.epochs:
            self.slots.fill(0)
            epoch = 1
        self.stats[3] = epoch

    def touch(self) -> None:
        """Write every page of the table once, so that later searches do not pay for the
        operating system handing out fresh memory (about 0.1 s for 128 MiB)."""
        self.slots.fill(0)

    def start(self, budget: int, deadline: float | None = None) -> np.ndarray[Any, Any]:
        """Reset the counters for a search with a node budget and a ``deadline``
        (``time.perf_counter`` seconds, ``None``: none); the stats array."""
        return reset_stats(self.stats, budget, deadline)


class Solved(NamedTuple):
    """An exact (or weak) solve: the standard score, nodes searched, and whether the node
    budget or the deadline ran out first (then the score means nothing). A named tuple: it is
    made once a position, and a frozen dataclass costs a few tenths of a microsecond more,
    a tenth of the smallest searches."""

    score: int
    nodes: int
    aborted: bool


class Connect4Kernel(KernelBase["Connect4Position", int]):
    """Compiled search for one Connect Four board size, with the opening book ``options``
    ask for (the one shipped for the board by default, a file, or none)."""

    traits = KernelTraits(
        exact_first=True,
        full_depth_proofs=True,
        exact_line=True,
        weak=True,
        keeps_deadline=True,
        timed_value=True,
        batch=True,
        quick=True,
    )
    engine = ENGINE

    def __init__(self, game: Connect4Game, options: KernelOptions) -> None:
        spec = game.spec
        self.game = game
        self.table_bits = DEFAULT_TABLE_BITS if options.table_bits is None else options.table_bits
        self.threads = options.threads
        self.found = np.zeros(2, dtype=np.int64)  # a solve's best column and value (scratch)
        self.book: OpeningBook | None = None
        self.deep = NO_DEEP_BOOK
        if options.book_path is not None:
            self.book = OpeningBook.load(options.book_path)
            self.work = work_with_book(spec.width, spec.height, spec.k, self.book)
        elif options.book:
            self.book = bundled_book(spec.width, spec.height, spec.k)
            self.work = bundled_work(spec.width, spec.height, spec.k).copy()
        else:
            self.work = work_with_book(spec.width, spec.height, spec.k, None)
        if options.book and (spec.width, spec.height, spec.k) == DEEP_BOARD:
            self.use_deep_book(installed_kernel_words())

    def use_deep_book(self, deep: np.ndarray[Any, Any] | None) -> None:
        """Consult the deep 7x6 book (its words as :func:`kernel_words` packs them), or
        none, in every later search of this kernel."""
        from perfectplay.games.connect4.compiled import DEEP_DEPTH

        self.deep = NO_DEEP_BOOK if deep is None else deep
        self.work[DEEP_DEPTH] = NO_BOOK if deep is None else DeepBookKind.TWELVE_DISTANCES.stones

    def use_book(self, book: OpeningBook | None) -> None:
        """Consult ``book`` (or none) in every later search of this kernel.

        Raises :class:`ParameterError` when the book is for another board.
        """
        spec = self.game.spec
        self.work = work_with_book(spec.width, spec.height, spec.k, book)
        self.book = book
        self.use_deep_book(self.deep if len(self.deep) else None)

    def book_reach(self) -> int | None:
        """Positions with at most the deepest book's depth of stones are answered from the
        books (a search down to the book's positions): those with ``cells - depth`` plies
        left."""
        depths = [] if self.book is None else [self.book.depth]
        if len(self.deep):
            depths.append(DeepBookKind.TWELVE_DISTANCES.stones)
        return self.game.spec.cells - max(depths) if depths else None

    # -- tables ---------------------------------------------------------------------------
    @staticmethod
    def new_table(entries: int = 1 << DEFAULT_TABLE_BITS) -> Connect4Table:
        """A fresh table (8 bytes a slot, at least 2**16 slots)."""
        return Connect4Table(entries)

    def table_entries_hint(self) -> int:
        """The table size of the options (2**24 slots, 128 MiB, by default)."""
        return table_entries(KernelOptions(table_bits=self.table_bits), DEFAULT_TABLE_BITS)

    def warm_up(self, start: Connect4Position) -> None:
        """Load every entry point: an exact solve of ``start`` with and without progress
        reports, one node each, the best move, the line and the batches cut short at once,
        and a depth-1 search."""
        if all(function.signatures for function in self.compiled_functions()):
            return
        now()  # the first trip to the clock from compiled code takes ~0.1 s: not mid-search
        table = self.new_table(1 << 4)
        self.solve(start, table, node_budget=1)
        self.solve(start, table, node_budget=1, progress=lambda *_: None)
        self.best_column(start, 0, table, 1)
        self.exact_line(start, self.game.ordered_moves(start)[0], 0, table, deadline=0.0)
        self.solve_many([start], table, deadline=0.0)
        self.exact_results([start], table, [True], (0, 0.0), deadline=0.0)
        super().warm_up(start)

    def touch_table(self, table: Connect4Table) -> None:
        """Fault in every page of the table (about 0.1 s for 128 MiB)."""
        table.touch()

    def clear_table(self, table: Connect4Table) -> Connect4Table:
        """The same table, emptied in O(1) (a new epoch)."""
        table.clear()
        return table

    def exact_value(self, position: Connect4Position, table: Connect4Table) -> int:
        """The exact value of a running position: the solver's score on the value scale."""
        return self.to_value(position, self.solve(position, table).score)

    def timed_exact_value(
        self, position: Connect4Position, table: Connect4Table, deadline: float
    ) -> int | None:
        """The exact value of a running position, or ``None`` when the ``deadline``
        (``time.perf_counter`` seconds) comes first: the solve alone, no move sought."""
        solved = self.solve(position, table, deadline=deadline)
        return None if solved.aborted else self.to_value(position, solved.score)

    def weak_value(
        self,
        position: Connect4Position,
        table: Connect4Table,
        node_budget: int,
        progress: ExactProgress | None = None,
        deadline: float | None = None,
    ) -> tuple[int, int, bool]:
        """Win (1), draw (0) or loss (-1) of a running position, nodes, whether aborted (past
        ``node_budget`` nodes or the ``deadline``)."""
        solved = self.solve(position, table, True, node_budget, progress, deadline)
        return solved.score, solved.nodes, solved.aborted

    # -- positions ------------------------------------------------------------------------
    def boards(self, position: Connect4Position) -> tuple[np.uint64, np.uint64, int]:
        """``(current, mask, moves played)`` for the solver."""
        return np.uint64(position.to_move_stones), np.uint64(position.mask), position.plies

    @staticmethod
    def board_rows(
        positions: Sequence[Connect4Position], clears: Sequence[bool] | None = None
    ) -> np.ndarray[Any, Any]:
        """``(current, mask, moves played, clear)`` of each position as the rows of one uint64
        array (built column by column from plain integers: a list of numpy scalars costs
        microseconds a position); ``clear`` (1 for every position without ``clears``) asks
        for the table to be emptied before the position."""
        rows = np.empty((len(positions), 4), dtype=np.uint64)
        rows[:, 0] = [p.to_move_stones for p in positions]
        rows[:, 1] = [p.mask for p in positions]
        rows[:, 2] = [p.plies for p in positions]
        rows[:, 3] = 1 if clears is None else [int(c) for c in clears]
        return rows

    # -- exact solving --------------------------------------------------------------------
    def solve(
        self,
        position: Connect4Position,
        table: Connect4Table,
        weak: bool = False,
        node_budget: int = UNLIMITED,
        progress: ExactProgress | None = None,
        deadline: float | None = None,
    ) -> Solved:
        """Standard score of a running position (weak: -1, 0 or 1), aborted past
        ``node_budget`` nodes or the ``deadline`` (``time.perf_counter`` seconds).

        ``progress(low, high, nodes, seconds)`` is called after every null-window probe; the
        score range narrows until ``low == high``. Without it the whole bisection runs
        compiled. With ``threads`` above 1 in the kernel's options, a search that outgrows
        :data:`SHARED_AFTER_NODES` nodes on one thread (a search with progress reports at
        once) goes on with every thread on the same table (:mod:`.parallel`).
        """
        spent = 0
        if progress is None:
            trial = node_budget if self.threads == 1 else min(node_budget, SHARED_AFTER_NODES)
            alone = self._solve_compiled(position, table, weak, trial, deadline)
            if not alone.aborted or trial == node_budget or table.stats[BUDGET] == 0:
                return alone  # done, or stopped by the budget, the deadline or Ctrl-C
            spent = alone.nodes
        if self.threads == 1:
            probe = partial(self._probe, table, deadline)
            return self._bisect(position, weak, node_budget, progress, probe)
        from perfectplay.games.connect4.parallel import SharedProbe

        with SharedProbe(self.work, self.deep, table, self.threads, deadline) as shared:
            solved = self._bisect(position, weak, node_budget - spent, progress, shared.search)
        return solved._replace(nodes=solved.nodes + spent)

    def _solve_compiled(
        self,
        position: Connect4Position,
        table: Connect4Table,
        weak: bool,
        node_budget: int,
        deadline: float | None,
    ) -> Solved:
        """:meth:`solve` on one thread, the bisection and all in one compiled call."""
        stats = table.stats
        score = solve_entry()(
            position.first, position.second, weak, node_budget,
            NO_DEADLINE_NS if deadline is None else deadline_ns(deadline),
            self.work, table.slots, stats, self.deep, table.marks,
        )  # fmt: skip
        nodes = stats.item(NODES)
        return Solved(score, nodes, nodes > stats.item(BUDGET))

    def _probe(
        self,
        table: Connect4Table,
        deadline: float | None,
        current: np.uint64,
        mask: np.uint64,
        played: int,
        window: int,
        budget: int,
    ) -> tuple[int, int, bool]:
        """One null-window search on one thread: a :data:`Probe`."""
        from perfectplay.games.connect4 import compiled as k

        stats = table.start(budget, deadline)
        result = k.negamax(
            current, mask, played, window, window + 1, self.work, table.slots, stats, self.deep,
            table.marks,
        )  # fmt: skip
        return int(result), int(stats[NODES]), bool(stats[NODES] > stats[BUDGET])

    def _bisect(
        self,
        position: Connect4Position,
        weak: bool,
        node_budget: int,
        progress: ExactProgress | None,
        probe: Probe,
    ) -> Solved:
        """The exact (or weak) score by null-window searches, narrowing from Python as the
        compiled :func:`~perfectplay.games.connect4.compiled.solve` does, ``progress``
        hearing of each step."""
        from perfectplay.games.connect4 import compiled as k

        current, mask, played = self.boards(position)
        win_next, _, _, lose_next = (int(v) for v in k.score_bounds(played, int(self.work[k.TOP])))
        if k.can_win_next(current, mask, self.work):
            return Solved(1 if weak else win_next, 1, False)
        low, high = (-1, 1) if weak else (lose_next, win_next)
        started, nodes = time.perf_counter(), 0
        while low < high:
            med = int(k.next_probe(low, high))
            result, used, aborted = probe(current, mask, played, med, node_budget - nodes)
            nodes += used
            if aborted:
                return Solved(0, nodes, True)
            if result <= med:
                high = result
            else:
                low = result
            if progress is not None:
                progress(low, high, nodes, time.perf_counter() - started)
        score = ((low > 0) - (low < 0)) if weak else low
        return Solved(score, nodes, False)

    def solve_many(
        self,
        positions: Sequence[Connect4Position],
        table: Connect4Table,
        weak: bool = False,
        deadline: float | None = None,
        clears: Sequence[bool] | None = None,
    ) -> list[Solved]:
        """:meth:`solve` of each position, the table emptied before each (before those
        ``clears`` marks, when given), in one compiled call per run of positions: for batches
        of small positions, whose searches take microseconds. A position the ``deadline``
        cuts short and those after it come back aborted. Running positions only."""
        from perfectplay.games.connect4 import compiled as k

        answers: list[Solved] = []
        while len(answers) < len(positions):
            end = len(answers) + table.epochs_left()
            run = positions[len(answers) : end]
            boards = self.board_rows(run, None if clears is None else clears[len(answers) : end])
            scores = np.zeros((len(run), 2), dtype=np.int64)
            stats = table.start(UNLIMITED, deadline)
            arrays = (self.work, table.slots, stats, self.deep, table.marks)
            done = int(k.solve_many(boards, weak, *arrays, scores))
            answers += [Solved(s, n, False) for s, n in scores[:done].tolist()]
            table.clear()  # the epoch after the run's last (the table is zeroed when it wraps)
            if done < len(run):
                return answers + [Solved(0, 0, True)] * (len(positions) - len(answers))
        return answers

    def exact_results(
        self,
        positions: Sequence[Connect4Position],
        table: Connect4Table,
        clears: Sequence[bool],
        line: LineAllowance | None,
        deadline: float | None = None,
    ) -> list[ExactAnswer[int] | None]:
        """Trait ``batch``: the exact value, best move and (with a ``line`` allowance) the
        principal variation of each running position, in one compiled call per run of
        positions (the table emptied before those ``clears`` marks). ``None`` for a
        position the ``deadline`` cuts short, and for every one after it."""
        from perfectplay.games.connect4 import compiled as k

        answers: list[ExactAnswer[int] | None] = []
        cells = self.game.spec.cells
        floor, factor = (0, 0.0) if line is None else (int(line[0]), float(line[1]))
        while len(answers) < len(positions):
            end = len(answers) + table.epochs_left()
            run = positions[len(answers) : end]
            boards = self.board_rows(run, clears[len(answers) : end])
            found = np.zeros((len(run), 3), dtype=np.int64)
            lines = np.zeros((len(run), cells), dtype=np.int64)
            stats = table.start(UNLIMITED, deadline)
            arrays = (self.work, table.slots, stats, self.deep, table.marks)
            done = int(k.best_many(boards, line is not None, floor, factor, *arrays, found, lines))
            for position, (score, nodes, length), moves in zip(
                run, found[:done].tolist(), lines[:done].tolist(), strict=False
            ):
                value = self.to_value(position, score)
                answers.append(ExactAnswer(value, tuple(moves[:length]), nodes))
            table.clear()  # the epoch after the run's last (the table is zeroed when it wraps)
            if done < len(run):
                return answers + [None] * (len(positions) - len(answers))
        return answers

    def quick_exact(
        self, position: Connect4Position, table: Connect4Table, line: bool
    ) -> tuple[int, tuple[int, ...], int, int] | None:
        """Trait ``quick``: the exact value, the best move and after it (``line``) the
        principal variation, the nodes and the plies left of a running position searched in
        at most :data:`QUICK_NODES` nodes on one thread, with no clock read (see there: no
        Ctrl-C guard needed); ``None`` for a finished position and when the budget runs out
        first. The same answer as :meth:`search` and :meth:`exact_line` give."""
        plies, cells = position.plies, self.game.spec.cells
        if position.win_mask or plies == cells:
            return None
        stats, found = table.stats, self.found
        score = solve_best_entry()(
            position.first, position.second, QUICK_NODES, NO_DEADLINE_NS,
            self.work, table.slots, stats, self.deep, table.marks, found,
        )  # fmt: skip
        column, value = found.tolist()
        if column < 0:  # the budget ran out
            return None
        nodes = stats.item(NODES)  # the solve's and the move's, as :meth:`search` counts
        if not line:
            return value, (column,), nodes, cells - plies
        out = np.empty(cells - plies, dtype=np.int64)
        arrays = (self.work, table.slots, stats, self.deep, table.marks)
        count = line_entry()(
            position.to_move_stones, position.mask, plies, score, column, *arrays, out
        )
        if stats.item(NODES) > QUICK_NODES:
            return None
        return value, tuple(out[:count].tolist()), nodes, cells - plies

    def quick_weak(
        self, position: Connect4Position, table: Connect4Table
    ) -> tuple[int, int, int] | None:
        """Traits ``quick`` and ``weak``: win (1), draw (0) or loss (-1) of a running position,
        the nodes and the plies left, searched in at most :data:`QUICK_NODES` nodes with no
        clock read (as :meth:`quick_exact`); ``None`` for a finished position and when the
        budget runs out first. The same answer as :meth:`weak_value` gives."""
        left = self.game.spec.cells - position.plies
        if position.win_mask or not left:
            return None
        stats = table.stats
        sign = solve_entry()(
            position.first, position.second, True, QUICK_NODES, NO_DEADLINE_NS,
            self.work, table.slots, stats, self.deep, table.marks,
        )  # fmt: skip
        nodes = stats.item(NODES)
        return None if nodes > stats.item(BUDGET) else (sign, nodes, left)

    def exact_values_many(
        self, positions: Sequence[Connect4Position], table: Connect4Table, clears: Sequence[bool]
    ) -> list[int]:
        """Trait ``batch``: the exact value of each running position (the value scale, for
        its side to move), in one compiled call per run (the table emptied before those
        ``clears`` marks)."""
        solved = self.solve_many(positions, table, clears=clears)
        return [self.to_value(p, s.score) for p, s in zip(positions, solved, strict=True)]

    def move_scores(
        self, position: Connect4Position, table: Connect4Table, weak: bool = False
    ) -> dict[int, int]:
        """Standard score, for the mover, of every playable column of a running position."""
        scores: dict[int, int] = {}
        for column in self.game.legal_moves(position):
            child = self.game.play_column(position, column)
            if child.win_mask:
                scores[column] = 1 if weak else self.game.score_of(position, 1, True)
            elif child.plies == self.game.spec.cells:
                scores[column] = 0
            else:
                scores[column] = -self.solve(child, table, weak).score
        return scores

    def best_column(
        self,
        position: Connect4Position,
        score: int,
        table: Connect4Table,
        budget: int,
        deadline: float | None = None,
    ) -> tuple[int | None, int]:
        """The first column in centre-first order that achieves ``score``, and nodes used;
        ``None`` when the node budget or the ``deadline`` ran out first.

        A move is optimal when its reply scores at most ``-score``: one null-window search
        per candidate on the warm table, all in one compiled call
        (:func:`~perfectplay.games.connect4.compiled.best_move`).
        """
        from perfectplay.games.connect4 import compiled as k

        current, mask, played = self.boards(position)
        stats = table.start(budget, deadline)
        column = int(
            k.best_move(current, mask, played, score, self.work, table.slots, stats, self.deep,
                        table.marks)
        )  # fmt: skip
        return (None if column < 0 else column), stats.item(NODES)

    # -- the generic kernel protocol ------------------------------------------------------
    def to_value(self, position: Connect4Position, score: int) -> int:
        """A standard score as a ``WIN - plies`` value for the side to move."""
        if score == 0:
            return 0
        plies = self.game.plies_of(position, score)
        return WIN - plies if score > 0 else -(WIN - plies)

    def search(
        self,
        position: Connect4Position,
        depth: int,
        first: int | None,
        table: Connect4Table | None,
        node_budget: int,
        controls: SearchControls = DEFAULT_CONTROLS,
    ) -> KernelResult[int]:
        """Exact when ``depth`` covers the rest of the game, else depth-limited with the
        heuristic; the move is the first optimal one in centre-first order (``first`` is only
        a hint for the depth-limited search). Both stop at ``controls.deadline``."""
        if table is None:
            table = self.new_table(1 << 16)
        if depth >= self.game.plies_left_bound(position):
            return self._exact(position, table, node_budget, controls)
        return self._limited(position, depth, first, node_budget, controls.deadline)

    def _exact(
        self,
        position: Connect4Position,
        table: Connect4Table,
        budget: int,
        controls: SearchControls,
    ) -> KernelResult[int]:
        deadline = controls.deadline
        if self.threads == 1 and controls.progress is None:
            return self._exact_alone(position, table, budget, deadline)
        solved = self.solve(position, table, False, budget, controls.progress, deadline)
        if solved.aborted:
            return KernelResult(None, 0, solved.nodes, 0, True)
        column, extra = self.best_column(position, solved.score, table, budget, deadline)
        nodes = solved.nodes + extra
        if column is None:
            return KernelResult(None, 0, nodes, 0, True)
        return KernelResult(column, self.to_value(position, solved.score), nodes, 0, nodes > budget)

    def _exact_alone(
        self,
        position: Connect4Position,
        table: Connect4Table,
        budget: int,
        deadline: float | None,
    ) -> KernelResult[int]:
        """The exact solve and its best move on one thread, in one compiled call."""
        stats = table.stats
        score = solve_best_entry()(
            position.first, position.second, budget,
            NO_DEADLINE_NS if deadline is None else deadline_ns(deadline),
            self.work, table.slots, stats, self.deep, table.marks, self.found,
        )  # fmt: skip
        nodes = stats.item(NODES)
        column = self.found.item(0)
        if column < 0:
            return KernelResult(None, 0, nodes, 0, True)
        return KernelResult(column, self.to_value(position, score), nodes, 0, nodes > budget)

    def _limited(
        self,
        position: Connect4Position,
        depth: int,
        first: int | None,
        budget: int,
        deadline: float | None,
    ) -> KernelResult[int]:
        from perfectplay.games.connect4 import compiled as k

        stats = reset_stats(np.zeros(STATS_SIZE, dtype=np.int64), budget, deadline)
        columns = list(self.game.ordered_moves(position))
        if first in columns:
            columns.remove(first)
            columns.insert(0, first)
        best_column, alpha = None, -(WIN + 1)
        for column in columns:
            child = self.game.play_column(position, column)
            if child.win_mask:
                return KernelResult(column, WIN - 1, int(stats[0]) + 1, 0, False)
            if child.plies == self.game.spec.cells:
                value = 0
            else:
                c_cur, c_mask, c_played = self.boards(child)
                if k.can_win_next(c_cur, c_mask, self.work):
                    value = -(WIN - 2)
                else:
                    value = -k.negamax_depth(
                        c_cur, c_mask, c_played, 1, depth - 1, -(WIN + 1), -alpha, self.work, stats
                    )
            if stats[NODES] > stats[BUDGET]:
                break
            if value > alpha:
                best_column, alpha = column, value
        aborted = bool(stats[NODES] > stats[BUDGET])
        return KernelResult(
            best_column, int(alpha), int(stats[NODES]), int(stats[HORIZON]), aborted
        )

    def exact_line(
        self,
        position: Connect4Position,
        first: int,
        value: float,
        table: Connect4Table,
        deadline: float | None = None,
        nodes: int | None = None,
    ) -> tuple[int, ...]:
        """A principal variation of an exactly solved position, ``first`` (worth ``value``)
        first: after each move the reply is the first optimal column in centre-first order,
        proved by null-window searches that the warm table answers (a search only where it
        lost the entry), the whole line in one compiled call
        (:func:`~perfectplay.games.connect4.compiled.line_from`). With a ``deadline``
        (``time.perf_counter`` seconds) the line stops where the time runs out, with
        ``nodes`` where its proofs have searched that many."""
        score = self.game.score_of(position, int(WIN - abs(value)), value > 0) if value else 0
        line = np.zeros(self.game.spec.cells - position.plies, dtype=np.int64)
        stats = table.start(UNLIMITED if nodes is None else nodes, deadline)
        arrays = (self.work, table.slots, stats, self.deep, table.marks)
        count = line_entry()(
            position.to_move_stones, position.mask, position.plies, score, first, *arrays, line
        )
        return tuple(line[:count].tolist())

    def table_move(self, position: Connect4Position, table: Any) -> int | None:
        """No move is stored in this table (the solver re-derives moves on the warm table)."""
        return None

    def principal_variation(
        self, position: Connect4Position, first: int | None, table: Any
    ) -> tuple[int, ...]:
        """Just ``first`` for a heuristic result (exact lines are re-proved by the caller)."""
        return () if first is None else (first,)


@cache
def solve_best_entry() -> Callable[..., int]:
    """The compiled :func:`~perfectplay.games.connect4.compiled.solve_best_call` without
    numba's dispatch (as :func:`solve_entry`); its last argument the int64 array that gets
    the best column."""
    from perfectplay.games.connect4 import compiled

    return direct_entry(compiled.solve_best_call)


@cache
def line_entry() -> Callable[..., int]:
    """The compiled :func:`~perfectplay.games.connect4.compiled.line_from` without numba's
    dispatch (as :func:`solve_entry`)."""
    from perfectplay.games.connect4 import compiled

    return direct_entry(compiled.line_from)


@cache
def solve_entry() -> Callable[..., int]:
    """The compiled :func:`~perfectplay.games.connect4.compiled.solve_call`, called without
    numba's dispatch (a microsecond or more of a search of a few dozen nodes). Its arguments:
    the position's ``first`` and ``second`` stones, ``weak``, the node budget, the deadline
    (:func:`deadline_ns`), then the kernel's ``work``, the table's ``slots`` and ``stats``,
    the kernel's ``deep`` and the table's ``marks`` arrays, as they were made."""
    from perfectplay.games.connect4 import compiled

    return direct_entry(compiled.solve_call)


def reset_stats(
    stats: np.ndarray[Any, Any], budget: int, deadline: float | None
) -> np.ndarray[Any, Any]:
    """``stats`` set for a new search: no nodes yet, the node ``budget`` and the ``deadline``
    (``time.perf_counter`` seconds, ``None``: none). Returns ``stats``."""
    stats[NODES] = 0
    stats[BUDGET] = budget
    stats[HORIZON] = 0
    stats[DEADLINE] = deadline_ns(deadline)
    return stats


def work_with_book(
    width: int, height: int, k: int, book: OpeningBook | None
) -> np.ndarray[Any, Any]:
    """A fresh ``work`` array of a board (layout in :mod:`perfectplay.games.connect4.compiled`)
    with ``book`` appended (none: the book fields say so).

    Raises :class:`ParameterError` when the book is for another board.
    """
    from perfectplay.games.connect4.compiled import (
        BOOK_COUNT,
        BOOK_DEPTH,
        BOOK_START,
        LINES_START,
        lines_start,
    )

    cells, stride = width * height, height + 1
    bottom = sum(1 << (c * stride) for c in range(width))
    board = bottom * ((1 << height) - 1)
    centre = (width - 1) / 2
    order = sorted(range(width), key=lambda c: (abs(c - centre), c))
    columns = [((1 << height) - 1) << (c * stride) for c in range(width)]
    header = [width, height, k, cells, bottom, board, (cells + 1) // 2 + 1, NO_BOOK, 0, 0]
    header += [NO_BOOK, 0]  # the deep book's depth, where the line counts start
    lower_rows = sum(1 << row for row in range(height) if row % 2 == height % 2)
    header += [bottom * lower_rows, board ^ (bottom * lower_rows)]  # claimeven's pairs
    header += [*order, *columns]
    base = np.zeros(work_size(width, cells), dtype=np.uint64)
    base[: len(header)] = header
    base[LINES_START] = lines_start(width, cells)
    for column in range(width):
        for row in range(height):
            lines = cell_lines(column, row, width, height, k)
            base[lines_start(width, cells) + column * stride + row] = lines
    if book is None:
        return base
    book.check_board(width, height, k)
    base[BOOK_DEPTH], base[BOOK_START], base[BOOK_COUNT] = book.depth, len(base), len(book.keys)
    scores = (book.scores.astype(np.int64) + 128).astype(np.uint64)
    return np.concatenate([base, book.keys.astype(np.uint64), scores])


def cell_lines(column: int, row: int, width: int, height: int, k: int) -> int:
    """How many lines of ``k`` cells on the board pass through a cell (capped at 63): the
    move ordering's tie-break, central cells first."""
    total = 0
    for before, after in (
        (min(column, k - 1), min(width - 1 - column, k - 1)),
        (min(row, k - 1), min(height - 1 - row, k - 1)),
        (min(column, row, k - 1), min(width - 1 - column, height - 1 - row, k - 1)),
        (min(column, height - 1 - row, k - 1), min(width - 1 - column, row, k - 1)),
    ):
        total += max(0, before + after - k + 2)
    return min(total, 63)


@lru_cache(maxsize=8)
def bundled_work(width: int, height: int, k: int) -> np.ndarray[Any, Any]:
    """The ``work`` array with the book shipped for the board: built once per process and
    copied by each kernel (its scratch part is written during searches), never written."""
    return work_with_book(width, height, k, bundled_book(width, height, k))
