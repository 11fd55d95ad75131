"""A job's tasks handed to an executor: ordered, cut into chunks, answered.

The order: hardest first when asked (the positions with the most plies left, by the game's
own bound), which keeps the last chunks short so that the workers finish together; else the
input's order. The answers come in the order they finish, each naming its task's index.
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


def answers(
    job: BatchJob,
    tasks: list[Task],
    executor: Executor = "local",
    workers: int | None = None,
    address: str | None = None,
    on_ready: ReadyCallback | None = None,
) -> Generator[Answer, None, None]:
    """Every task's answer, from ``workers`` workers of ``executor`` (by default, one per
    core here, or per CPU of the Ray cluster), in the order they finish; ``on_ready`` hears
    when the workers are ready. Closing the iterator stops the workers."""
    check_executor(executor, workers, address)
    if not tasks:
        return _nothing()
    if executor == "ray":
        from perfectplay.jobs.ray_pool import ray_answers

        count = workers or (None if address is not None else default_workers())
        return ray_answers(job, iter(chunks(tasks, count or 8)), count, address, on_ready)
    from perfectplay.jobs.local import local_answers

    count = min(workers or default_workers(), len(tasks))
    return local_answers(job, iter(chunks(tasks, count)), count, on_ready)


def _nothing() -> Generator[Answer, None, None]:
    """The answers of no tasks."""
    yield from ()
