"""The engine's work behind the web API, as plain functions of JSON-ready arguments.

Every job takes the request's fields (``game``, ``position``, ``size``, ``k`` and the job's
own options) and returns a JSON-ready dict built by :mod:`perfectplay.contract`; it raises
:mod:`perfectplay.errors` exceptions for bad input. The pool (:mod:`perfectplay.web.pool`)
runs them in worker processes, one at a time per process, so that searches neither block the
server nor share a kernel between threads; they are also plain enough to call directly in
tests. Nothing here knows a game by name: everything goes through :mod:`perfectplay.api`.

``cap`` is the per-request time cap in seconds: searches get a time limit no longer than it,
and the pool stops a worker that overruns it anyway.

Shapes (the CLI's JSON, plus what a page needs):

* ``analyze`` -> ``contract.analysis_json`` plus ``"to_move", "exact", "time_ms"``
* ``move``    -> ``contract.result_json`` (the ``best`` object) plus ``"after"``: the
  ``contract.state_json`` after the engine's move (``null`` when the game is already over)
* ``history`` -> ``contract.history_json`` plus ``"steps"`` (every move with the board after it)
* ``tree``    -> ``contract.tree_json`` (at most :data:`MAX_TREE_NODES` nodes)
* ``steps``   -> ``contract.steps_json`` (at most :data:`MAX_STEP_NODES` nodes)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from perfectplay import api, contract, errors
from perfectplay.errors import ParameterError

MAX_TREE_NODES = 3_000
"""Most nodes (pruned ones included) of a tree drawn on a page."""
MAX_STEP_NODES = 1_000
"""Most nodes (pruned ones included) of a search stepped through on a page."""
WARM_PLIES = 10
"""The warm-up searches a position with at most this many plies left (or a won one)."""
WARM_TIME = 0.5
"""Seconds the warm-up's search of that position may take (it usually ends exactly at once)."""
NOTIONS = ("outcome", "strict")
SLOW_COMPILE_S = 60
"""Engines whose first compile takes about this long or more are warmed last."""


def search_limit(depth: int | None, seconds: float | None, cap: float) -> api.Limit:
    """The request's limit with its time capped: perfect play is an exact search that must
    finish within ``cap`` seconds (else the best move found so far, marked heuristic).

    Raises :class:`ParameterError` for ``seconds`` above ``cap`` or a bad depth."""
    if seconds is not None and seconds > cap:
        raise ParameterError(
            f"time={errors.quote(seconds)}: more than this server's cap of {cap:g} s"
        )
    return api.limit(depth=depth, time=cap if seconds is None else seconds)


def load(game: str, position: str, size: str | None, k: int | None) -> api.Loaded:
    """The checked position of a request (see :func:`api.load_with_moves`)."""
    return api.load_with_moves(game, position, size=size, k=k)


def searched(
    *,
    game: str,
    position: str,
    size: str | None = None,
    k: int | None = None,
    depth: int | None = None,
    time_limit: float | None = None,
    cap: float,
) -> tuple[api.Loaded, api.Limit]:
    """The position and the capped limit of a search request (the ``analyze`` and ``move``
    jobs' arguments)."""
    return load(game, position, size, k), search_limit(depth, time_limit, cap)


def analyze(**request: Any) -> dict[str, Any]:
    """The value of every legal move (on a big board, of those near the stones:
    ``api.analyze(focus=True)``) as ``contract.analysis_json``, with the side to move,
    whether every value is exact and the time taken; arguments as :func:`searched`."""
    loaded, limit = searched(**request)
    game, position = loaded.game, loaded.position
    started = time.perf_counter()
    finished = game.outcome(position) is not None
    values = [] if finished else api.analyze(game, position, limit, focus=True)
    data: dict[str, Any] = contract.analysis_json(game, position, values)
    data.update(
        to_move=game.player_name(game.to_move(position)),
        exact=all(item["exact"] for item in data["moves"]),
        time_ms=round((time.perf_counter() - started) * 1000, 3),
    )
    return data


def move(*, level: str | None = None, **request: Any) -> dict[str, Any]:
    """The engine's move (``contract.result_json``) and the board after it (``after``);
    arguments as :func:`searched`, and ``level``: a strength a person can beat instead of
    the limit (the answer then says ``level`` and whether the move ``slipped``)."""
    loaded, limit = searched(**request)
    if level is not None:
        return level_move(loaded, level)
    result = api.best(loaded.game, loaded.position, limit)
    data: dict[str, Any] = contract.result_json(loaded.game, loaded.position, result)
    best = result.best_move
    data["after"] = None if best is None else contract.state_json(api.play(loaded, best))
    return data


def level_move(loaded: api.Loaded, level: str) -> dict[str, Any]:
    """The move of strength ``level`` as a ``move`` answer: its value as the level's shallow
    search saw it (heuristic), ``level``, ``slipped`` and the board after it."""
    game, position = loaded.game, loaded.position
    started = time.perf_counter()
    chosen = api.level_move(game, position, level)
    value = next(v for v in chosen.values if v.move == chosen.move)
    result = api.SearchResult(
        chosen.move,
        value.score,
        (chosen.move,),
        0,
        api.level_named(level).depth,
        time.perf_counter() - started,
        f"level {level}",
    )
    data: dict[str, Any] = contract.result_json(game, position, result)
    data.update(level=level, slipped=chosen.slipped)
    data["after"] = contract.state_json(api.play(loaded, chosen.move))
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
    """An optimal (or fewest-mistakes) move history of a board (``contract.history_json``)
    with the board after every move (``steps``) for a step-through player. Raises
    :class:`ParameterError` for an unknown notion or a game without ``Capability.HISTORY``."""
    if notion not in NOTIONS:
        raise ParameterError(f"notion={errors.quote(notion)}: expected 'outcome' or 'strict'")
    loaded = load(game, position, size, k)
    chosen: api.Notion = "strict" if notion == "strict" else "outcome"
    found = api.history(loaded.game, loaded.position, chosen)
    data: dict[str, Any] = contract.history_json(loaded.game, found)
    replayed = api.start(loaded.game)
    steps: list[dict[str, Any]] = [
        {"ply": 0, "move": None, "optimal": True, "state": contract.state_json(replayed)}
    ]
    for step in found.steps:
        replayed = api.play(replayed, step.move)
        steps.append(
            {
                "ply": step.ply,
                "move": contract.move_json(loaded.game, step.move),
                "player": loaded.game.player_name(step.player),
                "optimal": step.optimal,
                "state": contract.state_json(replayed),
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
    """The game tree below a position, with minimax values or alpha-beta windows and cuts
    (``contract.tree_json``). Raises :class:`ParameterError` for ``heuristic`` without a
    depth or a tree of more than :data:`MAX_TREE_NODES` nodes."""
    loaded = load(game, position, size, k)
    if heuristic and depth is None:
        raise ParameterError("heuristic: values at a depth limit; give a depth too")
    built = api.tree(
        loaded.game,
        loaded.position,
        depth,
        max_nodes=MAX_TREE_NODES,
        alphabeta=alphabeta,
        leaves="heuristic" if heuristic else "exact",
    )
    data: dict[str, Any] = contract.tree_json(built, loaded.game)
    return data


def steps(
    *,
    game: str,
    position: str,
    size: str | None = None,
    k: int | None = None,
    depth: int | None = None,
    heuristic: bool = False,
    order: str = "game",
    cap: float,
) -> dict[str, Any]:
    """Alpha-beta's search of a position one step at a time, trying moves in ``order``
    (``contract.steps_json``). Raises :class:`ParameterError` for ``heuristic`` without a
    depth, an unknown order or a search of more than :data:`MAX_STEP_NODES` nodes."""
    loaded = load(game, position, size, k)
    if heuristic and depth is None:
        raise ParameterError("heuristic: values at a depth limit; give a depth too")
    leaves: api.Leaves = "heuristic" if heuristic else "exact"
    found = api.steps(
        loaded.game, loaded.position, depth, order=order, leaves=leaves, max_nodes=MAX_STEP_NODES
    )
    data: dict[str, Any] = contract.steps_json(found, loaded.game)
    return data


JOBS: dict[str, Callable[..., dict[str, Any]]] = {
    "analyze": analyze,
    "move": move,
    "history": history,
    "tree": tree,
    "steps": steps,
}
"""The jobs a worker runs, by name."""


def late_position(game: api.RegisteredGame) -> api.Loaded:
    """A position of ``game`` near its end, reached by playing the first legal move from the
    initial position: the last one before the game ends, or the first with at most
    :data:`WARM_PLIES` plies left."""
    loaded = api.start(game)
    while game.plies_left_bound(loaded.position) > WARM_PLIES:
        moves = game.legal_moves(loaded.position)
        if not moves:
            break
        following = api.play(loaded, moves[0])
        if game.outcome(following.position) is not None:
            break
        loaded = following
    return loaded


WarmProgress = Callable[[str, int, int, bool, tuple[float, ...]], None]
"""Told ``(engine, step, steps, compiling, weights)`` before each engine of a warm-up (``step``
from 1; ``compiling``: its engine is not in numba's cache, so this step compiles it;
``weights``: every step's expected share of the work, :func:`step_weights`)."""


def step_weights(plan: list[api.WarmStep]) -> tuple[float, ...]:
    """Each step's expected share of a warm-up: a compile its engine's declared seconds
    (their ratio is what is known: 15-80 s on a quiet machine), a load from numba's cache
    one of those seconds per ten (loading is quicker, in about the same proportions)."""
    return tuple(
        float(step.engine.compile_seconds) * (1.0 if step.compiling else LOAD_SHARE)
        for step in plan
    )


LOAD_SHARE = 0.1
"""A load from numba's cache, as a share of the engine's compile (for :func:`step_weights`)."""


def warm_up(progress: WarmProgress | None = None, cached_only: bool = False) -> None:
    """Load every compiled engine of every registered game (:func:`perfectplay.api.warm_plan`:
    each engine once, on a board it searches, so that no request's first search on another
    board size compiles under the request's time cap), each by the engine's own warm-up,
    then a short timed search and one near the end of a game (which usually ends exactly),
    before a worker takes requests: numba compiles them and writes its cache on a fresh
    install, else loads them from that cache. ``cached_only``: load only the engines numba's
    cache holds already (another worker compiles the rest). ``progress`` hears of each engine
    first; whatever it raises stops the warm-up.

    An engine whose warm-up fails (a broken plug-in) is skipped: its requests will say why.
    """
    plan = [step for step in warm_plan() if not (cached_only and step.compiling)]
    weights = step_weights(plan)
    for number, step in enumerate(plan, start=1):
        if progress is not None:
            progress(step.engine.label, number, len(plan), step.compiling, weights)
        try:
            api.warm_game(step.game)
            searches(step.game)
        except Exception:  # a plug-in's failure must not stop the worker
            continue


EVERY_POSITION_JOBS = frozenset({"history", "tree", "steps"})
"""Jobs that value many positions with the kernel (:func:`perfectplay.api.engine_to_compile`'s
``every_position``)."""


def engine_pending(job: str, request: dict[str, Any]) -> str | None:
    """The label of the compiled engine ``job`` on ``request`` would have to compile first
    (numba's cache lacks it: the warm-up has not reached it yet), or None: none needed, or
    cached. Input the job will refuse is None too: the job says why."""
    try:
        loaded = load(request["game"], request["position"], request.get("size"), request.get("k"))
        engine = api.engine_to_compile(
            loaded.game, loaded.position, every_position=job in EVERY_POSITION_JOBS
        )
    except Exception:  # bad input, or a plug-in that fails: the job itself answers
        return None
    return None if engine is None else engine.label


def warm_plan() -> list[api.WarmStep]:
    """:func:`perfectplay.api.warm_plan` game by game, each engine once: a plug-in whose
    engines cannot even be listed is left out, not the others."""
    plan: list[api.WarmStep] = []
    for game_kit in api.games():
        try:
            steps = api.warm_plan(game_kit.name)
        except Exception:  # a broken plug-in: its requests will say why
            continue
        plan += [step for step in steps if all(step.engine != seen.engine for seen in plan)]
    # The slowest compiles last: the other workers serve the games of the rest meanwhile.
    return sorted(plan, key=lambda step: step.engine.compile_seconds >= SLOW_COMPILE_S)


def searches(game: api.RegisteredGame) -> None:
    """A short timed search from the start and one near the end of a game (which usually
    ends exactly): the code paths of the web's requests, loaded."""
    position = game.initial()
    api.best(game, position, api.limit(time=0.05))
    late = late_position(game)
    result = api.best(game, late.position, api.limit(time=WARM_TIME))
    contract.result_json(game, late.position, result)
