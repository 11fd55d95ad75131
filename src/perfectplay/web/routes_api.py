"""The JSON API routes (see :mod:`perfectplay.web.app` for the list and
:mod:`perfectplay.web.boundary` for the error contract).

Engine routes validate the request here, in the server process, so bad input is answered at
once with 400; the search itself runs in the engine pool. What a game offers comes from its
kit's capabilities: the board routes (``state``, ``play``, ``replay``) serve games with a
board view, ``history`` games that can take moves back.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi import Path as FastAPIPath
from fastapi.responses import JSONResponse

from perfectplay import api, contract, errors
from perfectplay.web import boundary
from perfectplay.web.schemas import (
    MAX_ID,
    GameBody,
    HistoryBody,
    ImportBody,
    MoveBody,
    PlayBody,
    PositionBody,
    QueryWhole,
    ReplayBody,
    SearchBody,
    StepsBody,
    TreeBody,
    error_responses,
)
from perfectplay.web.store import ROWS_FIRST_GAMES, GameRecord, GameStore, finished_conflict

GameId = Annotated[int, FastAPIPath(ge=1, le=MAX_ID)]
"""A saved game's id in a URL: SQLite's signed 64-bit integers (422 beyond). Its routes take
digits only (``{game_id:int}``), so that ``DELETE /api/games/export`` is a 405, not a 422
about an id."""
GameName = Annotated[str, FastAPIPath(examples=["tictactoe", "connect4", "ttt"])]
"""A game's registered name or alias in a URL (404 for another)."""

# The error statuses each kind of route answers, for the OpenAPI schema (the handlers that
# produce them are in boundary.add_error_handlers; 413 comes with every route).
PLAIN = error_responses()
BOARD = error_responses(400, 404, 422)
ENGINE = error_responses(400, 404, 422, 503)
STORED = error_responses(400, 404, 422, 503)
ONE_GAME = error_responses(400, 404, 422, 503)  # 400: a stored record that no longer loads
FORGET = error_responses(404, 422, 503)
SAVED = error_responses(400, 404, 409, 422, 503)  # 409: a finished game's record rewritten
UPDATED: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The stored game, updated (the body had an id)",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}

router = APIRouter(prefix="/api")
EXPORT_FORMAT = "perfectplay-games"
EXPORT_VERSION = 3
"""2: tic-tac-toe moves count rows and columns from 1; 3: sizes are width x height in every
game (version 1 and 2 documents still import, converted)."""
EXPORT_VERSIONS = range(1, EXPORT_VERSION + 1)
"""The export versions an import reads."""


def _pool(request: Request) -> Any:
    """The app's engine pool."""
    return request.app.state.pool


def _store(request: Request) -> GameStore:
    """The app's saved-games store."""
    store: GameStore = request.app.state.store
    return store


# -- health -----------------------------------------------------------------------------------
@router.get("/health", summary="Liveness, engine load and warm-up", responses=PLAIN)
async def health(request: Request) -> dict[str, Any]:
    """Answers at once, whatever the engine workers are doing (warming up included):
    ``status`` ``"ok"`` while the server runs; ``engine``: workers, busy ones, waiting
    requests, the cap and counters; ``engines``: whether a worker can take engine work
    (``ready``), the warm-up's progress (``warming``: the game whose engine is loading,
    ``step`` of ``steps``, ``elapsed_s``, ``remaining_s`` estimated or null), the workers
    ready and starting, the ``restarts`` of workers that died, and while not ready
    ``retry_after_s``, when to ask again."""
    pool = _pool(request)
    return {
        "status": "ok",
        "uptime_s": round(time.time() - request.app.state.started, 3),
        "engine": pool.status(),
        "engines": pool.engines(),
    }


# -- games ---------------------------------------------------------------------------------------
@router.get("/meta/games", summary="The games this server knows", responses=PLAIN)
def meta_games() -> dict[str, Any]:
    """``{"games": [...]}``: every registered game (plug-ins included) with its title, size
    rule, ``k``, capabilities, evaluations, side names and default board, in the registry's
    order. A game whose capabilities include ``board`` can be played on the pages."""
    return {"games": boundary.games_json()}


# -- positions ----------------------------------------------------------------------------------
@router.post("/{game}/state", summary="The board of a position", responses=BOARD)
def state(game: GameName, body: PositionBody) -> dict[str, Any]:
    """Cells (``null`` for a game without a board view), side to move, legal moves, outcome
    and winning line of ``position``, and ``exact_play``: whether the engine's perfect play is
    exact for a whole game on this board (``boundary.exact_play``)."""
    loaded = boundary.checked(boundary.played_game(game), body)
    result: dict[str, Any] = contract.state_json(loaded)
    result["exact_play"] = boundary.exact_play(loaded)
    return result


@router.post("/{game}/play", summary="The board after a move", responses=BOARD)
def play(game: GameName, body: PlayBody) -> dict[str, Any]:
    """``position`` after ``move`` (400 naming the move when it is not legal)."""
    loaded = boundary.checked(boundary.played_game(game), body)
    result: dict[str, Any] = contract.state_json(api.play_json(loaded, body.move))
    return result


@router.post("/{game}/replay", summary="The board after moves from the start", responses=BOARD)
def replay(game: GameName, body: ReplayBody) -> dict[str, Any]:
    """The board after ``moves`` played from the initial position (400 naming the first bad
    move by its number)."""
    name = boundary.played_game(game)
    loaded = api.replay(name, body.moves, size=body.size, k=body.k)
    boundary.check_board(loaded, body.size)
    result: dict[str, Any] = contract.state_json(loaded)
    return result


# -- engine -------------------------------------------------------------------------------------
async def _run(
    request: Request, job: str, game: str, body: PositionBody, **options: Any
) -> dict[str, Any]:
    """Check the request here, then run ``job`` on its position with ``options`` in the pool."""
    name = boundary.game_name(game)
    boundary.checked(name, body)
    if isinstance(body, SearchBody):
        boundary.check_search(body, request.app.state.settings.cap)
    args = {"game": name, "position": body.position, "size": body.size, "k": body.k}
    result: dict[str, Any] = await _pool(request).run(job, {**args, **options})
    return result


@router.post("/{game}/analyze", summary="Every legal move's value", responses=ENGINE)
async def analyze(game: GameName, body: SearchBody, request: Request) -> dict[str, Any]:
    """``{"moves": [...]}`` as ``perfectplay analyze --json`` prints it: every move with its
    outcome and distance for the side to move, or its heuristic score when the search could
    not be exact within the limit."""
    return await _run(request, "analyze", game, body, depth=body.depth, time_limit=body.time)


@router.post("/{game}/move", summary="The engine's move", responses=ENGINE)
async def move(game: GameName, body: MoveBody, request: Request) -> dict[str, Any]:
    """The ``best`` object of ``perfectplay best --json``, plus ``after``: the board after
    the engine's move; with ``level``, the move of that strength (``level`` and ``slipped``
    say which, the values are its shallow search's)."""
    return await _run(
        request, "move", game, body, depth=body.depth, time_limit=body.time, level=body.level
    )


@router.post("/{game}/history", summary="An optimal move history of a board", responses=ENGINE)
async def history(game: GameName, body: HistoryBody, request: Request) -> dict[str, Any]:
    """``perfectplay history --json`` plus the board after every move (``steps``); 400 for a
    game whose moves cannot be taken back (no ``history`` capability)."""
    boundary.require(game, api.Capability.HISTORY, "reconstructing a history")
    return await _run(request, "history", game, body, notion=body.notion)


@router.post("/{game}/tree", summary="The game tree of a small position", responses=ENGINE)
async def tree(game: GameName, body: TreeBody, request: Request) -> dict[str, Any]:
    """Nested nodes with minimax values, or alpha-beta windows and cuts."""
    options = {"depth": body.depth, "alphabeta": body.alphabeta, "heuristic": body.heuristic}
    return await _run(request, "tree", game, body, **options)


@router.post("/{game}/steps", summary="Alpha-beta one step at a time", responses=ENGINE)
async def steps(game: GameName, body: StepsBody, request: Request) -> dict[str, Any]:
    """``perfectplay tree --steps --json``: every node entered with its alpha and beta, every
    value returned, every cut with its reason and the moves it skips, and the nodes visited
    against plain minimax's count, moves tried in ``order`` (400 naming the orders for
    another)."""
    boundary.check_steps(body)
    options = {"depth": body.depth, "heuristic": body.heuristic, "order": body.order}
    return await _run(request, "steps", game, body, **options)


# -- saved games --------------------------------------------------------------------------------
def game_filters(
    game: str | None = Query(default=None, max_length=32),
    status: str | None = Query(default=None, max_length=16),
    result: str | None = Query(default=None, max_length=8),
    human_side: str | None = Query(default=None, max_length=1),
    since: str | None = Query(default=None, max_length=40),
    until: str | None = Query(default=None, max_length=40),
) -> dict[str, Any]:
    """The saved-games filters of a query string (empty values mean no filter); the store
    checks their values."""
    return {
        "game": None if not game else boundary.game_name(game),
        "status": status or None,
        "result": result or None,
        "human_side": human_side or None,
        "since": since or None,
        "until": until or None,
    }


Filters = Annotated[dict[str, Any], Depends(game_filters)]


@router.get("/games", summary="Saved games, newest first", responses=STORED)
def list_games(
    request: Request,
    filters: Filters,
    limit: Annotated[QueryWhole, Query(ge=1, le=500)] = 50,
    offset: Annotated[QueryWhole, Query(ge=0, le=MAX_ID)] = 0,
) -> dict[str, Any]:
    """Filters combine; ``total`` counts every match, ``games`` is one page of them."""
    store = _store(request)
    found = store.list(**filters, limit=limit, offset=offset)
    return {
        "games": [record.to_json() for record in found],
        "total": store.count(**filters),
        "limit": limit,
        "offset": offset,
    }


@router.post(
    "/games", summary="Store a played game", status_code=201, responses={**UPDATED, **SAVED}
)
def save_game(body: GameBody, request: Request, response: Response) -> dict[str, Any]:
    """Replays the moves, works out the result and stores the game (updates it with
    ``id``); answers the stored game with its ``id`` and timestamps."""
    record = boundary.record_of(body)
    store = _store(request)
    if record.id is not None:
        response.status_code = 200
        # The moves end the game, so it is stored as finished whatever status the body asks
        # for; a game already finished does not take another status silently (issue 27).
        before = store.get(record.id) if body.status != record.status else None
        if before is not None and before.status == "finished":
            raise finished_conflict(record.id, ["status"])
    return store.save(record).to_json()


@router.get("/games/export", summary="Saved games as one JSON document", responses=STORED)
def export_games(request: Request, filters: Filters) -> JSONResponse:
    """Every matching game (``POST /api/games/import`` reads it back)."""
    store = _store(request)
    games: list[dict[str, Any]] = []
    while True:
        page = store.list(**filters, limit=500, offset=len(games))
        games.extend(record.to_json() for record in page)
        if len(page) < 500:
            break
    document = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": games}
    headers = {"Content-Disposition": 'attachment; filename="perfectplay-games.json"'}
    return JSONResponse(document, headers=headers)


@router.post("/games/import", summary="Store exported games", status_code=201, responses=STORED)
def import_games(body: ImportBody, request: Request) -> dict[str, Any]:
    """Checks every game as ``POST /api/games`` does (moves replayed, results recomputed)
    and stores all of them in one transaction, or none (400 naming the first bad game);
    games already stored (the same game, moves, players and creation time) are skipped, so
    importing a backup twice adds nothing the second time."""
    if body.format not in (None, EXPORT_FORMAT) or body.version not in (None, *EXPORT_VERSIONS):
        raise errors.ParameterError(
            f"format {errors.quote(body.format)} version {errors.quote(body.version)}: expected "
            f"{errors.quote(EXPORT_FORMAT)} version 1 to {EXPORT_VERSION}"
        )
    games = [_as_current(body.version, data) for data in body.games]
    records = [_imported(number, data) for number, data in enumerate(games, start=1)]
    done = _store(request).import_records(records)
    return {
        "imported": len(done.ids),
        "ids": done.ids,
        "skipped": len(done.skipped),
        "skipped_ids": done.skipped,
    }


def _as_current(version: int | None, data: dict[str, Any]) -> dict[str, Any]:
    """An exported game of ``version`` (``None``: the current one) as the current version
    writes it."""
    if version == 1:
        data = _cells_from_one(data)
    if version in (1, 2):
        data = _size_width_first(data)
    return data


def _size_width_first(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 or 2 export's game as version 3 writes it: the size of a game that gave
    rows first (:data:`ROWS_FIRST_GAMES`) as width x height; anything malformed is left for
    the checks."""
    size = data.get("size")
    if data.get("game") not in ROWS_FIRST_GAMES or not isinstance(size, str) or "x" not in size:
        return data
    rows, _, cols = size.partition("x")
    return {**data, "size": f"{cols}x{rows}"}


def _cells_from_one(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 export's game as version 2 writes it: tic-tac-toe moves' rows and columns
    counted from 1 (they counted from 0); anything malformed is left for the checks."""
    moves = data.get("moves")
    if data.get("game") != "tictactoe" or not isinstance(moves, list):
        return data
    shifted = [
        {"row": move["row"] + 1, "col": move["col"] + 1}
        if isinstance(move, dict)
        and set(move) == {"row", "col"}
        and all(type(move[key]) is int for key in ("row", "col"))
        else move
        for move in moves
    ]
    return {**data, "moves": shifted}


def _imported(number: int, data: dict[str, Any]) -> GameRecord:
    """An exported game, re-checked (moves replayed, result recomputed); its timestamps
    kept, its id dropped."""
    try:
        stored = GameRecord.from_json(data)
        body = GameBody(
            game=stored.game,
            size=stored.size,
            k=stored.k,
            moves=list(stored.moves),
            players=stored.players,
            settings=stored.settings,
            status=stored.status,  # type: ignore[arg-type]
        )
        fresh = boundary.record_of(body)
    except errors.PerfectplayError as exc:
        raise type(exc)(f"games item {number}: {exc}") from None
    except ValueError as exc:  # the body's own form (pydantic)
        raise errors.ParameterError(f"games item {number}: {_first_line(exc)}") from None
    return dataclasses.replace(
        fresh,
        id=None,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        finished_at=stored.finished_at,
    )


def _first_line(exc: Exception) -> str:
    """The first line of an error's message (pydantic's span several)."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


@router.get("/games/{game_id:int}", summary="One saved game", responses=ONE_GAME)
def get_game(game_id: GameId, request: Request) -> dict[str, Any]:
    """The stored game (404 when there is none with this id)."""
    record = _store(request).get(game_id)
    if record is None:
        raise _missing(game_id)
    return record.to_json()


@router.delete("/games/{game_id:int}", summary="Forget one saved game", responses=FORGET)
def delete_game(game_id: GameId, request: Request) -> dict[str, Any]:
    """``{"deleted": id}`` (404 when there is none with this id)."""
    if not _store(request).delete(game_id):
        raise _missing(game_id)
    return {"deleted": game_id}


def _missing(game_id: int) -> Exception:
    """The 404 of a saved game that does not exist."""
    from fastapi import HTTPException

    return HTTPException(status_code=404, detail=f"game {game_id}: no such saved game")
