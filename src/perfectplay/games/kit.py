"""A game's kit: the one object through which the api, the command line and the web learn
everything about a game, declared once by the game's own package.

A kit says what the game is called, how its size and ``k`` are given, what it can do
(:class:`Capability`), how its positions and moves are written and read, how its board is
drawn, and its policy (how long the engine thinks in a game, which unbounded jobs are too
long to start). Everything game-specific that a front door needs goes through these hooks,
so a front door never branches on a game's name and a new game is one package and one
registry line (or one entry point, for a game from outside perfectplay: see
``docs/adding-a-game.md``).

Hooks take and return the game's own values; the kit is the only place where those meet
text and JSON. Each parser raises the precise :mod:`perfectplay.errors` exception naming the
input, so what passes a kit is valid.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from perfectplay.errors import NotationError, ParameterError, plain, quote
from perfectplay.games.common.svg import board_svg
from perfectplay.games.kernel import KernelOptions

if TYPE_CHECKING:
    from perfectplay.games.protocol import Game

JSONValue: TypeAlias = bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"] | None
"""A value JSON can hold."""
JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object."""
BookProgress: TypeAlias = Callable[[int, int, float], None]
"""Called with (positions solved, positions in all, seconds) while a book is built."""


class Capability(Enum):
    """What a game offers beyond playing and searching (which every game does)."""

    WEAK = "weak"
    """A weak solve: win, draw or loss, faster than the exact value."""
    BOOK = "book"
    """Opening books: built by ``perfectplay book`` and consulted by the exact solver."""
    HISTORY = "history"
    """Board history reconstruction: the game implements :class:`Retraction`."""
    SYMMETRY = "symmetry"
    """``canonical_form``/``map_move``/``unmap_move`` over the board's symmetries."""
    EVALUATIONS = "evaluations"
    """Named heuristics (``--eval``), listed in :attr:`GameKit.evaluations`."""
    BOARD = "board"
    """A grid the web pages and the tree pictures can draw (:meth:`GameKit.board`)."""
    ARENA = "arena"
    """Engine matches (``perfectplay arena``): the game has a tuned time-limited engine."""
    THREADS = "threads"
    """An exact solver that searches on several threads sharing its table (``--threads``)."""


SIZE_NAMES = ("width", "height")
"""What the two numbers of every size are, in order: ``--size 7x6`` is 7 columns wide and
6 rows high in every game (Connect Four's convention)."""


@dataclass(frozen=True, slots=True)
class SizeRule:
    """How a game takes ``--size WIDTHxHEIGHT``: the fields of the game's spec that hold
    its width (columns) and height (rows), ``("cols", "rows")`` or ``("width", "height")``,
    and the default size as ``(width, height)``. The order is the same in every game."""

    fields: tuple[str, str]
    default: tuple[int, int]

    @property
    def names(self) -> tuple[str, str]:
        """``("width", "height")``: what the two numbers are, in every game."""
        return SIZE_NAMES

    @property
    def text(self) -> str:
        """``WIDTHxHEIGHT``, in every game."""
        return "x".join(name.upper() for name in self.names)


@dataclass(frozen=True, slots=True)
class Policy:
    """How the front doors treat the game.

    ``play_time``: seconds the engine thinks per move in ``play`` by default.
    ``exact_plies``: an unbounded exact search of a position with more plies left than this
    is refused up front (``None``: never refused), naming ``--depth``/``--time``.
    ``whole_tree_cells``: ``perft`` without ``--depth`` only on boards of at most this many
    cells (``None``: any).
    ``web_cells``: the web app serves boards of at most this many cells.
    ``generic_plies``: a game whose longest game lasts at most this many plies (the
    ``plies_left_bound`` of its initial position: the cells of a tic-tac-toe board) is
    searched by the generic alpha-beta, not the compiled kernel, unless a caller insists on
    the kernel: its whole tree is searched in milliseconds, less than loading compiled code
    takes, and the values are the same exact ones (``tests/test_conformance.py`` checks both
    searches against plain minimax).
    """

    play_time: float = 3.0
    exact_plies: int | None = None
    whole_tree_cells: int | None = None
    web_cells: int = 64
    generic_plies: int = 0

    def generic(self, game: Game[Any, Any]) -> bool:
        """Whether ``game`` is searched by the generic alpha-beta (see ``generic_plies``)."""
        return game.plies_left_bound(game.initial()) <= self.generic_plies


@dataclass(frozen=True, slots=True)
class GameParams:
    """The parameters a front door gathered for a game: ``size`` as ``(width, height)``
    (columns, rows: the order of every game's :class:`SizeRule`), ``k``; ``None`` for the
    game's default."""

    size: tuple[int, int] | None = None
    k: int | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A checked position of a game with the moves that reached it from the initial
    position (``None`` when the text was a board picture, whose moves are unknown)."""

    game: Game[Any, Any]
    position: Any
    moves: tuple[Any, ...] | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """A drawable board: ``cells`` row by row from the top, each ``None`` (empty) or a JSON
    object with at least ``player`` (1 or 2); ``gravity`` when moves name columns; ``extra``
    game facts to show beside the board (the shape-and-color quotas)."""

    rows: int
    cols: int
    gravity: bool
    cells: list[list[JSONObject | None]]
    extra: JSONObject = field(default_factory=dict)


class Retraction(ABC):
    """Capability ``HISTORY``: the sub-boards of a target board, for
    :mod:`perfectplay.analysis.history`. A state is the two players' stones as bitboards,
    and ``game.from_bits(first, second)`` the validated position of a state."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @abstractmethod
    def state_of(self, position: Any) -> tuple[int, int]:
        """The first and second player's stones of ``position``."""

    @abstractmethod
    def removable(self, state: tuple[int, int]) -> int:
        """Stones of the last mover that can have been its last stone."""

    @abstractmethod
    def move_of(self, stone: int) -> Any:
        """The move that placed the single-bit ``stone``."""

    @abstractmethod
    def bound(self, state: tuple[int, int]) -> int:
        """An upper bound on the number of sub-boards of ``state``."""

    def position(self, state: tuple[int, int]) -> Any:
        """The validated position of ``state``; raises ``IllegalPositionError``."""
        return self.game.from_bits(*state)


class GameKit(ABC):
    """Everything about one game that is not its rules (see the module docstring).

    Subclasses set the class attributes and implement the abstract hooks; the defaults
    suit a game whose positions are written as move lists.
    """

    name: str
    """The registry name: lower case, no spaces."""
    title: str
    """How people call the game."""
    aliases: tuple[str, ...] = ()
    summary: str = ""
    """One line on the rules and the notation, for ``--help`` and the web."""
    size: SizeRule | None = None
    """``None``: the game takes no ``--size``."""
    takes_k: bool = False
    """Whether the game takes ``--k`` (the length of a winning line)."""
    board_notation: bool = False
    """Positions are written as boards (their moves unknown), not as move lists."""
    capabilities: frozenset[Capability] = frozenset()
    policy: Policy = Policy()
    evaluations: tuple[str, ...] = ()
    """Heuristic names for ``--eval`` (capability ``EVALUATIONS``), the default first."""
    examples: tuple[str, ...] = ()
    """Positions in the game's notation, for help texts."""
    engine_params: tuple[GameParams, ...] = (GameParams(),)
    """Boards whose kernels between them use every compiled engine of the game (what
    ``perfectplay warm`` compiles ahead of time); a board searched without one adds none."""

    def has(self, capability: Capability) -> bool:
        """Whether the game declares ``capability``."""
        return capability in self.capabilities

    # -- games and positions --------------------------------------------------------------
    @abstractmethod
    def make(self, params: GameParams) -> Game[Any, Any]:
        """The game with ``params``; raises :class:`ParameterError` naming a bad one."""

    def load(self, text: str, params: GameParams) -> Loaded:
        """The position of ``text`` in the game's notation (by default a move list, parsed
        with :meth:`parse_moves` from the initial position)."""
        game = self.make(params)
        position, moves = self.parse_moves(game, text)
        return Loaded(game, position, tuple(moves))

    def start(self, game: Game[Any, Any]) -> Loaded:
        """The initial position, with its empty move list (none for board notation)."""
        return Loaded(game, game.initial(), None if self.board_notation else ())

    def parse_moves(self, game: Game[Any, Any], text: str) -> tuple[Any, list[Any]]:
        """Play the moves of ``text`` from the initial position: the position and the moves.

        By default the moves are separated by spaces or commas, each read by
        :meth:`parse_move`; a bad move's error names its 1-based number.
        """
        position, moves = game.initial(), []
        for number, token in enumerate(text.replace(",", " ").split(), start=1):
            try:
                move = self.parse_move(game, position, token)
                position = game.play(position, move)
            except ValueError as exc:
                raise type(exc)(f"move {number} ({quote(token)}): {exc}") from None
            moves.append(move)
        return position, moves

    def position_text(self, loaded: Loaded) -> str:
        """The notation of a loaded position: its move list (the default) or its board."""
        if loaded.moves is None:
            raise NotationError(f"{self.name}: this position has no move list")
        return self.moves_text(loaded.game, loaded.moves)

    def moves_text(self, game: Game[Any, Any], moves: Sequence[Any]) -> str:
        """A move list in the notation :meth:`parse_moves` reads."""
        return " ".join(self.move_text(game, move) for move in moves)

    @abstractmethod
    def parse_move(self, game: Game[Any, Any], position: Any, text: str) -> Any:
        """One move typed by a person; raises :class:`NotationError` naming it."""

    def move_text(self, game: Game[Any, Any], move: Any) -> str:
        """A move as :meth:`parse_move` reads it (by default the game's ``format_move``)."""
        return game.format_move(move)

    @abstractmethod
    def move_from_json(self, game: Game[Any, Any], data: JSONValue) -> Any:
        """The move of a JSON object as ``game.move_to_json`` writes it; only the form is
        checked (legality is ``game.play``'s). Raises :class:`NotationError` naming it."""

    def size_of(self, game: Game[Any, Any]) -> tuple[int, int] | None:
        """The game's size as ``(width, height)``, read from the fields of the game's spec
        that its :class:`SizeRule` names (``None``: no size)."""
        if self.size is None:
            return None
        width, height = (int(getattr(game.spec, name)) for name in self.size.fields)
        return width, height

    def check_size(self, params: GameParams, game: Game[Any, Any]) -> None:
        """Raise :class:`ParameterError` when ``params`` asks for a size other than that of
        ``game`` (read from a board picture, which carries its own size)."""
        if params.size is not None and params.size != self.size_of(game):
            raise ParameterError(
                f"size {params.size[0]}x{params.size[1]}: the board given is "
                f"{self.size_text(game)} (width x height)"
            )

    def k_of(self, game: Game[Any, Any]) -> int | None:
        """The game's ``k``, its spec's ``k`` field (``None``: the game takes no k)."""
        return int(game.spec.k) if self.takes_k else None

    def size_text(self, game: Game[Any, Any]) -> str | None:
        """``WIDTHxHEIGHT`` as ``--size`` reads it (``7x6``), or ``None``."""
        size = self.size_of(game)
        return None if size is None else f"{size[0]}x{size[1]}"

    def label(self, game: Game[Any, Any]) -> str:
        """The game's parameters in a few characters (``4x4, k=3``; by default its size)."""
        return self.size_text(game) or ""

    def focus_moves(self, game: Game[Any, Any], position: Any) -> tuple[Any, ...] | None:
        """The moves an overview analysis values (the web's overlay), or ``None`` for every
        legal move; a big board's kit names the moves near the stones."""
        return None

    def move_cell(self, game: Game[Any, Any], position: Any, move: Any) -> tuple[int, int] | None:
        """The ``(row, col)`` of the board view (top row 0) that ``move`` fills, or ``None``
        (capability ``BOARD``: lets a page or a terminal write a move's value in its cell)."""
        return None

    def with_evaluation(self, game: Game[Any, Any], name: str) -> Game[Any, Any]:
        """``game`` searched with the heuristic ``name`` (capability ``EVALUATIONS``)."""
        raise ParameterError(f"--eval {plain(name)}: {self.name} has no named evaluations")

    # -- text and pictures ----------------------------------------------------------------
    def render(self, game: Game[Any, Any], position: Any, color: bool = False) -> str:
        """The board for a terminal (``color``: ANSI colours); by default ``str``."""
        return str(position)

    def side_label(self, game: Game[Any, Any], player: int) -> str:
        """How a side is named in sentences: ``player 1 (x)``."""
        return f"player {player}"

    def notes(self, game: Game[Any, Any], position: Any) -> list[str]:
        """Lines to show under the board (the pieces left, say); none by default."""
        return []

    def move_label(self, game: Game[Any, Any], move: Any) -> str:
        """A move in a sentence (``c3 (row 2, col 2)``, ``column 4``); by default its text."""
        return self.move_text(game, move)

    def ending(self, game: Game[Any, Any], win: bool, score: int) -> str:
        """How a decisive result with the game's conventional ``score`` ends, in words
        (``wins with its 4th stone``); nothing by default."""
        return ""

    def move_entry(self, game: Game[Any, Any]) -> str:
        """What a person types for a move, in a few words (``a column number 1-7``)."""
        return "a move"

    def move_help(self, game: Game[Any, Any]) -> str:
        """How moves are typed, in a sentence or two, for a play prompt's help."""
        return f"moves: {self.move_entry(game)}"

    def board(self, game: Game[Any, Any], position: Any) -> BoardView | None:
        """The drawable board (capability ``BOARD``), else ``None``."""
        return None

    def picture(self, game: Game[Any, Any], position: Any) -> str | None:
        """The board as an SVG picture (capability ``BOARD``: drawn from :meth:`board`),
        else ``None``."""
        view = self.board(game, position)
        if view is None:
            return None
        return board_svg(view.cells, gravity=view.gravity)

    def display_cell(self, game: Game[Any, Any], cell: Any) -> tuple[int, int]:
        """An outcome line's cell as ``(row, col)``, the top row 0 (capability ``BOARD``)."""
        row, col = cell
        return int(row), int(col)

    # -- capabilities ---------------------------------------------------------------------
    def natural_move(self, game: Game[Any, Any], position: Any, move: Any) -> bool:
        """Whether a random opening should prefer ``move`` (capability ``ARENA``); every move
        by default."""
        return True

    def build_book(
        self,
        game: Game[Any, Any],
        depth: int,
        path: Path,
        options: KernelOptions,
        progress: BookProgress | None,
    ) -> int:
        """Solve every position ``depth`` plies deep into a book written to exactly ``path``
        (capability ``BOOK``); the number of positions. Raises :class:`ParameterError`
        naming the file when it cannot be written."""
        raise ParameterError(f"book: {self.name} has no opening books")

    def book_positions(self, game: Game[Any, Any], depth: int) -> list[Any]:
        """The positions a book of ``depth`` holds, in the book's order (capability
        ``BOOK``); raises :class:`ParameterError` for a depth out of range."""
        raise ParameterError(f"book: {self.name} has no opening books")

    def book_key(self, game: Game[Any, Any], position: Any) -> int:
        """The key under which a book holds ``position`` (capability ``BOOK``)."""
        raise ParameterError(f"book: {self.name} has no opening books")

    def book_score(self, game: Game[Any, Any], kernel: Any, table: Any, position: Any) -> int:
        """The score a book holds for ``position``, solved by ``kernel`` on ``table``
        (capability ``BOOK``)."""
        raise ParameterError(f"book: {self.name} has no opening books")

    def save_book(
        self,
        game: Game[Any, Any],
        depth: int,
        keys: Sequence[int],
        scores: Sequence[int],
        path: Path,
    ) -> None:
        """Write the book of ``depth`` (keys in :meth:`book_positions`' order, and their
        scores) to exactly ``path``, atomically (capability ``BOOK``)."""
        raise ParameterError(f"book: {self.name} has no opening books")

    def retraction(self, game: Game[Any, Any], position: Any) -> Retraction:
        """The sub-boards of ``position`` (capability ``HISTORY``)."""
        raise ParameterError(f"history: {self.name} boards cannot be taken back move by move")
