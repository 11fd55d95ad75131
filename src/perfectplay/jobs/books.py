"""Opening books built through the batch executors, checkpointed as they go.

A book of depth D holds every position with D stones (one of each mirror pair, as the game's
kit plans them) with its exact score. Each position is a task; each answer is appended to a
checkpoint beside the book (``BOOK.partial``, JSON lines ``{"index", "position": key,
"score"}``), so a killed build resumed with ``resume=True`` solves only what is missing.
When every position is answered, the book is written whole (a temporary file, then a
rename) and the checkpoint removed.
"""

from __future__ import annotations

import json
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfectplay.errors import ParameterError, quote
from perfectplay.games.kit import BookProgress
from perfectplay.games.registry import kit_of
from perfectplay.jobs.journal import Journal, recover
from perfectplay.jobs.run import answers
from perfectplay.jobs.tasks import BatchJob, Executor, Task, WorkerLost


@dataclass(frozen=True, slots=True)
class BookBuild:
    """What a book build did: the book's positions, how many this run solved (the rest came
    from a killed build's checkpoint), and this run's seconds."""

    positions: int
    solved: int
    seconds: float


CHECKPOINT_SUFFIX = ".partial"


def checkpoint_of(out: Path) -> Path:
    """Where the build of the book ``out`` keeps its answers until it is done."""
    return out.with_name(out.name + CHECKPOINT_SUFFIX)


def build_book(
    job: BatchJob,
    depth: int,
    out: Path,
    *,
    executor: Executor = "local",
    workers: int | None = None,
    address: str | None = None,
    resume: bool = False,
    progress: BookProgress | None = None,
) -> BookBuild:
    """Build the book of ``depth`` for ``job``'s game with the executor's workers and write
    it to exactly ``out``. Raises :class:`ParameterError` when a
    checkpoint is there and ``resume`` is false, or the files cannot be written."""
    game = job.make_game()
    game_kit = kit_of(game)
    positions = game_kit.book_positions(game, depth)
    keys = [game_kit.book_key(game, position) for position in positions]
    check_paths(out, resume)
    checkpoint = checkpoint_of(out)
    scores = {
        index: line["score"] for index, line in recover(checkpoint, [str(k) for k in keys]).items()
    }
    todo = [Task(i, positions[i]) for i in range(len(positions)) if i not in scores]
    started = time.perf_counter()
    with (
        Journal(checkpoint) as journal,
        closing(answers(job, todo, executor, workers, address)) as found,
    ):
        for answer in found:
            if answer.entry is None:
                raise WorkerLost(f"book position {answer.index + 1}: {answer.error}")
            key, score = answer.entry
            journal.write(json.dumps({"index": answer.index, "position": str(key), "score": score}))
            scores[answer.index] = score
            if progress is not None:
                progress(len(scores), len(positions), time.perf_counter() - started)
    game_kit.save_book(game, depth, keys, [_score(scores[i]) for i in range(len(keys))], out)
    checkpoint.unlink()
    return BookBuild(len(keys), len(todo), time.perf_counter() - started)


def check_paths(out: Path, resume: bool) -> None:
    """Raise :class:`ParameterError` when the book cannot be written where asked, or a
    killed build's checkpoint is there and ``resume`` is false."""
    shown = quote(str(out), 200)
    if not out.name or "\x00" in str(out) or not out.parent.is_dir():
        raise ParameterError(f"opening book {shown}: cannot write it (no such folder)")
    checkpoint = checkpoint_of(out)
    try:  # the system may refuse a name, e.g. one too long (with its suffix or without)
        odd_target = out.exists() and not out.is_file()
        there = checkpoint.exists()
    except OSError as exc:
        raise ParameterError(f"opening book {shown}: cannot write it ({exc.strerror})") from None
    if odd_target:  # a device or a folder is never replaced
        raise ParameterError(f"opening book {shown}: not a regular file")
    if there and not resume:
        raise ParameterError(
            f"opening book {shown}: {checkpoint.name} holds a killed build's answers; "
            "pass --resume to go on with them, or remove it"
        )


def _score(value: Any) -> int:
    """A score read back from the checkpoint."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(f"book checkpoint: score {quote(value)} is not a whole number")
    return value
