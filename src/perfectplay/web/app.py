"""The FastAPI application: JSON API, HTML pages and the error contract.

``create_app(Settings(...))`` builds an app with its own engine pool and game store, started
and stopped with the app (``perfectplay serve`` runs it under uvicorn).

API (all bodies JSON; the schema is at ``/docs`` and ``/openapi.json``)::

    GET  /api/health                      liveness, engine workers and queue (never waits
                                          on a search)
    POST /api/{game}/state                the board of a position (positions.state_json)
    POST /api/{game}/play                 the board after a move
    POST /api/{game}/analyze              every move's value      (jobs.analyze)
    POST /api/{game}/move                 the engine's move       (jobs.move: api.result_json)
    POST /api/{game}/history              an optimal history      (jobs.history)
    POST /api/{game}/tree                 the game tree           (jobs.tree)
    GET  /api/games                       saved games, filtered   (?game=&status=&result=
                                          &human_side=&since=&until=&limit=&offset=)
    POST /api/games                       store (or update, with id) a played game
    GET  /api/games/export                the saved games as one JSON document
    POST /api/games/import                store exported games (all or nothing)
    GET  /api/games/{id}                  one saved game
    DELETE /api/games/{id}                forget one saved game

Errors are always JSON, ``{"error": {"type": "NotationError", "message": "..."}}``: 400 for
input the library rejects (the message names the input and the reason), 404 for an unknown
game, route or saved game, 413 for a body over the size limit, 422 for a body of the wrong
form (the message names the field), 503 when the engine is busy or a job overran the time
cap. No traceback ever reaches a client.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from perfectplay import errors
from perfectplay.games.registry import canonical_name
from perfectplay.web import positions
from perfectplay.web.jobs import search_limit
from perfectplay.web.pool import EngineBusy, EngineCrash, EnginePool, EngineTimeout
from perfectplay.web.schemas import (
    GameBody,
    PositionBody,
    SearchBody,
)
from perfectplay.web.store import GameRecord, GameStore, format_timestamp

HERE = Path(__file__).parent
MAX_CELLS = 64
"""Largest board (in cells) the web app plays and analyses."""
GAMES = ("tictactoe", "connect4", "simplexity")


@dataclass(frozen=True)
class Settings:
    """How a server runs: where its database is, how many engine workers it has, the
    per-request time cap (seconds), how many requests may wait for a worker and the
    largest request body (bytes). ``warm`` loads the kernels in each worker at start."""

    db: Path
    workers: int = 2
    cap: float = 5.0
    queue_limit: int = 16
    max_body: int = 256 * 1024
    warm: bool = True


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; its pool and store start with it (lifespan)."""
    store = GameStore(settings.db)  # raises ParameterError naming a bad database file
    pool = EnginePool(settings.workers, settings.cap, settings.queue_limit, settings.warm)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        abandon_stale(store)
        await pool.start()
        try:
            yield
        finally:
            await pool.stop()

    app = FastAPI(
        title="perfectplay",
        summary="Play and analyse tic-tac-toe, Connect Four and the shape-and-color game "
        "against a perfect engine.",
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
    _add_error_handlers(app)
    from perfectplay.web import routes_api, routes_pages

    app.include_router(routes_api.router)
    app.include_router(routes_pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app


TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))


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


# -- checked boundary -------------------------------------------------------------------------
def game_name(game: str) -> str:
    """The canonical name of a game in a URL; :class:`UnknownGameError` (404) otherwise."""
    name = canonical_name(game)
    if name not in GAMES:  # pragma: no cover - every registered game is served
        raise errors.UnknownGameError(f"game {game!r}: not served by the web app")
    return name


def checked(name: str, body: PositionBody) -> positions.Loaded:
    """The validated position of a request body, on a board the web app serves."""
    loaded = positions.load(name, body.position, body.size, body.k)
    check_board(loaded.game, body.size)
    return loaded


def check_board(game: Any, size: str | None) -> None:
    """Refuse boards larger than :data:`MAX_CELLS` cells, naming the size."""
    rows, cols = positions.grid_shape(game)
    if rows * cols > MAX_CELLS:
        shown = size if size is not None else positions.size_text(game)
        raise errors.ParameterError(
            f"size {shown!r}: {rows * cols} cells; this server plays boards of at most "
            f"{MAX_CELLS} cells"
        )


def check_search(body: SearchBody, cap: float) -> None:
    """Refuse a ``time`` above the server's cap (the search itself is capped anyway)."""
    search_limit(body.depth, body.time, cap)


def record_of(body: GameBody) -> GameRecord:
    """The stored form of a played game, after replaying its moves and finding its result.

    Raises :class:`ParameterError` for a status the moves contradict (``finished`` while the
    game runs, ``playing``/``abandoned`` once it has ended: it is stored as finished) and the
    move's own error, with its number, for a move that cannot be played.
    """
    name = game_name(body.game)
    _check_players(body.players)
    _check_settings(body.settings)
    loaded, played = positions.replay(name, body.size, body.k, body.moves)
    check_board(loaded.game, body.size)
    outcome = loaded.game.outcome(loaded.position)
    status, result, reason = body.status, None, None
    if outcome is not None:
        status = "finished"
        result = "draw" if outcome.winner is None else str(int(outcome.winner))
        reason = outcome.reason
    elif status == "finished":
        raise errors.ParameterError(
            f"status 'finished': the game is still running after {len(body.moves)} moves"
        )
    return GameRecord(
        game=name,
        size=positions.size_text(loaded.game),
        k=getattr(loaded.game.spec, "k", None),
        moves=tuple(loaded.game.move_to_json(move) for move in played),
        position=positions.position_text(loaded),
        players=dict(body.players),
        settings=dict(body.settings),
        status=status,
        result=result,
        reason=reason,
        id=body.id,
    )


def _check_players(players: dict[str, str]) -> None:
    if set(players) != {"1", "2"} or not set(players.values()) <= {"human", "engine"}:
        raise errors.ParameterError(
            f"players {players!r}: expected {{'1': 'human' or 'engine', '2': ...}}"
        )


STRENGTHS = {"perfect": set(), "depth": {"depth"}, "time": {"time"}}


def _check_settings(settings: dict[str, Any]) -> None:
    if not settings:
        return
    strength = settings.get("strength")
    extra = set(settings) - {"strength"}
    if strength not in STRENGTHS or extra != STRENGTHS[strength]:
        raise errors.ParameterError(
            f"settings {settings!r}: expected {{'strength': 'perfect'}}, "
            "{'strength': 'depth', 'depth': D} or {'strength': 'time', 'time': S}"
        )
    value = settings.get("depth", settings.get("time"))
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise errors.ParameterError(f"settings {settings!r}: {strength} must be a number")


# -- errors -----------------------------------------------------------------------------------
def error_response(status: int, kind: str, message: str) -> JSONResponse:
    """The one error shape of the API."""
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def library(_: Request, exc: Exception) -> Response:
        status = 404 if isinstance(exc, errors.UnknownGameError) else 400
        return error_response(status, type(exc).__name__, str(exc))

    async def engine(_: Request, exc: Exception) -> Response:
        return error_response(503, type(exc).__name__, str(exc))

    async def form(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, "RequestValidationError", _form_message(exc))

    async def http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            page = TEMPLATES.TemplateResponse(
                request, "not_found.html", {"title": "Not found"}, status_code=404
            )
            return page
        kind = HTTP_ERRORS.get(exc.status_code, "HTTPError")
        return error_response(exc.status_code, kind, str(exc.detail))

    async def bug(_: Request, exc: Exception) -> Response:
        return error_response(500, "InternalError", "internal error; the server log has details")

    app.add_exception_handler(errors.PerfectplayError, library)
    for kind in (EngineBusy, EngineTimeout, EngineCrash):
        app.add_exception_handler(kind, engine)
    app.add_exception_handler(RequestValidationError, form)
    app.add_exception_handler(StarletteHTTPException, http)
    app.add_exception_handler(Exception, bug)


HTTP_ERRORS = {404: "NotFound", 405: "MethodNotAllowed"}


def _form_message(exc: RequestValidationError) -> str:
    """One line per problem, naming the field: ``body.depth: Input should be ...``."""
    parts = []
    for problem in exc.errors():
        if problem.get("type") == "json_invalid":
            reason = problem.get("ctx", {}).get("error", "malformed")
            parts.append(f"body: not valid JSON ({reason})")
            continue
        where = ".".join(str(p) for p in problem.get("loc", ()))
        parts.append(f"{where}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "malformed request"


class BodyLimit:
    """Answer 413 to a request whose body is over ``limit`` bytes, whether it says so in
    ``Content-Length`` or streams more than it."""

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
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, "RequestTooLarge", f"request body over {self.limit:,} bytes")
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass
