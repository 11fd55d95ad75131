"""The web app's one checked boundary, shared by the app and every router.

Requests reach the library only through here: game names are the registry's
(:func:`game_name`), positions are loaded through :mod:`perfectplay.api` and refused when
larger than the server plays (:func:`checked`), what a game offers is read from its kit's
capabilities (:func:`require`), never from its name. The error contract (one JSON shape,
:func:`error_response`, and the handlers that map exceptions to statuses) and the page
templates with the context every page shares (:func:`page_context`) live here too, so that
:mod:`perfectplay.web.app` only assembles and no router imports it.

Errors are always JSON, ``{"error": {"type": "NotationError", "message": "..."}}``: 400 for
input the library rejects (the message names the input and the reason), 404 for an unknown
game, route or saved game, 413 for a body over the size limit, 422 for a body of the wrong
form (the message names the field), 503 when the engine is busy (``EngineBusy``), still
warming up (``EngineWarming``; both with ``Retry-After``), a job overran the time cap, or
when the saved-games database cannot be used (locked past its busy timeout, disk full). No
traceback ever reaches a client.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from perfectplay import api, contract, errors
from perfectplay.web.jobs import search_limit
from perfectplay.web.pool import EngineBusy, EngineCrash, EngineTimeout
from perfectplay.web.schemas import GameBody, MoveBody, PositionBody, SearchBody, StepsBody
from perfectplay.web.store import GameRecord

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
MAX_CELLS = 64
"""Largest board (in cells) the web app plays and analyses."""
SMALL_BOARD = 16
"""A default board of at most this many cells is played perfectly by default on the pages."""
BOARD = api.Capability.BOARD.value
HTTP_ERRORS: Mapping[int, str] = MappingProxyType({404: "NotFound", 405: "MethodNotAllowed"})
METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
"""The HTTP methods a 405's ``Allow`` header may name."""
STATIC_METHODS = "GET, HEAD"
"""What the static files answer."""
STRENGTHS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "perfect": frozenset(),
        "depth": frozenset({"depth"}),
        "time": frozenset({"time"}),
        "level": frozenset({"level"}),
    }
)
"""The saved engine settings: each strength with the keys it takes besides ``strength``."""


# -- games ----------------------------------------------------------------------------------
def game_name(game: str) -> str:
    """The registered name of a game (or alias) in a URL or a body; raises
    :class:`~perfectplay.errors.UnknownGameError` (404) naming the known games."""
    return api.kit(game).name


def require(game: str, capability: api.Capability, what: str) -> str:
    """The registered name of ``game`` when its kit declares ``capability``; else
    :class:`~perfectplay.errors.ParameterError` (400) saying that ``what`` needs it."""
    game_kit = api.kit(game)
    if not game_kit.has(capability):
        raise errors.ParameterError(
            f"game {errors.quote(game_kit.name)}: {game_kit.title} has no "
            f"{errors.quote(capability.value)} capability, which {what} needs"
        )
    return game_kit.name


def played_game(game: str) -> str:
    """The registered name of a game the play page and the position routes serve: every
    game (one with a board view, ``Capability.BOARD``, is drawn as its board; one without,
    as the list of its legal moves: issue 30's plain games); raises
    :class:`~perfectplay.errors.UnknownGameError` (404)."""
    return game_name(game)


def games_json(capabilities: tuple[api.Capability, ...] = ()) -> list[dict[str, Any]]:
    """``contract.game_json`` of every registered game declaring all of ``capabilities``,
    in the registry's order (by name)."""
    return [
        contract.game_json(game_kit.name)
        for game_kit in api.games()
        if all(game_kit.has(capability) for capability in capabilities)
    ]


def default_game(games: list[dict[str, Any]]) -> str | None:
    """The game a tool page opens on: the one with the smallest default board (the quickest
    to analyse), a built-in game before a plug-in among equals (an installed example's 3x3
    tic-tac-toe must not displace the built-in one), then the first by name; ``None`` when
    there is none."""
    drawn = [game for game in games if game["board"] is not None]
    if not drawn:
        return None

    def rank(game: dict[str, Any]) -> tuple[int, bool]:
        return game["board"]["rows"] * game["board"]["cols"], not api.is_builtin(game["name"])

    return str(min(drawn, key=rank)["name"])


# -- checked loading ------------------------------------------------------------------------
def checked(name: str, body: PositionBody) -> api.Loaded:
    """The validated position of a request body (see :func:`api.load_with_moves`), on a
    board the web app serves (:func:`check_board`)."""
    loaded = api.load_with_moves(name, body.position, size=body.size, k=body.k)
    check_board(loaded, body.size)
    return loaded


def exact_play(loaded: api.Loaded) -> bool:
    """Whether perfect play is exact on the board of ``loaded`` for a whole game: every
    position from the start to the end within the kit's reach (:func:`api.reach`: few enough
    plies left, or an opening book). Where it is not (15x15 tic-tac-toe, Connect Four 8x7),
    the engine's "perfect" move is exact only near the end, a timed heuristic move before."""
    game = loaded.game
    plies = game.plies_left_bound(api.start(game).position)
    return api.reach(game).gap(0, plies) is None


def check_board(loaded: api.Loaded, size: str | None) -> None:
    """Refuse a board of more cells than its kit declares the web serves
    (``Policy.web_cells``: :data:`MAX_CELLS` unless the game's engine holds bigger boards,
    as the m,n,k engine does up to 19x19) with :class:`~perfectplay.errors.ParameterError`
    naming the size (a game without a board view has no cells to count)."""
    view = api.board(loaded.game, loaded.position)
    most = api.kit_of(loaded.game).policy.web_cells
    if view is None or view.rows * view.cols <= most:
        return
    shown = size if size is not None else api.kit_of(loaded.game).size_text(loaded.game)
    raise errors.ParameterError(
        f"size {errors.quote(shown)}: {view.rows * view.cols} cells; this server plays boards "
        f"of at most {most} cells of this game; larger ones are played with the command line"
    )


def web_cells(name: str) -> int:
    """The most cells a board of game ``name`` has on this server (its kit's
    ``Policy.web_cells``, see :func:`check_board`)."""
    return api.kit(name).policy.web_cells


def check_steps(body: StepsBody) -> None:
    """Refuse a step-through request naming an unknown move order, with
    :class:`~perfectplay.errors.ParameterError` (400) naming the orders, before any work."""
    api.step_order(body.order)


def check_search(body: SearchBody, cap: float) -> None:
    """Refuse a ``time`` above the server's cap (the search itself is capped anyway), an
    unknown ``level``, and a level given with a limit."""
    search_limit(body.depth, body.time, cap)
    level = body.level if isinstance(body, MoveBody) else None
    if level is not None:
        api.level_named(level)
        if body.depth is not None or body.time is not None:
            raise errors.ParameterError("level: a strength of its own, not with depth or time")


def levels() -> list[tuple[str, str]]:
    """Every strength level a person can beat, weakest first: (name, what it does)."""
    return [(level.name, level.summary) for level in api.LEVELS]


def record_of(body: GameBody) -> GameRecord:
    """The stored form of a played game, after replaying its moves and finding its result.

    Raises :class:`~perfectplay.errors.ParameterError` for a status the moves contradict
    (``finished`` while the game runs; ``playing``/``abandoned`` once it has ended is stored
    as finished), bad players or settings, and the move's own error, with its number, for a
    move that cannot be played.
    """
    name = game_name(body.game)
    check_players(body.players)
    check_settings(body.settings)
    loaded = api.replay(name, body.moves, size=body.size, k=body.k)
    check_board(loaded, body.size)
    game = loaded.game
    outcome = game.outcome(loaded.position)
    status, result, reason = body.status, None, None
    if outcome is not None:
        status = "finished"
        result = "draw" if outcome.winner is None else str(int(outcome.winner))
        reason = outcome.reason
    elif status == "finished":
        raise errors.ParameterError(
            f"status 'finished': the game is still running after {len(body.moves)} moves"
        )
    game_kit = api.kit_of(game)
    return GameRecord(
        game=name,
        size=game_kit.size_text(game),
        k=game_kit.k_of(game),
        moves=tuple(
            contract.move_json(game, game_kit.move_from_json(game, data)) for data in body.moves
        ),
        position=api.position_text(loaded),
        players=dict(body.players),
        settings=dict(body.settings),
        status=status,
        result=result,
        reason=reason,
        id=body.id,
    )


def check_players(players: dict[str, str]) -> None:
    """Refuse players other than ``{"1": "human"|"engine", "2": ...}``
    (:class:`~perfectplay.errors.ParameterError`)."""
    if set(players) != {"1", "2"} or not set(players.values()) <= {"human", "engine"}:
        raise errors.ParameterError(
            f"players {errors.quote(players)}: expected {{'1': 'human' or 'engine', '2': ...}}"
        )


def check_settings(settings: dict[str, Any]) -> None:
    """Refuse engine settings other than none, ``perfect``, ``depth`` D, ``time`` S or
    ``level`` NAME (:class:`~perfectplay.errors.ParameterError` naming them)."""
    if not settings:
        return
    strength = settings.get("strength")
    extra = frozenset(settings) - {"strength"}
    if not isinstance(strength, str) or extra != STRENGTHS.get(strength):
        raise errors.ParameterError(
            f"settings {errors.quote(settings)}: expected {{'strength': 'perfect'}}, "
            "{'strength': 'depth', 'depth': D}, {'strength': 'time', 'time': S} or "
            "{'strength': 'level', 'level': NAME}"
        )
    if strength == "level":
        level = settings["level"]
        if not isinstance(level, str):
            raise errors.ParameterError(f"settings {errors.quote(settings)}: level is a name")
        api.level_named(level)
        return
    value = settings.get("depth", settings.get("time"))
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise errors.ParameterError(
            f"settings {errors.quote(settings)}: {strength} must be a number"
        )


# -- pages ----------------------------------------------------------------------------------
def page_context(request: Request, title: str, **extra: Any) -> dict[str, Any]:
    """What every page template gets: its ``title``, the server's ``cap``, every game's
    ``contract.game_json`` (``all_games``, also given to the scripts), the games the pages
    can draw (``board_games``, for the navigation); ``extra`` adds or overrides."""
    every = games_json()
    context: dict[str, Any] = {
        "title": title,
        "cap": float(request.app.state.settings.cap),
        "all_games": every,
        "board_games": [game for game in every if BOARD in game["capabilities"]],
        "small_board": SMALL_BOARD,
    }
    context.update(extra)
    return context


def page(
    request: Request, template: str, title: str, status_code: int = 200, **extra: Any
) -> HTMLResponse:
    """The page ``template`` with :func:`page_context`."""
    context = page_context(request, title, **extra)
    response: HTMLResponse = TEMPLATES.TemplateResponse(
        request, template, context, status_code=status_code
    )
    return response


# -- errors ---------------------------------------------------------------------------------
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
"""Headers of every answer: scripts and everything else only from this server (the pages'
JSON data blocks are not scripts; inline style attributes are allowed), no framing, no
content sniffing, no referrer."""


def error_response(status: int, kind: str, message: str) -> JSONResponse:
    """The one error shape of the API: ``{"error": {"type": kind, "message": message}}``."""
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status)


def add_error_handlers(app: FastAPI) -> None:
    """Map every exception to the error contract: library errors to 400 (404 for an unknown
    game, 409 for a conflict with what is stored), engine pool errors and an unusable
    database to 503, malformed bodies to 422, HTTP errors to their status (a page not found
    to the HTML 404 page) and anything else to a 500 without details."""
    app.add_exception_handler(errors.PerfectplayError, _library)
    for kind in (EngineBusy, EngineTimeout, EngineCrash):
        app.add_exception_handler(kind, _engine)
    app.add_exception_handler(sqlite3.DatabaseError, _database)  # OperationalError too
    app.add_exception_handler(RequestValidationError, _form)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _bug)


async def _library(_: Request, exc: Exception) -> Response:
    """A library error: 404 for an unknown game or a saved game that is not there, 409 for
    a change that contradicts what is stored, else 400, with the library's message."""
    status = 400
    if isinstance(exc, errors.UnknownGameError | errors.NotFoundError):
        status = 404
    elif isinstance(exc, errors.ConflictError):
        status = 409
    return error_response(status, type(exc).__name__, str(exc))


async def _engine(_: Request, exc: Exception) -> Response:
    """The engine pool was busy, still warming up, overran the cap or lost a worker: 503;
    with ``Retry-After`` (seconds) when the pool says when to ask again (busy, warming)."""
    response = error_response(503, type(exc).__name__, str(exc))
    retry_after = getattr(exc, "retry_after", None)
    if isinstance(retry_after, int):
        response.headers["Retry-After"] = str(retry_after)
    return response


async def _database(_: Request, exc: Exception) -> Response:
    """The saved-games database could not be used: locked by other writers past the busy
    timeout, or the disk full or failing (the request may succeed later), or the file
    damaged while the server ran (it needs restoring): 503, with SQLite's reason (it names no
    path or query). Never a 500: nothing is wrong with the request or the program."""
    if isinstance(exc, sqlite3.OperationalError):
        advice = "try again"
    else:  # "database disk image is malformed": waiting will not mend it
        advice = "restore it from an export (GET /api/games/export) or a backup"
    return error_response(
        503, "StoreUnavailable", f"the saved-games database is unavailable ({exc}); {advice}"
    )


async def _form(_: Request, exc: Exception) -> Response:
    """A body of the wrong form: 422 naming the fields (:func:`form_message`)."""
    assert isinstance(exc, RequestValidationError)
    return error_response(422, "RequestValidationError", form_message(exc))


async def _http(request: Request, exc: Exception) -> Response:
    """An HTTP error with its status; a page (not ``/api/``) not found is the HTML 404 page,
    with the reason when the route gave one."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and not request.url.path.startswith("/api/"):
        detail = exc.detail if exc.detail != "Not Found" else None
        return page(request, "not_found.html", "Not found", status_code=404, detail=detail)
    kind = HTTP_ERRORS.get(exc.status_code, "HTTPError")
    response = error_response(exc.status_code, kind, str(exc.detail))
    response.headers.update(exc.headers or {})
    allowed = allowed_methods(request) if exc.status_code == 405 else ""
    if allowed:  # else the raiser's own header, if any (the static files give none)
        response.headers["Allow"] = allowed
    return response


def allowed_methods(request: Request) -> str:
    """The ``Allow`` header of a 405: every method some route takes at the request's path.

    Starlette's own names only the methods of the first route matching the path, so
    ``PUT /api/games`` would have said ``GET`` although ``POST`` is taken too. Each method is
    tried against the app's routes (FastAPI groups included routers in wrappers whose
    ``matches`` is the one public way in); under a mount (the static files, which match
    every method and refuse all but reading) it is ``GET, HEAD``."""
    mounts = [route for route in request.app.router.routes if isinstance(route, Mount)]
    if any(mount.matches(request.scope)[0] is Match.FULL for mount in mounts):
        return STATIC_METHODS
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    allowed = [
        method
        for method in METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes
        )
    ]
    return ", ".join(allowed)


async def _bug(_: Request, exc: Exception) -> Response:
    """A bug: 500 without details (the server log has the traceback)."""
    return error_response(500, "InternalError", "internal error; the server log has details")


def form_message(exc: RequestValidationError) -> str:
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
