"""An engine worker process: ``python -m perfectplay.web.worker FD [--cold | --cached-only]``.

It talks over the connection on file descriptor ``FD`` (one end of a socket pair made by
:class:`perfectplay.web.pool.EnginePool`). Unless ``--cold``, it first warms up every
game's engine (:func:`perfectplay.web.jobs.warm_up`: numba compiles the kernels and writes
its cache on a fresh install, else loads them from it), sending ``("warming", {"engine":
name, "step": i, "steps": n, "compiling": bool, "weights": [w1, ..., wn]})`` before each
(``compiling``: numba's cache lacks that game's engine; ``weights``: each step's expected
share of the work, :func:`perfectplay.web.jobs.step_weights`); then
``("ready", {"warm_s": seconds})``. From then on it reads ``(job, args)`` pairs, runs
``perfectplay.web.jobs.JOBS[job](**args)`` and sends back ``("ok", result)``,
``("error", (class name, message))`` for input the library rejects, or ``("bug", text)``.

It exits when the server closes the connection, or when the server's process is gone (a
server killed outright), even while warming up or searching: on Linux the kernel kills it
then (``PR_SET_PDEATHSIG``), elsewhere a thread checks every :data:`PARENT_CHECK` seconds.
It ignores Ctrl-C (the terminal's SIGINT reaches the whole process group; the server stops
its workers itself), and dies of an error in one line on stderr, not a traceback.

Test-only: when the environment variable :data:`TEST_WARM_STUB` holds a number of seconds,
the warm-up reports every registered game in turn and sleeps that long for each instead of
loading its engine (a slow warm-up without compiling anything). Nothing a request carries
reaches it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from perfectplay import errors

if TYPE_CHECKING:
    from perfectplay.web.jobs import WarmProgress

TEST_WARM_STUB = "PERFECTPLAY_TEST_WARM_STUB"
"""The environment variable of the test-only stand-in warm-up (seconds per game)."""
PARENT_CHECK = 0.5
"""Seconds between checks that the server process still runs."""


def serve(
    conn: Connection, warm: bool, stub: float | None = None, cached_only: bool = False
) -> None:
    """Warm up (unless not ``warm``; with the stand-in of ``stub`` seconds per game when
    given), say ready, then run jobs from ``conn`` until it closes. ``cached_only``: load
    only the engines numba's cache holds (another worker is compiling the rest), and answer
    a job that would have to compile one with ``("pending", engine label)`` instead of
    compiling it under the request's cap. Raises OSError when the server's end closes while
    the worker still has something to say."""
    from perfectplay.web.jobs import JOBS, engine_pending, warm_up

    started = time.monotonic()

    def progress(
        engine: str, step: int, steps: int, compiling: bool, weights: tuple[float, ...]
    ) -> None:
        info = {"engine": engine, "step": step, "steps": steps, "compiling": compiling}
        conn.send(("warming", {**info, "weights": list(weights)}))

    if warm and stub is not None:
        if not cached_only:  # the stand-in compiles everything: nothing is cached for it
            stub_warm_up(progress, stub)
    elif warm:
        warm_up(progress, cached_only)
    conn.send(("ready", {"warm_s": round(time.monotonic() - started, 3)}))
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        pending = engine_pending(name, args) if cached_only else None
        conn.send(("pending", pending) if pending else _answer(JOBS, name, args))


def _answer(jobs: Mapping[str, Callable[..., Any]], name: str, args: Any) -> tuple[str, Any]:
    """The reply to one job."""
    try:
        return ("ok", jobs[name](**args))
    except errors.PerfectplayError as exc:
        return ("error", (type(exc).__name__, str(exc)))
    except Exception as exc:  # a bug: reported without a traceback reaching the client
        return ("bug", f"{type(exc).__name__}: {exc}")


def stub_warm_up(progress: WarmProgress, seconds: float) -> None:
    """Test-only: report every registered game's warm-up in turn, as a compile, and sleep
    ``seconds`` for each, loading nothing."""
    from perfectplay import api

    names = [game_kit.name for game_kit in api.games()]
    for step, name in enumerate(names, start=1):
        progress(name, step, len(names), True, (1.0,) * len(names))
        time.sleep(seconds)


def stub_seconds(environ: Mapping[str, str]) -> float | None:
    """The stand-in warm-up's seconds per game from :data:`TEST_WARM_STUB` (None when it is
    unset; a value that is not a number of seconds >= 0 is ignored)."""
    text = environ.get(TEST_WARM_STUB)
    if text is None:
        return None
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when the thread that started it ends."""


def watch_parent(parent: int) -> None:
    """Exit when the process ``parent`` (the server, whose event loop's thread started this
    worker) is gone: SIGKILL from the kernel on Linux, else a daemon thread's check; at
    once when it is gone already."""
    if not _die_with_parent():

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(PARENT_CHECK)
            os._exit(0)

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # it died before the request above took effect
        os._exit(0)


def _die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent ends; whether that worked (no
    thread is needed then: a worker whose compiled code holds the interpreter lock dies
    too, and a killed worker closes its pipe as it becomes a zombie)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)) == 0
    except (OSError, AttributeError):
        return False


def main(argv: list[str]) -> None:
    """Serve on the descriptor named by ``argv[0]`` (``--cold``: no warm-up;
    ``--cached-only``: see :func:`serve`); exit quietly when the server goes away, with one
    line on stderr on any other error."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(os.getppid())
    flags = argv[1:]
    try:
        serve(
            Connection(int(argv[0])),
            "--cold" not in flags,
            stub_seconds(os.environ),
            cached_only="--cached-only" in flags,
        )
    except (EOFError, OSError):  # the server closed our pipe: nobody to answer
        return
    except Exception as exc:
        sys.stderr.write(f"perfectplay: engine worker {os.getpid()}: {type(exc).__name__}: {exc}\n")
        raise SystemExit(1) from None


if __name__ == "__main__":
    main(sys.argv[1:])
