"""The shape-and-color text formats: round trips, every rejection with its precise error,
the console board and the quota line, and loading through the API."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_support import rejects

from perfectplay import api
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
    PerfectplayError,
)
from perfectplay.games.simplexity.notation import (
    format_simplexity_moves,
    parse_simplexity_move,
    parse_simplexity_moves,
)
from perfectplay.games.simplexity.rules import (
    SimplexityGame,
    SimplexityMove,
    SimplexityPosition,
    game,
)
from perfectplay.games.simplexity.text import render_simplexity_board, simplexity_quotas

SC = game()
SIZES = [(6, 7), (4, 4), (5, 6), (2, 3), (4, 10), (7, 8)]


def random_game(g: SimplexityGame, seed: int, length: int) -> list[SimplexityMove]:
    """Up to ``length`` random legal moves from the empty board (fewer if it ends)."""
    rng = random.Random(seed)
    position, moves = g.initial(), []
    for _ in range(length):
        legal = g.legal_moves(position)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = g.play(position, move)
    return moves


def moves_reject(
    error: type[PerfectplayError], text: str, *reasons: str, g: SimplexityGame = SC
) -> str:
    """Parse ``text`` as moves on ``g``, expecting exactly ``error`` naming every reason."""
    return rejects(lambda moves: parse_simplexity_moves(g, moves), error, text, *reasons)


# -- round trips -----------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    seed=st.integers(0, 10**6),
    length=st.integers(0, 60),
    separator=st.sampled_from([" ", "", ",", " , ", "  "]),
    lower=st.booleans(),
)
def test_moves_round_trip(
    size: tuple[int, int], seed: int, length: int, separator: str, lower: bool
) -> None:
    g = game(*size)
    moves = random_game(g, seed, length)
    text = format_simplexity_moves(moves)
    assert text == " ".join(f"{m.column + 1}{m.shape}" for m in moves)
    position, parsed = parse_simplexity_moves(g, text)
    assert parsed == moves
    replay = g.initial()
    for move in moves:
        replay = g.play(replay, move)
    assert position == replay and position.win_mask == replay.win_mask
    variant = separator.join(str(m) for m in moves)
    variant = variant.lower() if lower else variant
    again, parsed_again = parse_simplexity_moves(g, f"  {variant}  ")
    assert again == position and parsed_again == moves


@settings(max_examples=100, deadline=None)
@given(column=st.integers(1, 999), shape=st.sampled_from("OXox"), spaces=st.text(" ", max_size=2))
def test_one_move_round_trip(column: int, shape: str, spaces: str) -> None:
    parsed = parse_simplexity_move(f"{spaces}{column}{shape}{spaces}")
    assert parsed == (column - 1, shape.upper())
    assert str(SimplexityMove(*parsed)) == f"{column}{shape.upper()}"


def test_empty_text_is_the_empty_board() -> None:
    for text in ("", "  ", ",", "\n"):
        position, moves = parse_simplexity_moves(SC, text)
        assert position == SC.initial() and moves == []
    assert format_simplexity_moves([]) == ""


# -- rejections ------------------------------------------------------------------------------
def test_bad_columns() -> None:
    moves_reject(
        IllegalMoveError, "4O 8X", "move 2 (8X)", "no such column, the board has columns 1-7"
    )
    moves_reject(IllegalMoveError, "0O", "move 1 (0O)", "no such column")
    moves_reject(IllegalMoveError, "4O 4X 12345678O", "move 3 (123456...O)", "no such column")
    moves_reject(IllegalMoveError, "5O", "move 1 (5O)", "the board has columns 1-4", g=game(4, 4))


def test_bad_shapes_and_bad_text() -> None:
    moves_reject(NotationError, "4O 4Z", "move 2 (4Z)", "the shape is O or X")
    moves_reject(NotationError, "4o 3q", "move 2 (3q)", "the shape is O or X")
    moves_reject(NotationError, "4O x", "move 2 at character 4 ('x')", "such as 4O")
    moves_reject(NotationError, "4", "move 1 at character 1", "such as 4O")
    moves_reject(NotationError, "O4", "move 1 at character 1 ('O')")
    moves_reject(NotationError, "4O,,4X", "move 2 at character 5")
    moves_reject(NotationError, "4O 4X 3Ox", "move 4 at character 9 ('x')")
    moves_reject(NotationError, "4O -3X", "move 2 at character 4 ('-')")
    with pytest.raises(NotationError, match="expected text"):
        parse_simplexity_moves(SC, 43)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="longer than"):
        parse_simplexity_moves(SC, "4O " * 2000)


def test_full_column() -> None:
    moves_reject(IllegalMoveError, "1O 1X 1O 1X 1O 1X 1O", "move 7 (1O)", "column 1 is full")
    moves_reject(
        IllegalMoveError, "2O 2X 2O 2X 2X", "move 5 (2X)", "column 2 is full", g=game(4, 4)
    )


def test_exhausted_quota() -> None:
    small = game(2, 3)  # each player: 2 of its own shape, 1 of the other
    moves_reject(
        IllegalMoveError,
        "1X 1O 2X",
        "move 3 (2X)",
        "player 1 (red) has no X pieces left (quota 1)",
        g=small,
    )
    moves_reject(
        IllegalMoveError, "1O 1O 2O 2O", "move 4 (2O)", "player 2 (blue) has no O", g=small
    )


def test_play_after_the_end() -> None:
    message = moves_reject(
        GameOverError,
        "1X 7O 2X 7O 3X 7O 4X 5O",
        "move 8 (5O)",
        "the game is already over (four X shapes: player 2 wins)",
    )
    assert isinstance(GameOverError(message), IllegalMoveError)
    moves_reject(GameOverError, "1O 7X 2O 7X 3O 6X 4O 4O 4O", "move 8 (4O)", "player 1 wins")


def test_parse_one_move_names_its_number() -> None:
    assert parse_simplexity_move("4o") == (3, "O")
    assert parse_simplexity_move(" 10X ") == (9, "X")
    for bad in ("", "4O 5O", "x", "4", "O4"):
        with pytest.raises(NotationError) as info:
            parse_simplexity_move(bad, 3)
        assert str(info.value).startswith(f"move 3 {bad!r}:"), str(info.value)
    with pytest.raises(NotationError, match=r"move 5 \(4Z\): the shape is O or X"):
        parse_simplexity_move("4Z", 5)
    with pytest.raises(NotationError, match="move 2"):
        parse_simplexity_move(None, 2)  # type: ignore[arg-type]


# -- the console board and quotas ------------------------------------------------------------
def test_render_board_as_the_course_engine() -> None:
    g = game(2, 3)
    position, _ = parse_simplexity_moves(g, "1O 2X")
    assert render_simplexity_board(position) == (
        "  1     2     3\n"
        ". -=- . -=- . -=- .\n"
        "|  -  |  -  |  -  |\n"
        ". -=- . -=- . -=- .\n"
        "|  O  |  X  |  -  |\n"
        ". -=- . -=- . -=- ."
    )
    painted = render_simplexity_board(position, color=True)
    assert "\x1b[31mO\x1b[0m" in painted  # red O
    assert "\x1b[34mX\x1b[0m" in painted  # blue X
    assert str(position) == render_simplexity_board(position)


def test_render_standard_board_shape() -> None:
    position, _ = parse_simplexity_moves(SC, "4O 4X 3O")
    lines = render_simplexity_board(position).splitlines()
    assert len(lines) == 1 + 2 * 6 + 1
    assert lines[1] == ". -=- " * 7 + "."
    assert lines[-2] == "|  -  |  -  |  O  |  O  |  -  |  -  |  -  |"
    assert lines[-4] == "|  -  |  -  |  -  |  X  |  -  |  -  |  -  |"
    assert lines[0].split() == [str(c) for c in range(1, 8)]


def test_quota_line() -> None:
    position, _ = parse_simplexity_moves(SC, "4O 4X 3O")
    assert simplexity_quotas(SC, position) == (
        "player 1 (red): O 9, X 10 | player 2 (blue): O 10, X 10"
    )
    assert simplexity_quotas(SC, SC.initial()) == (
        "player 1 (red): O 11, X 10 | player 2 (blue): O 10, X 11"
    )


# -- loading through the API -----------------------------------------------------------------
def test_api_load_and_new_game() -> None:
    g, position = api.load("simplexity", "4O 4X 3O", size="7x6")
    assert isinstance(position, SimplexityPosition)
    assert g == SC and position.plies == 3
    g, position = api.load("sc", "4O4X", size="5x4")
    assert isinstance(position, SimplexityPosition)
    assert (g.spec.rows, g.spec.cols) == (4, 5) and position.plies == 2
    g, start = api.new_game("shapecolor", size="6x4")
    assert (g.spec.rows, g.spec.cols) == (4, 6) and start == g.initial()
    g, start = api.new_game("simplexity")
    assert g == SC
    with pytest.raises(ParameterError, match="k=5"):
        api.load("simplexity", "", k=5)
    with pytest.raises(ParameterError, match="size 3x3"):
        api.new_game("simplexity", size="3x3")
    with pytest.raises(IllegalMoveError, match="move 1 \\(5O\\)"):
        api.load("simplexity", "5O", size="4x4")
