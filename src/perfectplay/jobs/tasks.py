"""What a batch job is, what a worker is asked, and what it answers.

Everything here is frozen and picklable: a job travels once to each worker (a process of the
local pool, a Ray actor), tasks travel in chunks, answers travel back one by one (local) or
a chunk at a time (Ray). Positions travel as the game's own immutable values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from perfectplay.games.kernel import DEFAULT_KERNEL_OPTIONS, KernelOptions
from perfectplay.games.kit import GameParams
from perfectplay.games.registry import get_kit
from perfectplay.search.result import MoveValue, SearchResult

JobKind = Literal["solve", "book"]
"""``solve``: the exact value and best move of each position (and every move's value with
``analyze``); ``book``: each position's opening-book entry (key and score)."""
EXECUTORS = ("local", "ray")
"""Where a job's workers run: processes of this machine, or actors of a Ray cluster."""
Executor = Literal["local", "ray"]
DEFAULT_PARAMS = GameParams()
"""The game's own size and ``k``."""


@dataclass(frozen=True, slots=True)
class BatchJob:
    """A job's fixed settings, sent once to each worker: the registered game's name and
    checked parameters, the kernel's options, and what to compute."""

    game_name: str
    params: GameParams = DEFAULT_PARAMS
    options: KernelOptions = DEFAULT_KERNEL_OPTIONS
    kind: JobKind = "solve"
    weak: bool = False
    analyze: bool = False

    def make_game(self) -> Any:
        """The game, made from its registered kit (in whichever process asks)."""
        return get_kit(self.game_name).make(self.params)


@dataclass(frozen=True, slots=True)
class Task:
    """One position to answer; ``index`` is its place in the job's input (from 0)."""

    index: int
    position: Any


@dataclass(frozen=True, slots=True)
class Answer:
    """A worker's answer to one task.

    ``result``: the solve (``solve`` jobs); ``values``: every move's value (``analyze``);
    ``entry``: the book's ``(key, score)`` (``book`` jobs); ``error``: why the task could not
    be answered (then the others are ``None``); ``seconds``: the worker's time on it;
    ``worker``: the worker's process id.
    """

    index: int
    result: SearchResult[Any] | None = None
    values: tuple[MoveValue[Any], ...] | None = None
    entry: tuple[int, int] | None = None
    error: str | None = None
    seconds: float = 0.0
    worker: int = 0

    @property
    def nodes(self) -> int:
        """Nodes searched for the answer (0 when unknown)."""
        return 0 if self.result is None else self.result.nodes


@dataclass(frozen=True, slots=True)
class WorkerFailure:
    """A worker that could not start or went on no longer: the reason, for the run's error."""

    message: str


@dataclass(frozen=True, slots=True)
class WorkerReady:
    """A worker that has made its game, table and kernel and waits for tasks."""

    pid: int


ReadyCallback = Callable[[float], None]
"""Called once, when the first worker is ready to take tasks, with the seconds since the
workers were asked for."""


class Pool(Protocol):
    """Workers of one job, started when the pool is made (an executor's pool)."""

    @property
    def count(self) -> int:
        """The workers started."""
        ...

    def answers(
        self, chunks: list[list[Task]], busy: int, on_ready: ReadyCallback | None
    ) -> Iterator[Answer]:
        """Every task's answer, in the order they finish, from ``busy`` of the workers (the
        others may be let go); ``on_ready`` hears when the first worker is ready, with the
        seconds since the pool was made. Raises :class:`WorkerLost` when a worker fails to
        start or dies."""
        ...

    def close(self) -> None:
        """Stop the workers."""
        ...


class WorkerLost(RuntimeError):
    """A worker ended, or could not start, while tasks were outstanding (the run stops; what
    was answered is kept)."""


GUIDED_SHARE = 4
"""A chunk is about 1/GUIDED_SHARE of the tasks left per worker."""


def chunks(tasks: list[Task], workers: int, most: int = 32) -> list[list[Task]]:
    """``tasks`` cut into chunks, in order, each of 1 to ``most`` tasks and each about a
    quarter of what is left per worker ("guided" sizes): large chunks first, so that few
    round trips are paid, and chunks of one task at the end, so that the workers finish
    together whatever a last position costs."""
    cut: list[list[Task]] = []
    start = 0
    while start < len(tasks):
        size = max(1, min(most, (len(tasks) - start) // (GUIDED_SHARE * max(1, workers))))
        cut.append(tasks[start : start + size])
        start += size
    return cut
