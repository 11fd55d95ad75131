"""Shared test set-up: make ``tests/`` importable so that tests can use ``reference``, and
check at the end that the run left no process behind (issue 15, item 9: a pytest run once
left an engine worker computing for minutes)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

TESTS_DIR = str(Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)

from warm_support import warm_engines  # noqa: E402  (importable once TESTS_DIR is on the path)

GRACE_SECONDS = 5.0
"""How long processes the tests started may take to exit after the last test."""


RUN_MARK = "PERFECTPLAY_TEST_RUN"
"""The environment variable that marks the processes this test run started: children inherit
it, so a process is ours exactly when its environment carries this run's value (processes
that a CI harness starts in the same terminal session meanwhile are not)."""


RESOURCE_TRACKER = "from multiprocessing.resource_tracker import main"
"""The command line of the process that :mod:`multiprocessing` starts once, for good, when
this process first starts workers by ``spawn`` (the batch tests): it exits when we do."""


def started_by_this_run() -> dict[int, str]:
    """The live processes that carry this run's mark, other than this one: pid -> command
    line (zombies, already dead, and exiting processes, whose environment is gone, are left
    out)."""
    found: dict[int, str] = {}
    mark = f"{RUN_MARK}={os.environ.get(RUN_MARK, '')}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            state = stat.rsplit(")", 1)[1].split()[0]
            if state in ("Z", "X") or mark not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):  # gone meanwhile, or not ours to read
            continue
        if RESOURCE_TRACKER in command and stat.rsplit(")", 1)[1].split()[1] == str(os.getpid()):
            continue  # multiprocessing's helper of this very process: it ends with it
        found[int(entry.name)] = command.strip()
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    """Mark the processes the tests will start, and note any already carrying the mark; give
    the run a data folder of its own (the web's default database, which ``tournament``
    writes to without ``--db``, is never the user's). A run of the whole suite first compiles
    the engines numba's cache lacks, once, in the controlling process (:mod:`warm_support`):
    otherwise every test process would compile each of them."""
    if not hasattr(session.config, "workerinput") and not session.config.option.file_or_dir:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        warm_engines(reporter.write_line if reporter is not None else print)
    os.environ[RUN_MARK] = f"{os.getpid()}-{time.time_ns()}"
    session.config.stash[DATA] = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(
        prefix="perfectplay-test-data-"
    )
    session.config.stash[BEFORE] = set(started_by_this_run())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when processes it started are still alive after a grace period; remove
    the run's data folder."""
    if DATA in session.config.stash:
        shutil.rmtree(session.config.stash[DATA], ignore_errors=True)
    if not Path("/proc").is_dir():
        return
    before = session.config.stash.get(BEFORE, set())
    deadline = time.monotonic() + GRACE_SECONDS
    left = {pid: cmd for pid, cmd in started_by_this_run().items() if pid not in before}
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {pid: cmd for pid, cmd in started_by_this_run().items() if pid not in before}
    if left:
        listing = "; ".join(f"{pid}: {cmd[:120]}" for pid, cmd in sorted(left.items()))
        sys.stderr.write(f"\nthe tests left processes behind: {listing}\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def compiled_engines() -> None:
    """Every compiled engine loaded before the first test, compiled first on a fresh checkout
    (numba's cache lives beside the sources: a new clone starts cold). Tests that check
    what a command prints (nothing on stderr, no "compiling" notice) or a web answer within
    its cap then find the engines ready, in whichever order and process they run (the
    suite runs in two processes, pytest-xdist). The cold start itself is tested with a cache
    folder of its own (tests/test_warm.py, tests/test_cold_start.py)."""
    from perfectplay import api

    api.warm()


BEFORE = pytest.StashKey[set[int]]()
"""The processes alive when the session started."""
DATA = pytest.StashKey[str]()
"""The run's own data folder (``XDG_DATA_HOME``)."""
