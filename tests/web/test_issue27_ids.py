"""Issue 27, item 3, audited: every page and API route that takes an id answers 404 or 422
for any id out of range, the tournament pages (added after the item) included; none is a
500 (2**63 reached SQLite as an OverflowError before)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from perfectplay.web.app import Settings, create_app

HUGE = ["0", "9223372036854775807", "9223372036854775808", "9" * 40]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("ids") / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, cap=2.0))) as test_client:
        yield test_client


@pytest.mark.parametrize("game_id", HUGE)
@pytest.mark.parametrize("page", ["/games/{}", "/tournaments/{}"])
def test_pages_of_ids_out_of_range_are_404(client: TestClient, page: str, game_id: str) -> None:
    assert client.get(page.format(game_id)).status_code == 404


@pytest.mark.parametrize("game_id", HUGE)
@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_api_ids_out_of_range_are_404_or_422(client: TestClient, method: str, game_id: str) -> None:
    answer = client.request(method, f"/api/games/{game_id}")
    assert answer.status_code in (404, 422), answer.text
    assert set(answer.json()) == {"error"}
