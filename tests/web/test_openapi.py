"""The OpenAPI schema declares every status each operation answers, errors with the one
error body (``schemas.ErrorBody``); concrete requests of every error class get a status their
operation declares, with a body of that shape. Also: 405 names every method of the path
(``Allow``), and a saved game's routes take only digits, so another method on
``/api/games/export`` is a 405, not a 422 about an id."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from perfectplay.web.app import Settings, create_app
from perfectplay.web.pool import EngineBusy
from perfectplay.web.schemas import ErrorBody
from perfectplay.web.store import GameStore

ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorBody"}
ENGINE = {"analyze", "move", "history", "tree"}
BOARD = {"state", "play", "replay"}
MOVES = [{"column": c} for c in (4, 4, 5, 5, 6, 6, 7)]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("openapi") / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, cap=1.0, warm=False))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def operations(client: TestClient) -> dict[tuple[str, str], dict[str, Any]]:
    """Every operation of ``/openapi.json`` by (method, path template)."""
    paths = client.get("/openapi.json").json()["paths"]
    return {
        (method.upper(), path): operation
        for path, methods in paths.items()
        for method, operation in methods.items()
    }


def declared(operations: dict[tuple[str, str], dict[str, Any]], method: str, url: str) -> set[int]:
    """The statuses declared by the operation serving ``method url`` (a literal path before a
    template: ``/api/games/export`` before ``/api/games/{game_id}``)."""
    path = url.split("?")[0]
    candidates = [
        (template.count("{"), operation)
        for (verb, template), operation in operations.items()
        if verb == method and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path)
    ]
    assert candidates, f"no operation serves {method} {url}"
    return {int(status) for status in min(candidates, key=lambda found: found[0])[1]["responses"]}


def test_every_operation_declares_413_and_its_errors_with_the_error_body(
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    assert len(operations) >= 15
    for (method, path), operation in operations.items():
        responses = operation["responses"]
        assert "413" in responses, (method, path)
        for status, answer in responses.items():
            if int(status) >= 400:
                assert answer["content"]["application/json"]["schema"] == ERROR_SCHEMA, status
        if operation.get("parameters") or operation.get("requestBody"):
            assert "422" in responses, (method, path)
        route = path.rsplit("/", 1)[-1]
        if route in ENGINE:
            assert {"400", "404", "422", "503"} <= set(responses), path
        if route in BOARD:
            assert {"400", "404", "422"} <= set(responses), path
        if path.startswith("/api/games"):
            assert "503" in responses, (method, path)  # the database, locked or failing


def test_the_error_body_schema_is_the_error_contract(client: TestClient) -> None:
    components = client.get("/openapi.json").json()["components"]["schemas"]
    assert components["ErrorBody"]["required"] == ["error"]
    assert set(components["ErrorDetail"]["required"]) == {"type", "message"}
    assert "HTTPValidationError" not in components  # FastAPI's 422 shape, which we never send


BIG = b"x" * 300_000


@pytest.mark.parametrize(
    ("method", "url", "body", "status"),
    [
        ("GET", "/api/health", BIG, 413),
        ("GET", "/api/meta/games", BIG, 413),
        ("POST", "/api/tictactoe/state", {"position": "xq"}, 400),
        ("POST", "/api/chess/state", {"position": ""}, 404),
        ("POST", "/api/tictactoe/play", {"position": ""}, 422),
        ("POST", "/api/tictactoe/replay", {"moves": [{"row": 9, "col": 9}]}, 400),
        ("POST", "/api/connect4/analyze", {"position": "4", "time": 99}, 400),
        ("POST", "/api/connect4/move", {"position": "4", "colour": "red"}, 422),
        ("POST", "/api/tictactoe/history", {"position": "xq"}, 400),
        ("POST", "/api/chess/tree", {"position": ""}, 404),
        ("POST", "/api/tictactoe/tree", BIG, 413),
        ("GET", "/api/games?status=won", None, 400),
        ("GET", "/api/games?game=chess", None, 404),
        ("GET", "/api/games?limit=0", None, 422),
        ("POST", "/api/games", {"game": "connect4", "moves": MOVES}, 201),
        ("POST", "/api/games", {"game": "chess", "moves": []}, 404),
        ("POST", "/api/games", {"id": 2**40, "game": "connect4", "moves": MOVES}, 404),
        ("POST", "/api/games", BIG, 413),
        ("GET", "/api/games/export?since=yesterday", None, 400),
        ("POST", "/api/games/import", {"games": [{}]}, 400),
        ("POST", "/api/games/import", {"games": {}}, 422),
        ("GET", "/api/games/123456789", None, 404),
        ("GET", "/api/games/0", None, 422),
        ("DELETE", "/api/games/123456789", None, 404),
        ("DELETE", "/api/games/9223372036854775808", None, 422),
    ],
)
def test_each_answer_is_declared_by_its_operation(
    client: TestClient,
    operations: dict[tuple[str, str], dict[str, Any]],
    method: str,
    url: str,
    body: Any,
    status: int,
) -> None:
    content = body if isinstance(body, bytes) else None
    answer = client.request(method, url, json=None if content else body, content=content)
    assert answer.status_code == status, answer.text
    assert status in declared(operations, method, url)
    if status >= 400:
        ErrorBody.model_validate(answer.json())


def test_an_update_is_200_and_declared(
    client: TestClient, operations: dict[tuple[str, str], dict[str, Any]]
) -> None:
    first = {"game": "connect4", "moves": MOVES[:1], "status": "playing"}
    stored = client.post("/api/games", json=first).json()
    body = {"id": stored["id"], "game": "connect4", "moves": MOVES}
    assert client.post("/api/games", json=body).status_code == 200
    assert 200 in declared(operations, "POST", "/api/games")


def test_a_busy_engine_is_a_declared_503(
    client: TestClient,
    operations: dict[tuple[str, str], dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def busy(job: str, args: dict[str, Any]) -> dict[str, Any]:
        raise EngineBusy("all 1 engine workers are busy; try again shortly")

    monkeypatch.setattr(client.app.state.pool, "run", busy)  # type: ignore[attr-defined]
    for route in sorted(ENGINE):
        answer = client.post(f"/api/tictactoe/{route}", json={"position": "x________"})
        assert answer.status_code == 503 and answer.json()["error"]["type"] == "EngineBusy"
        assert 503 in declared(operations, "POST", f"/api/tictactoe/{route}")


@pytest.mark.parametrize(
    ("method", "url", "body", "operation"),
    [
        ("GET", "/api/games", None, "list"),
        ("POST", "/api/games", {"game": "connect4", "moves": MOVES}, "save"),
        ("POST", "/api/games/import", {"games": []}, "import_records"),
        ("GET", "/api/games/export", None, "list"),
        ("GET", "/api/games/1", None, "get"),
        ("DELETE", "/api/games/1", None, "delete"),
    ],
)
def test_a_locked_database_is_a_declared_503_not_a_500(
    client: TestClient,
    operations: dict[tuple[str, str], dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    url: str,
    body: Any,
    operation: str,
) -> None:
    def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(GameStore, operation, locked)
    answer = client.request(method, url, json=body)
    assert answer.status_code == 503, answer.text
    error = ErrorBody.model_validate(answer.json()).error
    assert error.type == "StoreUnavailable" and "database is locked" in error.message
    assert 503 in declared(operations, method, url)


@pytest.mark.parametrize(
    ("method", "url", "allow"),
    [
        ("PUT", "/api/games", "GET, POST"),
        ("OPTIONS", "/api/games/1", "DELETE, GET"),
        ("DELETE", "/api/games/export", "GET"),
        ("GET", "/api/games/import", "POST"),
        ("PUT", "/api/health", "GET"),
        ("POST", "/static/app.css", "GET, HEAD"),  # the static files said no Allow at all
        ("DELETE", "/static/no-such-file.js", "GET, HEAD"),
    ],
)
def test_405_allows_every_method_of_the_path(
    client: TestClient, method: str, url: str, allow: str
) -> None:
    answer = client.request(method, url)
    assert answer.status_code == 405, answer.text
    assert answer.headers["allow"] == allow
    assert ErrorBody.model_validate(answer.json()).error.type == "MethodNotAllowed"


def test_a_saved_game_id_that_is_not_digits_is_not_found(client: TestClient) -> None:
    answer = client.get("/api/games/abc")
    assert answer.status_code == 404 and answer.json()["error"]["type"] == "NotFound"


@pytest.mark.parametrize("name", ["PositionBody", "PlayBody", "ReplayBody", "GameBody"])
def test_request_bodies_show_examples_in_the_docs(client: TestClient, name: str) -> None:
    """Issue 15, item 9: ``/docs`` shows example bodies; each example is a valid body."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    schema = schemas[name]
    examples = schema.get("examples") or [
        {
            key: field["examples"][0]
            for key, field in schema["properties"].items()
            if "examples" in field
        }
    ]
    assert examples and all(isinstance(example, dict) and example for example in examples)
    assert set(examples[0]) <= set(schema["properties"])


def test_a_database_damaged_while_serving_is_a_503_that_says_to_restore(tmp_path: Path) -> None:
    """It was a 500: SQLite's "malformed" is a DatabaseError, not an OperationalError."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, cap=1.0, warm=False))) as damaged:
        for _ in range(3):
            stored = damaged.post("/api/games", json={"game": "connect4", "moves": MOVES})
            assert stored.status_code == 201, stored.text
        data = db.read_bytes()
        db.write_bytes(data[:100] + b"\xff" * (len(data) - 100))  # every page after the header
        answer = damaged.get("/api/games")
    assert answer.status_code == 503, answer.text
    error = ErrorBody.model_validate(answer.json()).error
    assert error.type == "StoreUnavailable" and "restore it" in error.message
