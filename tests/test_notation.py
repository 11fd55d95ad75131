"""The text formats: every rejection with its precise error, and round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    NotationError,
    ParameterError,
    PerfectplayError,
)
from perfectplay.games.mnk.notation import (
    format_mnk_move,
    parse_json_cell,
    parse_mnk_board,
    parse_mnk_move,
)
from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition, MNKSpec, game
from perfectplay.games.mnk.text import format_mnk_board, mnk_board_matrix, render_mnk_board
from perfectplay.games.protocol import Player
from perfectplay.notation import parse_size, player_from_text


def rejects(error: type[PerfectplayError], text: str, *reasons: str, k: int | None = None) -> str:
    """Parse ``text``, expecting exactly ``error``; the message must quote the input and give
    every one of ``reasons``. Returns the message."""
    with pytest.raises(PerfectplayError) as info:
        parse_mnk_board(text, k)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    message = str(info.value)
    shown = text if len(text) <= 60 else text[:57] + "..."  # long input is quoted shortened
    assert message.startswith(f"board {shown!r}:"), message
    for reason in reasons:
        assert reason in message, message
    return message


# -- boards that do not parse ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        ("xo/x", ["ragged rows", "row 2 has 1 cells", "row 1 has 2"]),
        ("x__/oo/___", ["ragged rows", "row 2 has 2 cells", "row 1 has 3"]),
        ("___/___/____", ["ragged rows", "row 3 has 4 cells"]),
        ("xo\nx", ["ragged rows", "row 2 has 1 cells"]),
    ],
)
def test_ragged_rows(text: str, reasons: list[str]) -> None:
    rejects(NotationError, text, *reasons)


@pytest.mark.parametrize(
    ("text", "char", "row", "col"),
    [
        ("xoz/___/___", "z", 1, 3),
        ("x__/_a_/___", "a", 2, 2),
        ("x__/___/__0", "0", 3, 3),
        ("#", "#", 1, 1),
        ("x o/___/___", " ", 1, 2),
        ("x__/___/_·_", "·", 3, 2),
    ],
)
def test_unknown_characters_are_located(text: str, char: str, row: int, col: int) -> None:
    rejects(
        NotationError, text, f"unknown character {char!r}", f"at row {row}, column {col}", "x, o"
    )


@pytest.mark.parametrize("text", ["", "   ", "\n", "\n\t "])
def test_empty_text(text: str) -> None:
    rejects(NotationError, text, "empty text")


@pytest.mark.parametrize(("text", "row"), [("/", 1), ("x//o", 2), ("xo/ /ox", 2), ("/xo", 1)])
def test_empty_rows(text: str, row: int) -> None:
    rejects(NotationError, text, f"row {row} is empty")


def test_a_trailing_slash_is_an_empty_row_and_a_final_new_line_is_harmless() -> None:
    """Issue 15, item 9: ``x/`` is a ragged board (it read as the 1x1 board ``x``)."""
    rejects(NotationError, "x/", "row 2 is empty")
    rejects(NotationError, "xo_/___/", "row 3 is empty")
    assert parse_mnk_board("xo_\n___\n")[1] == parse_mnk_board("xo_/___")[1]


def test_non_text_and_overlong_text() -> None:
    with pytest.raises(NotationError, match="expected text"):
        parse_mnk_board(123)  # type: ignore[arg-type]
    long_text = "_" * 5000
    with pytest.raises(NotationError, match="longer than 4096 characters") as info:
        parse_mnk_board(long_text)
    assert "'____" in str(info.value)
    assert len(str(info.value)) < 200  # the input is quoted, but shortened


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("x" + "_" * 20, "21x1"),  # width x height
        ("/".join(["_"] * 21), "1x21"),
        ("/".join(["_" * 21] * 21), "21x21"),
        ("/".join(["_" * 20] * 21), "20x21"),
        (json.dumps([[0] * 21]), "21x1"),
    ],
)
def test_boards_too_large(text: str, size: str) -> None:
    rejects(ParameterError, text, f"{size} is too large", "at most 20x20")


def test_largest_board_is_accepted() -> None:
    g, position = parse_mnk_board("/".join(["_" * 15] * 15))
    assert g.spec == MNKSpec(15, 15, 5)  # Gomoku: five in a row
    assert position == g.initial()


@pytest.mark.parametrize(
    ("text", "k", "named"),
    [
        ("___/___/___", 4, "k=4"),
        ("___/___/___", 0, "k=0"),
        ("___/___/___", -1, "k=-1"),
        ("____/____", 5, "k=5"),
        ("___/___/___", True, "k=True"),
    ],
)
def test_k_out_of_range(text: str, k: int, named: str) -> None:
    with pytest.raises(ParameterError) as info:
        parse_mnk_board(text, k)
    message = str(info.value)
    assert named in message and "must be a whole number from 1 to" in message


def test_k_defaults_to_the_shorter_side_and_may_reach_the_longer() -> None:
    assert parse_mnk_board("____/____")[0].spec == MNKSpec(2, 4, 2)
    assert parse_mnk_board("____/____", k=4)[0].spec == MNKSpec(2, 4, 4)
    assert parse_mnk_board("x___/____", k=1)[0].spec == MNKSpec(2, 4, 1)


# -- boards that parse but no legal game reaches ------------------------------------------------
@pytest.mark.parametrize(
    ("text", "nx", "no"),
    [
        ("oo_/___/___", 0, 2),  # too many o
        ("o__/___/___", 0, 1),
        ("xo_/oo_/___", 1, 3),
        ("xx_/___/___", 2, 0),  # too many x
        ("xxx/o__/x__", 4, 1),
        ("xxxx", 4, 0),
    ],
)
def test_impossible_piece_counts(text: str, nx: int, no: int) -> None:
    rejects(
        IllegalPositionError,
        text,
        "impossible piece counts",
        f"x has {nx} and o has {no}",
        "x must have as many stones as o or one more",
    )


@pytest.mark.parametrize(
    ("text", "k"), [("xxx/ooo/___", None), ("xo/ox", 2), ("xxx_/ooo_/____", 3)]
)
def test_both_sides_have_a_line(text: str, k: int | None) -> None:
    rejects(IllegalPositionError, text, "both x and o have a line", k=k)


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("xxx/oo_/o__", "x"),  # x has a line but x == o: o moved after it
        ("xxx/oo_/oo_", None),  # with x < o the counts are wrong first
        ("ooo/xx_/xx_", "o"),  # o has a line but x == o + 1: x moved after it
        ("x_o/xo_/oxx", "o"),
    ],
)
def test_winner_did_not_move_last(text: str, who: str | None) -> None:
    if who is None:
        rejects(IllegalPositionError, text, "impossible piece counts")
    else:
        rejects(IllegalPositionError, text, f"{who} has a line but did not move last")


@pytest.mark.parametrize(
    ("text", "k"),
    [
        # x: two disjoint lines (top and bottom rows); x = 6, o = 5, o has no line
        ("xxx_/oo_o/o_o_/xxx_", 3),
        # o: two disjoint lines; x = o = 6, x has no line
        ("ooo_/xx_x/x_xx/ooo_", 3),
        # a single run of six with k = 3: whichever stone came last, a line was there before
        ("xxxxxxo_oo_o_o_", 3),
        # a row line and a separate column line (of four) that share no stone
        ("xxx__/oo_x_/o_ox_/_o_xo/___x_", 3),
    ],
)
def test_won_boards_that_no_game_reaches(text: str, k: int) -> None:
    rejects(
        IllegalPositionError, text, "no legal game reaches this board", "no single last stone", k=k
    )


@pytest.mark.parametrize(
    ("text", "k", "winner"),
    [
        ("xxx/xoo/xoo", None, Player.FIRST),  # two lines sharing the last stone (a corner)
        ("xxxxxo_oo_o__", 3, Player.FIRST),  # a run of five: the middle stone came last
        ("xox/oxo/oxx", None, Player.FIRST),  # won on the last cell: a win, not a draw
        ("oox/_x_/x__", None, Player.FIRST),
        ("xxo/xo_/o__", None, Player.SECOND),
    ],
)
def test_won_boards_that_a_game_reaches(text: str, k: int | None, winner: Player) -> None:
    g, position = parse_mnk_board(text, k)
    outcome = g.outcome(position)
    assert outcome is not None and outcome.winner is winner
    assert position.win_mask != 0


# -- moves in a parsed position -----------------------------------------------------------------
def test_play_after_the_game_ended() -> None:
    g, won = parse_mnk_board("xxx/oo_/___")
    for text in ["c2", "a3", "a1"]:
        with pytest.raises(GameOverError) as info:
            g.play(won, parse_mnk_move(g, text))
        assert "already over" in str(info.value) and "x has 3 in a row" in str(info.value)
    g, drawn = parse_mnk_board("xox/xoo/oxx")
    outcome = g.outcome(drawn)
    assert outcome is not None and outcome.is_draw
    with pytest.raises(GameOverError, match="the board is full"):
        g.play(drawn, Cell(0, 0))


def test_illegal_moves() -> None:
    g, position = parse_mnk_board("x__/_o_/___")
    for text in ["a1", "1 1", "b2", "2,2"]:
        with pytest.raises(IllegalMoveError) as info:
            g.play(position, parse_mnk_move(g, text))
        assert type(info.value) is IllegalMoveError
        assert "occupied" in str(info.value)
    for text in ["d1", "a4", "0 1", "1 0", "4 4", "z9", "a0"]:
        with pytest.raises(IllegalMoveError) as info:
            parse_mnk_move(g, text)
        assert type(info.value) is IllegalMoveError
        assert repr(text) in str(info.value) and "off the 3x3 board" in str(info.value)
    for text in ["", "zz", "b", "3", "1 2 3", "b3c", "-1 2", "row 1 col 2", "1.5 2"]:
        with pytest.raises(NotationError) as notation:
            parse_mnk_move(g, text)
        assert repr(text) in str(notation.value) and "expected a cell" in str(notation.value)
    with pytest.raises(IllegalMoveError, match="off the 3x3 board"):
        g.play(position, Cell(3, 0))


# -- JSON boards -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("matrix", "text"),
    [
        ([[1, -1, 1], [-1, -1, 1], [0, 0, 0]], "xox/oox/___"),
        ([[0]], "_"),
        ([[1]], "x"),
        ([[1, 0, 0, 0]], "x___"),
        ([[1], [0], [0]], "x/_/_"),
        ([[1, -1], [0, 0]], "xo/__"),
        ([[1, 1, 1], [-1, 1, -1], [-1, 0, 0]], "xxx/oxo/o__"),
    ],
)
def test_json_matrix_equals_text(matrix: list[list[int]], text: str) -> None:
    from_json = parse_mnk_board(json.dumps(matrix))
    from_text = parse_mnk_board(text)
    assert from_json == from_text
    assert from_json[0].outcome(from_json[1]) == from_text[0].outcome(from_text[1])
    assert mnk_board_matrix(from_text[1]) == matrix
    # whitespace around JSON is fine
    assert parse_mnk_board("  " + json.dumps(matrix, indent=2) + "\n") == from_text


@pytest.mark.parametrize(
    ("text", "shown", "row", "col"),
    [
        ("[[1, 2]]", "2", 1, 2),
        ("[[0, 0], [0, -2]]", "-2", 2, 2),
        ("[[true]]", "True", 1, 1),
        ("[[1, false]]", "False", 1, 2),
        ("[[1.0]]", "1.0", 1, 1),
        ("[[0, -1.0]]", "-1.0", 1, 2),
        ('[["x"]]', "'x'", 1, 1),
        ('[[0, "1"]]', "'1'", 1, 2),
        ("[[null]]", "None", 1, 1),
        ("[[[1]]]", "[1]", 1, 1),
    ],
)
def test_bad_json_values(text: str, shown: str, row: int, col: int) -> None:
    rejects(NotationError, text, f"value {shown} at row {row}, column {col}", "1 for x")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[1, 0], [0]]", "ragged rows, row 2 has 1 cells but row 1 has 2"),
        ("[[1], [0, 0]]", "ragged rows, row 2 has 2 cells but row 1 has 1"),
        ("[]", "must be a non-empty list of rows"),
        ("[[]]", "row 1 is not a non-empty list"),
        ("[[0], []]", "row 2 is not a non-empty list"),
        ("[1, 0]", "row 1 is not a non-empty list"),
        ("[[1, 0]", "not valid JSON"),
        ("[[1, 0],]", "not valid JSON"),
    ],
)
def test_bad_json_shapes(text: str, reason: str) -> None:
    rejects(NotationError, text, reason)


def test_json_boards_are_validated_like_text() -> None:
    rejects(IllegalPositionError, "[[-1, -1, 0]]", "impossible piece counts")
    rejects(IllegalPositionError, "[[1, 1, 1], [-1, -1, -1], [0, 0, 0]]", "both x and o")


# -- case and empty characters -----------------------------------------------------------------
def test_case_insensitive_and_three_empty_characters() -> None:
    expected = parse_mnk_board("xo_/___/__x")
    variants = ["XO_/___/__X", "xO./.-_/--x", "Xo-/.../__X", "xo_\n___\n__x", " xo_ / ___ / __x "]
    for text in variants:
        assert parse_mnk_board(text) == expected
    assert parse_mnk_board("xo_/___/__x\r\n")[1] == expected[1]
    assert expected[1] == MNKPosition(MNKSpec(3, 3, 3), 0b100_000_001, 0b000_000_010)


# -- round trips ------------------------------------------------------------------------------
@st.composite
def reachable_positions(draw: st.DrawFn) -> tuple[MNKGame, MNKPosition]:
    """A random position reached by legal play on a random board up to 6x6, any k."""
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    k = draw(st.integers(1, max(rows, cols)))
    g = game(rows, cols, k)
    choices = draw(st.lists(st.integers(0, 35), max_size=rows * cols))
    position = g.initial()
    for choice in choices:
        moves = g.legal_moves(position)
        if not moves:
            break
        position = g.play(position, moves[choice % len(moves)])
    return g, position


ROUND_TRIP = settings(max_examples=150, deadline=None)


@ROUND_TRIP
@given(reachable_positions())
def test_text_round_trip(game_and_position: tuple[MNKGame, MNKPosition]) -> None:
    g, position = game_and_position
    text = format_mnk_board(position)
    parsed_game, parsed = parse_mnk_board(text, g.spec.k)
    assert parsed_game == g
    assert parsed == position
    assert parsed_game.outcome(parsed) == g.outcome(position)
    assert parsed_game.to_move(parsed) is g.to_move(position)
    for empty in ".-":
        assert parse_mnk_board(format_mnk_board(position, empty=empty), g.spec.k)[1] == position
    assert parse_mnk_board(text.upper(), g.spec.k)[1] == position
    assert parse_mnk_board(text.replace("/", "\n"), g.spec.k)[1] == position
    assert str(position) == text


@ROUND_TRIP
@given(reachable_positions())
def test_json_round_trip(game_and_position: tuple[MNKGame, MNKPosition]) -> None:
    g, position = game_and_position
    matrix = mnk_board_matrix(position)
    assert len(matrix) == g.spec.rows and all(len(row) == g.spec.cols for row in matrix)
    parsed_game, parsed = parse_mnk_board(json.dumps(matrix), g.spec.k)
    assert parsed_game == g
    assert parsed == position
    assert parsed_game.outcome(parsed) == g.outcome(position)
    assert parse_mnk_board(format_mnk_board(position), g.spec.k)[1] == parsed


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 3), (2, 7), (15, 15), (15, 4)])
def test_move_round_trip_for_every_cell(rows: int, cols: int) -> None:
    g = game(rows, cols, 1)
    seen = set()
    for index in range(rows * cols):
        cell = g.cell(index)
        label = format_mnk_move(cell)
        assert label == f"{'abcdefghijklmno'[cell.col]}{cell.row + 1}"
        assert parse_mnk_move(g, label) == cell
        assert parse_mnk_move(g, label.upper()) == cell
        assert parse_mnk_move(g, f"{cell.row + 1} {cell.col + 1}") == cell
        assert parse_mnk_move(g, f"{cell.row + 1},{cell.col + 1}") == cell
        assert parse_json_cell(g, g.move_to_json(cell)) == cell
        seen.add(label)
    assert len(seen) == rows * cols


def test_move_examples_from_the_docs() -> None:
    g = game(3, 3, 3)
    assert parse_mnk_move(g, "b3") == Cell(2, 1)
    assert parse_mnk_move(g, "3 2") == Cell(2, 1)
    assert parse_mnk_move(g, " 3, 2 ") == Cell(2, 1)
    assert format_mnk_move(Cell(2, 1)) == "b3"


def test_json_cells_are_checked() -> None:
    g = game(3, 3, 3)
    assert parse_json_cell(g, {"row": 3, "col": 1}) == Cell(2, 0)  # from 1, as people count
    bad: object  # malformed JSON cells of every kind
    for bad in [{"row": 1}, {"row": 1, "col": 1, "x": 0}, [1, 1], "b3", None]:
        with pytest.raises(NotationError, match="expected an object with keys row and col"):
            parse_json_cell(g, bad)
    for bad in [{"row": True, "col": 0}, {"row": 1.0, "col": 0}, {"row": "1", "col": 0}]:
        with pytest.raises(NotationError, match="whole numbers"):
            parse_json_cell(g, bad)
    with pytest.raises(IllegalMoveError, match="off the 3x3 board"):
        parse_json_cell(g, {"row": 4, "col": 1})
    with pytest.raises(IllegalMoveError, match="row 1-3, col 1-3"):
        parse_json_cell(g, {"row": 0, "col": 1})  # 0-based cells are gone (issue 15, item 5)


def test_players() -> None:
    for text in ["x", "X", "1", "first", " First "]:
        assert player_from_text(text) is Player.FIRST
    for text in ["o", "O", "2", "second"]:
        assert player_from_text(text) is Player.SECOND
    for text in ["", "3", "y", "xo"]:
        with pytest.raises(NotationError, match="expected x or o"):
            player_from_text(text)


def test_render_is_labelled_like_the_move_notation() -> None:
    _, position = parse_mnk_board("x_o/___")
    lines = render_mnk_board(position).splitlines()
    assert lines[0].split() == ["a", "b", "c"]
    assert lines[1].split() == ["1", "x", "|", ".", "|", "o"]
    assert lines[-1].split()[0] == "2"


# -- sizes ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("4x4", (4, 4)),
        ("4X3", (4, 3)),
        ("5", (5, 5)),
        (" 7 x 6 ", (7, 6)),
        ("3*5", (3, 5)),
        ("4\u00d73", (4, 3)),  # the multiplication sign
        ("15x15", (15, 15)),
        ("1x1", (1, 1)),
    ],
)
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    "text", ["", " ", "x", "4x", "x4", "4x4x4", "-3", "4.5", "abc", "1234", "4 4", "4x-4", "four"]
)
def test_parse_size_rejects(text: str) -> None:
    with pytest.raises(ParameterError) as info:
        parse_size(text)
    assert repr(text) in str(info.value)
    assert "expected a size such as 4x4" in str(info.value)
