"""Helpers shared by the command-line tests: run ``perfectplay`` in-process."""

from __future__ import annotations

import io
import json
import signal
import sys
from typing import Any

import pytest

from perfectplay.cli import main


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
