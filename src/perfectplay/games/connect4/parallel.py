"""Helper processes for long Connect Four solves: more cores on one shared table ("lazy SMP").

A solve that is still running after :data:`HELPER_DELAY` seconds starts helpers: processes
that solve the same position with the same null-window bisection, on the same table, each
trying equally promising moves in its own column order. Whatever one of them proves lands in
the table, where the others find it; the caller's own solve gives the answer, and the
helpers are stopped as it returns (also after a deadline, an exception or Ctrl-C).

::

    caller process                         helper process (spawned, one per extra core)
    ┌──────────────────────────┐           ┌──────────────────────────┐
    │ solve(position)          │           │ solve(position)          │
    │  work: centre first      │           │  work: columns rotated   │
    │  stats: its own          │  shared   │  stats ─ shared block ───┼── BUDGET = 0 stops it
    └──────────┬───────────────┘  memory   └──────────┬───────────────┘
               └──────────── table (one word a slot) ─┘

Sharing is safe because a slot is one aligned 64-bit word (:mod:`compiled`'s layout): a
write is never torn, and a slot whose key bits do not match is simply not used. A helper
needs a second or two to start (Python, numba's cached code, the books), which is why short
solves never start one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from multiprocessing import shared_memory
from typing import Any

import numpy as np

HELPER_DELAY = 1.0
"""Seconds a solve runs alone before it starts helpers."""
HELPER_MODULE = "perfectplay.games.connect4.helper"
"""The module a helper process runs (its task as JSON on standard input)."""
STOP_WAIT = 2.0
"""Seconds a stopped helper gets to leave before it is terminated."""


class SharedWords:
    """A ``uint64`` array in a block of shared memory that helper processes can open by
    name; the block is released when the owner is closed (or collected)."""

    def __init__(self, count: int, name: str | None = None) -> None:
        size = max(8, 8 * count)
        self.block = open_block(name, size)
        self.owner = name is None
        self.words: np.ndarray[Any, Any] = np.ndarray((count,), np.uint64, self.block.buf)

    @property
    def name(self) -> str:
        """The block's name, for :class:`SharedWords` in another process."""
        return str(self.block.name)

    def close(self) -> None:
        """Let go of the block, and in its owner free its name at once (the memory goes when
        the last view of it, here or in a helper, goes)."""
        if self.owner:
            self.owner = False
            self.block.unlink()
        self.words = np.zeros(0, dtype=np.uint64)
        with suppress(BufferError):  # a view still held elsewhere keeps the mapping
            self.block.close()

    def __del__(self) -> None:
        with suppress(FileNotFoundError, OSError):
            self.close()


def open_block(name: str | None, size: int) -> shared_memory.SharedMemory:
    """A new block of ``size`` bytes (``name`` None), or the block of that name. Before
    Python 3.13 opening a block registers it with this process's resource tracker, which
    would remove it when this process ends: a helper must not free its caller's table."""
    if name is None:
        return shared_memory.SharedMemory(create=True, size=size)
    block = shared_memory.SharedMemory(name=name)
    if sys.version_info < (3, 13):
        from multiprocessing import resource_tracker

        resource_tracker.unregister(f"/{block.name}", "shared_memory")
    return block


@dataclass(frozen=True)
class HelperTask:
    """What a helper needs: the board, the book switches, the shared table and stats blocks,
    the position and the column order it tries equal moves in."""

    width: int
    height: int
    k: int
    book: bool
    book_path: str | None
    table_name: str
    table_entries: int
    stats_name: str
    stats_size: int
    current: int
    mask: int
    played: int
    weak: bool
    rotation: int


def rotate_order(work: np.ndarray[Any, Any], width: int, rotation: int) -> None:
    """Rotate the centre-first column order in ``work`` by ``rotation`` places, so that a
    helper breaks ties between equally promising moves in another order."""
    from perfectplay.games.connect4.compiled import ORDER

    order = list(work[ORDER : ORDER + width])
    turn = rotation % width
    work[ORDER : ORDER + width] = order[turn:] + order[:turn]


@contextmanager
def helping(count: int, task: dict[str, Any], stats: np.ndarray[Any, Any]) -> Iterator[None]:
    """Run ``count`` helpers on ``task`` (the fields of :class:`HelperTask` but the stats
    block and the rotation) while the body runs; each gets a copy of ``stats`` (epoch and
    hash shift) in shared memory, and is stopped through it when the body ends."""
    from perfectplay.games.common.compiled_bits import NO_DEADLINE
    from perfectplay.games.connect4.compiled import BUDGET, DEADLINE, NODES
    from perfectplay.values import UNLIMITED_NODES

    blocks: list[shared_memory.SharedMemory] = []
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for rotation in range(1, count + 1):
            block = shared_memory.SharedMemory(create=True, size=stats.nbytes)
            blocks.append(block)
            shared: np.ndarray[Any, Any] = np.ndarray(stats.shape, np.int64, block.buf)
            shared[:] = stats
            shared[NODES], shared[BUDGET], shared[DEADLINE] = 0, UNLIMITED_NODES, NO_DEADLINE
            del shared
            helper = HelperTask(
                **task, stats_name=block.name, stats_size=len(stats), rotation=rotation
            )
            processes.append(start_helper(helper))
        yield
    finally:
        stop(blocks, processes)


def start_helper(task: HelperTask) -> subprocess.Popen[bytes]:
    """A helper process running this module with ``task`` as JSON on its standard input (a
    fresh interpreter: the caller's main module is never imported again, as a
    ``multiprocessing`` spawn would)."""
    process = subprocess.Popen(
        [sys.executable, "-m", HELPER_MODULE],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C reaches the caller, which stops its helpers
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps(asdict(task)).encode())
    process.stdin.close()
    return process


def stop(
    blocks: list[shared_memory.SharedMemory], processes: list[subprocess.Popen[bytes]]
) -> None:
    """Stop every helper (a budget of 0 makes its search unwind at the next node), wait for
    it a little, terminate it if it lingers, and free the stats blocks."""
    from perfectplay.games.connect4.compiled import BUDGET

    for block in blocks:
        shared: np.ndarray[Any, Any] = np.ndarray((BUDGET + 1,), np.int64, block.buf)
        shared[BUDGET] = -1
        del shared
    ends = time.monotonic() + STOP_WAIT
    for process in processes:
        try:
            process.wait(max(0.0, ends - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for block in blocks:
        block.close()
        block.unlink()
