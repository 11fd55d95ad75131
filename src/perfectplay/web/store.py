"""Saved games in one SQLite file, the web app's only persistent state.

Every game played in the web app is one row, from its first save until it is finished or
abandoned; the list page, replay and JSON export/import read and write through
:class:`GameStore`. Only the standard library's :mod:`sqlite3` is used, and nothing is
written outside the database file (SQLite's own ``-wal``/``-shm`` companions aside).

Schema, version 5::

    games                    one row per saved game
    ├── id           INTEGER PRIMARY KEY AUTOINCREMENT   ids are never reused
    ├── game         TEXT NOT NULL   a registered game's name ("connect4", ...)
    ├── size         TEXT NOT NULL   "3x3", "7x6", ... width x height (columns x rows) in
    │                                every game (v4); "" for a game that takes no size
    │                                (``None`` in a record)
    ├── k            INTEGER         in-a-row length; NULL for the game's default
    ├── moves        TEXT NOT NULL   JSON array of move objects, [{"column": 4}, ...]
    ├── position     TEXT NOT NULL   final position in the CLI notation
    ├── players      TEXT NOT NULL   JSON object {"1": "human"|"engine", "2": ...}
    ├── settings     TEXT NOT NULL   JSON object of engine settings
    ├── status       TEXT NOT NULL   "playing" | "finished" | "abandoned"
    ├── result       TEXT            "1" | "2" | "draw"; NULL unless finished
    ├── reason       TEXT            how the game ended; NULL unless finished
    ├── created_at   TEXT NOT NULL   ISO 8601 UTC, "2026-11-22T12:34:56.789Z"
    ├── updated_at   TEXT NOT NULL   same format; set on every write
    └── finished_at  TEXT            same format; first time the game ended (v2)

    indexes (v2): games_recent (updated_at, id), games_game (game, updated_at),
                  games_status (status, updated_at)

    tournaments (v5)         one row per tournament run (``perfectplay tournament``)
    ├── id           INTEGER PRIMARY KEY AUTOINCREMENT
    ├── run          TEXT NOT NULL UNIQUE   the run's id (a resumed run keeps it)
    ├── game, size, k                       as in games
    ├── players      TEXT NOT NULL   JSON array [{"name": ..., "spec": ...}], the command's order
    ├── settings     TEXT NOT NULL   JSON object: the tournament's settings
    ├── games        INTEGER NOT NULL        games scheduled
    ├── standings    TEXT            JSON object: standings.json's document; NULL until the end
    ├── status       TEXT NOT NULL   "running" | "finished"
    └── created_at, updated_at
    tournament_games (v5)    one row per game of a run, PRIMARY KEY (tournament, number)
    ├── tournament   INTEGER NOT NULL   tournaments.id
    ├── number       INTEGER NOT NULL   the game's number in the schedule (from 0)
    ├── game_id      INTEGER            the saved game in games (NULL: none could be saved)
    └── record       TEXT NOT NULL      JSON object: the game's games.jsonl line
    index (v5): tournaments_recent (updated_at, id)

Versions: ``PRAGMA user_version`` holds the schema version and ``PRAGMA application_id``
marks the file as perfectplay's. :data:`MIGRATIONS` lists the steps in order; step ``n``
takes a version ``n - 1`` file to version ``n`` and runs in one transaction together with
the version bump, so an interrupted upgrade leaves the file at the previous version.
Step 1 creates the ``games`` table; step 2 adds ``finished_at`` (filled from
``updated_at`` for games that had already ended) and the indexes; step 3 counts tic-tac-toe
moves' rows and columns from 1, as every door now does; step 4 writes the sizes of the games
that gave them as rows x columns (tic-tac-toe, Gomoku, the shape-and-color game) as width x
height, as every game now does (``3x4``, 3 rows of 4, becomes ``4x3``); step 5 adds the
tournaments and their games (each game also a row of ``games``: replayed like any other).

Contracts:

* Opening refuses, with :class:`~perfectplay.errors.ParameterError` naming the path, a file
  that cannot be opened, is not SQLite, holds another application's tables, or has a
  schema version newer than :data:`SCHEMA_VERSION`. Refusal does not modify the file.
* Every write is one ``BEGIN IMMEDIATE`` ... ``COMMIT`` transaction in WAL mode with
  ``synchronous=FULL``: when :meth:`GameStore.save` returns, the game survives the server
  being killed; a write interrupted before that leaves no trace.
* Each operation opens its own connection, so one store may be shared by threads;
  concurrent writers wait for each other up to :data:`BUSY_TIMEOUT_S` seconds.
* Records are shape-checked (types, allowed values, field names; ``game`` is a game's name,
  known or not: a game saved with a plug-in that is no longer installed still lists and
  exports) when built; whether the game is installed, the moves are legal and the result
  matches them is the caller's business (the web replays every saved or imported game).
* :meth:`GameStore.save` sets the timestamps from the store's clock and ignores the
  caller's; :meth:`GameStore.import_records` keeps those of the imported records.
* Database failures other than refusal at opening (disk full, I/O error, a lock held
  longer than the timeout) propagate as :class:`sqlite3.Error`.
"""

from __future__ import annotations

import builtins  # GameStore.list shadows the builtin inside the class
import json
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from perfectplay import api
from perfectplay.errors import ConflictError, NotFoundError, ParameterError

STATUSES = ("playing", "finished", "abandoned")
ENDED = ("finished", "abandoned")
RESULTS = ("1", "2", "draw")
SIDES = ("1", "2")
PLAYER_KINDS = ("human", "engine")

APPLICATION_ID = 0x50504C59
"""``PRAGMA application_id`` of a perfectplay saved-games file ("PPLY")."""

BUSY_TIMEOUT_S = 10.0
"""How long an operation waits for another writer's lock before failing."""

MAX_ID = 2**63 - 1
"""The largest saved-game id (and list offset): SQLite's integers are signed 64-bit."""
MAX_LIMIT = 500
MAX_MOVES = 10_000
MAX_TEXT = 10_000
"""Upper bounds on a page of results, on a game's moves and on any text field."""
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""What a stored game's name looks like (registry names are lower case)."""

_V1_CREATE_GAMES = (
    f"PRAGMA application_id = {APPLICATION_ID}",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        size TEXT NOT NULL,
        k INTEGER,
        moves TEXT NOT NULL,
        position TEXT NOT NULL,
        players TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        reason TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
)

_V2_FINISHED_AT_AND_INDEXES = (
    "ALTER TABLE games ADD COLUMN finished_at TEXT",
    "UPDATE games SET finished_at = updated_at WHERE status IN ('finished', 'abandoned')",
    "CREATE INDEX games_recent ON games (updated_at, id)",
    "CREATE INDEX games_game ON games (game, updated_at)",
    "CREATE INDEX games_status ON games (status, updated_at)",
)

_V3_CELLS_FROM_ONE = (
    # tic-tac-toe moves were {"row": r, "col": c} counted from 0; every door counts from 1 now
    """UPDATE games SET moves = (
        SELECT json_group_array(json_object(
            'row', json_extract(cell.value, '$.row') + 1,
            'col', json_extract(cell.value, '$.col') + 1))
        FROM (SELECT value FROM json_each(games.moves) ORDER BY key) AS cell)
    WHERE game = 'tictactoe'""",
)

ROWS_FIRST_GAMES = ("tictactoe", "gomoku", "simplexity")
"""The games whose sizes were rows x columns before schema version 4 (and export version 3);
every game's size is width x height (columns x rows) since."""

_V4_SIZES_WIDTH_FIRST = (
    # "ROWSxCOLS" -> "COLSxROWS" for the games that wrote rows first; "" (no size) stays
    f"""UPDATE games SET size =
        substr(size, instr(size, 'x') + 1) || 'x' || substr(size, 1, instr(size, 'x') - 1)
    WHERE game IN ({", ".join(f"'{name}'" for name in ROWS_FIRST_GAMES)})
        AND instr(size, 'x') > 0""",
)

_V5_TOURNAMENTS = (
    """CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        size TEXT NOT NULL,
        k INTEGER,
        players TEXT NOT NULL,
        settings TEXT NOT NULL,
        games INTEGER NOT NULL,
        standings TEXT,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE tournament_games (
        tournament INTEGER NOT NULL,
        number INTEGER NOT NULL,
        game_id INTEGER,
        record TEXT NOT NULL,
        PRIMARY KEY (tournament, number)
    )""",
    "CREATE INDEX tournaments_recent ON tournaments (updated_at, id)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    _V1_CREATE_GAMES,
    _V2_FINISHED_AT_AND_INDEXES,
    _V3_CELLS_FROM_ONE,
    _V4_SIZES_WIDTH_FIRST,
    _V5_TOURNAMENTS,
)
"""Migration steps in order; step ``n`` (1-based) upgrades a version ``n - 1`` file."""

SCHEMA_VERSION = len(MIGRATIONS)

_SIZE = re.compile(r"[1-9][0-9]{0,3}x[1-9][0-9]{0,3}")
_DATA_COLUMNS = (
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
)
_JSON_COLUMNS = frozenset({"moves", "players", "settings"})
_REQUIRED_KEYS = frozenset({"game", "size", "moves", "position", "players", "status"})
_OPTIONAL_KEYS = frozenset(
    {"k", "settings", "result", "reason", "id", "created_at", "updated_at", "finished_at"}
)
_ALL_KEYS = _REQUIRED_KEYS | _OPTIONAL_KEYS


# --- shape checks -------------------------------------------------------------------------


def game_names() -> list[str]:
    """The names of the registered games (built-in and plug-ins), read from the registry on
    each call."""
    return [game_kit.name for game_kit in api.games()]


def _show(value: Any) -> str:
    """A short rendering of a rejected value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _field_error(field: str, expected: str, value: Any) -> ParameterError:
    return ParameterError(f"game record field '{field}': expected {expected}, got {_show(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_choice(field: str, value: Any, choices: Sequence[str], *, subject: str) -> None:
    if not isinstance(value, str) or value not in choices:
        expected = f"one of {', '.join(choices)}"
        raise ParameterError(f"{subject} '{field}': expected {expected}, got {_show(value)}")


def _check_game_name(value: Any) -> None:
    if not isinstance(value, str) or not GAME_NAME.fullmatch(value):
        raise _field_error("game", "a game's name (letters, digits, '_' or '-')", value)


def _check_text(field: str, value: Any, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        null = " or null" if optional else ""
        raise _field_error(field, f"a string of at most {MAX_TEXT} characters{null}", value)


def _check_positive_int(field: str, value: Any) -> None:
    if value is not None and (not _is_int(value) or value < 1):
        raise _field_error(field, "a positive integer or null", value)


def _check_size(value: Any) -> None:
    """A size such as ``7x6``, or ``None`` for a game that takes none."""
    if value is not None and (not isinstance(value, str) or not _SIZE.fullmatch(value)):
        raise _field_error("size", "a board size like '7x6' (null: the game takes none)", value)


def _check_move(index: int, move: Any) -> dict[str, Any]:
    field = f"moves[{index}]"
    if not isinstance(move, Mapping) or not move:
        raise _field_error(field, "a non-empty object", move)
    for key, value in move.items():
        if not isinstance(key, str) or not (_is_int(value) or isinstance(value, str)):
            raise _field_error(field, "string keys with integer or string values", move)
    return dict(move)


def _checked_moves(value: Any) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list | tuple) or len(value) > MAX_MOVES:
        raise _field_error("moves", f"a list of at most {MAX_MOVES} move objects", value)
    return tuple(_check_move(index, move) for index, move in enumerate(value))


def _checked_players(value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping) or set(value) != set(SIDES):
        raise _field_error("players", "an object with exactly the keys '1' and '2'", value)
    for side in SIDES:
        _check_choice(f"players.{side}", value[side], PLAYER_KINDS, subject="game record field")
    return {side: value[side] for side in SIDES}


def _checked_settings(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise _field_error("settings", "an object with string keys", value)
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        raise _field_error("settings", "an object of JSON values", value) from None
    if len(text) > MAX_TEXT:
        raise _field_error("settings", f"at most {MAX_TEXT} characters of JSON", value)
    copied: dict[str, Any] = json.loads(text)
    return copied


def _check_outcome(status: str, result: Any, reason: Any) -> None:
    _check_text("reason", reason, optional=True)
    if status == "finished":
        _check_choice("result", result, RESULTS, subject="game record field")
        return
    if result is not None:
        raise _field_error("result", f"null while the status is '{status}'", result)
    if reason is not None:
        raise _field_error("reason", f"null while the status is '{status}'", reason)


# --- timestamps ---------------------------------------------------------------------------


def format_timestamp(moment: datetime) -> str:
    """``moment`` as ISO 8601 UTC with milliseconds and ``Z``; a naive time is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    utc = moment.astimezone(UTC)
    date = f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}"
    return f"{date}T{utc.hour:02d}:{utc.minute:02d}:{utc.second:02d}.{utc.microsecond // 1000:03d}Z"


def normalize_timestamp(field: str, value: Any, *, subject: str = "game record field") -> str:
    """An ISO 8601 text (date or date and time, any offset) in the store's canonical form.

    Raises ParameterError naming ``field`` when ``value`` is not such a text.
    """
    if isinstance(value, str) and len(value) <= 64:
        try:
            return format_timestamp(datetime.fromisoformat(value))
        except ValueError:
            pass
    raise ParameterError(f"{subject} '{field}': expected an ISO 8601 timestamp, got {_show(value)}")


def _utc_now() -> datetime:
    return datetime.now(UTC)


# --- the record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One saved game. Building one checks its shape and raises ParameterError naming the
    first bad field; ``moves``, ``players`` and ``settings`` are copied, timestamps are
    normalized to ``YYYY-MM-DDTHH:MM:SS.mmmZ``."""

    game: str
    size: str | None
    k: int | None
    moves: tuple[dict[str, Any], ...]
    position: str
    players: dict[str, str]
    settings: dict[str, Any]
    status: str
    result: str | None
    reason: str | None
    id: int | None = None
    created_at: str | None = None
    updated_at: str | None = None
    finished_at: str | None = None

    def __post_init__(self) -> None:
        subject = "game record field"
        # Any game's name: a game saved with a plug-in that is gone since still lists and
        # exports (saving and importing replay the moves, which needs the game installed).
        _check_game_name(self.game)
        _check_size(self.size)
        _check_positive_int("k", self.k)
        _check_text("position", self.position)
        _check_choice("status", self.status, STATUSES, subject=subject)
        _check_outcome(self.status, self.result, self.reason)
        _check_positive_int("id", self.id)
        object.__setattr__(self, "moves", _checked_moves(self.moves))
        object.__setattr__(self, "players", _checked_players(self.players))
        object.__setattr__(self, "settings", _checked_settings(self.settings))
        for name in ("created_at", "updated_at", "finished_at"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, normalize_timestamp(name, value))

    def to_json(self) -> dict[str, Any]:
        """All fields as a JSON-ready dict (``moves`` as a list); :meth:`from_json` inverts it."""
        return {
            "id": self.id,
            "game": self.game,
            "size": self.size,
            "k": self.k,
            "moves": [dict(move) for move in self.moves],
            "position": self.position,
            "players": dict(self.players),
            "settings": json.loads(json.dumps(self.settings)),
            "status": self.status,
            "result": self.result,
            "reason": self.reason,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from parsed JSON, checking its shape only.

        ``game``, ``size``, ``moves``, ``position``, ``players`` and ``status`` are required;
        ``k``, ``settings`` (default ``{}``), ``result``, ``reason``, ``id`` and the
        timestamps are optional. Raises ParameterError naming the field and the reason for a
        non-object, an unknown or missing field, or a value of the wrong type or range.
        """
        if not isinstance(data, dict):
            raise ParameterError(f"game record: expected a JSON object, got {_show(data)}")
        unknown = sorted(str(key) for key in data if key not in _ALL_KEYS)
        if unknown:
            raise ParameterError(f"game record field '{unknown[0]}': unknown field")
        missing = sorted(_REQUIRED_KEYS - set(data))
        if missing:
            raise ParameterError(f"game record field '{missing[0]}': missing")
        values: dict[str, Any] = {key: data.get(key) for key in _ALL_KEYS}
        if values["settings"] is None:
            values["settings"] = {}
        return cls(**values)


def _record_from_row(row: sqlite3.Row) -> GameRecord:
    """The record of a row; ParameterError naming the game for a row that is not valid."""
    values = {key: row[key] for key in ("id", *_DATA_COLUMNS)}
    values["size"] = values["size"] or None  # "" is stored for a game without a size
    for key in _JSON_COLUMNS:
        values[key] = json.loads(row[key])
    try:
        return GameRecord(**values)
    except ParameterError as exc:
        raise ParameterError(f"game {row['id']}: stored record is invalid: {exc}") from exc


def _row_values(record: GameRecord) -> tuple[Any, ...]:
    """The record's values in :data:`_DATA_COLUMNS` order, JSON fields encoded, no size
    as ""."""
    values = [getattr(record, column) for column in _DATA_COLUMNS]
    values[_DATA_COLUMNS.index("size")] = record.size or ""
    return tuple(
        json.dumps(value, ensure_ascii=False) if column in _JSON_COLUMNS else value
        for column, value in zip(_DATA_COLUMNS, values, strict=True)
    )


_INSERT = (
    f"INSERT INTO games ({', '.join(_DATA_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in _DATA_COLUMNS)})"
)
_UPDATE = f"UPDATE games SET {', '.join(f'{c} = ?' for c in _DATA_COLUMNS)} WHERE id = ?"
_SELECT = f"SELECT id, {', '.join(_DATA_COLUMNS)} FROM games"


# --- filters ------------------------------------------------------------------------------


def _check_game_id(game_id: Any) -> int:
    if not _is_int(game_id) or not 1 <= game_id <= MAX_ID:
        raise ParameterError(
            f"game id: expected an integer from 1 to {MAX_ID}, got {_show(game_id)}"
        )
    result: int = game_id
    return result


def _check_page(limit: Any, offset: Any) -> None:
    if not _is_int(limit) or not 1 <= limit <= MAX_LIMIT:
        expected = f"an integer from 1 to {MAX_LIMIT}"
        raise ParameterError(f"saved-games filter 'limit': expected {expected}, got {_show(limit)}")
    if not _is_int(offset) or offset < 0:
        expected = "a non-negative integer"
        raise ParameterError(
            f"saved-games filter 'offset': expected {expected}, got {_show(offset)}"
        )


def _where(
    game: str | None,
    status: str | None,
    result: str | None,
    human_side: str | None,
    since: str | None,
    until: str | None,
) -> tuple[str, list[Any]]:
    """The WHERE clause (possibly empty) and its parameters for the list filters."""
    subject = "saved-games filter"
    clauses: list[str] = []
    params: list[Any] = []
    for column, value, choices in (
        ("game", game, game_names()),
        ("status", status, STATUSES),
        ("result", result, RESULTS),
    ):
        if value is not None:
            _check_choice(column, value, choices, subject=subject)
            clauses.append(f"{column} = ?")
            params.append(value)
    if human_side is not None:
        _check_choice("human_side", human_side, SIDES, subject=subject)
        clauses.append("json_extract(players, ?) = 'human'")
        params.append(f'$."{human_side}"')
    for name, value, operator in (("since", since, ">="), ("until", until, "<")):
        if value is not None:
            clauses.append(f"updated_at {operator} ?")
            params.append(normalize_timestamp(name, value, subject=subject))
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


# --- the store ----------------------------------------------------------------------------


class GameStore:
    """The saved-games database at ``path``; safe to share between threads.

    ``clock`` returns the current time (default: the system clock in UTC); tests inject one.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], datetime] | None = None) -> None:
        """Open or create the file and bring its schema to :data:`SCHEMA_VERSION`.

        Raises ParameterError naming the path when the file cannot be opened or created, is
        not an SQLite database, holds another application's tables, has a schema version
        newer than this code knows, or cannot use write-ahead logging (``":memory:"``).
        """
        self._path = Path(path)
        self._clock = clock if clock is not None else _utc_now
        try:
            with self._connect() as conn:
                self._check_identity(conn)
                self._enable_wal(conn)
                self._migrate(conn)
        except sqlite3.Error as exc:
            raise self._open_error(f"cannot be opened ({exc})") from exc

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    # -- opening --

    def _open_error(self, reason: str) -> ParameterError:
        return ParameterError(f"saved-games database '{self._path}': {reason}")

    def _check_identity(self, conn: sqlite3.Connection) -> None:
        version = _user_version(conn)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        fresh = version == 0 and app_id == 0 and objects == 0
        if not fresh and (app_id != APPLICATION_ID or version == 0):
            raise self._open_error(
                f"not a perfectplay saved-games database (application_id {app_id}, "
                f"user_version {version}, {objects} schema objects)"
            )
        if version > SCHEMA_VERSION:
            raise self._open_error(
                f"schema version {version} is newer than this perfectplay supports "
                f"({SCHEMA_VERSION}); upgrade perfectplay to use it"
            )

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise self._open_error(f"write-ahead logging unavailable (journal mode {mode!r})")

    def _migrate(self, conn: sqlite3.Connection) -> None:
        for version, step in enumerate(MIGRATIONS, start=1):
            with _transaction(conn):
                if _user_version(conn) >= version:
                    continue
                for statement in step:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version}")

    # -- connections --

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self._path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA synchronous = FULL")
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as conn, _transaction(conn):
            yield conn

    def _now(self) -> str:
        return format_timestamp(self._clock())

    # -- public operations --

    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``)."""
        with self._connect() as conn:
            return _user_version(conn)

    def save(self, record: GameRecord) -> GameRecord:
        """Insert ``record`` when its id is None, else replace the row with that id.

        Returns the stored record with its id and timestamps: ``created_at`` is kept from the
        row on update, ``updated_at`` is now, ``finished_at`` is set the first time the status
        is finished or abandoned. Timestamps in ``record`` are ignored. Raises NotFoundError
        when the id has no row ("game 12: no such saved game") and ConflictError when a
        finished or abandoned game would go back to playing; the row is then left unchanged.
        """
        now = self._now()
        with self._writing() as conn:
            if record.id is None:
                ended = now if record.status in ENDED else None
                new = replace(record, created_at=now, updated_at=now, finished_at=ended)
                return replace(new, id=_insert(conn, new))
            return _update(conn, record, now)

    def get(self, game_id: int) -> GameRecord | None:
        """The saved game with this id, or None. Raises ParameterError for a non-positive id."""
        game_id = _check_game_id(game_id)
        with self._connect() as conn:
            row = conn.execute(f"{_SELECT} WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record_from_row(row)

    def list(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        result: str | None = None,
        human_side: str | None = None,
        since: str | None = None,
        until: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> builtins.list[GameRecord]:
        """Saved games, newest first (``updated_at`` then ``id``, descending).

        Filters combine with AND: ``game``, ``status`` and ``result`` match the columns,
        ``human_side`` ("1"/"2") keeps games where that side is played by a human, ``since``
        (inclusive) and ``until`` (exclusive) bound ``updated_at`` and take any ISO 8601
        date or time. ``limit`` is 1 to :data:`MAX_LIMIT`, ``offset`` at least 0. Raises
        ParameterError naming the filter for a value out of range.
        """
        _check_page(limit, offset)
        where, params = _where(game, status, result, human_side, since, until)
        query = f"{_SELECT}{where} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
        with self._connect() as conn:
            rows = conn.execute(query, (*params, limit, offset)).fetchall()
        return [_record_from_row(row) for row in rows]

    def count(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        result: str | None = None,
        human_side: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> int:
        """How many saved games match the filters of :meth:`list` (same checks)."""
        where, params = _where(game, status, result, human_side, since, until)
        with self._connect() as conn:
            total: int = conn.execute(f"SELECT count(*) FROM games{where}", params).fetchone()[0]
        return total

    def delete(self, game_id: int) -> bool:
        """Delete the saved game; False when there was none. ParameterError for a bad id."""
        game_id = _check_game_id(game_id)
        with self._writing() as conn:
            return conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def import_records(self, records: Sequence[GameRecord]) -> Imported:
        """Store every record as a new game in one transaction, except those already stored
        (the same game, size, k, moves, players and ``created_at``: importing a backup twice
        adds nothing the second time); the new ids in order, and the ids of the games
        skipped.

        Ids in the records are ignored. The timestamps of an exported game are kept, so an
        export imported elsewhere lists in the same order: ``created_at`` and ``updated_at``
        default to now, ``finished_at`` of a game that has ended to ``updated_at``, and is
        dropped for a game still playing. A record without ``created_at`` has no identity to
        match and is always stored. All or nothing: if any record is not a GameRecord
        (ParameterError naming its index) or a database error occurs, nothing is stored.
        """
        now = self._now()
        done = Imported([], [])
        with self._writing() as conn:
            for index, record in enumerate(records):
                if not isinstance(record, GameRecord):
                    raise ParameterError(f"import record {index}: expected a game record")
                same = _same_game(conn, record)
                if same is None:
                    done.ids.append(_insert(conn, _imported(record, now)))
                else:
                    done.skipped.append(same)
        return done

    # -- tournaments (schema v5) --

    def begin_tournament(
        self,
        run: str,
        header: Mapping[str, Any],
        players: Sequence[Mapping[str, str]],
        settings: Mapping[str, Any],
        games: int,
    ) -> int:
        """The row id of tournament ``run``: a new row (``header`` gives its ``game``,
        ``size`` and ``k``; ``games`` are scheduled), or the row of a run that resumes, back to
        ``running``."""
        now = self._now()
        with self._writing() as conn:
            row = conn.execute("SELECT id FROM tournaments WHERE run = ?", (run,)).fetchone()
            if row is not None:
                conn.execute(
                    "UPDATE tournaments SET status = 'running', updated_at = ? WHERE id = ?",
                    (now, row["id"]),
                )
                return int(row["id"])
            described = (json.dumps(list(players)), json.dumps(settings), games, now, now)
            values = (run, header["game"], header["size"] or "", header["k"], *described)
            new_id = conn.execute(_INSERT_TOURNAMENT, values).lastrowid
        return int(new_id or 0)

    def tournament_numbers(self, tournament: int) -> set[int]:
        """The numbers of the games of ``tournament`` stored already."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT number FROM tournament_games WHERE tournament = ?", (tournament,)
            ).fetchall()
        return {int(row["number"]) for row in rows}

    def save_tournament_game(
        self, tournament: int, record: Mapping[str, Any], game: GameRecord | None
    ) -> int | None:
        """Store the game of ``record`` (its ``games.jsonl`` line) in ``tournament``, and
        ``game`` as a new saved game, in one transaction; the saved game's id (``None``
        without ``game``). A game of the tournament stored already is left as it is."""
        number = int(record["game"])
        now = self._now()
        with self._writing() as conn:
            row = conn.execute(
                "SELECT game_id FROM tournament_games WHERE tournament = ? AND number = ?",
                (tournament, number),
            ).fetchone()
            if row is not None:
                return None if row["game_id"] is None else int(row["game_id"])
            game_id = None
            if game is not None:
                ended = now if game.status in ENDED else None
                stamped = replace(game, id=None, created_at=now, updated_at=now, finished_at=ended)
                game_id = _insert(conn, stamped)
            conn.execute(
                "INSERT INTO tournament_games VALUES (?, ?, ?, ?)",
                (tournament, number, game_id, json.dumps(record, ensure_ascii=False)),
            )
            conn.execute("UPDATE tournaments SET updated_at = ? WHERE id = ?", (now, tournament))
        return game_id

    def finish_tournament(self, tournament: int, standings: Mapping[str, Any]) -> None:
        """Mark ``tournament`` finished with its standings (``standings.json``'s document)."""
        with self._writing() as conn:
            conn.execute(
                "UPDATE tournaments SET status = 'finished', standings = ?, updated_at = ? "
                "WHERE id = ?",
                (json.dumps(standings), self._now(), tournament),
            )

    def tournaments(self, limit: int = 50, offset: int = 0) -> builtins.list[TournamentRow]:
        """The tournaments, newest first, without their games (``limit`` 1 to
        :data:`MAX_LIMIT`, ``offset`` at least 0: ParameterError otherwise)."""
        _check_page(limit, offset)
        query = f"{_SELECT_TOURNAMENT} ORDER BY t.updated_at DESC, t.id DESC LIMIT ? OFFSET ?"
        with self._connect() as conn:
            rows = conn.execute(query, (limit, offset)).fetchall()
        return [_tournament_from_row(row) for row in rows]

    def tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament with this id and its games in game order (each with the id of its
        saved game, ``None`` once that game is deleted), or None. ParameterError for a bad
        id."""
        tournament_id = _check_game_id(tournament_id)
        with self._connect() as conn:
            row = conn.execute(f"{_SELECT_TOURNAMENT} WHERE t.id = ?", (tournament_id,)).fetchone()
            if row is None:
                return None
            games = conn.execute(
                "SELECT tg.number, g.id AS game_id, tg.record FROM tournament_games tg "
                "LEFT JOIN games g ON g.id = tg.game_id WHERE tg.tournament = ? "
                "ORDER BY tg.number",
                (tournament_id,),
            ).fetchall()
        entries = tuple(
            TournamentGame(int(g["number"]), g["game_id"], json.loads(g["record"])) for g in games
        )
        return replace(_tournament_from_row(row), entries=entries)


@dataclass(frozen=True)
class TournamentGame:
    """One game of a stored tournament: its number, its saved game's id (``None`` when there
    is none), its ``games.jsonl`` record."""

    number: int
    game_id: int | None
    record: dict[str, Any]


@dataclass(frozen=True)
class TournamentRow:
    """A stored tournament run (the ``tournaments`` table, see the module docstring), the
    games stored of it (``played``) and, from :meth:`GameStore.tournament`, those games."""

    id: int
    run: str
    game: str
    size: str | None
    k: int | None
    players: builtins.list[dict[str, str]]
    settings: dict[str, Any]
    games: int
    standings: dict[str, Any] | None
    status: str
    created_at: str
    updated_at: str
    played: int
    entries: tuple[TournamentGame, ...] = ()


_INSERT_TOURNAMENT = (
    "INSERT INTO tournaments (run, game, size, k, players, settings, games, status, "
    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)"
)
_SELECT_TOURNAMENT = (
    "SELECT t.*, (SELECT count(*) FROM tournament_games tg WHERE tg.tournament = t.id) "
    "AS played FROM tournaments t"
)


def _tournament_from_row(row: sqlite3.Row) -> TournamentRow:
    """The tournament of a row of :data:`_SELECT_TOURNAMENT`."""
    standings = row["standings"]
    return TournamentRow(
        id=int(row["id"]),
        run=row["run"],
        game=row["game"],
        size=row["size"] or None,
        k=row["k"],
        players=json.loads(row["players"]),
        settings=json.loads(row["settings"]),
        games=int(row["games"]),
        standings=None if standings is None else json.loads(standings),
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        played=int(row["played"]),
    )


@dataclass(frozen=True)
class Imported:
    """What :meth:`GameStore.import_records` did: the new ids, and the ids of the stored
    games that records matched (skipped)."""

    ids: builtins.list[int]
    skipped: builtins.list[int]


IDENTITY = ("game", "size", "k", "moves", "players", "created_at")
"""What makes a record the same game as a stored one, for imports."""


def _same_game(conn: sqlite3.Connection, record: GameRecord) -> int | None:
    """The id of a stored game with ``record``'s identity (:data:`IDENTITY`), if any."""
    if record.created_at is None:
        return None
    values = dict(
        zip(_DATA_COLUMNS, _row_values(_imported(record, record.created_at)), strict=True)
    )
    where = " AND ".join(  # JSON compared as JSON, whatever its spacing
        f"json({column}) IS json(?)" if column in _JSON_COLUMNS else f"{column} IS ?"
        for column in IDENTITY
    )
    row = conn.execute(
        f"SELECT id FROM games WHERE {where} ORDER BY id LIMIT 1",
        tuple(values[column] for column in IDENTITY),
    ).fetchone()
    return None if row is None else int(row["id"])


def _imported(record: GameRecord, now: str) -> GameRecord:
    updated = record.updated_at or now
    ended = (record.finished_at or updated) if record.status in ENDED else None
    return replace(
        record,
        id=None,
        created_at=record.created_at or now,
        updated_at=updated,
        finished_at=ended,
    )


def _insert(conn: sqlite3.Connection, record: GameRecord) -> int:
    """Insert ``record`` as a new row (its id ignored) and return the new id."""
    new_id = conn.execute(_INSERT, _row_values(record)).lastrowid
    if new_id is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
        raise sqlite3.DatabaseError("INSERT returned no row id")
    return new_id


def _update(conn: sqlite3.Connection, record: GameRecord, now: str) -> GameRecord:
    row = conn.execute(f"{_SELECT} WHERE id = ?", (record.id,)).fetchone()
    if row is None:
        raise NotFoundError(f"game {record.id}: no such saved game")
    before = _record_from_row(row)
    _check_change(before, record)
    if before.status == "finished":  # the same finished game saved again: nothing changes
        return before
    ended = before.finished_at or (now if record.status in ENDED else None)
    stored = replace(record, created_at=before.created_at, updated_at=now, finished_at=ended)
    conn.execute(_UPDATE, (*_row_values(stored), record.id))
    return stored


_RECORD_FIELDS = tuple(name for name in _DATA_COLUMNS if not name.endswith("_at"))
"""What a saved game holds besides its id and timestamps: a finished game keeps all of it."""


def finished_conflict(game_id: int | None, changed: list[str]) -> ConflictError:
    """The error for a finished game saved again with the fields ``changed``."""
    return ConflictError(
        f"game {game_id}: it is finished and its record cannot change"
        f" ({', '.join(changed)} differ); play on as a new game"
    )


def _check_change(before: GameRecord, record: GameRecord) -> None:
    """Raise :class:`ConflictError` for a change the stored game does not allow: a finished
    game's record is never rewritten (saving the same finished game again is allowed; any
    other players, settings, status or outcome is refused, naming the fields), and
    an ended game does not go back to playing."""
    if before.status == "finished":
        changed = [
            name for name in _RECORD_FIELDS if getattr(record, name) != getattr(before, name)
        ]
        if changed:
            raise finished_conflict(before.id, changed)
    if before.status in ENDED and record.status == "playing":
        raise ConflictError(
            f"game {record.id}: it is {before.status} and cannot go back to playing"
        )


def _user_version(conn: sqlite3.Connection) -> int:
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` on an autocommit connection; rollback on error.

    IMMEDIATE takes the write lock up front, so concurrent writers queue on the busy timeout
    instead of failing when a read lock cannot be upgraded.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
