"""Bit primitives of the compiled kernels for gravity boards (numba).

Boards use the column layout of :mod:`perfectplay.games.common.gravity`: ``height + 1`` bits per
column, bit 0 at the bottom, a sentinel bit on top of each column, so that shifting a board by
1 (up), ``height + 1`` (across), ``height`` and ``height + 2`` (the diagonals) never wraps a
line from one column into the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from perfectplay.games import (
    compile_guard,  # noqa: F401  (importing it is the cache's check)
    interrupt,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
HASH_A = np.uint64(0x9E3779B97F4A7C15)
"""Multiplicative hashing constants (the golden ratio's and another odd 64-bit constant)."""
HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
CLOCK_CHECK_MASK = 4095
"""Kernels keeping a deadline read the clock at the first node of a search and every 4096
nodes after it: a trip to the interpreter of about a microsecond, every millisecond or so of
search (the first node too, so that a search started after its deadline stops at once)."""
NO_DEADLINE = np.int64(interrupt.NO_DEADLINE_NS)
"""The deadline (in ``time.perf_counter_ns`` units) of a search without one, as compiled code
compares it (:func:`perfectplay.games.interrupt.deadline_ns` makes the others)."""
U64_ARRAY = types.Array(types.uint64, 1, "C")
I64_ARRAY = types.Array(types.int64, 1, "C")
"""The numba types of the one-dimensional arrays in explicit kernel signatures."""


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count of a uint64 (one instruction on CPUs that have it)."""
    signature = types.uint64(types.uint64)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)

    return signature, codegen


@intrinsic
def prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask the CPU to bring ``array[index]`` into the cache (LLVM's prefetch: a read, high
    locality): a table slot is fetched while the search does other work, instead of
    stalling on the load when the slot is read."""
    signature = types.void(array, index)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        array_type = sig.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, data, [args[1]], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, function_type, PREFETCH)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


NRT_OPTION = "_nrt"
"""numba's option (a private one: its tests use it, its docs do not) that turns the runtime's
reference counts of a compiled function off; :func:`lean` and :func:`allocating` set it."""


def lean(*signature: Any, inline: str = "never", **options: Any) -> Callable[[Any], Any]:
    """numba's ``njit``, cached, without the runtime's reference counts (numba's ``_nrt``
    option off), for kernel code that creates no array. numba counts a reference for every
    array handed to a call that it does not inline, in and out (a context or state tuple
    holds ten to thirty): an atomic increment and decrement each, about half the time of the
    Gomoku engine's node (issue 26). Without them a call costs what its body costs.

    Contract: the function, and whatever it calls that is not itself :func:`allocating`,
    creates no array (numba refuses to compile one that does: it cannot go wrong silently);
    the arrays it is handed live as long as the call (a kernel's arguments, held by its
    caller, do). Other ``options`` go to ``njit`` as they are (``error_model``,
    ``nogil``)."""
    options.update({"cache": True, "inline": inline, NRT_OPTION: False})
    return njit(*signature, **options)  # type: ignore[no-any-return]


def allocating(*signature: Any) -> Callable[[Any], Any]:
    """numba's ``njit``, cached, with the runtime's reference counts on even when called
    from :func:`lean` code (numba compiles a callee with its caller's options unless the
    callee names its own): for the few kernel functions that create an array."""
    options: dict[str, Any] = {"cache": True, NRT_OPTION: True}
    return njit(*signature, **options)  # type: ignore[no-any-return]


def direct_entry(kernel: Any) -> Callable[..., Any]:
    """The compiled code of a kernel declared with one explicit signature, called without
    numba's dispatch: the dispatcher works out the types of every argument at each call
    (about a microsecond for a call with four arrays, three after other work has cooled its
    data), the entry point only converts them. For the hot calls from Python of searches
    that take microseconds.

    Contract: the caller passes exactly the declared types (arrays of the declared dtype and
    layout: nothing checks them); a kernel without exactly one compiled signature, or a
    numba without entry points, gets the dispatcher back.
    """
    overloads = getattr(kernel, "overloads", {})
    if len(overloads) != 1:
        return kernel  # type: ignore[no-any-return]
    (compiled,) = overloads.values()
    return getattr(compiled, "entry_point", kernel)  # type: ignore[no-any-return]


@intrinsic
def cycle_counter(typingctx):  # type: ignore[no-untyped-def]
    """The processor's cycle counter (LLVM's readcyclecounter: ``rdtsc`` on x86, a constant
    rate there): a clock read in nanoseconds from compiled code, for timing a search inside
    the kernel as a C++ solver times its own (:func:`cycle_count` calibrates it)."""
    signature = types.int64()

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        function_type = ir.FunctionType(ir.IntType(64), [])
        function = cgutils.get_or_insert_function(
            builder.module, function_type, "llvm.readcyclecounter"
        )
        return builder.call(function, [])

    return signature, codegen


@lean()
def cycle_count() -> int:
    """:func:`cycle_counter` read from Python (0 where the processor has none)."""
    return cycle_counter()  # type: ignore[call-arg]


PREFETCH = "llvm.prefetch.p0"
"""LLVM's prefetch intrinsic on an opaque pointer (the LLVM of numba >= 0.59)."""


@njit(cache=True, inline="always")
def popcount(x):  # type: ignore[no-untyped-def]
    """Set bits of a uint64."""
    return np.int64(_ctpop(x))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def shift(bits, amount):  # type: ignore[no-untyped-def]
    """``bits`` moved ``amount`` places up (negative: down), vacated places empty."""
    if amount >= 0:
        return bits << np.uint64(amount)
    return bits >> np.uint64(-amount)


@njit(cache=True, inline="always")
def winning_cells_4(p, h):  # type: ignore[no-untyped-def]
    """Cells (anywhere, even off the board: mask the result) that would complete a four
    of ``p`` on a board ``h`` cells high (``h`` a uint64)."""
    r = (p << U1) & (p << np.uint64(2)) & (p << np.uint64(3))
    for step in (h + U1, h, h + np.uint64(2)):
        s2 = step + step
        s3 = s2 + step
        pair = (p << step) & (p << s2)
        r |= pair & (p << s3)
        r |= pair & (p >> step)
        pair = (p >> step) & (p >> s2)
        r |= pair & (p << step)
        r |= pair & (p >> s3)
    return r


@lean()
def now() -> float:
    """``time.perf_counter()`` from compiled code, or a negative number once Ctrl-C asked
    the search to stop (:mod:`perfectplay.games.interrupt`). A short trip to the
    interpreter; the first one in a process takes about 0.1 s, so kernels make it while
    warming up."""
    with objmode(t="float64"):
        t = interrupt.clock()
    return t


@njit(cache=True, inline="always")
def past_deadline(nodes, deadline_ns):  # type: ignore[no-untyped-def]
    """True when ``nodes`` is 1 more than a multiple of 4096 (the first node of a search, and
    every 4096 nodes after it) and the clock has reached ``deadline_ns``
    (``time.perf_counter_ns`` units; :data:`NO_DEADLINE` for none), or Ctrl-C was pressed
    (the clock is read even without a deadline, for that)."""
    if (nodes & CLOCK_CHECK_MASK) != 1:
        return False
    return clock_reached(deadline_ns)


@njit(cache=True, inline="always")
def clock_reached(deadline_ns):  # type: ignore[no-untyped-def]
    """True when the clock has reached ``deadline_ns`` (``time.perf_counter_ns`` units;
    :data:`NO_DEADLINE` for none) or Ctrl-C was pressed: the test every node-counted clock
    check of the kernels ends with, read now."""
    t = now()
    return t < 0.0 or (deadline_ns != NO_DEADLINE and t * 1e9 >= deadline_ns)
