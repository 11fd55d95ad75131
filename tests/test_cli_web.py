"""``perfectplay serve``: its options are checked before anything starts, and it serves."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.cli_support import run


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
        (["--cap", "nan"], "--cap nan"),
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
    assert f"http://127.0.0.1:{port}" in out


def _wait_for(url: str) -> dict[str, object]:
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
