"""The JSON contract: every object the command line's ``--json`` prints and the web API
answers is built here, so that the same result has the same keys and types in every game and
through every door.

Moves are the game's JSON move objects, their coordinates counted from 1 as a person counts
(``{"row": r, "col": c}`` for tic-tac-toe, ``c3`` being ``{"row": 3, "col": 3}``;
``{"column": c}`` for Connect Four, ``{"column": c, "shape": "O"}`` for the shape-and-color
game), as each game's ``move_to_json`` writes them; the ``line`` of an outcome and the
``cells`` of a board are indices into the drawn grid, from 0. Sides are the game's
player names, always strings (``"x"``, ``"o"``; ``"1"``, ``"2"``).

``best``/``solve``::

    {"to_move": "x", "to_move_number": 1, "outcome": "win", "plies": 1, "score": 10,
     "weak": false,
     "finished": false, "winner": null,
     "best_move": {"row": 3, "col": 3}, "exact": true, "nodes": 9, "time_ms": 0.4,
     "depth": 5, "pv": [...], "value": "win in 1"}

``outcome`` and ``plies`` are for the side to move (``plies`` counts the next move; 0 on a
finished board, where ``outcome`` is ``loss`` for the side that would move, or ``draw``, and
``winner`` names the rules' winner, ``null`` for a draw or a running game);
``score`` is the game's conventional score (tic-tac-toe: the classic article's
``10 - (plies - 1)``, its negative for a loss; Connect Four: ``(cells + 1) // 2 + 1 - s``
with ``s`` the winner's stones at the end). Heuristic results have ``outcome`` and ``plies``
``null`` and the heuristic value, a whole number, as ``score``; a weak solve has ``weak``
true, ``score`` 1, 0 or -1, ``plies`` and ``best_move`` ``null``. A proved win or loss that
is not ``exact`` (a threat-space proof on a big board) has ``plies`` as an upper bound: the
game ends within that many plies, ``value`` says ``win in at most 7``, and ``score`` is the
conventional score of that many plies.

``analyze``: ``{"to_move", "to_move_number", "finished", "moves": [move object + outcome,
plies, score, value, exact, weak]}``.
``batch`` (one line of ``perfectplay batch``'s output)::

    {"index": 0, "position": "2252576253462244111563365343671351441", "score": -1,
     "outcome": "loss", "plies": 4, "best_move": {"column": 1}, "exact": true, "weak": false,
     "nodes": 1234, "time_ms": 0.8, "expected": -1}

``index`` counts input lines from 0; ``position`` is the line as given without its expected
score; ``expected`` is there when the line gave one; ``moves`` (the ``analyze`` list) with
``--analyze``. A line that could not be read or solved is ``{"index", "position", "error"}``.
``history``, ``tree``, ``perft`` and the web's ``state`` are described at their functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.api import (
    STEP_ORDERS,
    Answer,
    AnyGame,
    GameTree,
    History,
    JSONObject,
    JSONValue,
    Loaded,
    MoveValue,
    Outcome,
    PerftCounts,
    Player,
    Score,
    SearchResult,
    Step,
    Steps,
    TreeNode,
    board,
    kit,
    kit_of,
    move_name,
    new_game,
    position_text,
    value_words,
)

__all__ = [
    "JSONObject",
    "JSONValue",
    "analysis_json",
    "batch_error_json",
    "batch_json",
    "history_json",
    "move_json",
    "perft_json",
    "result_json",
    "score_json",
    "state_json",
    "steps_json",
    "tree_json",
]


def move_json(game: AnyGame, move: object) -> JSONObject:
    """A move as the game's JSON move object."""
    data: JSONObject = dict(game.move_to_json(move))
    return data


def score_json(game: AnyGame, position: object, score: Score, finished: bool = False) -> JSONObject:
    """``outcome``, ``plies`` and the game's conventional ``score`` of a :class:`Score` for
    the side to move in ``position``. A draw lasts until the board is full."""
    outcome, plies = score.outcome, score.plies
    if finished:
        final = game.finished_score(position)
        if score.weak:
            final = (final > 0) - (final < 0)
        return {"outcome": outcome, "plies": 0, "score": final}
    if score.weak:
        return {"outcome": outcome, "plies": None, "score": int(score.value)}
    if outcome in ("win", "loss") and plies is not None:
        conventional = game.conventional_score(position, outcome == "win", plies)
        return {"outcome": outcome, "plies": plies, "score": conventional}
    if outcome == "draw":
        return {"outcome": "draw", "plies": game.plies_left_bound(position), "score": 0}
    return {"outcome": None, "plies": None, "score": round(score.value) + 0}  # an int, no -0


def result_json(game: AnyGame, position: object, result: SearchResult[Any]) -> JSONObject:
    """The ``best``/``solve`` object (see the module docstring)."""
    outcome = game.outcome(position)
    data = mover_json(game, position)
    data.update(score_json(game, position, result.score, outcome is not None))
    best = result.best_move
    winner = None if outcome is None else outcome.winner
    data.update(
        finished=outcome is not None,
        winner=None if winner is None else game.player_name(winner),
        weak=result.score.weak,
        best_move=None if best is None else move_json(game, best),
        exact=result.exact,
        nodes=result.nodes,
        time_ms=round(result.time * 1000, 3),
        depth=result.depth,
        pv=[move_json(game, m) for m in result.pv],
        value=str(result.score) if outcome is None else f"game over: {outcome.reason}",
    )
    return data


def analysis_json(game: AnyGame, position: object, values: Sequence[MoveValue[Any]]) -> JSONObject:
    """The ``analyze`` object: every move with its mover's-view outcome and score."""
    moves: list[JSONValue] = []
    for entry in values:
        item = move_json(game, entry.move)
        item.update(score_json(game, position, entry.score))
        item["value"] = str(entry.score)
        item["exact"] = entry.score.exact
        item["weak"] = entry.score.weak
        moves.append(item)
    data = mover_json(game, position)
    data.update(finished=game.outcome(position) is not None, moves=moves)
    return data


BATCH_RESULT_KEYS = ("score", "outcome", "plies", "best_move", "exact", "weak", "nodes")
"""What a batch line keeps of the ``solve`` object."""


def batch_json(
    game: AnyGame, text: str, position: object, answer: Answer, expected: int | None
) -> JSONObject:
    """One line of a batch's output (see the module docstring): the answer to the input
    line ``answer.index`` whose position ``text`` reads as ``position``."""
    if answer.result is None:
        return batch_error_json(answer.index, text, answer.error or "no answer")
    solved = result_json(game, position, answer.result)
    data: JSONObject = {"index": answer.index, "position": text}
    data.update({key: solved[key] for key in BATCH_RESULT_KEYS})
    data["time_ms"] = round(answer.seconds * 1000, 3)
    if expected is not None:
        data["expected"] = expected
    if answer.values is not None:
        data["moves"] = analysis_json(game, position, answer.values)["moves"]
    return data


def batch_error_json(index: int, text: str, error: str) -> JSONObject:
    """The output line of an input line that could not be answered, naming why."""
    return {"index": index, "position": text, "error": error}


def mover_json(game: AnyGame, position: object) -> JSONObject:
    """The side to move, as every result names it: ``to_move`` (the game's name for it,
    ``"x"`` or ``"1"``) and ``to_move_number`` (1 or 2)."""
    player = game.to_move(position)
    return {"to_move": game.player_name(player), "to_move_number": int(player)}


def history_json(game: AnyGame, found: History) -> JSONObject:
    """The ``history`` object::

        {"reachable_optimally": false, "history": [{"row": 2, "col": 2}, ...],
         "optimal_histories": 0,
         "mistakes": [{"ply": 5, "move": {"row": 1, "col": 3},
                       "before": "draw", "after": "loss"}],
         "notion": "outcome"}

    ``before``/``after`` are the mover's values in the notion's terms: ``win``, ``draw``
    or ``loss`` for ``outcome``; ``win in 3``, ``draw``, ``loss in 4`` for ``strict``.
    """
    mistakes: list[JSONValue] = [
        {
            "ply": step.ply,
            "move": move_json(game, step.move),
            "before": value_words(step.best, found.notion),
            "after": value_words(step.played, found.notion),
        }
        for step in found.mistakes
    ]
    return {
        "reachable_optimally": found.reachable_optimally,
        "history": [move_json(game, step.move) for step in found.steps],
        "optimal_histories": found.optimal_histories,
        "mistakes": mistakes,
        "notion": found.notion,
    }


def perft_json(game: AnyGame, counts: PerftCounts) -> JSONObject:
    """The ``perft`` object, one shape in every game: ``first_wins`` and ``second_wins``, and
    ``players`` naming the sides as ``to_move`` does (``{"1": "x", "2": "o"}``)."""
    data: JSONObject = dict(counts.as_dict())
    data["players"] = {str(int(p)): game.player_name(p) for p in (Player.FIRST, Player.SECOND)}
    return data


def outcome_json(game: AnyGame, outcome: Outcome) -> JSONObject:
    """How a game ended: the winner (number and name, ``null`` for a draw), the reason and
    the deciding line as ``[row, col]`` cells, the top row 0."""
    winner = outcome.winner
    game_kit = kit_of(game)
    line: list[JSONValue] = [list(game_kit.display_cell(game, cell)) for cell in outcome.line]
    return {
        "winner": None if winner is None else int(winner),
        "winner_name": None if winner is None else game.player_name(winner),
        "reason": outcome.reason,
        "line": line,
    }


def cells_json(game: AnyGame, position: object) -> JSONValue:
    """The drawn board's cells, rows from the top (``null`` for a game without a board)."""
    view = board(game, position)
    return None if view is None else list(view.cells)  # type: ignore[arg-type]


def state_json(loaded: Loaded) -> JSONObject:
    """What a page needs to draw a position and take the next click::

        {"game": "connect4", "size": "7x6", "k": 4, "rows": 6, "cols": 7, "gravity": true,
         "position": "4453", "moves": [{"column": 4}, ...], "ply": 4,
         "to_move": "1", "to_move_number": 1,
         "cells": [[null, ..., {"player": 1, "mark": "x"}, ...], ...],  # rows top to bottom
         "legal": [{"column": 1}, ...],
         "outcome": null | {"winner": 1, "winner_name": "1", "reason": "...",
                            "line": [[5, 3], [4, 3], ...]},             # [row, col], top 0
         "quotas": null | {"1": {"O": 10, "X": 11}, "2": {...}}}

    Cells are ``null`` or ``{"player": 1|2, "mark": "x"|"o"}``; shape-and-color cells are
    ``{"player": 1|2, "shape": "O"|"X", "color": "red"|"blue"}``. A game without a board
    view has ``rows``, ``cols`` and ``cells`` ``null``.
    """
    game, position = loaded.game, loaded.position
    game_kit = kit_of(game)
    view = board(game, position)
    player = game.to_move(position)
    outcome = game.outcome(position)
    moves = loaded.moves
    return {
        "game": game_kit.name,
        "size": game_kit.size_text(game),
        "k": game_kit.k_of(game),
        "rows": None if view is None else view.rows,
        "cols": None if view is None else view.cols,
        "gravity": None if view is None else view.gravity,
        "position": position_text(loaded),
        "moves": None if moves is None else [move_json(game, m) for m in moves],
        "ply": game.ply(position),
        "to_move": game.player_name(player),
        "to_move_number": int(player),
        "cells": cells_json(game, position),
        "legal": [move_json(game, m) for m in game.legal_moves(position)],
        "outcome": None if outcome is None else outcome_json(game, outcome),
        "quotas": None if view is None else view.extra.get("quotas"),
    }


def tree_json(built: GameTree, game: AnyGame) -> JSONObject:
    """A game tree as nested ``{"move", "label", "value", "bound", "window", "pruned",
    "horizon", "terminal", "to_move", "cells", "children"}`` objects, with the counts."""
    return {
        "root": node_json(built, built.root, game),
        "alphabeta": built.alphabeta,
        "depth": built.depth,
        "visited": built.visited,
        "minimax_nodes": built.minimax_nodes,
        "pruned": built.pruned,
        "nodes": built.node_count(),
        "principal": [move_json(game, m) for m in built.principal],
        "to_move": game.player_name(game.to_move(built.root.position)),
    }


def node_json(built: GameTree, node: TreeNode, game: AnyGame) -> JSONObject:
    """One node of :func:`tree_json`, with its children."""
    window = node.window
    children: list[JSONValue] = [node_json(built, child, game) for child in node.children]
    return {
        "move": None if node.move is None else move_json(game, node.move),
        "label": None if node.move is None else move_name(game, node.move),
        "value": None if node.value is None else built.display_value(node.value),
        "bound": node.bound,
        "window": None
        if window is None
        else [built.display_value(window[0]), built.display_value(window[1])],
        "pruned": node.pruned,
        "horizon": node.horizon,
        "terminal": node.terminal,
        "to_move": game.player_name(game.to_move(node.position)),
        "cells": cells_json(game, node.position),
        "children": children,
    }


# -- alpha-beta step by step (issue 15, item 10) -----------------------------------------------
def steps_json(found: Steps, game: AnyGame) -> JSONObject:
    """Alpha-beta's search one step at a time (``tree --steps --json``, ``POST
    /api/{game}/steps``)::

        {"order": "best", "orders": {"game": "the game's own move order", ...},
         "depth": null, "leaves": "exact", "visited": 7, "minimax_nodes": 11, "cuts": 2,
         "to_move": "x", "value": "10",
         "steps": [{"number": 1, "kind": "enter", "path": [], "depth": 0,
                    "alpha": "-inf", "beta": "+inf", "value": null, "best": null,
                    "move": null, "skipped": [], "visited": 1, "text": "Start at ...",
                    "reason": null, "to_move": "x", "cells": [[...], ...]}, ...]}

    ``kind`` is ``enter``, ``leaf``, ``return``, ``cut`` or ``done``; ``path``, ``move``
    and ``skipped`` are move objects; values are root-relative in the game's conventional
    score, as :func:`tree_json` writes them (``"+inf"``, ``"~+12"`` for a heuristic one);
    ``cells`` is the board of the node the step is at."""
    tree = found.tree
    assert tree.root.value is not None
    return {
        "order": found.order,
        "orders": dict(STEP_ORDERS),
        "depth": tree.depth,
        "leaves": tree.leaves,
        "visited": found.visited,
        "minimax_nodes": found.minimax_nodes,
        "cuts": found.cuts,
        "to_move": game.player_name(game.to_move(tree.root.position)),
        "value": found.display(tree.root.value),
        "steps": [
            step_json(found, step, game, number) for number, step in enumerate(found.steps, 1)
        ],
    }


def step_json(found: Steps, step: Step, game: AnyGame, number: int) -> JSONObject:
    """One step of :func:`steps_json`, numbered from 1."""

    def shown(value: float | None) -> JSONValue:
        return None if value is None else found.display(value)

    return {
        "number": number,
        "kind": step.kind,
        "path": [move_json(game, move) for move in step.path],
        "depth": step.depth,
        "alpha": shown(step.alpha),
        "beta": shown(step.beta),
        "value": shown(step.value),
        "best": shown(step.best),
        "move": None if step.move is None else move_json(game, step.move),
        "skipped": [move_json(game, move) for move in step.skipped],
        "visited": step.visited,
        "text": step.text,
        "reason": step.reason,
        "to_move": game.player_name(game.to_move(step.position)),
        "cells": cells_json(game, step.position),
    }


def game_json(name: str) -> JSONObject:
    """What a front end needs to offer the registered game ``name`` (the web's
    ``GET /api/meta/games``)::

        {"name": "connect4", "title": "Connect Four", "aliases": ["connect-four", ...],
         "summary": "...", "takes_k": true, "board_notation": false,
         "size": null | {"text": "WIDTHxHEIGHT", "names": ["width", "height"],
                         "default": "7x6"},
         "capabilities": ["board", "book", "history", "symmetry", "weak"],
         "evaluations": [], "examples": ["4453", ...],
         "players": {"1": "1", "2": "2"},                   # as ``to_move`` names them
         "sides": {"1": "player 1 (x)", "2": "player 2 (o)"},  # as sentences name them
         "board": null | {"rows": 6, "cols": 7, "gravity": true},  # the default board
         "pieces": {"1": null | {"player": 1, "mark": "x"}, "2": ...}}

    ``pieces`` are cells as the game's board view draws each side's pieces (the piece its
    first legal move places on the default board), ``null`` without a board view.
    Raises :class:`~perfectplay.errors.UnknownGameError` for an unknown name.
    """
    game_kit = kit(name)
    game, position = new_game(game_kit.name)
    view = board(game, position)
    rule = game_kit.size
    size: JSONValue = None
    if rule is not None:
        default = f"{rule.default[0]}x{rule.default[1]}"
        size = {"text": rule.text, "names": list(rule.names), "default": default}
    sides = (Player.FIRST, Player.SECOND)
    return {
        "name": game_kit.name,
        "title": game_kit.title,
        "aliases": list(game_kit.aliases),
        "summary": game_kit.summary,
        "takes_k": game_kit.takes_k,
        "board_notation": game_kit.board_notation,
        "size": size,
        "capabilities": [str(name) for name in sorted(c.value for c in game_kit.capabilities)],
        "evaluations": list(game_kit.evaluations),
        "examples": list(game_kit.examples),
        "players": {str(int(p)): game.player_name(p) for p in sides},
        "sides": {str(int(p)): game_kit.side_label(game, int(p)) for p in sides},
        "board": None
        if view is None
        else {"rows": view.rows, "cols": view.cols, "gravity": view.gravity},
        "pieces": first_pieces_json(game, position),
    }


def first_pieces_json(game: AnyGame, position: object) -> JSONObject:
    """Each side's piece as the board view draws it: the cell that side's first legal move
    fills when both sides play their first legal move from ``position`` (``null`` for a side
    that cannot move there, or for a game without a board view)."""
    pieces: JSONObject = {"1": None, "2": None}
    for _ in range(2):
        before = board(game, position)
        moves = game.legal_moves(position)
        if before is None or not moves:
            break
        mover = str(int(game.to_move(position)))
        position = game.play(position, moves[0])
        after = board(game, position)
        if after is None:
            break
        changed = [
            cell
            for old_row, new_row in zip(before.cells, after.cells, strict=False)
            for old, cell in zip(old_row, new_row, strict=False)
            if cell is not None and cell != old
        ]
        pieces[mover] = changed[0] if changed else None
    return pieces
