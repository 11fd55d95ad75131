"""One refereed game between two entrants: our players in this process, outside bots each in
its own sandbox, every move timed and checked by our rules.

A player loses the game (a *forfeit*, with its reason) when it

* ``time``: answers later than the move's time plus the margin (wall clock, the referee's),
  or exceeds its CPU allowance for the move (the kernel's SIGXCPU);
* ``crash``: raises, exits, cannot be loaded or started, or closes the pipe;
* ``illegal``: answers something that is no legal move (Gomocup and line bots: at once;
  course bots: after :data:`COURSE_ASKS` illegal proposals for one move, the course's rule
  that an illegal proposal is asked again);
* ``memory``: runs out of its memory limit (``MemoryError``, or a crash that says so);
* ``sandbox``: tries what the sandbox forbids (seen by the course runner's audit hook).

Protocols: the course runner's pipe (:mod:`perfectplay.adapters.bot_runner`), Gomocup
(``START``/``RECTSTART``, ``INFO``, ``BEGIN``, ``TURN``, ``BOARD``, ``END``) and our line
protocol (docs/tournaments.md).
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any, Protocol

from perfectplay.adapters.course_state import state_data
from perfectplay.analysis.arena import EngineContestant, make_contestant
from perfectplay.analysis.entrants import Entrant
from perfectplay.games.kit import GameKit, Loaded
from perfectplay.games.protocol import Player
from perfectplay.jobs.sandbox import Limits, Sandbox, SandboxEnded
from perfectplay.search.levels import level_move, level_named

COURSE_ASKS = 3
"""Proposals a course bot gets for one move: an illegal one is asked again, the third loses."""
LOAD_SECONDS = 15.0
"""Wall-clock seconds an outside bot has to start (interpreter, imports, its constructor)."""
TOLD_MEMORY_DIVISOR = 2
"""A Gomocup brain is told (``INFO max_memory``) its memory limit divided by this: the
sandbox bounds the address space, which holds the brain's code, stacks and allocator arenas
too, and engines such as Rapfi size their table to the whole of ``max_memory`` (told 512 MB
under a 512 MB limit, Rapfi answered 'ERROR Failed to allocate 524288 KB' and lost)."""
SHAPES = ("O", "X")
REASONS = ("time", "crash", "illegal", "memory", "sandbox")
"""Why a game can be forfeited."""
MEMORY_SHARE = 0.9
"""A bot stopped for time while holding this share of its address space loses for memory."""
MEMORY_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Why a player lost without the board saying so: ``reason`` (one of :data:`REASONS`)."""

    reason: str
    detail: str = ""


@dataclass(slots=True)
class Reply:
    """A player's answer: its ``move`` (``None`` with a ``forfeit``) and the wall-clock
    ``seconds`` it took."""

    move: Any = None
    seconds: float = 0.0
    forfeit: Forfeit | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """What every player of a game is told: the game and its kit, the seconds a move,
    the margin the referee adds, the sandbox limits, the folder the sandboxes' folders go in
    (``None``: the system's temporary directory)."""

    game: Any
    kit: GameKit
    time: float
    margin: float
    limits: Limits
    scratch: Path | None = None

    @property
    def allowed(self) -> float:
        """The wall-clock seconds a move may take before it is a time forfeit."""
        return self.time + self.margin


class Agent(Protocol):
    """A player seated at one game."""

    def begin(self, table: Table, side: int) -> Forfeit | None:
        """Get ready to play side ``side`` (0 moves first); a forfeit when it cannot."""
        ...

    def choose(self, loaded: Loaded) -> Reply:
        """The move in ``loaded`` (it is this player's turn; the game is running)."""
        ...

    def close(self) -> None:
        """End the player's process, if any."""
        ...


# -- our players ---------------------------------------------------------------------------------
class OurAgent:
    """An engine, random or level player of ours in this process, timed like the others."""

    def __init__(self, entrant: Entrant, seed: int) -> None:
        self.entrant = entrant
        self.seed = seed
        self.table: Table | None = None
        self.contestant: Any = None
        self.rng = random.Random(seed)

    def begin(self, table: Table, side: int) -> Forfeit | None:
        """Make the engine's contestant and load its compiled code before the clock runs."""
        self.table = table
        if self.entrant.engine is not None:
            self.contestant = make_contestant(self.entrant.engine, table.time, self.seed)
            if isinstance(self.contestant, EngineContestant):
                self.contestant.warm_up(table.game)
        return None

    def choose(self, loaded: Loaded) -> Reply:
        """The move, timed; a time forfeit when it took longer than allowed."""
        assert self.table is not None
        started = time.perf_counter()
        try:
            move = self._move(loaded)
        except Exception as exc:  # refereed like anyone: a failing player loses the game
            detail = f"{type(exc).__name__}: {exc}"[:300]
            return Reply(None, time.perf_counter() - started, Forfeit("crash", detail))
        seconds = time.perf_counter() - started
        if seconds > self.table.allowed:
            return Reply(None, seconds, Forfeit("time", f"{seconds:.3f} s"))
        return Reply(move, seconds)

    def _move(self, loaded: Loaded) -> Any:
        """The engine's, random player's or level's move."""
        if self.contestant is not None:
            return self.contestant.choose(loaded.game, loaded.position).move
        assert self.entrant.level is not None
        level = level_named(self.entrant.level)
        return level_move(loaded.game, loaded.position, level, self.rng).move

    def close(self) -> None:
        """Nothing to end: the player lives in this process."""
        return None


# -- outside bots ------------------------------------------------------------------------------
@dataclass(slots=True)
class SandboxedAgent:
    """What the three outside kinds share: the sandbox, its start and the forfeit of a bot
    whose process ended."""

    entrant: Entrant
    table: Table | None = None
    sandbox: Sandbox | None = None
    side: int = 0
    log: list[str] = field(default_factory=list)

    def start(self, table: Table, argv: list[str], setup: Any = None) -> Forfeit | None:
        """Start ``argv`` in a sandbox (``setup(folder)`` fills its folder first); a ``crash``
        forfeit when it cannot start."""
        self.table = table
        try:
            self.sandbox = Sandbox(argv, table.limits, folder_setup=setup, parent=table.scratch)
        except (SandboxEnded, OSError) as exc:
            return Forfeit("crash", f"cannot start: {exc}"[:300])
        return None

    def ended(self, what: str) -> Forfeit:
        """The forfeit of a bot whose process ended (or must end) during ``what``."""
        assert self.sandbox is not None
        status = self.sandbox.exit_status(wait=2.0)
        tail = self.sandbox.log_tail()
        if status == 128 + signal.SIGXCPU:
            return Forfeit("time", f"CPU limit exceeded during {what}")
        if any(word in tail for word in MEMORY_WORDS):
            return Forfeit("memory", f"out of memory during {what}")
        last = tail.strip().splitlines()[-1] if tail.strip() else ""
        return Forfeit("crash", f"exit status {status} during {what}: {last}"[:300])

    def late(self, what: str) -> Forfeit:
        """The forfeit of a bot that did not answer in time: ``memory`` when it had reached
        its address-space limit (it was thrashing at the limit), else ``time``."""
        assert self.sandbox is not None and self.table is not None
        limit = self.table.limits.memory_mb
        if self.sandbox.peak_memory_mb() >= MEMORY_SHARE * limit:
            return Forfeit("memory", f"at its {limit} MB limit, no answer to {what} in time")
        return Forfeit("time", f"no answer to {what} in {self.table.allowed:g} s")

    def ask(self, line: str | list[str], seconds: float, what: str) -> tuple[str | None, float]:
        """Send ``line`` (or lines), read one answer line within ``seconds`` of CPU and wall
        clock: ``(answer, seconds taken)``; the answer is ``None`` on a time-out. Raises
        :class:`SandboxEnded` when the bot's process ends, ``ValueError`` for garbage."""
        assert self.sandbox is not None
        self.sandbox.allow_cpu(seconds)
        started = time.perf_counter()
        for item in [line] if isinstance(line, str) else line:
            self.sandbox.send(item)
        answer = self.sandbox.receive(seconds)
        return answer, time.perf_counter() - started

    def finish(self, goodbye: str) -> None:
        """Send ``goodbye`` (the protocol's last word), then kill the sandbox."""
        if self.sandbox is not None:
            with contextlib.suppress(SandboxEnded):
                self.sandbox.send(goodbye)
            self.sandbox.close()
            self.sandbox = None

    def close(self) -> None:
        """Kill the sandbox (no goodbye)."""
        self.finish("")


class CourseAgent(SandboxedAgent):
    """A course bot in the runner (:mod:`perfectplay.adapters.bot_runner`)."""

    def begin(self, table: Table, side: int) -> Forfeit | None:
        """Copy the bot into the sandbox's folder, start the runner, wait for it to load."""
        self.side = side
        assert self.entrant.path is not None
        source = Path(self.entrant.path)
        copy = ["bot", source.name]

        def setup(folder: Path) -> None:
            """Copy the bot's file or folder to ``folder/bot/``."""
            target = folder.joinpath(*copy)
            target.parent.mkdir()
            if source.is_dir():
                shutil.copytree(source, target)
            else:
                shutil.copy2(source, target)

        argv = [sys.executable, "-I", "-B", "-m", "perfectplay.adapters.bot_runner"]
        argv.append("/".join([".", *copy]))
        argv += [self.entrant.class_name] if self.entrant.class_name else []
        forfeit = self.start(table, argv, setup)
        if forfeit is not None:
            return forfeit
        try:
            answer, _ = self.ask([], LOAD_SECONDS, "loading")
        except SandboxEnded:
            return self.ended("loading")
        return _course_ready(answer)

    def choose(self, loaded: Loaded) -> Reply:
        """Ask ``find`` for the move, again after an illegal proposal, :data:`COURSE_ASKS` times
        at most."""
        assert self.table is not None
        request = json.dumps(
            {"find": course_data(loaded), "player": self.side, "time": self.table.time}
        )
        spent = 0.0
        for ask in range(1, COURSE_ASKS + 1):
            try:
                answer, seconds = self.ask(request, self.table.allowed, "find")
            except SandboxEnded:
                return Reply(None, spent, self.ended("find"))
            except ValueError as exc:
                return Reply(None, spent, Forfeit("crash", f"the runner's pipe: {exc}"))
            spent += seconds
            if answer is None:
                return Reply(None, spent, self.late("find"))
            move, forfeit = _course_move(loaded, answer)
            if forfeit is not None or move is not None:
                return Reply(move, seconds, forfeit)
            self.log.append(f"illegal proposal {ask}: {answer[:80]}")
        return Reply(None, spent, Forfeit("illegal", f"{COURSE_ASKS} illegal proposals"))

    def close(self) -> None:
        """Tell the runner to end, then kill the sandbox."""
        self.finish(json.dumps({"end": True}))


def _course_ready(answer: str | None) -> Forfeit | None:
    """``None`` when the runner said it is ready, else the forfeit its answer (or silence) earns."""
    if answer is None:
        return Forfeit("time", f"not loaded in {LOAD_SECONDS} s")
    try:
        data = json.loads(answer)
    except ValueError:
        return Forfeit("crash", "the runner answered garbage")
    if "ready" in data:
        return None
    return Forfeit(_reason(data.get("error")), str(data.get("detail", ""))[:300])


def _reason(error: Any) -> str:
    """A runner's error word as a forfeit reason (``crash`` for anything unknown)."""
    return error if error in REASONS else "crash"


def _course_move(loaded: Loaded, answer: str) -> tuple[Any, Forfeit | None]:
    """The legal move of a runner's answer, a forfeit, or ``(None, None)`` for an illegal
    proposal (to be asked again)."""
    data = json.loads(answer)
    if "error" in data:
        return None, Forfeit(_reason(data["error"]), str(data.get("detail", ""))[:300])
    try:
        column, shape = data["move"]
        move = loaded_move(loaded, f"{int(column) + 1}{shape}")
    except (KeyError, TypeError, ValueError):
        return None, None
    return move, None


def course_data(loaded: Loaded) -> dict[str, Any]:
    """The course state's plain data of a shape-and-color position."""
    game: Any = loaded.game
    position = loaded.position
    rows, cols = game.spec.rows, game.spec.cols
    pieces: dict[tuple[int, int], tuple[str, int]] = {}
    for index, player in enumerate(Player):
        for shape in SHAPES:
            bits = position.pieces(player, shape)
            while bits:
                bit = (bits & -bits).bit_length() - 1
                bits &= bits - 1
                col, height = divmod(bit, rows + 1)
                pieces[(rows - 1 - height, col)] = (shape, index)
    quota = [{s: game.quota_left(position, player, s) for s in SHAPES} for player in Player]
    return state_data(rows, cols, pieces, quota)


def loaded_move(loaded: Loaded, text: str) -> Any:
    """The legal move ``text`` (the game's notation) in ``loaded``; ``ValueError`` if none."""
    kit_move = _kit(loaded).parse_move(loaded.game, loaded.position, text)
    if kit_move not in list(loaded.game.legal_moves(loaded.position)):
        raise ValueError(f"{text!r} is not legal here")
    return kit_move


def _kit(loaded: Loaded) -> GameKit:
    """The kit of the game of ``loaded``."""
    from perfectplay.games.registry import kit_of

    return kit_of(loaded.game)


def script_argv(path: str) -> list[str]:
    """How to start an outside program: a ``.py`` script with this Python, else itself."""
    return [sys.executable, "-I", "-B", path] if path.endswith(".py") else [path]


class GomocupAgent(SandboxedAgent):
    """A Gomocup brain: ``x,y`` is the column and the row from the top, from 0."""

    known: int = 0

    def begin(self, table: Table, side: int) -> Forfeit | None:
        """Start the brain, ``START`` (or ``RECTSTART``) it and send the ``INFO`` lines."""
        self.side, self.known = side, -1
        assert self.entrant.path is not None
        forfeit = self.start(table, script_argv(self.entrant.path))
        if forfeit is not None:
            return forfeit
        width, height = table.kit.size_of(table.game) or (0, 0)
        start = f"START {width}" if width == height else f"RECTSTART {width},{height}"
        try:
            answer = self.answer(start, LOAD_SECONDS, "START")
        except SandboxEnded:
            return self.ended("START")
        if answer is None:
            return Forfeit("time", f"no OK to START in {LOAD_SECONDS} s")
        if answer.upper() != "OK":
            return Forfeit("crash", f"START answered {answer[:80]!r}")
        rule = 1 if table.kit.name == "gomoku" else 0
        assert self.sandbox is not None
        for key, value in (
            ("timeout_turn", int(table.time * 1000)),
            ("timeout_match", 0),
            ("max_memory", (table.limits.memory_mb << 20) // TOLD_MEMORY_DIVISOR),
            ("rule", rule),
        ):
            self.sandbox.send(f"INFO {key} {value}")
        return None

    def answer(self, lines: str | list[str], seconds: float, what: str) -> str | None:
        """The first answer line that is not ``MESSAGE``/``DEBUG`` chatter."""
        deadline = time.perf_counter() + seconds
        answer, _ = self.ask(lines, seconds, what)
        while answer is not None and answer.split(" ")[0].upper() in ("MESSAGE", "DEBUG"):
            assert self.sandbox is not None
            answer = self.sandbox.receive(max(0.0, deadline - time.perf_counter()))
        return answer

    def choose(self, loaded: Loaded) -> Reply:
        """``BEGIN``, ``TURN`` or ``BOARD``, then read ``x,y``: a forfeit for anything else."""
        assert self.table is not None
        stones = _stones(loaded)
        plies = len(stones)
        started = time.perf_counter()
        try:
            answer = self.answer(self._command(loaded, stones), self.table.allowed, "a move")
        except SandboxEnded:
            return Reply(None, time.perf_counter() - started, self.ended("a move"))
        except ValueError as exc:
            return Reply(None, time.perf_counter() - started, Forfeit("illegal", str(exc)))
        seconds = time.perf_counter() - started
        if answer is None:
            return Reply(None, seconds, self.late("a move"))
        try:
            x, y = (int(part) for part in answer.split(","))
            move = _cell_move(loaded, x, y)
        except ValueError:
            return Reply(None, seconds, Forfeit("illegal", f"answered {answer[:80]!r}"))
        self.known = plies + 1
        return Reply(move, seconds)

    def _command(self, loaded: Loaded, stones: list[tuple[int, int, int]]) -> list[str]:
        """``BEGIN`` on an empty board, ``TURN`` when the brain knows all but the last stone,
        else ``BOARD``."""
        if not stones:
            return ["BEGIN"]
        moves = loaded.moves
        if self.known == len(stones) - 1 and moves:
            last = moves[-1]
            return [f"TURN {last.col},{last.row}"]
        mover = int(loaded.game.to_move(loaded.position))
        lines = ["BOARD"]
        lines += [f"{x},{y},{1 if owner == mover else 2}" for x, y, owner in stones]
        return [*lines, "DONE"]

    def close(self) -> None:
        """``END``, then kill the sandbox."""
        self.finish("END")


def _stones(loaded: Loaded) -> list[tuple[int, int, int]]:
    """Every stone as ``(x, y, owner)`` (the column, the row from the top, 1 or 2) in the
    order they were placed, as a Gomocup manager lists them in ``BOARD``: brains such as
    Rapfi replay the list as moves, and given the stones row by row Rapfi took an opening's
    two X's for a sequence and played as if it had a forced win. The opening (a picture)
    comes first, its X's and O's interleaved, then the moves played from it."""
    picture = _kit(loaded).position_text(Loaded(loaded.game, loaded.position, None))
    marks = {
        (x, y): 1 if cell.lower() == "x" else 2
        for y, row in enumerate(picture.split("/"))
        for x, cell in enumerate(row)
        if cell.lower() in ("x", "o")
    }
    played = [(move.col, move.row) for move in loaded.moves or ()]
    placed = frozenset(played)
    opening = [cell for cell in marks if cell not in placed]
    crosses = [cell for cell in opening if marks[cell] == 1]
    noughts = [cell for cell in opening if marks[cell] == 2]
    first, second = (crosses, noughts) if len(crosses) >= len(noughts) else (noughts, crosses)
    order = [cell for pair in zip_longest(first, second) for cell in pair if cell is not None]
    return [(x, y, marks[(x, y)]) for x, y in [*order, *played]]


def _cell_move(loaded: Loaded, x: int, y: int) -> Any:
    """The legal move at column ``x``, row ``y``; ``ValueError`` when the cell is taken or off
    the board."""
    for move in loaded.game.legal_moves(loaded.position):
        if (move.col, move.row) == (x, y):
            return move
    raise ValueError(f"{x},{y} is not an empty cell")


class LineAgent(SandboxedAgent):
    """A bot of our line protocol (docs/tournaments.md)."""

    def begin(self, table: Table, side: int) -> Forfeit | None:
        """Start the bot and send ``game``, ``side`` and ``time``."""
        self.side = side
        assert self.entrant.path is not None
        forfeit = self.start(table, script_argv(self.entrant.path))
        if forfeit is not None:
            return forfeit
        size = table.kit.size_text(table.game) or "-"
        k = table.kit.k_of(table.game)
        header = f"game {table.kit.name} {size}" + (f" k={k}" if k is not None else "")
        assert self.sandbox is not None
        try:
            for line in (header, f"side {side + 1}", f"time {table.time:g}"):
                self.sandbox.send(line)
        except SandboxEnded:
            return self.ended("the start")
        return None

    def choose(self, loaded: Loaded) -> Reply:
        """Send ``position TEXT`` and read one move in the game's notation."""
        assert self.table is not None
        text = _kit(loaded).position_text(loaded)
        started = time.perf_counter()
        try:
            answer, seconds = self.ask(f"position {text}", self.table.allowed, "a move")
        except SandboxEnded:
            return Reply(None, time.perf_counter() - started, self.ended("a move"))
        except ValueError as exc:
            return Reply(None, time.perf_counter() - started, Forfeit("illegal", str(exc)))
        if answer is None:
            return Reply(None, seconds, self.late("a move"))
        try:
            return Reply(loaded_move(loaded, answer.strip()), seconds)
        except ValueError:
            return Reply(None, seconds, Forfeit("illegal", f"answered {answer[:80]!r}"))

    def close(self) -> None:
        """``end``, then kill the sandbox."""
        self.finish("end")


def seat(entrant: Entrant, seed: int) -> Agent:
    """The agent that plays for ``entrant`` (``seed``: its random generator's, ours only)."""
    if entrant.kind == "course":
        return CourseAgent(entrant)
    if entrant.kind == "gomocup":
        return GomocupAgent(entrant)
    if entrant.kind == "line":
        return LineAgent(entrant)
    return OurAgent(entrant, seed)


# -- the game -----------------------------------------------------------------------------------
@dataclass(slots=True)
class Played:
    """A finished game: the moves (the game's notation) and their seconds, the winner's side
    (0 first, 1 second, ``None`` a draw), how it ended, the forfeit if any (with its side)."""

    moves: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    winner: int | None = None
    reason: str = ""
    forfeit: Forfeit | None = None
    forfeit_side: int | None = None


def referee(table: Table, opening: Loaded, agents: tuple[Agent, Agent]) -> Played:
    """Play ``agents[0]`` (first) against ``agents[1]`` from ``opening``; every agent is
    closed at the end, whatever happens."""
    played = Played()
    try:
        for side in (0, 1):
            forfeit = agents[side].begin(table, side)
            if forfeit is not None:
                return _forfeited(played, side, forfeit)
        return _moves(table, opening, agents, played)
    finally:
        for agent in agents:
            agent.close()


def _moves(table: Table, loaded: Loaded, agents: tuple[Agent, Agent], played: Played) -> Played:
    """Ask for moves until the game ends or a player forfeits."""
    game = table.game
    while (outcome := game.outcome(loaded.position)) is None:
        side = 0 if game.to_move(loaded.position) is Player.FIRST else 1
        reply = agents[side].choose(loaded)
        if reply.forfeit is not None:
            return _forfeited(played, side, reply.forfeit)
        played.moves.append(table.kit.move_text(game, reply.move))
        played.seconds.append(reply.seconds)
        moves = None if loaded.moves is None else (*loaded.moves, reply.move)
        loaded = Loaded(game, game.play(loaded.position, reply.move), moves)
    played.winner = None if outcome.winner is None else int(outcome.winner) - 1
    played.reason = outcome.reason
    return played


def _forfeited(played: Played, side: int, forfeit: Forfeit) -> Played:
    """``played`` as lost by ``side`` for ``forfeit``."""
    played.winner = 1 - side
    played.reason = f"forfeit ({forfeit.reason})"
    played.forfeit = forfeit
    played.forfeit_side = side
    return played
