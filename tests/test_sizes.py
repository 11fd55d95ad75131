"""``--size`` means one thing in every game (issue 15, item 5): WIDTHxHEIGHT, columns x rows,
Connect Four's convention. ``7x6`` is a board 7 columns wide and 6 rows high in Connect Four,
the shape-and-color game and tic-tac-toe alike, through the library, the command line and
the JSON (the web's answers are pinned in ``tests/web/test_api.py``)."""

from __future__ import annotations

import pytest
from cli_support import run, run_json

from perfectplay import api, contract
from perfectplay.errors import ParameterError

GAMES = ("connect4", "simplexity", "tictactoe")
FULL_COLUMN = {"connect4": ("111111", "1"), "simplexity": ("1O 1X 1O 1X 1O 1X", " 1O")}
"""Six pieces in the first column, which fill a 6 rows high column, and one more."""


@pytest.mark.parametrize("name", [*GAMES, "gomoku"])
@pytest.mark.parametrize(("size", "width", "height"), [("7x6", 7, 6), ("5x4", 5, 4)])
def test_the_library_reads_width_x_height(name: str, size: str, width: int, height: int) -> None:
    game, start = api.new_game(name, size=size)
    view = api.board(game, start)
    assert view is not None and (view.cols, view.rows) == (width, height)
    game_kit = api.kit(name)
    assert game_kit.size_of(game) == (width, height) and game_kit.size_text(game) == size
    state = contract.state_json(api.start(game))
    assert (state["cols"], state["rows"], state["size"]) == (width, height, size)
    assert game_kit.size is not None and game_kit.size.text == "WIDTHxHEIGHT"


@pytest.mark.parametrize("name", GAMES)
def test_the_command_line_reads_7x6_as_7_wide_and_6_high(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    data = run_json(capsys, "analyze", name, "", "--size", "7x6", "--depth", "1")
    moves = data["moves"]
    assert {move.get("column", move.get("col")) for move in moves} == set(range(1, 8))
    if name == "tictactoe":
        assert {move["row"] for move in moves} == set(range(1, 7))
        return
    full, more = FULL_COLUMN[name]
    assert run(capsys, "best", name, full, "--size", "7x6", "--depth", "1")[0] == 0
    code, _, err = run(capsys, "best", name, full + more, "--size", "7x6", "--depth", "1")
    assert code == 2 and "full" in err and "move 7" in err


def test_the_standard_shape_and_color_board_is_7x6() -> None:
    """The course's board, 7 columns of 6, is the default and is written ``7x6``."""
    game, _ = api.new_game("simplexity")
    assert (
        api.kit("simplexity").size_text(game)
        == "7x6"
        == api.kit("connect4").size_text(api.new_game("connect4")[0])
    )
    assert (game.spec.cols, game.spec.rows) == (7, 6)
    assert api.new_game("simplexity", size="7x6")[0] == game


def test_a_board_picture_must_agree_with_the_size_as_width_x_height() -> None:
    """A tic-tac-toe board of 2 rows of 3 is ``3x2``; ``2x3`` is refused, naming both."""
    game, _ = api.load("tictactoe", "x__/_o_", size="3x2")
    assert (game.spec.cols, game.spec.rows) == (3, 2)
    with pytest.raises(ParameterError, match=r"size 2x3: the board given is 3x2"):
        api.load("tictactoe", "x__/_o_", size="2x3")
