"""One worker of a batch job: the game, its compiled kernel and its transposition table,
made once when the worker starts and kept across every task it is given.

Keeping the table is what makes long-lived workers pay: positions of one collection share
sub-trees, and a later task finds what an earlier one proved. Exact values do not depend on
what the table holds, so the answers are those of a fresh solve; node counts do depend on it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from perfectplay.errors import PerfectplayError
from perfectplay.games.registry import kit_of
from perfectplay.jobs.tasks import Answer, BatchJob, Task
from perfectplay.search.limits import EXACT
from perfectplay.search.solver import Searcher, SearchOptions, analyze_with


@contextmanager
def blas_probe_skipped() -> Iterator[None]:
    """While numba loads its CPU target in a worker: its search for a BLAS imports SciPy's
    linear algebra when SciPy is installed (not a dependency of ours), 0.2 s of a worker's
    start-up on a quiet machine and 0.6 s on a busy one, for ``np.dot`` and the like, which
    no kernel uses. ``scipy`` is marked absent in ``sys.modules`` for that time only, so the
    import fails at once; the mark is taken away after, and a plug-in game's own import of
    SciPy (made before, with the game, or later) is left alone."""
    if "scipy" in sys.modules:
        yield
        return
    sys.modules["scipy"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.modules.get("scipy", 0) is None:
            del sys.modules["scipy"]


class Worker:
    """A job's game and searcher, made once; :meth:`answer` answers one task at a time."""

    def __init__(self, job: BatchJob) -> None:
        self.job = job
        self.game: Any = job.make_game()
        self.searcher = Searcher(self.game, SearchOptions(kernel=job.options))
        # compile or load the kernel once, before any task; the table's memory is left to
        # be faulted in as searches reach it (touching all of it first cost 0.5-0.8 s of
        # each worker's start-up, more than small jobs ever use of it)
        with blas_probe_skipped():
            self.searcher.warm_up()
        self.pid = os.getpid()

    def answer(self, task: Task) -> Answer:
        """The answer to ``task``; a position the search refuses gets an answer with its
        error, so that one bad position never stops a job."""
        started = time.perf_counter()
        try:
            answer = self._compute(task)
        except PerfectplayError as exc:
            answer = Answer(task.index, error=str(exc))
        return replace(answer, seconds=time.perf_counter() - started, worker=self.pid)

    def answer_all(self, tasks: list[Task]) -> list[Answer]:
        """The answers to a chunk of tasks, in order."""
        return [self.answer(task) for task in tasks]

    def _compute(self, task: Task) -> Answer:
        """The answer's content, for the job's kind."""
        job, searcher, position = self.job, self.searcher, task.position
        if job.kind == "book":
            game_kit = kit_of(self.game)
            key = game_kit.book_key(self.game, position)
            score = game_kit.book_score(self.game, searcher.kernel, searcher.table, position)
            return Answer(task.index, entry=(key, score))
        # the lean paths Engine.solve takes: a short solve in one compiled call
        result = searcher.weak_exact(position) if job.weak else searcher.exact(position, False)
        values = None
        if job.analyze:
            values = tuple(analyze_with(searcher, position, EXACT, weak=job.weak))
        return Answer(task.index, result=result, values=values)
