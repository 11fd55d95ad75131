"""A bounded pool of engine worker processes with a per-request time cap.

Searches run compiled code that holds the interpreter lock and keeps per-kernel tables, so
the server runs them in separate processes, one job at a time each::

    request ──► EnginePool.run(job, args)
                  │  waits for an idle worker (at most ``queue_limit`` requests wait;
                  │  more get EngineBusy at once)
                  ▼
               worker process ──► perfectplay.web.jobs.JOBS[job](**args, cap=cap)
                  │
                  └─ no answer within cap + grace: the worker is killed and replaced,
                     the request gets EngineTimeout

The event loop only waits on the worker's pipe (``add_reader``), so ``/api/health`` and the
pages stay responsive whatever the workers do. Errors raised by a job for bad input come
back as the same :mod:`perfectplay.errors` class with the same message.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing.connection
import socket
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from perfectplay import errors

STARTUP = 120.0
"""Seconds a new worker may take to load (compiling the kernels on a fresh machine)."""
GRACE = 2.0
"""Seconds a worker gets beyond the cap (to build its answer) before it is killed."""


class EngineBusy(Exception):
    """Every worker is busy and the waiting line is full."""


class EngineTimeout(Exception):
    """A job ran past the time cap and its worker was stopped."""


class EngineCrash(Exception):
    """A worker died while running a job (it has been replaced)."""


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    conn: multiprocessing.connection.Connection


class EnginePool:
    """``workers`` engine processes; at most ``queue_limit`` requests wait for one.

    ``cap`` (seconds) is passed to every job and enforced: a worker still busy after
    ``cap + GRACE`` seconds is killed and replaced. ``warm`` loads the compiled kernels in
    each worker before it takes jobs (a few seconds once; no first-request stall).
    """

    def __init__(
        self, workers: int = 2, cap: float = 5.0, queue_limit: int = 16, warm: bool = True
    ) -> None:
        if workers < 1:
            raise errors.ParameterError(f"workers={workers}: need at least 1")
        if not 0 < cap <= 600:
            raise errors.ParameterError(f"cap={cap}: must be above 0 and at most 600 seconds")
        self.size = workers
        self.cap = cap
        self.queue_limit = queue_limit
        self.warm = warm
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._waiting = 0
        self._busy = 0
        self.completed = 0
        self.killed = 0

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the workers (in threads: spawning blocks) and wait until they are ready."""
        self._idle = asyncio.Queue()
        loop = asyncio.get_running_loop()
        workers = await asyncio.gather(
            *(loop.run_in_executor(None, self._spawn) for _ in range(self.size))
        )
        for worker in workers:
            self._idle.put_nowait(worker)

    def _spawn(self) -> _Worker:
        """Start ``python -m perfectplay.web.worker`` on one end of a socket pair (a fresh
        interpreter: nothing of the server process, its threads or its main script, is
        inherited)."""
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-m", "perfectplay.web.worker", str(theirs.fileno())]
        if not self.warm:
            command.append("--cold")
        process = subprocess.Popen(command, pass_fds=(theirs.fileno(),))
        theirs.close()
        conn = multiprocessing.connection.Connection(ours.detach())
        worker = _Worker(process, conn)
        if not conn.poll(STARTUP) or conn.recv()[0] != "ready":  # pragma: no cover
            _kill(worker)
            raise RuntimeError("an engine worker did not start")
        self._all.append(worker)
        return worker

    async def stop(self) -> None:
        """Stop every worker."""
        for worker in self._all:
            _kill(worker)
        self._all.clear()

    def status(self) -> dict[str, Any]:
        """Workers, busy ones, waiting requests and counters (for ``/api/health``)."""
        return {
            "workers": self.size,
            "busy": self._busy,
            "waiting": self._waiting,
            "cap_s": self.cap,
            "completed": self.completed,
            "stopped_for_time": self.killed,
        }

    # -- running jobs ----------------------------------------------------------------------
    async def run(self, job: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``job`` with ``args`` (plus ``cap``) in a worker; its answer.

        Raises the job's :mod:`perfectplay.errors` exception for bad input,
        :class:`EngineBusy`, :class:`EngineTimeout` or :class:`EngineCrash`.
        """
        assert self._idle is not None, "start() the pool first"
        if self._waiting >= self.queue_limit:
            raise EngineBusy(f"all {self.size} engine workers are busy; try again shortly")
        self._waiting += 1
        try:
            worker = await self._idle.get()
        finally:
            self._waiting -= 1
        self._busy += 1
        try:
            reply = await self._call(worker, job, {**args, "cap": self.cap})
        finally:
            self._busy -= 1
        self.completed += 1
        return _unpack(reply)

    async def _call(self, worker: _Worker, job: str, args: dict[str, Any]) -> tuple[str, Any]:
        """Send one job and wait for its reply without blocking the loop."""
        assert self._idle is not None
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, _settle, ready)
        try:
            worker.conn.send((job, args))
            await asyncio.wait_for(ready, self.cap + GRACE)
            reply: tuple[str, Any] = worker.conn.recv()
        except TimeoutError:
            self.killed += 1
            self._replace_later(worker)
            raise EngineTimeout(
                f"the {job} took longer than this server's cap of {self.cap:g} s"
            ) from None
        except (EOFError, OSError):
            self._replace_later(worker)
            raise EngineCrash(f"the engine worker stopped while running the {job}") from None
        except asyncio.CancelledError:  # the request went away: its answer is not wanted
            self._replace_later(worker)
            raise
        finally:
            loop.remove_reader(fd)
        self._idle.put_nowait(worker)
        return reply

    def _replace_later(self, worker: _Worker) -> None:
        """Kill ``worker`` and start a fresh one in the background (the request that
        overran is answered at once)."""
        task = asyncio.get_running_loop().create_task(self._replace(worker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self, worker: _Worker) -> None:
        assert self._idle is not None
        with contextlib.suppress(ValueError):
            self._all.remove(worker)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, _kill, worker)
        fresh = await loop.run_in_executor(None, self._spawn)
        self._idle.put_nowait(fresh)


def _settle(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


def _kill(worker: _Worker) -> None:
    with contextlib.suppress(OSError):
        worker.conn.close()
    if worker.process.poll() is None:
        worker.process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        worker.process.wait(5)


def _unpack(reply: tuple[str, Any]) -> dict[str, Any]:
    kind, payload = reply
    if kind == "ok":
        return payload  # type: ignore[no-any-return]
    if kind == "error":
        name, message = payload
        error_class = getattr(errors, name, errors.PerfectplayError)
        raise error_class(message)
    raise EngineCrash(f"the engine failed: {payload}")
