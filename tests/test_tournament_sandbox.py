"""Issue 29: what the sandbox of outside bots enforces on this machine, measured with small
commands (docs/tournaments.md's table)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from tournament_support import bot_processes

from perfectplay.jobs.sandbox import Limits, Sandbox, SandboxEnded, probe

ISOLATED = probe().network == "none"
isolated = pytest.mark.skipif(not ISOLATED, reason="no namespaces for the sandbox here")


def output(
    code: str, limits: Limits | None = None, wait: float = 5.0
) -> tuple[list[str], int | None]:
    """The lines a Python snippet prints in a sandbox, and its exit status."""
    sandbox = Sandbox(["python3", "-c", code], limits or Limits())
    lines: list[str] = []
    try:
        while (line := sandbox.receive(wait)) is not None:
            lines.append(line)
    except SandboxEnded:
        pass
    status = sandbox.exit_status(wait=2.0)
    sandbox.close()
    return lines, status


@isolated
def test_no_network() -> None:
    code = "import socket\ntry:\n socket.create_connection(('1.1.1.1', 80), timeout=1)\n"
    code += "except OSError as e:\n print(e.errno)"
    lines, _ = output(code)
    assert lines == ["101"]  # ENETUNREACH


@isolated
def test_files_are_read_only_but_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "outside"
    code = f"import os\nfor p in ({str(target)!r}, '/tmp/pp-sandbox-x', 'inside'):\n"
    code += " try:\n  open(p, 'w').close(); print('wrote', p)\n except OSError as e: print(e.errno)"
    lines, _ = output(code)
    assert lines == ["30", "30", "wrote inside"]  # EROFS twice
    assert not target.exists()


@isolated
def test_own_processes_and_no_capabilities() -> None:
    code = "import os\nprint(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n"
    code += "print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])"
    lines, _ = output(code)
    assert lines == ["[1, 2]", "0000000000000000"]


def test_cpu_limit_ends_a_busy_loop_with_sigxcpu() -> None:
    started = time.monotonic()
    _, status = output("while True: pass", Limits(cpu_seconds=1))
    assert status == 128 + signal.SIGXCPU
    assert time.monotonic() - started < 10


def test_memory_limit_raises_memory_error() -> None:
    code = "h = []\ntry:\n while True: h.append(bytearray(1 << 24))\n"
    code += "except MemoryError:\n print(len(h) * 16)"
    lines, _ = output(code, Limits(memory_mb=256))
    assert lines and 128 <= int(lines[0]) <= 256


@isolated
def test_close_kills_what_the_bot_started_even_in_a_new_session() -> None:
    code = "import os, time\nif os.fork() == 0:\n os.setsid()\n time.sleep(60)\n"
    code += "print('ready', flush=True)\ntime.sleep(60)"
    sandbox = Sandbox(["python3", "-c", code, "tournament_bots-marker"])
    assert sandbox.receive(5) == "ready"
    assert len(bot_processes()) >= 3  # the confiner, process 1, the bot and its child
    sandbox.close()
    for _ in range(50):
        if not bot_processes():
            break
        time.sleep(0.05)
    assert bot_processes() == []
    assert not sandbox.folder.exists()
