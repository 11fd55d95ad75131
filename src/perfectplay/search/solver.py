"""The search entry points: ``solve``, ``best_move``, ``analyze``.

Each is a pure function ``f(game, position, limit) -> result``; nothing is kept on the game.
They pick the fastest engine the game offers (its compiled kernel, else the generic
alpha-beta of :mod:`.alphabeta`) and one of three regimes from the limit:

* no limit: an exact solve, straight to the end of the game;
* ``depth``: one search to that depth, heuristic at the horizon;
* ``time`` (and/or ``nodes``): iterative deepening, depth 1, 2, ... until the value is exact or
  the budget runs out; the best move of the last completed iteration is returned.

What the game's compiled kernel can do is read from its declared
:class:`~perfectplay.games.kernel.KernelTraits`, never probed. Everything a call needs travels
with it in :class:`SearchOptions` (engine, kernel options such as the opening book and the
table size, the alpha-beta refinements); nothing is kept between calls.

Callers outside the library go through :mod:`perfectplay.api`, which validates input first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from perfectplay.errors import ParameterError
from perfectplay.games import interrupt
from perfectplay.games.kernel import (
    DEFAULT_KERNEL_OPTIONS,
    ExactProgress,
    Kernel,
    KernelOptions,
    OpeningBooks,
    SearchControls,
)
from perfectplay.search import alphabeta as generic
from perfectplay.search.estimate import ESTIMATE_KEY, Level, extrapolate, line_to_end, measure
from perfectplay.search.limits import EXACT, MIN_TIME, Deadline, Limit, SearchAborted
from perfectplay.search.ordering import move_first
from perfectplay.search.result import (
    MoveValue,
    Score,
    SearchResult,
    finished_value,
    is_decisive,
    loss_in,
    quick_result,
    score_after_move,
    score_of_move,
    win_in,
)
from perfectplay.search.transposition import TranspositionTable
from perfectplay.values import UNLIMITED_NODES

Engine = Literal["auto", "kernel", "python"]
KERNEL_START_RATE = 2_000_000
"""Assumed kernel nodes per second before the first iteration has been timed."""

KERNEL_SEARCH = "alphabeta-kernel"
"""The ``algorithm`` of a result the game's compiled kernel searched."""
EXACT_LINE_FACTOR = 2.0
EXACT_LINE_NODES = 2_000_000
"""An untimed exact solve proves its principal variation move by move for at most
``EXACT_LINE_FACTOR`` times the solve's own nodes, and at least ``EXACT_LINE_NODES`` (about
half a second of the compiled kernels): below an opening book's depth each step is a new
solve (the whole line of the empty 7x6 board would take minutes after a solve of
milliseconds). Counted in nodes, not seconds, so that the same solve gives the same line
however busy the machine. The line is a true prefix of an optimal game."""
EXACT_LINE_SECONDS = 0.5
"""A timed exact search proves its line for at most ``EXACT_LINE_FACTOR`` times the time it
has spent, and at least ``EXACT_LINE_SECONDS`` (always within its limit): a search answered
at once by an opening book does not spend the rest of its time on the line."""

IterationCallback = Callable[[int, Score, Any, int, float], None]
"""Called after each completed iteration with (depth, score, best move, nodes, seconds)."""
MoveCallback = Callable[[MoveValue[Any], int, int, float], None]
"""Called after each move an analysis values, with (its value, moves valued, moves in all,
seconds)."""


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How one call searches.

    ``engine``: ``"kernel"`` insists on the compiled kernel (:class:`ParameterError` if the
    game has none), ``"python"`` runs the generic alpha-beta, ``"auto"`` the kernel when there
    is one. ``kernel``: the kernel's options (opening book, table size). ``refinements``: the
    generic search's table, symmetry and ordering switches (the kernel's too, where it has
    them). ``table_entries`` caps the table (by default the kernel's own choice).
    ``exact_plies``: the game's reach (its kit's policy): a position this many plies from
    its end is solved exactly in reasonable time, so a timed search of a position a few
    plies farther tries the exact solver first (see :meth:`Searcher._near_reach`).
    """

    engine: Engine = "auto"
    kernel: KernelOptions = DEFAULT_KERNEL_OPTIONS
    refinements: generic.Options = generic.DEFAULT_OPTIONS
    table_entries: int | None = None
    exact_plies: int | None = None


DEFAULT_SEARCH = SearchOptions()
TABLE_SLOTS_PER_SECOND = 1 << 22
"""Table slots a timed search gets per second of its limit (about the nodes a kernel visits):
a larger table would only cost page faults, which dominate a short search on fresh memory."""


FINISHED = "finished"
"""The algorithm of the result of a finished position (nothing was searched)."""
FROM_BOOKS = "opening-books"
"""The algorithm of a result every move of which the game's books answered."""
NEAR_REACH_PLIES = 2
"""A timed search of a position at most this many plies beyond its game's reach tries the
exact solver first (see :meth:`Searcher._near_reach`): each ply beyond multiplies the exact
solver's work by about 1.5-3."""
EXACT_FIRST_SHARE = 0.5
"""The part of a time limit an exact solve gets first, for a kernel declaring
``exact_first``, before iterative deepening takes the rest."""
TRIAL_WALL_FACTOR = 6.0
"""A trial (:attr:`~perfectplay.search.limits.Limit.trial`) counts processor time, and ends
by the wall clock at this many times its seconds however little of the processor it got."""
LEAST_GROWTH = 2.0
"""The least factor by which a timed search's next iteration is expected to outlast the
last one (see :func:`_doomed`)."""
TRIAL_FIRST_SHARE = 0.1
"""The part of a trial the exact solver spends on the position at first, before it measures
the growth of its work on a line to the end (a forced win is proved in it)."""
TRIAL_STEP_SHARE = 0.5
"""The most of a trial's time left a position of that line gets (the rest is the position's)."""
HANDOVER_SHARE = 0.5
"""A timed search hands over to the exact solver once its next iteration is expected to take
more than this part of the time left (see :func:`_doomed`)."""
MOST_GROWTH = 8.0
"""The most it is expected to outlast it (a short iteration's time is mostly noise)."""
HANDOVER_MIN_SECONDS = 0.02
"""Iterations shorter than this say nothing of the next one's time (see :func:`_doomed`)."""
EXACT_VALUE_SHARE = 0.5
"""The part of a timed value's limit an exact solve gets before a search takes over."""
BOOK_TABLE_ENTRIES = 1 << 20
"""Table slots of a search that ends at an opening book's positions, or starts at them (a
solve's line, an analysis of every move): 8 MiB, where a fresh 128 MiB table costs more in
page faults than such a search takes (analysing 12-stone 7x6 positions: 152 ms a position
with 2**20 slots, 205 ms with 2**16, 253 ms with 2**24)."""


def sized_for(search: SearchOptions, limit: Limit) -> SearchOptions:
    """``search`` with its table capped to what a search under ``limit`` can fill (a power of
    two, at least 2**12 slots, as many as an untimed search gets at most)."""
    if limit.time is None:
        return search
    entries = 1 << max(12, math.ceil(math.log2(limit.time * TABLE_SLOTS_PER_SECOND)))
    if search.table_entries is not None:
        entries = min(entries, search.table_entries)
    return replace(search, table_entries=entries)


@dataclass(frozen=True, slots=True)
class _Iteration:
    move: Any
    value: float
    nodes: int
    exact: bool
    aborted: bool


class _Engine:
    """A searcher's kernel (``None``: the generic search) and its table."""

    def __init__(self, kernel: Kernel[Any, Any] | None, table: Any) -> None:
        self.kernel, self.table = kernel, table

    def clear(self) -> None:
        """Empty the table (the kernel's way, or a fresh generic one)."""
        if self.table is None:
            return
        if self.kernel is not None:
            self.table = self.kernel.clear_table(self.table)
        else:
            self.table = TranspositionTable()


def _make_engine(game: Any, search: SearchOptions, position: Any) -> _Engine:
    """The kernel ``search`` asks for (the game's, unless the engine is ``"python"``) with
    its table (see :class:`Searcher`); raises :class:`ParameterError` for engine
    ``"kernel"`` on a game without one, or a table the memory cannot hold."""
    kernel: Kernel[Any, Any] | None = (
        None if search.engine == "python" else game.kernel(search.kernel)
    )
    if search.engine == "kernel" and kernel is None:
        raise ParameterError(f"engine 'kernel': {game!r} has no compiled kernel")
    if kernel is None:
        return _Engine(None, TranspositionTable() if search.refinements.table else None)
    hint = kernel.table_entries_hint()
    if search.kernel.table_bits is None and _from_book(game, kernel, position):
        hint = min(hint, BOOK_TABLE_ENTRIES)
    entries = hint if search.table_entries is None else min(search.table_entries, hint)
    try:
        return _Engine(kernel, kernel.new_table(entries) if search.refinements.table else None)
    except MemoryError:  # the memory is there, but not for this process right now
        raise ParameterError(
            f"table of {entries:,} slots: the memory for it could not be had"
        ) from None


def _from_book(game: Any, kernel: Kernel[Any, Any], position: Any) -> bool:
    """Whether ``kernel``'s opening book answers ``position`` after a short search."""
    if position is None or game.outcome(position) is not None:
        return False
    reach = kernel.book_reach()
    return reach is not None and game.plies_left_bound(position) >= reach


class Searcher:
    """One engine with its table: for the duration of one public call, or kept by a caller
    across many (:class:`perfectplay.api.Engine`).

    The compiled kernel is made (and its code loaded) only when a search needs it: a finished
    position, and one whose value and moves the game's books answer
    (:class:`~perfectplay.games.kernel.OpeningBooks`, engine ``"auto"`` only), never load it.
    """

    def __init__(self, game: Any, search: SearchOptions, position: Any = None) -> None:
        """An engine for ``game``; given the ``position`` it will search, a kernel whose book
        answers it after a short search gets a small table (:data:`BOOK_TABLE_ENTRIES`)
        unless the options size the table. Raises :class:`ParameterError` at once for engine
        ``"kernel"`` on a game without one, or a book file the options name that cannot be
        used."""
        self.game = game
        self.options = search.refinements
        self.search = search
        self.position = position
        self.books: OpeningBooks[Any] | None = (
            game.books(search.kernel) if search.engine == "auto" else None
        )
        self._engine: _Engine | None = None
        self._warm = False
        self._quick: Kernel[Any, Any] | None = None  # the kernel's quick path, once warm
        self._scores: dict[float, Score] = {}  # the exact scores the quick path gave
        self._quick_weak: Kernel[Any, Any] | None = None  # and its quick weak solve
        self._weak_scores: dict[int, Score] = {}  # and the weak ones
        if search.engine == "kernel":
            self._load()

    def _load(self) -> _Engine:
        """The kernel and its table, made on first use."""
        if self._engine is None:
            self._engine = _make_engine(self.game, self.search, self.position)
        return self._engine

    @property
    def kernel(self) -> Kernel[Any, Any] | None:
        """The compiled kernel (``None``: the generic search runs), made on first use."""
        return self._load().kernel

    @property
    def table(self) -> Any:
        """The kernel's (or the generic search's) table, made on first use."""
        return self._load().table

    @property
    def name(self) -> str:
        return KERNEL_SEARCH if self.kernel is not None else "alphabeta"

    def known_value(self, position: Any) -> float | None:
        """The exact value of a running ``position`` from the game's books, or ``None``."""
        return None if self.books is None else self.books.value(position)

    def known_moves(self, position: Any) -> list[MoveValue[Any]] | None:
        """Every legal move's exact value, for the side to move, when each leads to a
        finished position or one the books answer (no search); else ``None``."""
        if self.books is None:
            return None
        values: list[MoveValue[Any]] = []
        for move in self.game.legal_moves(position):
            child = self.game.play(position, move)
            outcome = self.game.outcome(child)
            if outcome is not None:
                value: float = -finished_value(self.game, child, outcome.winner, 1)
            else:
                known = self.books.value(child)
                if known is None:
                    return None
                value = score_of_move(Score(known, True)).value
            values.append(MoveValue(move, Score(value, True)))
        return values

    def clear(self) -> None:
        """Forget everything the table holds."""
        if self._engine is not None:
            self._engine.clear()

    def touch_table(self) -> None:
        """Have the kernel fault in its table's memory now rather than during searches."""
        if self.kernel is not None and self.table is not None:
            self.kernel.touch_table(self.table)

    def warm_up(self) -> None:
        """Load the kernel's compiled code before any clock starts: a tiny search, which
        costs microseconds once numba has loaded the code in this process; once per
        searcher (a kept :class:`perfectplay.api.Engine` checks nothing on later calls)."""
        if self._warm:
            return
        self._warm = True
        start = self.game.initial()
        kernel = self.kernel
        if kernel is not None and self.game.outcome(start) is None:
            kernel.warm_up(start)
        if kernel is not None and kernel.traits.quick and self.table is not None:
            self._quick = kernel
            self._quick_weak = kernel if kernel.traits.weak else None

    def quick(self, position: Any, line: bool) -> SearchResult[Any] | None:
        """:meth:`run`'s exact result (``with_pv=line``) of ``position`` when it costs no
        search or a short one: the books' answer, or the kernel's quick path (trait
        ``quick``: no Ctrl-C guard, no limit to check, no deadline for the line); ``None``
        for a finished position, a kernel without the quick path (or not warmed up yet:
        :meth:`warm_up`) and a longer solve, which :meth:`run` then searches, guarded, on
        the table the quick attempt warmed."""
        if self._quick is None:
            return None
        if self.books is not None and self.game.outcome(position) is None:
            answered = self.book_result(position, EXACT)
            if answered is not None:
                return answered
        return self._quick_result(self._quick, position, line)  # None when finished

    def exact(self, position: Any, line: bool) -> SearchResult[Any]:
        """:meth:`run`'s exact result (``with_pv=line``), :meth:`quick` tried first and not
        repeated when the solve is longer."""
        found = self.quick(position, line)
        if found is not None:
            return found
        tried = self._quick is not None
        return self.run(position, EXACT, None, with_pv=line, quick_tried=tried)

    def weak_exact(self, position: Any) -> SearchResult[Any]:
        """:meth:`weak`'s exact result, :meth:`quick_weak` tried first and not repeated."""
        found = self.quick_weak(position)
        if found is not None:
            return found
        return self.weak(position, EXACT, None, quick_tried=self._quick_weak is not None)

    def quick_weak(self, position: Any) -> SearchResult[Any] | None:
        """:meth:`weak`'s result of ``position`` when it costs no search or a short one (as
        :meth:`quick`: the books, or the kernel's quick weak solve); ``None`` for a kernel
        without it (traits ``quick`` and ``weak``, once warm), a finished position the books
        do not answer, and a longer solve, which :meth:`weak` then searches, guarded."""
        if self._quick_weak is None:
            return None
        if self.books is not None:
            started = time.perf_counter()
            known = self.known_weak(position)
            if known is not None:
                return self.weak_known(position, known, started)
        return self._quick_weak_search(position)

    def _quick_weak_search(self, position: Any) -> SearchResult[Any] | None:
        """The kernel's quick weak solve of ``position`` as a result, or ``None`` (no quick
        weak path, a finished position, a longer solve)."""
        kernel = self._quick_weak
        if kernel is None:
            return None
        started = time.perf_counter()
        answer = kernel.quick_weak(position, self.table)
        if answer is None:
            return None
        sign, nodes, depth = answer
        score = self._weak_scores.get(sign)
        if score is None:  # one per value, as the quick exact path keeps them
            score = self._weak_scores[sign] = Score(sign, True, True)
        spent = time.perf_counter() - started
        return quick_result(None, score, (), nodes, depth, spent, KERNEL_SEARCH, {})

    def _quick_result(
        self, kernel: Kernel[Any, Any], position: Any, line: bool
    ) -> SearchResult[Any] | None:
        """The kernel's quick exact answer of ``position`` as a result, or ``None`` for a
        finished position and a solve longer than the quick path goes."""
        started = time.perf_counter()
        answer = kernel.quick_exact(position, self.table, line)
        if answer is None:
            return None
        value, moves, nodes, depth = answer
        score = self._scores.get(value)
        if score is None:  # one per value: a frozen dataclass costs a microsecond to make
            score = self._scores[value] = Score(value, True)
        extra = {"table": self.options.table, "symmetry": self.options.symmetry}
        spent = time.perf_counter() - started
        return quick_result(moves[0], score, moves, nodes, depth, spent, KERNEL_SEARCH, extra)

    def fixed_depth(
        self,
        position: Any,
        depth: int,
        first: Any,
        deadline: Deadline | None,
        nodes: int,
        progress: ExactProgress | None = None,
    ) -> _Iteration:
        """One search of ``position`` to ``depth`` plies within a node budget; an exact one
        tells ``progress`` how it narrows the value (kernels that can report it)."""
        if self.kernel is not None:
            end = None
            if deadline is not None and self.kernel.traits.keeps_deadline:
                end = deadline.end - _reserve(deadline)
            controls = SearchControls(self.options.symmetry, self.options.ordering, end, progress)
            with interrupt.guard():
                result = self.kernel.search(position, depth, first, self.table, nodes, controls)
            decisive = is_decisive(result.value) and not self.kernel.traits.bounded_distances
            exact = result.horizon == 0 or decisive
            return _Iteration(result.move, result.value, result.nodes, exact, result.aborted)
        try:
            move, value, used, exact = generic.search_root(
                self.game, position, depth, self.options, self.table, first, deadline, nodes
            )
        except SearchAborted:
            return _Iteration(None, 0, 0, False, True)
        return _Iteration(move, value, used, exact, False)

    def pv(
        self,
        position: Any,
        move: Any,
        value: float,
        exact: bool,
        deadline: Deadline | None = None,
        line_nodes: int | None = None,
    ) -> tuple[Any, ...]:
        """The principal variation starting with ``move`` (worth ``value``).

        For exact results every step is re-proved against the (warm) table, until the end of
        the game, the ``deadline`` (with at most the time allowance of an exact line, see
        :data:`EXACT_LINE_SECONDS`) or ``line_nodes`` nodes of proofs (an untimed solve's
        allowance, see :data:`EXACT_LINE_NODES`); for heuristic ones, and for exact ones of a
        search with a ``deadline`` by a kernel that keeps the time itself, the table's best
        moves are followed.
        """
        kernel = self.kernel
        if exact and move is not None and kernel is not None and kernel.traits.exact_line:
            end = None
            if deadline is not None and not math.isinf(deadline.end):
                now = time.perf_counter()
                allowance = max(EXACT_LINE_SECONDS, EXACT_LINE_FACTOR * (now - deadline.start))
                end = min(deadline.end - _reserve(deadline), now + allowance)
            with interrupt.guard():
                found = kernel.exact_line(
                    position, move, value, self.table, deadline=end, nodes=line_nodes
                )
                return tuple(found)
        keeps_time = deadline is not None and kernel is not None and kernel.traits.keeps_deadline
        if not exact or move is None or keeps_time:
            if kernel is not None:
                return tuple(kernel.principal_variation(position, move, self.table))
            return generic.principal_variation(self.game, position, move, self.table, self.options)
        return self.proved_line(position, move, value, deadline, line_nodes)

    def proved_line(
        self,
        position: Any,
        move: Any,
        value: float,
        deadline: Deadline | None,
        line_nodes: int | None,
    ) -> tuple[Any, ...]:
        """``move`` (of exact ``value``) and after it, move by move, the first candidate
        whose value the search proves optimal, until the game ends, the ``deadline`` passes
        or the proofs have spent ``line_nodes`` nodes (checked between steps)."""
        game = self.game
        line = [move]
        current = game.play(position, move)
        target = score_after_move(Score(value, True)).value
        spent = 0
        while game.outcome(current) is None:
            if deadline is not None and deadline.expired():
                break
            if line_nodes is not None and spent >= line_nodes:
                break
            depth = self.proof_depth(current, target)
            for candidate in self.candidates(current):
                proved, nodes = self.move_proof(current, candidate, depth)
                spent += nodes
                if proved == target:
                    line.append(candidate)
                    current = game.play(current, candidate)
                    target = score_after_move(Score(target, True)).value
                    break
            else:  # pragma: no cover - the search contradicting itself; keep what is proved
                break
        return tuple(line)

    def candidates(self, position: Any) -> list[Any]:
        """Moves in search order, the table's best move first when the table knows one."""
        moves = list(self.game.ordered_moves(position))
        if self.kernel is not None:
            return move_first(moves, self.kernel.table_move(position, self.table))
        return moves

    def proof_depth(self, position: Any, value: float) -> int:
        """Plies enough to prove ``value`` again: the distance of a decisive one, else all."""
        full = int(self.game.plies_left_bound(position))
        if self.kernel is not None and self.kernel.traits.full_depth_proofs:
            return full
        plies = Score(value, True).plies
        return full if plies is None else min(full, plies)

    def move_proof(self, position: Any, move: Any, depth: int) -> tuple[float, int]:
        """Value of ``move`` for the side playing it, the reply searched ``depth - 1``
        plies, and the nodes that search took (none when the move ends the game)."""
        child = self.game.play(position, move)
        outcome = self.game.outcome(child)
        if outcome is not None:
            return -finished_value(self.game, child, outcome.winner, 1), 0
        reply = self.fixed_depth(child, max(1, depth - 1), None, None, UNLIMITED_NODES)
        return score_of_move(Score(reply.value, True)).value, reply.nodes

    def run(
        self,
        position: Any,
        limit: Limit,
        on_iteration: IterationCallback | None,
        with_pv: bool = True,
        on_progress: ExactProgress | None = None,
        quick_tried: bool = False,
    ) -> SearchResult[Any]:
        """Search ``position`` under ``limit`` (see the module docstring); ``with_pv=False``
        skips the principal variation beyond the best move; ``on_progress`` hears how an
        exact solve narrows the value. A finished position, and one whose moves the books
        all answer (without a depth limit), are answered without the kernel (the line is then
        the best move alone). The clock of a time limit starts after the kernel's code is
        loaded (compiled, the first time after an install), unless ``limit.started`` says
        when it started. ``quick_tried``: :meth:`quick` has just found neither the books'
        answer nor a short solve (neither is tried again)."""
        game = self.game
        outcome = game.outcome(position)
        if outcome is not None:
            value = finished_value(game, position, outcome.winner)
            return SearchResult(None, Score(value, True), (), 1, 0, 0.0, FINISHED)
        answered = None if quick_tried else self.book_result(position, limit)
        if answered is not None:
            return answered
        self.warm_up()
        started = time.perf_counter() if limit.started is None else limit.started
        full_depth = game.plies_left_bound(position)
        if limit.trial and limit.time is not None:
            return self._trial(position, limit.time, full_depth, started, with_pv, on_progress)
        if limit.time is None and limit.nodes is None:
            skip = quick_tried or limit.depth is not None or on_progress is not None
            quick = None if skip else self._quick
            found = None if quick is None else self._quick_result(quick, position, with_pv)
            if found is not None:
                return found
            depth = full_depth if limit.depth is None else min(limit.depth, full_depth)
            it = self.fixed_depth(position, depth, None, None, UNLIMITED_NODES, on_progress)
            line_nodes = max(EXACT_LINE_NODES, int(EXACT_LINE_FACTOR * it.nodes))
            return self._result(position, it, depth, started, with_pv, None, line_nodes)
        return self._iterate(
            position, limit, full_depth, started, on_iteration, with_pv, on_progress
        )

    def book_result(self, position: Any, limit: Limit) -> SearchResult[Any] | None:
        """The exact result of a running ``position`` whose every move the books answer
        (:meth:`known_moves`), without a depth limit; else ``None``. The best move is the
        first in the game's search order with the best value (the kernel's choice); the line
        goes on while the books (or a win at once) name the next move: a true prefix of an
        optimal game, often that move alone (the books know no deeper position)."""
        if limit.depth is not None:
            return None
        started = time.perf_counter()
        values = self.known_moves(position)
        if values is None:
            return None
        move, best = self.best_known(position, values)
        line = self.book_line(position, move)
        depth = self.game.plies_left_bound(position)
        spent = time.perf_counter() - started
        return SearchResult(move, best, line, len(values), depth, spent, FROM_BOOKS)

    def best_known(self, position: Any, values: list[MoveValue[Any]]) -> tuple[Any, Score]:
        """The first move in the game's search order with the best of ``values``, and it."""
        by_move = {value.move: value.score for value in values}
        best = max(by_move.values(), key=lambda score: score.value)
        return next(m for m in self.game.ordered_moves(position) if by_move[m] == best), best

    def book_line(self, position: Any, first: Any) -> tuple[Any, ...]:
        """``first`` and the moves after it that need no search: the best known move where
        the books value every move, the first winning move where the side to move wins at
        once; the line stops where neither holds."""
        game, line = self.game, [first]
        current = game.play(position, first)
        while game.outcome(current) is None:
            values = self.known_moves(current)
            if values is not None:
                move = self.best_known(current, values)[0]
            elif self.known_value(current) == win_in(1):
                move = next(m for m in game.ordered_moves(current) if self.wins_at_once(current, m))
            else:
                break
            line.append(move)
            current = game.play(current, move)
        return tuple(line)

    def wins_at_once(self, position: Any, move: Any) -> bool:
        """Whether ``move`` ends the game with a win for the side playing it."""
        child = self.game.play(position, move)
        outcome = self.game.outcome(child)
        return outcome is not None and outcome.winner == self.game.to_move(position)

    def _iterate(
        self,
        position: Any,
        limit: Limit,
        full_depth: int,
        started: float,
        on_iteration: IterationCallback | None,
        with_pv: bool,
        on_progress: ExactProgress | None,
    ) -> SearchResult[Any]:
        deadline = Deadline(limit.time, start=started)
        max_depth = full_depth if limit.depth is None else min(limit.depth, full_depth)
        budget = UNLIMITED_NODES if limit.nodes is None else limit.nodes
        total_nodes, rate = 0, float(KERNEL_START_RATE)
        best: _Iteration | None = None
        reached = 0
        exact_first = self.kernel is not None and self.kernel.traits.exact_first
        exact_first = exact_first or self._near_reach(full_depth)
        keeps_deadline = self.kernel is not None and self.kernel.traits.keeps_deadline
        move_ready = keeps_deadline and self.kernel is not None and self.kernel.traits.move_ready
        times: list[float] = []  # the seconds of each completed iteration
        for depth in range(1, max_depth + 1):
            handover = limit.depth is None and (
                (depth == 2 and exact_first)
                or (depth > 2 and depth < max_depth and _doomed(times, full_depth, deadline))
            )
            if handover:
                share = 1.0 if depth > 2 else EXACT_FIRST_SHARE
                it = self._exact_attempt(
                    position, full_depth, deadline, share, budget - total_nodes, rate, on_progress
                )
                total_nodes += it.nodes
                if not it.aborted and it.move is not None:
                    found = _Iteration(it.move, it.value, total_nodes, it.exact, False)
                    return self._result(position, found, full_depth, started, with_pv, deadline)
                if share == 1.0:  # the time is spent: keep the best move found so far
                    break
            nodes_left = budget - total_nodes
            if self.kernel is not None and limit.time is not None and not keeps_deadline:
                nodes_left = min(nodes_left, max(1_000, int(rate * deadline.remaining() * 0.9)))
            if depth > 1 and (nodes_left <= 0 or deadline.expired()):
                break
            began = time.perf_counter()
            if depth == 1:  # always searched (to its end, unless the kernel has a move ready)
                first_deadline = deadline if move_ready else None
                it = self.fixed_depth(position, 1, None, first_deadline, UNLIMITED_NODES)
            else:
                it = self.fixed_depth(
                    position, depth, best.move if best else None, deadline, nodes_left
                )
            spent = time.perf_counter() - began
            total_nodes += it.nodes
            if it.aborted or it.move is None:
                if best is None and it.move is not None:  # the kernel's best so far
                    best = _Iteration(it.move, 0.0, it.nodes, False, True)
                elif best is not None and move_ready and it.move not in (None, best.move):
                    # The last move searched first and beaten, fully, a ply deeper.
                    best = _Iteration(it.move, it.value, it.nodes, False, True)
                break
            times.append(spent)
            if spent > 0.002:
                rate = it.nodes / spent
            best, reached = it, depth
            if on_iteration is not None:
                on_iteration(
                    depth, Score(it.value, it.exact), it.move, total_nodes, deadline.elapsed()
                )
            if it.exact or is_decisive(it.value):  # proved (its distance maybe a bound): done
                break
        if best is None:  # not even depth 1 finished: take the game's favourite move
            move = self.game.ordered_moves(position)[0]
            best = _Iteration(move, 0.0, 0, False, True)
        found = _Iteration(best.move, best.value, total_nodes, best.exact, False)
        return self._result(position, found, reached, started, with_pv, deadline)

    def _trial(
        self,
        position: Any,
        seconds: float,
        full_depth: int,
        started: float,
        with_pv: bool,
        on_progress: ExactProgress | None,
    ) -> SearchResult[Any]:
        """The exact solver alone on ``position`` for ``seconds`` of this process's processor
        time (a busy machine slows the trial, it does not fail it), and at most
        :data:`TRIAL_WALL_FACTOR` times as long by the wall clock: a first attempt on
        :data:`TRIAL_FIRST_SHARE` of it (a forced win ends at once), the growth of the
        solver's work measured on a line to the end (:mod:`.estimate`), then attempts going
        on from the table until one ends. An answer that is not exact (the game's favourite
        move) when none does, with the estimated cost of the solve in its ``extra`` under
        :data:`~perfectplay.search.estimate.ESTIMATE_KEY` (when the line measured one)."""
        cpu_start, total = time.process_time(), 0
        wall_end = started + seconds * TRIAL_WALL_FACTOR

        def left() -> float:
            return min(seconds - (time.process_time() - cpu_start), wall_end - time.perf_counter())

        levels: list[Level] | None = None
        while left() > 0:
            share = TRIAL_FIRST_SHARE if levels is None else 1.0
            deadline = Deadline(left())
            it = self._exact_attempt(
                position, full_depth, deadline, share, UNLIMITED_NODES,
                KERNEL_START_RATE, on_progress,
            )  # fmt: skip
            total += it.nodes
            if not it.aborted and it.move is not None:
                found = _Iteration(it.move, it.value, total, it.exact, False)
                return self._result(position, found, full_depth, started, with_pv, deadline)
            if levels is None:
                levels, nodes = self._line_levels(position, left)
                total += nodes
        move = self.game.ordered_moves(position)[0]
        found = _Iteration(move, 0.0, total, False, True)
        result = self._result(position, found, 0, started, False)
        rate = total / max(time.process_time() - cpu_start, MIN_TIME)
        estimate = extrapolate(levels or [], full_depth, total, rate)
        return replace(result, extra={**result.extra, ESTIMATE_KEY: estimate})

    def _line_levels(self, position: Any, left: Callable[[], float]) -> tuple[list[Level], int]:
        """The exact solver's work on a line from ``position`` to the end, from the end back
        (:func:`~perfectplay.search.estimate.measure`), each step on at most
        :data:`TRIAL_STEP_SHARE` of the seconds ``left()``; and the nodes it searched."""
        game, spent = self.game, 0

        def attempt(step: Any) -> tuple[int, bool]:
            nonlocal spent
            deadline = Deadline(max(0.0, left()) * TRIAL_STEP_SHARE)
            it = self._exact_attempt(
                step, game.plies_left_bound(step), deadline, 1.0, UNLIMITED_NODES,
                KERNEL_START_RATE, None,
            )  # fmt: skip
            spent += it.nodes
            return it.nodes, not it.aborted and it.move is not None

        levels = measure(line_to_end(game, position), game.plies_left_bound, attempt)
        return levels, spent

    def _near_reach(self, full_depth: int) -> bool:
        """Whether a position ``full_depth`` plies from its end is at most
        :data:`NEAR_REACH_PLIES` beyond the game's reach (``exact_plies``): a timed search of
        it tries the exact solver first, on :data:`EXACT_FIRST_SHARE` of its time, as a
        kernel declaring ``exact_first`` does (iterative deepening proves no draw before the
        end: on the empty (5,5,4) board it searched 17 plies in 20 s, where the exact solver
        alone proves the draw in 3 s)."""
        reach = self.search.exact_plies
        return reach is not None and reach < full_depth <= reach + NEAR_REACH_PLIES

    def _exact_attempt(
        self,
        position: Any,
        full_depth: int,
        deadline: Deadline,
        share: float,
        nodes: int,
        rate: float,
        on_progress: ExactProgress | None,
    ) -> _Iteration:
        """An exact solve of ``position`` on ``share`` of the time left before ``deadline``
        and of the ``nodes`` left (a kernel that does not keep deadlines gets the nodes its
        ``rate`` searches in that time); aborted when it does not end in time."""
        exact_deadline = deadline.share(share)
        keeps_deadline = self.kernel is not None and self.kernel.traits.keeps_deadline
        budget = int(nodes * share)
        if self.kernel is not None and not keeps_deadline and not math.isinf(deadline.end):
            budget = min(budget, int(rate * exact_deadline.remaining()))
        return self.fixed_depth(
            position, full_depth, None, exact_deadline, max(1_000, budget), on_progress
        )

    def check_weak(self, limit: Limit) -> Kernel[Any, Any]:
        """The kernel of a weak solve; raises :class:`ParameterError` when there is none or
        the limit has a depth or a node budget (a time limit ends it unsolved)."""
        check_weak_limit(limit)
        if self.kernel is None or not self.kernel.traits.weak:
            raise ParameterError(f"weak solve: {self.game.name} has no weak solver")
        return self.kernel

    def weak(
        self,
        position: Any,
        limit: Limit,
        on_progress: ExactProgress | None = None,
        quick_tried: bool = False,
    ) -> SearchResult[Any]:
        """Win (1), draw (0) or loss (-1) of ``position`` for its side to move, no move;
        under a time limit the score is not exact (0) when the time ran out first. A finished
        position, and one the books answer (or whose every move they answer), need no
        kernel; a short exact solve takes the quick path (:meth:`quick_weak`) unless
        ``quick_tried`` says it was just tried."""
        check_weak_limit(limit)
        started = time.perf_counter()
        known = self.known_weak(position)
        if known is not None:
            return self.weak_known(position, known, started)
        self.check_weak(limit)
        self.warm_up()
        if limit.unlimited and on_progress is None and not quick_tried:
            found = self._quick_weak_search(position)
            if found is not None:
                return found
        started = time.perf_counter()
        score, nodes = self.weak_score(position, limit, on_progress)
        elapsed = time.perf_counter() - started
        depth = self.game.plies_left_bound(position)
        return SearchResult(None, score, (), nodes, depth, elapsed, self.name)

    def weak_known(self, position: Any, known: Score, started: float) -> SearchResult[Any]:
        """The weak result of a ``position`` whose score is ``known`` without a search
        (:meth:`known_weak`, asked at ``started``): finished, or from the books."""
        name = FINISHED if self.game.outcome(position) is not None else FROM_BOOKS
        depth = self.game.plies_left_bound(position)
        return SearchResult(None, known, (), 0, depth, time.perf_counter() - started, name)

    def known_weak(self, position: Any) -> Score | None:
        """The weak score of ``position`` when known without a search: finished, or answered
        by the books, or every move answered by them; else ``None``."""
        outcome = self.game.outcome(position)
        if outcome is not None:
            return weak_of(finished_value(self.game, position, outcome.winner))
        known = self.known_value(position)
        if known is None:
            values = self.known_moves(position)
            if values is None:
                return None
            known = max(value.score.value for value in values)
        return weak_of(known)

    def weak_score(
        self, position: Any, limit: Limit, on_progress: ExactProgress | None = None
    ) -> tuple[Score, int]:
        """The weak score of a running position under ``limit`` (see :meth:`weak`), and the
        nodes searched."""
        kernel = self.check_weak(limit)
        deadline = None if limit.time is None else time.perf_counter() + limit.time
        with interrupt.guard():
            sign, nodes, aborted = kernel.weak_value(
                position, self.table, UNLIMITED_NODES, on_progress, deadline
            )
        return Score(0 if aborted else sign, not aborted, True), nodes

    def value(self, position: Any, limit: Limit, weak: bool = False) -> Score:
        """The score of a running ``position`` for its side to move under ``limit``: from the
        books when they know it (without a depth limit), from the kernel's exact (or weak)
        value when the limit is exact, else from a search."""
        known = None if limit.depth is not None else self.known_value(position)
        if known is not None:
            return weak_of(known) if weak else Score(known, True)
        if weak:
            return self.weak_score(position, limit)[0]
        if self.kernel is not None and limit.unlimited:
            with interrupt.guard():
                return Score(self.kernel.exact_value(position, self.table), True)
        if limit.time is not None and limit.started is None:  # one clock for both tries
            limit = replace(limit, started=time.perf_counter())
        timed = self._timed_value(position, limit)
        if timed is not None:
            return timed
        return self.run(position, limit, None, with_pv=False).score

    def _timed_value(self, position: Any, limit: Limit) -> Score | None:
        """The exact score from a kernel declaring ``timed_value``, on half of a time limit
        counted from ``limit.started`` (the other half is left for a search that finds a
        move), or ``None``."""
        kernel = self.kernel
        if kernel is None or not kernel.traits.timed_value:
            return None
        if (
            limit.time is None
            or limit.started is None
            or (limit.depth, limit.nodes) != (None, None)
        ):
            return None
        deadline = limit.started + limit.time * EXACT_VALUE_SHARE  # a move search: the rest
        with interrupt.guard():
            value = kernel.timed_exact_value(position, self.table, deadline)
        return None if value is None else Score(value, True)

    def _result(
        self,
        position: Any,
        found: _Iteration,
        depth: int,
        started: float,
        with_pv: bool,
        deadline: Deadline | None = None,
        line_nodes: int | None = None,
    ) -> SearchResult[Any]:
        """The result of a search; its line is re-proved only until ``deadline`` (the time
        limit of a timed search) or for ``line_nodes`` nodes (an untimed solve's
        allowance), or read from a kernel's table under a time limit, so that the answer
        comes within the limit."""
        move, exact, value = found.move, found.exact, found.value
        line = self.pv(position, move, value, exact, deadline, line_nodes) if with_pv else (move,)
        return SearchResult(
            best_move=move,
            score=Score(found.value, exact),
            pv=line,
            nodes=found.nodes,
            depth=depth,
            time=time.perf_counter() - started,
            algorithm=self.name,
            extra={"table": self.options.table, "symmetry": self.options.symmetry},
        )


def solve_many_with(
    searcher: Searcher,
    positions: Sequence[Any],
    limit: Limit = EXACT,
    *,
    weak: bool = False,
    line: bool = True,
    clear: bool = False,
) -> list[SearchResult[Any]]:
    """:meth:`Searcher.run` (or :meth:`Searcher.weak`) of each position on ``searcher``'s
    table, the table emptied before each when ``clear``: the same results as one call each
    (the nodes and times aside). The exact strong solves of running positions the books do
    not answer go to the kernel in one compiled call when it declares ``batch`` (one thread,
    an exact limit), each with the line's allowance of a single solve; the rest, and every
    position of a game whose kernel does not, are searched one call each."""
    batched = _batchable(searcher, limit) and not weak
    results: list[SearchResult[Any] | None] = []
    queued: list[int] = []
    for index, position in enumerate(positions):
        running = batched and searcher.game.outcome(position) is None
        answered = searcher.book_result(position, limit) if running else None
        if running and answered is None:
            results.append(None)  # the batch's answer goes here
            queued.append(index)
            continue
        if answered is not None:  # the books' answer, as ``run`` gives it (no table used)
            results.append(answered)
            continue
        if clear:
            searcher.clear()
        if weak:
            results.append(searcher.weak(position, limit))
        else:
            results.append(searcher.run(position, limit, None, with_pv=line))
    batch = _exact_batch(searcher, positions, queued, line, clear)
    for index, found in zip(queued, batch, strict=True):
        results[index] = found
    return [found for found in results if found is not None]


def _batchable(searcher: Searcher, limit: Limit) -> bool:
    """Whether ``searcher``'s kernel solves exact batches in one compiled call: it declares
    ``batch``, the limit is exact and the search runs on one thread with a table."""
    if not limit.unlimited or limit.trial or searcher.search.kernel.threads > 1:
        return False
    kernel = searcher.kernel
    return kernel is not None and kernel.traits.batch and searcher.table is not None


def _exact_batch(
    searcher: Searcher, positions: Sequence[Any], queued: list[int], line: bool, clear: bool
) -> list[SearchResult[Any]]:
    """The exact results of ``positions[i]`` for ``i`` in ``queued`` (running positions
    the books do not answer) from the kernel's batch; a position it leaves unanswered is
    solved alone."""
    if not queued:
        return []
    kernel = searcher.kernel
    assert kernel is not None  # _batchable said so
    searcher.warm_up()
    chosen = [positions[index] for index in queued]
    allowance = (EXACT_LINE_NODES, EXACT_LINE_FACTOR) if line else None  # as ``run``'s
    started = time.perf_counter()
    answers = kernel.exact_results(chosen, searcher.table, [clear] * len(chosen), allowance)
    each = (time.perf_counter() - started) / len(chosen)
    extra = {"table": searcher.options.table, "symmetry": searcher.options.symmetry}
    results: list[SearchResult[Any]] = []
    for position, answer in zip(chosen, answers, strict=True):
        if answer is None:  # pragma: no cover - no deadline is given: never cut short
            results.append(searcher.run(position, EXACT, None, with_pv=line))
            continue
        depth = searcher.game.plies_left_bound(position)
        score, name = Score(answer.value, True), searcher.name
        found = SearchResult(answer.line[0], score, answer.line, answer.nodes, depth, each, name)
        results.append(replace(found, extra=dict(extra)))
    return results


def analyze_many_with(
    searcher: Searcher,
    positions: Sequence[Any],
    limit: Limit = EXACT,
    *,
    weak: bool = False,
    clear: bool = False,
) -> list[list[MoveValue[Any]]]:
    """:func:`analyze_with` of each position on ``searcher``'s table, the table emptied
    before each when ``clear``: the same values as one call each. With a kernel declaring
    ``batch`` (one thread, an exact limit, not weak) every move's position that is neither
    finished nor answered by the books is solved in one compiled call for the whole list."""
    if weak or not _batchable(searcher, limit):
        analyses = []
        for position in positions:
            if clear:
                searcher.clear()
            analyses.append(analyze_with(searcher, position, limit, weak=weak))
        return analyses
    game = searcher.game
    plans: list[list[tuple[Any, Score | None]]] = []
    children: list[Any] = []
    for position in positions:
        plan = _analysis_plan(searcher, position)
        plans.append(plan)
        children += [game.play(position, move) for move, known in plan if known is None]
    clears = _first_of_each(plans, clear)
    searcher.warm_up()
    kernel = searcher.kernel
    assert kernel is not None  # _batchable said so
    values = iter(kernel.exact_values_many(children, searcher.table, clears) if children else [])
    return [
        [
            MoveValue(move, score_of_move(Score(next(values), True)) if known is None else known)
            for move, known in plan
        ]
        for plan in plans
    ]


def _analysis_plan(searcher: Searcher, position: Any) -> list[tuple[Any, Score | None]]:
    """Every legal move of ``position`` with its score when known without a search (a
    finished child, the books), ``None`` where the kernel must solve the child."""
    known = searcher.known_moves(position)
    if known is not None:
        return [(value.move, value.score) for value in known]
    game, plan = searcher.game, []
    for move in game.legal_moves(position):
        child = game.play(position, move)
        outcome = game.outcome(child)
        if outcome is not None:
            score: Score | None = Score(-finished_value(game, child, outcome.winner, 1), True)
        else:
            value = searcher.known_value(child)
            score = None if value is None else score_of_move(Score(value, True))
        plan.append((move, score))
    return plan


def _first_of_each(plans: list[list[tuple[Any, Score | None]]], clear: bool) -> list[bool]:
    """For each child to solve, in order, whether the table is emptied before it: before
    the first child of each position when ``clear``."""
    clears: list[bool] = []
    for plan in plans:
        unknown = sum(known is None for _, known in plan)
        clears += [clear] + [False] * (unknown - 1) if unknown else []
    return clears


def weak_of(value: float) -> Score:
    """The weak score (1 win, 0 draw, -1 loss) of an exact value."""
    return Score((value > 0) - (value < 0), True, True)


def check_weak_limit(limit: Limit) -> None:
    """Raise :class:`ParameterError` for a weak solve under a depth or a node budget (it is
    exact; a time limit ends it unsolved)."""
    if limit.depth is not None or limit.nodes is not None:
        raise ParameterError("weak solve: it is exact; it takes no depth or node limit")


def _doomed(times: list[float], full_depth: int, deadline: Deadline) -> bool:
    """Whether a timed search that has completed ``len(times)`` iterations (taking ``times``
    seconds each) of a position ``full_depth`` plies from its end should hand over to the
    exact solver: past half of the way to the end, when its next iteration, expected to take
    the last one's time times the growth between the last two (from :data:`LEAST_GROWTH` to
    :data:`MOST_GROWTH`; iterations under :data:`HANDOVER_MIN_SECONDS` measure nothing),
    would use more than :data:`HANDOVER_SHARE` of the time left. That iteration would most
    likely be cut off and thrown away; the exact solver gets the time instead and proves the
    value when it can finish (the same for every game)."""
    if len(times) < 2 or 2 * len(times) < full_depth or math.isinf(deadline.end):
        return False
    if min(times[-2:]) < HANDOVER_MIN_SECONDS:
        return False
    growth = min(MOST_GROWTH, max(LEAST_GROWTH, times[-1] / times[-2]))
    return times[-1] * growth > HANDOVER_SHARE * deadline.remaining()


def _reserve(deadline: Deadline) -> float:
    """Time kept back from a kernel's own deadline for what follows the search (the line,
    the result) and for the scheduler's latency on a busy machine: 3% of the limit, at most
    100 ms."""
    return min(0.1, 0.03 * (deadline.end - deadline.start))


def solve(
    game: Any,
    position: Any,
    limit: Limit = EXACT,
    *,
    weak: bool = False,
    line: bool = True,
    search: SearchOptions = DEFAULT_SEARCH,
    on_iteration: IterationCallback | None = None,
    on_progress: ExactProgress | None = None,
) -> SearchResult[Any]:
    """Best move, value and principal variation of ``position`` under ``limit``
    (``line=False``: the best move alone, no line sought); ``on_iteration`` hears of each
    iteration of a timed search, ``on_progress`` how an exact solve narrows the value.

    ``weak=True`` asks only whether the side to move wins, draws or loses (an exact limit and
    a kernel declaring the ``weak`` trait are needed; :class:`ParameterError` otherwise): the
    result has a weak score and no move. Ties between equally good moves go to the first in
    the game's move order.
    """
    searcher = Searcher(game, sized_for(search, limit), position)
    if weak:
        return searcher.weak(position, limit, on_progress)
    return searcher.run(position, limit, on_iteration, with_pv=line, on_progress=on_progress)


def analyze(
    game: Any,
    position: Any,
    limit: Limit = EXACT,
    *,
    weak: bool = False,
    search: SearchOptions = DEFAULT_SEARCH,
    on_move: MoveCallback | None = None,
) -> list[MoveValue[Any]]:
    """The value of every legal move, for the side to move, in the game's legal order.

    Exact values come from one table shared by all the moves (the kernel's exact value where
    it has one); under a time limit the time is shared equally between the moves; ``weak``
    gives win/draw/loss only (as for :func:`solve`); ``on_move`` hears of each move valued.
    """
    searcher = Searcher(game, sized_for(search, limit), position)
    return analyze_with(searcher, position, limit, weak=weak, on_move=on_move)


def analyze_with(
    searcher: Searcher,
    position: Any,
    limit: Limit = EXACT,
    *,
    weak: bool = False,
    on_move: MoveCallback | None = None,
) -> list[MoveValue[Any]]:
    """:func:`analyze` on ``searcher``'s table (kept by a caller across many positions).
    When the books answer every move (without a depth limit, not weak), no kernel is
    loaded."""
    game = searcher.game
    known = None if limit.depth is not None else searcher.known_moves(position)
    if known is not None:
        if weak:
            check_weak_limit(limit)
            known = [MoveValue(value.move, weak_of(value.score.value)) for value in known]
        if on_move is not None:
            for number, found in enumerate(known, start=1):
                on_move(found, number, len(known), 0.0)
        return known
    searcher.warm_up()  # before the clock starts, as in a search
    started = time.perf_counter() if limit.started is None else limit.started
    moves = list(game.legal_moves(position))
    left = None if limit.time is None else max(0.0, limit.time - (time.perf_counter() - started))
    per_move = Limit(
        None if limit.depth is None else max(0, limit.depth - 1),
        None if left is None or not moves else max(MIN_TIME, left / len(moves)),
        limit.nodes,
        trial=limit.trial,
    )
    if weak:
        searcher.check_weak(per_move)
    values: list[MoveValue[Any]] = []
    for move in moves:
        child = game.play(position, move)
        outcome = game.outcome(child)
        if outcome is not None:
            value = -finished_value(game, child, outcome.winner, 1)
            score = weak_of(value) if weak else Score(value, True)
        else:
            score = score_of_move(searcher.value(child, per_move, weak))
        values.append(MoveValue(move, score))
        if on_move is not None:
            on_move(values[-1], len(values), len(moves), time.perf_counter() - started)
    return values


def best_move(
    game: Any,
    position: Any,
    limit: Limit = EXACT,
    *,
    rng: random.Random | None = None,
    search: SearchOptions = DEFAULT_SEARCH,
    on_iteration: IterationCallback | None = None,
    on_progress: ExactProgress | None = None,
) -> SearchResult[Any]:
    """Like :func:`solve`; with ``rng`` the move is drawn at random among the equally best.

    The random choice analyses every move (see :func:`analyze`), so it costs more.
    """
    result = solve(
        game, position, limit, search=search, on_iteration=on_iteration, on_progress=on_progress
    )
    if rng is None or result.best_move is None:
        return result
    values = analyze(game, position, limit, search=search)
    top = max(v.score.value for v in values)
    choice = rng.choice([v for v in values if v.score.value == top])
    return SearchResult(
        best_move=choice.move,
        score=choice.score,
        pv=(choice.move,),
        nodes=result.nodes,
        depth=result.depth,
        time=result.time,
        algorithm=result.algorithm + "+random",
    )


__all__ = [
    "DEFAULT_SEARCH",
    "MoveCallback",
    "SearchOptions",
    "Searcher",
    "analyze",
    "analyze_many_with",
    "best_move",
    "loss_in",
    "score_of_move",
    "solve",
    "solve_many_with",
]
