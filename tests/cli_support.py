"""Helpers shared by the command-line tests: run ``perfectplay`` in-process, or in a process
of its own to interrupt it or to give it a terminal."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from perfectplay.cli import main

STOPPED_SOON = 5.0
"""The seconds within which a test's interrupted command must stop: long before the end of
the work it interrupts (5-60 s of it), and with room for a loaded machine, which stretches
the latency (measured by ``benchmarks/bench_ctrl_c.py``; 0.1-0.3 s on a quiet machine)."""

COMMAND = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
"""``perfectplay`` in a process of its own."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)``: the exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """``main(argv + --json)``, checking that stdout is exactly one JSON document."""
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def with_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> tuple[int, str, str]:
    """``main(argv)`` reading ``stdin``."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return run(capsys, *argv)


def hear_ctrl_c() -> None:
    """In the child before it starts: SIGINT as a terminal delivers it. A job started in the
    background of a non-interactive shell (as CI may start the tests) inherits SIGINT
    ignored, and Python then keeps ignoring it, as a background job should."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(command: list[str], after: float, when: str | None = None) -> tuple[int, str, float]:
    """Run ``command``, send it SIGINT ``after`` seconds (it must still be running then),
    and wait: its exit status, its stderr, and the seconds it took to stop after SIGINT.
    With ``when``, stderr is a terminal (which shows progress) and the ``after`` seconds
    count from the moment it first shows ``when`` (so a slow start on a busy machine does not
    move the signal before the work it means to stop)."""
    if when is not None:
        return interrupt_on_a_terminal(command, when, after)
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=hear_ctrl_c,  # resets SIGINT only, before exec
    )
    try:
        time.sleep(after)
        assert process.poll() is None, "it ended before SIGINT was sent"
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = process.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    return process.returncode, err.decode(), waited


def interrupt_on_a_terminal(command: list[str], when: str, after: float) -> tuple[int, str, float]:
    """:func:`interrupt` with stderr on a pseudo-terminal, SIGINT ``after`` seconds once the
    terminal shows ``when`` (within a minute)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=follower, preexec_fn=hear_ctrl_c
    )
    os.close(follower)
    shown = b""
    try:
        deadline = time.monotonic() + 60
        while when.encode() not in shown:
            assert process.poll() is None, f"it ended before showing {when!r}: {shown[-300:]!r}"
            assert time.monotonic() < deadline, f"{when!r} not shown within a minute"
            shown += read_some(leader)
        signal_at = time.monotonic() + after
        while time.monotonic() < signal_at:
            shown += read_some(leader)
        assert process.poll() is None, "it ended before SIGINT was sent"
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        while process.poll() is None and time.monotonic() - sent < 10:
            shown += read_some(leader)
        waited = time.monotonic() - sent
        while chunk := read_some(leader):
            shown += chunk
    finally:
        process.kill()
        os.close(leader)
    return process.wait(), shown.decode(errors="replace"), waited


def read_some(leader: int, seconds: float = 0.02) -> bytes:
    """What the terminal's ``leader`` end shows within ``seconds`` (``b""``: nothing, or the
    process closed its end)."""
    if not select.select([leader], [], [], seconds)[0]:
        return b""
    try:
        return os.read(leader, 4096)
    except OSError:
        return b""


def on_a_terminal(*argv: str) -> tuple[int, str, str]:
    """Run ``perfectplay ARGV`` with stderr on a pseudo-terminal: the exit status, what the
    terminal showed, and stdout."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [*COMMAND, *argv], stdout=subprocess.PIPE, stderr=follower, env={**os.environ}
    )
    os.close(follower)
    shown = b""
    try:
        while select.select([leader], [], [], 60)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process closed its end
                break
            if not chunk:
                break
            shown += chunk
        out, _ = process.communicate(timeout=60)
    finally:
        process.kill()
        os.close(leader)
    return process.returncode, shown.decode(errors="replace"), out.decode()
