"""The one typed door of perfectplay: the library, the command line and the web all go
through these functions, and nothing else of the engine.

Input is checked here, once: game names through the registry, sizes and ``k`` through the
game's kit, positions and moves through the game's notation, limits and options through
:func:`limit` and :func:`kernel_options`. Each raises a :mod:`perfectplay.errors` exception
whose message names the input and the reason; behind this module, search runs on trusted
values. Options travel with each call (:class:`KernelOptions`: opening book, table size);
nothing is kept between calls.

Positions and moves are the game's own immutable values, typed by the game
(``Game[P, M]``); a game from the registry is a ``Game[object, object]`` to the type checker.
The JSON forms of what these functions return are in :mod:`perfectplay.contract`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from perfectplay.analysis import render as pictures
from perfectplay.analysis import tree_svg
from perfectplay.analysis.reach import (
    TRIAL_SECONDS,
    Reach,
    check_history,
    check_leaves,
    check_trial,
    check_whole_tree,
)
from perfectplay.analysis.render import move_name, rich_tree, summary_text
from perfectplay.analysis.steps import (
    MAX_STEP_NODES,
    Step,
    Steps,
    check_order,
    check_ranking,
    record_steps,
)
from perfectplay.analysis.steps import ORDERS as STEP_ORDERS
from perfectplay.analysis.tree import (
    MAX_NODES,
    GameTree,
    Leaves,
    TreeNode,
    TreeProgress,
    build_tree,
)
from perfectplay.errors import (
    IllegalPositionError,
    ParameterError,
    PerfectplayError,
    plain,
    quote,
)
from perfectplay.games.kernel import (
    DEFAULT_KERNEL_OPTIONS,
    MAX_TABLE_BITS,
    MAX_THREADS,
    MIN_TABLE_BITS,
    CompiledEngine,
    ExactProgress,
    KernelOptions,
)
from perfectplay.games.kit import (
    BoardView,
    BookProgress,
    Capability,
    GameKit,
    GameParams,
    JSONObject,
    JSONValue,
    Loaded,
    Policy,
)
from perfectplay.games.protocol import Game, Outcome, Player
from perfectplay.games.registry import builtin_registry, game_names, get_kit, kit_of
from perfectplay.notation import parse_size
from perfectplay.search.estimate import ESTIMATE_KEY, Estimate
from perfectplay.search.focus import analyze_moves
from perfectplay.search.levels import LEVELS, Level, LevelMove, level_named
from perfectplay.search.levels import level_move as choose_level_move
from perfectplay.search.limits import EXACT, Limit, make_limit
from perfectplay.search.result import MoveValue, Score, SearchResult
from perfectplay.search.solver import Engine as SearchEngine
from perfectplay.search.solver import (
    IterationCallback,
    MoveCallback,
    Searcher,
    SearchOptions,
    analyze_many_with,
    analyze_with,
    solve_many_with,
)
from perfectplay.search.solver import analyze as search_analyze
from perfectplay.search.solver import best_move as search_best
from perfectplay.search.solver import solve as search_solve

if TYPE_CHECKING:
    from perfectplay.analysis.arena import (
        ArenaProgress,
        ArenaResult,
        GameRecord,
        PlayerRecord,
        PlayerSpec,
        SideRecord,
        parse_player,
    )
    from perfectplay.analysis.exact import ExactValues
    from perfectplay.analysis.history import (
        NOTIONS,
        History,
        HistoryProgress,
        HistoryStep,
        Notion,
        mistake_text,
        value_words,
    )
    from perfectplay.analysis.notebook import Analysis
    from perfectplay.analysis.perft import PerftCounts, ProgressCallback
    from perfectplay.analysis.tournament import (
        Entrant,
        Settings,
        TournamentProgress,
        TournamentResult,
        TournamentSink,
    )
    from perfectplay.jobs.books import BookBuild
    from perfectplay.jobs.journal import Journal
    from perfectplay.jobs.lines import ScoredLine
    from perfectplay.jobs.run import BatchWorkers, check_executor, default_workers, hardest_first
    from perfectplay.jobs.tasks import (
        EXECUTORS,
        Answer,
        BatchJob,
        Executor,
        ReadyCallback,
        Task,
        WorkerLost,
    )

LAZY_EXPORTS = {
    "Analysis": "perfectplay.analysis.notebook",
    "Answer": "perfectplay.jobs.tasks",
    "ArenaProgress": "perfectplay.analysis.arena",
    "ArenaResult": "perfectplay.analysis.arena",
    "BatchJob": "perfectplay.jobs.tasks",
    "BatchWorkers": "perfectplay.jobs.run",
    "BookBuild": "perfectplay.jobs.books",
    "EXECUTORS": "perfectplay.jobs.tasks",
    "Entrant": "perfectplay.analysis.tournament",
    "ExactValues": "perfectplay.analysis.exact",
    "Executor": "perfectplay.jobs.tasks",
    "GameRecord": "perfectplay.analysis.arena",
    "History": "perfectplay.analysis.history",
    "HistoryProgress": "perfectplay.analysis.history",
    "HistoryStep": "perfectplay.analysis.history",
    "Journal": "perfectplay.jobs.journal",
    "NOTIONS": "perfectplay.analysis.history",
    "Notion": "perfectplay.analysis.history",
    "PerftCounts": "perfectplay.analysis.perft",
    "PlayerRecord": "perfectplay.analysis.arena",
    "PlayerSpec": "perfectplay.analysis.arena",
    "ProgressCallback": "perfectplay.analysis.perft",
    "ReadyCallback": "perfectplay.jobs.tasks",
    "ScoredLine": "perfectplay.jobs.lines",
    "Settings": "perfectplay.analysis.tournament",
    "SideRecord": "perfectplay.analysis.arena",
    "Task": "perfectplay.jobs.tasks",
    "TournamentProgress": "perfectplay.analysis.tournament",
    "TournamentResult": "perfectplay.analysis.tournament",
    "TournamentSink": "perfectplay.analysis.tournament",
    "WorkerLost": "perfectplay.jobs.tasks",
    "check_executor": "perfectplay.jobs.run",
    "default_workers": "perfectplay.jobs.run",
    "hardest_first": "perfectplay.jobs.run",
    "mistake_text": "perfectplay.analysis.history",
    "parse_player": "perfectplay.analysis.arena",
    "value_words": "perfectplay.analysis.history",
}
"""Names this module exports from modules it imports on first use (matches, histories,
batch jobs, tournaments: a command that needs none of them starts without them)."""


def __getattr__(name: str) -> Any:
    """A name of :data:`LAZY_EXPORTS`, imported on first use."""
    module = LAZY_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


P = TypeVar("P")
M = TypeVar("M")
RegisteredGame = Game[object, object]
"""A game from the registry, whose position and move types the type checker cannot know."""
AnyGame = Game[Any, Any]
"""A game of the registry or one of a known class (an ``MNKGame``, a plug-in's): what the
JSON answers of :mod:`perfectplay.contract` take, so that typed code passes its own games."""
WarmProgress = Callable[[str, int, int], None]
"""What :func:`warm` tells as it goes: (the engine starting, or ``""`` at the end; engines
done; engines in all)."""


@dataclass(frozen=True, slots=True)
class Warmed:
    """One engine :func:`warm` loaded: for which game, whether it had to be compiled (numba's
    cache lacked it) and the seconds it took."""

    game_name: str
    engine: CompiledEngine
    compiled: bool
    seconds: float


__all__ = [
    "EXACT",
    "EXECUTORS",
    "LEVELS",
    "NOTIONS",
    "STEP_ORDERS",
    "Analysis",
    "Answer",
    "AnyGame",
    "ArenaProgress",
    "ArenaResult",
    "BatchJob",
    "BatchWorkers",
    "BoardView",
    "BookBuild",
    "Capability",
    "CompiledEngine",
    "Engine",
    "Entrant",
    "Estimate",
    "ExactProgress",
    "Executor",
    "GameKit",
    "GameRecord",
    "GameTree",
    "History",
    "HistoryProgress",
    "HistoryStep",
    "IterationCallback",
    "JSONObject",
    "JSONValue",
    "Journal",
    "KernelOptions",
    "Leaves",
    "Level",
    "LevelMove",
    "Limit",
    "Loaded",
    "MoveCallback",
    "MoveValue",
    "Notion",
    "Outcome",
    "PerfectplayError",
    "PerftCounts",
    "Player",
    "PlayerRecord",
    "PlayerSpec",
    "Policy",
    "ProgressCallback",
    "ReadyCallback",
    "RegisteredGame",
    "Score",
    "ScoredLine",
    "SearchResult",
    "Settings",
    "SideRecord",
    "Step",
    "Steps",
    "Task",
    "TournamentProgress",
    "TournamentResult",
    "TournamentSink",
    "TreeNode",
    "TreeProgress",
    "WarmProgress",
    "WarmStep",
    "Warmed",
    "WorkerLost",
    "analysis_of",
    "analyze",
    "arena",
    "batch_answers",
    "batch_job",
    "batch_line",
    "best",
    "board",
    "build_book",
    "build_book_with",
    "check_executor",
    "check_new_output",
    "default_workers",
    "engine_to_compile",
    "game_names",
    "hardest_first",
    "history",
    "kernel_options",
    "kit",
    "kit_of",
    "level_move",
    "level_named",
    "limit",
    "load",
    "load_with_moves",
    "mistake_text",
    "move_name",
    "new_game",
    "output_journal",
    "parse_move",
    "parse_player",
    "perft",
    "play",
    "play_json",
    "position_text",
    "recover_output",
    "render",
    "replay",
    "require",
    "rich_tree",
    "scored_line",
    "solve",
    "start",
    "step_order",
    "steps",
    "summary_text",
    "to_dot",
    "to_svg",
    "tree",
    "value_words",
    "warm",
    "warm_game",
    "warm_plan",
    "with_evaluation",
]


# -- games and positions ------------------------------------------------------------------------
def kit(game_name: str) -> GameKit:
    """The kit of a registered game (or alias); raises :class:`UnknownGameError`."""
    return get_kit(game_name)


def params(game_name: str, size: str | None = None, k: int | None = None) -> GameParams:
    """Checked parameters for ``game_name``: ``size`` is ``WIDTHxHEIGHT`` (columns x rows)
    in every game, ``7x6`` or one number for a square board. Raises
    :class:`ParameterError` for a game that takes no size or no ``k``."""
    game_kit = get_kit(game_name)
    if size is not None and game_kit.size is None:
        raise ParameterError(f"size {quote(size)}: {game_kit.name} takes no board size")
    if k is not None and not game_kit.takes_k:
        raise ParameterError(f"k={quote(k)}: {game_kit.name} takes no k")
    return GameParams(None if size is None else parse_size(size), k)


def new_game(
    game_name: str, *, size: str | None = None, k: int | None = None
) -> tuple[RegisteredGame, object]:
    """The game with the given size and ``k``, and its initial position."""
    game: RegisteredGame = get_kit(game_name).make(params(game_name, size, k))
    return game, game.initial()


def load_with_moves(
    game_name: str, text: str, *, size: str | None = None, k: int | None = None
) -> Loaded:
    """The game and the checked position of ``text`` in the game's notation, with the moves
    that reached it (``None`` for a board given as a picture).

    Tic-tac-toe: a board (``xox/oox/___``; the empty text is the empty board of ``size``).
    Connect Four: a move sequence (``4453``; ``10,3,4`` on wide boards) on a ``size`` board,
    or a picture (rows top to bottom, ``/`` or new lines between them). Shape-and-color:
    a move sequence (``4O 4X 3O``). A plug-in game: as its kit says.
    """
    if not isinstance(text, str):
        from perfectplay.errors import NotationError

        raise NotationError(f"position {quote(text)}: expected text")
    return get_kit(game_name).load(text, params(game_name, size, k))


def load(
    game_name: str, text: str, *, size: str | None = None, k: int | None = None
) -> tuple[RegisteredGame, object]:
    """:func:`load_with_moves` without the moves: the game and the position."""
    loaded = load_with_moves(game_name, text, size=size, k=k)
    game: RegisteredGame = loaded.game
    return game, loaded.position


def start(game: Game[P, M]) -> Loaded:
    """The initial position of ``game`` with its empty move list."""
    return kit_of(game).start(game)


def play(loaded: Loaded, move: object) -> Loaded:
    """``loaded`` after ``move`` (a move of the game); raises
    :class:`~perfectplay.errors.IllegalMoveError` (or ``GameOverError``) naming it."""
    position = loaded.game.play(loaded.position, move)
    moves = None if loaded.moves is None else (*loaded.moves, move)
    return Loaded(loaded.game, position, moves)


def parse_move(loaded: Loaded, text: str) -> object:
    """The move a person typed (``b3``, ``4``, ``4O``), checked for form; whether it is
    legal is for :func:`play` to say."""
    return kit_of(loaded.game).parse_move(loaded.game, loaded.position, text)


def play_json(loaded: Loaded, data: JSONValue) -> Loaded:
    """``loaded`` after the move written as the game's JSON move object."""
    return play(loaded, kit_of(loaded.game).move_from_json(loaded.game, data))


def replay(
    game_name: str, moves: Sequence[JSONValue], *, size: str | None = None, k: int | None = None
) -> Loaded:
    """The position after ``moves`` (JSON move objects) from the initial position; the
    error of the first bad move is prefixed with its 1-based number."""
    game, _ = new_game(game_name, size=size, k=k)
    loaded = start(game)
    for number, data in enumerate(moves, start=1):
        try:
            loaded = play_json(loaded, data)
        except ValueError as exc:
            raise type(exc)(f"moves item {number}: {exc}") from None
    return loaded


def position_text(loaded: Loaded) -> str:
    """The position in the game's notation (its move list when known, else its board)."""
    return kit_of(loaded.game).position_text(loaded)


def render(game: Game[P, M], position: P, color: bool = False) -> str:
    """The board drawn for a terminal (``color``: with ANSI colours)."""
    return kit_of(game).render(game, position, color)


def board(game: Game[P, M], position: P) -> BoardView | None:
    """The drawable board of a position, or ``None`` for a game that has none."""
    return kit_of(game).board(game, position)


def require(game: Game[P, M], capability: Capability, what: str) -> GameKit:
    """The game's kit; raises :class:`ParameterError` naming ``what`` when the game does
    not declare ``capability``."""
    game_kit = kit_of(game)
    if not game_kit.has(capability):
        raise ParameterError(f"{what}: {game_kit.name} does not offer it")
    return game_kit


def with_evaluation(game: RegisteredGame, name: str | None) -> RegisteredGame:
    """``game`` searched with the heuristic ``name`` (``None``: unchanged). Raises
    :class:`ParameterError` for a game without named evaluations or an unknown name."""
    if name is None:
        return game
    game_kit = require(game, Capability.EVALUATIONS, f"--eval {plain(name)}")
    searched: RegisteredGame = game_kit.with_evaluation(game, name)
    return searched


# -- limits and options ---------------------------------------------------------------------
def limit(
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
    *,
    started: float | None = None,
) -> Limit:
    """A checked search limit (see :func:`perfectplay.search.limits.make_limit`); ``started``
    is the ``time.perf_counter()`` from which ``time`` counts (a front door's own start, so
    that loading counts too), else the search's start."""
    return make_limit(depth, time, nodes, started)


def kernel_options(
    *,
    book: bool = True,
    book_path: str | None = None,
    table_bits: int | None = None,
    threads: int = 1,
) -> KernelOptions:
    """Checked kernel options: ``book`` consults the book shipped for the board,
    ``book_path`` a book file instead, ``table_bits`` sizes the table (2**N slots),
    ``threads`` searches on that many threads sharing the table (games declaring
    ``Capability.THREADS``; checked with the game by :func:`solve` and the others)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ParameterError(
            f"--threads {quote(threads)}: must be a whole number from 1 to {MAX_THREADS}"
        )
    if table_bits is not None and (
        isinstance(table_bits, bool)
        or not isinstance(table_bits, int)
        or not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS
    ):
        raise ParameterError(
            f"--table-bits {quote(table_bits)}: must be a whole number from {MIN_TABLE_BITS} "
            f"to {MAX_TABLE_BITS}"
        )
    if book_path is not None and (
        not isinstance(book_path, str | Path) or not str(book_path).strip()
    ):
        raise ParameterError(f"--book {quote(book_path)}: must be the name of a book file")
    if book_path is not None and not book:
        raise ParameterError("--book: cannot be given with --no-book")
    path = None if book_path is None else Path(book_path)
    return KernelOptions(book=book, book_path=path, table_bits=table_bits, threads=threads)


def _checked_search(game: Game[P, M], options: KernelOptions) -> SearchOptions:
    """The search options of a call with kernel ``options``: the generic alpha-beta for a
    game the kit's policy calls small (:meth:`Policy.generic`), else the fastest engine.
    Raises :class:`ParameterError` for threads the game's solver does not offer."""
    if options.threads > 1:
        require(game, Capability.THREADS, f"--threads {options.threads}")
    policy = kit_of(game).policy
    engine: SearchEngine = "python" if policy.generic(game) else "auto"
    return SearchOptions(engine=engine, kernel=options, exact_plies=policy.exact_plies)


# -- search -----------------------------------------------------------------------------------
def best(
    game: Game[P, M],
    position: P,
    search_limit: Limit = EXACT,
    *,
    seed: int | None = None,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    on_iteration: IterationCallback | None = None,
    on_progress: ExactProgress | None = None,
) -> SearchResult[M]:
    """Best move of a loaded position; ``seed`` picks randomly (reproducibly) among equals;
    ``on_iteration`` hears of each completed iteration of a timed search, ``on_progress`` of
    an exact solve's narrowing bounds (as for :func:`solve`)."""
    rng = random.Random(seed) if seed is not None else None
    search = _checked_search(game, options)
    return search_best(
        game,
        position,
        search_limit,
        rng=rng,
        search=search,
        on_iteration=on_iteration,
        on_progress=on_progress,
    )


def level_move(
    game: Game[P, M],
    position: P,
    level: str,
    *,
    seed: int | None = None,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
) -> LevelMove[M]:
    """The move the strength ``level`` (one of :data:`LEVELS`' names) plays in a running
    position: its best move by a shallow search, or now and then a worse one (see
    :mod:`perfectplay.search.levels`); ``seed`` makes the choice repeatable. Raises
    :class:`ParameterError` naming the levels for an unknown one."""
    search = _checked_search(game, options)
    return choose_level_move(game, position, level_named(level), random.Random(seed), search)


def solve(
    game: Game[P, M],
    position: P,
    search_limit: Limit = EXACT,
    *,
    weak: bool = False,
    line: bool = True,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    on_iteration: IterationCallback | None = None,
    on_progress: ExactProgress | None = None,
) -> SearchResult[M]:
    """Exact (or limited) value, best move and principal variation of a loaded position.

    ``line=False`` asks for the value and the best move alone: the result's ``pv`` is the
    best move (what a value costs: the proven line of an early position can cost more than
    its solve). ``weak`` asks only for win, draw or loss (games declaring
    ``Capability.WEAK``; an exact limit); the result then has a weak score and no move.
    ``on_iteration`` hears of each completed iteration of a timed search, ``on_progress`` of
    an exact solve's narrowing bounds (where the game's solver reports them).
    """
    if weak:
        require(game, Capability.WEAK, "--weak")
    return search_solve(
        game,
        position,
        search_limit,
        weak=weak,
        line=line,
        search=_checked_search(game, options),
        on_iteration=on_iteration,
        on_progress=on_progress,
    )


def analysis_of(
    game: Game[P, M], position: P, values: Sequence[MoveValue[M]] | None = None
) -> Analysis[M]:
    """The moves' ``values`` from :func:`analyze` (by default an exact analysis) as an
    :class:`Analysis`, which a notebook shows as the board and a table of every value:
    ``analysis_of(game, position, analyze(game, position, limit(time=2)))``."""
    from perfectplay.analysis.notebook import Analysis

    found = analyze(game, position) if values is None else values
    return Analysis(game, position, tuple(found))


def analyze(
    game: Game[P, M],
    position: P,
    search_limit: Limit = EXACT,
    *,
    weak: bool = False,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    on_move: MoveCallback | None = None,
    focus: bool = False,
) -> list[MoveValue[M]]:
    """Value of every legal move of a loaded position, for the side to move; ``on_move``
    hears of each move as it is valued. ``focus``: only the moves the kit puts in focus
    (on a big board, those near the stones; every move where the kit names none)."""
    if weak:
        require(game, Capability.WEAK, "--weak")
    search = _checked_search(game, options)
    moves = kit_of(game).focus_moves(game, position) if focus and not weak else None
    if moves is not None:
        return analyze_moves(game, position, moves, search_limit, search=search, on_move=on_move)
    return search_analyze(game, position, search_limit, weak=weak, search=search, on_move=on_move)


class Engine(Generic[P, M]):
    """A game's search engine with its transposition table kept across calls, for many
    searches of positions of one game (a batch, a match): the compiled kernel and its table
    are made once. Not thread-safe: one search at a time.

    Each call takes its options as :func:`solve` does; ``clear`` empties the table (so that
    each position is searched as if alone). What every call would check is done once, when
    the engine is made: the compiled code loaded, the table's memory faulted in (about 0.1 s
    for the default 128 MiB, instead of page faults during the first searches).
    """

    def __init__(self, game: Game[P, M], options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> None:
        self.game = game
        self._searcher = Searcher(game, _checked_search(game, options))
        self._searcher.warm_up()
        self._searcher.touch_table()
        self._weak_checked = False  # whether the game was found to have a weak solver

    def solve(
        self,
        position: P,
        search_limit: Limit = EXACT,
        *,
        weak: bool = False,
        line: bool = True,
        on_progress: ExactProgress | None = None,
    ) -> SearchResult[M]:
        """As :func:`solve` (``line=False``: the value and the best move alone), on this
        engine's table."""
        exact = search_limit is EXACT and on_progress is None
        if exact and not weak:  # most end-game solves: no checks, a short compiled call
            return self._searcher.exact(position, line)
        if weak:
            self._require_weak()
            if exact:
                return self._searcher.weak_exact(position)
            return self._searcher.weak(position, search_limit, on_progress)
        return self._searcher.run(
            position, search_limit, None, with_pv=line, on_progress=on_progress
        )

    def _require_weak(self) -> None:
        """Raise :class:`ParameterError` unless the game has a weak solver (checked once)."""
        if not self._weak_checked:
            require(self.game, Capability.WEAK, "--weak")
            self._weak_checked = True

    def solve_many(
        self,
        positions: Sequence[P],
        search_limit: Limit = EXACT,
        *,
        weak: bool = False,
        line: bool = True,
        clear: bool = False,
    ) -> list[SearchResult[M]]:
        """:meth:`solve` of each position, in order, with the same results as one call each
        (their nodes and times aside; a batch's time is shared equally by its positions).
        ``clear`` empties the table before each position (each searched as if alone; by
        default the table is kept, as between calls). A game whose kernel declares batches
        solves the positions exactly in one compiled call (see
        :func:`perfectplay.search.solver.solve_many_with`); others one call each.

        Raises :class:`ParameterError` when ``positions`` is not a sequence of positions, and
        :class:`IllegalPositionError` naming the index of one that is not this game's.
        """
        checked = self._checked_positions(positions)
        if weak:
            require(self.game, Capability.WEAK, "--weak")
        return solve_many_with(
            self._searcher, checked, search_limit, weak=weak, line=line, clear=clear
        )

    def analyze_many(
        self,
        positions: Sequence[P],
        search_limit: Limit = EXACT,
        *,
        weak: bool = False,
        clear: bool = False,
    ) -> list[list[MoveValue[M]]]:
        """:meth:`analyze` of each position, in order, with the same values as one call each;
        ``clear`` as for :meth:`solve_many`. With a kernel that declares batches, every
        move's position of the whole list is solved in one compiled call. Raises as
        :meth:`solve_many` does."""
        checked = self._checked_positions(positions)
        if weak:
            require(self.game, Capability.WEAK, "--weak")
        return analyze_many_with(self._searcher, checked, search_limit, weak=weak, clear=clear)

    def _checked_positions(self, positions: Sequence[P]) -> list[P]:
        """``positions`` as a list, each checked to be a position of this engine's game (of
        its type: the game's :meth:`~perfectplay.games.protocol.Game.initial` position's);
        raises :class:`ParameterError` for something other than a sequence and
        :class:`IllegalPositionError` naming the index of a position of another kind."""
        if isinstance(positions, str | bytes) or not isinstance(positions, Sequence):
            raise ParameterError(
                f"positions {plain(type(positions).__name__)}: must be a list of positions"
            )
        kind = type(self.game.initial())
        for index, position in enumerate(positions):
            if type(position) is not kind:
                raise IllegalPositionError(
                    f"positions[{index}] {quote(position)}: not a position of "
                    f"{self.game.name} (a {plain(type(position).__name__)})"
                )
        return list(positions)

    def analyze(
        self,
        position: P,
        search_limit: Limit = EXACT,
        *,
        weak: bool = False,
        on_move: MoveCallback | None = None,
    ) -> list[MoveValue[M]]:
        """As :func:`analyze`, on this engine's table (no fresh table's memory to fault in:
        what keeps the value of every move of a quick position at its search's cost)."""
        if weak:
            require(self.game, Capability.WEAK, "--weak")
        return analyze_with(self._searcher, position, search_limit, weak=weak, on_move=on_move)

    def clear(self) -> None:
        """Empty the table."""
        self._searcher.clear()


# -- compiled engines -------------------------------------------------------------------------
def engine_to_compile(
    game: Game[P, M],
    position: P | None = None,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    *,
    every_position: bool = False,
) -> CompiledEngine | None:
    """The compiled engine a search of ``game`` (of ``position``, when given) must compile
    before it can start, or ``None``: none when the game is searched without one (the
    generic search, a finished position, one whose every move the books answer) or its
    code is in numba's cache already. ``every_position``: the job values many positions
    with the kernel on any board (a history, a tree's exact leaves), so neither the small
    board rule nor the books spare it. Nothing is imported or compiled here: a front door
    asks first, says so, and calls :func:`warm_game` before its clock starts."""
    if kit_of(game).policy.generic(game) and not every_position:
        return None
    engine = game.compiled_engine()
    if engine is None:
        return None
    if (
        position is not None
        and not every_position
        and (
            game.outcome(position) is not None
            or Searcher(game, _checked_search(game, options)).known_moves(position) is not None
        )
    ):
        return None
    from perfectplay.games.compile_cache import cached

    return None if cached(engine) else engine


def warm_game(
    game: Game[P, M],
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    *,
    every_position: bool = False,
) -> None:
    """Load ``game``'s compiled engine into this process now, compiling it first when numba's
    cache lacks it (seconds to a minute, once per install): later searches in the process
    start at once. Nothing happens for a game searched without one (unless
    ``every_position``, as for :func:`engine_to_compile`)."""
    search = SearchOptions(kernel=options) if every_position else _checked_search(game, options)
    Searcher(game, search).warm_up()


def warm(
    game_names: str | Sequence[str] = (), *, progress: WarmProgress | None = None
) -> list[Warmed]:
    """Compile ahead of time (or load, when cached) every compiled engine of the named
    games (one name or several, aliases too; every registered game when none is named),
    each engine once, on the boards their kits name (:attr:`GameKit.engine_params`).
    ``progress(label, done, total)`` hears of each engine as it starts (``done`` engines
    finished of ``total``) and once at the end, with an empty label. Raises
    :class:`UnknownGameError` for an unknown name before compiling anything."""
    todo = warm_plan(game_names)
    done: list[Warmed] = []
    for step in todo:
        if progress is not None:
            progress(step.engine.label, len(done), len(todo))
        started = time.perf_counter()
        warm_game(step.game)
        seconds = time.perf_counter() - started
        done.append(Warmed(step.game_name, step.engine, step.compiling, seconds))
    if progress is not None:
        progress("", len(done), len(todo))
    return done


@dataclass(frozen=True, slots=True)
class WarmStep:
    """One compiled engine to load: the game (on a board that engine searches) and whether
    loading it compiles it (numba's cache lacks it)."""

    game_name: str
    game: RegisteredGame
    engine: CompiledEngine
    compiling: bool


def warm_plan(game_names: str | Sequence[str] = ()) -> list[WarmStep]:
    """What :func:`warm` would load, in order, without loading anything: every compiled
    engine of the named games (every registered game when none is named), each once. Raises
    :class:`UnknownGameError` for an unknown name."""
    from perfectplay.games.compile_cache import cached

    names = [game_names] if isinstance(game_names, str) else list(game_names)
    kits = [get_kit(name) for name in names] or games()
    steps = []
    for game_kit, game in _engine_games(kits):
        engine = game.compiled_engine()
        assert engine is not None  # _engine_games keeps the games with one
        steps.append(WarmStep(game_kit.name, game, engine, not cached(engine)))
    return steps


def _engine_games(kits: Sequence[GameKit]) -> list[tuple[GameKit, RegisteredGame]]:
    """A game for each compiled engine the ``kits`` use, each engine once, in order."""
    seen: set[CompiledEngine] = set()
    found: list[tuple[GameKit, RegisteredGame]] = []
    for game_kit in kits:
        for game_params in game_kit.engine_params:
            game: RegisteredGame = game_kit.make(game_params)
            engine = game.compiled_engine()
            if engine is not None and engine not in seen:
                seen.add(engine)
                found.append((game_kit, game))
    return found


# -- analysis ---------------------------------------------------------------------------------
def reach(game: Game[P, M], options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> Reach:
    """Which positions of ``game`` get an exact value in reasonable time with the kernel of
    ``options`` (its opening books count, read without loading the kernel): the policy every
    front door applies before an unbounded job (see :mod:`perfectplay.analysis.reach`)."""
    books = game.books(options)
    return Reach(kit_of(game).policy.exact_plies, None if books is None else books.reach())


def trial_limit(
    game: Game[P, M],
    position: P,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    *,
    every_move: bool = False,
) -> Limit | None:
    """``None`` when an exact solve of ``position`` is within reach (with ``every_move``, of
    every position one move on, as an analysis of every move needs); else the time limit of
    its trial (:data:`~perfectplay.analysis.reach.TRIAL_SECONDS` of processor time for the
    exact solver alone, counted once its engine is loaded), whose answer :func:`check_tried`
    accepts only when exact."""
    plies_left = game.plies_left_bound(position) - (1 if every_move else 0)
    if reach(game, options).covers(max(plies_left, 0)):
        return None
    return make_limit(time=TRIAL_SECONDS, trial=True)


def check_tried(
    game: Game[P, M],
    position: P,
    job: str,
    bounds: str,
    exact: bool,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    *,
    every_move: bool = False,
    estimate: Estimate | None = None,
) -> None:
    """Refuse, with :class:`ParameterError` naming ``job`` and ``bounds``, a trial's answer
    that is not ``exact`` (``every_move``: a trial of every move, as :func:`trial_limit`),
    saying how long the solve would take by the trial's ``estimate``
    (:func:`trial_estimate`) when it made one."""
    plies_left = game.plies_left_bound(position)
    check_trial(job, reach(game, options), plies_left, exact, bounds, every_move, estimate)


def trial_estimate(result: SearchResult[M]) -> Estimate | None:
    """What a trial (:func:`trial_limit`) that did not end measured of the solve's cost
    (:mod:`perfectplay.search.estimate`), or ``None``."""
    found = result.extra.get(ESTIMATE_KEY)
    return found if isinstance(found, Estimate) else None


def history(
    game: Game[P, M],
    position: P,
    notion: Notion = "outcome",
    *,
    on_progress: HistoryProgress | None = None,
) -> History:
    """The optimal move orders that reach ``position`` (or the fewest mistakes), for games
    declaring ``Capability.HISTORY``; refused with :class:`ParameterError` when some
    sub-board's exact value would not come in reasonable time. ``on_progress`` hears of
    each sub-board valued (stones on it, stones on the target, valued so far, seconds)."""
    game_kit = require(game, Capability.HISTORY, "history")
    full = game.plies_left_bound(game.initial())
    job = f"history {game_kit.name}{_size_words(game)}"
    check_history(job, reach(game), game.plies_left_bound(position), full)
    retraction = game_kit.retraction(game, position)
    from perfectplay.analysis.history import reconstruct

    return reconstruct(game, position, retraction, notion, on_progress=on_progress)


def _size_words(game: Game[P, M]) -> str:
    """`` 7x6`` for a sized game, else nothing."""
    size = kit_of(game).size_text(game)
    return f" {size}" if size else ""


def tree(
    game: Game[P, M],
    position: P,
    depth: int | None = None,
    *,
    alphabeta: bool = False,
    leaves: Leaves = "exact",
    values: ExactValues | None = None,
    max_nodes: int = MAX_NODES,
    on_progress: TreeProgress | None = None,
) -> GameTree:
    """The game tree below ``position`` with minimax values, or alpha-beta's windows and
    cuts (see :func:`perfectplay.analysis.tree.build_tree`); a tree of more than
    ``max_nodes`` nodes (pruned ones included) is refused with :class:`ParameterError`
    naming the count and suggesting a depth limit, and so is one whose exact leaves
    (without ``values`` given) would not be valued in reasonable time. ``on_progress``
    hears of each node added (nodes so far, the cap, seconds)."""
    if leaves == "exact" and values is None and depth is not None:
        job = f"tree {kit_of(game).name}{_size_words(game)}, depth {depth}"
        bounds = "cut the tree at a depth nearer the end, or value its leaves heuristically"
        check_leaves(job, reach(game), game.plies_left_bound(position), depth, bounds)
    return build_tree(
        game,
        position,
        depth,
        alphabeta=alphabeta,
        leaves=leaves,
        values=values,
        max_nodes=max_nodes,
        on_progress=on_progress,
    )


def to_dot(built: GameTree) -> str:
    """The tree as Graphviz DOT source, written by perfectplay itself (Graphviz is needed
    only to lay it out): boards drawn as tables for games declaring ``Capability.BOARD``
    (else each node shows its position's text). Raises :class:`ParameterError` when the
    tree is too large to draw (more than ``MAX_PICTURE_NODES`` nodes)."""
    return pictures.to_dot(built, kit_of(built.game).has(Capability.BOARD))


def to_svg(built: GameTree) -> str:
    """The tree drawn as a standalone SVG document by perfectplay's own tidy-tree layout (no
    Graphviz needed): boards drawn by the kit's picture for games declaring
    ``Capability.BOARD`` (else each node shows its position's text), the best line
    highlighted, alpha-beta's cuts grey and dashed. Raises :class:`ParameterError` when the
    tree is too large to draw (more than ``MAX_PICTURE_NODES`` nodes)."""
    return tree_svg.to_svg(built, kit_of(built.game).has(Capability.BOARD))


# -- alpha-beta step by step (issue 15, item 10) -----------------------------------------------
def steps(
    game: Game[P, M],
    position: P,
    depth: int | None = None,
    *,
    order: str = "game",
    leaves: Leaves = "exact",
    max_nodes: int = MAX_STEP_NODES,
) -> Steps:
    """Alpha-beta's search of ``position`` one step at a time, trying moves in ``order``
    (one of :data:`STEP_ORDERS`), ``depth`` plies deep (to the end of the game when
    ``None``); see :mod:`perfectplay.analysis.steps`. Refused with :class:`ParameterError`:
    an unknown order, a bad depth, heuristic leaves without a depth, a tree of more than
    ``max_nodes`` nodes (pruned ones included), and, by the policy of unbounded jobs, exact
    leaves or a ``best``/``worst`` ranking by exact values out of reasonable time."""
    if depth is not None:
        limit(depth=depth)  # the same range check as a search depth
    if leaves == "exact":
        job = f"steps {kit_of(game).name}{_size_words(game)}"
        plies_left, game_reach = game.plies_left_bound(position), reach(game)
        check_ranking(job, game_reach, order, plies_left)
        if depth is not None:
            bounds = "give a depth nearer the end, or value the cut heuristically"
            check_leaves(f"{job}, depth {depth}", game_reach, plies_left, depth, bounds)
    return record_steps(game, position, depth, order=order, leaves=leaves, max_nodes=max_nodes)


def step_order(name: object) -> str:
    """``name`` when it is one of :data:`STEP_ORDERS`; else :class:`ParameterError` naming
    them (what :func:`steps` checks first, for a front door to check early)."""
    return check_order(name)


def perft(
    game: Game[P, M],
    depth: int | None = None,
    progress: ProgressCallback | None = None,
) -> PerftCounts:
    """Count the tree from the initial position (``depth`` plies, or all of it); a whole
    tree larger than the game's policy allows is refused, naming ``--depth``."""
    if depth is not None:
        limit(depth=depth)  # the same range check as a search depth
    job = f"perft {kit_of(game).name}{_size_words(game)}"
    cells = kit_of(game).policy.whole_tree_cells
    check_whole_tree(job, cells, game.plies_left_bound(game.initial()), depth)
    from perfectplay.analysis.perft import perft as count_tree

    return count_tree(game, None, depth, progress)


def arena(
    game: Game[P, M],
    first: PlayerSpec,
    second: PlayerSpec,
    games: int,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    opening_plies: int = 0,
    progress: ArenaProgress | None = None,
) -> ArenaResult:
    """A match of ``games`` games between two player specs, sides alternating (games
    declaring ``Capability.ARENA``)."""
    game_kit = require(game, Capability.ARENA, "arena")

    def natural(position: object, move: object) -> bool:
        return game_kit.natural_move(game, position, move)

    from perfectplay.analysis.arena import run_arena

    return run_arena(
        game,
        first,
        second,
        games,
        time_limit=time_limit,
        seed=seed,
        opening_plies=opening_plies,
        progress=progress,
        natural=natural,
    )


def build_book(
    game: Game[P, M],
    depth: int,
    out: str,
    *,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
    progress: BookProgress | None = None,
) -> int:
    """Build an opening book of every position ``depth`` plies deep and write it to ``out``
    (games declaring ``Capability.BOOK``), in this process; the number of positions."""
    game_kit = require(game, Capability.BOOK, "book")
    return game_kit.build_book(game, depth, Path(out), options, progress)


def build_book_with(
    job: BatchJob,
    depth: int,
    out: str,
    *,
    executor: Executor = "local",
    workers: int | None = None,
    address: str | None = None,
    resume: bool = False,
    progress: BookProgress | None = None,
) -> BookBuild:
    """:func:`build_book` by the workers of ``executor`` (see :func:`batch_answers`),
    checkpointed beside ``out`` as it goes: a killed build given ``resume=True`` solves only
    the positions not yet done (the answer counts both). ``job`` comes from
    :func:`batch_job`. Raises :class:`ParameterError` when a checkpoint is there and
    ``resume`` is false."""
    from perfectplay.jobs import books as book_jobs
    from perfectplay.jobs.run import check_executor

    require(job.make_game(), Capability.BOOK, "book")
    check_executor(executor, workers, address)
    return book_jobs.build_book(
        replace(job, kind="book", weak=False, analyze=False),
        depth,
        Path(out),
        executor=executor,
        workers=workers,
        address=address,
        resume=resume,
        progress=progress,
    )


# -- batch jobs -----------------------------------------------------------------------------
def batch_job(
    game_name: str,
    *,
    size: str | None = None,
    k: int | None = None,
    weak: bool = False,
    analyze: bool = False,
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS,
) -> BatchJob:
    """A checked batch job: exact solves of positions of ``game_name`` (``weak``: win, draw
    or loss only; ``analyze``: every move's value too), on kernels of ``options``."""
    game_params = params(game_name, size, k)
    game = get_kit(game_name).make(game_params)
    if weak:
        require(game, Capability.WEAK, "--weak")
    game.books(options)  # its book file checked here, before any worker starts (no numba)
    from perfectplay.jobs.tasks import BatchJob

    return BatchJob(kit_of(game).name, game_params, options, "solve", weak, analyze)


def batch_line(job: BatchJob, text: str, number: int) -> ScoredLine:
    """Input line ``number`` (from 1) of a batch: ``position`` or ``position score``;
    errors name the line (``line 7: ...``)."""
    from perfectplay.jobs.lines import read_line

    return read_line(job.game_name, job.params, text, number)


def scored_line(
    game_name: str, text: str, number: int, *, size: str | None = None, k: int | None = None
) -> ScoredLine:
    """:func:`batch_line` for a game named with its size and ``k``."""
    from perfectplay.jobs.lines import read_line

    return read_line(game_name, params(game_name, size, k), text, number)


def batch_answers(
    job: BatchJob,
    tasks: list[Task],
    *,
    executor: Executor = "local",
    workers: int | None = None,
    address: str | None = None,
    on_ready: ReadyCallback | None = None,
) -> Generator[Answer, None, None]:
    """The answers to ``tasks`` in the order they finish, from long-lived workers that load
    the kernel once and keep their table: ``local`` processes (``workers``, by default one
    per core), or ``ray`` actors on the cluster at ``address`` (else on a local Ray instance
    started and stopped here). Raises :class:`WorkerLost` if a worker dies. Scripts that use
    the local executor need the ``if __name__ == "__main__":`` guard, as with
    :mod:`multiprocessing`: workers are started by ``spawn``."""
    from perfectplay.jobs.run import answers

    return answers(job, tasks, executor, workers, address, on_ready)


def recover_output(path: str, positions: Sequence[str]) -> set[int]:
    """The indices already answered in the batch output ``path``, whose input lines' positions
    are ``positions`` (a half-written last line is cut off; nothing else is changed). Raises
    :class:`ConflictError` when the file is not the output of this input."""
    from perfectplay.jobs.journal import output_path, recover

    return set(recover(output_path(path), positions))


def output_journal(path: str) -> Journal:
    """The batch output ``path`` opened for appending answers (a context manager whose
    ``write`` adds one flushed line); :class:`ParameterError` when it cannot be written."""
    from perfectplay.jobs.journal import Journal, output_path

    return Journal(output_path(path))


def check_new_output(path: str) -> None:
    """Raise :class:`ParameterError` when the batch output ``path`` holds answers already
    or its folder does not exist."""
    from perfectplay.jobs.journal import check_new, output_path

    check_new(output_path(path))


def games() -> list[GameKit]:
    """The kits of every registered game, by name."""
    return [get_kit(name) for name in game_names()]


def is_builtin(name: str) -> bool:
    """Whether ``name`` (a game's own name, not an alias) is a game shipped with perfectplay,
    not a plug-in nor a game registered in this process."""
    return name.lower() in builtin_registry().kits


# -- tournaments of outside bots (issue 29) ------------------------------------------------------
def tournament_settings(
    game_name: str,
    *,
    size: str | None = None,
    k: int | None = None,
    move_time: float = 1.0,
    margin: float | None = None,
    rounds: int = 1,
    seed: int = 0,
    gauntlet: bool = False,
    memory_mb: int | None = None,
) -> Settings:
    """Checked tournament settings (see :mod:`perfectplay.analysis.tournament`): seconds
    ``move_time`` a move, the referee's ``margin`` (default 0.5 s), the sandbox's address space
    ``memory_mb`` (default 512). Raises
    :class:`UnknownGameError` or :class:`ParameterError` naming a bad game, size, k, time,
    margin, rounds or memory."""
    from perfectplay.analysis import tournament as tournaments

    game_kit = get_kit(game_name)
    game: RegisteredGame = game_kit.make(params(game_name, size, k))
    if memory_mb is not None and not 64 <= memory_mb <= 1 << 20:
        raise ParameterError(f"--memory {memory_mb}: must be from 64 to {1 << 20} MB")
    limits = tournaments.Limits(memory_mb=memory_mb or tournaments.Limits().memory_mb)
    settings = tournaments.Settings(
        game_kit.name,
        game_kit.size_text(game) if size is not None else None,
        k,
        move_time,
        tournaments.DEFAULT_MARGIN if margin is None else margin,
        rounds,
        seed,
        gauntlet,
        limits,
    )
    tournaments.check_settings(settings, [], 1, players=False)
    return settings


def tournament_players(settings: Settings, specs: Sequence[str]) -> list[Entrant]:
    """The players of ``specs`` (``engine:...``, ``level:...``, ``course:PATH[:CLASS]``,
    ``gomocup:PATH``, ``line:PATH``, each optionally ``@NAME``); raises
    :class:`ParameterError` naming a bad spec, a missing bot file or a name given twice."""
    from perfectplay.analysis import tournament as tournaments

    game_kit = get_kit(settings.game)
    found = [tournaments.parse_entrant(spec, game_kit.name, game_kit.evaluations) for spec in specs]
    tournaments.check_names(found)
    return found


def tournament_openings(settings: Settings, path: str | None, count: int) -> list[str]:
    """The openings of the file at ``path`` (one position a line in the game's notation), or
    ``count`` random ones drawn from the seed when ``path`` is ``None``. Raises
    :class:`ParameterError` for a file that cannot be read or holds no opening, and the
    game's notation errors naming the line."""
    from perfectplay.analysis import tournament as tournaments

    game_kit = get_kit(settings.game)
    if path is None:
        return tournaments.random_openings(game_kit, settings, count)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParameterError(f"--openings {quote(path)}: cannot be read ({exc})") from None
    return tournaments.read_openings(game_kit, settings, text, f"--openings {quote(path)}")


def tournament(
    settings: Settings,
    players: Sequence[Entrant],
    openings: Sequence[str],
    *,
    workers: int = 1,
    executor: Executor = "local",
    address: str | None = None,
    out: str | None = None,
    resume: bool = False,
    progress: TournamentProgress | None = None,
    sink: TournamentSink | None = None,
) -> TournamentResult:
    """Play the tournament on ``workers`` local processes or Ray actors (``executor``
    ``"ray"``: a local Ray instance, or the cluster at ``address``), written to the folder
    ``out`` when given (``games.jsonl``, ``standings.json``, ``report.md``; ``resume``
    finishes one there) and told to ``sink`` (the run, each game, the result). Raises
    :class:`ParameterError` for bad settings, an unknown executor, a missing Ray or cluster,
    or a folder that does not fit."""
    from perfectplay.analysis import tournament as tournaments

    return tournaments.run_tournament(
        list(players),
        settings,
        list(openings),
        workers=workers,
        executor=executor,
        address=address,
        out=None if out is None else Path(out),
        resume=resume,
        progress=progress,
        sink=sink,
    )


def tournament_game(settings: Settings, record: Mapping[str, object]) -> Loaded:
    """A tournament game's record (a ``games.jsonl`` line) as the position it ended in,
    with every move from the empty board, the opening's too. Raises
    :class:`ParameterError` for an opening no order of moves reaches, and the game's
    notation errors for a move the record does not play legally."""
    from perfectplay.analysis.tournament_games import game_line

    return game_line(settings, dict(record))


def tournament_report(result: TournamentResult) -> str:
    """The tournament's Markdown report: standings, crosstable, time per move, sandbox."""
    from perfectplay.analysis.tournament_report import markdown

    return markdown(result)
