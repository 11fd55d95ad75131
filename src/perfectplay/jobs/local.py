"""The local executor: a pool of long-lived worker processes on this machine.

::

    parent ── chunks ──▶ tasks queue ──▶ worker 1 … worker N   (each: one Worker, kept)
       ▲                                      │
       └──────── answers queue ◀── one Answer per task, as soon as it is done

Workers are started with ``spawn`` (a clean interpreter: no inherited locks, threads or
numba state) as soon as the pool is made, and load the compiled kernel once each while the
caller goes on (reading and checking its input): the pool is made before the tasks are
known. Chunks go into the one shared queue at once, and the first worker ready takes the
first. At most two chunks per worker wait in the queue, so a stopped run has little in
flight and a long input is never all in memory twice. Workers ignore SIGINT: Ctrl-C reaches
the parent, which stops them (SIGTERM, then SIGKILL) within half a second and keeps what was
answered.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
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


class LocalPool:
    """``workers`` processes answering tasks of ``job``, started when the pool is made.

    :meth:`answers` hands out chunks (once; a pool serves one list of tasks) and
    :meth:`close` stops the workers; a worker that fails to start or dies is a
    :class:`WorkerLost` raised from :meth:`answers`.
    """

    def __init__(self, job: BatchJob, workers: int) -> None:
        self.started = time.perf_counter()
        context = multiprocessing.get_context("spawn")
        self.tasks: Any = context.Queue()
        self.messages: Any = context.Queue()
        self.pool: list[BaseProcess] = [
            context.Process(
                target=serve, args=(job, self.tasks, self.messages, os.getpid()), daemon=True
            )
            for _ in range(workers)
        ]
        try:
            for process in self.pool:
                with sigint_ignored_by_children():
                    process.start()
        except BaseException:
            self.close()
            raise

    @property
    def count(self) -> int:
        """The workers started."""
        return len(self.pool)

    def answers(
        self, chunks: list[list[Task]], busy: int, on_ready: ReadyCallback | None = None
    ) -> Iterator[Answer]:
        """Every task's answer, in the order they finish, from ``busy`` of the workers (the
        others are let go at once: fewer tasks than workers); ``on_ready`` hears when the
        first worker is ready, with the seconds since the pool was made."""
        for _ in range(len(self.pool) - busy):
            self.tasks.put(None)  # taken by the first workers ready, which then end
        feed = Feed(iter(chunks), self.tasks, len(self.pool) * QUEUED_CHUNKS_PER_WORKER)
        feed.fill()
        ready = False
        while feed.outstanding:
            message = next_message(self.messages, self.pool)
            if isinstance(message, WorkerReady):
                if not ready and on_ready is not None:
                    on_ready(time.perf_counter() - self.started)
                ready = True
                continue
            feed.answered()
            yield message
        for _ in range(busy):
            self.tasks.put(None)

    def close(self) -> None:
        """Stop every worker (those that ended are left as they are)."""
        stop(self.pool)


@contextmanager
def sigint_ignored_by_children() -> Iterator[None]:
    """Processes started while inside begin with SIGINT ignored (a disposition kept across
    ``exec``), so that Ctrl-C at a terminal, which reaches the whole process group, never
    interrupts a worker before :func:`serve` ignores it itself (its traceback would be
    printed). This process holds SIGINT back meanwhile and receives it after (except while
    :mod:`multiprocessing` starts its resource tracker, on the first start, which unblocks
    it: a Ctrl-C in those milliseconds is lost). Only the main thread can change the
    disposition; in another one, nothing is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


class Feed:
    """Chunks put into the tasks queue as answers come back: about ``queued`` chunks' worth
    of tasks waiting at a time (the first chunk's size sets the measure)."""

    def __init__(self, chunks: Iterator[list[Task]], tasks: Any, queued: int) -> None:
        self.chunks, self.tasks, self.queued = chunks, tasks, queued
        self.outstanding, self.target, self.more = 0, 0, True

    def fill(self) -> None:
        """Queue chunks until enough tasks wait (or none are left)."""
        while self.more and (not self.target or self.outstanding < self.target):
            chunk = next(self.chunks, None)
            if not chunk:
                self.more = False
                return
            self.tasks.put(chunk)
            self.outstanding += len(chunk)
            self.target = self.target or len(chunk) * self.queued

    def answered(self) -> None:
        """One task answered: queue more if it is time."""
        self.outstanding -= 1
        self.fill()


def next_message(answers: Any, pool: Sequence[BaseProcess]) -> Answer | WorkerReady:
    """The next answer (or word that a worker is ready); raises :class:`WorkerLost` when a
    worker failed, died, or every worker ended (a worker let go ends with status 0)."""
    while True:
        try:
            message = answers.get(timeout=POLL_SECONDS)
        except queue.Empty:
            lost = [p for p in pool if not p.is_alive() and p.exitcode != 0]
            if lost:
                raise WorkerLost(f"a worker ended with status {lost[0].exitcode}") from None
            if not any(p.is_alive() for p in pool):
                raise WorkerLost("every worker ended with tasks left") from None
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
