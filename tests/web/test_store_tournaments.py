"""Issue 29: a tournament's run and games in the web app's store (schema version 5): every
game a saved game whose moves replay from the empty board to where it ended (a tic-tac-toe
opening, a board picture, taken back stone by stone), a forfeit saved as abandoned, the
standings kept, and a game told twice stored once."""

from __future__ import annotations

from pathlib import Path

import pytest
from tournament_support import bot

from perfectplay import api
from perfectplay.cli.tournament import main
from perfectplay.web.store import GameStore
from perfectplay.web.tournaments import StoreSink, crosstable_rows


def test_a_gauntlet_is_saved_game_by_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    argv = ["tictactoe", "engine:depth=2@us", f"gomocup:{bot('gomocup_engine.py')}@tiny"]
    argv += [f"gomocup:{bot('gomocup_sleeper.py')}@asleep", "--size", "5x5", "--k", "4"]
    argv += ["--gauntlet", "--time", "0.3", "--workers", "2", "--db", str(db)]
    assert main(argv) == 0
    store = GameStore(db)
    [row] = store.tournaments()
    assert (row.game, row.size, row.k, row.games, row.played) == ("tictactoe", "5x5", 4, 4, 4)
    assert row.status == "finished" and row.standings is not None
    assert [p["name"] for p in row.players] == ["us", "tiny", "asleep"]
    tournament = store.tournament(row.id)
    assert tournament is not None
    for entry in tournament.entries:
        assert entry.game_id is not None
        saved = store.get(entry.game_id)
        assert saved is not None
        loaded = api.replay("tictactoe", list(saved.moves), size="5x5", k=4)
        assert api.position_text(loaded) == saved.position
        opening = api.load_with_moves("tictactoe", entry.record["opening"], size="5x5", k=4)
        stones = sum(cell != "_" for cell in api.position_text(opening) if cell != "/")
        assert len(saved.moves) == stones + len(entry.record["moves"])
        if entry.record["forfeit"] is None:
            assert saved.status == "finished"
            sides = {None: "draw", entry.record["first"]: "1", entry.record["second"]: "2"}
            assert saved.result == sides[entry.record["winner"]]
        else:
            assert entry.record["forfeit"]["player"] == "asleep"
            assert (saved.status, saved.result) == ("abandoned", None)
    rows = crosstable_rows(tournament)
    assert [r["name"] for r in rows] == list(row.standings["players"])
    assert rows[0]["name"] == "us" and rows[0]["cells"][0] is None


def test_a_game_told_twice_is_stored_once(tmp_path: Path) -> None:
    settings = api.tournament_settings("connect4", move_time=0.5)
    players = api.tournament_players(settings, ["engine:depth=1@a", "random:seed=1@b"])
    store = GameStore(tmp_path / "games.sqlite3")
    sink = StoreSink(store)
    sink.begin("run-1", settings, players, 2)
    record = {"game": 0, "first": "a", "second": "b", "opening": "44", "moves": ["3", "3"]}
    record |= {"result": "1/2-1/2", "forfeit": None}
    sink.game(record)
    sink.game(record)
    again = StoreSink(store)
    again.begin("run-1", settings, players, 2)  # a resumed run finds its row
    assert again.tournament == sink.tournament
    [row] = store.tournaments()
    assert row.played == 1 and store.count() == 1 and row.status == "running"
    saved = store.get(1)
    assert saved is not None and saved.position == "4433"
    assert saved.moves == tuple({"column": c} for c in (4, 4, 3, 3))


@pytest.mark.parametrize("argv", [["--db", "x", "--no-db"], ["--db", "/no/such/folder/x.db"]])
def test_a_bad_database_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["connect4", "engine", "random", *argv]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_pages_of_no_tournament_and_of_one_still_running(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from perfectplay.web.app import Settings, create_app

    db = tmp_path / "games.sqlite3"
    app = create_app(Settings(db=db, workers=1, warm=False))
    with TestClient(app) as client:
        assert 'id="no-runs"' in client.get("/tournaments").text
        for path in ("/tournaments/1", "/tournaments/0", "/tournaments/x", f"/tournaments/{2**64}"):
            answer = client.get(path)
            assert answer.status_code == 404, path
        settings = api.tournament_settings("connect4", move_time=0.5)
        players = api.tournament_players(settings, ["engine:depth=1@a", "random:seed=1@b"])
        sink = StoreSink(GameStore(db))
        sink.begin("run-2", settings, players, 2)
        record = {"game": 0, "round": 1, "first": "a", "second": "b", "opening": "44"}
        record |= {"moves": ["3"], "result": "1-0", "end": "forfeit (time)"}
        sink.game(record | {"forfeit": {"player": "b", "reason": "time", "detail": ""}})
        page = client.get("/tournaments/1").text
        assert 'id="no-standings"' in page and "b forfeits: time" in page
        assert 'href="/games/1"' in page
        assert "1 of 2 games · running" in client.get("/tournaments").text
