"""The FastAPI application: JSON API, HTML pages and the error contract.

``create_app(Settings(...))`` builds an app with its own engine pool and game store, started
and stopped with the app (``perfectplay serve`` runs it under uvicorn). The pool starts in
the background: the app answers at once, while one engine worker warms up (compiles the
kernels on a fresh install) and the others start after it; engine requests that come
before a worker is ready wait for it when one is expected soon, else get 503 with
``Retry-After`` (``EngineWarming``), and ``/api/health`` says how far the warm-up is.

API (all bodies JSON; the schema is at ``/docs`` and ``/openapi.json``)::

    GET  /api/health                      liveness, engine workers and queue, the engines'
                                          warm-up (never waits on a search or a worker)
    GET  /api/meta/games                  the registered games    (contract.game_json)
    POST /api/{game}/state                the board of a position (contract.state_json)
    POST /api/{game}/play                 the board after a move
    POST /api/{game}/replay               the board after moves from the start
    POST /api/{game}/analyze              every move's value      (jobs.analyze)
    POST /api/{game}/move                 the engine's move       (jobs.move: contract.result_json)
    POST /api/{game}/history              an optimal history      (jobs.history)
    POST /api/{game}/tree                 the game tree           (jobs.tree)
    POST /api/{game}/steps                alpha-beta step by step (jobs.steps)
    GET  /api/games                       saved games, filtered   (?game=&status=&result=
                                          &human_side=&since=&until=&limit=&offset=)
    POST /api/games                       store (or update, with id) a played game
    GET  /api/games/export                the saved games as one JSON document
    POST /api/games/import                store exported games (all or nothing)
    GET  /api/games/{id}                  one saved game
    DELETE /api/games/{id}                forget one saved game

Pages: ``/``, ``/play/{game}``, ``/tools/...``, ``/games`` and ``/games/{id}`` (replay),
``/tournaments`` and ``/tournaments/{id}`` (the runs of ``perfectplay tournament``).

Errors are always JSON, ``{"error": {"type": "NotationError", "message": "..."}}``: 400 for
input the library rejects (the message names the input and the reason), 404 for an unknown
game, route or saved game, 413 for a body over the size limit, 422 for a body of the wrong
form (the message names the field), 503 when the engine is busy or a job overran the time
cap, or while the engines warm up (with ``Retry-After``), or when the saved-games database
cannot be used. Each route declares the statuses it
answers, with this error body, in the OpenAPI schema. No traceback ever reaches a client.
The contract and the checked loading of requests are in :mod:`perfectplay.web.boundary`;
this module only assembles the app and no router imports it. The position routes serve
every game (cells ``null`` without ``Capability.BOARD``), ``history`` those that declare
``Capability.HISTORY``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from perfectplay import api
from perfectplay.web import boundary, routes_api, routes_pages, routes_tournaments
from perfectplay.web.pool import FIRST_WAIT, EnginePool
from perfectplay.web.store import GameStore, format_timestamp


@dataclass(frozen=True)
class Settings:
    """How a server runs: where its database is, how many engine workers it has, the
    per-request time cap (seconds), how many requests may wait for a worker and the
    largest request body (bytes). ``warm`` loads the kernels in each worker at start (one
    worker first, compiling them on a fresh install). ``report`` receives the engine pool's
    progress lines (the warm-up, restarts of workers that died); None: silent.
    ``first_wait``: seconds an engine request may wait for the first worker while none is
    ready (:data:`perfectplay.web.pool.FIRST_WAIT`; the cap when that is longer)."""

    db: Path
    workers: int = 2
    cap: float = 5.0
    queue_limit: int = 16
    max_body: int = 256 * 1024
    warm: bool = True
    report: Callable[[str], None] | None = None
    first_wait: float = FIRST_WAIT


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; its pool and store start with it (lifespan: the pool's
    workers start in the background, the app serves at once) and its pool's workers, warming
    or not, stop with it."""
    store = GameStore(settings.db)  # raises ParameterError naming a bad database file
    pool = EnginePool(
        settings.workers,
        settings.cap,
        settings.queue_limit,
        settings.warm,
        settings.report,
        settings.first_wait,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            abandon_stale(store)
            await pool.start()  # returns at once: the workers start in the background
            yield
        finally:
            await pool.stop()

    titles = ", ".join(game_kit.title for game_kit in api.games())
    app = FastAPI(
        title="perfectplay",
        summary=f"Play and analyse board games against a perfect engine: {titles}.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages load Swagger UI from a CDN; /docs is served locally
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.pool = pool
    app.state.store = store
    app.state.started = time.time()
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    boundary.add_error_handlers(app)
    app.include_router(routes_api.router)
    app.include_router(routes_pages.router)
    app.include_router(routes_tournaments.router)
    app.mount("/static", StaticFiles(directory=boundary.HERE / "static"), name="static")
    return app


STALE = timedelta(hours=1)
"""A game still ``playing`` this long after its last move, when a server starts, was left
by a page that closed without saying so (a crash, a killed browser): it is abandoned."""


def abandon_stale(store: GameStore, now: datetime | None = None) -> int:
    """Mark games left ``playing`` for longer than :data:`STALE` as abandoned; how many."""
    moment = now if now is not None else datetime.now(UTC)
    cutoff = format_timestamp(moment - STALE)
    stale = 0
    while True:
        page = store.list(status="playing", until=cutoff, limit=500)
        for record in page:
            store.save(dataclasses.replace(record, status="abandoned"))
        stale += len(page)
        if len(page) < 500:
            return stale


# -- headers ----------------------------------------------------------------------------------
class SecurityHeaders:
    """Add :data:`boundary.SECURITY_HEADERS` to every HTTP answer (pages, API, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", ()), *boundary.SECURITY_HEADERS],
                }
            await send(message)

        await self.app(scope, receive, with_headers)


# -- request size -----------------------------------------------------------------------------
class BodyLimit:
    """Answer 413 to a request whose body is over ``limit`` bytes, whether it says so in
    ``Content-Length`` or streams more than it (``Transfer-Encoding: chunked``).

    A streamed body is counted as the app reads it (:class:`_Counted`). Past the limit the
    read fails, and the app's own answer to that failure is dropped for the 413: FastAPI
    turns any failure to read a body into a 400 "error parsing the body", which is how a
    chunked body over the limit was once answered."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        counted = _Counted(self.limit, receive, send)
        # An app that lets the failed read through is refused below all the same.
        with contextlib.suppress(_TooLarge):
            await self.app(scope, counted.receive, counted.send)
        if counted.over and not counted.answered:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = boundary.error_response(
            413, "RequestTooLarge", f"request body over {self.limit:,} bytes"
        )
        await response(scope, receive, send)


class _Counted:
    """The ``receive`` and ``send`` of one request, counting the body as the app reads it.

    ``receive`` raises :class:`_TooLarge` once more than ``limit`` bytes have come, and sets
    ``over``; from then on ``send`` drops what the app answers (unless it had already begun
    answering before the limit was passed: ``answered``), so that the caller answers 413."""

    def __init__(self, limit: int, receive: Receive, send: Send) -> None:
        self.limit = limit
        self.seen = 0
        self.over = False
        self.answered = False
        self._receive = receive
        self._send = send

    async def receive(self) -> Message:
        message = await self._receive()
        self.seen += len(message.get("body", b""))
        if self.seen > self.limit:
            self.over = True
            raise _TooLarge
        return message

    async def send(self, message: Message) -> None:
        if self.over and not self.answered:
            return  # the app's answer to a body it could not read: the 413 replaces it
        if message["type"] == "http.response.start":
            self.answered = True
        await self._send(message)


class _TooLarge(Exception):
    """A streamed request body passed the limit while the app read it."""
