"""Helper processes on a shared table (``KernelOptions.helpers``): the same scores, and nothing
left behind — no process, no shared memory block — whether the solve ends, runs out of time
or is given up."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from perfectplay import api
from perfectplay.games.connect4 import kernel as kernel_module
from perfectplay.games.connect4.rules import game

STANDARD = game()
SHM = Path("/dev/shm")
# begin-hard positions (Pons' set): a few tenths of a second alone, without books
POSITIONS = {"3246313": -2, "573154743": 2}
LONG = "13712"  # seconds without books


def blocks() -> set[str]:
    """The shared memory blocks of this machine (POSIX shared memory lives in /dev/shm)."""
    return {path.name for path in SHM.iterdir()} if SHM.is_dir() else set()


def helper_processes() -> list[int]:
    """Pids of running helper processes started by this test process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = next(line for line in status.splitlines() if line.startswith("PPid:"))
        if int(parent.split()[1]) == os.getpid() and b"connect4.parallel" in command:
            found.append(int(entry.name))
    return found


@pytest.fixture
def quick_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Helpers join after 50 ms instead of a second, so that short solves use them."""
    monkeypatch.setattr(kernel_module, "HELPER_DELAY", 0.05)


@pytest.mark.usefixtures("quick_helpers")
@pytest.mark.parametrize(("moves", "score"), POSITIONS.items())
def test_helpers_give_the_same_scores_and_leave_nothing_behind(moves: str, score: int) -> None:
    before = blocks()
    options = api.kernel_options(book=False, table_bits=20, helpers=1)
    kernel = STANDARD.kernel(options)
    table = kernel.new_table(1 << 20)
    assert table.shared is not None and table.shared.name.lstrip("/") in blocks()
    position = api.load("connect4", moves)[1]
    solved = kernel.solve(position, table)
    alone = STANDARD.kernel(api.kernel_options(book=False)).solve(
        position, STANDARD.kernel().new_table(1 << 20)
    )
    assert solved.score == alone.score == score and not solved.aborted
    assert helper_processes() == []
    del table
    assert blocks() <= before  # the table's block is gone with the table


@pytest.mark.usefixtures("quick_helpers")
def test_a_deadline_stops_the_helpers_with_the_solve() -> None:
    kernel = STANDARD.kernel(api.kernel_options(book=False, table_bits=20, helpers=1))
    table = kernel.new_table(1 << 20)
    position = api.load("connect4", LONG)[1]
    started = time.perf_counter()
    solved = kernel.solve(position, table, deadline=started + 1.0)
    assert solved.aborted
    assert time.perf_counter() - started < 1.0 + 2.5  # the helper is told to stop at once
    assert helper_processes() == []


def test_no_helpers_no_shared_memory() -> None:
    kernel = STANDARD.kernel(api.kernel_options(book=False, table_bits=20))
    assert kernel.new_table(1 << 20).shared is None


def test_helpers_are_checked() -> None:
    with pytest.raises(api.PerfectplayError, match="--helpers 64: must be a whole number"):
        api.kernel_options(helpers=64)
    with pytest.raises(api.PerfectplayError, match="--helpers True"):
        api.kernel_options(helpers=True)
