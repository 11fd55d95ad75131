"""A bounded pool of engine worker processes with a per-request time cap, started in the
background.

Searches run compiled code that holds the interpreter lock and keeps per-kernel tables, so
the server runs them in separate processes, one job at a time each::

    request ──► EnginePool.run(job, args)
                  │  waits for an idle worker (at most ``queue_limit`` requests wait;
                  │  more get EngineBusy at once; while no worker is ready yet, a request
                  │  waits only if one is expected soon, else EngineWarming at once)
                  ▼
               worker process ──► perfectplay.web.jobs.JOBS[job](**args, cap=cap)
                  │
                  └─ no answer within cap + grace: the worker is killed and replaced,
                     the request gets EngineTimeout

Starting (:meth:`EnginePool.start` returns at once; the app serves meanwhile)::

    one worker warms up: it loads every game's engine, numba compiling the kernels and
    writing its cache on a fresh install, and reports each engine over its pipe
        ──► once its first engine is done, the other workers start (``--cached-only``):
            they load what the cache holds, take jobs at once, and answer a job whose engine
            is still compiling with EngineWarming (503, Retry-After) instead of compiling it

so no two processes compile the same kernel, and a game whose engine is ready (Connect Four
comes first) is played long before the last engine is compiled. The warm-up ends, and
``/api/health`` says the engines are ready, when the warming worker has loaded them all.
No worker is ever killed for being slow to start. A worker whose process exits (while
starting, idle or busy) is started again, said in one line through ``report``, after a
backoff that grows with the deaths of the last minute.

The event loop only waits on the workers' pipes (``add_reader``), so ``/api/health`` and the
pages stay responsive whatever the workers do. Errors raised by a job for bad input come
back as the same :mod:`perfectplay.errors` class with the same message.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import multiprocessing.connection
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from perfectplay import errors

START_DELAY = 0.5
"""Seconds between :meth:`EnginePool.start` and the first worker's start: the server binds
its port and answers its first page before a warm-up (compiling on all it gets of a core)
competes with it for the processor."""
GRACE = 2.0
"""Seconds a worker gets beyond the cap (to build its answer) before it is killed."""
FIRST_WAIT = 15.0
"""Seconds a request may wait for the first worker while none is ready (warming up or
restarting), unless the warm-up's estimate says none will be ready by then: it then gets
:class:`EngineWarming` at once. The cap is used instead when it is longer."""
TICK = 5.0
"""Longest silence on the terminal while the engines warm up: a status line at least this
often."""
QUIET = 3.0
"""A warm-up shorter than this (the kernels loaded from numba's cache) prints only its
ready line."""
DEATH_WINDOW = 60.0
"""Seconds a worker's death counts towards the restart backoff."""
MAX_BACKOFF = 30.0
"""Longest wait before starting a worker again."""
OVERRUN_SHARE = 0.25
"""A warm-up step that has run past its expected share is expected to need this share of its
time so far again (:meth:`WarmUp.remaining`)."""
UNKNOWN_RETRY = 5
"""Retry-After (seconds) while no estimate of the warm-up's end exists."""
MAX_RETRY = 10
"""Longest Retry-After (seconds): a page asks again at least this often."""

Reporter = Callable[[str], None]
"""Where the pool says what it does (a line, no newline): the warm-up's progress, its end,
and restarts of workers that died."""


class EngineBusy(Exception):
    """Every worker is busy and the waiting line is full; ``retry_after`` is the number of
    seconds after which asking again makes sense (the ``Retry-After`` header)."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class EngineWarming(EngineBusy):
    """No worker is ready yet (the engines are warming up, or a worker that died is being
    restarted) and none is expected within the request's wait."""


class EngineTimeout(Exception):
    """A job ran past the time cap and its worker was stopped."""


class EngineCrash(Exception):
    """A worker died while running a job (it is being replaced)."""


@dataclass(eq=False)
class _Worker:
    """One worker process and the server's end of its pipe (``fd`` kept: the loop's reader
    is removed by it even after the connection is closed)."""

    process: subprocess.Popen[bytes]
    conn: multiprocessing.connection.Connection
    fd: int
    warmer: bool = False
    ready: bool = False
    retired: bool = False


@dataclass
class WarmUp:
    """The warm-up's progress as its worker reports it: the engine being warmed (``step``
    of ``steps``, counted from 1; ``compiling``: numba's cache lacked it), when each began,
    and when the first worker was ready."""

    started: float = field(default_factory=time.monotonic)
    engine: str | None = None
    compiling: bool = False
    step: int = 0
    steps: int = 0
    weights: tuple[float, ...] = ()
    first_engine_at: float | None = None
    engine_at: float | None = None
    finished: float | None = None

    def begin(
        self,
        engine: str,
        step: int,
        steps: int,
        compiling: bool,
        now: float,
        weights: tuple[float, ...] = (),
    ) -> None:
        """Engine ``step`` of ``steps`` starts warming (step 1 again after a restart);
        ``weights``, each step's expected share of the work (equal shares when not given)."""
        self.engine, self.step, self.steps, self.engine_at = engine, step, steps, now
        self.compiling = compiling
        valid = len(weights) == steps and all(w > 0 for w in weights)
        self.weights = weights if valid else (1.0,) * steps
        if step == 1:
            self.first_engine_at = now

    def elapsed(self, now: float) -> float:
        """Seconds since the pool started, until the warm-up ended."""
        return (self.finished if self.finished is not None else now) - self.started

    def remaining(self, now: float) -> float | None:
        """Estimated seconds until the warm-up ends (at least 1 while it runs): the work
        left (the steps' weights) at the rate of the steps done so far; a step that has run
        past its share is given :data:`OVERRUN_SHARE` of its time so far again (the estimate
        grows while it runs, rather than saying the same second for a minute). None before
        one step has been done."""
        rate = self._rate()
        if rate is None or self.engine_at is None:
            return 0.0 if self.finished is not None else None
        done, spent = self.step - 1, now - self.engine_at
        current = rate * self.weights[done] - spent
        if current < 0:
            current = OVERRUN_SHARE * spent
        return max(current, 1.0) + rate * sum(self.weights[done + 1 :])

    def overrun(self, now: float) -> bool:
        """Whether the step under way has taken longer than its share of the work says."""
        rate = self._rate()
        if rate is None or self.engine_at is None:
            return False
        return now - self.engine_at > rate * self.weights[self.step - 1]

    def _rate(self) -> float | None:
        """Seconds per unit of weight of the steps done (None: none done, or finished)."""
        done = self.step - 1
        if self.finished is not None or done < 1 or self.first_engine_at is None:
            return None
        if self.engine_at is None:
            return None
        return (self.engine_at - self.first_engine_at) / sum(self.weights[:done])

    def describe(self, now: float) -> str:
        """``compiling gomoku (2 of 5), 14 s so far, about 40 s left`` (what is known;
        ``longer than expected, about 9 s left`` once the step has overrun its share)."""
        text = ""
        if self.engine is not None:
            doing = "compiling" if self.compiling else "loading"
            text = f"{doing} {self.engine} ({self.step} of {self.steps}), "
        text += f"{self.elapsed(now):.0f} s so far"
        remaining = self.remaining(now)
        if remaining is None:
            return text
        slow = "longer than expected, " if self.overrun(now) else ""
        return f"{text}, {slow}about {math.ceil(remaining)} s left"


class EnginePool:
    """``workers`` engine processes; at most ``queue_limit`` requests wait for one.

    ``cap`` (seconds) is passed to every job and enforced: a worker still busy after
    ``cap + GRACE`` seconds is killed and replaced. ``warm`` has one worker load (on a fresh
    install: compile) every engine before it takes jobs, and the others start after it.
    ``report`` receives the progress lines (none when it is None); ``first_wait`` is
    :data:`FIRST_WAIT`. Raises :class:`errors.ParameterError` for fewer than one worker or a
    cap outside (0, 600].
    """

    def __init__(
        self,
        workers: int = 2,
        cap: float = 5.0,
        queue_limit: int = 16,
        warm: bool = True,
        report: Reporter | None = None,
        first_wait: float = FIRST_WAIT,
    ) -> None:
        if workers < 1:
            raise errors.ParameterError(f"workers={workers}: need at least 1")
        if not 0 < cap <= 600:
            raise errors.ParameterError(f"cap={cap}: must be above 0 and at most 600 seconds")
        self.size = workers
        self.cap = cap
        self.queue_limit = queue_limit
        self.warm = warm
        self.report = report
        self.first_wait = first_wait
        self._idle: asyncio.Queue[_Worker] | None = None
        self._live: set[_Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._deaths: collections.deque[float] = collections.deque()
        self._warm_up = WarmUp()
        self._first_engine = asyncio.Event()
        self._stopping = False
        self._ready = 0
        self._starting = 0
        self._waiting = 0
        self._busy = 0
        self._last_line = 0.0
        self.completed = 0
        self.killed = 0
        self.restarts = 0

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Begin starting the workers in the background and return at once: requests wait
        for them (or get :class:`EngineWarming`), :meth:`engines` tells how far they are.
        Raises RuntimeError when called twice."""
        if self._idle is not None:
            raise RuntimeError("the engine pool was already started")
        self._idle = asyncio.Queue()
        self._warm_up = WarmUp()
        self._last_line = self._warm_up.started
        self._background(self._bring_up())
        if self.warm:
            self._background(self._tick())

    async def stop(self) -> None:
        """Stop every worker, whatever it is doing (warming up, starting, idle or busy);
        workers not started yet never start. Safe before :meth:`start` and more than once."""
        self._stopping = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        workers = list(self._live)
        for worker in workers:
            self._retire(worker)
        await asyncio.get_running_loop().run_in_executor(None, _reap_all, workers)
        self._live.difference_update(workers)

    def pids(self) -> list[int]:
        """The process ids of the live workers (started, not yet stopped)."""
        return sorted(worker.process.pid for worker in self._live if not worker.retired)

    def status(self) -> dict[str, Any]:
        """Workers, busy ones, waiting requests and counters (``/api/health``'s ``engine``)."""
        return {
            "workers": self.size,
            "busy": self._busy,
            "waiting": self._waiting,
            "cap_s": self.cap,
            "completed": self.completed,
            "stopped_for_time": self.killed,
        }

    def engines(self) -> dict[str, Any]:
        """Whether a worker can take engine work, and the warm-up's progress
        (``/api/health``'s ``engines``): ``ready``; ``warming``, the engine being warmed
        (None once done), ``compiling`` it (else loading it from numba's cache), ``step`` of
        ``steps``; ``elapsed_s`` the warm-up has taken so far (or took); ``remaining_s``,
        its estimated rest (None: no estimate yet); ``workers_ready``, ``workers_starting``;
        ``restarts`` of workers that died; and ``retry_after_s``, when to ask again while
        not ready (else None)."""
        now = time.monotonic()
        warm_up = self._warm_up
        remaining = warm_up.remaining(now)
        ready = self._ready > 0 and (warm_up.finished is not None or not self.warm)
        return {
            "ready": ready,
            "warming": warm_up.engine if warm_up.finished is None else None,
            "compiling": warm_up.compiling and warm_up.finished is None,
            "step": warm_up.step,
            "steps": warm_up.steps,
            "elapsed_s": round(warm_up.elapsed(now), 1),
            "remaining_s": None if remaining is None else round(remaining, 1),
            "workers_ready": self._ready,
            "workers_starting": self._starting,
            "restarts": self.restarts,
            "retry_after_s": None if ready else self._retry_after(now),
        }

    # -- starting workers ------------------------------------------------------------------
    async def _bring_up(self) -> None:
        """The warming worker first (when ``warm``); the others once it has warmed its first
        engine: they load what numba's cache holds by then and take jobs at once, answering
        those that need an engine still compiling with :class:`EngineWarming`."""
        await asyncio.sleep(START_DELAY)
        if not self.warm:
            await asyncio.gather(*(self._keep_one(warmer=False) for _ in range(self.size)))
            return
        self._background(self._keep_one(warmer=True))
        await self._first_engine.wait()
        await asyncio.gather(*(self._keep_one(warmer=False) for _ in range(self.size - 1)))

    async def _keep_one(self, warmer: bool) -> None:
        """Start a worker and put it in the idle line once it is ready, however long that
        takes; one that dies first is started again after :meth:`_backoff`. ``warmer``: its
        progress messages are the warm-up's."""
        while not self._stopping:
            await asyncio.sleep(self._backoff())
            try:
                worker = self._spawn(warmer)
            except OSError as exc:  # out of processes or descriptors: try again later
                self._deaths.append(time.monotonic())
                self._say(f"could not start an engine worker ({exc}); trying again")
                continue
            self._starting += 1
            try:
                ready = await self._until_ready(worker, warmer)
            finally:
                self._starting -= 1
            if ready:
                self._mark_ready(worker)
                return
            await self._bury(worker, "while starting")

    def _spawn(self, warmer: bool) -> _Worker:
        """Start ``python -m perfectplay.web.worker FD`` on one end of a socket pair (a
        fresh interpreter: nothing of the server process, its threads or its main script,
        is inherited), registered at once so that :meth:`stop` kills it whatever it does.
        Only the ``warmer`` compiles engines; the others load numba's cache
        (``--cached-only``), so that no two processes compile the same kernel.
        Called on the event loop's thread only: on Linux a worker dies when the thread that
        started it ends (see :func:`perfectplay.web.worker.watch_parent`)."""
        ours, theirs = socket.socketpair()
        command = [sys.executable, "-m", "perfectplay.web.worker", str(theirs.fileno())]
        if not self.warm:
            command.append("--cold")
        elif not warmer:
            command.append("--cached-only")
        try:
            process = subprocess.Popen(command, pass_fds=(theirs.fileno(),))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        conn = multiprocessing.connection.Connection(ours.detach())
        worker = _Worker(process, conn, conn.fileno(), warmer)
        self._live.add(worker)
        return worker

    async def _until_ready(self, worker: _Worker, warmer: bool) -> bool:
        """Read ``worker``'s start-up messages until it is ready (True) or gone (False)."""
        while True:
            try:
                kind, payload = await _receive(worker)
            except (EOFError, OSError):
                return False
            if kind == "ready":
                return True
            if kind == "warming" and warmer:
                self._progress(payload)

    def _mark_ready(self, worker: _Worker) -> None:
        """``worker`` takes jobs from now on; the warming worker's readiness (any worker's,
        without a warm-up) ends the warm-up."""
        worker.ready = True
        self._ready += 1
        self._first_engine.set()
        if self._warm_up.finished is None and (worker.warmer or not self.warm):
            self._warm_up.finished = time.monotonic()
            self._say(f"engines ready after {self._warm_up.elapsed(time.monotonic()):.1f} s")
        self._make_idle(worker)

    def _make_idle(self, worker: _Worker) -> None:
        """Put ``worker`` in the idle line, watching its pipe: an idle worker sends nothing,
        so a readable pipe means it died."""
        assert self._idle is not None
        asyncio.get_running_loop().add_reader(worker.fd, self._idle_died, worker)
        self._idle.put_nowait(worker)

    def _idle_died(self, worker: _Worker) -> None:
        self._lost(worker, "while idle")

    # -- deaths and restarts ---------------------------------------------------------------
    def _backoff(self) -> float:
        """Seconds to wait before starting a worker: none after at most one death in the
        last :data:`DEATH_WINDOW` seconds, then 1, 2, 4 ... up to :data:`MAX_BACKOFF`."""
        now = time.monotonic()
        while self._deaths and now - self._deaths[0] > DEATH_WINDOW:
            self._deaths.popleft()
        if len(self._deaths) <= 1:
            return 0.0
        return float(min(MAX_BACKOFF, 2 ** (len(self._deaths) - 2)))

    async def _bury(self, worker: _Worker, when: str) -> None:
        """Count and report the death of ``worker`` (its process exited ``when``)."""
        self._retire(worker)
        await asyncio.get_running_loop().run_in_executor(None, _reap, worker)
        self._live.discard(worker)
        if self._stopping:
            return
        self.restarts += 1
        self._deaths.append(time.monotonic())
        wait = self._backoff()
        again = "at once" if wait == 0 else f"in {wait:g} s"
        self._say(
            f"an engine worker (pid {worker.process.pid}) {_exit_text(worker.process)} "
            f"{when}; starting another {again} (restart {self.restarts})"
        )

    def _lost(self, worker: _Worker, when: str) -> None:
        """``worker``'s process died ``when``: take it out of service now, report it and
        start another in the background. Does nothing for a worker already retired."""
        if worker.retired:
            return
        self._retire(worker)
        self._background(self._restart(worker, when))

    async def _restart(self, worker: _Worker, when: str) -> None:
        await self._bury(worker, when)
        await self._keep_one(warmer=worker.warmer and self._warm_up.finished is None)

    def _replace_later(self, worker: _Worker) -> None:
        """Kill ``worker`` (it overran the cap, or its request went away) and start a fresh
        one in the background: the request is answered at once."""
        self._retire(worker)
        self._background(self._replace(worker))

    async def _replace(self, worker: _Worker) -> None:
        await asyncio.get_running_loop().run_in_executor(None, _reap, worker)
        self._live.discard(worker)
        await self._keep_one(warmer=False)

    def _retire(self, worker: _Worker) -> None:
        """Take ``worker`` out of service and kill it (reaping it is left to the caller);
        it stays in ``_live`` until reaped. Does nothing the second time."""
        if worker.retired:
            return
        worker.retired = True
        if worker.ready:
            self._ready -= 1
        with contextlib.suppress(ValueError, OSError, RuntimeError):
            asyncio.get_running_loop().remove_reader(worker.fd)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.poll() is None:
            with contextlib.suppress(OSError):
                worker.process.kill()

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task that :meth:`stop` cancels."""
        if self._stopping:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- reporting -------------------------------------------------------------------------
    def _say(self, line: str) -> None:
        self._last_line = time.monotonic()
        if self.report is not None:
            self.report(line)

    def _progress(self, payload: Any) -> None:
        """The warming worker began an engine: note it, and say so when it compiles or the
        warm-up has taken :data:`QUIET` seconds already."""
        now = time.monotonic()
        warm_up = self._warm_up
        engine, step, steps = str(payload["engine"]), payload["step"], payload["steps"]
        weights = tuple(float(w) for w in payload.get("weights", ()))
        warm_up.begin(engine, step, steps, bool(payload.get("compiling")), now, weights)
        if step > 1:  # the first engine is in numba's cache: the other workers may start
            self._first_engine.set()
        if warm_up.compiling or warm_up.elapsed(now) >= QUIET:
            self._say(f"warming up the engines: {warm_up.describe(now)}")

    async def _tick(self) -> None:
        """A status line whenever the terminal has been silent for :data:`TICK` seconds,
        until the warm-up ends."""
        while self._warm_up.finished is None:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            if self._warm_up.finished is None and now - self._last_line >= TICK:
                self._say(f"still warming up the engines: {self._warm_up.describe(now)}")

    def _retry_after(self, now: float) -> int:
        """Seconds after which a request refused while no worker is ready should come
        back: the warm-up's estimated rest, from 1 to :data:`MAX_RETRY`."""
        remaining = self._warm_up.remaining(now)
        if remaining is None or self._warm_up.finished is not None:
            return UNKNOWN_RETRY
        return min(max(math.ceil(remaining), 1), MAX_RETRY)

    def _warming(self) -> EngineWarming:
        """The refusal of a request while no worker is ready."""
        now = time.monotonic()
        retry = self._retry_after(now)
        if self._warm_up.finished is None:
            what = f"the engine is warming up ({self._warm_up.describe(now)})"
        else:
            what = "the engine workers are restarting"
        return EngineWarming(f"{what}; try again in {retry} s", retry_after=retry)

    # -- running jobs ----------------------------------------------------------------------
    async def run(self, job: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``job`` with ``args`` (plus ``cap``) in a worker; its answer.

        Raises the job's :mod:`perfectplay.errors` exception for bad input,
        :class:`EngineBusy`, :class:`EngineWarming`, :class:`EngineTimeout` or
        :class:`EngineCrash`.
        """
        assert self._idle is not None, "start() the pool first"
        if self._waiting >= self.queue_limit:
            raise EngineBusy(f"all {self.size} engine workers are busy; try again shortly")
        self._waiting += 1
        try:
            worker = await self._take()
        finally:
            self._waiting -= 1
        self._busy += 1
        try:
            reply = await self._call(worker, job, {**args, "cap": self.cap})
        finally:
            self._busy -= 1
        self.completed += 1
        return unpack(reply)

    def _patience(self) -> float:
        """Seconds a request may wait for the first ready worker: the longer of the cap and
        ``first_wait``. Raises :class:`EngineWarming` when the warm-up's estimate says no
        worker will be ready by then."""
        bound = max(self.cap, self.first_wait)
        remaining = self._warm_up.remaining(time.monotonic())
        if remaining is not None and remaining > bound:
            raise self._warming()
        return bound

    async def _take(self) -> _Worker:
        """An idle, live worker, waited for without limit while some worker is ready (the
        line is bounded by ``queue_limit``), else for :meth:`_patience` at most."""
        assert self._idle is not None
        deadline = None if self._ready else time.monotonic() + self._patience()
        while True:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            try:  # an idle worker at hand is taken even when the wait is over
                worker = self._idle.get_nowait()
            except asyncio.QueueEmpty:
                try:
                    worker = await asyncio.wait_for(self._idle.get(), left)
                except TimeoutError:
                    raise self._warming() from None
            if worker.retired:
                continue
            asyncio.get_running_loop().remove_reader(worker.fd)
            if _alive(worker):
                return worker
            self._lost(worker, "while idle")

    async def _call(self, worker: _Worker, job: str, args: dict[str, Any]) -> tuple[str, Any]:
        """Send one job and wait for its reply without blocking the loop."""
        try:
            worker.conn.send((job, args))
            reply = await asyncio.wait_for(_receive(worker), self.cap + GRACE)
        except TimeoutError:
            self.killed += 1
            self._replace_later(worker)
            raise EngineTimeout(
                f"the {job} took longer than this server's cap of {self.cap:g} s"
            ) from None
        except (EOFError, OSError):
            self._lost(worker, f"while running a {job}")
            raise EngineCrash(f"the engine worker stopped while running the {job}") from None
        except asyncio.CancelledError:  # the request went away: its answer is not wanted
            self._replace_later(worker)
            raise
        self._make_idle(worker)
        return reply


async def _receive(worker: _Worker) -> tuple[str, Any]:
    """The next message from ``worker``, waited for on the loop (EOFError when it died)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    loop.add_reader(worker.fd, _settle, ready)
    try:
        await ready
    finally:
        loop.remove_reader(worker.fd)
    message: tuple[str, Any] = worker.conn.recv()
    return message


def _settle(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


def _alive(worker: _Worker) -> bool:
    """Whether an idle worker's process runs and its pipe is open (an idle worker sends
    nothing: a readable pipe is the end of it)."""
    try:
        return worker.process.poll() is None and not worker.conn.poll(0)
    except (EOFError, OSError):
        return False


def _reap(worker: _Worker) -> None:
    """Wait for a killed worker's process to exit (blocking: call it off the loop)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        worker.process.wait(5)


def _reap_all(workers: list[_Worker]) -> None:
    for worker in workers:
        _reap(worker)


def _exit_text(process: subprocess.Popen[bytes]) -> str:
    """``exited with code 1``, ``was killed by SIGKILL`` or ``stopped``."""
    code = process.returncode
    if code is None:
        return "stopped"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
        return f"was killed by signal {-code}"
    return f"exited with code {code}"


def unpack(reply: tuple[str, Any]) -> dict[str, Any]:
    """A worker's reply to a job as its answer; raises the job's :mod:`perfectplay.errors`
    exception, :class:`EngineWarming` for a job whose engine is still compiling, or
    :class:`EngineCrash` for a bug."""
    kind, payload = reply
    if kind == "ok":
        return payload  # type: ignore[no-any-return]
    if kind == "error":
        name, message = payload
        error_class = getattr(errors, name, errors.PerfectplayError)
        raise error_class(message)
    if kind == "pending":
        raise EngineWarming(
            f"the engine is warming up: {payload} is still compiling (once after an "
            f"install); try again in {UNKNOWN_RETRY} s",
            retry_after=UNKNOWN_RETRY,
        )
    raise EngineCrash(f"the engine failed: {payload}")
