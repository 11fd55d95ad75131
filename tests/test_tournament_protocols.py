"""Issue 29: a gauntlet against Gomocup brains (one never answers: a time forfeit) on a small
m,n,k board, and a Connect Four bot of the line protocol."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tournament_support import bot, bot_processes

from perfectplay.cli.tournament import main


def games(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def test_gomocup_gauntlet_with_a_time_forfeit(tmp_path: Path) -> None:
    out = tmp_path / "gauntlet"
    argv = ["tictactoe", "engine:depth=2@us", f"gomocup:{bot('gomocup_engine.py')}@tiny"]
    argv += [f"gomocup:{bot('gomocup_sleeper.py')}@asleep", "--size", "6x6", "--k", "4"]
    argv += ["--gauntlet", "--time", "0.3", "--rounds", "2", "--workers", "2"]
    assert main([*argv, "--out", str(out)]) == 0
    records = games(out)
    assert len(records) == 8  # the first player against two, two rounds, both colours
    assert all("us" in (r["first"], r["second"]) for r in records)
    tiny = [r for r in records if "tiny" in (r["first"], r["second"])]
    assert all(r["forfeit"] is None and len(r["moves"]) > 1 for r in tiny)
    asleep = [r for r in records if "asleep" in (r["first"], r["second"])]
    assert all(
        r["forfeit"] == {**r["forfeit"], "player": "asleep", "reason": "time"} for r in asleep
    )
    standings = json.loads((out / "standings.json").read_text())["players"]
    assert standings["asleep"]["forfeits"]["time"] == 4
    assert standings["us"]["points"] >= 6
    assert bot_processes() == []


def test_line_protocol_connect4(tmp_path: Path) -> None:
    out = tmp_path / "line"
    argv = ["connect4", "engine:depth=2", f"line:{bot('line_bot.py')}@lines"]
    argv += [f"line:{bot('line_garbage.py')}@garbage", "--time", "0.5", "--workers", "2"]
    assert main([*argv, "--out", str(out)]) == 0
    records = games(out)
    assert len(records) == 6
    fair = [r for r in records if "garbage" not in (r["first"], r["second"])]
    assert all(r["forfeit"] is None and r["winner"] == "engine:depth=2" for r in fair)
    assert all(r["move_ms"]["lines"] for r in fair)  # the line bot moved in each
    for record in records:
        if "garbage" in (record["first"], record["second"]):
            assert record["forfeit"]["player"] == "garbage"
            assert record["forfeit"]["reason"] == "illegal"


def test_gomoku_gauntlet_against_gomocup_brains(tmp_path: Path) -> None:
    """Issue 29, item 4: Gomoku itself (exactly five, on 9x9) over the Gomocup protocol: our
    engine beats the tiny brain by five in a row, and a brain that answers three times too
    late (from its third move on) loses every game on time, after its first moves counted."""
    out = tmp_path / "gomoku"
    argv = ["gomoku", "engine:depth=2@us", f"gomocup:{bot('gomocup_engine.py')}@tiny"]
    argv += [f"gomocup:{bot('gomocup_overrun.py')}@slow", "--size", "9x9", "--k", "5"]
    argv += ["--gauntlet", "--time", "0.3", "--workers", "2", "--no-db"]
    assert main([*argv, "--out", str(out)]) == 0
    records = games(out)
    assert len(records) == 4
    for record in records:
        if "tiny" in (record["first"], record["second"]):
            assert record["forfeit"] is None and record["winner"] == "us"
            assert "5 in a row" in record["end"]
        else:
            assert record["forfeit"] == {**record["forfeit"], "player": "slow", "reason": "time"}
            assert len(record["move_ms"]["slow"]) == 2  # two moves in time, the third late
    standings = json.loads((out / "standings.json").read_text())["players"]
    assert standings["slow"]["forfeits"]["time"] == 2
    assert standings["us"]["points"] == 4
    assert bot_processes() == []


def test_a_brain_that_takes_all_the_memory_it_is_told_still_plays(tmp_path: Path) -> None:
    """A brain sizing its table to ``INFO max_memory`` (as Rapfi does) must fit its sandbox:
    told the whole address-space limit, Rapfi could not allocate it and lost every game. It
    also reads BOARD as moves in order (as Rapfi does): the opening's stones and the moves
    must come in the order they were placed, owners alternating."""
    out = tmp_path / "table"
    argv = ["tictactoe", "engine:depth=1@us", f"gomocup:{bot('gomocup_table.py')}@table"]
    argv += ["--size", "6x6", "--k", "4", "--time", "0.5", "--memory", "256", "--rounds", "2"]
    assert main([*argv, "--out", str(out)]) == 0
    records = games(out)
    assert len(records) == 4
    assert all(r["forfeit"] is None and len(r["moves"]) > 1 for r in records)
    assert bot_processes() == []
