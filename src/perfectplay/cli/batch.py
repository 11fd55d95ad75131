"""``perfectplay batch``: many positions solved by long-lived workers, on this machine or on
a Ray cluster, into a JSON-lines file that ``--resume`` goes on with.

The input is one position per line (``position`` or ``position score``, as ``solve -``
reads them); every input line gets one output line (:func:`perfectplay.contract.batch_json`),
in the order the answers arrive, each naming its ``index``. A line that cannot be read gets
an output line with its ``error`` and the run goes on. A missing input, an output that is
there without ``--resume``, or an unreachable Ray address is a one-line error (status 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, PROG, stderr
from perfectplay.cli.progress import figure, rate
from perfectplay.cli.warm import compile_first
from perfectplay.errors import quote

if TYPE_CHECKING:
    from rich.progress import Progress

    from perfectplay.api import (
        Answer,
        BatchJob,
        BatchWorkers,
        Journal,
        RegisteredGame,
        ScoredLine,
        Task,
    )

EPILOG = """\
examples:
  perfectplay batch connect4 Test_L2_R2 --out scores.jsonl
  perfectplay batch connect4 Test_L2_R2 --out scores.jsonl --resume     go on after a kill
  perfectplay batch connect4 positions.txt --out a.jsonl --analyze --workers 2
  perfectplay batch connect4 Test_L2_R2 --out r.jsonl --executor ray    a local Ray instance
  perfectplay batch connect4 big.txt --out r.jsonl --executor ray --address HEAD:6379
  perfectplay batch tictactoe boards.txt --out t.jsonl

input: one position per line in the game's notation, optionally followed by its expected
score ('4453 2'); an empty line or '-' is the initial position. '-' reads stdin.
output: one JSON object per input line, written and flushed as each answer arrives:
index (the input line, from 0), position, score, outcome, plies, best_move, exact, weak,
nodes, time_ms, expected (when given), moves (with --analyze); or index, position and
error for a line that could not be read. --resume skips every index already in the output
(a half-written last line is redone; nothing else is rewritten)."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "solve many positions on a process pool or a Ray cluster, resumably"
    sub = options.add_verb(commands, "batch", summary, EPILOG, run)
    sub.add_argument("infile", metavar="INFILE", help="positions, one per line ('-': stdin)")
    sub.add_argument("--out", required=True, metavar="OUT.jsonl", help="where the answers go")
    options.add_size(sub)
    options.add_weak(sub)
    sub.add_argument("--analyze", action="store_true", help="also the value of every move")
    options.add_executor(sub)
    sub.add_argument("--resume", action="store_true", help="go on with OUT: skip what it has")
    sub.add_argument(
        "--order",
        choices=("hardest-first", "input"),
        default="hardest-first",
        help="hand out the positions with most plies left first (default), or in input order",
    )
    options.add_solver(sub)


@dataclass(slots=True)
class BatchInput:
    """The input read: every line's position text, and the lines that read as positions."""

    texts: list[str] = field(default_factory=list)
    lines: dict[int, ScoredLine] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)


@dataclass(slots=True)
class Tally:
    """What the summary line reports."""

    answered: int = 0
    errors: int = 0
    checked: int = 0
    mismatches: int = 0
    nodes: int = 0
    tasks: int = 0
    """Positions handed to the workers (no more workers than that take any)."""
    started: float = field(default_factory=time.perf_counter)
    ready_at: float | None = None
    """When the first worker was ready to take tasks (the clock of ``started``)."""
    last_at: float | None = None
    """When the last answer arrived."""

    def mark_ready(self, _seconds: float) -> None:
        """The executor's note that the first worker is ready."""
        self.ready_at = time.perf_counter()


def run(args: argparse.Namespace) -> int:
    """Read the input, answer what the output lacks, write it line by line (see the module
    docstring); 130 with a note when interrupted (the output is kept for ``--resume``).

    The workers start before the input is read as positions (an INFILE's lines are counted
    first: at most one worker per line; stdin is read after they start), and load the kernel
    meanwhile, while the output is checked and the positions are ordered."""
    from perfectplay import api

    job = make_job(args)
    if not args.resume:
        api.check_new_output(args.out)
    lines = file_lines(args.infile)
    game = job.make_game()
    compile_first(args, game, None, job.options, every_position=True)  # here, not per worker
    tally = Tally()
    at_most = None if lines is None else len(lines)
    with api.BatchWorkers(job, args.executor, args.workers, args.address, at_most) as workers:
        read = read_input(sys.stdin.read().splitlines() if lines is None else lines, job)
        done, tasks = todo(args, game, read)
        tally.tasks = len(tasks)
        status = answer_all(args, workers, (game, read, tasks), done, tally)
    if status == EXIT_OK:
        stderr(f"{PROG}: {summary(args, tally, len(done))}")
    return status


def todo(
    args: argparse.Namespace, game: RegisteredGame, read: BatchInput
) -> tuple[set[int], list[Task]]:
    """The indices already in the output (``--resume``) and the tasks left, in the order
    asked for."""
    from perfectplay import api

    done = api.recover_output(args.out, read.texts) if args.resume else set()
    tasks = [api.Task(i, line.loaded.position) for i, line in read.lines.items() if i not in done]
    if args.order == "hardest-first":
        tasks = api.hardest_first(game, tasks)
    return done, tasks


def answer_all(
    args: argparse.Namespace,
    workers: BatchWorkers,
    work: tuple[RegisteredGame, BatchInput, list[Task]],
    done: set[int],
    tally: Tally,
) -> int:
    """Write the error lines and every answer to the output; the exit status (130 with a
    note when interrupted, the output kept for ``--resume``; 1 when a worker was lost)."""
    from perfectplay import api

    with api.output_journal(args.out) as journal:
        write_errors(journal, work[1], done, tally)
        try:
            solve_all(workers, work, journal, tally)
        except KeyboardInterrupt:
            stderr(f"\n{PROG}: interrupted: {summary(args, tally, len(done))}")
            stderr(f"{PROG}: the answers so far are in {args.out}; --resume goes on")
            return EXIT_INTERRUPTED
        except api.WorkerLost as exc:
            stderr(f"{PROG}: error: {exc}; the answers so far are in {args.out}, --resume goes on")
            return EXIT_INTERNAL
    return EXIT_OK


def make_job(args: argparse.Namespace) -> BatchJob:
    """The checked job of the command line's options."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    options.kit(args)
    if args.eval is not None:
        raise ParameterError("--eval: batch solves exactly; it takes no heuristic")
    options.check_executor(args)
    return api.batch_job(
        args.game,
        size=args.size,
        k=args.k,
        weak=args.weak,
        analyze=args.analyze,
        options=options.kernel_options(args),
    )


def read_input(lines: list[str], job: BatchJob) -> BatchInput:
    """Every line of the input read as a position; a line that does not keeps its error."""
    from perfectplay import api
    from perfectplay.errors import PerfectplayError

    read = BatchInput()
    for index, raw in enumerate(lines):
        try:
            line = api.batch_line(job, raw, index + 1)
        except PerfectplayError as exc:
            read.texts.append(raw.rstrip("\r\n").strip())
            read.errors[index] = str(exc)
            continue
        read.texts.append(line.text)
        read.lines[index] = line
    return read


def file_lines(infile: str) -> list[str] | None:
    """The lines of INFILE (``None`` for '-', stdin, read later); :class:`ParameterError`
    when it cannot be read."""
    from perfectplay.errors import ParameterError

    if infile == "-":
        return None
    try:
        with open(infile, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise ParameterError(f"INFILE {quote(infile)}: cannot be read ({reason})") from None


def write_errors(journal: Journal, read: BatchInput, done: set[int], tally: Tally) -> None:
    """An output line for each unreadable input line not yet in the output."""
    from perfectplay import contract

    for index, error in read.errors.items():
        if index not in done:
            journal.write(json.dumps(contract.batch_error_json(index, read.texts[index], error)))
            tally.errors += 1


def solve_all(
    workers: BatchWorkers,
    work: tuple[RegisteredGame, BatchInput, list[Task]],
    journal: Journal,
    tally: Tally,
) -> None:
    """Answer every task on ``workers``, writing each answer as it arrives, with a progress
    bar on a terminal."""
    game, read, tasks = work
    found = workers.answers(tasks, on_ready=tally.mark_ready)
    with progress_bar(len(tasks)) as bar, closing(found):
        for answer in found:
            write_answer(journal, game, read, answer, tally)
            if bar is not None:
                bar.advance(bar.task_ids[0])


def write_answer(
    journal: Journal, game: RegisteredGame, read: BatchInput, answer: Answer, tally: Tally
) -> None:
    """Write one answer's line and count it."""
    from perfectplay import contract

    line = read.lines[answer.index]
    data = contract.batch_json(game, line.text, line.loaded.position, answer, line.expected)
    journal.write(json.dumps(data))
    tally.answered += 1
    tally.nodes += answer.nodes
    tally.last_at = time.perf_counter()
    if "error" in data:
        tally.errors += 1
    elif line.expected is not None:
        tally.checked += 1
        wanted = line.expected
        if data["weak"]:
            wanted = (wanted > 0) - (wanted < 0)
        tally.mismatches += data["score"] != wanted


def progress_bar(total: int) -> Any:
    """A rich progress bar with rate and ETA on stderr when it is a terminal, else a context
    that gives ``None``."""
    from contextlib import nullcontext

    if not sys.stderr.isatty() or not total:
        return nullcontext(None)
    return _bar(total)


def _bar(total: int) -> Any:
    """The progress bar of :func:`progress_bar`."""
    from contextlib import contextmanager

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    from perfectplay.cli.output import console

    class Rate(ProgressColumn):
        """Positions answered per second, once there is a rate."""

        def render(self, task: Any) -> Text:
            return Text(f"{figure(task.speed)} positions/s" if task.speed else "")

    @contextmanager
    def shown() -> Any:
        bar: Progress = RichProgress(
            TextColumn("batch"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            Rate(),
            TimeRemainingColumn(),
            console=console(on_stderr=True),
            transient=True,
        )
        with bar:
            bar.add_task("batch", total=total)
            yield bar

    return shown()


def summary(args: argparse.Namespace, tally: Tally, skipped: int) -> str:
    """``150 positions in 2.41 s (local, 2 workers; ready after 0.82 s, answering 0.64 s):
    236 positions/s, 10.2 M nodes/s, ...``: the rates count the answering time only, from
    the moment the first worker was ready to the last answer."""
    seconds = time.perf_counter() - tally.started
    workers = worker_count(args, tally.tasks)
    text = f"{plural(tally.answered, 'position')} in {seconds:.2f} s ({args.executor}, {workers}"
    if tally.ready_at is not None and tally.last_at is not None:
        answering = max(1e-9, tally.last_at - tally.ready_at)
        text += (
            f"; ready after {tally.ready_at - tally.started:.2f} s, answering "
            f"{answering:.2f} s): {figure(tally.answered / answering)} positions/s"
            f"{rate(tally.nodes, answering)}"
        )
    else:
        text += ")"
    if tally.errors:
        text += f", {plural(tally.errors, 'error line')}"
    if tally.checked:
        text += f", {tally.mismatches} mismatches in {tally.checked} expected scores"
    if skipped:
        text += f", {skipped} already in {args.out}"
    return text


def worker_count(args: argparse.Namespace, tasks: int) -> str:
    """``2 workers`` (the local pool starts at most one per task); ``a worker per CPU`` for
    a Ray cluster left to choose."""
    from perfectplay import api

    if args.executor == "local":
        wanted = api.default_workers() if args.workers is None else args.workers
        return plural(min(wanted, tasks) if tasks else wanted, "worker")
    if args.workers is not None:
        return plural(args.workers, "worker")
    return "a worker per CPU"


def plural(count: int, noun: str) -> str:
    """``1 worker``, ``2 workers``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
