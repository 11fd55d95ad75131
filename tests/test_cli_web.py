"""``perfectplay serve``: its options are checked before anything starts, it says where it
listens (and serves beyond this machine only with ``--public``), and it serves."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from cli_support import run


def test_serve_help_names_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0
    assert "127.0.0.1" in out and "8000" in out and "--db" in out and "--cap" in out


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--port", "70000"], "--port 70000"),
        (["--workers", "0"], "--workers 0"),
        (["--cap", "0"], "--cap 0"),
        (["--cap", "nan"], "argument --cap: 'nan'"),  # digits 0-9 only (issue 27, item 8)
    ],
)
def test_bad_options_are_refused_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], named: str
) -> None:
    code, out, err = run(capsys, "serve", "--db", str(tmp_path / "g.sqlite3"), *args)
    assert code == 2 and out == ""
    assert named in err and "Traceback" not in err


def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "serve", "--port", str(port), "--db", str(tmp_path / "g.db"))
    assert code == 2 and f"--port {port}" in err and "cannot listen" in err


def test_a_database_that_is_not_one_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just words " * 100)
    code, _, err = run(capsys, "serve", "--port", "0", "--db", str(text))
    assert code == 2 and "--port 0" in err
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = run(capsys, "serve", "--port", str(port), "--db", str(text))
    assert code == 2 and "notes.txt" in err and "Traceback" not in err


def test_a_database_in_a_missing_folder_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 15, item 9: ``--db`` in a folder that does not exist was created silently."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    missing = tmp_path / "typo" / "games.db"
    code, _, err = run(capsys, "serve", "--port", str(port), "--db", str(missing))
    assert code == 2 and "does not exist" in err and "typo" in err
    assert not missing.parent.exists()


@pytest.mark.parametrize(
    "host", ["", "0.0.0.0", "::", "192.0.2.7", "example.com", "127.0.0.1.nip.io"]
)
def test_a_host_beyond_this_machine_needs_public(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, host: str
) -> None:
    monkeypatch.setattr(uvicorn, "run", _must_not_serve)
    code, out, err = run(capsys, "serve", "--host", host, "--db", str(tmp_path / "g.db"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"--host {host!r}" in err and "--public" in err
    if host in ("", "0.0.0.0", "::"):
        assert "every interface" in err


def _must_not_serve(app: object, **options: object) -> None:
    raise AssertionError(f"serve started a server on {options}")


def _served(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: Path, *argv: str
) -> tuple[str, dict[str, Any]]:
    """``serve ARGV`` with uvicorn's run stood in for: the startup line and how uvicorn
    would have been called."""
    called: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: called.update(options))
    code, out, err = run(capsys, "serve", "--db", str(db), *argv)
    assert code == 0 and err == "", err
    assert out.count("\n") == 1
    return out, called


@pytest.mark.parametrize("host", ["", "0.0.0.0"])
def test_every_interface_with_public_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, host: str
) -> None:
    port = _free_port()
    argv = ("--host", host, "--port", str(port), "--public")
    out, called = _served(capsys, monkeypatch, tmp_path / "g.db", *argv)
    assert f"serving on every interface (0.0.0.0 port {port})" in out
    assert "reachable from other machines" in out
    options = {key: called[key] for key in ("host", "port", "log_level")}
    assert options == {"host": host, "port": port, "log_level": "warning"}
    # slow bodies are bounded (issue 27, item 2): the connection's protocol and keep-alive
    assert called["timeout_keep_alive"] == 5 and called["http"].read_timeout == 20.0


@pytest.mark.parametrize(
    ("host", "shown"),
    [
        ("127.0.0.1", "http://127.0.0.1:{port}, this machine only"),
        ("127.0.0.2", "http://127.0.0.2:{port}, this machine only"),
        ("localhost", "http://localhost:{port} (127.0.0.1), this machine only"),
    ],
)
def test_a_loopback_host_is_served_without_public_and_named(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    host: str,
    shown: str,
) -> None:
    port = _free_port()
    out, called = _served(
        capsys, monkeypatch, tmp_path / "g.db", "--host", host, "--port", str(port)
    )
    assert f"serving on {shown.format(port=port)}" in out
    assert called["host"] == host and called["port"] == port


def test_ipv6_loopback_is_served_in_brackets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    try:
        with socket.create_server(("::1", 0), family=socket.AF_INET6) as probe:
            port = probe.getsockname()[1]
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    out, _ = _served(capsys, monkeypatch, tmp_path / "g.db", "--host", "::1", "--port", str(port))
    assert f"serving on http://[::1]:{port}, this machine only" in out


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_answers_on_its_port(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
    command += ["serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        health = _wait_for(f"http://127.0.0.1:{port}/api/health")
        assert health["status"] == "ok" and health["engine"]["workers"] == 2
        page = httpx.get(f"http://127.0.0.1:{port}/")
        assert page.status_code == 200 and "perfectplay" in page.text
        assert (tmp_path / "games.sqlite3").exists()
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=20)
    assert f"serving on http://127.0.0.1:{port}, this machine only" in out


def _wait_for(url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while True:
        try:
            answer = httpx.get(url, timeout=2)
            if answer.status_code == 200:
                return answer.json()  # type: ignore[no-any-return]
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def test_a_killed_server_keeps_every_saved_game(tmp_path: Path) -> None:
    from perfectplay.web.store import GameStore

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "games.sqlite3"
    command = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
    command += ["serve", "--port", str(port), "--db", str(db), "--workers", "1"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/api/health")
        moves = [{"column": c} for c in (4, 4, 5, 5, 6, 6, 7)]
        ids = [
            httpx.post(f"{base}/api/games", json={"game": "connect4", "moves": moves}).json()["id"]
            for _ in range(5)
        ]
    finally:
        server.kill()  # no shutdown: whatever was answered must already be on disk
        server.wait(10)
    store = GameStore(db)
    for game_id in ids:
        record = store.get(game_id)
        assert record is not None and (record.status, record.result) == ("finished", "1")
