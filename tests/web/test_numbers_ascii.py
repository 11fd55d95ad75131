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
