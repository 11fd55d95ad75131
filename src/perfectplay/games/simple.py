"""Plain games: a class with four methods becomes a game every tool of perfectplay plays.

The author of a plain game writes only its rules, as a class whose instances know nothing
of perfectplay (see ``docs/adding-a-game.md`` and ``examples/simple``)::

    start()                 the position before the first move
    moves(position)         the legal moves (any iterable; empty once the game is over)
    play(position, move)    the position after ``move`` (a new value: never mutate)
    result(position)        None while the game goes on, 0 for a draw, 1 or 2 for the winner

Positions and moves are any immutable hashable values (tuples, strings, frozen
dataclasses). Player 1 moves first and the sides alternate. Everything else has a default,
or comes from optional members:

``title``, ``players`` (the two sides' names, ``("x", "o")``), ``heuristic(position)`` (a
number, positive when player 1 stands better), ``max_plies`` (the longest game from the
start; without it the longest game is measured by walking the positions, up to
:data:`MEASURE_POSITIONS`), ``board(position)`` (rows from the top, each cell ``None`` or 0
for empty, 1 or 2 for a player's piece: it turns on the web's board and the SVG pictures),
``gravity`` (with a board: moves drop in columns), ``cell(move)`` (with a board: the 1-based
``(row, col)``, or the column with gravity, that ``move`` fills; by default found by
comparing the boards before and after the move), ``parse(text)`` with ``player(position)``
(positions in the author's own notation, and who moves in them; ``format(position)`` writes
one back, ``str`` without it).

:class:`SimpleGame` adapts such a class to the :class:`~perfectplay.games.protocol.Game`
protocol and :class:`SimpleKit` to a :class:`~perfectplay.games.kit.GameKit`. A move of the
adapted game is its text (the author's moves are looked up among the legal moves of the
position): ``str(move)`` (a tuple's items joined by ``-``), or with a board the name of the
cell it fills (``b3``: column letter, row from the top) or its column (``4``). A position of
the adapted game is a :class:`Node`, the author's position and the plies played; positions
are written as their move lists. Whatever the author's code raises or returns against this
contract (positions that are not hashable or that change, moves that repeat, a game that
goes on without moves) is a :class:`~perfectplay.errors.PluginError` naming the game and
the method.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
    PerfectplayError,
    PluginError,
    quote,
)
from perfectplay.games.kit import (
    BoardView,
    Capability,
    GameKit,
    GameParams,
    JSONValue,
    Loaded,
    Policy,
)
from perfectplay.games.protocol import BaseGame, Outcome, Player

RULES = ("start", "moves", "play", "result")
"""The methods every plain game defines."""
MEASURE_POSITIONS = 200_000
"""Most distinct positions walked to measure the longest game of a game without
``max_plies``; a larger game must declare it."""
DEFAULT_EXACT_PLIES = 12
"""A game that declares ``max_plies`` (too large to measure) is solved exactly without a
limit from at most this many plies from its end (``exact_plies`` overrides it)."""
DEFAULT_PERFT_PLIES = 12
"""``perft`` without ``--depth`` counts whole games of at most this many plies
(``perft_plies`` overrides it)."""
HEURISTIC_SCALE = 1_000.0
"""A heuristic is clipped to this size, far inside the search's heuristic range."""
MOVE_CACHE = 1 << 16
"""Positions whose legal moves and results a game keeps (dropped all at once beyond): the
search asks for them many times, and an author's ``result`` is often a slow loop."""
LETTERS = "abcdefghijklmnopqrstuvwxyz"
NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
CELL = re.compile(r"([a-z])([1-9][0-9]{0,2})")
JSON_MOVE_KEYS = frozenset({"move"})


def is_plain(found: object) -> bool:
    """Whether ``found`` (a class or an instance) defines the four rules of a plain game."""
    return all(callable(getattr(found, method, None)) for method in RULES)


def check_name(name: str) -> str:
    """``name`` when it can name a game (lower case letters, digits, ``-``, ``_``, a letter
    first, at most 40 characters); raises :class:`ParameterError` naming it."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ParameterError(
            f"name {quote(name)}: a game's name is a lower-case letter, then letters, digits, "
            "'-' or '_' (at most 40 characters)"
        )
    return name


@dataclass(frozen=True, slots=True)
class Node:
    """A position of a plain game: the author's position and the plies played (whose
    parity says who moves)."""

    state: Any
    plies: int = 0

    def __str__(self) -> str:
        return str(self.state)


@dataclass(frozen=True, slots=True)
class SimpleSpec:
    """What tells two plain games apart: the registered name and the rules' class, its
    ``label`` (match reports name it: a plain game has no size)."""

    name: str
    label: str


class Author:
    """The author's rules behind checks: every call that raises, or returns against the
    contract, is a :class:`PluginError` naming the game and the method."""

    def __init__(self, name: str, rules: Any) -> None:
        self.name = name
        self.rules = rules

    def fail(self, method: str, reason: str) -> PluginError:
        """The error for ``method`` breaking the contract for ``reason``."""
        return PluginError(f"game {quote(self.name)}: {method} {reason}")

    def call(self, method: str, *args: Any) -> Any:
        """The author's ``method`` called with ``args``; its exceptions (but perfectplay's
        own errors) as :class:`PluginError`."""
        return self.invoke(method, getattr(self.rules, method), *args)

    def invoke(self, method: str, function: Any, *args: Any) -> Any:
        """``function`` (the author's ``method``) called with ``args``, as :meth:`call`."""
        try:
            return function(*args)
        except PerfectplayError:
            raise
        except Exception as exc:
            raise PluginError(
                f"game {quote(self.name)}: its rules raised {type(exc).__name__} in {method}: "
                f"{quote(str(exc), 200)}"
            ) from exc

    def position(self, method: str, *args: Any) -> Hashable:
        """A position returned by ``method``: refused unless hashable."""
        found: Hashable = self.call(method, *args)
        try:
            hash(found)
        except TypeError:
            raise self.fail(
                method,
                f"returned {type(found).__name__}: positions must be "
                "immutable and hashable (a tuple, a string, a frozen dataclass)",
            ) from None
        return found

    def unchanged(self, method: str, state: Any, before: int) -> None:
        """Refuses a ``method`` that changed the position it was given."""
        if hash(state) != before:
            raise self.fail(method, "changed the position it was given: return a new one")

    def optional(self, member: str, default: Any) -> Any:
        """The author's ``member`` when defined, else ``default``."""
        return getattr(self.rules, member, default)


def move_text(move: Any) -> str:
    """The default text of a move: ``str(move)``, a tuple's items joined by ``-``."""
    if isinstance(move, tuple):
        return "-".join(str(item) for item in move)
    return str(move)


def cell_name(row: int, col: int) -> str:
    """``b3``: the column's letter and the row from the top (both from 1)."""
    return f"{LETTERS[col - 1]}{row}"


class SimpleGame(BaseGame[Node, str]):
    """A plain game (see the module docstring) as a :class:`~perfectplay.games.protocol.Game`
    whose moves are texts."""

    def __init__(self, name: str, rules: Any) -> None:
        self.name = name
        self.author = Author(name, rules)
        self._spec = SimpleSpec(name, type(rules).__qualname__)
        self._tables: dict[Hashable, dict[str, Any]] = {}
        self._depths: dict[Hashable, int] = {}
        self._results: dict[Hashable, Any] = {}
        self.players = self._players()
        self.max_plies: int | None = self.author.optional("max_plies", None)
        self.has_board = callable(self.author.optional("board", None))
        self.parses = all(callable(self.author.optional(m, None)) for m in ("parse", "player"))
        self.gravity = bool(self.author.optional("gravity", False))

    def _players(self) -> tuple[str, str]:
        """The author's ``players``: two names; refused otherwise."""
        names = self.author.optional("players", ("1", "2"))
        if isinstance(names, str) or not isinstance(names, (tuple, list)) or len(names) != 2:
            raise self.author.fail("players", "must be two names, such as ('x', 'o')")
        return str(names[0]), str(names[1])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SimpleGame) and other._spec == self._spec

    def __hash__(self) -> int:
        return hash(self._spec)

    def __repr__(self) -> str:
        return f"SimpleGame({self.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, Any]]:
        return SimpleGame, (self.name, self.author.rules)

    @property
    def spec(self) -> SimpleSpec:
        """The name and the rules' class."""
        return self._spec

    # -- the rules ------------------------------------------------------------------------
    def initial(self) -> Node:
        """The author's ``start()``, no ply played."""
        return Node(self.author.position("start"))

    def to_move(self, position: Node) -> Player:
        """Player 1 after an even number of plies."""
        return Player.FIRST if position.plies % 2 == 0 else Player.SECOND

    def outcome(self, position: Node) -> Outcome | None:
        """The author's ``result``: ``None``, a draw (0) or a win (1 or 2)."""
        state = position.state
        if state not in self._results:
            if len(self._results) >= MOVE_CACHE:
                self._results.clear()
            self._results[state] = self.author.call("result", state)
        found = self._results[state]
        if found is None:
            return None
        if isinstance(found, bool) or found not in (0, 1, 2):
            raise self.author.fail(
                "result",
                f"returned {quote(repr(found))}: expected None "
                "(the game goes on), 0 (a draw), 1 or 2 (the winner)",
            )
        if found == 0:
            return Outcome(None, "a draw")
        name = self.player_name(Player(found))
        named = "" if name == str(found) else f" ({name})"
        return Outcome(Player(found), f"player {found}{named} wins")

    def table(self, state: Any) -> dict[str, Any]:
        """The legal moves of a running game's position by their texts, checked once."""
        found = self._tables.get(state)
        if found is None:
            if len(self._tables) >= MOVE_CACHE:
                self._tables.clear()
            found = self._tables[state] = self._checked_moves(state)
        return found

    def _checked_moves(self, state: Any) -> dict[str, Any]:
        """The author's ``moves``, refused when not a collection of distinct hashable
        moves, when empty, or when two share a text."""
        before = hash(state)
        listed = self.author.call("moves", state)
        self.author.unchanged("moves", state, before)
        if isinstance(listed, (str, bytes, dict)) or not hasattr(listed, "__iter__"):
            raise self.author.fail(
                "moves", f"returned {type(listed).__name__}: expected a list or tuple of moves"
            )
        moves = list(listed)
        if not moves:
            raise self.author.fail(
                "moves", "returned no move while result says the game goes on (None)"
            )
        texts: dict[str, Any] = {}
        for move in moves:
            text = self._text(state, move)
            if text in texts:
                raise self.author.fail(
                    "moves", f"returned the move {quote(text)} twice (or two moves written alike)"
                )
            texts[text] = move
        return texts

    def _text(self, state: Any, move: Any) -> str:
        """The text of one legal move (its cell with a board); refused when it cannot be
        one token."""
        try:
            hash(move)
        except TypeError:
            raise self.author.fail(
                "moves",
                f"returned a {type(move).__name__}: moves must "
                "be hashable (a number, a string, a tuple)",
            ) from None
        text = self._cell_text(state, move) if self.has_board else move_text(move)
        if not text or any(c.isspace() or c == "," for c in text):
            raise self.author.fail(
                "moves",
                f"returned a move written {quote(text)}: a "
                "move's str must be one word (no spaces or commas)",
            )
        return text

    def _cell_text(self, state: Any, move: Any) -> str:
        """The cell a move fills (``b3``), or its column with gravity (``4``)."""
        cell = self.author.optional("cell", None)
        if callable(cell):
            found = self.author.call("cell", move)
            return str(found) if self.gravity else cell_name(*found)
        before = self.board_cells(state)
        after = self.board_cells(self.author.position("play", state, move))
        changed = [
            (r, c)
            for r, row in enumerate(after)
            for c, value in enumerate(row)
            if value and not before[r][c]
        ]
        if len(changed) != 1:
            raise self.author.fail(
                "board", "must show a move as one new piece; else define cell(move)"
            )
        row, col = changed[0]
        return str(col + 1) if self.gravity else cell_name(row + 1, col + 1)

    def board_cells(self, state: Any) -> list[list[int]]:
        """The author's ``board`` checked: rows of equal length, each cell 0, 1 or 2."""
        rows = [list(row) for row in self.author.call("board", state)]
        if not rows or len({len(row) for row in rows}) != 1 or len(rows[0]) > len(LETTERS):
            raise self.author.fail(
                "board", f"must return rows of equal length (1 to {len(LETTERS)} cells)"
            )
        cells = [[0 if value is None else value for value in row] for row in rows]
        if any(value not in (0, 1, 2) or isinstance(value, bool) for row in cells for value in row):
            raise self.author.fail("board", "cells must be None or 0 (empty), 1 or 2 (a piece)")
        return cells

    def legal_moves(self, position: Node) -> tuple[str, ...]:
        """The texts of the author's moves; none once the game is over."""
        if self.outcome(position) is not None:
            return ()
        return tuple(self.table(position.state))

    def play(self, position: Node, move: str) -> Node:
        """The author's ``play`` of the legal move written ``move``.

        Raises :class:`GameOverError` on a finished position, :class:`IllegalMoveError`
        naming ``move`` when it is no legal move's text.
        """
        if self.outcome(position) is not None:
            raise GameOverError(f"move {quote(move)}: the game is over")
        table = self.table(position.state)
        if not isinstance(move, str) or move not in table:
            legal = ", ".join(table)
            raise IllegalMoveError(f"move {quote(move)}: not a legal move; legal: {legal}")
        before = hash(position.state)
        after = self.author.position("play", position.state, table[move])
        self.author.unchanged("play", position.state, before)
        return Node(after, position.plies + 1)

    def key(self, position: Node) -> Hashable:
        """The author's position and the side to move."""
        return position.state, position.plies % 2

    def ply(self, position: Node) -> int:
        """Plies played."""
        return position.plies

    def plies_left_bound(self, position: Node) -> int:
        """``max_plies`` less the plies played, else the longest game measured."""
        if self.max_plies is not None:
            return max(0, int(self.max_plies) - position.plies)
        return self._longest(position.state, set())

    def _longest(self, state: Any, path: set[Hashable]) -> int:
        """The most plies left from ``state`` (walked once, remembered); refuses a game whose
        positions repeat or that is too large to measure."""
        known = self._depths.get(state)
        if known is not None:
            return known
        if state in path:
            raise self.author.fail(
                "play", "leads back to an earlier position: a game must end (or declare max_plies)"
            )
        if len(self._depths) >= MEASURE_POSITIONS:
            raise self.author.fail(
                "max_plies",
                f"is needed: the game has more than {MEASURE_POSITIONS} positions to measure",
            )
        depth = 0
        if self.outcome(Node(state)) is None:
            path.add(state)
            for move in self.table(state).values():
                child = self.author.position("play", state, move)
                depth = max(depth, 1 + self._longest(child, path))
            path.discard(state)
        self._depths[state] = depth
        return depth

    # -- optional knowledge and names -----------------------------------------------------
    def evaluate(self, position: Node) -> float:
        """The author's ``heuristic`` (for player 1) for the side to move, clipped; 0 without
        one."""
        if not callable(self.author.optional("heuristic", None)):
            return 0.0
        found = self.author.call("heuristic", position.state)
        if isinstance(found, bool) or not isinstance(found, (int, float)) or found != found:
            raise self.author.fail("heuristic", f"returned {quote(repr(found))}: expected a number")
        value = max(-HEURISTIC_SCALE, min(HEURISTIC_SCALE, float(found)))
        return value if self.to_move(position) is Player.FIRST else -value

    def move_to_json(self, move: str) -> dict[str, Any]:
        """``{"row": r, "col": c}`` (a board's cell), ``{"column": c}`` (with gravity), else
        ``{"move": text}``."""
        if self.has_board and self.gravity:
            return {"column": int(move)}
        found = CELL.fullmatch(move) if self.has_board else None
        if found:
            return {"row": int(found.group(2)), "col": LETTERS.index(found.group(1)) + 1}
        return {"move": move}

    def format_move(self, move: str) -> str:
        """The move's text (``move 3`` for a number that is not a column: trees and steps
        call a bare number a column)."""
        return f"move {move}" if move.isdigit() and not self.gravity else move

    def player_name(self, player: Player) -> str:
        """The author's ``players``, else ``1`` and ``2``."""
        return str(self.players[int(player) - 1])


class SimpleKit(GameKit):
    """The kit of a plain game: positions are move lists, moves their texts; ``BOARD`` when
    the rules draw one."""

    def __init__(self, rules: Any, name: str) -> None:
        self.name = check_name(name)
        made = isinstance(rules, type)
        instance = Author(name, rules).invoke("__init__", rules) if made else rules
        self.game = SimpleGame(self.name, instance)
        self.title = str(getattr(instance, "title", name))
        self.summary = (instance.__doc__ or "").strip().split("\n")[0]
        self.capabilities = frozenset(
            {Capability.ARENA} | ({Capability.BOARD} if self.game.has_board else set())
        )
        exact = getattr(instance, "exact_plies", None)
        if exact is None and self.game.max_plies is not None:
            exact = DEFAULT_EXACT_PLIES
        perft = getattr(instance, "perft_plies", DEFAULT_PERFT_PLIES)
        self.policy = Policy(play_time=1.0, exact_plies=exact, whole_tree_cells=perft)

    def make(self, params: GameParams) -> SimpleGame:
        """The game (it takes no size or ``k``; the api refuses them first)."""
        if params.size is not None or params.k is not None:
            raise ParameterError(f"{self.name}: takes no size and no k")
        return self.game

    def load(self, text: str, params: GameParams) -> Loaded:
        """The position of ``text``: a move list from the start, else (when the rules define
        ``parse`` and ``player``) the author's own notation, whose moves are unknown."""
        game = self.make(params)
        try:
            return super().load(text, params)
        except NotationError:
            if not game.parses:
                raise
        state = self._parsed(game, text)
        player = game.author.call("player", state)
        if isinstance(player, bool) or player not in (1, 2):
            raise game.author.fail("player", f"returned {quote(repr(player))}: expected 1 or 2")
        return Loaded(game, Node(state, 0 if player == 1 else 1), None)

    @staticmethod
    def _parsed(game: SimpleGame, text: str) -> Hashable:
        """The author's ``parse`` of ``text``: a ``ValueError`` it raises says the text is no
        position (a :class:`NotationError` naming it); anything else is the author's slip."""
        try:
            return game.author.position("parse", text)
        except PluginError as exc:
            if not isinstance(exc.__cause__, ValueError):
                raise
            raise NotationError(
                f"position {quote(text)}: neither moves nor a position of {game.name}: "
                f"{quote(str(exc.__cause__), 200)}"
            ) from None

    def position_text(self, loaded: Loaded) -> str:
        """The move list, or for a position read by ``parse`` the author's ``format`` of it
        (``str`` without one), which ``parse`` must read back."""
        if loaded.moves is not None:
            return super().position_text(loaded)
        game = self.game
        if callable(game.author.optional("format", None)):
            return str(game.author.call("format", loaded.position.state))
        return str(loaded.position.state)

    def parse_move(self, game: Any, position: Any, text: str) -> str:
        """A legal move's text; raises :class:`NotationError` naming any other (on a
        finished position the text is taken as it is, and ``play`` refuses it)."""
        move = text.strip()
        if game.outcome(position) is not None:
            return move
        if move not in game.table(position.state):
            legal = ", ".join(game.table(position.state))
            raise NotationError(f"move {quote(text)}: not a move here; the moves are {legal}")
        return move

    def move_from_json(self, game: Any, data: JSONValue) -> str:
        """The text of ``{"move": text}``, ``{"row": r, "col": c}`` or ``{"column": c}`` (the
        forms :meth:`SimpleGame.move_to_json` writes); raises :class:`NotationError`."""
        if isinstance(data, dict):
            whole = all(isinstance(v, int) and not isinstance(v, bool) for v in data.values())
            if set(data) == JSON_MOVE_KEYS and isinstance(data["move"], str):
                return data["move"]
            if set(data) == {"column"} and whole and 1 <= int(data["column"]) <= 999:  # type: ignore[arg-type]
                return str(data["column"])
            if set(data) == {"row", "col"} and whole and _in_board(data):
                return cell_name(int(data["row"]), int(data["col"]))  # type: ignore[arg-type]
        raise NotationError(
            f'move {quote(data)}: expected {{"move": text}}, {{"row": r, "col": c}} or '
            '{"column": c}'
        )

    def move_entry(self, game: Any) -> str:
        """The moves' texts."""
        return "a legal move as listed (its text)"

    def move_text(self, game: Any, move: Any) -> str:
        """The move's text, as :meth:`parse_move` reads it."""
        return str(move)

    def render(self, game: Any, position: Any, color: bool = False) -> str:
        """The board a row a line (``.`` empty, a side's first letter), else the position's
        ``str``."""
        if not self.game.has_board:
            return str(position.state)
        marks = ".", *(game.player_name(p)[:1] for p in Player)
        return "\n".join(
            "".join(marks[v] for v in row) for row in self.game.board_cells(position.state)
        )

    def side_label(self, game: Any, player: int) -> str:
        """``player 1 (x)``."""
        return f"player {player} ({game.player_name(Player(player))})"

    def board(self, game: Any, position: Any) -> BoardView | None:
        """The author's board as a :class:`BoardView` (cells ``{"player", "mark"}``)."""
        if not self.game.has_board:
            return None
        cells = self.game.board_cells(position.state)
        drawn = [
            [None if not v else {"player": v, "mark": game.player_name(Player(v))} for v in row]
            for row in cells
        ]
        return BoardView(len(cells), len(cells[0]), self.game.gravity, drawn)

    def move_cell(self, game: Any, position: Any, move: Any) -> tuple[int, int] | None:
        """The ``(row, col)`` (top row 0) a move fills."""
        if not self.game.has_board or move not in self.game.legal_moves(position):
            return None
        if not self.game.gravity:
            found = self.game.move_to_json(move)
            return found["row"] - 1, found["col"] - 1
        after = self.game.board_cells(self.game.play(position, move).state)
        before = self.game.board_cells(position.state)
        col = int(move) - 1
        rows = [r for r in range(len(after)) if after[r][col] and not before[r][col]]
        return (rows[0], col) if rows else None


def _in_board(data: dict[str, JSONValue]) -> bool:
    """Whether a ``{"row", "col"}`` object names a cell a board of at most 26 columns and 999
    rows can have."""
    row, col = data["row"], data["col"]
    return isinstance(row, int) and isinstance(col, int) and 1 <= row <= 999 and 1 <= col <= 26


def kit_of_rules(rules: Any, name: str) -> SimpleKit:
    """The kit of a plain game class (or instance) under ``name``; raises
    :class:`ParameterError` naming what is missing."""
    if not is_plain(rules):
        missing = [m for m in RULES if not callable(getattr(rules, m, None))]
        raise ParameterError(
            f"game {quote(name)}: {getattr(rules, '__name__', type(rules).__name__)} lacks "
            f"{', '.join(missing)}; a game defines start, moves, play and result"
        )
    return SimpleKit(rules, name)
