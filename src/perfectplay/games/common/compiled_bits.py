"""Bit primitives of the compiled kernels for gravity boards (numba).

Boards use the column layout of :mod:`perfectplay.games.common.gravity`: ``height + 1`` bits per
column, bit 0 at the bottom, a sentinel bit on top of each column, so that shifting a board by
1 (up), ``height + 1`` (across), ``height`` and ``height + 2`` (the diagonals) never wraps a
line from one column into the next.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic

U0 = np.uint64(0)
U1 = np.uint64(1)
HASH_A = np.uint64(0x9E3779B97F4A7C15)
"""Multiplicative hashing constants (the golden ratio's and another odd 64-bit constant)."""
HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
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
