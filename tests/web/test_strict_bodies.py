"""The request bodies take each value in its own JSON type: pydantic's lax mode would read
``true`` as the number 1 (``"version": true`` imported as version 1, ``"id": true``
overwriting game 1) and ``1`` or ``"yes"`` as ``true``. Schemathesis found the first
(ST201: a schema-violating request accepted with 201)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .test_api import client, error_of  # noqa: F401  (client: the app's fixture)

GAME = {"game": "tictactoe", "moves": [{"row": 2, "col": 2}], "status": "playing"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/games/import", {"games": [], "version": True}, "version"),
        ("/api/games/import", {"games": [], "version": 1.0}, "version"),
        ("/api/games/import", {"games": [], "format": 1}, "format"),
        ("/api/games", {**GAME, "id": True}, "id"),
        ("/api/games", {**GAME, "id": "1"}, "id"),
        ("/api/tictactoe/tree", {"position": "xox/oox/___", "alphabeta": 1}, "alphabeta"),
        ("/api/tictactoe/tree", {"position": "xox/oox/___", "heuristic": "true"}, "heuristic"),
        ("/api/tictactoe/steps", {"position": "xox/oox/___", "heuristic": "yes"}, "heuristic"),
        ("/api/tictactoe/state", {"position": 5}, "position"),
        ("/api/tictactoe/analyze", {"position": "", "k": True}, "k"),
    ],
)
def test_a_value_of_another_json_type_is_refused(
    client: TestClient,  # noqa: F811
    path: str,
    body: dict[str, Any],
    field: str,
) -> None:
    message = error_of(client.post(path, json=body), 422, "RequestValidationError")
    assert field in message


def test_an_import_of_an_empty_current_document_is_accepted(client: TestClient) -> None:  # noqa: F811
    answer = client.post("/api/games/import", json={"games": [], "version": 3, "format": None})
    assert answer.status_code == 201, answer.text
    assert answer.json()["imported"] == 0


def test_a_game_and_a_tree_with_their_own_types_are_accepted(client: TestClient) -> None:  # noqa: F811
    saved = client.post("/api/games", json=GAME)
    assert saved.status_code in (200, 201), saved.text
    tree = client.post(
        "/api/tictactoe/tree", json={"position": "xox/oox/x__", "alphabeta": True, "depth": 1}
    )
    assert tree.status_code == 200, tree.text
