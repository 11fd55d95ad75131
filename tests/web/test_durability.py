"""Every write a real server acknowledged survives a SIGKILL of the server.

``perfectplay serve`` runs in a subprocess on a database in a temporary folder while client
threads save games (``POST /api/games``: new games, then updates adding one move at a time)
and import exported ones (``POST /api/games/import``), at once. Each 2xx answer is an
acknowledged write, kept with what it stored. The server (and its engine worker) is then
SIGKILLed while the clients still write: no shutdown, nothing flushed. A new server on the
same database must hold every acknowledged write intact: same game, moves and status. An
update in flight at the kill may or may not have landed, so either the acknowledged state
or the one in flight is accepted for that game, and nothing else. This repeats for
:data:`CYCLES` kills; the database must then pass SQLite's integrity check.

``tests/web/test_store.py`` kills a writer of the store itself; this is the same promise at
the server's level: an answer is only sent once the transaction is on disk.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from web import live

CYCLES = int(os.environ.get("PERFECTPLAY_KILL_CYCLES", "3"))
"""SIGKILLs a run; ``PERFECTPLAY_KILL_CYCLES`` asks for more (docs/reliability.md's re-runs)."""
WRITERS = 4
WRITE_S = 1.5
"""How long the clients write before each kill."""
COLUMNS = (4, 4, 5, 5, 6, 6, 7)
"""A Connect Four game that player 1 wins at the 7th move: saved games grow along it."""
CELLS = [(row, col) for row in range(3) for col in range(3)]

State = tuple[str, tuple[tuple[tuple[str, Any], ...], ...], str]
"""What a saved game must still hold: its game, its moves and its status."""


def state_of(game: str, moves: list[dict[str, Any]], status: str) -> State:
    return game, tuple(tuple(sorted(move.items())) for move in moves), status


@dataclass
class Ledger:
    """The writes the server acknowledged (``acked``, by id), the updates sent but not
    acknowledged (``in_flight``), and answers that were neither a 2xx nor a lost
    connection (``refused``: there should be none)."""

    acked: dict[int, State] = field(default_factory=dict)
    acks: int = 0
    in_flight: dict[int, State] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, game_id: int, state: State) -> None:
        with self.lock:
            self.acked[game_id] = state
            self.acks += 1
            self.in_flight.pop(game_id, None)


class Writer(threading.Thread):
    """A client saving, updating and importing games until ``stop`` is set."""

    def __init__(self, url: str, ledger: Ledger, stop: threading.Event, seed: int) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, timeout=10)
        self.ledger = ledger
        self.stop = stop
        self.rng = random.Random(seed)
        self.growing: tuple[int, int] | None = None  # (id, moves) of the game being updated

    def run(self) -> None:
        with self.client:
            while not self.stop.is_set():
                try:
                    self.step()
                except httpx.TransportError:  # the server was killed: not acknowledged
                    self.growing = None
                    time.sleep(0.01)

    def step(self) -> None:
        if self.growing is not None and self.rng.random() < 0.6:
            self.update(*self.growing)
        elif self.rng.random() < 0.5:
            self.import_games()
        else:
            self.create()

    def create(self) -> None:
        body = {"game": "connect4", "moves": _columns(1), "status": "playing"}
        stored = self._answer(self.client.post("/api/games", json=body))
        if stored is not None:
            self.ledger.ack(stored["id"], state_of("connect4", stored["moves"], stored["status"]))
            self.growing = (stored["id"], 1)

    def update(self, game_id: int, played: int) -> None:
        moves = _columns(played + 1)
        expected = "finished" if played + 1 == len(COLUMNS) else "playing"
        with self.ledger.lock:
            self.ledger.in_flight[game_id] = state_of("connect4", moves, expected)
        body = {"id": game_id, "game": "connect4", "moves": moves, "status": "playing"}
        stored = self._answer(self.client.post("/api/games", json=body))
        if stored is not None:
            self.ledger.ack(game_id, state_of("connect4", stored["moves"], stored["status"]))
            self.growing = None if expected == "finished" else (game_id, played + 1)

    def import_games(self) -> None:
        games = [self._unfinished_tictactoe() for _ in range(self.rng.randint(1, 3))]
        answer = self._answer(self.client.post("/api/games/import", json={"games": games}))
        if answer is not None:
            assert len(answer["ids"]) == len(games)
            for game_id, game in zip(answer["ids"], games, strict=True):
                self.ledger.ack(game_id, state_of("tictactoe", game["moves"], "playing"))

    def _unfinished_tictactoe(self) -> dict[str, Any]:
        """An exported tic-tac-toe game of 0 to 4 random moves (nobody can have won yet)."""
        cells = self.rng.sample(CELLS, self.rng.randint(0, 4))
        return {
            "game": "tictactoe",
            "size": None,
            "moves": [{"row": row + 1, "col": col + 1} for row, col in cells],
            "position": "",
            "players": {"1": "human", "2": "engine"},
            "status": "playing",
        }

    def _answer(self, response: httpx.Response) -> dict[str, Any] | None:
        """The JSON of a 2xx answer; another answer is recorded as refused."""
        if response.is_success:
            answer: dict[str, Any] = response.json()
            return answer
        with self.ledger.lock:
            self.ledger.refused.append(f"{response.status_code} {response.text[:200]}")
        return None


def _columns(count: int) -> list[dict[str, Any]]:
    return [{"column": column} for column in COLUMNS[:count]]


def stored_games(url: str) -> dict[int, State]:
    """Every saved game of the server at ``url``, by id (through the export)."""
    document = httpx.get(f"{url}/api/games/export", timeout=30).json()
    return {
        game["id"]: state_of(game["game"], game["moves"], game["status"])
        for game in document["games"]
    }


def lost_writes(url: str, ledger: Ledger) -> list[str]:
    """The acknowledged writes the server at ``url`` does not hold as acknowledged (or, for
    an update in flight at the kill, as sent)."""
    stored = stored_games(url)
    lost = []
    for game_id, state in ledger.acked.items():
        allowed = {state, ledger.in_flight.get(game_id, state)}
        if stored.get(game_id) not in allowed:
            lost.append(f"game {game_id}: acknowledged {state}, stored {stored.get(game_id)}")
    return lost


def write_until_killed(url: str, process: Any, ledger: Ledger, cycle: int) -> None:
    """Run the writers for :data:`WRITE_S`, SIGKILL the server while they write, then stop
    them."""
    stop = threading.Event()
    writers = [Writer(url, ledger, stop, seed=cycle * 100 + n) for n in range(WRITERS)]
    for writer in writers:
        writer.start()
    time.sleep(WRITE_S)
    live.kill(process)
    stop.set()
    for writer in writers:
        writer.join(timeout=30)
        assert not writer.is_alive()


def test_acknowledged_writes_survive_sigkill(tmp_path: Path) -> None:
    db, log, ledger = tmp_path / "games.sqlite3", tmp_path / "server.log", Ledger()
    started = time.monotonic()
    counts: list[int] = []
    for cycle in range(CYCLES + 1):
        port = live.free_port()
        url = f"http://127.0.0.1:{port}"
        process = live.start(db, port, log, "--workers", "1")
        try:
            live.wait_healthy(url, process, log, engines=False)  # writes need no engine
            assert lost_writes(url, ledger) == [], f"after kill {cycle}"
            if cycle == CYCLES:
                break
            before = ledger.acks
            write_until_killed(url, process, ledger, cycle)
            counts.append(ledger.acks - before)
        finally:
            live.kill(process)
    assert ledger.refused == []
    assert all(count > 0 for count in counts), counts  # every cycle wrote before its kill
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    took = time.monotonic() - started
    print(
        f"\ndurability: {CYCLES} kills in {took:.1f} s; {ledger.acks} acknowledged writes "
        f"{counts} to {len(ledger.acked)} games, {len(ledger.in_flight)} updates in flight "
        "at the kills; none lost"
    )
