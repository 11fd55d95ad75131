"""Shared test set-up: make ``tests/`` importable so that tests can use ``reference``, and
check at the end that the run left no process behind (issue 15, item 9: a pytest run once
left an engine worker computing for minutes)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

TESTS_DIR = str(Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)

GRACE_SECONDS = 5.0
"""How long processes the tests started may take to exit after the last test."""


def session_processes() -> dict[int, str]:
    """The live processes of this terminal session other than this one: pid -> command line
    (zombies, already dead, are left out)."""
    found: dict[int, str] = {}
    mine = os.getsid(0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            state = stat.rsplit(")", 1)[1].split()[0]
            if os.getsid(int(entry.name)) != mine or state == "Z":
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):  # gone meanwhile, or not ours to read
            continue
        found[int(entry.name)] = command.strip()
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    """Note the processes that were there before the tests."""
    session.config.stash[BEFORE] = set(session_processes())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when processes it started are still alive after a grace period."""
    if not Path("/proc").is_dir():
        return
    before = session.config.stash.get(BEFORE, set())
    deadline = time.monotonic() + GRACE_SECONDS
    left = {pid: cmd for pid, cmd in session_processes().items() if pid not in before}
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {pid: cmd for pid, cmd in session_processes().items() if pid not in before}
    if left:
        listing = "; ".join(f"{pid}: {cmd[:120]}" for pid, cmd in sorted(left.items()))
        sys.stderr.write(f"\nthe tests left processes behind: {listing}\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


BEFORE = pytest.StashKey[set[int]]()
"""The processes alive when the session started."""
