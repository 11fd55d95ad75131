"""The engine's work behind the web API, as plain functions of JSON-ready arguments.

Every job takes the request's fields (``game``, ``position``, ``size``, ``k`` and the job's
own options) and returns a JSON-ready dict; it raises :mod:`perfectplay.errors` exceptions
for bad input. The pool (:mod:`perfectplay.web.pool`) runs them in worker processes, one at a
time per process, so that searches neither block the server nor share a kernel between
threads; they are also plain enough to call directly in tests.

``cap`` is the per-request time cap in seconds: searches get a time limit no longer than it,
and the pool stops a worker that overruns it anyway.

Shapes (the CLI's JSON, see :mod:`perfectplay.api`, plus what a page needs):

* ``analyze`` -> ``{"moves": [...api.analysis_json...], "to_move", "exact", "time_ms"}``
* ``move``    -> ``api.result_json`` (the ``best`` object) plus ``"after"``: the
  :func:`~perfectplay.web.positions.state_json` after the engine's move (``null`` when the
  game is already over)
* ``history`` -> ``History.as_dict`` plus ``"steps"`` (every move with the board after it)
* ``tree``    -> the nodes of :func:`~perfectplay.analysis.tree.build_tree` as nested objects
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from perfectplay import api
from perfectplay.errors import ParameterError
from perfectplay.search.limits import Limit
from perfectplay.web.positions import Loaded, cells_json, load, play, start, state_json

MAX_TREE_NODES = 3_000
"""Most nodes (pruned ones included) of a tree drawn on a page."""


def search_limit(depth: int | None, seconds: float | None, cap: float) -> Limit:
    """The request's limit with its time capped: perfect play is an exact search that must
    finish within ``cap`` seconds (else the best move found so far, marked heuristic)."""
    if seconds is not None and seconds > cap:
        raise ParameterError(f"time={seconds!r}: more than this server's cap of {cap:g} s")
    return api.limit(depth=depth, time=cap if seconds is None else seconds)


def searched(
    *,
    game: str,
    position: str,
    size: str | None = None,
    k: int | None = None,
    depth: int | None = None,
    time_limit: float | None = None,
    cap: float,
) -> tuple[Loaded, Limit]:
    """The position and the capped limit of a search request (the ``analyze`` and ``move``
    jobs' arguments)."""
    return load(game, position, size, k), search_limit(depth, time_limit, cap)


def analyze(**request: Any) -> dict[str, Any]:
    """The value of every legal move (``api.analysis_json``); arguments as :func:`searched`."""
    loaded, limit = searched(**request)
    started = time.perf_counter()
    values = [] if _finished(loaded) else api.analyze(loaded.game, loaded.position, limit)
    data = api.analysis_json(loaded.game, loaded.position, values)
    data.update(
        to_move=loaded.game.player_name(loaded.game.to_move(loaded.position)),
        exact=all(item["exact"] for item in data["moves"]),
        time_ms=round((time.perf_counter() - started) * 1000, 3),
    )
    return data


def move(**request: Any) -> dict[str, Any]:
    """The engine's move (``api.result_json``) and the board after it (``after``);
    arguments as :func:`searched`."""
    loaded, limit = searched(**request)
    result = api.best(loaded.game, loaded.position, limit)
    data = api.result_json(loaded.game, loaded.position, result)
    after = None if result.best_move is None else play(loaded, result.best_move)
    data["after"] = None if after is None else state_json(after)
    return data


def history(
    *,
    game: str,
    position: str,
    size: str | None = None,
    k: int | None = None,
    notion: str = "outcome",
    cap: float,
) -> dict[str, Any]:
    """An optimal (or fewest-mistakes) move history of a board (``History.as_dict``), with
    the board after every move for a step-through player."""
    from perfectplay.analysis.history import reconstruct

    if notion not in ("outcome", "strict"):
        raise ParameterError(f"notion={notion!r}: expected 'outcome' or 'strict'")
    loaded = load(game, position, size, k)
    found = reconstruct(loaded.game, loaded.position, notion)  # type: ignore[arg-type]
    data = found.as_dict(loaded.game)
    replayed = start(loaded.game)
    steps = [{"ply": 0, "move": None, "optimal": True, "state": state_json(replayed)}]
    for step in found.steps:
        replayed = play(replayed, step.move)
        steps.append(
            {
                "ply": step.ply,
                "move": loaded.game.move_to_json(step.move),
                "player": loaded.game.player_name(step.player),
                "optimal": step.optimal,
                "state": state_json(replayed),
            }
        )
    data["steps"] = steps
    return data


def tree(
    *,
    game: str,
    position: str,
    size: str | None = None,
    k: int | None = None,
    depth: int | None = None,
    alphabeta: bool = False,
    heuristic: bool = False,
    cap: float,
) -> dict[str, Any]:
    """The game tree below a position, with minimax values or alpha-beta windows and cuts,
    as nested ``{"move", "label", "value", "bound", "window", "pruned", "horizon",
    "terminal", "cells", "children"}`` objects (at most :data:`MAX_TREE_NODES` nodes)."""
    from perfectplay.analysis.tree import build_tree

    loaded = load(game, position, size, k)
    if heuristic and depth is None:
        raise ParameterError("heuristic: values at a depth limit; give a depth too")
    built = build_tree(
        loaded.game,
        loaded.position,
        depth,
        alphabeta=alphabeta,
        leaves="heuristic" if heuristic else "exact",
        max_nodes=MAX_TREE_NODES,
    )
    return {
        "root": _node_json(built, built.root, loaded.game),
        "alphabeta": alphabeta,
        "depth": depth,
        "visited": built.visited,
        "minimax_nodes": built.minimax_nodes,
        "pruned": built.pruned,
        "nodes": built.node_count(),
        "principal": [loaded.game.move_to_json(m) for m in built.principal],
        "to_move": loaded.game.player_name(loaded.game.to_move(loaded.position)),
    }


def _node_json(built: Any, node: Any, game: Any) -> dict[str, Any]:
    return {
        "move": None if node.move is None else game.move_to_json(node.move),
        "label": None if node.move is None else _move_label(game, node.move),
        "value": None if node.value is None else built.display_value(node.value),
        "bound": node.bound,
        "window": None
        if node.window is None
        else [built.display_value(node.window[0]), built.display_value(node.window[1])],
        "pruned": node.pruned,
        "horizon": node.horizon,
        "terminal": node.terminal,
        "to_move": game.player_name(game.to_move(node.position)),
        "cells": cells_json(game, node.position),
        "children": [_node_json(built, child, game) for child in node.children],
    }


def _move_label(game: Any, move: Any) -> str:
    from perfectplay.analysis.render import move_name

    return str(move_name(game, move))


def _finished(loaded: Loaded) -> bool:
    return loaded.game.outcome(loaded.position) is not None


JOBS: dict[str, Callable[..., dict[str, Any]]] = {
    "analyze": analyze,
    "move": move,
    "history": history,
    "tree": tree,
}
"""The jobs a worker runs, by name."""


WARM_UP = (
    ("analyze", {"game": "tictactoe", "position": "x________"}),
    ("move", {"game": "connect4", "position": "7422341735647741166133573473242566"}),
    ("move", {"game": "connect4", "position": "4", "time_limit": 0.05}),
    ("move", {"game": "simplexity", "position": "4O", "time_limit": 0.05}),
)
"""Small jobs that load every default board's compiled kernels (exact and timed paths)."""


def warm_up() -> None:
    """Load the compiled kernels once, before a worker takes requests."""
    for name, args in WARM_UP:
        JOBS[name](**args, cap=5.0)
