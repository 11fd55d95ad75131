"""Issue 27, item 5: a finished game saved again with anything changed is refused (409,
naming what changed), never a silent 200 that drops the change."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from perfectplay.errors import ConflictError
from perfectplay.web.store import GameStore

from .test_api import client, error_of  # noqa: F401  (client: the app's fixture)
from .test_store import StepClock, finished

CHANGES: dict[str, dict[str, Any]] = {
    "players": {"players": {"1": "engine", "2": "human"}},
    "settings": {"settings": {"strength": "depth", "depth": 2}},
    "status": {"status": "abandoned", "result": None, "reason": None},
    "reason": {"reason": "x connects three"},
    "result": {"result": "draw", "reason": "the board is full"},
}


@pytest.fixture
def games(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.db", clock=StepClock())


@pytest.mark.parametrize("field", sorted(CHANGES))
def test_finished_game_resaved_with_a_change_is_a_conflict(games: GameStore, field: str) -> None:
    saved = games.save(finished())
    with pytest.raises(ConflictError, match=rf"^game 1: it is finished .*\b{field}\b.* differ"):
        games.save(replace(saved, **CHANGES[field]))
    assert games.get(1) == saved


def test_finished_game_resaved_unchanged_is_kept(games: GameStore) -> None:
    saved = games.save(finished())
    assert games.save(replace(saved, created_at=None, updated_at=None)) == saved
    assert games.get(1) == saved and games.count() == 1


def test_api_resave_of_a_finished_game_with_other_players_or_settings_is_409(
    client: TestClient,  # noqa: F811
) -> None:
    moves = [{"column": c} for c in (4, 4, 5, 5, 6, 6, 7)]
    body = {
        "game": "connect4",
        "moves": moves,
        "status": "finished",
        "players": {"1": "human", "2": "engine"},
        "settings": {"strength": "depth", "depth": 6},
    }
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    record = created.json()
    again = {**body, "id": record["id"]}
    other_players = {**again, "players": {"1": "engine", "2": "human"}}
    assert "players" in error_of(
        client.post("/api/games", json=other_players), 409, "ConflictError"
    )
    other_settings = {**again, "settings": {"strength": "depth", "depth": 2}}
    message = error_of(client.post("/api/games", json=other_settings), 409, "ConflictError")
    assert "settings" in message
    other_status = {**again, "status": "abandoned"}
    assert "status" in error_of(client.post("/api/games", json=other_status), 409, "ConflictError")
    assert client.get(f"/api/games/{record['id']}").json() == record
    same = client.post("/api/games", json=again)
    assert same.status_code == 200 and same.json() == record
