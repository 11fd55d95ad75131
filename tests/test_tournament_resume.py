"""Issue 29: a tournament killed with SIGKILL halfway and resumed plays every game exactly
once, with the results of an uninterrupted run of the same seed; nothing is left running."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tournament_support import bot, bot_processes, sandbox_folders

from perfectplay.cli.tournament import main

PLAYERS = [
    "engine:depth=1@engine",
    "random:seed=5@random",
    f"course:{bot('random_bot.py')}@course_random",
    f"course:{bot('minimax_bot.py')}:Depth2@minimax2",
]
OPTIONS = ["--time", "0.4", "--seed", "11", "--rounds", "2", "--workers", "2"]
GAMES = 24  # 6 pairs, 2 rounds, both colours


def lines(out: Path) -> list[dict[str, Any]]:
    path = out / "games.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def outcome(records: list[dict[str, Any]]) -> dict[int, tuple[Any, ...]]:
    return {
        r["game"]: (r["first"], r["second"], r["opening"], r["result"], tuple(r["moves"]))
        for r in records
    }


def stored_games(db: Path) -> list[tuple[int, int]]:
    """(number, saved game id) of every tournament game in the web's store at ``db``."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT number, game_id FROM tournament_games").fetchall()


def test_killed_and_resumed_plays_each_game_once(tmp_path: Path) -> None:
    out, db = tmp_path / "killed", tmp_path / "games.sqlite3"
    folders = sandbox_folders()
    command = [sys.executable, "-m", "perfectplay.cli.tournament", "simplexity", *PLAYERS]
    process = subprocess.Popen(
        [*command, *OPTIONS, "--out", str(out), "--db", str(db)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    while len(lines(out)) < GAMES // 2 and time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the tournament ended early with status {process.returncode}")
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    before = len(lines(out))
    assert GAMES // 2 <= before < GAMES
    for _ in range(50):  # the sandboxes die with the workers that started them
        if not bot_processes():
            break
        time.sleep(0.1)
    assert bot_processes() == []
    assert (
        main(["simplexity", *PLAYERS, *OPTIONS, "--out", str(out), "--resume", "--db", str(db)])
        == 0
    )
    resumed = lines(out)
    assert sorted(r["game"] for r in resumed) == list(range(GAMES))
    stored = stored_games(db)  # the web's store too holds every game once, as one run
    assert sorted(number for number, _ in stored) == list(range(GAMES))
    assert len({game_id for _, game_id in stored}) == GAMES
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), min(status) FROM tournaments").fetchone() == (
            1,
            "finished",
        )
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (GAMES,)
    assert not (out / ".sandboxes").exists()  # the killed run's sandbox folders are cleared
    assert sandbox_folders() == folders
    clean = tmp_path / "clean"
    assert main(["simplexity", *PLAYERS, *OPTIONS, "--out", str(clean)]) == 0
    assert outcome(resumed) == outcome(lines(clean))
    points = {
        name: data["points"]
        for name, data in json.loads((out / "standings.json").read_text())["players"].items()
    }
    clean_points = {
        name: data["points"]
        for name, data in json.loads((clean / "standings.json").read_text())["players"].items()
    }
    assert points == clean_points


def test_resume_refuses_another_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    quick = ["simplexity", "engine:depth=1", "random", "--time", "0.3", "--out", str(out)]
    assert main(quick) == 0
    assert main(quick) == 2
    assert "--resume" in capsys.readouterr().err
    assert main([*quick, "--resume", "--seed", "3"]) == 2
    assert "other players, settings or openings" in capsys.readouterr().err
    assert main([*quick, "--resume"]) == 0  # nothing left to play
    assert len(lines(out)) == 2
