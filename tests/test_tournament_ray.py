"""Issue 29: the same tournament on Ray actors (``--executor ray``, a local Ray instance) and
on the local process pool gives the same games and standings for the same seed; a run on Ray
killed with SIGKILL halfway leaves nothing running (Ray's own processes die with the
command's process group) and ``--resume`` finishes it, every game exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tournament_support import bot, bot_processes

from perfectplay.cli.tournament import main

pytest.importorskip("ray")

PLAYERS = [
    "engine:depth=1@engine",
    "random:seed=5@random",
    f"course:{bot('random_bot.py')}@course_random",
    f"course:{bot('raiser.py')}@raiser",
]
OPTIONS = ["--time", "0.4", "--seed", "11", "--workers", "2", "--no-db"]


def run(out: Path, *executor: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The games (in game order) and the standings of one run."""
    assert main(["simplexity", *PLAYERS, *OPTIONS, *executor, "--out", str(out)]) == 0
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    standings = json.loads((out / "standings.json").read_text())
    for record in games:
        del record["move_ms"]  # times differ from run to run; nothing else may
    for player in standings["players"].values():
        del player["mean_move_ms"], player["max_move_ms"]
    del standings["sandbox"]["pid"], standings["run"]  # a run has its own id
    return sorted(games, key=lambda record: record["game"]), standings


def test_ray_and_local_give_the_same_tournament(tmp_path: Path) -> None:
    on_ray = run(tmp_path / "ray", "--executor", "ray")
    local = run(tmp_path / "local")
    assert on_ray == local
    games, standings = on_ray
    assert [record["game"] for record in games] == list(range(12))
    assert {r["forfeit"]["reason"] for r in games if r["forfeit"]} == {"crash"}
    assert standings["players"]["raiser"]["forfeits"]["crash"] == 6
    assert bot_processes() == []


def test_an_unknown_executor_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simplexity", "engine", "random", "--executor", "dask"]) == 2
    assert "--executor 'dask'" in capsys.readouterr().err
    assert main(["simplexity", "engine", "random", "--address", "h:1"]) == 2
    assert "--address: only with --executor ray" in capsys.readouterr().err


def test_killed_on_ray_and_resumed_plays_each_game_once(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "perfectplay.cli.tournament", "simplexity", *PLAYERS]
    command += [*OPTIONS, "--executor", "ray", "--out", str(out)]
    process = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    games = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if games.exists() and games.read_text().count("\n") >= 6:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert 6 <= games.read_text().count("\n") < 12
    for _ in range(100):  # Ray's actors end with its raylet, in the killed group
        if not bot_processes():
            break
        time.sleep(0.1)
    assert bot_processes() == []
    resumed = run(out, "--executor", "ray", "--resume")
    assert resumed == run(tmp_path / "local")
