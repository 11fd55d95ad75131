"""Real servers for the web tests: ``perfectplay serve`` in a subprocess on a free port.

:func:`start` runs one and :func:`wait_healthy` waits until ``/api/health`` answers; the
engine workers load their compiled kernels first, which takes a while on a cold cache.
:func:`stop` shuts a server down, :func:`kill` kills it: its engine workers then exit on
their own when they find the server's end of their connection closed.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

SERVER_START_S = 180.0
"""Longest wait for a starting server to answer ``/api/health``: about a second once the
numba kernels are cached on disk, but compiling them on a fresh machine takes minutes (the
pool itself gives a worker 120 s to start)."""
SERVE = "from perfectplay.cli import main; raise SystemExit(main())"


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (free when asked, at least)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(
    db: Path,
    port: int,
    log: Path,
    *options: str,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """``perfectplay serve --port PORT --db DB OPTIONS`` with its output appended to ``log``."""
    command = [sys.executable, "-c", SERVE, "serve", "--port", str(port), *options]
    command += ["--db", str(db)]
    with log.open("ab") as output:
        return subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=None if env is None else dict(env),
        )


def healthy(url: str, engines: bool = True) -> bool:
    """Whether the server at ``url`` answers ``/api/health`` with status ok (and, with
    ``engines``, says its engines are ready: the pages answer long before, while the engines
    warm up, and a test's engine requests would race the first compile)."""
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer:
            health = json.load(answer)
    except (urllib.error.URLError, OSError, ValueError):
        return False
    ready = not engines or bool(health.get("engines", {}).get("ready"))
    return bool(health.get("status") == "ok") and ready


def wait_healthy(
    url: str, process: subprocess.Popen[bytes], log: Path, engines: bool = True
) -> None:
    """Wait until the server at ``url`` is healthy (its engines ready too, with
    ``engines``); RuntimeError with its log if it exits or takes more than
    :data:`SERVER_START_S`."""
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}):\n{log.read_text()}")
        if healthy(url, engines):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {SERVER_START_S:g} s:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (uvicorn shuts down, stopping its engine workers), SIGKILL after 15 s."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        kill(process)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server: no shutdown, nothing flushed, as a crash would leave it (its
    engine workers exit once they find their connection to it closed)."""
    process.kill()
    process.wait()
