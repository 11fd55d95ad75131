"""Schemathesis against the app, in process: every operation of ``/openapi.json`` gets
generated requests, valid and invalid, and every answer must be declared by the schema and
conform to it (status, content type, headers, body), with no server error.

The app runs with its own database and one engine worker (``warm=False``: the kernels load
on the first search); :data:`CAP` keeps a generated search short. Each operation gets at
most :data:`EXAMPLES` examples per generation phase, so that the file runs in well under two
minutes on two cores. :class:`Recorder` sees every answer of the app, those to the requests
the checks send themselves included; the last test asserts on all of them and prints the
figures (``pytest -s`` shows them).

One 5xx is part of the API's contract, and is the only one allowed: a search that overruns
the server's time cap (or finds every worker busy) is answered 503, declared with the error
body. A generated position can need any amount of search, so a run meets a few.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.python import asgi
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from perfectplay.web.app import Settings, create_app

EXAMPLES = int(os.environ.get("PERFECTPLAY_SCHEMATHESIS_EXAMPLES", "60"))
"""Generated examples per operation and phase (Hypothesis's ``max_examples``);
``PERFECTPLAY_SCHEMATHESIS_EXAMPLES`` asks for more (docs/reliability.md's re-runs)."""
CAP = 0.5
"""The server's per-request time cap, in seconds."""
ENGINE_LIMITS = frozenset({"EngineTimeout", "EngineBusy", "EngineWarming"})
"""The error types of the one declared 5xx: the engine's cap, its waiting line, and the
engines still warming up (a first compile)."""


@dataclass
class Recorder:
    """An ASGI wrapper around ``app`` counting the statuses of its HTTP answers and keeping
    the 5xx ones, with the error type their body names."""

    app: ASGIApp
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[tuple[int, str, str]] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 0
        body = b""

        async def recorded(message: Message) -> None:
            nonlocal status, body
            if message["type"] == "http.response.start":
                status = message["status"]
                self.statuses[status] += 1
            elif status >= 500:
                body += message.get("body", b"")
            await send(message)

        await self.app(scope, receive, recorded)
        if status >= 500:
            self.server_errors.append((status, f"{scope['method']} {scope['path']}", _kind(body)))

    def unexpected(self) -> list[tuple[int, str, str]]:
        """The 5xx answers other than the engine's declared 503."""
        return [error for error in self.server_errors if not _engine_limit(error[0], error[2])]


def _kind(body: bytes) -> str:
    """The error type an answer's body names (``?`` for a body not of the error shape)."""
    try:
        return str(json.loads(body)["error"]["type"])
    except (ValueError, KeyError, TypeError):
        return "?"


def _engine_limit(status: int, kind: str) -> bool:
    return status == 503 and kind in ENGINE_LIMITS


def no_server_error_but_the_engine_cap(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's ``not_a_server_error``, except for the declared 503 of the engine's
    cap or its full waiting line."""
    if response.status_code >= 500 and not _engine_limit(
        response.status_code, _kind(response.content)
    ):
        raise AssertionError(f"server error {response.status_code}: {response.text[:300]}")
    return None


@pytest.fixture(scope="module")
def recorder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorder]:
    db = tmp_path_factory.mktemp("schemathesis") / "games.sqlite3"
    app = create_app(Settings(db=db, workers=1, cap=CAP, warm=False))
    yield Recorder(app)
    asgi.shutdown_lifespans()  # stops the engine worker that the first request started


@pytest.fixture(scope="module")
def api_schema(recorder: Recorder) -> Any:
    """The app's schema; a body over the size limit is refused with 413 before it is read,
    which is a rejection of invalid data too (schemathesis's list leaves 413 out: a large
    generated import body once counted as invalid data accepted)."""
    loaded = schemathesis.openapi.from_asgi("/openapi.json", recorder)
    checks_config = loaded.config.checks
    rejection = checks_config.negative_data_rejection
    checks_config.negative_data_rejection = type(rejection)(
        expected_statuses=[*rejection.expected_statuses, "413"]
    )
    return loaded


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_answer_is_declared_and_conforms(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(
        # A schema cannot say what a position or a move means in a game's notation: a
        # request of the right form may still be refused with a 400 naming the input.
        excluded_checks=[checks.positive_data_acceptance, checks.not_a_server_error],
        additional_checks=[no_server_error_but_the_engine_cap],
    )


def test_no_answer_was_a_server_error(recorder: Recorder) -> None:
    took = time.perf_counter() - recorder.started
    total = sum(recorder.statuses.values())
    statuses = dict(sorted(recorder.statuses.items()))
    print(f"\nschemathesis: {total} requests in {took:.1f} s, statuses {statuses}")
    print(f"schemathesis: 5xx answers {recorder.server_errors}")
    assert total > 0
    assert recorder.unexpected() == []
