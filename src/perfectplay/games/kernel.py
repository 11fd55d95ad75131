"""The compiled-kernel protocol: what a game's kernel offers to the game-agnostic search.

A game hands out its kernel through ``game.kernel(options)`` (``None`` when it has none, or
when the board is too large for the kernel's representation). A kernel is built per call with
the caller's :class:`KernelOptions` (opening book, table size): nothing about a search is kept
in a process-wide cache, and two calls with different options never see each other's
settings. Kernel modules import numba; they are imported lazily (inside functions) so that
the command line and the library start fast.

What a kernel can do beyond the core protocol is *declared* in its :class:`KernelTraits`,
which :mod:`perfectplay.search.solver` and :mod:`perfectplay.analysis.exact` read. A trait
that is declared must be backed by the method it names; a method whose trait is not declared
is never called (the base :class:`KernelBase` makes such calls fail loudly, so a typo in a
declaration cannot silently fall back to a slow path).

Kernels keep scratch memory and are not thread-safe: one search at a time per kernel.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from perfectplay.errors import ParameterError

P = TypeVar("P")
M = TypeVar("M")
P_in = TypeVar("P_in", contravariant=True)
"""A kernel only takes positions: contravariant in the position type."""
ExactProgress = Callable[[int, int, int, float], None]
"""Called by an exact solve as it narrows the value: ``(low, high, nodes, seconds)``, the
bounds on the game's conventional score scale (Connect Four's standard score)."""
MIN_TABLE_BITS, MAX_TABLE_BITS = 10, 30
MAX_THREADS = 64
"""The most search threads :class:`KernelOptions` takes."""
"""The range of ``KernelOptions.table_bits`` (2**N table slots)."""
WARM_UP_NODES = 1_000
"""Nodes of the search that loads a kernel's compiled code before any clock starts."""


@dataclass(frozen=True, slots=True)
class KernelOptions:
    """Per-call settings of a kernel.

    ``book``: consult the opening book shipped for the board (games with books only);
    ``book_path``: consult this book file instead; ``table_bits``: a transposition table of
    ``2**table_bits`` slots instead of the kernel's default; ``threads``: search threads
    sharing the table in the exact solver (games declaring ``Capability.THREADS``). Checked by
    :func:`perfectplay.api.kernel_options`. ``evaluation``: the weights of the kernel's
    evaluation instead of its defaults (kernels with a tunable evaluation only, the big m,n,k
    boards', which check them; others ignore it): what a tuner plays one set against another
    with, in one process. For five in a row the big kernel also reads a set of pattern values
    here (``games/mnk/pattern_values.py``: ``PatternValues.numbers()``, told apart from the
    window weights by its length, 16 against 7; checked by ``values_from``).
    """

    book: bool = True
    book_path: Path | None = None
    table_bits: int | None = None
    evaluation: tuple[int, ...] | None = None
    threads: int = 1


DEFAULT_KERNEL_OPTIONS = KernelOptions()


@dataclass(frozen=True, slots=True)
class CompiledEngine:
    """A compiled engine as a game declares it, without importing it (numba and the engine's
    modules load only when a search needs them).

    ``label`` names it in sentences (``the Connect Four engine``); ``compile_seconds`` is
    about how long its first compile takes (once per install: numba caches the code on
    disk); ``entry_points`` are the numba functions a search loads, as ``(module, names)``
    pairs: what :meth:`KernelBase.compiled_functions` returns and what
    :func:`perfectplay.games.compile_cache.cached` looks for in numba's cache.
    """

    label: str
    compile_seconds: int
    entry_points: tuple[tuple[str, tuple[str, ...]], ...]


class OpeningBooks(Protocol[P_in]):
    """Exact values a game knows without searching (its opening books, and a win at once),
    read without loading any compiled code: what a game's ``books(options)`` hands out."""

    def reach(self) -> int | None:
        """Positions with at least this many plies left are answered from the books after a
        short search (``None``: no book); the same as the kernel's ``book_reach``."""
        ...

    def value(self, position: P_in) -> int | None:
        """The exact value (scale of :mod:`perfectplay.values`) of a running position for its
        side to move, when known without a search; else ``None``."""
        ...


@dataclass(frozen=True, slots=True)
class SearchControls:
    """How one kernel search runs: ``symmetry`` lets symmetric positions share table
    entries, ``ordering`` tries the promising moves first (both on by default; the switches
    exist to measure them), ``deadline`` (``time.perf_counter`` seconds) stops the search
    when the kernel declares ``keeps_deadline``, and ``progress`` hears how an exact solve
    narrows the value."""

    symmetry: bool = True
    ordering: bool = True
    deadline: float | None = None
    progress: ExactProgress | None = None


DEFAULT_CONTROLS = SearchControls()


@dataclass(frozen=True, slots=True)
class KernelTraits:
    """What a kernel declares it can do beyond :class:`Kernel`'s core.

    * ``exact_first``: under a time limit, try an exact solve on part of the budget before
      deepening (Connect Four's exact solver beats its depth-limited search);
    * ``full_depth_proofs``: exact values are re-proved by full-depth searches only;
    * ``keeps_deadline``: :meth:`Kernel.search` honours its ``deadline`` argument itself;
    * ``exact_line``: :meth:`Kernel.exact_line` gives the principal variation of an exact
      value (else the solver re-proves each step);
    * ``weak``: :meth:`Kernel.weak_value` answers win/draw/loss faster than an exact solve;
    * ``timed_value``: :meth:`Kernel.timed_exact_value` gives a position's exact value by a
      deadline, without looking for a move (an analysis of every move needs only values);
    * ``complete_table``: :meth:`Kernel.exact_values` lists the value of every position below
      a position of a small board;
    * ``bounded_distances``: a decisive value of a search that reached a horizon (a
      threat-space proof, a beam of moves) proves the outcome, its distance only as an upper
      bound: it is reported as proved, not exact (``win in at most N``). Without it such a
      value is exact (a full-width search finds the soonest win within its depth);
    * ``move_ready``: :meth:`Kernel.search` keeps its deadline from the first iteration on
      and, stopped at it, still answers its best move so far (at worst its first by move
      order, never ``None`` for a running position): a time limit holds even where one
      iteration takes longer (without it the first iteration always runs to its end). A
      search given a move to try first answers another only when that move was searched
      to the end and beaten by it: so a timed search takes the move of its last iteration
      even when cut off (the previous iteration's move otherwise).
    * ``batch``: :meth:`Kernel.exact_results` and :meth:`Kernel.exact_values_many` solve a
      list of positions exactly in one compiled call (else the search layer loops).
    * ``quick``: :meth:`Kernel.quick_exact` answers a short exact solve (its value, best move
      and line) in one compiled call too short to need Ctrl-C's guard, or says it is longer;
      with ``weak`` too, :meth:`Kernel.quick_weak` does the same for a short weak solve.
    """

    exact_first: bool = False
    full_depth_proofs: bool = False
    keeps_deadline: bool = False
    exact_line: bool = False
    weak: bool = False
    timed_value: bool = False
    complete_table: bool = False
    bounded_distances: bool = False
    move_ready: bool = False
    batch: bool = False
    quick: bool = False


@dataclass(frozen=True, slots=True)
class KernelResult(Generic[M]):
    """One fixed-depth root search: the move (``None`` if aborted before any), its value
    (root-relative scale of :mod:`perfectplay.values`), nodes, horizon leaves reached,
    and whether the budget ran out (then the value is only the best of the moves done).
    """

    move: M | None
    value: int
    nodes: int
    horizon: int
    aborted: bool


LineAllowance = tuple[int, float]
"""How many nodes the proofs of an exact line may take in a batch: ``(floor, factor)``, at
least ``floor`` and ``factor`` times the nodes of its position's solve (the rule of single
solves, :data:`perfectplay.search.solver.EXACT_LINE_NODES`)."""


@dataclass(frozen=True, slots=True)
class ExactAnswer(Generic[M]):
    """One position of a batch (:meth:`Kernel.exact_results`): its exact value (the
    root-relative scale of :mod:`perfectplay.values`), the best move and, when a line was
    asked for, the principal variation after it (``line[0]`` is the best move), and the
    nodes of the solve and the move."""

    value: int
    line: tuple[M, ...]
    nodes: int


class Kernel(Protocol[P_in, M]):
    """What the search layer needs from a compiled kernel."""

    @property
    def traits(self) -> KernelTraits:
        """The optional abilities this kernel declares."""
        ...

    def new_table(self, entries: int) -> Any:
        """A fresh transposition table with about ``entries`` slots (the kernel's own type)."""
        ...

    def table_entries_hint(self) -> int:
        """Table slots the kernel uses by default (its options' ``table_bits`` included)."""
        ...

    def search(
        self,
        position: P_in,
        depth: int,
        first: M | None,
        table: Any,
        node_budget: int,
        controls: SearchControls = DEFAULT_CONTROLS,
    ) -> KernelResult[M]:
        """Search a running position ``depth`` plies deep, ``first`` move tried first; stop
        past ``node_budget`` nodes, or at the controls' deadline when the kernel declares
        ``keeps_deadline``. An exact search (``depth`` to the end) may report its narrowing
        bounds to the controls' ``progress``."""
        ...

    def clear_table(self, table: Any) -> Any:
        """An empty table of the same size: ``table`` emptied where the kernel can do that
        in place, else a new one."""
        ...

    def touch_table(self, table: Any) -> None:
        """Write every page of ``table`` once, so that searches do not pay for fresh memory
        from the operating system (long-lived workers do this while they start)."""
        ...

    def book_reach(self) -> int | None:
        """Positions with at least this many plies left are answered from the kernel's
        opening book after a short search (``None``: no book)."""
        ...

    def warm_up(self, start: P_in) -> None:
        """Load (or compile) the compiled code before any clock starts, by a tiny search of
        the running position ``start``; nearly free once the code is loaded."""
        ...

    def exact_value(self, position: P_in, table: Any) -> int:
        """The exact value of a running position for its side to move."""
        ...

    def table_move(self, position: P_in, table: Any) -> M | None:
        """The table's best move for a running position, or ``None``."""
        ...

    def principal_variation(self, position: P_in, first: M | None, table: Any) -> tuple[M, ...]:
        """``first`` and the table's best moves after it."""
        ...

    def exact_line(
        self,
        position: P_in,
        first: M,
        value: float,
        table: Any,
        deadline: float | None = None,
        nodes: int | None = None,
    ) -> tuple[M, ...]:
        """Trait ``exact_line``: a principal variation of an exactly solved position, cut
        short at ``deadline`` (``time.perf_counter`` seconds) or after ``nodes`` nodes of
        proofs when given."""
        ...

    def weak_value(
        self,
        position: P_in,
        table: Any,
        node_budget: int,
        progress: ExactProgress | None = None,
        deadline: float | None = None,
    ) -> tuple[int, int, bool]:
        """Trait ``weak``: ``(sign, nodes, aborted)``: 1 win, 0 draw, -1 loss; ``progress``
        hears how the solve narrows the value; aborted past ``node_budget`` nodes or the
        ``deadline`` (``time.perf_counter`` seconds)."""
        ...

    def exact_values(self, position: P_in) -> Mapping[Hashable, int]:
        """Trait ``complete_table``: the exact value of every position reachable from
        ``position``, keyed by ``game.key``."""
        ...

    def timed_exact_value(self, position: P_in, table: Any, deadline: float) -> int | None:
        """Trait ``timed_value``: the exact value of a running position for its side to move,
        or ``None`` when the ``deadline`` (``time.perf_counter`` seconds) comes first."""
        ...

    def exact_results(
        self,
        positions: Sequence[P_in],
        table: Any,
        clears: Sequence[bool],
        line: LineAllowance | None,
        deadline: float | None = None,
    ) -> list[ExactAnswer[M] | None]:
        """Trait ``batch``: each running position's exact value, best move and (given a
        ``line`` allowance) principal variation, the table emptied before the positions
        ``clears`` marks; ``None`` from the first position the ``deadline`` cuts short on."""
        ...

    def exact_values_many(
        self, positions: Sequence[P_in], table: Any, clears: Sequence[bool]
    ) -> list[int]:
        """Trait ``batch``: each running position's exact value for its side to move, the
        table emptied before the positions ``clears`` marks."""
        ...

    def quick_exact(
        self, position: P_in, table: Any, line: bool
    ) -> tuple[int, tuple[M, ...], int, int] | None:
        """Trait ``quick``: a running position's exact value, its best move and after it
        (``line``) its principal variation, the nodes searched and the plies left (the
        game's ``plies_left_bound``), as a plain tuple (made per call: a dataclass costs a
        microsecond, a tenth of the smallest searches); searched without Ctrl-C's guard
        because the search is cut short before it could outlast a keypress's answer (no
        clock read); ``None`` for a finished position and when it was cut short (the table
        keeps what it proved: the caller searches again, guarded)."""
        ...

    def quick_weak(self, position: P_in, table: Any) -> tuple[int, int, int] | None:
        """Traits ``quick`` and ``weak``: a running position's weak value (win 1, draw 0,
        loss -1, for its side to move), the nodes searched and the plies left (the game's
        ``plies_left_bound``), cut short and searched as :meth:`quick_exact` is; ``None`` for
        a finished position and when it was cut short."""
        ...


class KernelBase(Generic[P, M]):
    """Defaults for the optional methods: each fails loudly, since the search only calls a
    method whose trait the kernel declares."""

    traits = KernelTraits()
    engine: CompiledEngine | None = None
    """The compiled engine this kernel searches with (declared by each kernel class)."""

    def new_table(self, entries: int) -> Any:
        """Every kernel makes its own tables."""
        raise NotImplementedError(f"{type(self).__name__} does not define new_table")

    def table_entries_hint(self) -> int:
        """Every kernel says its default table size."""
        raise NotImplementedError(f"{type(self).__name__} does not define table_entries_hint")

    def clear_table(self, table: Any) -> Any:
        """A new table of the default size."""
        return self.new_table(self.table_entries_hint())

    def touch_table(self, table: Any) -> None:
        """Nothing: tables are small or touched as they fill."""

    def book_reach(self) -> int | None:
        """No opening book."""
        return None

    def compiled_functions(self) -> tuple[Any, ...]:
        """The numba functions a search calls (to tell whether they are loaded): those of
        the class's declared :attr:`engine`, imported here (none without one)."""
        if self.engine is None:
            return ()
        return tuple(
            getattr(import_module(module), name)
            for module, names in self.engine.entry_points
            for name in names
        )

    def warm_up(self, start: P) -> None:
        """A depth-1 search of ``start`` on a small table, then a look at the table's move
        (what a line is read with), unless every compiled function a search calls is already
        loaded in this process (numba keeps its dispatchers' compiled signatures)."""
        functions = self.compiled_functions()
        if functions and all(function.signatures for function in functions):
            return
        table = self.new_table(1 << MIN_TABLE_BITS)
        self.search(start, 1, None, table, WARM_UP_NODES)  # type: ignore[attr-defined]
        self.table_move(start, table)  # type: ignore[attr-defined]

    def exact_line(
        self,
        position: P,
        first: M,
        value: float,
        table: Any,
        deadline: float | None = None,
        nodes: int | None = None,
    ) -> tuple[M, ...]:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare exact_line")

    def weak_value(
        self,
        position: P,
        table: Any,
        node_budget: int,
        progress: ExactProgress | None = None,
        deadline: float | None = None,
    ) -> tuple[int, int, bool]:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare weak")

    def timed_exact_value(self, position: P, table: Any, deadline: float) -> int | None:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare timed_value")

    def exact_values(self, position: P) -> Mapping[Hashable, int]:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare complete_table")

    def exact_results(
        self,
        positions: Sequence[P],
        table: Any,
        clears: Sequence[bool],
        line: LineAllowance | None,
        deadline: float | None = None,
    ) -> list[ExactAnswer[M] | None]:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare batch")

    def exact_values_many(
        self, positions: Sequence[P], table: Any, clears: Sequence[bool]
    ) -> list[int]:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare batch")

    def quick_exact(
        self, position: P, table: Any, line: bool
    ) -> tuple[int, tuple[M, ...], int, int] | None:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare quick")

    def quick_weak(self, position: P, table: Any) -> tuple[int, int, int] | None:
        """Not declared by this kernel."""
        raise NotImplementedError(f"{type(self).__name__} does not declare quick")


MEMORY_SHARE = 0.75
"""The most of the machine's memory one transposition table may take."""


def machine_memory() -> int:
    """Bytes of memory this process may use: the machine's physical memory, or less where
    the process's address-space limit (``ulimit -v``) says so."""
    physical = int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return physical if soft == resource.RLIM_INFINITY else min(physical, int(soft))


def check_table_memory(entries: int, slot_bytes: int) -> None:
    """Refuse a table of ``entries`` slots of ``slot_bytes`` that would not fit in
    :data:`MEMORY_SHARE` of the machine's memory, with a :class:`ParameterError` giving
    both sizes (so that a search never dies of a ``MemoryError`` halfway)."""
    wanted, memory = entries * slot_bytes, machine_memory()
    if wanted > MEMORY_SHARE * memory:
        raise ParameterError(
            f"table of 2**{entries.bit_length() - 1} slots: {wanted / 2**30:.1f} GiB is more "
            f"than {MEMORY_SHARE:.0%} of the {memory / 2**30:.1f} GiB this process may use; "
            "ask for fewer table bits"
        )


def table_entries(options: KernelOptions, default_bits: int) -> int:
    """The table slots ``options`` ask for, or ``2**default_bits``."""
    bits = default_bits if options.table_bits is None else options.table_bits
    return 1 << bits


def follow_table(
    position: P,
    first: M,
    play: Callable[[P, M], P],
    next_move: Callable[[P], M | None],
    running: Callable[[P], bool],
    most: int,
) -> tuple[M, ...]:
    """``first`` and then ``next_move`` (a table's best move) of each position reached with
    ``play``, while the position is ``running`` and the table answers, at most ``most``
    moves in all: the principal variation a kernel reads from its table."""
    line = [first]
    current = play(position, first)
    while running(current) and len(line) < most:
        move = next_move(current)
        if move is None:
            break
        line.append(move)
        current = play(current, move)
    return tuple(line)
