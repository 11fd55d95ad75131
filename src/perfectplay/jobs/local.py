"""The local executor: a pool of long-lived worker processes on this machine.

::

    parent ── chunks ──▶ tasks queue ──▶ worker 1 … worker N   (each: one Worker, kept)
       ▲                                      │
       └──────── answers queue ◀── one Answer per task, as soon as it is done

Workers are started with ``spawn`` (a clean interpreter: no inherited locks, threads or
numba state) and load the compiled kernel once each. At most two chunks per worker wait in
the queue, so a stopped run has little in flight and a long input is never all in memory
twice. Workers ignore SIGINT: Ctrl-C reaches the parent, which stops them (SIGTERM, then
SIGKILL) within half a second and keeps what was answered.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time
from collections.abc import Generator, Iterator, Sequence
from multiprocessing.process import BaseProcess
from typing import Any

from perfectplay.jobs.tasks import (
    Answer,
    BatchJob,
    ReadyCallback,
    Task,
    WorkerFailure,
    WorkerLost,
    WorkerReady,
)
from perfectplay.processes import die_with_parent

POLL_SECONDS = 0.2
"""How often the parent looks at its workers while it waits for an answer."""
STOP_SECONDS = 0.3
"""How long a worker has to end after SIGTERM before it is killed."""
QUEUED_CHUNKS_PER_WORKER = 2
"""Chunks waiting in the queue per worker: enough that no worker idles between chunks."""


def serve(job: BatchJob, tasks: Any, answers: Any, parent: int) -> None:
    """A worker process: make the job's worker, then answer chunks until ``None`` comes or
    the parent process (``parent``) is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    from perfectplay.jobs.worker import Worker

    try:
        worker = Worker(job)
    except Exception as exc:  # reported to the parent, which names it in its error
        answers.put(WorkerFailure(f"{type(exc).__name__}: {exc}"))
        return
    answers.put(WorkerReady(worker.pid))
    while os.getppid() == parent:
        try:
            chunk = tasks.get(timeout=POLL_SECONDS)
        except queue.Empty:
            continue
        if chunk is None:
            return
        for task in chunk:
            answers.put(worker.answer(task))


def local_answers(
    job: BatchJob,
    chunks: Iterator[list[Task]],
    workers: int,
    on_ready: ReadyCallback | None = None,
) -> Generator[Answer, None, None]:
    """Every task's answer from a pool of ``workers`` processes, in the order they finish;
    the tasks are handed out once every worker is ready (``on_ready`` hears when). Raises
    :class:`WorkerLost` when a worker fails to start or dies; closing the iterator (or an
    exception in the caller) stops the workers."""
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    tasks: Any = context.Queue()
    answers: Any = context.Queue()
    pool = [
        context.Process(target=serve, args=(job, tasks, answers, os.getpid()), daemon=True)
        for _ in range(workers)
    ]
    for process in pool:
        process.start()
    try:
        for _ in pool:
            _next_message(answers, pool)
        if on_ready is not None:
            on_ready(time.perf_counter() - started)
        yield from _collect(chunks, tasks, answers, pool)
        for _ in pool:
            tasks.put(None)
    finally:
        stop(pool)


def _collect(
    chunks: Iterator[list[Task]], tasks: Any, answers: Any, pool: Sequence[BaseProcess]
) -> Iterator[Answer]:
    """Keep the queue fed (about :data:`QUEUED_CHUNKS_PER_WORKER` chunks per worker) and
    yield answers until every task is answered."""
    outstanding, target, more = 0, 0, True
    while True:
        while more and (not target or outstanding < target):
            chunk = next(chunks, None)
            if not chunk:
                more = False
                break
            tasks.put(chunk)
            outstanding += len(chunk)
            target = target or len(chunk) * QUEUED_CHUNKS_PER_WORKER * len(pool)
        if not outstanding:
            return
        answer = _next_message(answers, pool)
        assert isinstance(answer, Answer)
        outstanding -= 1
        yield answer


def _next_message(answers: Any, pool: Sequence[BaseProcess]) -> Answer | WorkerReady:
    """The next answer (or word that a worker is ready); raises :class:`WorkerLost` when a
    worker failed or died."""
    while True:
        try:
            message = answers.get(timeout=POLL_SECONDS)
        except queue.Empty:
            dead = [p for p in pool if not p.is_alive()]
            if dead:
                raise WorkerLost(f"a worker ended with status {dead[0].exitcode}") from None
            continue
        if isinstance(message, WorkerFailure):
            raise WorkerLost(f"a worker could not start: {message.message}")
        assert isinstance(message, Answer | WorkerReady)
        return message


def stop(pool: Sequence[BaseProcess]) -> None:
    """End every worker: those still running get SIGTERM, then SIGKILL."""
    for process in pool:
        if process.is_alive():
            process.terminate()
    for process in pool:
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()
