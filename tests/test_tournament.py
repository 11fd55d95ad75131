"""Issue 29: a shape-and-color tournament of our engine, course bots written for the test and
deliberately bad bots, refereed and sandboxed (tests/tournament_bots/)."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from tournament_support import bot, bot_processes, sandbox_folders

from perfectplay import api

GOOD = {
    "engine:depth=1@engine1": None,
    "engine:depth=2@engine2": None,
    f"course:{bot('random_bot.py')}@random": None,
    f"course:{bot('minimax_bot.py')}:Depth2@minimax2": None,
    f"course:{bot('minimax_bot.py')}:Depth4@minimax4": None,
}
BAD = {
    f"course:{bot('sleeper.py')}": ("sleeper", "time"),
    f"course:{bot('raiser.py')}": ("raiser", "crash"),
    f"course:{bot('memory_hog.py')}": ("memory_hog", "memory"),
    f"course:{bot('network_bot.py')}": ("network_bot", "sandbox"),
    f"course:{bot('escape_bot.py')}": ("escape_bot", "sandbox"),
    f"course:{bot('illegal_bot.py')}": ("illegal_bot", "illegal"),
}
SLOW_TO_SHOW = {"memory_hog": ("time",)}
"""Bad bots whose failure takes work to show: on a busy machine (load 11 on two cores) the
hog, filling its 128 MB page by page, was once stopped by the clock short of its limit, a
``time`` forfeit; most of its games must still end for ``memory``."""
ESCAPES = (Path("/tmp/perfectplay-network-bot-was-here"), Path("/perfectplay-escape-bot-was-here"))
"""Where the bad bots try to write."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tournament, played once for every test of this file, with a temporary directory of
    its own: the sandbox folders counted are this tournament's, not those another test
    process's tournament has open at the same time in the shared one."""
    out = tmp_path_factory.mktemp("tournament") / "out"
    private = tmp_path_factory.mktemp("tmpdir")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(private))  # worker processes started afresh
        patch.setattr(tempfile, "tempdir", str(private))  # this process and forked ones
        folders = sandbox_folders()
        settings = api.tournament_settings("simplexity", move_time=0.3, seed=7, memory_mb=128)
        players = api.tournament_players(settings, [*GOOD, *BAD])
        openings = api.tournament_openings(settings, None, 1)
        started = time.monotonic()
        result = api.tournament(settings, players, openings, workers=2, out=str(out))
        return {
            "result": result,
            "out": out,
            "seconds": time.monotonic() - started,
            "leftovers": bot_processes(),
            "new_folders": sandbox_folders() - folders,
        }


def test_every_game_is_played_once_and_saved(played: dict[str, Any]) -> None:
    result, out = played["result"], played["out"]
    players = len(GOOD) + len(BAD)
    assert len(result.records) == players * (players - 1)
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in lines) == list(range(len(result.records)))
    standings = json.loads((out / "standings.json").read_text())["players"]
    assert set(standings) == {p.name for p in result.standings}
    assert sum(s["points"] for s in standings.values()) == len(lines)
    assert "## Crosstable" in (out / "report.md").read_text()


def test_good_bots_never_forfeit_and_their_games_complete(played: dict[str, Any]) -> None:
    good = {spec.rsplit("@", 1)[1] for spec in GOOD}
    for record in played["result"].records:
        if record["forfeit"] is not None:
            assert record["forfeit"]["player"] not in good, record
        if {record["first"], record["second"]} <= good:
            assert record["end"] and not record["end"].startswith("forfeit"), record
            assert len(record["moves"]) >= 1


def test_each_bad_bot_loses_with_its_reason(played: dict[str, Any]) -> None:
    good = {spec.rsplit("@", 1)[1] for spec in GOOD}
    standings = {s.name: s for s in played["result"].standings}
    for name, reason in BAD.values():
        games = [r for r in played["result"].records if name in (r["first"], r["second"])]
        against_good = [r for r in games if {r["first"], r["second"]} & good]
        assert len(against_good) == 2 * len(GOOD)
        allowed = {reason, *SLOW_TO_SHOW.get(name, ())}
        for record in against_good:
            assert record["winner"] != name, record
            assert record["forfeit"]["player"] == name, record
            assert record["forfeit"]["reason"] in allowed, record
        # against another bad bot it loses with its reason too, unless the other failed first
        lost = [record for record in games if record["winner"] != name]
        for record in games:
            if record["winner"] == name:
                assert record["forfeit"]["player"] != name
            else:
                assert record["forfeit"]["reason"] in allowed, record
        reasons = [record["forfeit"]["reason"] for record in lost]
        assert reasons.count(reason) >= len(reasons) * 3 // 4, reasons
        assert sum(standings[name].forfeits[r] for r in allowed) == standings[name].total.losses
        assert standings[name].total.wins == sum(
            1 for r in games if r["winner"] == name and r["forfeit"]["player"] in BAD_NAMES
        )


BAD_NAMES = {name for name, _ in BAD.values()}


def test_the_sandbox_held(played: dict[str, Any]) -> None:
    assert not any(path.exists() for path in ESCAPES)
    assert played["leftovers"] == []
    assert played["new_folders"] == set()
    sandbox = played["result"].sandbox
    assert sandbox.network == "none" and sandbox.filesystem == "read-only"


def test_engines_beat_the_random_bot(played: dict[str, Any]) -> None:
    crosstable = played["result"].crosstable
    assert crosstable["engine2"]["random"][0] >= 1.5
