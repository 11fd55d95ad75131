"""Tournaments: a round robin (or a gauntlet) of entrants, refereed, in parallel, resumable.

The schedule (:func:`schedule`) is fixed by the players, ``rounds`` and the openings: every
pairing plays every round; a round is one opening played twice, each player once first. A
round robin pairs every two players; a gauntlet pairs the first player with each other one.
Game numbers follow the schedule, so a game is the same game in every run of the plan.

Games run on a pool of ``workers`` spawned processes (fresh interpreters); each game is
refereed by :func:`perfectplay.analysis.referee.referee` with outside bots in sandboxes.
Finished games are appended to ``games.jsonl`` as they end (one JSON object a line, written
and flushed at once); ``resume`` keeps the games found there (a torn last line is cut) and
plays only the others, so each game is played and written exactly once. The results
(:class:`Standing`, the crosstable, the Markdown report) are computed from the records in
game order, so the order games finish in never matters: the same seed and deterministic
players give the same results.

Our players' random generators are seeded per game from the tournament's seed and the game's
number; random openings come from the seed alone.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import multiprocessing
import os
import random
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from perfectplay.analysis.arena import random_opening
from perfectplay.analysis.entrants import Entrant, check_names, parse_entrant
from perfectplay.analysis.rating import Elo, elo
from perfectplay.analysis.referee import REASONS, Played, Table, referee, seat
from perfectplay.errors import ParameterError, quote
from perfectplay.games.kit import GameKit, GameParams, Loaded
from perfectplay.games.registry import get_kit
from perfectplay.jobs.run import check_executor
from perfectplay.jobs.sandbox import Enforced, Limits, probe
from perfectplay.jobs.tasks import Executor
from perfectplay.processes import die_with_parent

GAMES_FILE, STANDINGS_FILE, REPORT_FILE, PLAN_FILE = (
    "games.jsonl",
    "standings.json",
    "report.md",
    "tournament.json",
)
SCRATCH = ".sandboxes"
"""The folder in ``--out`` that holds the running games' sandbox folders."""
DEFAULT_OPENING_PLIES = 2
"""Plies of the random openings drawn when no openings file is given."""
DEFAULT_MARGIN = 0.5
"""Seconds the referee adds to a move's time before it is a time forfeit."""
MAX_ROUNDS = 1000
MAX_WORKERS = 64
__all__ = [
    "Enforced",
    "Entrant",
    "GameTask",
    "Limits",
    "Settings",
    "Standing",
    "TournamentProgress",
    "TournamentResult",
    "TournamentSink",
    "check_names",
    "parse_entrant",
    "probe",
    "random_openings",
    "read_openings",
    "run_tournament",
]
TournamentProgress = Callable[[int, int, dict[str, Any]], None]
"""Called after each game with (games done, games in all, the game's record)."""


class TournamentSink(Protocol):
    """Where a tournament's games go besides ``--out`` (the web app's store): told of the
    run when it starts (a resumed run keeps its id), of each game as it ends, and of the
    result at the end (every game's record, the kept ones too, and the standings)."""

    def begin(self, run: str, settings: Settings, entrants: list[Entrant], games: int) -> None:
        """The run ``run`` of ``games`` scheduled games starts (or resumes)."""

    def game(self, record: dict[str, Any]) -> None:
        """A game ended (its ``games.jsonl`` record)."""

    def end(self, result: TournamentResult) -> None:
        """The tournament ended."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A tournament's settings: the game (kit name, ``size``, ``k``), seconds a move and the
    referee's margin, rounds, seed, gauntlet or round robin, the sandbox's limits."""

    game: str
    size: str | None = None
    k: int | None = None
    time: float = 1.0
    margin: float = DEFAULT_MARGIN
    rounds: int = 1
    seed: int = 0
    gauntlet: bool = False
    limits: Limits = field(default_factory=Limits)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class GameTask:
    """One scheduled game: its number, round, opening (the game's notation), the two
    entrants (``first`` moves first), its seed, the settings, and the folder its sandboxes'
    folders go in (``None``: the system's temporary directory)."""

    index: int
    round: int
    opening: str
    first: Entrant
    second: Entrant
    seed: int
    settings: Settings
    scratch: str | None = None


# -- the plan ------------------------------------------------------------------------------------
def check_settings(
    settings: Settings, entrants: list[Entrant], workers: int, players: bool = True
) -> None:
    """Raise :class:`ParameterError` for fewer than two players (when ``players``), rounds outside
    1..:data:`MAX_ROUNDS`, a time or margin that is not a positive number of seconds, workers
    outside 1..:data:`MAX_WORKERS`."""
    if players and len(entrants) < 2:
        raise ParameterError(f"players: a tournament needs at least two, got {len(entrants)}")
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise ParameterError(f"--rounds {settings.rounds}: must be from 1 to {MAX_ROUNDS}")
    for name, value in (("--time", settings.time), ("--margin", settings.margin)):
        if not (isinstance(value, int | float) and 0 < value < 3600):
            raise ParameterError(f"{name} {quote(value)}: must be seconds above 0, below 3600")
    if not 1 <= workers <= MAX_WORKERS:
        raise ParameterError(f"--workers {workers}: must be from 1 to {MAX_WORKERS}")


def make_game(settings: Settings) -> tuple[GameKit, Any]:
    """The kit and game of ``settings`` (errors of the size and k propagate)."""
    game_kit = get_kit(settings.game)
    size = None
    if settings.size is not None:
        from perfectplay.notation import parse_size

        size = parse_size(settings.size)
    return game_kit, game_kit.make(GameParams(size, settings.k))


def read_openings(game_kit: GameKit, settings: Settings, text: str, source: str) -> list[str]:
    """The openings of a file's ``text``: one position a line in the game's notation (blank
    lines and lines starting with ``#`` skipped). Raises the game's notation error prefixed
    with ``source`` and the line number, or :class:`ParameterError` for a finished position
    or a file without openings."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            loaded = load_opening(game_kit, settings, line)
        except ValueError as exc:
            raise type(exc)(f"{source} line {number}: {exc}") from None
        if loaded.game.outcome(loaded.position) is not None:
            raise ParameterError(f"{source} line {number}: {quote(line)} is a finished game")
        found.append(line)
    if not found:
        raise ParameterError(f"{source}: no openings in it")
    return found


def load_opening(game_kit: GameKit, settings: Settings, text: str) -> Loaded:
    """The opening position of ``text`` with the moves known (an empty list for a board
    picture of a game whose notation is its board)."""
    _, game = make_game(settings)
    params = GameParams(None if settings.size is None else _size_of(game_kit, game), settings.k)
    loaded = game_kit.load(text, params) if text else game_kit.start(game)
    if loaded.moves is None and game_kit.board_notation:
        return Loaded(loaded.game, loaded.position, ())
    return loaded


def _size_of(game_kit: GameKit, game: Any) -> tuple[int, int] | None:
    """The game's size as the kit reads ``--size``."""
    return game_kit.size_of(game)


def random_openings(game_kit: GameKit, settings: Settings, count: int) -> list[str]:
    """``count`` openings of :data:`DEFAULT_OPENING_PLIES` random quiet plies (see
    :func:`perfectplay.analysis.arena.random_opening`), drawn from the seed."""
    _, game = make_game(settings)
    rng = random.Random(f"openings:{settings.seed}")
    plies = min(DEFAULT_OPENING_PLIES, max(0, game.plies_left_bound(game.initial()) - 2))

    def natural(position: Any, move: Any) -> bool:
        return game_kit.natural_move(game, position, move)

    found = []
    for _ in range(count):
        moves = random_opening(game, plies, rng, natural)
        position = game.initial()
        for move in moves:
            position = game.play(position, move)
        found.append(game_kit.position_text(Loaded(game, position, tuple(moves))))
    return found


def schedule(entrants: list[Entrant], settings: Settings, openings: list[str]) -> list[GameTask]:
    """Every game of the tournament in order (see the module docstring); round ``r`` plays
    opening ``r`` (cycling through the list)."""
    if settings.gauntlet:
        pairs = [(0, j) for j in range(1, len(entrants))]
    else:
        pairs = [(i, j) for i in range(len(entrants)) for j in range(i + 1, len(entrants))]
    tasks: list[GameTask] = []
    for number in range(settings.rounds):
        opening = openings[number % len(openings)]
        for i, j in pairs:
            for first, second in ((entrants[i], entrants[j]), (entrants[j], entrants[i])):
                seed = random.Random(f"{settings.seed}:{len(tasks)}").randrange(1 << 30)
                task = GameTask(len(tasks), number + 1, opening, first, second, seed, settings)
                tasks.append(task)
    return tasks


def plan_of(tasks: list[GameTask], entrants: list[Entrant], openings: list[str]) -> dict[str, Any]:
    """The plan as ``tournament.json`` stores it (what ``--resume`` checks)."""
    settings = tasks[0].settings if tasks else None
    return {
        "settings": None if settings is None else settings.as_dict(),
        "players": [{"name": e.name, "spec": e.spec} for e in entrants],
        "openings": openings,
        "games": len(tasks),
    }


# -- one game, in a worker ---------------------------------------------------------------------
def play_task(task: GameTask) -> dict[str, Any]:
    """Referee the game of ``task`` and return its record (``games.jsonl``'s line)."""
    settings = task.settings
    game_kit, game = make_game(settings)
    scratch = None if task.scratch is None else Path(task.scratch)
    table = Table(game, game_kit, settings.time, settings.margin, settings.limits, scratch)
    opening = load_opening(game_kit, settings, task.opening)
    agents = (seat(task.first, task.seed), seat(task.second, task.seed + 1))
    played = referee(table, opening, agents)
    return record_of(task, played, opening)


def record_of(task: GameTask, played: Played, opening: Loaded) -> dict[str, Any]:
    """The JSON record of a played game."""
    names = (task.first.name, task.second.name)
    first_to_move = opening.game.to_move(opening.position) == 1
    times: dict[str, list[float]] = {names[0]: [], names[1]: []}
    for ply, seconds in enumerate(played.seconds):
        side = ply % 2 if first_to_move else 1 - ply % 2
        times[names[side]].append(round(seconds * 1000, 1))
    result = {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[played.winner]
    forfeit = None
    if played.forfeit is not None and played.forfeit_side is not None:
        forfeit = {
            "player": names[played.forfeit_side],
            "reason": played.forfeit.reason,
            "detail": played.forfeit.detail,
        }
    return {
        "game": task.index,
        "round": task.round,
        "first": names[0],
        "second": names[1],
        "opening": task.opening,
        "moves": played.moves,
        "result": result,
        "winner": None if played.winner is None else names[played.winner],
        "end": played.reason,
        "forfeit": forfeit,
        "move_ms": times,
    }


def _worker_start() -> None:
    """A pool worker ends with the tournament (SIGKILL when its parent dies)."""
    die_with_parent()


def run_games(
    tasks: list[GameTask], workers: int, executor: Executor = "local", address: str | None = None
) -> Iterator[dict[str, Any]]:
    """The records of ``tasks`` as they finish, played on ``workers`` spawned processes, or
    on ``workers`` Ray actors (``executor`` ``"ray"``: a local instance, or the cluster at
    ``address``, where the sandboxes' folders go in each machine's temporary directory)."""
    if not tasks:
        return
    if executor == "ray":
        from perfectplay.jobs.ray_calls import ray_calls

        if address is not None:  # the driver's folder is not on the cluster's machines
            tasks = [dataclasses.replace(task, scratch=None) for task in tasks]
        yield from ray_calls(play_task, tasks, workers, address)
        return
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=context, initializer=_worker_start
    ) as pool:
        futures = [pool.submit(play_task, task) for task in tasks]
        try:
            for future in concurrent.futures.as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


# -- the journal ---------------------------------------------------------------------------------
def check_out(
    out: Path, plan: dict[str, Any], resume: bool
) -> tuple[str, dict[int, dict[str, Any]]]:
    """Prepare ``out`` and return the run's id and the games already played there (by
    number): a new id and none for a new tournament (:class:`ParameterError` when ``out``
    already holds one and ``resume`` is off), the stored id and the kept games when resuming
    (:class:`ParameterError` when ``out`` holds no tournament or another plan)."""
    plan_path, games_path = out / PLAN_FILE, out / GAMES_FILE
    if not resume:
        if plan_path.exists() or games_path.exists():
            raise ParameterError(
                f"--out {quote(str(out))}: holds a tournament already; add --resume to finish "
                "it or choose another folder"
            )
        out.mkdir(parents=True, exist_ok=True)
        run = new_run()
        plan_path.write_text(json.dumps({**plan, "run": run}, indent=1) + "\n")
        games_path.touch()
        return run, {}
    try:
        stored = json.loads(plan_path.read_text())
        run = str(stored.pop("run", None) or new_run())  # a plan written before runs had ids
    except (OSError, ValueError, AttributeError):
        raise ParameterError(f"--resume: {quote(str(out))} holds no tournament to resume") from None
    if stored != json.loads(json.dumps(plan)):
        raise ParameterError(
            f"--resume: the tournament in {quote(str(out))} has other players, settings or "
            "openings than this command"
        )
    return run, kept_games(games_path, plan["games"])


def new_run() -> str:
    """A new run's id: random, 32 hexadecimal digits."""
    return uuid.uuid4().hex


def kept_games(path: Path, total: int) -> dict[int, dict[str, Any]]:
    """The whole records of ``path`` by game number (the first of any repeated number; a torn
    last line is cut off the file)."""
    if not path.exists():
        path.touch()
        return {}
    data = path.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(len(whole))
    found: dict[int, dict[str, Any]] = {}
    for line in whole.decode().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        number = record.get("game") if isinstance(record, dict) else None
        if isinstance(number, int) and 0 <= number < total and number not in found:
            found[number] = record
    return found


def append(path: Path, record: dict[str, Any]) -> None:
    """Write one record as one line, flushed to the disk."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


# -- results -------------------------------------------------------------------------------------
@dataclass(slots=True)
class Tally:
    """Wins, draws, losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def count(self, points: float) -> None:
        """Count one game worth ``points`` (1 a win, 0 a loss, else a draw)."""
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1

    def as_dict(self) -> dict[str, int]:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass(slots=True)
class Standing:
    """One player's results: points, W/D/L in all and by colour, the forfeits it made by
    reason, its Elo against the field it met, its moves' times (milliseconds)."""

    name: str
    spec: str
    total: Tally = field(default_factory=Tally)
    first: Tally = field(default_factory=Tally)
    second: Tally = field(default_factory=Tally)
    forfeits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    move_ms: list[float] = field(default_factory=list)
    rating: Elo = field(default_factory=lambda: Elo(0.0, None))

    @property
    def games(self) -> int:
        """Games played."""
        return self.total.wins + self.total.draws + self.total.losses

    @property
    def points(self) -> float:
        """A win 1, a draw a half."""
        return self.total.wins + self.total.draws / 2

    def as_dict(self) -> dict[str, Any]:
        moves = len(self.move_ms)
        return {
            "spec": self.spec,
            "games": self.games,
            "points": self.points,
            **self.total.as_dict(),
            "as_first": self.first.as_dict(),
            "as_second": self.second.as_dict(),
            "forfeits": dict(self.forfeits),
            "elo": self.rating.as_dict(),
            "moves": moves,
            "mean_move_ms": round(sum(self.move_ms) / moves, 1) if moves else 0.0,
            "max_move_ms": max(self.move_ms, default=0.0),
        }


def standings(entrants: list[Entrant], records: list[dict[str, Any]]) -> list[Standing]:
    """Every player's :class:`Standing` from game ``records``, best first (points, then
    wins, then the order given)."""
    table = {e.name: Standing(e.name, e.spec) for e in entrants}
    for record in sorted(records, key=lambda r: int(r["game"])):
        first, second = table[record["first"]], table[record["second"]]
        points = {"1-0": 1.0, "0-1": 0.0}.get(record["result"], 0.5)
        for standing, score, colour in ((first, points, "first"), (second, 1 - points, "second")):
            standing.total.count(score)
            (standing.first if colour == "first" else standing.second).count(score)
            standing.move_ms.extend(record["move_ms"].get(standing.name, []))
        if record.get("forfeit"):
            table[record["forfeit"]["player"]].forfeits[record["forfeit"]["reason"]] += 1
    order = {e.name: i for i, e in enumerate(entrants)}
    for standing in table.values():
        standing.rating = elo(standing.total.wins, standing.total.draws, standing.total.losses)
    return sorted(table.values(), key=lambda s: (-s.points, -s.total.wins, order[s.name]))


def crosstable(
    entrants: list[Entrant], records: list[dict[str, Any]]
) -> dict[str, dict[str, list[float]]]:
    """``table[a][b] = [points of a against b, games]`` for every pair that met."""
    table: dict[str, dict[str, list[float]]] = {e.name: {} for e in entrants}
    for record in records:
        points = {"1-0": 1.0, "0-1": 0.0}.get(record["result"], 0.5)
        for me, other, score in (
            (record["first"], record["second"], points),
            (record["second"], record["first"], 1 - points),
        ):
            cell = table[me].setdefault(other, [0.0, 0])
            cell[0] += score
            cell[1] += 1
    return table


# -- the whole tournament ------------------------------------------------------------------------
@dataclass(slots=True)
class TournamentResult:
    """A finished tournament: its settings and players, every game's record in game order,
    the standings and crosstable, how many games this run played and how many it kept,
    what the sandbox enforced, the run's id (kept by ``--resume``)."""

    settings: Settings
    entrants: list[Entrant]
    records: list[dict[str, Any]]
    standings: list[Standing]
    crosstable: dict[str, dict[str, list[float]]]
    played: int
    kept: int
    sandbox: Enforced | None = None
    run: str = ""

    def standings_json(self) -> dict[str, Any]:
        """``standings.json``: the players by name, in standing order."""
        return {
            "run": self.run,
            "game": self.settings.game,
            "games": len(self.records),
            "players": {s.name: s.as_dict() for s in self.standings},
            "crosstable": self.crosstable,
            "sandbox": None if self.sandbox is None else asdict(self.sandbox),
        }


def run_tournament(
    entrants: list[Entrant],
    settings: Settings,
    openings: list[str],
    *,
    workers: int = 1,
    executor: Executor = "local",
    address: str | None = None,
    out: Path | None = None,
    resume: bool = False,
    progress: TournamentProgress | None = None,
    sink: TournamentSink | None = None,
) -> TournamentResult:
    """Play the tournament (see the module docstring) on ``workers`` processes of
    ``executor`` (:func:`run_games`); with ``out``, write ``games.jsonl`` as games end, then
    ``standings.json`` and ``report.md``; tell ``sink`` of the run, each game and the
    result. Raises :class:`ParameterError` for bad settings
    (:func:`check_settings`), an unknown executor or an address without Ray, for ``resume``
    without ``out``, and as :func:`check_out` says."""
    check_settings(settings, entrants, workers)
    check_executor(executor, workers, address)
    tasks = schedule(entrants, settings, openings)
    if resume and out is None:
        raise ParameterError("--resume needs --out DIR: the folder of the tournament to finish")
    run, done = new_run(), dict[int, dict[str, Any]]()
    if out is not None:
        run, done = check_out(out, plan_of(tasks, entrants, openings), resume)
    kept = len(done)
    if sink is not None:
        sink.begin(run, settings, entrants, len(tasks))
    sandbox = probe(settings.limits) if any(e.outside for e in entrants) else None
    todo = [task for task in tasks if task.index not in done]
    with scratch_folder(out) as scratch:
        todo = [dataclasses.replace(task, scratch=str(scratch)) for task in todo]
        for record in run_games(todo, workers, executor, address):
            done[int(record["game"])] = record
            if out is not None:
                append(out / GAMES_FILE, record)
            if sink is not None:
                sink.game(record)
            if progress is not None:
                progress(len(done), len(tasks), record)
    records = [done[number] for number in sorted(done)]
    table, cross = standings(entrants, records), crosstable(entrants, records)
    result = TournamentResult(
        settings, entrants, records, table, cross, len(todo), kept, sandbox, run
    )
    if out is not None:
        write_results(out, result)
    if sink is not None:
        sink.end(result)
    return result


@contextlib.contextmanager
def scratch_folder(out: Path | None) -> Iterator[Path]:
    """The folder the sandboxes' folders go in, emptied before and removed after: ``out``'s
    :data:`SCRATCH` (so that a run killed with ``kill -9`` leaves nothing that ``--resume``
    does not clear), or a new temporary directory without ``out``."""
    if out is None:
        scratch = Path(tempfile.mkdtemp(prefix="perfectplay-tournament-"))
    else:
        scratch = out / SCRATCH
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_results(out: Path, result: TournamentResult) -> None:
    """``standings.json`` and ``report.md`` in ``out``."""
    from perfectplay.analysis.tournament_report import markdown

    (out / STANDINGS_FILE).write_text(json.dumps(result.standings_json(), indent=1) + "\n")
    (out / REPORT_FILE).write_text(markdown(result))
