"""The Tournaments pages: the runs ``perfectplay tournament`` saved in the store, and each
run's standings, crosstable and games, every game a link to its replay (``/games/ID``).

Server-rendered from the store alone (no script): the standings and the crosstable are the
``standings.json`` document the run stored when it ended; a run still going (or killed
before its end) lists the games stored so far.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from perfectplay import errors
from perfectplay.web import boundary
from perfectplay.web.store import GameStore
from perfectplay.web.tournaments import crosstable_rows

router = APIRouter(include_in_schema=False)
PAGE_SIZE = 100
"""Runs listed on the Tournaments page, newest first."""


def _store(request: Request) -> GameStore:
    """The app's store."""
    store: GameStore = request.app.state.store
    return store


@router.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request) -> HTMLResponse:
    """The stored tournament runs, newest first."""
    runs = _store(request).tournaments(limit=PAGE_SIZE)
    return boundary.page(request, "tournaments.html", "Tournaments", runs=runs)


@router.get("/tournaments/{tournament_id:int}", response_class=HTMLResponse)
def tournament_page(request: Request, tournament_id: int) -> HTMLResponse:
    """One run: standings, crosstable and games; the 404 page for a run that is not stored
    (or an id the store cannot hold; ``{tournament_id:int}``: anything but digits is no
    route, a 404 too)."""
    try:
        found = _store(request).tournament(tournament_id)
    except errors.ParameterError:
        found = None
    if found is None:
        raise HTTPException(404, detail=f"tournament {tournament_id}: no such tournament")
    standings: dict[str, Any] = (found.standings or {}).get("players", {})
    title = f"Tournament {tournament_id}"
    rows = crosstable_rows(found)
    return boundary.page(
        request, "tournament.html", title, run=found, standings=standings, rows=rows
    )
