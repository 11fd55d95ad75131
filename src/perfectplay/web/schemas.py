"""The JSON request bodies of the web API, and the one error body of its answers.

These models check only the form (types, known keys, sizes); what the values mean (a
position in the game's notation, a legal move, a board size) is checked by the web's one
checked boundary (:mod:`perfectplay.web.boundary`, through :mod:`perfectplay.api`), which
raises the precise :mod:`perfectplay.errors` exception that the API answers with 400.

:class:`ErrorBody` is the shape of every error answer (``boundary.error_response``) and
:func:`error_responses` declares, for the OpenAPI schema, the error statuses a route answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from perfectplay.web import store

MAX_POSITION = 2_000
"""Longest position text accepted (a full 64-cell board in any notation is far shorter)."""
MAX_DEPTH = 64
"""Deepest search a request may ask for (no board here has more cells)."""
MAX_ID = store.MAX_ID
"""The largest saved-game id and offset (the store's: SQLite's integers are signed 64-bit)."""


_DIGITS = re.compile(r"[0-9]{1,19}")


def _ascii_digits(value: object) -> object:
    """A query string's number as ASCII digits only: pydantic's lax integers also take
    ``1_0``, ``+5``, `` 7`` and other scripts' digits, which the CLI's options and the
    notation refuse (issue 27); values that are not text (defaults) pass unchanged."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("must be a whole number in ASCII digits")
    return value


QueryWhole = Annotated[int, BeforeValidator(_ascii_digits)]
"""A whole number in a query string (``?limit=10``): ASCII digits only, else 422."""


class _Strict(BaseModel):
    """A request or answer body: unknown keys refused, and every value of its JSON type
    (pydantic's lax mode would read ``true`` as the number 1 and ``1`` as ``true``, so
    ``"version": true`` or ``"id": true`` would be believed)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class PositionBody(_Strict):
    """A position in the CLI notation, with the board size and ``k`` when not the default:
    ``{"position": "4453", "size": "7x6"}``."""

    position: str = Field(max_length=MAX_POSITION, examples=["xox/oox/___", "4453", "4O 4X"])
    size: str | None = Field(default=None, max_length=16, examples=["7x6"])
    k: int | None = Field(default=None, ge=1, le=64, strict=True)


class SearchBody(PositionBody):
    """A position and an optional search limit: ``depth`` plies and/or ``time`` seconds
    (at most the server's cap). Without either the search is exact, within the cap."""

    depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH, strict=True)
    time: float | None = Field(default=None, gt=0, strict=True, examples=[1.0])


class MoveBody(SearchBody):
    """A search request for the engine's move; ``level`` instead of a limit plays a strength
    a person can beat (``beginner``, ``casual``, ``club``, ``strong``: a shallow search that
    now and then plays a worse move)."""

    level: str | None = Field(default=None, max_length=32, examples=["casual"])


class PlayBody(PositionBody):
    """A position and a move to play in it, as the JSON object of the CLI:
    ``{"row": 2, "col": 2}`` (from 1), ``{"column": 4}``, ``{"column": 4, "shape": "O"}``."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"position": "4453", "move": {"column": 3}}]},
    )
    move: dict[str, Any] = Field(examples=[{"column": 3}, {"row": 3, "col": 3}])


class ReplayBody(_Strict):
    """Moves from the initial position, as the game's JSON move objects, with the board size
    and ``k`` when not the default: ``{"moves": [{"column": 4}, {"column": 4}]}``."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"moves": [{"column": 4}, {"column": 4}], "size": "7x6"}]},
    )

    moves: list[dict[str, Any]] = Field(max_length=MAX_DEPTH)
    size: str | None = Field(default=None, max_length=16, examples=["7x6"])
    k: int | None = Field(default=None, ge=1, le=64, strict=True)


class HistoryBody(PositionBody):
    """A board whose optimal move history is wanted; ``notion`` ``outcome`` (win/draw/loss
    kept) or ``strict`` (the exact value, distance included, kept)."""

    notion: Literal["outcome", "strict"] = "outcome"


class TreeBody(PositionBody):
    """A small position whose game tree is wanted, to ``depth`` plies (to the end when
    null), with alpha-beta's windows and cuts when ``alphabeta``; ``heuristic`` values the
    positions at the depth limit by the evaluation instead of solving them."""

    depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH, strict=True)
    alphabeta: bool = False
    heuristic: bool = False


class StepsBody(PositionBody):
    """A small position whose alpha-beta search is wanted one step at a time, trying moves
    in ``order`` (``game``, ``best``, ``worst`` or ``reversed``; 400 for another), to
    ``depth`` plies (to the end when null); ``heuristic`` values the positions at the depth
    limit by the evaluation instead of solving them."""

    depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH, strict=True)
    heuristic: bool = False
    order: str = Field(default="game", max_length=16, examples=["game", "best"])


class GameBody(_Strict):
    """A played game to store: the moves from the empty board, who played, the engine's
    settings and whether it is still ``playing``, ``finished`` or ``abandoned``. The server
    replays the moves and works out the result itself; ``id`` updates a stored game."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game": "connect4",
                    "moves": [{"column": 4}, {"column": 4}, {"column": 5}],
                    "players": {"1": "human", "2": "engine"},
                    "settings": {"strength": "perfect"},
                    "status": "playing",
                }
            ]
        },
    )

    id: int | None = Field(default=None, ge=1, le=MAX_ID)
    game: str = Field(max_length=32)
    size: str | None = Field(default=None, max_length=16)
    k: int | None = Field(default=None, ge=1, le=64, strict=True)
    moves: list[dict[str, Any]] = Field(max_length=64)
    players: dict[str, str] = Field(
        default_factory=lambda: {"1": "human", "2": "engine"}, examples=[{"1": "human"}]
    )
    settings: dict[str, Any] = Field(default_factory=dict)
    status: Literal["playing", "finished", "abandoned"] = "finished"


class ImportBody(_Strict):
    """Games exported by ``GET /api/games/export`` (``{"games": [...]}``)."""

    format: str | None = None
    version: int | None = None
    games: list[dict[str, Any]] = Field(max_length=10_000)


# -- answers -----------------------------------------------------------------------------------
class ErrorDetail(_Strict):
    """What went wrong: the exception's class name and a message naming the input."""

    type: str = Field(examples=["NotationError"])
    message: str = Field(examples=["position 'xq': unknown character 'q'"])


class ErrorBody(_Strict):
    """Every error answer of the API: ``{"error": {"type": ..., "message": ...}}``."""

    error: ErrorDetail


ERRORS: Mapping[int, str] = MappingProxyType(
    {
        400: "Input the library rejects: the message names the input and the reason",
        404: "Unknown game, route or saved game",
        409: "A change to a saved game that its record does not allow (a finished game is "
        "never rewritten; an ended game does not go back to playing)",
        413: "Request body over the server's size limit",
        422: "Body or parameters of the wrong form: the message names the field",
        503: "Engine busy or over the time cap, or the saved-games database unavailable; "
        "try again shortly",
    }
)
"""The error statuses of the API and what each means (see :mod:`perfectplay.web.boundary`)."""


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route answering ``statuses`` (each a key of
    :data:`ERRORS`) with :class:`ErrorBody`; 413 is always included, since any request may
    carry a body over the limit. Raises ``KeyError`` for a status not in :data:`ERRORS`."""
    chosen = sorted({413, *statuses})
    return {status: {"model": ErrorBody, "description": ERRORS[status]} for status in chosen}
