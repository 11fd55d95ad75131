"""A helper process of a long Connect Four solve (see :mod:`.parallel`): run as
``python -m perfectplay.games.connect4.helper`` with its :class:`~.parallel.HelperTask` as
JSON on standard input; it solves the task's position on the shared table until the caller
stops it (or dies)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.games.connect4.parallel import HelperTask, SharedWords, open_block, rotate_order


def run_helper(task: HelperTask) -> None:
    """A helper's whole life: open the shared blocks, solve, let go (the answer is in the
    table; the caller's solve gives it)."""
    from perfectplay.games.connect4 import compiled as k
    from perfectplay.games.connect4.rules import game
    from perfectplay.games.kernel import KernelOptions
    from perfectplay.processes import die_with_parent

    die_with_parent()  # a caller killed with kill -9 cannot stop its helpers
    book_path = None if task.book_path is None else Path(task.book_path)
    options = KernelOptions(book=task.book, book_path=book_path)
    kernel = game(task.width, task.height, task.k).kernel(options)
    rotate_order(kernel.work, task.width, task.rotation)
    table = SharedWords(task.table_entries, task.table_name)
    stats_block = open_block(task.stats_name, 8 * task.stats_size)
    stats: np.ndarray[Any, Any] = np.ndarray((task.stats_size,), np.int64, stats_block.buf)
    try:
        k.solve(
            np.uint64(task.current), np.uint64(task.mask), task.played, task.weak,
            kernel.work, table.words, stats, kernel.deep,
        )  # fmt: skip
    finally:
        del stats
        stats_block.close()
        table.close()


if __name__ == "__main__":
    run_helper(HelperTask(**json.loads(sys.stdin.read())))
