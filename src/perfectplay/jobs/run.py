"""A job's tasks handed to an executor: ordered, cut into chunks, answered.

The order: hardest first when asked (the positions with the most plies left, by the game's
own bound), which keeps the last chunks short so that the workers finish together; else the
input's order. The answers come in the order they finish, each naming its task's index.
:class:`BatchWorkers` starts the workers before the tasks are known (their start-up, a
second or more each, then overlaps whatever the caller does meanwhile).
"""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from typing import Any

from perfectplay.errors import ParameterError, quote
from perfectplay.jobs.tasks import (
    EXECUTORS,
    Answer,
    BatchJob,
    Executor,
    Pool,
    ReadyCallback,
    Task,
    chunks,
)

MAX_WORKERS = 1024
"""More workers than any machine or cluster this is meant for: a typing mistake."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_executor(executor: str, workers: int | None, address: str | None) -> None:
    """Raise :class:`ParameterError` for an unknown executor, a worker count out of range,
    or an address given to the local executor."""
    if executor not in EXECUTORS:
        raise ParameterError(
            f"--executor {quote(executor)}: expected one of {', '.join(EXECUTORS)}"
        )
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS
    ):
        raise ParameterError(f"--workers {quote(workers)}: must be from 1 to {MAX_WORKERS}")
    if address is not None and executor != "ray":
        raise ParameterError("--address: only with --executor ray")


def hardest_first(game: Any, tasks: Sequence[Task]) -> list[Task]:
    """``tasks`` with the most plies left first (stable: the input's order among equals)."""
    return sorted(tasks, key=lambda task: -game.plies_left_bound(task.position))


class BatchWorkers:
    """The workers of ``job``, started when this is made (before its tasks are known, so
    that their start-up, a second or more each, overlaps the reading of the input):
    ``workers`` of ``executor`` (by default one per core here, or per CPU of the Ray
    cluster at ``address``), never more than ``at_most`` (the tasks there can be; 0 starts
    none). :meth:`answers` hands them the tasks; leaving the ``with`` block (or
    :meth:`close`) stops them. Raises :class:`ParameterError` for bad settings and, for Ray,
    an address where no cluster answers."""

    def __init__(
        self,
        job: BatchJob,
        executor: Executor = "local",
        workers: int | None = None,
        address: str | None = None,
        at_most: int | None = None,
    ) -> None:
        check_executor(executor, workers, address)
        self.pool: Pool | None = None
        if at_most == 0:
            return
        if executor == "ray":
            from perfectplay.jobs.ray_pool import RayPool

            wanted = workers or (None if address is not None else default_workers())
            if wanted is not None and at_most is not None:
                wanted = min(wanted, at_most)
            self.pool = RayPool(job, wanted, address)
        else:
            from perfectplay.jobs.local import LocalPool

            self.pool = LocalPool(job, min(workers or default_workers(), at_most or MAX_WORKERS))

    @property
    def count(self) -> int:
        """The workers started."""
        return 0 if self.pool is None else self.pool.count

    def answers(
        self, tasks: list[Task], on_ready: ReadyCallback | None = None
    ) -> Generator[Answer, None, None]:
        """Every task's answer, in the order they finish, cut into chunks for the workers
        (hardest first is the caller's order to choose: :func:`hardest_first`); ``on_ready``
        hears when the first worker is ready to take tasks. Raises :class:`WorkerLost` when
        a worker fails to start or dies; closing the iterator leaves the workers running
        until :meth:`close`. A pool answers one list of tasks."""
        if not tasks:
            return
        if self.pool is None:
            raise ParameterError(f"{len(tasks)} tasks for workers made with at_most=0")
        busy = min(self.count, len(tasks))
        yield from self.pool.answers(chunks(tasks, busy), busy, on_ready)

    def close(self) -> None:
        """Stop the workers (at once; what they were answering is lost)."""
        if self.pool is not None:
            self.pool.close()

    def __enter__(self) -> BatchWorkers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def answers(
    job: BatchJob,
    tasks: list[Task],
    executor: Executor = "local",
    workers: int | None = None,
    address: str | None = None,
    on_ready: ReadyCallback | None = None,
) -> Generator[Answer, None, None]:
    """Every task's answer, from ``workers`` workers of ``executor`` (see
    :class:`BatchWorkers`), in the order they finish; ``on_ready`` hears when the first
    worker is ready. Closing the iterator stops the workers."""
    check_executor(executor, workers, address)
    if not tasks:
        return _nothing()
    return _answers(job, tasks, (executor, workers, address), on_ready)


def _answers(
    job: BatchJob,
    tasks: list[Task],
    where: tuple[Executor, int | None, str | None],
    on_ready: ReadyCallback | None,
) -> Generator[Answer, None, None]:
    """:func:`answers`, the workers started on the first ``next`` (a generator never
    started leaves nothing running) and stopped when it ends or is closed."""
    with BatchWorkers(job, *where, at_most=len(tasks)) as pool:
        yield from pool.answers(tasks, on_ready)


def _nothing() -> Generator[Answer, None, None]:
    """The answers of no tasks."""
    yield from ()
