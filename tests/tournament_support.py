"""What the tournament tests share: the bots' folder and a look for leftover processes."""

from __future__ import annotations

import os
from pathlib import Path

BOTS = Path(__file__).resolve().parent / "tournament_bots"
MARKS = ("perfectplay.jobs.sandbox", "perfectplay.adapters.bot_runner", "tournament_bots")
"""Words in the command line of any process a tournament starts for an outside bot."""
RUN_MARK = "PERFECTPLAY_TEST_RUN"
"""conftest.py's mark of the processes of this test run (a plain import of conftest could
find tests/web's)."""


def bot(name: str) -> str:
    """The path of a test bot."""
    return str(BOTS / name)


def bot_processes() -> list[str]:
    """Command lines of live processes started for outside bots by this test run (zombies
    left out; the sandbox passes the run's mark, ``PERFECTPLAY_TEST_RUN``, on to the bots:
    another run's tournaments on the same machine are not ours)."""
    run = f"{RUN_MARK}={os.environ.get(RUN_MARK, '')}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            ours = run in (entry / "environ").read_bytes().split(b"\0")
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X") and ours and any(mark in command for mark in MARKS):
            found.append(f"{entry.name}: {command[:150]}")
    return found


def sandbox_folders() -> set[str]:
    """The sandbox folders in the temporary directory now."""
    import tempfile

    return {p.name for p in Path(tempfile.gettempdir()).glob("perfectplay-bot-*")}
