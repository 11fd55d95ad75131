"""Ctrl-C inside compiled searches.

A numba-compiled search never returns to the interpreter on its own, so Python's default
SIGINT handler, which raises :class:`KeyboardInterrupt` at the next bytecode, would wait for
the whole search. Kernels therefore read the clock through the interpreter at their first node
and every few thousand nodes after it (:func:`perfectplay.games.common.compiled_bits.now`);
while :func:`guard` is active, SIGINT only records the request, the clock read answers
:data:`STOPPED` to the kernel, which unwinds as when its deadline passes, and leaving
:func:`guard` raises :class:`KeyboardInterrupt` in plain Python. A search is stopped within
a few milliseconds of Ctrl-C.

The request is process-wide state, as the signal is; :func:`guard` clears it on entry and on
exit. Outside the main thread (a web worker's thread, say) signals cannot be handled, and
:func:`guard` does nothing.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # the C module behind signal (no stubs)
import math
import signal
import threading
import time
from types import FrameType

SIGINT = int(signal.SIGINT)
"""The signal's number, as :mod:`_signal` takes it."""
STOPPED = -1.0
"""What :func:`clock` answers once Ctrl-C has been pressed inside :func:`guard`."""
NO_DEADLINE_NS = 2**63 - 1
"""The deadline (in ``time.perf_counter_ns`` units) of a search without one."""


class _Request:
    """Whether SIGINT arrived inside :func:`guard` (one per process)."""

    pending = False


def clock() -> float:
    """``time.perf_counter()``, or :data:`STOPPED` once Ctrl-C was pressed under
    :func:`guard` (called by compiled kernels through the interpreter)."""
    return STOPPED if _Request.pending else time.perf_counter()


def _record(signum: int, frame: FrameType | None) -> None:
    _Request.pending = True


class _Guard:
    """The context of :func:`guard` (a class: a generator-based context manager costs a few
    microseconds more a search, a tenth of the smallest)."""

    __slots__ = ("active",)

    def __enter__(self) -> None:
        self.active = (
            threading.current_thread() is threading.main_thread()
            and _signal.getsignal(SIGINT) is signal.default_int_handler
        )
        if self.active:
            _Request.pending = False
            _signal.signal(SIGINT, _record)

    def __exit__(self, *exc: object) -> None:
        if not self.active:
            return
        _signal.signal(SIGINT, signal.default_int_handler)
        interrupted, _Request.pending = _Request.pending, False
        if interrupted:
            raise KeyboardInterrupt


def guard() -> _Guard:
    """Run a compiled search so that Ctrl-C stops it: SIGINT is recorded instead of
    raised, and :class:`KeyboardInterrupt` is raised when the block ends (nothing changes
    outside the main thread or when SIGINT is not handled by Python's default handler).

    The handlers are read and set through :mod:`_signal`, the C functions behind
    :mod:`signal`'s: its wrappers turn each handler into an enum (a ``ValueError`` raised
    and caught for every function handler), which cost 30-40 microseconds a guard, more than
    the smallest searches (a value of an end-game position through the library)."""
    return _Guard()


def deadline_ns(deadline: float | None) -> int:
    """A ``time.perf_counter`` deadline in seconds (``None`` or infinite: none) in the
    nanoseconds compiled kernels compare the clock with (:data:`NO_DEADLINE_NS`: none)."""
    if deadline is None or math.isinf(deadline):
        return NO_DEADLINE_NS
    return min(int(deadline * 1e9), NO_DEADLINE_NS - 1)
