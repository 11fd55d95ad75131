"""Every search agrees with plain minimax on every non-terminal reachable 3x3 position.

Three references: the classic article's own scoring (an independent, memoised
re-implementation of its ``findBestMove`` on a list board), the library's plain
:func:`minimax`, and the complete value table. Faster searches must give the same score and
never pick a move that wins slower or loses faster than the best one.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from perfectplay import api, contract
from perfectplay.analysis.table import value_table
from perfectplay.games.mnk.rules import MNKGame, MNKPosition, game
from perfectplay.search.alphabeta import Options, alphabeta
from perfectplay.search.minimax import minimax
from perfectplay.search.result import Score
from perfectplay.search.solver import SearchOptions, score_of_move, solve

TTT = game()


def reachable(g: MNKGame) -> list[MNKPosition]:
    """Every position reachable from the empty board, in discovery order."""
    seen: dict[Any, MNKPosition] = {}
    stack = [g.initial()]
    while stack:
        position = stack.pop()
        if g.key(position) in seen:
            continue
        seen[g.key(position)] = position
        stack.extend(g.play(position, m) for m in g.legal_moves(position))
    return list(seen.values())


ALL = reachable(TTT)
RUNNING = [p for p in ALL if TTT.outcome(p) is None]
TABLE = value_table(TTT)


# -- the article, re-implemented independently on a tuple board ---------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def article_evaluate(board: tuple[str, ...], player: str) -> int:
    for a, b, c in LINES:
        if board[a] == board[b] == board[c] != "_":
            return 10 if board[a] == player else -10
    return 0


@cache
def article_minimax(board: tuple[str, ...], depth: int, is_max: bool, player: str) -> int:
    opponent = "o" if player == "x" else "x"
    score = article_evaluate(board, player)
    if score == 10:
        return score - depth
    if score == -10:
        return score + depth
    if "_" not in board:
        return 0
    mover = player if is_max else opponent
    values = [
        article_minimax((*board[:i], mover, *board[i + 1 :]), depth + 1, not is_max, player)
        for i in range(9)
        if board[i] == "_"
    ]
    return max(values) if is_max else min(values)


def article_best_value(position: MNKPosition) -> int:
    """The article's findBestMove value for the side to move (win d plies below: 10 - d)."""
    board = tuple(
        "x" if position.x >> i & 1 else "o" if position.o >> i & 1 else "_" for i in range(9)
    )
    player = TTT.player_name(TTT.to_move(position))
    return max(
        article_minimax((*board[:i], player, *board[i + 1 :]), 0, False, player)
        for i in range(9)
        if board[i] == "_"
    )


def article_score(score: Score) -> int:
    data: dict[str, Any] = contract.score_json(TTT, TTT.initial(), score)
    return int(data["score"])


def move_value(position: MNKPosition, move: Any) -> int:
    """Exact value of a move for the mover, from the complete table."""
    child = TTT.play(position, move)
    return int(score_of_move(Score(TABLE[TTT.key(child)], True)).value)


def test_counts() -> None:
    assert len(ALL) == 5478
    assert len(RUNNING) == 4520
    assert len(TABLE) == 5478


def test_minimax_matches_the_article_everywhere() -> None:
    for position in RUNNING:
        result = minimax(TTT, position)
        assert result.exact
        assert article_score(result.score) == article_best_value(position), str(position)
        assert result.score.value == TABLE[TTT.key(position)]
        assert move_value(position, result.best_move) == result.score.value


@pytest.mark.parametrize(
    "options",
    [
        Options(table=False, symmetry=False, ordering=False),
        Options(table=False, symmetry=False, ordering=True),
        Options(table=True, symmetry=False, ordering=True),
        Options(table=True, symmetry=True, ordering=True),
        Options(table=True, symmetry=True, ordering=False),
    ],
    ids=lambda o: f"table={o.table},sym={o.symmetry},order={o.ordering}",
)
@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_alphabeta_matches_minimax_everywhere(options: Options, engine: str) -> None:
    for position in RUNNING:
        expected = TABLE[TTT.key(position)]
        if engine == "python":
            result = alphabeta(TTT, position, options=options)
        else:
            search = SearchOptions(engine="kernel", refinements=options)
            result = solve(TTT, position, search=search)
        assert result.exact
        assert result.score.value == expected, (str(position), options)
        # Never a slower win or a faster loss than the best move available.
        assert move_value(position, result.best_move) == expected, str(position)


def test_principal_variation_replays_to_the_end_with_the_value() -> None:
    for position in RUNNING[::7]:
        result = solve(TTT, position)
        current = position
        for move in result.pv:
            current = TTT.play(current, move)
        outcome = TTT.outcome(current)
        assert outcome is not None, "an exact PV runs to the end of the game"
        plies = len(result.pv)
        if result.score.outcome == "draw":
            assert outcome.winner is None
        else:
            assert result.score.plies == plies
            winner = TTT.to_move(position) if result.score.outcome == "win" else None
            if winner is not None:
                assert outcome.winner == winner


def test_article_board() -> None:
    g, position = api.load("tictactoe", "xox/oox/___")
    data = contract.result_json(g, position, api.best(g, position))
    assert data["best_move"] == {"row": 3, "col": 3}
    assert (data["outcome"], data["plies"], data["score"], data["to_move"]) == ("win", 1, 10, "x")
    analysis: dict[str, Any] = contract.analysis_json(g, position, api.analyze(g, position))
    moves = analysis["moves"]
    summary = [(m["row"], m["col"], m["outcome"], m["plies"], m["score"]) for m in moves]
    assert summary == [(3, 1, "loss", 2, -9), (3, 2, "draw", 3, 0), (3, 3, "win", 1, 10)]


def test_generic_and_kernel_tables_agree_on_3x4() -> None:
    g = game(3, 4, 3)
    assert value_table(g) == value_table(g, engine="python")
