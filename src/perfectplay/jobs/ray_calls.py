"""One function called on many items on Ray actors: the tournament's ``--executor ray``.

::

    driver ── ray.init ──▶ a local Ray instance (started and stopped here), or a cluster
      │  actor_k = Caller.remote(function)      one actor per worker, each asking Ray for a CPU
      └─ actor_k.call.remote(item) ──▶ function(item), one item in flight per actor; the next
                                       item goes to the actor that just finished (Ray's
                                       ActorPool)

Ray is joined and started through :mod:`perfectplay.jobs.ray_pool`'s public functions (the
address checked first, the local instance quiet and on the loopback). The function travels
by reference (a module-level function), each item and result pickled: what a batch job's
chunks are to :mod:`perfectplay.jobs.ray_pool`, the tournament's games are here, one a call,
since a game takes seconds and a round trip a millisecond.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from perfectplay.jobs.ray_pool import WAIT_SECONDS, connect, import_ray
from perfectplay.jobs.tasks import WorkerLost

Item = TypeVar("Item")
Result = TypeVar("Result")


class Caller:
    """The actor's class (made remote when Ray is imported): calls one function, kept."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def call(self, item: Any) -> Any:
        """``function(item)``."""
        return self.function(item)


def ray_calls(
    function: Callable[[Item], Result],
    items: list[Item],
    workers: int,
    address: str | None = None,
) -> Generator[Result, None, None]:
    """``function(item)`` for every item, on ``workers`` actors, in the order the calls end.
    Raises :class:`ParameterError` for a Ray that is missing or an address where none runs,
    :class:`WorkerLost` when an actor fails (the function raised or its process died).
    Closing the generator kills the actors, and stops the local instance if it was started
    here."""
    if not items:
        return
    with _ray(address, workers) as ray:
        remote = ray.remote(num_cpus=1, max_restarts=0)(Caller)
        actors = [remote.remote(function) for _ in range(min(workers, len(items)))]
        try:
            yield from _hand_out(ray, actors, iter(items))
        finally:
            for actor in actors:
                ray.kill(actor)


@contextmanager
def _ray(address: str | None, workers: int) -> Iterator[Any]:
    """The ``ray`` module, joined to the cluster at ``address`` or to a local instance of
    ``workers`` CPUs started here, and stopped here on leaving."""
    ray = import_ray()
    stop = connect(ray, address, workers)
    try:
        yield ray
    finally:
        if stop:
            ray.shutdown()


def _hand_out(ray: Any, actors: list[Any], items: Iterator[Any]) -> Iterator[Any]:
    """One item in flight per actor (Ray's own ``ActorPool`` hands the next item to the
    actor that finishes); each result as its call ends, looking every
    :data:`WAIT_SECONDS` (so that Ctrl-C is heard)."""
    from ray.util import ActorPool

    pool: Any = ActorPool(actors)  # partly typed: has_next is not
    for item in items:
        pool.submit(lambda actor, value: actor.call.remote(value), item)
    while pool.has_next():
        try:
            result = pool.get_next_unordered(timeout=WAIT_SECONDS)
        except TimeoutError:
            continue
        except ray.exceptions.RayError as exc:
            raise WorkerLost(f"a Ray actor failed: {str(exc).splitlines()[0]}") from None
        yield result
