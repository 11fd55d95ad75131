"""Several threads searching one Connect Four position on one table: the exact solver on
every core (``kernel_options(threads=N)``, ``--threads N``).

Each null-window probe of the solver's bisection runs on ``N`` threads at once, all on the
same window. The compiled search (:func:`perfectplay.games.connect4.compiled.negamax`)
releases the GIL; each thread has its own scratch ``work`` and ``stats`` arrays and shares
the table, where every thread reads what the others proved (a slot is one 64-bit word,
written and read whole), and the table's ``marks``, where a thread marks the positions of
fewer than :data:`~perfectplay.games.connect4.compiled.SHARED_PLIES` stones it is searching.
A thread coming to a sibling that another thread is searching leaves it until its other
moves are done (the idea of ABDADA: threads that would search the same subtree spread over
different ones instead). Where every move of a node must be searched, the threads split
them; where the first move refutes the node, they all search it and share its proof.

The first thread to finish has the window's answer (each bound it read from the table was
proved by some thread), and stops the others through their budgets: a stopped search
unwinds at once and writes nothing more. Measured on two cores (BENCHMARKS.md): the empty
board without a book in 0.59x the time of one thread; ``4444`` and ``444`` in 0.60-0.64x.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from perfectplay.games.interrupt import deadline_ns

if TYPE_CHECKING:
    from perfectplay.games.connect4.kernel import Connect4Table


class SharedProbe:
    """Null-window searches of ``threads`` threads on one ``table``, within a node
    ``budget`` (shared evenly among them: the search is aborted when every thread has
    spent its share) and a ``deadline`` (``time.perf_counter`` seconds, ``None``: none).

    Use it as a context manager: leaving it returns the table to searches by one thread.
    """

    def __init__(
        self,
        work: np.ndarray[Any, Any],
        deep: np.ndarray[Any, Any],
        table: Connect4Table,
        threads: int,
        deadline: float | None,
    ) -> None:
        self.table = table
        self.deep = deep
        self.deadline = deadline_ns(deadline)
        self.works = [work] + [work.copy() for _ in range(threads - 1)]
        self.stats = [table.stats] + [table.stats.copy() for _ in range(threads - 1)]

    def __enter__(self) -> SharedProbe:
        return self

    def __exit__(self, *exc: object) -> None:
        from perfectplay.games.connect4.compiled import SHARED

        self.table.stats[SHARED] = 0

    def search(
        self, current: np.uint64, mask: np.uint64, played: int, window: int, budget: int
    ) -> tuple[int, int, bool]:
        """One null-window search ``(window, window + 1)`` by every thread, within
        ``budget`` nodes in all: a :data:`~perfectplay.games.connect4.kernel.Probe`."""
        from perfectplay.games.connect4 import compiled as k

        self.table.marks.fill(0)  # a stopped thread leaves its marks behind
        share = max(1, budget // len(self.stats))
        for stats in self.stats:
            stats[[k.NODES, k.BUDGET, k.HORIZON, k.DEADLINE, k.SHARED]] = [
                0, share, 0, self.deadline, k.SHARED_PLIES,
            ]  # fmt: skip
        answers: list[int] = []

        def run(index: int) -> None:
            stats = self.stats[index]
            result = k.negamax(
                current, mask, played, window, window + 1,
                self.works[index], self.table.slots, stats, self.deep, self.table.marks,
            )  # fmt: skip
            if stats[k.NODES] <= stats[k.BUDGET]:
                answers.append(int(result))
                for other in self.stats:  # stop the others: at their next node
                    other[k.BUDGET] = 0
                    other[k.DEADLINE] = 0

        helpers = [threading.Thread(target=run, args=(i,)) for i in range(1, len(self.stats))]
        for helper in helpers:
            helper.start()
        run(0)
        for helper in helpers:
            helper.join()
        nodes = sum(int(stats[k.NODES]) for stats in self.stats)
        return (answers[0], nodes, False) if answers else (0, nodes, True)
