"""The saved-games store: records, round trips, filters, import, migration, refusal,
concurrency and survival of a killed writer."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from perfectplay.errors import ConflictError, NotFoundError, ParameterError
from perfectplay.web.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameRecord,
    GameStore,
    Imported,
    format_timestamp,
)

SRC_DIR = Path(__file__).resolve().parents[2] / "src"
START = datetime(2026, 11, 22, 12, 0, 0, tzinfo=UTC)


class StepClock:
    """A clock that advances by ``step`` on every reading."""

    def __init__(self, start: datetime = START, step: timedelta = timedelta(seconds=1)) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> datetime:
        now = self.now
        self.now += self.step
        return now


def at(seconds: float) -> str:
    """The canonical timestamp ``seconds`` after START."""
    return format_timestamp(START + timedelta(seconds=seconds))


def make_record(game: str = "tictactoe", **changes: Any) -> GameRecord:
    base: dict[str, dict[str, Any]] = {
        "tictactoe": {
            "size": "3x3",
            "k": None,
            "moves": ({"row": 1, "col": 1}, {"row": 0, "col": 0}, {"row": 0, "col": 1}),
            "position": "ox_/_x_/___",
            "settings": {"strength": "perfect"},
        },
        "connect4": {
            "size": "7x6",
            "k": 4,
            "moves": ({"column": 4}, {"column": 4}, {"column": 5}, {"column": 3}),
            "position": "4453",
            "settings": {"strength": "depth", "depth": 4},
        },
        "simplexity": {
            "size": "7x6",
            "k": None,
            "moves": ({"column": 4, "shape": "O"}, {"column": 4, "shape": "X"}),
            "position": "4O 4X",
            "settings": {"strength": "time", "time": 1.0},
        },
    }
    fields: dict[str, Any] = {
        "game": game,
        "players": {"1": "human", "2": "engine"},
        "status": "playing",
        "result": None,
        "reason": None,
        **base[game],
    }
    fields.update(changes)
    return GameRecord(**fields)


def finished(game: str = "tictactoe", **changes: Any) -> GameRecord:
    fields: dict[str, Any] = {"status": "finished", "result": "1", "reason": "x has 3 in a row"}
    fields.update(changes)
    return make_record(game, **fields)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.db", clock=StepClock())


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


# --- round trips and timestamps -----------------------------------------------------------


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "simplexity"])
@pytest.mark.parametrize("status", ["playing", "finished"])
def test_round_trip_each_game(store: GameStore, game: str, status: str) -> None:
    record = make_record(game) if status == "playing" else finished(game, result="draw")
    saved = store.save(record)
    assert saved.id == 1
    assert saved.created_at == saved.updated_at == at(0)
    assert saved.finished_at == (None if status == "playing" else at(0))
    assert store.get(1) == saved
    assert replace(saved, id=None, created_at=None, updated_at=None, finished_at=None) == record
    assert GameRecord.from_json(json.loads(json.dumps(saved.to_json()))) == saved


def test_games_come_from_the_registry_and_may_take_no_size(
    store: GameStore, tmp_path: Path, plugin_games: Any
) -> None:
    fields = {**make_record().to_json(), "game": "pairs", "size": None, "position": "a1 b2"}
    record = GameRecord.from_json(fields)
    saved = store.save(record)
    assert store.get(saved.id or 0) == saved and saved.size is None
    assert saved.to_json()["size"] is None
    assert [r.id for r in store.list(game="pairs")] == [saved.id]
    with raw(tmp_path / "games.db") as conn:  # stored as "" in the NOT NULL column
        assert conn.execute("SELECT size FROM games").fetchone() == ("",)
    # a game no longer installed still reads (the web replays games before saving them)
    assert GameRecord.from_json({**fields, "game": "chess"}).game == "chess"
    for bad in ("", "Chess!", 7, "x" * 65):
        with pytest.raises(ParameterError, match=r"'game': expected a game's name"):
            GameRecord.from_json({**fields, "game": bad})
    with pytest.raises(ParameterError, match=r"filter 'game': expected one of"):
        store.list(game="chess")


def test_to_json_has_every_field_and_moves_as_list(store: GameStore) -> None:
    data = store.save(finished("simplexity")).to_json()
    assert list(data) == [
        "id",
        "game",
        "size",
        "k",
        "moves",
        "position",
        "players",
        "settings",
        "status",
        "result",
        "reason",
        "created_at",
        "updated_at",
        "finished_at",
    ]
    assert data["moves"] == [{"column": 4, "shape": "O"}, {"column": 4, "shape": "X"}]
    assert data["settings"] == {"strength": "time", "time": 1.0}


def test_save_ignores_caller_timestamps_and_normalizes_clock(tmp_path: Path) -> None:
    plus_one = timezone(timedelta(hours=1))
    aware = GameStore(
        tmp_path / "a.db", clock=lambda: datetime(2026, 1, 2, 3, 4, 5, 678901, plus_one)
    )
    naive = GameStore(tmp_path / "b.db", clock=lambda: datetime(2026, 1, 2, 3, 4, 5))
    stale = make_record(created_at="2000-01-01T00:00:00Z", updated_at="2000-01-01")
    assert aware.save(stale).created_at == "2026-01-02T02:04:05.678Z"
    assert naive.save(stale).updated_at == "2026-01-02T03:04:05.000Z"


def test_record_copies_its_inputs() -> None:
    moves = [{"column": 4}]
    settings: dict[str, Any] = {"strength": "depth", "depth": 4}
    record = make_record("connect4", moves=moves, settings=settings)
    moves[0]["column"] = 1
    settings["depth"] = 9
    assert record.moves == ({"column": 4},)
    assert record.settings == {"strength": "depth", "depth": 4}


# --- updates ------------------------------------------------------------------------------


def test_update_keeps_created_at_and_sets_finished_at_once(store: GameStore) -> None:
    saved = store.save(make_record("connect4"))
    more = (*saved.moves, {"column": 4})
    ended = store.save(
        replace(saved, moves=more, status="finished", result="2", reason="o has 4 in a row")
    )
    assert (ended.id, ended.created_at, ended.updated_at, ended.finished_at) == (
        1,
        at(0),
        at(1),
        at(1),
    )
    again = store.save(replace(ended, updated_at=None))  # the same finished game
    assert again == ended and store.get(1) == ended  # a finished record never changes
    assert store.count() == 1


def test_update_of_missing_game_is_refused(store: GameStore) -> None:
    with pytest.raises(NotFoundError, match=r"^game 12: no such saved game$"):
        store.save(replace(make_record(), id=12))
    assert store.count() == 0


@pytest.mark.parametrize("status", ["finished", "abandoned"])
def test_ended_game_cannot_go_back_to_playing(store: GameStore, status: str) -> None:
    record = finished() if status == "finished" else make_record(status="abandoned")
    saved = store.save(record)
    reason = "its record cannot change" if status == "finished" else "cannot go back"
    with pytest.raises(ConflictError, match=rf"game 1: it is {status} and {reason}"):
        store.save(make_record(id=1))
    assert store.get(1) == saved


def test_delete(store: GameStore) -> None:
    store.save(make_record())
    assert store.delete(1) is True
    assert store.delete(1) is False
    assert store.get(1) is None
    assert store.save(make_record()).id == 2  # ids are never reused


@pytest.mark.parametrize("bad_id", [0, -3, True, "1", 1.0, 2**63, 10**40])
def test_bad_game_ids_are_refused(store: GameStore, bad_id: Any) -> None:
    """Ids SQLite cannot hold are refused by name too (issue 27, item 3: 2**63 reached
    SQLite and raised OverflowError, a 500 on the replay page)."""
    with pytest.raises(ParameterError, match="game id: expected an integer from 1 to"):
        store.get(bad_id)
    with pytest.raises(ParameterError, match="game id"):
        store.delete(bad_id)


# --- list and count -----------------------------------------------------------------------

SAMPLE = {
    "a": finished("tictactoe"),
    "b": finished("connect4", result="2", players={"1": "engine", "2": "human"}),
    "c": make_record("connect4", players={"1": "human", "2": "human"}),
    "d": make_record("simplexity", status="abandoned", players={"1": "engine", "2": "engine"}),
    "e": finished("connect4", result="draw", reason="the board is full"),
    "f": make_record("tictactoe", players={"1": "engine", "2": "human"}),
}


@pytest.fixture
def sample(store: GameStore) -> dict[int, str]:
    """SAMPLE saved one second apart in order: a at START, ..., f at START + 5 s."""
    return {store.save(record).id or 0: name for name, record in SAMPLE.items()}


def names(records: list[GameRecord], sample: dict[int, str]) -> str:
    return "".join(sample[record.id or 0] for record in records)


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({}, "fedcba"),
        ({"game": "connect4"}, "ecb"),
        ({"game": "simplexity"}, "d"),
        ({"status": "finished"}, "eba"),
        ({"status": "playing"}, "fc"),
        ({"status": "abandoned"}, "d"),
        ({"result": "1"}, "a"),
        ({"result": "2"}, "b"),
        ({"result": "draw"}, "e"),
        ({"human_side": "1"}, "eca"),
        ({"human_side": "2"}, "fcb"),
        ({"since": at(2)}, "fedc"),
        ({"until": at(2)}, "ba"),
        ({"since": at(1), "until": at(4)}, "dcb"),
        ({"since": "2026-11-22T13:00:03+01:00"}, "fed"),
        ({"since": "2026-11-23"}, ""),
        ({"until": "2026-11-23"}, "fedcba"),
        ({"game": "connect4", "human_side": "1"}, "ec"),
        ({"status": "finished", "human_side": "2"}, "b"),
        ({"game": "tictactoe", "status": "playing"}, "f"),
        ({"game": "connect4", "status": "finished", "since": at(3)}, "e"),
        ({"game": "tictactoe", "result": "2"}, ""),
    ],
)
def test_list_and_count_filters(
    store: GameStore, sample: dict[int, str], filters: dict[str, Any], expected: str
) -> None:
    assert names(store.list(**filters), sample) == expected
    assert store.count(**filters) == len(expected)


def test_list_pages_newest_first(store: GameStore, sample: dict[int, str]) -> None:
    pages = [names(store.list(limit=2, offset=offset), sample) for offset in (0, 2, 4, 6)]
    assert pages == ["fe", "dc", "ba", ""]
    assert names(store.list(status="finished", limit=1, offset=1), sample) == "b"
    store.save(replace(store.list(limit=1, offset=3)[0], status="abandoned"))
    assert names(store.list(limit=3), sample) == "cfe"  # the update moved c to the top


def test_list_breaks_ties_by_id(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db", clock=lambda: START)
    ids = [store.save(make_record()).id for _ in range(3)]
    assert [record.id for record in store.list()] == ids[::-1]


@pytest.mark.parametrize(
    ("filters", "name"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"limit": "5"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"game": "chess"}, "game"),
        ({"status": "won"}, "status"),
        ({"result": "x"}, "result"),
        ({"human_side": "3"}, "human_side"),
        ({"since": "yesterday"}, "since"),
        ({"until": "2026-13-01"}, "until"),
    ],
)
def test_list_refuses_bad_filters(store: GameStore, filters: dict[str, Any], name: str) -> None:
    with pytest.raises(ParameterError, match=rf"^saved-games filter '{name}': expected"):
        store.list(**filters)
    if name not in ("limit", "offset"):
        with pytest.raises(ParameterError, match=f"'{name}'"):
            store.count(**filters)


# --- import -------------------------------------------------------------------------------


def test_import_makes_new_rows_and_keeps_timestamps(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db", clock=lambda: START)
    store.save(make_record())
    records = [
        finished(
            id=1,
            created_at="2025-01-01T10:00:00+02:00",
            updated_at="2025-01-01T09:30Z",
            finished_at="2025-01-01T09:00Z",
        ),
        make_record("connect4", id=7, finished_at="2025-01-01T00:00:00Z"),
        finished("simplexity", updated_at="2025-02-01"),
        finished("simplexity"),
    ]
    assert store.import_records(records) == Imported([2, 3, 4, 5], [])
    stored = {game_id: store.get(game_id) for game_id in (2, 3, 4, 5)}
    stamps = {
        game_id: (record.created_at, record.updated_at, record.finished_at)
        for game_id, record in stored.items()
        if record is not None
    }
    assert stamps == {
        2: ("2025-01-01T08:00:00.000Z", "2025-01-01T09:30:00.000Z", "2025-01-01T09:00:00.000Z"),
        3: (at(0), at(0), None),
        4: (at(0), "2025-02-01T00:00:00.000Z", "2025-02-01T00:00:00.000Z"),
        5: (at(0), at(0), at(0)),
    }
    assert store.get(1) == replace(make_record(), id=1, created_at=at(0), updated_at=at(0))
    assert [record.id for record in store.list()] == [5, 3, 1, 4, 2]


def test_export_then_import_round_trip(tmp_path: Path, store: GameStore) -> None:
    for record in SAMPLE.values():
        store.save(record)
    exported = json.dumps([record.to_json() for record in store.list()])
    target = GameStore(tmp_path / "other.db", clock=StepClock(START + timedelta(days=1)))
    target.import_records([GameRecord.from_json(item) for item in json.loads(exported)])
    assert [replace(r, id=None) for r in target.list()] == [
        replace(r, id=None) for r in store.list()
    ]


def test_importing_the_same_backup_twice_adds_nothing(tmp_path: Path, store: GameStore) -> None:
    """Issue 15, item 6: importing a backup twice duplicated every game."""
    for record in SAMPLE.values():
        store.save(record)
    backup = [GameRecord.from_json(record.to_json()) for record in store.list()]
    target = GameStore(tmp_path / "other.db", clock=StepClock(START + timedelta(days=1)))
    first = target.import_records(backup)
    assert len(first.ids) == len(backup) and first.skipped == []
    again = target.import_records([*backup, backup[0]])
    assert again.ids == [] and sorted(again.skipped) == sorted([*first.ids, first.ids[0]])
    assert target.count() == len(backup)
    fresh = replace(backup[0], created_at=None)  # no identity: stored as a new game
    assert len(target.import_records([fresh]).ids) == 1


def test_import_is_all_or_nothing_on_a_bad_record(store: GameStore) -> None:
    store.save(make_record())
    batch: list[Any] = [finished(), finished("connect4"), finished().to_json(), finished()]
    with pytest.raises(ParameterError, match=r"^import record 2: expected a game record$"):
        store.import_records(batch)
    assert store.count() == 1


def test_import_is_all_or_nothing_on_a_database_error(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = GameStore(path)
    with raw(path) as conn:
        conn.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON games WHEN NEW.reason = 'boom' "
            "BEGIN SELECT RAISE(ABORT, 'boom refused'); END"
        )
    batch = [finished(), finished(reason="boom"), finished()]
    with pytest.raises(sqlite3.IntegrityError, match="boom refused"):
        store.import_records(batch)
    assert store.count() == 0
    assert store.import_records([finished()]).ids == [1]


# --- shape validation ---------------------------------------------------------------------

DROP = object()


def record_json(**changes: Any) -> dict[str, Any]:
    data = finished("connect4").to_json()
    for key, value in changes.items():
        if value is DROP:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"winner": "1"}, "winner"),
        ({"game": DROP}, "game"),
        ({"moves": DROP}, "moves"),
        ({"game": "Chess!"}, "game"),
        ({"game": None}, "game"),
        ({"size": "7by6"}, "size"),
        ({"size": 76}, "size"),
        ({"size": "0x6"}, "size"),
        ({"k": 0}, "k"),
        ({"k": True}, "k"),
        ({"k": "4"}, "k"),
        ({"moves": "4453"}, "moves"),
        ({"moves": {"column": 4}}, "moves"),
        ({"moves": [4]}, "moves[0]"),
        ({"moves": [{"column": 4}, {}]}, "moves[1]"),
        ({"moves": [{"column": 4.5}]}, "moves[0]"),
        ({"moves": [{"column": True}]}, "moves[0]"),
        ({"moves": [{"column": None}]}, "moves[0]"),
        ({"position": 4453}, "position"),
        ({"position": None}, "position"),
        ({"position": "4" * 10_001}, "position"),
        ({"players": ["human", "engine"]}, "players"),
        ({"players": {"1": "human"}}, "players"),
        ({"players": {"1": "human", "2": "engine", "3": "human"}}, "players"),
        ({"players": {"1": "human", "2": "robot"}}, "players.2"),
        ({"settings": ["perfect"]}, "settings"),
        ({"settings": {"time": float("nan")}}, "settings"),
        ({"status": "won"}, "status"),
        ({"status": None}, "status"),
        ({"result": "3"}, "result"),
        ({"result": None}, "result"),
        ({"result": 1}, "result"),
        ({"status": "playing", "reason": None}, "result"),
        ({"status": "abandoned", "result": None}, "reason"),
        ({"reason": 5}, "reason"),
        ({"id": 0}, "id"),
        ({"id": "1"}, "id"),
        ({"created_at": "yesterday"}, "created_at"),
        ({"updated_at": 5}, "updated_at"),
        ({"finished_at": "2026-13-01T00:00:00Z"}, "finished_at"),
    ],
)
def test_from_json_rejects_bad_shapes(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ParameterError) as caught:
        GameRecord.from_json(record_json(**changes))
    assert str(caught.value).startswith(f"game record field '{field}': ")


def test_from_json_messages() -> None:
    with pytest.raises(ParameterError) as caught:
        GameRecord.from_json(record_json(status="won"))
    assert str(caught.value) == (
        "game record field 'status': expected one of playing, finished, abandoned, got 'won'"
    )
    with pytest.raises(ParameterError, match=r"^game record field 'winner': unknown field$"):
        GameRecord.from_json(record_json(winner="1"))
    with pytest.raises(ParameterError, match=r"^game record field 'moves': missing$"):
        GameRecord.from_json(record_json(moves=DROP))


@pytest.mark.parametrize("data", [[], "game", None, 3])
def test_from_json_rejects_non_objects(data: Any) -> None:
    with pytest.raises(ParameterError, match=r"^game record: expected a JSON object"):
        GameRecord.from_json(data)


def test_from_json_defaults_and_normalizes() -> None:
    minimal = {
        "game": "tictactoe",
        "size": "3x3",
        "moves": [],
        "position": "___/___/___",
        "players": {"2": "engine", "1": "human"},
        "status": "playing",
        "created_at": "2026-11-22T13:34:56.5+01:00",
    }
    record = GameRecord.from_json(minimal)
    assert (record.k, record.settings, record.result, record.reason, record.id) == (
        None,
        {},
        None,
        None,
        None,
    )
    assert record.moves == ()
    assert record.created_at == "2026-11-22T12:34:56.500Z"


def test_direct_construction_is_checked() -> None:
    with pytest.raises(ParameterError, match=r"^game record field 'status'"):
        make_record(status="won")


# --- opening, migration and refusal -------------------------------------------------------

V1_TABLE = """CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL, size TEXT NOT NULL, k INTEGER,
    moves TEXT NOT NULL, position TEXT NOT NULL,
    players TEXT NOT NULL, settings TEXT NOT NULL,
    status TEXT NOT NULL, result TEXT, reason TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
)"""
V1_ROWS = [
    (
        "connect4",
        "7x6",
        None,
        '[{"column": 4}, {"column": 4}]',
        "44",
        '{"1": "human", "2": "engine"}',
        '{"strength": "perfect"}',
        "playing",
        None,
        None,
        "2025-05-01T10:00:00.000Z",
        "2025-05-01T10:05:00.000Z",
    ),
    (
        "tictactoe",
        "3x3",
        3,
        '[{"row": 1, "col": 1}]',
        "___/_x_/___",
        '{"1": "engine", "2": "human"}',
        "{}",
        "finished",
        "draw",
        "the board is full",
        "2025-05-02T10:00:00.000Z",
        "2025-05-02T10:07:00.000Z",
    ),
]


def make_v1_file(path: Path, *extra_sql: str) -> None:
    """A saved-games file exactly as schema version 1 wrote it, with two games."""
    with raw(path) as conn:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 1")
        conn.execute(V1_TABLE)
        conn.executemany(f"INSERT INTO games VALUES (NULL, {', '.join('?' * 12)})", V1_ROWS)
        for sql in extra_sql:
            conn.execute(sql)


def test_new_file_has_current_schema_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    assert GameStore(path).schema_version() == SCHEMA_VERSION == 5
    with raw(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    GameStore(path).save(make_record())
    assert GameStore(path).count() == 1  # reopening changes nothing


def test_v1_file_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    make_v1_file(path)
    store = GameStore(path, clock=lambda: START)
    assert store.schema_version() == 5
    playing, ended = store.get(1), store.get(2)
    assert playing is not None and ended is not None
    assert playing.moves == ({"column": 4}, {"column": 4})
    assert (playing.status, playing.finished_at, playing.updated_at) == (
        "playing",
        None,
        "2025-05-01T10:05:00.000Z",
    )
    assert (ended.k, ended.result, ended.reason) == (3, "draw", "the board is full")
    assert ended.moves == ({"row": 2, "col": 2},)  # step 3: cells count from 1
    assert ended.finished_at == ended.updated_at == "2025-05-02T10:07:00.000Z"
    assert store.save(finished()).id == 3
    with raw(path) as conn:
        indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {"games_recent", "games_game", "games_status"} <= indexes


def test_sizes_given_rows_first_are_migrated_to_width_x_height(tmp_path: Path) -> None:
    """Issue 15, item 5: step 4 writes the sizes of tic-tac-toe, Gomoku and the
    shape-and-color game, stored rows x columns before, as width x height (columns x
    rows), as Connect Four's always were; a game without a size keeps none."""
    path = tmp_path / "old.db"
    insert = (
        "INSERT INTO games VALUES (NULL, ?, ?, NULL, '[]', '', ?, '{}', 'playing', NULL, NULL, "
        "?, ?)"
    )
    players, moment = '{"1": "human", "2": "engine"}', "2025-05-03T10:00:00.000Z"
    stored = [("simplexity", "6x7"), ("tictactoe", "3x4"), ("gomoku", "15x17")]
    stored += [("connect4", "6x5"), ("pairs", "")]
    make_v1_file(path)
    with raw(path) as conn:
        for game, size in stored:
            conn.execute(insert, (game, size, players, moment, moment))
    store = GameStore(path)
    assert store.schema_version() == 5
    with raw(path) as conn:
        sizes = [row[0] for row in conn.execute("SELECT size FROM games ORDER BY id")]
    assert sizes == ["7x6", "3x3", "7x6", "4x3", "17x15", "6x5", ""]


def test_failed_migration_step_leaves_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    make_v1_file(path, "CREATE INDEX games_recent ON games (id)")
    with pytest.raises(ParameterError, match=r"cannot be opened .*games_recent already exists"):
        GameStore(path)
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (1,)
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    assert "finished_at" not in columns


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    GameStore(path).save(make_record())
    with raw(path) as conn:
        conn.execute("PRAGMA user_version = 7")
    with pytest.raises(ParameterError) as caught:
        GameStore(path)
    message = str(caught.value)
    assert str(path) in message
    assert "schema version 7 is newer than this perfectplay supports (5)" in message


def test_non_database_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    content = b"these are my notes, not a database\n" * 20
    path.write_bytes(content)
    with pytest.raises(
        ParameterError, match=rf"^saved-games database '{re.escape(str(path))}': cannot be opened"
    ):
        GameStore(path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    "setup",
    [
        ["CREATE TABLE notes (body TEXT)"],
        ["PRAGMA user_version = 1", "CREATE TABLE games (id INTEGER PRIMARY KEY)"],
        [f"PRAGMA application_id = {APPLICATION_ID}", "CREATE TABLE games (id INTEGER)"],
    ],
    ids=["other-tables", "other-app-versioned", "our-id-no-version"],
)
def test_unrelated_database_is_refused_untouched(tmp_path: Path, setup: list[str]) -> None:
    path = tmp_path / "other.db"
    with raw(path) as conn:
        for sql in setup:
            conn.execute(sql)
    content = path.read_bytes()
    with pytest.raises(ParameterError, match="not a perfectplay saved-games database") as caught:
        GameStore(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == content
    with raw(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)


@pytest.mark.parametrize("where", ["missing-dir", "directory", ":memory:"])
def test_unusable_paths_are_refused(tmp_path: Path, where: str) -> None:
    path = {
        "missing-dir": tmp_path / "nowhere" / "games.db",
        "directory": tmp_path,
        ":memory:": Path(":memory:"),
    }[where]
    with pytest.raises(ParameterError, match=rf"^saved-games database '{re.escape(str(path))}': "):
        GameStore(path)


# --- concurrency and durability -----------------------------------------------------------


def test_concurrent_saves_from_threads(store: GameStore) -> None:
    threads, per_thread = 8, 12
    barrier = threading.Barrier(threads)
    saved: list[GameRecord] = []
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            barrier.wait()
            for index in range(per_thread):
                record = finished("connect4", reason=f"worker {worker} game {index}")
                saved.append(store.save(record))
                store.list(limit=5)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    pool = [threading.Thread(target=work, args=(worker,)) for worker in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert errors == []
    assert store.count() == threads * per_thread
    assert len({record.id for record in saved}) == threads * per_thread
    for record in saved:
        assert store.get(record.id or 0) == record


KILL_SCRIPT = """
import sys
from perfectplay.web.store import GameRecord, GameStore

store = GameStore(sys.argv[1])
index = 0
while True:
    record = GameRecord(
        game="connect4", size="7x6", k=None,
        moves=tuple({"column": 1 + i % 7} for i in range(index % 42)),
        position="", players={"1": "human", "2": "engine"},
        settings={"strength": "perfect"}, status="finished", result="draw",
        reason=f"save {index}",
    )
    saved = store.save(record)
    print(saved.id, index, flush=True)
    index += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_writer_loses_no_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC_DIR), env.get("PYTHONPATH")]))
    child = subprocess.Popen(
        [sys.executable, "-c", KILL_SCRIPT, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None and child.stderr is not None
    lines: list[str] = []
    while len(lines) < 40:
        line = child.stdout.readline()
        assert line, f"writer stopped early: {child.stderr.read()}"
        lines.append(line)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    lines += child.stdout.read().splitlines(keepends=True)
    child.stdout.close()
    child.stderr.close()
    acknowledged = [tuple(map(int, line.split())) for line in lines if line.endswith("\n")]

    store = GameStore(path)
    for game_id, index in acknowledged:
        record = store.get(game_id)
        assert record is not None, f"game {game_id} was acknowledged but is lost"
        assert record.reason == f"save {index}"
        assert len(record.moves) == index % 42
    assert store.count() in (len(acknowledged), len(acknowledged) + 1)
    assert len(store.list(limit=500)) == store.count()
    with raw(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
