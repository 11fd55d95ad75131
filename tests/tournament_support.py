"""What the tournament tests share: the bots' folder and a look for leftover processes."""

from __future__ import annotations

from pathlib import Path

BOTS = Path(__file__).resolve().parent / "tournament_bots"
MARKS = ("perfectplay.jobs.sandbox", "perfectplay.adapters.bot_runner", "tournament_bots")
"""Words in the command line of any process a tournament starts for an outside bot."""


def bot(name: str) -> str:
    """The path of a test bot."""
    return str(BOTS / name)


def bot_processes() -> list[str]:
    """Command lines of live processes started for outside bots (zombies left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X") and any(mark in command for mark in MARKS):
            found.append(f"{entry.name}: {command[:150]}")
    return found


def sandbox_folders() -> set[str]:
    """The sandbox folders in the temporary directory now."""
    import tempfile

    return {p.name for p in Path(tempfile.gettempdir()).glob("perfectplay-bot-*")}
