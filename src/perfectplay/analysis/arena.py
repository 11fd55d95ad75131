"""Matches between engine settings: many games, sides alternating, results and search figures.

Player specs (parsed and checked by :func:`parse_player`)::

    engine                          the engine, default evaluation, the match's time per move
    engine:eval=neighbors,depth=3   the neighbour heuristic searched 3 plies deep
    engine:time=0.5                 half a second per move
    random                          uniformly random legal moves (seeded from the match seed)
    random:seed=3                   the same, with its own seed

An engine with ``depth`` searches to that depth; the match's ``time`` (when given) is then a
hard cap per move, never a target. An engine with ``time`` uses the smaller of its own and the
match's time. An engine with neither uses the match's time, :data:`DEFAULT_TIME` without one.

Game ``i`` (from 0) has player 1 moving first when ``i`` is even and second when it is odd. With
``opening_plies`` K > 0 both games of a pair (``2j``, ``2j + 1``) start from the same K random
plies (see :func:`random_opening`), so that deterministic engines play more than two distinct
games.

:func:`run_arena` returns an :class:`ArenaResult` with the games and each player's figures:
wins, losses and draws in all and per side, time per move (mean and maximum), the mean depth
the engine completed, nodes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from perfectplay.errors import ParameterError, quote
from perfectplay.games.protocol import Player
from perfectplay.notation import parse_whole
from perfectplay.search.limits import Limit, make_limit
from perfectplay.search.solver import SearchOptions, solve

DEFAULT_TIME = 3.0
"""Seconds per move of an engine that names neither depth nor time, without a match time."""
KINDS = {"engine": ("eval", "depth", "time"), "random": ("seed",)}
"""Player kinds and the settings each takes."""
MAX_GAMES = 100_000
MAX_DEPTH = 10_000
"""The deepest an engine player may be told to search."""
MAX_SEED = 10**18 - 1
"""Seeds have at most 18 digits."""
WARM_UP_SEARCH = 0.05
"""Seconds of the timed searches that load an engine before the match clock runs."""
LABELS = ("p1", "p2")
NODE_RATE = 1_000_000
"""Rough engine speed in nodes per second, to size the tables of timed searches."""
SMALLEST_TABLE = 1 << 16

ArenaProgress = Callable[[int, int, "GameRecord"], None]
"""Called after each game with (games done, games in all, the game's record)."""
Natural = Callable[[Any, Any], bool]
"""``natural(position, move)``: whether a random opening should prefer ``move`` (the game's
kit says; the shape-and-color game prefers the mover's own shape)."""


# -- player specs ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A checked player spec: ``kind`` ``engine`` or ``random`` and its settings."""

    kind: str
    evaluation: str | None = None
    depth: int | None = None
    time: float | None = None
    seed: int | None = None

    def __str__(self) -> str:
        settings = [
            f"{name}={value}"
            for name, value in (
                ("eval", self.evaluation),
                ("depth", self.depth),
                ("time", None if self.time is None else repr(self.time)),  # reads back exactly
                ("seed", self.seed),
            )
            if value is not None
        ]
        return self.kind + (":" + ",".join(settings) if settings else "")


def parse_player(text: str, evaluations: tuple[str, ...]) -> PlayerSpec:
    """The :class:`PlayerSpec` of ``text`` (``kind`` or ``kind:name=value,...``).

    ``evaluations`` are the names ``eval`` accepts. Raises :class:`ParameterError` quoting the
    spec for an unknown kind, a setting the kind does not take, a repeated or malformed
    setting, an unknown evaluation, a depth that is not a whole number from 1 to 10000, a time
    that is not a number of seconds above 0, or a seed that is not a whole number.
    """
    if not isinstance(text, str):
        raise ParameterError(f"player {quote(text)}: expected text such as engine or random:seed=3")
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise ParameterError(
            f"player {quote(text)}: unknown kind {quote(kind)}; known are {', '.join(KINDS)}"
        )
    settings = _settings(text, kind, rest) if rest.strip() or ":" in text else {}
    return PlayerSpec(
        kind,
        evaluation=_evaluation(text, settings.get("eval"), evaluations),
        depth=_depth(text, settings.get("depth")),
        time=_time(text, settings.get("time")),
        seed=_seed(text, settings.get("seed")),
    )


def _settings(text: str, kind: str, rest: str) -> dict[str, str]:
    """``name=value`` pairs of a spec, each name known to ``kind`` and given once."""
    found: dict[str, str] = {}
    for item in rest.split(","):
        name, equals, value = item.partition("=")
        name, value = name.strip().lower(), value.strip()
        if not equals or not name or not value:
            raise ParameterError(
                f"player {quote(text)}: setting {quote(item.strip())} is not name=value "
                f"(such as {kind}:{KINDS[kind][0]}=...)"
            )
        if name not in KINDS[kind]:
            raise ParameterError(
                f"player {quote(text)}: {kind} takes no setting {quote(name)}; it takes "
                f"{', '.join(KINDS[kind])}"
            )
        if name in found:
            raise ParameterError(f"player {quote(text)}: setting {quote(name)} is given twice")
        found[name] = value
    return found


def _evaluation(text: str, value: str | None, evaluations: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if value.lower() not in evaluations:
        raise ParameterError(
            f"player {quote(text)}: eval {quote(value)} is unknown; known are "
            f"{', '.join(evaluations)}"
        )
    return value.lower()


def _depth(text: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_whole(value, "depth", 1, MAX_DEPTH)
    except ParameterError:
        raise ParameterError(
            f"player {quote(text)}: depth {quote(value)} must be a whole number 1-{MAX_DEPTH}"
        ) from None


def _time(text: str, value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
        make_limit(time=seconds)
    except (ValueError, ParameterError):
        raise ParameterError(
            f"player {quote(text)}: time {quote(value)} must be a number of seconds above 0"
        ) from None
    return seconds


def _seed(text: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_whole(value, "seed", -MAX_SEED, MAX_SEED)
    except ParameterError:
        raise ParameterError(
            f"player {quote(text)}: seed {quote(value)} must be a whole number of at most 18 digits"
        ) from None


# -- contestants -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Choice:
    """A contestant's move with its search figures (depth 0 and nodes 0 for random play)."""

    move: Any
    depth: int = 0
    nodes: int = 0


class Contestant(Protocol):
    """What plays in the arena."""

    searches: bool

    def choose(self, game: Any, position: Any) -> Choice:
        """A legal move of a running ``position``."""
        ...


class EngineContestant:
    """The engine under one :class:`Limit`, with the game's evaluation ``evaluation``."""

    searches = True

    def __init__(self, evaluation: str | None, limit: Limit) -> None:
        self.evaluation = evaluation
        self.limit = limit
        # Every search allocates and zeroes a fresh table before its clock starts: a table
        # about as large as a short search's nodes keeps that cost in proportion.
        self.entries = None
        if limit.time is not None:
            self.entries = max(SMALLEST_TABLE, 1 << math.ceil(math.log2(limit.time * NODE_RATE)))

    def _game(self, game: Any) -> Any:
        if self.evaluation is None:
            return game
        return game.with_evaluation(self.evaluation)

    def warm_up(self, game: Any) -> None:
        """Load the compiled engine before any move is timed (see the adapter's warm-up)."""
        searched = self._game(game)
        start = searched.initial()
        solve(searched, start, make_limit(depth=1))
        for _ in range(2):
            solve(searched, start, make_limit(time=WARM_UP_SEARCH))

    def choose(self, game: Any, position: Any) -> Choice:
        """The engine's best move under its limit."""
        search = SearchOptions(table_entries=self.entries)
        result = solve(self._game(game), position, self.limit, search=search)
        return Choice(result.best_move, result.depth, result.nodes)


class RandomContestant:
    """Uniformly random legal moves from its own generator."""

    searches = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, position: Any) -> Choice:
        """A random legal move."""
        return Choice(self.rng.choice(list(game.legal_moves(position))))


def engine_limit(spec: PlayerSpec, match_time: float | None) -> Limit:
    """The search limit of an engine spec under the match's time (see the module docstring)."""
    if spec.depth is not None:
        return make_limit(depth=spec.depth, time=match_time)
    times = [t for t in (spec.time, match_time) if t is not None]
    return make_limit(time=min(times) if times else DEFAULT_TIME)


def make_contestant(spec: PlayerSpec, match_time: float | None, seed: int) -> Contestant:
    """The contestant of ``spec``; a random player without a seed of its own uses ``seed``."""
    if spec.kind == "random":
        return RandomContestant(seed if spec.seed is None else spec.seed)
    return EngineContestant(spec.evaluation, engine_limit(spec, match_time))


# -- results ---------------------------------------------------------------------------------
@dataclass(slots=True)
class SideRecord:
    """Wins, losses and draws of one player in some games."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def count(self, result: str) -> None:
        """Count one game: ``win``, ``loss`` or ``draw``."""
        self.games += 1
        if result == "win":
            self.wins += 1
        elif result == "loss":
            self.losses += 1
        else:
            self.draws += 1

    def as_dict(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass(slots=True)
class PlayerRecord:
    """One player's results and per-move figures over the match."""

    spec: str
    total: SideRecord = field(default_factory=SideRecord)
    first: SideRecord = field(default_factory=SideRecord)
    second: SideRecord = field(default_factory=SideRecord)
    moves: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    depth_sum: int = 0
    nodes: int = 0
    searches: bool = True

    def add_move(self, seconds: float, choice: Choice) -> None:
        """Count one move's time and search figures."""
        self.moves += 1
        self.seconds += seconds
        self.max_seconds = max(self.max_seconds, seconds)
        self.depth_sum += choice.depth
        self.nodes += choice.nodes

    @property
    def mean_seconds(self) -> float:
        """Mean time per move (0 before any move)."""
        return self.seconds / self.moves if self.moves else 0.0

    @property
    def mean_depth(self) -> float | None:
        """Mean depth completed per move; ``None`` for a player that does not search."""
        if not self.searches:
            return None
        return self.depth_sum / self.moves if self.moves else 0.0

    def as_dict(self) -> dict[str, Any]:
        depth = self.mean_depth
        return {
            "spec": self.spec,
            **self.total.as_dict(),
            "as_first": self.first.as_dict(),
            "as_second": self.second.as_dict(),
            "moves": self.moves,
            "mean_time_ms": round(self.mean_seconds * 1000, 3),
            "max_time_ms": round(self.max_seconds * 1000, 3),
            "mean_depth": None if depth is None else round(depth, 3),
            "nodes": self.nodes,
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its number, who moved first (``p1``/``p2``), the winner (``None``: a draw),
    the moves in the game's notation and how it ended."""

    index: int
    first: str
    winner: str | None
    moves: tuple[str, ...]
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.index,
            "first": self.first,
            "winner": self.winner,
            "plies": len(self.moves),
            "moves": " ".join(self.moves),
            "reason": self.reason,
        }


@dataclass(slots=True)
class ArenaResult:
    """A whole match: the settings, both players' records and every game."""

    game: str
    size: str
    time: float | None
    seed: int
    opening_plies: int
    players: tuple[PlayerRecord, PlayerRecord]
    games: list[GameRecord] = field(default_factory=list)

    @property
    def draws(self) -> int:
        """Games without a winner."""
        return sum(1 for g in self.games if g.winner is None)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document of ``perfectplay arena --json``."""
        return {
            "game": self.game,
            "size": self.size,
            "games": len(self.games),
            "time": self.time,
            "seed": self.seed,
            "opening_plies": self.opening_plies,
            "draws": self.draws,
            "players": {label: p.as_dict() for label, p in zip(LABELS, self.players, strict=True)},
            "results": [g.as_dict() for g in self.games],
        }


# -- the match -------------------------------------------------------------------------------
def run_arena(
    game: Any,
    p1: PlayerSpec,
    p2: PlayerSpec,
    games: int,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    opening_plies: int = 0,
    progress: ArenaProgress | None = None,
    natural: Natural | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``p1`` against ``p2`` on ``game`` (see the module docstring).

    Raises :class:`ParameterError` for a number of games outside 1..:data:`MAX_GAMES`, an
    opening longer than the board allows, or a bad ``time_limit``.
    """
    _check_match(game, games, time_limit, opening_plies)
    rng = random.Random(seed)
    contestants = (
        make_contestant(p1, time_limit, rng.randrange(1 << 30)),
        make_contestant(p2, time_limit, rng.randrange(1 << 30)),
    )
    for contestant in contestants:
        if isinstance(contestant, EngineContestant):
            contestant.warm_up(game)
    records = (PlayerRecord(str(p1)), PlayerRecord(str(p2)))
    for record, contestant in zip(records, contestants, strict=True):
        record.searches = contestant.searches
    result = ArenaResult(
        game.name, game.spec.label, time_limit, seed, opening_plies, (records[0], records[1])
    )
    opening: list[Any] = []
    for index in range(games):
        if index % 2 == 0:
            opening = random_opening(game, opening_plies, rng, natural)
        played = play_game(game, index, contestants, records, opening)
        result.games.append(played)
        if progress is not None:
            progress(index + 1, games, played)
    return result


def _check_match(game: Any, games: int, time_limit: float | None, opening_plies: int) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ParameterError(f"games={quote(games)}: must be a whole number from 1 to {MAX_GAMES}")
    if time_limit is not None:
        make_limit(time=time_limit)
    cells = game.plies_left_bound(game.initial())
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int):
        raise ParameterError(f"opening plies {quote(opening_plies)}: must be a whole number")
    if not 0 <= opening_plies < cells:
        raise ParameterError(
            f"opening plies {opening_plies}: must be from 0 to {cells - 1} on this board"
        )


def random_opening(
    game: Any, plies: int, rng: random.Random, natural: Natural | None = None
) -> list[Any]:
    """``plies`` random legal moves (fewer if the board runs out of them) that keep the game
    open: none ends it or leaves the opponent a winning reply, and each mover plays a
    ``natural`` move where it can (in the shape-and-color game its own shape: a random piece
    of the opponent's shape often loses at once)."""
    position, moves = game.initial(), []
    for _ in range(plies):
        candidates = [m for m in game.legal_moves(position) if _quiet(game, position, m)]
        own = [m for m in candidates if natural is None or natural(position, m)]
        if not candidates:
            break
        move = rng.choice(own or candidates)
        moves.append(move)
        position = game.play(position, move)
    return moves


def _quiet(game: Any, position: Any, move: Any) -> bool:
    """Whether ``move`` neither ends the game nor gives the opponent a move that ends it."""
    after = game.play(position, move)
    if game.outcome(after) is not None:
        return False
    return all(game.outcome(game.play(after, reply)) is None for reply in game.legal_moves(after))


def play_game(
    game: Any,
    index: int,
    contestants: tuple[Contestant, Contestant],
    records: tuple[PlayerRecord, PlayerRecord],
    opening: list[Any],
) -> GameRecord:
    """Game ``index``: player 1 (``contestants[0]``) moves first when ``index`` is even; the
    ``opening`` moves are played before anyone chooses. Updates ``records``."""
    order = (0, 1) if index % 2 == 0 else (1, 0)  # order[k]: the player of game side k
    position, moves = game.initial(), []
    for move in opening:
        position = game.play(position, move)
        moves.append(game.format_move(move))
    while game.outcome(position) is None:
        side = order[0] if game.to_move(position) is Player.FIRST else order[1]
        started = time.perf_counter()
        choice = contestants[side].choose(game, position)
        records[side].add_move(time.perf_counter() - started, choice)
        position = game.play(position, choice.move)  # checked: an illegal move raises
        moves.append(game.format_move(choice.move))
    outcome = game.outcome(position)
    assert outcome is not None
    winner = None if outcome.winner is None else order[outcome.winner - 1]
    for player in (0, 1):
        result = "draw" if winner is None else "win" if winner == player else "loss"
        records[player].total.count(result)
        (records[player].first if order[0] == player else records[player].second).count(result)
    return GameRecord(
        index,
        LABELS[order[0]],
        None if winner is None else LABELS[winner],
        tuple(moves),
        outcome.reason,
    )
