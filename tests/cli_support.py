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


def interrupt(command: list[str], after: float) -> tuple[int, str, float]:
    """Run ``command``, send it SIGINT ``after`` seconds (it must still be running then),
    and wait: its exit status, its stderr, and the seconds it took to stop after SIGINT."""
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
