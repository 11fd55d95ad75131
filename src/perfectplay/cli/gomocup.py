"""``perfectplay gomocup``: the engine as a Gomocup (piskvork) brain on standard input/output.

The tournament managers people use (piskvork, Gomocup's manager, pbrain wrappers) talk to a
brain in lines of text; the brain answers each command that asks for it::

    START 15            -> OK              a new 15x15 game (RECTSTART 15,20: 15 wide, 20 high)
    INFO timeout_turn 1000                 milliseconds a move (also time_left, rule: bit 1 is
                                           the exact rule, an overline does not win; max_node:
                                           a node budget a move, 0 none)
    BEGIN               -> 7,7             the brain opens
    TURN 7,8            -> 8,8             the opponent played column 7, row 8; the brain replies
    BOARD / 7,7,1 / 7,8,2 / DONE -> 8,7    a whole position (1: the brain's, 2: the opponent's)
    TAKEBACK 7,8        -> OK              RESTART -> OK
    ABOUT               -> name="perfectplay", version="...", ...
    END                                    the brain exits

Coordinates are ``x,y`` from 0: the column, then the row from the top. Bad commands get
``ERROR reason`` (the message of the :mod:`perfectplay.errors` exception that names the bad
input: a bad move, a size the engine does not play, a rule it cannot play) or
``UNKNOWN command``, and the brain keeps going; a ``BOARD`` block with a bad line gets one
``ERROR`` when its ``DONE`` comes, so the replies stay in step. The board is rebuilt from the
stones for every move; between commands the brain keeps the stones, the clock and one
search engine per board and rule (:class:`perfectplay.api.Engine`), whose transposition
table carries what one move's search learnt to the next (its entries are keyed by whole
boards and hold values relative to their own position, so they stay true as the game goes
on); ``START`` and ``RESTART`` empty the tables.

A tournament manager times everything, ``START`` included: the compiled engine is loaded
once, in a background thread started with the brain (:class:`Loader`), so ``START`` answers
at once; a move waits for the load within its own time, and when the time runs out first
(the first run after an install compiles for a minute, said on stderr and as ``MESSAGE``)
answers a move found without the engine (:func:`ready_move`). Every move's clock starts
when its command is read.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK, PROG, stderr
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    NotationError,
    ParameterError,
    PerfectplayError,
    quote,
)

if TYPE_CHECKING:
    from perfectplay.api import Engine, RegisteredGame

EPILOG = """\
examples:
  perfectplay gomocup gomoku           the exact rule from the start (INFO rule 1 also sets it)
  perfectplay gomocup tictactoe        freestyle (five or more wins), as Gomocup's default

then type (or let a tournament manager send) START 15, INFO timeout_turn 1000, BEGIN,
TURN 7,8, ..., END. Boards from 5x5 to 20x20 (RECTSTART W,H for rectangular ones); rules
(INFO rule) 0 freestyle, 1 exact five, 2 and 3 the same as continuous games; renju (4),
caro (8) and others are refused with ERROR."""
GAME_HELP = "the rule to start with: gomoku (exactly five wins) or tictactoe (five or more)"
K = 5
"""Five in a row: Gomocup's rules."""
FREESTYLE, EXACT_RULE = "tictactoe", "gomoku"
"""The games of the two rules: five or more wins, exactly five wins."""
DEFAULT_TURN_MS = 5_000
"""Milliseconds a move when the manager says nothing (Gomocup's usual limit)."""
TIME_SHARE = 0.87
"""The share of a move's time the search may use (the rest is the line's transport and a
busy machine's scheduling: at 0.8 the slowest of some 300 moves at 1000 ms took 787 ms on an
idle machine and 849 ms at load 5 on 2 cores, so 0.87 leaves about 90 ms; issue 26)."""
SAFE_SHARE = 0.93
"""The share of a move's time by which its answer must be ready, the brain's recent
lateness included (:class:`Lateness`): what is left is the line's transport."""
LATE_MEMORY = 5
"""Moves whose lateness the brain remembers: one slow moment of a busy machine costs a few
moves some time, not the whole game."""
MATCH_SHARE = 0.05
"""At most this share of the match time left goes to one move."""
MIN_SECONDS = 0.05
READY_SECONDS = 0.05
"""Time a move keeps back, while the engine loads, to answer without it (:func:`ready_move`)."""
SIZES = range(5, 21)
"""Board sides the brain plays (Gomocup's boards: up to 20x20, its freestyle league's)."""
RULE_EXACT, RULE_CONTINUOUS = 1, 2
"""Bits of ``INFO rule`` the brain plays: exactly five wins; continuous games (stones of
earlier games, ``BOARD``'s field 3, stay on the board)."""
RULE_NAMES = {4: "renju", 8: "caro"}
"""The other rules Gomocup names (any other bit is unknown): refused."""
OWN, THEIRS, NEUTRAL = 1, 2, 3
"""``BOARD``'s fields: the brain's stone, the opponent's, a continuous game's stone."""
READY = "MESSAGE perfectplay: engine loaded"
"""Said (at any time: the protocol allows it) once the engine is loaded: a manager that waits
for it before the first game sees no move found without the engine."""
LOAD_BOARD = "15x15"
"""The board the loader warms the engine on (its compiled code serves every size and rule)."""
ABOUT = 'name="perfectplay", version="{version}", author="perfectplay", country="-"'


def add(commands: object) -> None:
    """Declare the verb."""
    summary = "play as a Gomocup (piskvork) brain on standard input and output"
    options.add_verb(commands, "gomocup", summary, EPILOG, run, game_help=GAME_HELP)


def run(args: argparse.Namespace) -> int:
    """Answer the protocol's commands until ``END`` or the end of input; the engine starts
    loading at once, before the first ``START`` arrives."""
    from perfectplay import api

    name = api.kit(args.game).name
    if name not in (FREESTYLE, EXACT_RULE):
        raise ParameterError(
            f"gomocup {args.game}: the protocol plays {EXACT_RULE} (exactly five) or "
            f"{FREESTYLE} (freestyle, five or more)"
        )
    lock = threading.Lock()  # the loader's thread writes its MESSAGE too

    def say(line: str) -> None:
        with lock:
            write(sys.stdout, line)

    brain = Brain(exact_rule=name == EXACT_RULE, loader=Loader(on_ready=lambda: say(READY)))
    brain.loader.start()
    for reply in brain.serve(iter(sys.stdin.readline, "")):
        say(reply)
    return EXIT_OK


class Loader:
    """The compiled engine, loaded once per process in a background thread (numba's cache
    read in seconds, or a compile of a minute on the first run after an install), so that
    the protocol's commands are answered meanwhile. ``warm(say)`` does the loading and calls
    ``say`` with a notice when it must compile first (by default :func:`warm_engine`);
    ``on_ready`` is called (from the loading thread) once it has loaded."""

    def __init__(
        self,
        warm: Callable[[Callable[[str], None]], None] | None = None,
        on_ready: Callable[[], None] | None = None,
    ) -> None:
        self._warm = warm_engine if warm is None else warm
        self._on_ready = on_ready
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.notice: str | None = None
        """What the loader said (a compile under way), for the manager's ``MESSAGE``."""

    def start(self) -> None:
        """Start loading, once (later calls do nothing)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._load, name="engine", daemon=True)
                self._thread.start()

    def wait(self, seconds: float) -> bool:
        """Whether the engine is loaded, waiting for it at most ``seconds`` (starting the
        load when it has not started)."""
        self.start()
        return self._done.wait(max(0.0, seconds))

    def _load(self) -> None:
        try:
            self._warm(self._say)
        except Exception:  # a move's search loads it again and says why, as an ERROR line
            self._done.set()
            return
        self._done.set()
        if self._on_ready is not None:
            self._on_ready()

    def _say(self, notice: str) -> None:
        self.notice = notice
        stderr(f"{PROG}: {notice}")


def warm_engine(say: Callable[[str], None]) -> None:
    """Load the big-board engine into this process (its code serves every board and rule),
    compiling it first when numba's cache lacks it, which ``say`` hears of."""
    from perfectplay import api

    game: RegisteredGame
    game, _ = api.new_game(FREESTYLE, size=LOAD_BOARD, k=K)
    engine = api.engine_to_compile(game)
    if engine is not None:
        say(
            f"compiling {engine.label}: first run after install, about "
            f"{engine.compile_seconds} s; moves until then are found without it"
        )
    api.warm_game(game)


def ready_move(game: Any, position: Any) -> Any:
    """A move found at once without the compiled engine: one that wins now, else one that
    blocks the opponent's win now, else the first of the game's search order (the centre
    first). Played only while the engine loads."""
    moves = game.ordered_moves(position)
    mover = game.to_move(position)
    for move in moves:
        outcome = game.outcome(game.play(position, move))
        if outcome is not None and outcome.winner == mover:
            return move
    if len(moves) > 2:
        for move in moves:
            # The opponent's stone on ``move`` after a stone of ours far away (the last cells
            # of the order, off any line of the opponent's through ``move``: those are full).
            elsewhere = moves[-1] if move != moves[-1] else moves[-2]
            outcome = game.outcome(game.play(game.play(position, elsewhere), move))
            if outcome is not None and outcome.winner != mover:
                return move
    return moves[0]


def write(out: TextIO, line: str) -> None:
    """One answer, flushed at once (the manager waits for it)."""
    out.write(line + "\n")
    out.flush()


@dataclass
class Lateness:
    """How late the brain's recent moves came: the time from reading a move's command to
    having its answer, past the search's own time. On an idle machine a search stops within a
    few milliseconds of its time; on a busy one (more runnable processes than cores) the
    process waits for a core, both while searching and after its clock ran out: at 0.87 of a
    1000 ms turn, moves took up to 2.3 s at load 5-13 on 2 cores (BENCHMARKS.md, issue 26).
    The next move's search then gets less, so that its answer still comes by
    :data:`SAFE_SHARE` of the turn if the machine stays as busy."""

    recent: deque[float] = field(default_factory=lambda: deque(maxlen=LATE_MEMORY))

    def record(self, planned: float, took: float) -> None:
        """A move whose search had ``planned`` seconds took ``took`` from its command."""
        self.recent.append(max(0.0, took - planned))

    def budget(self, turn: float) -> float:
        """The search's seconds of a move of ``turn`` seconds: :data:`TIME_SHARE` of it, less
        when the worst recent lateness would carry the answer past :data:`SAFE_SHARE`."""
        worst = max(self.recent, default=0.0)
        return min(turn * TIME_SHARE, turn * SAFE_SHARE - worst)


@dataclass
class Brain:
    """The protocol's state: the board's size, the rule, the clock and the stones (own and
    the opponent's, as ``(x, y)``)."""

    exact_rule: bool = False
    cols: int = 0
    rows: int = 0
    turn_ms: int = DEFAULT_TURN_MS
    left_ms: int | None = None
    max_nodes: int = 0
    """``INFO max_node``: the search's nodes a move (0: no budget, the clock alone), the key
    Rapfi and Yixin read; the VCF searches' own nodes are not counted."""
    own: list[tuple[int, int]] = field(default_factory=list)
    theirs: list[tuple[int, int]] = field(default_factory=list)
    neutral: list[tuple[int, int]] = field(default_factory=list)
    loader: Loader = field(default_factory=Loader)
    received: float = field(default_factory=time.perf_counter)
    """When the command being answered was read: its move's clock starts there."""
    lateness: Lateness = field(default_factory=Lateness)
    """How late the last moves came: a busy machine's moves get less search time."""
    told: bool = False
    """Whether the loader's notice has gone to the manager as a ``MESSAGE``."""
    engines: dict[tuple[str, int, int], Engine[Any, Any]] = field(default_factory=dict)
    """The search engine of the rule and board (cols, rows) in force, its table kept (at
    most one: another rule or board replaces it)."""

    def serve(self, lines: Iterator[str]) -> Iterator[str]:
        """The answers to the commands read from ``lines`` (``BOARD`` reads its own lines)."""
        for raw in lines:
            self.received = time.perf_counter()
            words = raw.strip().split(maxsplit=1)
            if not words:
                continue
            command, rest = words[0].upper(), words[1] if len(words) > 1 else ""
            if command == "END":
                return
            if not self.told and self.loader.notice is not None:
                self.told = True
                yield f"MESSAGE {self.loader.notice}"
            if command == "BOARD":
                yield self.board(lines)
                continue
            reply = self.answer(command, rest)
            if reply is not None:
                yield reply

    def answer(self, command: str, rest: str) -> str | None:
        """The answer to one command (``None`` for those that take none)."""
        handlers: dict[str, Callable[[str], str | None]] = {
            "START": self.start,
            "RECTSTART": self.rect_start,
            "RESTART": lambda _: self.restart(),
            "BEGIN": lambda _: self.move(),
            "TURN": self.turn,
            "TAKEBACK": self.take_back,
            "INFO": self.info,
            "ABOUT": lambda _: about(),
        }
        handler = handlers.get(command)
        if handler is None:
            return f"UNKNOWN {command}"
        try:
            return handler(rest)
        except PerfectplayError as error:
            return f"ERROR {error}"

    def start(self, rest: str) -> str:
        """``START size``: a new square board."""
        size = whole(rest, "size")
        return self.new_board(size, size)

    def rect_start(self, rest: str) -> str:
        """``RECTSTART width,height``."""
        width, height = pair(rest)
        return self.new_board(width, height)

    def new_board(self, cols: int, rows: int) -> str:
        """An empty board of the size, when the engine plays it; loads the engine."""
        if cols not in SIZES or rows not in SIZES:
            raise ParameterError(
                f"unsupported size {cols}x{rows}: {SIZES.start} to {SIZES.stop - 1} a side"
            )
        self.cols, self.rows = cols, rows
        self.loader.start()  # answered at once: a move waits for the engine, not START
        return self.restart()

    def restart(self) -> str:
        """The same board, emptied, and the engines' tables too (a new game)."""
        self.clear_stones()
        for engine in self.engines.values():
            engine.clear()
        return "OK"

    def clear_stones(self) -> None:
        """No stone on the board (the tables are kept: a ``BOARD`` block continues a game)."""
        self.own.clear()
        self.theirs.clear()
        self.neutral.clear()

    def turn(self, rest: str) -> str:
        """``TURN x,y``: the opponent's stone, then the brain's move."""
        self.place(pair(rest), self.theirs)
        return self.move()

    def take_back(self, rest: str) -> str:
        """``TAKEBACK x,y``: the stone there is lifted."""
        cell = pair(rest)
        for stones in (self.own, self.theirs, self.neutral):
            if cell in stones:
                stones.remove(cell)
                return "OK"
        raise IllegalMoveError(f"no stone at {cell[0]},{cell[1]}")

    def info(self, rest: str) -> None:
        """``INFO key value``: the clock, the node budget and the rule; other keys are
        ignored."""
        key, _, value = rest.partition(" ")
        key = key.lower()
        if key == "timeout_turn":
            self.turn_ms = whole(value, key)
        elif key == "time_left":
            self.left_ms = whole(value, key)
        elif key == "max_node":
            self.max_nodes = whole(value, key)
        elif key == "rule":
            self.exact_rule = bool(checked_rule(whole(value, key)) & RULE_EXACT)

    def board(self, lines: Iterator[str]) -> str:
        """``BOARD``: ``x,y,field`` lines up to ``DONE``, then the brain's move. A bad line
        makes the block's one answer an ``ERROR`` naming it (the first such line); the
        lines after it are read up to ``DONE`` and ignored, so that the replies stay in
        step with the commands."""
        self.clear_stones()
        error: str | None = None
        for raw in lines:
            text = raw.strip()
            if text.upper() == "DONE":
                break
            if error is None and text:
                try:
                    self.board_line(text)
                except PerfectplayError as bad:
                    error = f"ERROR {bad}"
        if error is not None:
            return error
        try:
            return self.move()
        except PerfectplayError as bad:
            return f"ERROR {bad}"

    def board_line(self, text: str) -> None:
        """One ``x,y,field`` line of a ``BOARD`` block: the stone placed (field 1 the brain's,
        2 the opponent's, 3 a continuous game's); raises :class:`NotationError` or
        :class:`IllegalMoveError` naming the line."""
        parts = text.split(",")
        if len(parts) != 3:
            raise NotationError(f"board line {quote(text)}: expected x,y,field")
        cell, who = pair(",".join(parts[:2])), whole(parts[2], "field")
        stones = {OWN: self.own, THEIRS: self.theirs, NEUTRAL: self.neutral}.get(who)
        if stones is None:
            raise NotationError(
                f"board line {quote(text)}: field {who}: expected 1 (own), 2 (opponent) "
                "or 3 (continuous game)"
            )
        self.place(cell, stones)

    def place(self, cell: tuple[int, int], stones: list[tuple[int, int]]) -> None:
        """Add a stone after checking the cell is on the board and empty."""
        x, y = cell
        if not self.cols:
            raise ParameterError("no board yet: START first")
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise IllegalMoveError(f"{x},{y} is off the {self.cols}x{self.rows} board")
        if cell in self.own or cell in self.theirs or cell in self.neutral:
            raise IllegalMoveError(f"{x},{y} is taken")
        stones.append(cell)

    @property
    def game_name(self) -> str:
        """The kit of the rule in force."""
        return EXACT_RULE if self.exact_rule else FREESTYLE

    def move(self) -> str:
        """The brain's move on the current stones, as ``x,y`` (also kept as its stone)."""
        from perfectplay import api

        if not self.cols:
            raise ParameterError("no board yet: START first")
        game, position = api.load(self.game_name, self.board_text(), k=K)
        if game.outcome(position) is not None:
            raise GameOverError("the game is over")
        seconds = self.seconds()
        waited = time.perf_counter() - self.received
        # A compile takes a minute: no use waiting for it (a load from the cache, seconds).
        patience = 0.0 if self.loader.notice else seconds - waited - READY_SECONDS
        if self.loader.wait(patience):
            nodes = self.max_nodes or None
            limit = api.limit(time=seconds, nodes=nodes, started=self.received)
            chosen = self.engine(game).solve(position, limit, line=False).best_move
        else:
            chosen = ready_move(game, position)
        cell = api.kit_of(game).move_cell(game, position, chosen)
        self.lateness.record(seconds, time.perf_counter() - self.received)
        if cell is None:
            raise ParameterError(f"{self.game_name} has no board cells")
        row, col = cell
        self.own.append((col, row))
        return f"{col},{row}"

    def engine(self, game: RegisteredGame) -> Engine[Any, Any]:
        """The engine of the rule and board in force, made on its first move (its table
        kept across the moves and cleared by ``START``/``RESTART``; the engine of another
        rule or board is dropped)."""
        from perfectplay import api

        key = (self.game_name, self.cols, self.rows)
        engine = self.engines.get(key)
        if engine is None:
            # One table at a time (tens of MiB each): a manager cycling through board sizes
            # or rules must not pile them up; a change of board or rule starts a new game.
            self.engines.clear()
            engine = self.engines[key] = api.Engine(game)
        return engine

    def board_text(self) -> str:
        """The stones as a board (``x`` the side that has as many stones or one more).

        The engine has no neutral stones: a continuous game's stone is played as a stone of
        one side or the other, keeping the counts a position allows (so the brain never
        answers on it, though it misjudges the lines through it)."""
        if len(self.theirs) - len(self.own) not in (0, 1):
            raise IllegalPositionError(
                f"the brain has {len(self.own)} stones and the opponent {len(self.theirs)}: "
                "not the brain's turn"
            )
        own, theirs = self.with_neutral()
        mine, other = ("x", "o") if len(own) == len(theirs) else ("o", "x")
        grid = [["_"] * self.cols for _ in range(self.rows)]
        for stones, mark in ((own, mine), (theirs, other)):
            for x, y in stones:
                grid[y][x] = mark
        return "/".join("".join(row) for row in grid)

    def with_neutral(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The brain's stones and the opponent's with the continuous game's stones shared
        out as the counts of a position allow: the opponent gets those nearest the brain's
        stones (they block its lines, as a neutral stone does), the brain the farthest."""
        share = (len(self.neutral) + len(self.theirs) - len(self.own)) // 2

        def distance(stone: tuple[int, int]) -> int:
            x, y = stone
            return min((max(abs(x - a), abs(y - b)) for a, b in self.own), default=0)

        farthest = sorted(self.neutral, key=distance, reverse=True)
        return self.own + farthest[:share], self.theirs + farthest[share:]

    def seconds(self) -> float:
        """The search's time: a share of the move's limit (less after late moves: see
        :class:`Lateness`) and of the match time left."""
        budget = self.lateness.budget(self.turn_ms / 1000)
        if self.left_ms is not None:
            budget = min(budget, self.left_ms / 1000 * MATCH_SHARE)
        return max(MIN_SECONDS, budget)


def checked_rule(rule: int) -> int:
    """``INFO rule``'s value when the brain plays it (bits :data:`RULE_EXACT` and
    :data:`RULE_CONTINUOUS`); raises :class:`ParameterError` naming the rule otherwise."""
    refused = rule & ~(RULE_EXACT | RULE_CONTINUOUS)
    if refused:
        bits = [1 << i for i in range(refused.bit_length()) if refused >> i & 1]
        names = ", ".join(RULE_NAMES.get(bit, f"unknown bit {bit}") for bit in bits)
        raise ParameterError(
            f"rule {rule} ({names}): not played; the brain plays freestyle (0) and exact "
            "five (1), in continuous games too (2, 3)"
        )
    return rule


def about() -> str:
    """The ``ABOUT`` line."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("perfectplay")
    except PackageNotFoundError:
        found = "unknown"
    return ABOUT.format(version=found)


def whole(text: str, name: str) -> int:
    """A whole number of the protocol; raises :class:`NotationError` naming it."""
    number = text.strip()  # int() also takes other scripts' digits and "_": not the protocol
    if not options.WHOLE.fullmatch(number) or len(number) > options.MAX_OPTION_DIGITS:
        raise NotationError(f"{name} {quote(number)}: expected a whole number")
    return int(number)


def pair(text: str) -> tuple[int, int]:
    """``x,y``; raises :class:`NotationError` for anything else."""
    parts = text.split(",")
    if len(parts) != 2:
        raise NotationError(f"{text.strip()!r}: expected x,y")
    return whole(parts[0], "x"), whole(parts[1], "y")
