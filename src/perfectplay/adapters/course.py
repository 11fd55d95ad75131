"""The shape-and-color engine as a bot for the course's game engine.

Drop-in use in a course project that has only ``perfectplay`` installed (this module imports
nothing but perfectplay and the standard library)::

    from perfectplay.adapters.course import PerfectplayBot

    bot = PerfectplayBot()                      # loads the compiled engine once
    column, shape = bot.find(state, n_player, thinking_time)

The course state it reads:

* ``state.board[row, col]`` with row 0 at the TOP; each cell has ``.shape`` (``"O"``, ``"X"``
  or ``"-"`` for empty) and ``.color`` (``"RED"``, ``"BLUE"``, ``"BLACK"`` for empty);
  ``state.board.row`` and ``state.board.col`` give the size;
* ``state.players[i].quota``: the pieces player ``i`` has left, ``{"O": n, "X": n}`` (the
  numbers may be floats); player index 0 is red (player 1, owner of ``O``, moves first), 1 is
  blue (player 2, owner of ``X``);
* ``state.round``: the turn number, starting at 1 (only cross-checked, never relied on).

Contract of :meth:`PerfectplayBot.find`: it returns ``(column, shape)`` with a 0-based column
and ``"O"``/``"X"``, legal by the state itself (the column's top cell is empty and the mover's
quota of the shape, as the state gives it, is above 0), whenever the state has a legal move.
It never raises on a strange state: when the board cannot be read, is not a position of a
legal game, disagrees with ``n_player`` about whose turn it is, or the search fails, it falls
back to a legal move without search (centre columns first, the mover's own shape first). It
answers within ``thinking_time``: the search gets ``margin * thinking_time`` minus the time
already spent reading the state, under the engine's hard deadline. :attr:`last` describes the
latest decision (where the move came from, why, the search figures, any disagreement found).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from perfectplay.errors import IllegalPositionError, PerfectplayError, quote
from perfectplay.games.protocol import Player
from perfectplay.games.simplexity.rules import (
    EVALUATIONS,
    SHAPES,
    SimplexityGame,
    SimplexityPosition,
)
from perfectplay.games.simplexity.rules import game as make_game
from perfectplay.search.limits import make_limit
from perfectplay.search.solver import Engine, SearchOptions, solve

MARGIN = 0.9
"""Share of the thinking time the search may use (the rest covers reading and answering)."""
RESERVE = 0.02
"""Seconds kept back for the work after the search (the principal variation, returning)."""
MIN_SEARCH = 0.005
"""Below this many seconds of budget the bot answers without searching."""
WARM_UP_SEARCH = 0.05
"""Seconds of each timed search in :meth:`PerfectplayBot.warm_up`."""
WARM_UP_PLIES = 6
"""Pieces on the mid-game position :meth:`PerfectplayBot.warm_up` searches."""
NODES_PER_SECOND = 1_000_000
"""Rough engine speed: short searches get a table about as large as the nodes they visit,
because a fresh table is allocated (and zeroed) for every search, outside its deadline."""
SMALLEST_TABLE = 1 << 16
COLORS = ("RED", "BLUE")
"""Course color names by player index: index 0 is red (player 1), 1 is blue (player 2)."""


@dataclass(frozen=True, slots=True)
class CourseView:
    """What the course state says, in perfectplay's terms.

    ``red``, ``blue``, ``circles`` are bitboards in the gravity layout of
    :mod:`perfectplay.games.simplexity.rules`; ``open_columns`` the columns whose top cell is empty;
    ``quotas[i]`` player index ``i``'s pieces left per shape, as the state gives them.
    """

    rows: int
    cols: int
    red: int
    blue: int
    circles: int
    open_columns: tuple[int, ...]
    quotas: tuple[dict[str, int], dict[str, int]]
    round: int | None

    def legal(self, n_player: int) -> list[tuple[int, str]]:
        """Every move the course engine accepts from player index ``n_player``."""
        shapes = [s for s in SHAPES if self.quotas[n_player].get(s, 0) > 0]
        return [(c, s) for c in self.open_columns for s in shapes]


@dataclass(frozen=True, slots=True)
class Decision:
    """How :meth:`PerfectplayBot.find` chose its latest move.

    ``source`` is ``"search"`` or ``"fallback"``; ``reason`` says why a fallback was needed;
    ``notes`` lists disagreements found in the state (quotas, round); ``seconds`` is the whole
    time ``find`` took.
    """

    move: tuple[int, str]
    source: str
    reason: str | None = None
    depth: int = 0
    nodes: int = 0
    score: str = ""
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default_factory=tuple)


class CourseStateError(PerfectplayError):
    """The course state cannot be read as a shape-and-color board."""


def _name(value: Any) -> str:
    """A course constant as upper-case text (plain strings, or enums through ``.value``)."""
    return str(getattr(value, "value", value)).strip().upper()


def _count(value: Any) -> int:
    """A quota number (possibly a float) as a whole number; anything unreadable counts 0."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0
    return int(number) if math.isfinite(number) and number > 0 else 0


def _cell(board: Any, row: int, col: int) -> Any:
    """``board[row, col]``, or ``board[row][col]`` for boards indexed by nested lists."""
    try:
        return board[row, col]
    except (TypeError, KeyError, IndexError):
        return board[row][col]


def read_state(state: Any) -> CourseView:
    """The course ``state`` as a :class:`CourseView`.

    Raises :class:`CourseStateError` for a size that is not two positive whole numbers, a cell
    whose shape is not ``O``/``X``/``-`` or whose piece is neither red nor blue; any error of
    the state object itself (a missing attribute) propagates.
    """
    board = state.board
    rows, cols = int(board.row), int(board.col)
    if rows < 1 or cols < 1:
        raise CourseStateError(f"board {cols}x{rows}: the size must be positive")
    stride = rows + 1
    red = blue = circles = 0
    open_columns = []
    for col in range(cols):
        for top_row in range(rows):
            cell = _cell(board, top_row, col)
            shape, color = _name(cell.shape), _name(cell.color)
            if shape == "-":
                if top_row == 0:
                    open_columns.append(col)
                continue
            if shape not in SHAPES or color not in COLORS:
                raise CourseStateError(
                    f"cell row {top_row} col {col}: shape {quote(shape)} color {quote(color)} "
                    "is no piece"
                )
            bit = 1 << (col * stride + rows - 1 - top_row)  # the layout counts rows up
            if color == "RED":
                red |= bit
            else:
                blue |= bit
            if shape == "O":
                circles |= bit
    quotas = tuple(
        {_name(k): _count(v) for k, v in dict(state.players[i].quota).items()} for i in (0, 1)
    )
    number = getattr(state, "round", None)
    return CourseView(
        rows,
        cols,
        red,
        blue,
        circles,
        tuple(open_columns),
        (quotas[0], quotas[1]),
        number if isinstance(number, int) else None,
    )


def fallback_move(legal: list[tuple[int, str]], cols: int, n_player: int) -> tuple[int, str]:
    """A legal move without search: the column nearest the centre, the mover's own shape
    first (``legal`` must not be empty)."""
    centre = (cols - 1) / 2
    own = SHAPES[n_player]
    return min(legal, key=lambda m: (abs(m[0] - centre), m[0], m[1] != own))


class PerfectplayBot:
    """The engine as a course bot: ``find(state, n_player, thinking_time) -> (col, shape)``.

    ``evaluation`` names the heuristic (``windows``, the stronger default, or ``neighbors``);
    ``depth`` caps the plies searched (``None``: as deep as the time allows); ``margin`` is
    the share of the thinking time given to the search; ``warm_up`` loads the compiled engine
    for a ``rows`` x ``cols`` board now rather than during the first move (the first load can
    take seconds, and a move searched before it is loaded uses the slower Python engine).
    Raises :class:`~perfectplay.errors.ParameterError` for an unknown evaluation, a depth
    below 1 or a margin outside (0, 1].
    """

    def __init__(
        self,
        evaluation: str = EVALUATIONS[0],
        depth: int | None = None,
        margin: float = MARGIN,
        warm_up: bool = True,
        rows: int = 6,
        cols: int = 7,
    ) -> None:
        from perfectplay.errors import ParameterError

        if evaluation not in EVALUATIONS:
            raise ParameterError(
                f"evaluation {quote(evaluation)}: unknown; known are {', '.join(EVALUATIONS)}"
            )
        if depth is not None:
            make_limit(depth=depth)
            if depth < 1:
                raise ParameterError(f"depth={depth}: must be at least 1")
        if not isinstance(margin, int | float) or not 0 < margin <= 1:
            raise ParameterError(f"margin={quote(margin)}: must be above 0 and at most 1")
        self.evaluation = evaluation
        self.depth = depth
        self.margin = float(margin)
        # Whether this bot's compiled engine is loaded: the first search of a kind loads or
        # compiles the kernel, which its deadline does not bound, so until then it searches
        # with the generic engine.
        self.loaded = False
        self.last: Decision | None = None
        self._games: dict[tuple[int, int], SimplexityGame] = {}
        if warm_up:
            self.warm_up(rows, cols)

    def warm_up(self, rows: int = 6, cols: int = 7) -> None:
        """Load (or compile, the first time on a machine) the engine with tiny searches: the
        first loads the compiled code; the timed ones pay for what the first timed searches of
        a process cost beyond their deadline (measured: up to a tenth of a second each)."""
        game = self._game(rows, cols)
        position = game.initial()
        solve(game, position, make_limit(depth=1))
        for _ in range(WARM_UP_PLIES):
            moves = game.ordered_moves(position)
            following = game.play_move(position, moves[0]) if moves else position
            if game.outcome(following) is not None:
                break
            position = following
        for start in (game.initial(), position, game.initial()):
            solve(game, start, make_limit(time=WARM_UP_SEARCH))
        self.loaded = True

    def _game(self, rows: int, cols: int) -> SimplexityGame:
        key = (rows, cols)
        if key not in self._games:
            self._games[key] = make_game(rows, cols, self.evaluation)
        return self._games[key]

    # -- the course interface ----------------------------------------------------------------
    def find(self, state: Any, n_player: int, thinking_time: float) -> tuple[int, str]:
        """The move of player index ``n_player`` (0 red, 1 blue) in the course ``state``,
        within ``thinking_time`` seconds: ``(0-based column, "O" or "X")``.

        Never raises for a strange state; see the module docstring for the guarantees.
        """
        started = time.perf_counter()
        notes: list[str] = []
        try:
            view = read_state(state)
        except Exception as exc:  # any unreadable state: answer anyway
            move = self._blind_move(state, n_player)
            return self._decide(move, "fallback", started, notes, reason=f"unreadable: {exc}")
        legal = view.legal(n_player) if n_player in (0, 1) else []
        if not legal:
            move = (view.open_columns[0] if view.open_columns else 0, SHAPES[n_player % 2])
            return self._decide(move, "fallback", started, notes, reason="no legal move")
        try:
            return self._searched(view, n_player, thinking_time, started, legal, notes)
        except Exception as exc:  # a failed search must not lose the game: play legally
            move = fallback_move(legal, view.cols, n_player)
            return self._decide(move, "fallback", started, notes, reason=str(exc))

    def _searched(
        self,
        view: CourseView,
        n_player: int,
        thinking_time: float,
        started: float,
        legal: list[tuple[int, str]],
        notes: list[str],
    ) -> tuple[int, str]:
        """Search the position for the time left; raises when the state is inconsistent."""
        game = self._game(view.rows, view.cols)
        position = self._position(game, view, n_player, notes)
        budget = float(thinking_time) * self.margin - (time.perf_counter() - started) - RESERVE
        if not budget >= MIN_SEARCH:  # also catches NaN
            raise ValueError(f"no time to search (thinking time {thinking_time!r})")
        engine: Engine = "auto" if self.loaded else "python"
        limit = make_limit(depth=self.depth, time=budget)
        entries = max(SMALLEST_TABLE, 1 << math.ceil(math.log2(1 + budget * NODES_PER_SECOND)))
        search = SearchOptions(engine=engine, table_entries=entries)
        result = solve(game, position, limit, search=search)
        best = result.best_move
        move = None if best is None else (best.column, best.shape)
        if move not in legal:
            # The state's quotas forbid the engine's choice: take the engine's next favourite.
            ordered = [(m.column, m.shape) for m in game.ordered_moves(position)]
            spare = fallback_move(legal, view.cols, n_player)
            move = next((m for m in ordered if m in legal), spare)
            notes.append(f"engine's move {best} is illegal by the state's quotas")
        return self._decide(
            move,
            "search",
            started,
            notes,
            depth=result.depth,
            nodes=result.nodes,
            score=str(result.score),
        )

    def _position(
        self, game: SimplexityGame, view: CourseView, n_player: int, notes: list[str]
    ) -> SimplexityPosition:
        """The validated position of ``view`` with player index ``n_player`` to move; quota
        and round disagreements become notes. Raises :class:`IllegalPositionError` when the
        board is no position of a running game or it is not ``n_player``'s turn."""
        position = game.from_bits(view.red, view.blue, view.circles)
        outcome = game.outcome(position)
        if outcome is not None:
            raise IllegalPositionError(f"the game is already over ({outcome.reason})")
        mover = game.to_move(position)
        if int(mover) - 1 != n_player:
            raise IllegalPositionError(
                f"the board has player {int(mover)} to move, not player index {n_player}"
            )
        for index, player in enumerate(Player):
            for shape in SHAPES:
                board_left = game.quota_left(position, player, shape)
                state_left = view.quotas[index].get(shape, 0)
                if board_left != state_left:
                    notes.append(
                        f"player index {index} has {state_left} {shape} by the state but "
                        f"{board_left} by the board"
                    )
        if view.round is not None and view.round - 1 != position.plies:
            notes.append(f"round {view.round} but {position.plies} pieces on the board")
        return position

    def _blind_move(self, state: Any, n_player: int) -> tuple[int, str]:
        """A best-effort move from an unreadable state: an empty top cell and a shape with
        quota, read as far as possible."""
        shape = SHAPES[n_player % 2] if n_player in (0, 1) else "O"
        try:
            quota = {_name(k): _count(v) for k, v in dict(state.players[n_player].quota).items()}
            shapes = [s for s in (shape, *SHAPES) if quota.get(s, 0) > 0]
            shape = shapes[0] if shapes else shape
        except Exception:  # nothing better is known
            pass
        try:
            cols = int(state.board.col)
            for col in sorted(range(cols), key=lambda c: abs(c - (cols - 1) / 2)):
                if _name(_cell(state.board, 0, col).shape) == "-":
                    return col, shape
        except Exception:  # nothing better is known
            pass
        return 0, shape

    def _decide(
        self,
        move: tuple[int, str],
        source: str,
        started: float,
        notes: list[str],
        reason: str | None = None,
        depth: int = 0,
        nodes: int = 0,
        score: str = "",
    ) -> tuple[int, str]:
        """Record :attr:`last` and return ``move``."""
        seconds = time.perf_counter() - started
        self.last = Decision(move, source, reason, depth, nodes, score, seconds, tuple(notes))
        return move
