"""The library's checked public functions and the JSON shapes shared by the CLI and the web.

Every function here validates its input through :mod:`perfectplay.notation` and
:mod:`perfectplay.search.limits` and raises :mod:`perfectplay.errors` exceptions with a
message that names the input and the reason. Behind it, search runs on trusted values.

JSON contract of ``best``/``solve`` (tic-tac-toe)::

    {"to_move": "x", "outcome": "win", "plies": 1, "score": 10,
     "best_move": {"row": 2, "col": 2}, "exact": true, "nodes": 9, "time_ms": 0.4, ...}

``outcome`` and ``plies`` are for the side to move (``plies`` counts the next move; 0 on a
finished board, where ``outcome`` is ``loss`` for the side that would move, or ``draw``);
``score`` is the game's conventional score: for tic-tac-toe the classic article's
``10 - (plies - 1)`` for a win, its negative for a loss, 0 for a draw, and -10 on a board
already lost; for Connect Four the standard ``(cells + 1) // 2 + 1 - s`` (``s`` the winner's
stones at the end), negative for a loss. Heuristic (not exact) results have
``outcome``/``plies`` ``null`` and the heuristic value as ``score``.
"""

from __future__ import annotations

import random
from typing import Any

from perfectplay.errors import ParameterError
from perfectplay.games.registry import canonical_name, get_game
from perfectplay.search.limits import EXACT, Limit, make_limit
from perfectplay.search.result import MoveValue, Score, SearchResult
from perfectplay.search.solver import analyze as _analyze
from perfectplay.search.solver import best_move as _best_move
from perfectplay.search.solver import solve as _solve

SIZE_PARAMETERS = {
    "tictactoe": ("rows", "cols"),
    "connect4": ("width", "height"),
    "simplexity": ("rows", "cols"),
}
"""How each game reads ``--size AxB``: tic-tac-toe and the shape-and-color game rows x
columns, Connect Four width x height."""


def load(
    game_name: str, text: str, *, size: str | None = None, k: int | None = None
) -> tuple[Any, Any]:
    """The game and the validated position of ``text`` in the game's notation.

    Tic-tac-toe: a board (``xox/oox/___``); its size comes from the text, ``size``
    (``ROWSxCOLS``), when given, must agree, and ``k`` overrides the default
    ``min(rows, cols)``; the empty text is the empty board of ``size`` (default 3x3).
    Connect Four: a move sequence (``4453``, ``10,3,4`` on wide boards,
    empty for the empty board) on a ``size`` board (``WIDTHxHEIGHT``, default 7x6), or a
    picture (rows top to bottom, ``.`` ``x`` ``o``, separated by ``/`` or new lines: text with
    either is read as a picture) whose size is read from it. Shape-and-color: a move sequence
    (``4O 4X 3O`` or ``4O4X3O``) on a ``size`` board (``ROWSxCOLS``, default 6x7).
    """
    game, position, _ = load_with_moves(game_name, text, size=size, k=k)
    return game, position


def load_with_moves(
    game_name: str, text: str, *, size: str | None = None, k: int | None = None
) -> tuple[Any, Any, tuple[Any, ...] | None]:
    """:func:`load`, with the moves of a move-sequence text (``None`` for a board given as
    a picture, whose moves are unknown: tic-tac-toe boards and Connect Four pictures)."""
    name = canonical_name(game_name)
    if not isinstance(text, str):
        from perfectplay.errors import NotationError

        raise NotationError(f"position {text!r}: expected text")
    if name == "tictactoe":
        from perfectplay.notation import parse_mnk_board

        if not text.strip():  # the empty board, as for the move-sequence games
            return (*new_game(name, size=size, k=k), None)
        game, position = parse_mnk_board(text, k)
        _check_size(size, name, (game.spec.rows, game.spec.cols))
        return game, position, None
    if name == "connect4":
        return _load_connect4(text, size, k)
    if name == "simplexity":
        return _load_simplexity(text, size, k)
    raise ParameterError(f"game {game_name!r}: no position notation yet")  # pragma: no cover


def _load_connect4(
    text: str, size: str | None, k: int | None
) -> tuple[Any, Any, tuple[Any, ...] | None]:
    from perfectplay.notation import parse_connect4_moves, parse_connect4_picture

    if "/" in text or "\n" in text:  # a picture has several rows; moves never contain these
        game, position = parse_connect4_picture(text, 4 if k is None else k)
        _check_size(size, "connect4", (game.spec.width, game.spec.height))
        return game, position, None
    game, _ = new_game("connect4", size=size, k=k)
    position, columns = parse_connect4_moves(game, text)
    return game, position, tuple(columns)


def _load_simplexity(
    text: str, size: str | None, k: int | None
) -> tuple[Any, Any, tuple[Any, ...] | None]:
    from perfectplay.notation import parse_simplexity_moves

    game, _ = new_game("simplexity", size=size, k=k)  # refuses k: always four in a row
    position, moves = parse_simplexity_moves(game, text)
    return game, position, tuple(moves)


def _check_size(size: str | None, name: str, actual: tuple[int, int]) -> None:
    if size is None:
        return
    from perfectplay.notation import parse_size

    if parse_size(size) != actual:
        first, second = SIZE_PARAMETERS[name]
        raise ParameterError(
            f"size {size!r}: the board given is {actual[0]}x{actual[1]} ({first} x {second})"
        )


def new_game(game_name: str, *, size: str | None = None, k: int | None = None) -> tuple[Any, Any]:
    """The game with the given size and ``k``, and its initial position.

    ``size`` is ``AxB`` in the game's own order (see :data:`SIZE_PARAMETERS`).
    """
    name = canonical_name(game_name)
    params: dict[str, Any] = {}
    if size is not None:
        from perfectplay.notation import parse_size

        first, second = SIZE_PARAMETERS.get(name, ("rows", "cols"))
        params.update(zip((first, second), parse_size(size), strict=True))
    if k is not None:
        if name == "simplexity":
            raise ParameterError(f"k={k}: the shape-and-color game always plays four in a row")
        params["k"] = k
    game = get_game(name, **params)
    return game, game.initial()


def with_evaluation(game: Any, name: str | None) -> Any:
    """``game`` searched with the heuristic ``name`` (``None``: the game's default).

    Raises :class:`ParameterError` for a game without named evaluations or an unknown name.
    """
    if name is None:
        return game
    if not hasattr(game, "with_evaluation"):
        raise ParameterError(
            f"evaluation {name!r}: only the shape-and-color game has named evaluations"
        )
    return game.with_evaluation(name)


def limit(depth: int | None = None, time: float | None = None, nodes: int | None = None) -> Limit:
    """A checked search limit (see :func:`perfectplay.search.limits.make_limit`)."""
    return make_limit(depth, time, nodes)


def best(
    game: Any, position: Any, search_limit: Limit = EXACT, *, seed: int | None = None
) -> SearchResult[Any]:
    """Best move of a loaded position; ``seed`` picks randomly (reproducibly) among equals."""
    rng = random.Random(seed) if seed is not None else None
    return _best_move(game, position, search_limit, rng=rng)


def solve(game: Any, position: Any, search_limit: Limit = EXACT) -> SearchResult[Any]:
    """Exact (or limited) value, best move and principal variation of a loaded position."""
    return _solve(game, position, search_limit)


def analyze(game: Any, position: Any, search_limit: Limit = EXACT) -> list[MoveValue[Any]]:
    """Value of every legal move of a loaded position, for the side to move."""
    return _analyze(game, position, search_limit)


# -- JSON -------------------------------------------------------------------------------------
def score_json(game: Any, position: Any, score: Score, finished: bool = False) -> dict[str, Any]:
    """``outcome``, ``plies`` and the game's conventional ``score`` of a :class:`Score` for the
    side to move in ``position`` (tic-tac-toe: the article's ``10 - (plies - 1)``; Connect
    Four: the standard ``(cells + 1) // 2 + 1 - s``). A draw lasts until the board is full.
    """
    outcome = score.outcome
    plies = score.plies
    if finished:
        return {"outcome": outcome, "plies": 0, "score": game.finished_score(position)}
    if outcome in ("win", "loss") and plies is not None:
        conventional = game.conventional_score(position, outcome == "win", plies)
        return {"outcome": outcome, "plies": plies, "score": conventional}
    if outcome == "draw":
        return {"outcome": "draw", "plies": game.plies_left_bound(position), "score": 0}
    return {"outcome": None, "plies": None, "score": round(score.value, 3) + 0.0}  # no -0.0


def result_json(game: Any, position: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``best``/``solve`` JSON object."""
    finished = game.outcome(position) is not None
    data: dict[str, Any] = {"to_move": game.player_name(game.to_move(position))}
    data.update(score_json(game, position, result.score, finished))
    data.update(
        best_move=None if result.best_move is None else game.move_to_json(result.best_move),
        exact=result.exact,
        nodes=result.nodes,
        time_ms=round(result.time * 1000, 3),
        depth=result.depth,
        pv=[game.move_to_json(m) for m in result.pv],
        value=str(result.score) if not finished else _finished_text(game, position),
    )
    return data


def _finished_text(game: Any, position: Any) -> str:
    return f"game over: {game.outcome(position).reason!s}"


def analysis_json(game: Any, position: Any, values: list[MoveValue[Any]]) -> dict[str, Any]:
    """The ``analyze`` JSON object: every move with its mover's-view outcome and score."""
    moves = []
    for entry in values:
        item = dict(game.move_to_json(entry.move))
        item.update(score_json(game, position, entry.score))
        item["value"] = str(entry.score)
        item["exact"] = entry.score.exact
        moves.append(item)
    return {"moves": moves}
