"""The Ray executor: long-lived Ray actors, one per worker, each holding a :class:`Worker`.

::

    driver ── ray.init(address) ──▶ cluster (or a local instance started and stopped here)
      │  actor_k = RayWorker.remote(job)      the job is sent once, when the pool is made
      │                                       (before the tasks are known); each actor loads
      │                                       the compiled kernel once and keeps its table
      └─ actor_k.answer_all.remote(chunk) ──▶ a list of Answers, one chunk in flight per
                                              actor, the first once it is ready; the next
                                              goes to the actor that just finished

Ray is an optional extra (``pip install 'perfectplay[ray]'``), imported only here and only
when a job asks for it. An address given is checked for a listening port first (a few
seconds at most), so that a wrong address is a one-line error rather than a long hang.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from perfectplay.errors import ParameterError, quote
from perfectplay.jobs.tasks import Answer, BatchJob, ReadyCallback, Task, WorkerLost

IN_FLIGHT_PER_ACTOR = 1
"""Chunks handed to each actor at a time. One: a chunk waiting behind a slow one on one actor
could not be taken by another that is idle (measured: with two, 150 positions hardest first
on two actors ended 0.25 s apart); the round trip an actor then waits is about a millisecond."""
CONNECT_SECONDS = 3.0
"""How long the check of a cluster's address waits for its port."""
WAIT_SECONDS = 0.2
"""How long the driver waits for a chunk before it looks again (so Ctrl-C is heard)."""
RAY_TOKEN_NOTE_LOGGER = "ray._private.authentication.authentication_token_setup"
"""Ray's logger that notes, on every local start, that token authentication is on."""
LOOPBACK = "127.0.0.1"
"""Where a local Ray instance started here listens."""
DEFAULT_PORTS = {"ray": 10001, "": 6379}
"""The port of an address given without one: Ray Client's, or the cluster head's."""


class RayWorker:
    """The actor's class (made remote when Ray is imported): a :class:`Worker`, kept."""

    def __init__(self, job: BatchJob) -> None:
        from perfectplay.jobs.worker import Worker

        self.worker = Worker(job)

    def ready(self) -> int:
        """The actor's process id, once its worker is made."""
        return self.worker.pid

    def answer_all(self, tasks: list[Task]) -> list[Answer]:
        """The answers to one chunk, in order."""
        return self.worker.answer_all(tasks)


def import_ray() -> Any:
    """The ``ray`` module; :class:`ParameterError` saying how to install it when absent."""
    try:
        import ray
    except ImportError:
        raise ParameterError(
            "--executor ray: Ray is not installed (pip install 'perfectplay[ray]')"
        ) from None
    return ray


def check_address(address: str) -> None:
    """Raise :class:`ParameterError` unless ``address`` (``HOST:PORT``, ``ray://HOST:PORT``
    or ``auto``) names a port that accepts connections."""
    if address == "auto":
        return
    scheme, _, rest = address.rpartition("://")
    host, _, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not port_text:
        port_text = str(DEFAULT_PORTS.get(scheme, 6379))
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ParameterError(f"--address {quote(address)}: expected HOST:PORT or ray://HOST:PORT")
    try:
        with socket.create_connection((host, int(port_text)), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ParameterError(
            f"--address {quote(address)}: no Ray cluster there ({reason})"
        ) from None


def connect(ray: Any, address: str | None, workers: int) -> bool:
    """Join the cluster at ``address``, or start a local instance with ``workers`` CPUs;
    whether the instance was started here (and is to be stopped here)."""
    if ray.is_initialized():
        return False
    if address is not None:
        check_address(address)
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError) as exc:
            raise ParameterError(f"--address {quote(address)}: {exc}") from None
        return True
    with quiet(RAY_TOKEN_NOTE_LOGGER):  # its note that the local instance uses a token
        ray.init(
            num_cpus=workers,
            _node_ip_address=LOOPBACK,  # an instance of this machine's only: no open ports
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    return True


@contextmanager
def quiet(logger_name: str) -> Iterator[None]:
    """Only errors from the logger ``logger_name`` while inside; its level restored after."""
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def cluster_workers(ray: Any) -> int:
    """The CPUs the cluster has: a worker for each, by default."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


class RayPool:
    """``workers`` actors answering tasks of ``job`` (``None``: one per CPU of the cluster),
    asked for when the pool is made, on the cluster at ``address`` (else on a local instance
    started here): Ray starts them while the caller goes on. :meth:`answers` hands out
    chunks; :meth:`close` stops the actors, and the local instance if it was started here."""

    def __init__(self, job: BatchJob, workers: int | None, address: str | None) -> None:
        self.started = time.perf_counter()
        self.ray = import_ray()
        self.started_here = connect(self.ray, address, workers or 0)
        self.actors: list[Any] = []
        try:
            count = workers or cluster_workers(self.ray)
            remote = self.ray.remote(num_cpus=1)(RayWorker)
            self.actors = [remote.remote(job) for _ in range(count)]
        except BaseException:
            self.close()
            raise

    @property
    def count(self) -> int:
        """The actors asked for."""
        return len(self.actors)

    def answers(
        self, chunks: list[list[Task]], busy: int, on_ready: ReadyCallback | None = None
    ) -> Iterator[Answer]:
        """Every task's answer, a chunk at a time as chunks finish, in the order they do;
        each actor gets its first chunk once it is ready (``busy`` is not needed: an actor
        given nothing idles until :meth:`close`); ``on_ready`` hears when the first actor
        is, with the seconds since the pool was made."""
        waiting = deque(chunks)
        pending: dict[Any, tuple[Any, bool]] = {}  # ref -> (its actor, whether its start)
        for actor in self.actors:
            pending[actor.ready.remote()] = (actor, True)
        in_flight, ready = 0, False
        while in_flight or (waiting and pending):
            done, _ = self.ray.wait(list(pending), num_returns=1, timeout=WAIT_SECONDS)
            for ref in done:
                actor, starting = pending.pop(ref)
                found = fetch(self.ray, ref, "could not start" if starting else "failed")
                if starting and not ready and on_ready is not None:
                    on_ready(time.perf_counter() - self.started)
                ready = ready or starting
                for _ in range(IN_FLIGHT_PER_ACTOR if starting else 1):
                    if waiting:
                        pending[actor.answer_all.remote(waiting.popleft())] = (actor, False)
                        in_flight += 1
                if not starting:
                    in_flight -= 1
                    yield from found

    def close(self) -> None:
        """Stop the actors, and the local instance if it was started here."""
        try:
            for actor in self.actors:
                self.ray.kill(actor)
        finally:
            if self.started_here:
                self.ray.shutdown()


def fetch(ray: Any, ref: Any, failure: str) -> Any:
    """The value of ``ref``; :class:`WorkerLost` (``a Ray actor`` + ``failure``) when its
    actor could not give it."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as exc:
        raise WorkerLost(f"a Ray actor {failure}: {str(exc).splitlines()[0]}") from None
