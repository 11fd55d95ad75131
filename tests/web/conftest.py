"""Fixtures of the web tests: a real server in a subprocess, for the browser tests.

``live_server`` runs ``perfectplay serve`` on a free port with a fresh database, waits for
``/api/health`` (the engine workers load their compiled kernels first, which takes a while
on a cold cache) and stops the server when the session ends.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

SERVER_START_S = 180.0
"""Longest wait for a starting server to answer ``/api/health``: about a second once the
numba kernels are cached on disk, but compiling them on a fresh machine takes minutes (the
pool itself gives a worker 120 s to start)."""

SERVE = "from perfectplay.cli import main; raise SystemExit(main())"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer:
            return bool(json.load(answer).get("status") == "ok")
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}):\n{log.read_text()}")
        if _healthy(url):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {SERVER_START_S:g} s:\n{log.read_text()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()  # uvicorn shuts down on SIGTERM, stopping its engine workers
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server with an empty saved-games database."""
    folder = tmp_path_factory.mktemp("live-server")
    port = _free_port()
    command = [sys.executable, "-c", SERVE, "serve", "--port", str(port)]
    command += ["--db", str(folder / "games.sqlite3")]
    log = folder / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(url, process, log)
        yield url
    finally:
        _stop(process)
