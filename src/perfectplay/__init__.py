"""perfectplay: play and solve two-player, zero-sum, perfect-information board games.

Quick start::

    from perfectplay import load, solve, analyze
    game, position = load("tictactoe", "xox/oox/___")
    result = solve(game, position)          # SearchResult: best_move, score, pv, nodes, ...
    print(result.best_move, result.score)   # Cell(row=2, col=2) win in 1

Names are imported on first use, so ``import perfectplay`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "load": "perfectplay.api",
    "load_with_moves": "perfectplay.api",
    "new_game": "perfectplay.api",
    "limit": "perfectplay.api",
    "kernel_options": "perfectplay.api",
    "solve": "perfectplay.api",
    "best": "perfectplay.api",
    "analyze": "perfectplay.api",
    "analysis_of": "perfectplay.api",
    "history": "perfectplay.api",
    "tree": "perfectplay.api",
    "render": "perfectplay.api",
    "kit": "perfectplay.api",
    "Engine": "perfectplay.api",
    "GameKit": "perfectplay.games.kit",
    "Capability": "perfectplay.games.kit",
    "get_game": "perfectplay.games.registry",
    "register": "perfectplay.games.registry",
    "game_names": "perfectplay.games.registry",
    "Player": "perfectplay.games.protocol",
    "Outcome": "perfectplay.games.protocol",
    "Limit": "perfectplay.search.limits",
    "Score": "perfectplay.search.result",
    "SearchResult": "perfectplay.search.result",
    "MoveValue": "perfectplay.search.result",
    "minimax": "perfectplay.search.minimax",
    "alphabeta": "perfectplay.search.alphabeta",
    "perft": "perfectplay.analysis.perft",
    "value_table": "perfectplay.analysis.table",
    "PerfectplayError": "perfectplay.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'perfectplay' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
