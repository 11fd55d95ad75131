"""Compile the engines once before the suite's test processes start (CI's time budget).

numba keeps compiled code on disk, but on a fresh clone every pytest-xdist process that needs
an engine compiles it itself, at the same time as the others: the Gomoku engine alone takes
about 140 s a process on an idle core, far more on a busy machine. The conftest asks
:func:`warm_engines` first, in the controlling process, for a run of the whole suite: the
engines numba's cache lacks are compiled once, spread over one process a core (the longest
compile first), and the test processes then load them from the cache in a fraction of a
second. Nothing is compiled when the cache already holds every engine.

Run as a script, ``python warm_support.py I J ...`` loads the engines of
:func:`perfectplay.api.warm_plan` at positions ``I, J, ...`` (what each warming process does).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

PROGRESS_SECONDS = 30.0
"""How often a line says which engines are still compiling (nothing silent for long)."""


def shares(seconds: Sequence[int], processes: int) -> list[list[int]]:
    """The positions of ``seconds`` (each engine's expected compile time) dealt to at most
    ``processes`` processes, the longest first to the least loaded (each share non-empty)."""
    loads = [0] * max(1, min(processes, len(seconds)))
    dealt: list[list[int]] = [[] for _ in loads]
    for index in sorted(range(len(seconds)), key=lambda i: -seconds[i]):
        lightest = loads.index(min(loads))
        dealt[lightest].append(index)
        loads[lightest] += seconds[index]
    return [share for share in dealt if share]


def warm_engines(say: Callable[[str], None]) -> None:
    """Compile every engine numba's cache lacks, once, in parallel processes, saying what
    it does through ``say`` (a line at the start, every :data:`PROGRESS_SECONDS` and at the
    end). A warming process that fails is reported and left: the tests that need its engine
    compile it themselves and show the failure."""
    from perfectplay import api

    plan = api.warm_plan()
    todo = [i for i, step in enumerate(plan) if step.compiling]
    if not todo:
        return
    groups = shares([plan[i].engine.compile_seconds for i in todo], os.cpu_count() or 1)
    labels = [", ".join(plan[todo[i]].engine.label for i in group) for group in groups]
    say(
        f"compiling {len(todo)} engine(s) once before the tests, in {len(groups)} process(es)"
        " (numba keeps them on disk; a fresh clone only)"
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="perfectplay-warm-") as folder:
        running = {
            label: _start(group_todo, Path(folder) / f"{n}.err")
            for n, (label, group_todo) in enumerate(
                zip(labels, ([todo[i] for i in group] for group in groups), strict=True)
            )
        }
        try:
            _wait(running, started, say)
        finally:
            for process, _ in running.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()


def _start(positions: Sequence[int], errors: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """A process loading the plan's engines at ``positions``, its errors into ``errors``
    (a file: a pipe left unread could fill and stall it)."""
    with errors.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, str(Path(__file__)), *map(str, positions)],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    return process, errors


def _wait(
    running: dict[str, tuple[subprocess.Popen[bytes], Path]],
    started: float,
    say: Callable[[str], None],
) -> None:
    """Wait for the warming processes, saying each one's end and, meanwhile, what is left."""
    next_line = started + PROGRESS_SECONDS
    while running:
        time.sleep(0.2)
        for label, (process, errors) in list(running.items()):
            if process.poll() is None:
                continue
            del running[label]
            seconds = time.monotonic() - started
            if process.returncode == 0:
                say(f"compiled {label} after {seconds:.0f} s")
            else:
                problem = errors.read_text(errors="replace").strip()
                last = problem.splitlines()[-1] if problem else f"exit {process.returncode}"
                say(f"compiling {label} failed after {seconds:.0f} s: {last}")
        if running and time.monotonic() >= next_line:
            next_line += PROGRESS_SECONDS
            say(f"still compiling {'; '.join(running)}: {time.monotonic() - started:.0f} s")


def warm_positions(positions: Sequence[int]) -> None:
    """Load (compiling when needed) the engines at ``positions`` of the warm plan."""
    from perfectplay import api

    plan = api.warm_plan()
    for position in positions:
        api.warm_game(plan[position].game)


if __name__ == "__main__":
    warm_positions([int(argument) for argument in sys.argv[1:]])
