"""The HTML pages: templates with plain JavaScript that talks to the JSON API.

Each page is one template in ``templates/`` and one script in ``static/``; the scripts hold
no game rules (the server says which moves are legal and how a game ended).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from perfectplay.web import app as web

router = APIRouter(include_in_schema=False)
DEFAULT_SIZES = {"tictactoe": "3x3", "connect4": "7x6", "simplexity": "6x7"}
TITLES = {"tictactoe": "Tic-tac-toe", "connect4": "Connect Four", "simplexity": "Simplexity"}


def _page(request: Request, template: str, title: str, **context: Any) -> HTMLResponse:
    data = {"title": title, "games": TITLES, "sizes": DEFAULT_SIZES, "cap": _cap(request)}
    data.update(context)
    return web.TEMPLATES.TemplateResponse(request, template, data)


def _cap(request: Request) -> float:
    return float(request.app.state.settings.cap)


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> HTMLResponse:
    """The games and the tools."""
    return _page(request, "index.html", "perfectplay")


@router.get("/play/{game}", response_class=HTMLResponse)
def play_page(request: Request, game: str) -> HTMLResponse:
    """Play ``game`` against the engine (``?size=&k=`` pick the board)."""
    name = _served(game)
    return _page(request, "play.html", f"Play {TITLES[name]}", game=name)


@router.get("/tools/analyze", response_class=HTMLResponse)
def analyze_page(request: Request) -> HTMLResponse:
    """Paste or edit a board; its best move and every move's value."""
    return _page(request, "analyze.html", "Analyse a position")


@router.get("/tools/history", response_class=HTMLResponse)
def history_page(request: Request) -> HTMLResponse:
    """An optimal move history of a final board, step by step."""
    return _page(request, "history.html", "Reconstruct a history")


@router.get("/tools/tree", response_class=HTMLResponse)
def tree_page(request: Request) -> HTMLResponse:
    """The game tree of a small position, expandable, with alpha-beta cuts."""
    return _page(request, "tree.html", "Game tree")


@router.get("/games", response_class=HTMLResponse)
def games_page(request: Request) -> HTMLResponse:
    """Saved games with filters, export and import."""
    return _page(request, "games.html", "Saved games")


@router.get("/docs", response_class=HTMLResponse)
def docs_page(request: Request) -> HTMLResponse:
    """The API reference, drawn from ``/openapi.json`` by a local script (works offline)."""
    return _page(request, "docs.html", "JSON API")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def replay_page(request: Request, game_id: int) -> HTMLResponse:
    """Replay one saved game with the engine's analysis."""
    return _page(request, "replay.html", f"Game {game_id}", game_id=game_id)


def _served(game: str) -> str:
    from fastapi import HTTPException

    from perfectplay.errors import UnknownGameError

    try:
        return web.game_name(game)
    except UnknownGameError:
        raise HTTPException(status_code=404, detail=f"game {game!r}: unknown") from None
