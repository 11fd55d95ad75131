"""The HTML pages: templates with plain JavaScript that talks to the JSON API.

Each page is one template in ``templates/`` and one script in ``static/``; the scripts hold
no game rules and no game names (the server says which moves are legal, how a game ended and
what each game is: ``contract.game_json`` in every page). Which games a page offers comes
from their capabilities: every game is played, analysed and drawn as a tree (on its board, or
by its legal moves without a board view), the history tool takes games with a board view
that can also take moves back.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from perfectplay import api, contract, errors
from perfectplay.web import boundary

router = APIRouter(include_in_schema=False)
BOARD = api.Capability.BOARD
HISTORY = api.Capability.HISTORY


def _tool(request: Request, template: str, title: str, *needs: api.Capability) -> HTMLResponse:
    """A tool page offering the games that declare ``needs``: their ``contract.game_json``
    as ``choices`` and the one it opens on as ``default_game``."""
    choices = boundary.games_json(needs)
    return boundary.page(
        request,
        template,
        title,
        choices=choices,
        default_game=boundary.default_game(choices),
    )


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    """The games and the tools; each board game's card shows its first example position."""
    thumbs = {game["name"]: _example_state(game) for game in boundary.games_json((BOARD,))}
    return boundary.page(request, "index.html", "perfectplay", thumbs=thumbs)


def _example_state(game: dict[str, Any]) -> dict[str, Any] | None:
    """The board of the game's first example position on its default board, else its empty
    default board (Gomoku's examples are 3x3 pictures, and its card shows 15x15); ``None``
    when neither loads (a card is drawn without a picture rather than the page failing)."""
    default = game["size"]["default"] if game["size"] else None
    try:
        for example in game["examples"]:
            state: dict[str, Any] = contract.state_json(api.load_with_moves(game["name"], example))
            if default is None or state.get("size") == default:
                return state
        return dict(contract.state_json(api.start(api.new_game(game["name"])[0])))
    except errors.PerfectplayError:
        return None


@router.get("/play/{game}", response_class=HTMLResponse)
def play_page(request: Request, game: str) -> HTMLResponse:
    """Play ``game`` against the engine (``?size=&k=&side=`` pick the board and the side):
    on its board, or by its list of legal moves for a game without a board view; 404 for an
    unknown game."""
    meta = _served(game)
    title = f"Play {meta['title']}"
    return boundary.page(
        request,
        "play.html",
        title,
        game=meta,
        levels=boundary.levels(),
        web_cells=boundary.web_cells(meta["name"]),
    )


@router.get("/tools/analyze", response_class=HTMLResponse)
def analyze_page(request: Request) -> HTMLResponse:
    """Paste or edit a position (a board, or a move list of legal-move buttons for a game
    without a board view); its best move and every move's value."""
    return _tool(request, "analyze.html", "Analyse a position")


@router.get("/tools/history", response_class=HTMLResponse)
def history_page(request: Request) -> HTMLResponse:
    """An optimal move history of a final board, step by step."""
    return _tool(request, "history.html", "Reconstruct a history", BOARD, HISTORY)


@router.get("/tools/tree", response_class=HTMLResponse)
def tree_page(request: Request) -> HTMLResponse:
    """The game tree of a small position, expandable, with alpha-beta cuts (nodes without
    pictures for a game without a board view)."""
    return _tool(request, "tree.html", "Game tree")


@router.get("/games", response_class=HTMLResponse)
def games_page(request: Request) -> HTMLResponse:
    """Saved games with filters, export and import."""
    return boundary.page(request, "games.html", "Saved games")


@router.get("/docs", response_class=HTMLResponse)
def docs_page(request: Request) -> HTMLResponse:
    """The API reference, drawn from ``/openapi.json`` by a local script (works offline)."""
    return boundary.page(request, "docs.html", "JSON API")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def replay_page(request: Request, game_id: int) -> HTMLResponse:
    """Replay one saved game with the engine's analysis; a game that is not saved is the
    404 page, with its status (the page used to answer 200 and only then say not found), and
    so is an id the store cannot hold (below 1 or past SQLite's 64-bit integers)."""
    try:
        saved = request.app.state.store.get(game_id)
    except errors.ParameterError:
        saved = None
    if saved is None:
        raise HTTPException(status_code=404, detail=f"game {game_id}: no such saved game")
    return boundary.page(request, "replay.html", f"Game {game_id}", game_id=game_id)


def _served(game: str) -> dict[str, Any]:
    """The ``contract.game_json`` of a game the play page serves; an unknown game is a 404
    whose page says why."""
    try:
        name = boundary.played_game(game)
    except errors.UnknownGameError:
        raise HTTPException(status_code=404, detail=f"game {errors.quote(game)}: unknown") from None
    except errors.ParameterError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None
    return contract.game_json(name)
