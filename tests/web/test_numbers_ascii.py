"""Issue 27, item 8: the web's numeric fields (k, depth, time) take JSON numbers, not text
that Python would read as a number ('٤', '1_0')."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .test_api import client, error_of  # noqa: F401  (client: the app's fixture)


@pytest.mark.parametrize(
    ("field", "value"),
    [("k", "٤"), ("k", "1_0"), ("k", "3"), ("depth", "1_0"), ("depth", "٤"), ("time", "1_0")],
)
def test_numeric_fields_refuse_text(
    client: TestClient,  # noqa: F811
    field: str,
    value: str,
) -> None:
    body = {"position": "", "size": "3x3", field: value}
    message = error_of(
        client.post("/api/tictactoe/analyze", json=body), 422, "RequestValidationError"
    )
    assert field in message


def test_numeric_fields_take_numbers(client: TestClient) -> None:  # noqa: F811
    body = {"position": "xox/oox/___", "size": "3x3", "k": 3, "depth": 2, "time": 1}
    response = client.post("/api/tictactoe/analyze", json=body)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("value", ["1_0", "٤", "+5", " 7", "5 ", "0x10", "1e1"])
@pytest.mark.parametrize("name", ["limit", "offset"])
def test_list_query_numbers_take_ascii_digits_only(
    client: TestClient,  # noqa: F811
    name: str,
    value: str,
) -> None:
    message = error_of(client.get(f"/api/games?{name}={value}"), 422, "RequestValidationError")
    assert name in message


def test_list_query_numbers_take_digits(client: TestClient) -> None:  # noqa: F811
    answer = client.get("/api/games?limit=10&offset=0")
    assert answer.status_code == 200, answer.text
    assert (answer.json()["limit"], answer.json()["offset"]) == (10, 0)
