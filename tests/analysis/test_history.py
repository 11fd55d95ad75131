"""History reconstruction against brute force: every order of play, judged by plain minimax.

The reference is independent of the library's search: a memoised plain minimax on a tuple
board (checked against :func:`perfectplay.search.minimax.minimax`), and a brute-force
enumeration of every order in which the board's stones can have been played (x's on odd
plies, o's on even ones, no finished position before the end).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.analysis.exact import ExactValues
from perfectplay.analysis.history import History, Notion, mistake_text
from perfectplay.analysis.history import reconstruct as reconstruct_with
from perfectplay.contract import history_json
from perfectplay.errors import IllegalPositionError, ParameterError
from perfectplay.games.mnk.rules import MNKGame, MNKPosition, game
from perfectplay.games.registry import kit_of
from perfectplay.search.minimax import minimax
from perfectplay.values import WIN

TTT = game()
VALUES = ExactValues(TTT)


def reconstruct(
    game: Any, position: Any, notion: Notion = "outcome", values: ExactValues | None = None
) -> History:
    """The history of ``position``, taking stones back as the game's kit says."""
    retraction = kit_of(game).retraction(game, position)
    return reconstruct_with(game, position, retraction, notion, values)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
Board = tuple[str, ...]


# -- the reference: plain minimax on a tuple board ---------------------------------------------
def won(board: Board) -> bool:
    return any(board[a] == board[b] == board[c] != "." for a, b, c in LINES)


def mover(board: Board) -> str:
    return "x" if board.count("x") == board.count("o") else "o"


def placed(board: Board, cell: int) -> Board:
    return (*board[:cell], mover(board), *board[cell + 1 :])


@cache
def ref_value(board: Board) -> int:
    """Plain minimax value for the side to move: WIN - p (win at the p-th ply), 0, -(WIN - p)."""
    if won(board):
        return -WIN
    if "." not in board:
        return 0
    return max(ref_move(placed(board, i)) for i in range(9) if board[i] == ".")


def ref_move(child: Board) -> int:
    """The mover's value of the move that made ``child``."""
    value = ref_value(child)
    return 0 if value == 0 else -value + 1 if value > 0 else -value - 1


def ref_optimal(best: int, played: int, notion: Notion) -> bool:
    if notion == "strict":
        return best == played
    return (best > 0) == (played > 0) and (best < 0) == (played < 0)


def as_board(position: MNKPosition) -> Board:
    return tuple(str(position).replace("/", "").replace("_", "."))


def brute_force(target: Board, notion: Notion) -> tuple[int, int]:
    """(all-optimal orders, fewest mistakes of any order) over every legal order of play."""
    optimal = 0
    fewest = 10**9
    for mistakes in _orders(tuple("." * 9), target, 0, notion):
        fewest = min(fewest, mistakes)
        optimal += mistakes == 0
    return optimal, fewest


def _orders(board: Board, target: Board, mistakes: int, notion: Notion) -> Iterator[int]:
    """The mistakes of every order that completes ``board`` into ``target``."""
    if board == target:
        yield mistakes
        return
    if won(board):
        return  # the game ended before the target
    side = mover(board)
    best = ref_value(board)
    for cell in range(9):
        if board[cell] == "." and target[cell] == side:
            child = placed(board, cell)
            wrong = not ref_optimal(best, ref_move(child), notion)
            yield from _orders(child, target, mistakes + wrong, notion)


@st.composite
def boards(draw: st.DrawFn) -> MNKPosition:
    """A random position reached by legal play from the empty 3x3 board."""
    choices = draw(st.lists(st.integers(0, 8), max_size=9))
    position = TTT.initial()
    for choice in choices:
        moves = TTT.legal_moves(position)
        if not moves:
            break
        position = TTT.play(position, moves[choice % len(moves)])
    return position


def check_history(position: MNKPosition, history: History, notion: Notion) -> None:
    """Replays legally to the board; every step's values and verdict are the reference's."""
    current = TTT.initial()
    for number, step in enumerate(history.steps, start=1):
        board = as_board(current)
        assert step.player == TTT.to_move(current)
        current = TTT.play(current, step.move)  # raises on an illegal move or a finished game
        assert step.ply == number
        assert step.position == current
        assert step.best == ref_value(board)
        assert step.played == ref_move(as_board(current))
        assert step.optimal == ref_optimal(step.best, step.played, notion)
    assert current == position
    assert history.reachable_optimally == (not history.mistakes)


# -- the reference itself ---------------------------------------------------------------------
def test_reference_is_plain_minimax() -> None:
    late = [p for p in _positions() if TTT.ply(p) >= 6 and TTT.outcome(p) is None]
    early = [p for p in _positions() if TTT.ply(p) == 3][:12]
    for position in late + early:
        assert ref_value(as_board(position)) == minimax(TTT, position).score.value


def _positions() -> list[MNKPosition]:
    seen: dict[Any, MNKPosition] = {}
    stack = [TTT.initial()]
    while stack:
        position = stack.pop()
        if TTT.key(position) not in seen:
            seen[TTT.key(position)] = position
            stack.extend(TTT.play(position, m) for m in TTT.legal_moves(position))
    return list(seen.values())


# -- random boards ------------------------------------------------------------------------------
@settings(max_examples=120, deadline=None)
@given(boards(), st.sampled_from(["outcome", "strict"]))
def test_random_boards_against_brute_force(position: MNKPosition, notion: Notion) -> None:
    history = reconstruct(TTT, position, notion, VALUES)
    check_history(position, history, notion)
    optimal, fewest = brute_force(as_board(position), notion)
    assert history.optimal_histories == optimal
    assert len(history.mistakes) == fewest
    if optimal == 0:
        assert history.mistakes, "no optimal order exists, so the history shows its mistakes"


def test_every_reachable_board_with_mistakes_is_minimal() -> None:
    """All 3x3 boards with 5 stones: the fewest-mistakes history is never beaten."""
    for position in [p for p in _positions() if TTT.ply(p) == 5]:
        history = reconstruct(TTT, position, "outcome", VALUES)
        optimal, fewest = brute_force(as_board(position), "outcome")
        assert (history.optimal_histories, len(history.mistakes)) == (optimal, fewest)


# -- known boards -------------------------------------------------------------------------------
def test_the_empty_board_has_one_empty_history() -> None:
    history = reconstruct(TTT, TTT.initial())
    assert history.steps == () and history.optimal_histories == 1
    assert history_json(TTT, history) == {
        "reachable_optimally": True,
        "history": [],
        "optimal_histories": 1,
        "mistakes": [],
        "notion": "outcome",
    }


def test_a_drawn_full_board_has_222_optimal_orders() -> None:
    _, position = api.load("tictactoe", "xox/xoo/oxx")
    assert isinstance(position, MNKPosition)
    history = reconstruct(TTT, position, values=VALUES)
    assert history.optimal_histories == 222 == brute_force(as_board(position), "outcome")[0]
    assert all(step.optimal for step in history.steps)


def test_mistakes_are_named_and_in_json() -> None:
    _, position = api.load("tictactoe", "xo_/_x_/o_x")
    history = reconstruct(TTT, position, values=VALUES)
    data: dict[str, Any] = history_json(TTT, history)
    assert set(data) == {
        "reachable_optimally",
        "history",
        "optimal_histories",
        "mistakes",
        "notion",
    }
    assert data["reachable_optimally"] is False and data["optimal_histories"] == 0
    assert data["history"][0] == {"row": 2, "col": 2}
    assert data["mistakes"] == [
        {"ply": 4, "move": {"row": 1, "col": 2}, "before": "draw", "after": "loss"}
    ]
    assert mistake_text(history.mistakes[0], "outcome") == "move 4 turned a draw into a loss"
    strict: dict[str, Any] = history_json(TTT, reconstruct(TTT, position, "strict", VALUES))
    assert strict["mistakes"][0]["after"] == "loss in 2"


def test_strict_counts_the_distance_too() -> None:
    _, position = api.load("tictactoe", "xx_/__o/o__")
    assert len(reconstruct(TTT, position, "outcome", VALUES).mistakes) == 1
    assert len(reconstruct(TTT, position, "strict", VALUES).mistakes) == 2
    # (3,4,3) is a first-player win: outcome-optimal orders exist, strictly optimal ones not.
    wide, board = api.load("tictactoe", "_x_o/_oxx/o___", k=3)
    assert reconstruct(wide, board, "outcome").optimal_histories == 10
    strict = reconstruct(wide, board, "strict")
    assert not strict.reachable_optimally and len(strict.mistakes) == 2


def test_a_finished_board_ends_with_the_winning_move() -> None:
    _, position = api.load("tictactoe", "xxx/oo_/___")
    history = reconstruct(TTT, position, values=VALUES)
    assert history.steps[-1].position == position
    assert history.steps[-1].played == WIN - 1
    assert TTT.outcome(history.steps[-1].position) is not None
    assert all(TTT.outcome(step.position) is None for step in history.steps[:-1])


def test_bad_notion_is_refused() -> None:
    with pytest.raises(ParameterError, match="notion 'best'"):
        reconstruct(TTT, TTT.initial(), "best")  # type: ignore[arg-type]


# -- 4x4, k = 4 ---------------------------------------------------------------------------------
def test_4x4_board_against_brute_force_with_solver_values() -> None:
    g, position = api.load("tictactoe", "x_o_/_x__/__o_/____", k=4)
    assert isinstance(g, MNKGame) and isinstance(position, MNKPosition)
    values = ExactValues(g)
    history = reconstruct(g, position, values=values)
    current = g.initial()
    for step in history.steps:
        analysis = {v.move: v.score.value for v in api.analyze(g, current)}
        assert step.best == max(analysis.values())
        assert step.played == analysis[step.move]
        current = g.play(current, step.move)
    assert current == position
    assert history.optimal_histories == _count_orders(g, position, values)


def _count_orders(g: MNKGame, target: MNKPosition, values: ExactValues) -> int:
    """All-optimal orders (outcome notion) of ``target`` by enumerating every order."""

    def walk(position: MNKPosition) -> int:
        if position == target:
            return 1
        if g.outcome(position) is not None:
            return 0
        mine = target.x if g.to_move(position).value == 1 else target.o
        best = values.value(position)
        total = 0
        for move in g.legal_moves(position):
            if mine >> g.index(move) & 1:
                played = values.move_value(position, move)
                if (played > 0, played < 0) == (best > 0, best < 0):
                    total += walk(g.play(position, move))
        return total

    return walk(g.initial())


def test_full_4x4_board() -> None:
    g, position = api.load("tictactoe", "xxoo/ooxx/xxoo/xxoo", k=4)
    history = reconstruct(g, position)
    assert history.reachable_optimally
    assert history.optimal_histories == 654_877_980
    current = g.initial()
    for move in history.moves:
        current = g.play(current, move)
    assert current == position


# -- Connect Four 5x4 ---------------------------------------------------------------------------
C4_BOARDS = {
    "optimal": "...../...../.o.../oxxxo",
    "mistakes": "...../...../..x../.xoo.",
    "finished": "x..../x..../xo.../xo.o.",  # x wins in column 1: a mistake was made
}


@pytest.fixture(scope="module")
def connect4() -> Iterator[tuple[Any, ExactValues]]:
    g, _ = api.new_game("connect4", size="5x4")
    yield g, ExactValues(g)


def c4_reference(g: Any, position: Any) -> dict[int, int]:
    """The mover's standard score of every column (the kernel's ``move_scores``), cached."""
    key = g.key(position)
    if key not in _C4_SCORES:
        kernel = g.kernel()
        _C4_SCORES[key] = kernel.move_scores(position, kernel.new_table(1 << 16))
    return _C4_SCORES[key]


_C4_SCORES: dict[Any, dict[int, int]] = {}


def c4_standard(g: Any, position: Any, value: int) -> int:
    """A WIN-scale value for the side to move in ``position`` as a standard score."""
    if value == 0:
        return 0
    return int(g.score_of(position, WIN - abs(value), value > 0))


@pytest.mark.parametrize("name", sorted(C4_BOARDS))
def test_connect4_5x4_against_brute_force(name: str, connect4: tuple[Any, ExactValues]) -> None:
    g, values = connect4
    game_, position = api.load("connect4", C4_BOARDS[name])
    assert game_ == g
    history = reconstruct(g, position, values=values)
    current = g.initial()
    for step in history.steps:
        scores = c4_reference(g, current)
        assert c4_standard(g, current, step.best) == max(scores.values())
        assert c4_standard(g, current, step.played) == scores[step.move]
        current = g.play(current, step.move)
    assert current == position
    optimal, fewest = _c4_orders(g, position)
    assert (history.optimal_histories, len(history.mistakes)) == (optimal, fewest)
    assert history.reachable_optimally == (name == "optimal")


def _c4_orders(g: Any, target: Any) -> tuple[int, int]:
    """(all-optimal orders, fewest mistakes) over every order of play (outcome notion)."""
    results: list[int] = []

    def walk(position: Any, mistakes: int) -> None:
        if position == target:
            results.append(mistakes)
            return
        if g.outcome(position) is not None:
            return
        mine = target.first if g.to_move(position).value == 1 else target.second
        scores = c4_reference(g, position)
        best = max(scores.values())
        for column in g.legal_moves(position):
            child = g.play(position, column)
            stone = child.mask & ~position.mask
            if stone & mine:
                wrong = (scores[column] > 0, scores[column] < 0) != (best > 0, best < 0)
                walk(child, mistakes + wrong)

    walk(g.initial(), 0)
    return sum(m == 0 for m in results), min(results)


def test_connect4_mistake_is_named(connect4: tuple[Any, ExactValues]) -> None:
    g, values = connect4
    _, position = api.load("connect4", C4_BOARDS["mistakes"])
    data: dict[str, Any] = history_json(g, reconstruct(g, position, values=values))
    assert data["history"][0] == {"column": 2}
    assert [(m["ply"], m["before"], m["after"]) for m in data["mistakes"]] == [
        (3, "draw", "loss"),
        (4, "win", "draw"),
    ]


def test_connect4_board_no_game_reaches(connect4: tuple[Any, ExactValues]) -> None:
    g, values = connect4
    _, position = api.load("connect4", "...../...../x..../o....")  # passes the notation's checks
    with pytest.raises(IllegalPositionError, match="no legal game reaches this board"):
        reconstruct(g, position, values=values)


def test_history_reports_its_progress_board_by_board() -> None:
    """Issue 15, item 3: a long history said nothing; it now reports each sub-board valued
    (few stones first: those are the slow ones), which the CLI shows on a terminal."""
    game, position = api.load("tictactoe", "xox/xoo/oxx")
    heard: list[tuple[int, int, int, float]] = []
    found = api.history(game, position, on_progress=lambda *report: heard.append(report))
    assert found.optimal_histories == 222
    stones = [report[0] for report in heard]
    assert stones == sorted(stones) and stones[0] == 1 and stones[-1] == 9
    assert {report[1] for report in heard} == {9}
    assert [report[2] for report in heard] == list(range(1, len(heard) + 1))
    seconds = [report[3] for report in heard]
    assert seconds == sorted(seconds)
