"""The course-engine adapter against a minimal fake of the course's game state: complete games
against a random player on both sides and several sizes, and strange states."""

from __future__ import annotations

import ast
import enum
import importlib.util
import random
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from perfectplay.adapters import course
from perfectplay.adapters.course import PerfectplayBot, read_state
from perfectplay.errors import ParameterError
from perfectplay.games.protocol import Player
from perfectplay.games.simplexity.rules import SimplexityMove, SimplexityPosition, game


# -- a minimal fake of the course engine's state ---------------------------------------------
class Piece:
    """A cell: ``shape`` in ``O``, ``X``, ``-``; ``color`` in ``RED``, ``BLUE``, ``BLACK``."""

    def __init__(self, shape: Any = "-", color: Any = "BLACK") -> None:
        self.shape = shape
        self.color = color


class Board:
    """``board[row, col]`` with row 0 at the TOP; ``row`` and ``col`` give the size."""

    def __init__(self, rows: int, cols: int) -> None:
        self.row = rows
        self.col = cols
        self.cells = [[Piece() for _ in range(cols)] for _ in range(rows)]

    def __getitem__(self, key: tuple[int, int]) -> Piece:
        row, col = key
        if not (0 <= row < self.row and 0 <= col < self.col):
            raise IndexError(key)
        return self.cells[row][col]


class CoursePlayer:
    def __init__(self, quota: dict[str, Any]) -> None:
        self.quota = quota


class State:
    """The course state: board, players with quotas, the round (from 1)."""

    def __init__(self, rows: int = 6, cols: int = 7) -> None:
        self.board = Board(rows, cols)
        half = rows * cols // 2
        own, other = (half + 1) // 2, half // 2
        self.players = [
            CoursePlayer({"O": float(own), "X": float(other)}),  # the course keeps floats
            CoursePlayer({"O": float(other), "X": float(own)}),
        ]
        self.round = 1

    def legal(self, n_player: int) -> list[tuple[int, str]]:
        """What the course engine accepts: an empty top cell and a shape with quota."""
        shapes = [s for s in "OX" if self.players[n_player].quota[s] > 0]
        return [
            (c, s) for c in range(self.board.col) if self.board[0, c].shape == "-" for s in shapes
        ]

    def place(self, n_player: int, column: int, shape: str) -> None:
        """Drop a piece as the course engine does (the move must be legal)."""
        assert (column, shape) in self.legal(n_player)
        row = max(r for r in range(self.board.row) if self.board[r, column].shape == "-")
        self.board.cells[row][column] = Piece(shape, ("RED", "BLUE")[n_player])
        self.players[n_player].quota[shape] -= 1
        self.round += 1


def state_after(rows: int, cols: int, moves: str) -> tuple[State, SimplexityPosition]:
    """The fake state and the perfectplay position after ``moves`` (``"4O 4X"``)."""
    state, g = State(rows, cols), game(rows, cols)
    position = g.initial()
    for i, text in enumerate(moves.split()):
        column, shape = int(text[:-1]) - 1, text[-1]
        state.place(i % 2, column, shape)
        position = g.play(position, SimplexityMove(column, shape))
    return state, position


HANG = 1.0
"""Slack on the thinking time before a move counts as ignoring its deadline. These tests only
catch a search that runs on; how closely the engine keeps its time is measured by the arena
benchmark (BENCHMARKS.md), not asserted here, since test machines vary."""


@pytest.fixture(scope="module")
def bot() -> PerfectplayBot:
    return PerfectplayBot()


# -- complete games --------------------------------------------------------------------------
@pytest.mark.parametrize(("rows", "cols"), [(6, 7), (4, 4), (4, 5), (5, 6)])
@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("seed", [0, 1])
def test_complete_games_against_a_random_player(
    bot: PerfectplayBot, rows: int, cols: int, side: int, seed: int
) -> None:
    rng = random.Random(seed * 1000 + rows * 100 + cols * 10 + side)
    g = game(rows, cols)
    state, position = State(rows, cols), g.initial()
    thinking = 0.2
    turn = 0
    sources: Counter[str] = Counter()
    while g.outcome(position) is None:
        if turn == side:
            began = time.perf_counter()
            column, shape = bot.find(state, turn, thinking)
            elapsed = time.perf_counter() - began
            assert elapsed <= thinking + HANG, elapsed
            assert bot.last is not None and bot.last.notes == ()
            sources[bot.last.source] += 1
            if bot.last.source != "search":  # a busy machine can eat a 0.2 s turn's budget
                assert bot.last.reason == f"no time to search (thinking time {thinking!r})"
        else:
            column, shape = rng.choice(state.legal(turn))
        assert isinstance(column, int) and shape in ("O", "X")
        assert (column, shape) in state.legal(turn)
        state.place(turn, column, shape)
        position = g.play(position, SimplexityMove(column, shape))
        assert read_state(state).red == position.red
        turn = 1 - turn
    outcome = g.outcome(position)
    assert outcome is not None
    assert outcome.winner in (None, Player(side + 1)), outcome  # never loses to random play
    assert sources["search"] >= sources["fallback"], sources  # searched on the whole


def test_copied_module_plays_with_only_perfectplay(tmp_path: Path) -> None:
    source = Path(course.__file__)
    tree = ast.parse(source.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top == "perfectplay" or top in sys.stdlib_module_names or top == "__future__"
    copy = tmp_path / "my_bot.py"
    shutil.copy(source, copy)
    spec = importlib.util.spec_from_file_location("my_bot", copy)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["my_bot"] = module
    try:
        spec.loader.exec_module(module)
        copied = module.PerfectplayBot()
        state, _ = state_after(6, 7, "4O")
        assert copied.find(state, 1, 0.2) in state.legal(1)
    finally:
        del sys.modules["my_bot"]


# -- what the search finds -------------------------------------------------------------------
def test_takes_the_win(bot: PerfectplayBot) -> None:
    g = game()
    # Red O in columns 1-3 of the bottom row, red to move: column 4 wins at once (as an O
    # four, or as a red four with an X).
    state, position = state_after(6, 7, "1O 1X 2O 2X 3O 3X")
    column, shape = bot.find(state, 0, 0.3)
    outcome = g.outcome(g.play(position, SimplexityMove(column, shape)))
    assert outcome is not None and outcome.winner is Player.FIRST
    assert bot.last is not None and bot.last.score == "win in 1"
    # Red X in columns 1-3 of the bottom row: blue completes the X four, which is blue's.
    state, position = state_after(6, 7, "1X 1O 2X 2O 3X 7O")
    column, shape = bot.find(state, 1, 0.3)
    assert (column, shape) == (3, "X")
    outcome = g.outcome(g.play(position, SimplexityMove(column, shape)))
    assert outcome is not None and outcome.winner is Player.SECOND


# -- strange states --------------------------------------------------------------------------
def assert_fallback(bot: PerfectplayBot, state: State, n_player: int, *reason: str) -> None:
    move = bot.find(state, n_player, 0.3)
    assert move in state.legal(n_player)
    assert bot.last is not None and bot.last.source == "fallback", bot.last
    for text in reason:
        assert text in (bot.last.reason or ""), bot.last


def test_quotas_of_the_state_decide_legality(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O 4X")
    state.players[0].quota["O"] = 0  # the board says red has 10 O left
    move = bot.find(state, 0, 0.3)
    assert move in state.legal(0) and move[1] == "X"
    assert bot.last is not None and bot.last.source == "search"
    assert any("has 0 O by the state but 10 by the board" in n for n in bot.last.notes)
    state.players[0].quota["X"] = 0.0  # nothing left at all: no legal move exists
    move = bot.find(state, 0, 0.3)
    assert bot.last is not None and bot.last.reason == "no legal move"


def test_quota_numbers_may_be_floats_or_strange(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O")
    state.players[1].quota = {"O": 10.0, "X": "11"}  # a number as text still reads
    column, _ = bot.find(state, 1, 0.2)
    assert 0 <= column < 7
    assert bot.last is not None and bot.last.source == "search" and bot.last.notes == ()
    state.players[1].quota = {"O": float("nan"), "X": 11.0}
    move = bot.find(state, 1, 0.2)
    assert move[1] == "X"  # a quota that is not a number counts 0


def test_wrong_player_to_move_falls_back(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O")
    assert_fallback(bot, state, 0, "player 2 to move, not player index 0")


def test_floating_piece_falls_back(bot: PerfectplayBot) -> None:
    state = State()
    state.board.cells[3][2] = Piece("O", "RED")  # row 3 from the top hangs in the air
    state.board.cells[5][5] = Piece("X", "BLUE")
    assert_fallback(bot, state, 0, "floats")


def test_finished_game_falls_back(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "1O 1X 2O 2X 3O 3X 4O")
    assert_fallback(bot, state, 1, "already over")


def test_unreadable_cells_and_states(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O")
    state.board.cells[5][0] = Piece("Q", "RED")
    move = bot.find(state, 1, 0.2)
    assert move in state.legal(1)
    assert bot.last is not None and "unreadable" in (bot.last.reason or "")
    broken = State()
    del broken.board
    assert bot.find(broken, 0, 0.2) == (0, "O")
    assert bot.last is not None and bot.last.source == "fallback"


def test_only_open_columns_are_played(bot: PerfectplayBot) -> None:
    g = game(4, 4)
    # Fill columns 1, 2 and 4 (no four anywhere), leaving column 3 open.
    state, _ = state_after(4, 4, "1O 1X 2X 2O 4O 4X 1X 1O 2O 2X 4X 4O")
    assert state.legal(0) and {c for c, _ in state.legal(0)} == {2}
    move = bot.find(state, 0, 0.3)
    assert move[0] == 2 and g is not None


def test_no_time_answers_at_once(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O 4X")
    for thinking in (0.0, 0.01, -1.0, float("nan")):
        began = time.perf_counter()
        move = bot.find(state, 0, thinking)
        assert time.perf_counter() - began < HANG
        assert move in state.legal(0)
        assert bot.last is not None and bot.last.source == "fallback"
        assert "no time" in (bot.last.reason or "")
    assert bot.last is not None and bot.last.move == (3, "O")  # centre column, own shape


def test_round_disagreement_is_noted(bot: PerfectplayBot) -> None:
    state, _ = state_after(6, 7, "4O 4X")
    state.round = 7
    assert bot.find(state, 0, 0.2) in state.legal(0)
    assert bot.last is not None and bot.last.source == "search"
    assert bot.last.notes == ("round 7 but 2 pieces on the board",)


def test_enum_constants_and_nested_list_boards(bot: PerfectplayBot) -> None:
    class Shape(enum.Enum):
        CIRCLE = "O"
        CROSS = "X"
        BLANK = "-"

    class Color(enum.Enum):
        RED = "RED"
        BLUE = "BLUE"
        BLACK = "BLACK"

    class ListBoard(list[list[Piece]]):
        row, col = 4, 4

    cells = [[Piece(Shape.BLANK, Color.BLACK) for _ in range(4)] for _ in range(4)]
    cells[3][1] = Piece(Shape.CIRCLE, Color.RED)
    state = State(4, 4)
    state.board = ListBoard(cells)  # type: ignore[assignment]
    state.players[0].quota["O"] -= 1
    view = read_state(state)
    assert view.red == 1 << 5 and view.circles == 1 << 5  # column 1, bottom row: 1 * 5 + 0
    move = bot.find(state, 1, 0.2)
    assert move[0] in range(4) and bot.last is not None and bot.last.source == "search"


def test_first_move_before_the_engine_is_loaded() -> None:
    cold = PerfectplayBot(evaluation="neighbors", warm_up=False)
    assert not cold.loaded  # a bot without warm-up searches with the generic engine
    state = State()
    began = time.perf_counter()
    assert cold.find(state, 0, 0.3) in state.legal(0)
    assert time.perf_counter() - began <= 0.3 + HANG
    assert cold.last is not None and cold.last.source == "search"


def test_bot_parameters_are_checked() -> None:
    with pytest.raises(ParameterError, match="evaluation 'smart'"):
        PerfectplayBot(evaluation="smart", warm_up=False)
    with pytest.raises(ParameterError, match="depth"):
        PerfectplayBot(depth=0, warm_up=False)
    with pytest.raises(ParameterError, match="margin"):
        PerfectplayBot(margin=1.5, warm_up=False)
    limited = PerfectplayBot(evaluation="neighbors", depth=2)
    state, _ = state_after(6, 7, "4O")
    assert limited.find(state, 1, 1.0) in state.legal(1)
    assert limited.last is not None and limited.last.depth <= 2
