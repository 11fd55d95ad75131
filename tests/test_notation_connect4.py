"""The Connect Four text formats: every rejection with its precise error, and round trips."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_support import rejects
from reference import connect4_reference as ref

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    NotationError,
    ParameterError,
    PerfectplayError,
)
from perfectplay.games.connect4.notation import (
    format_connect4_moves,
    parse_connect4_moves,
    parse_connect4_picture,
)
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position, Connect4Spec, game
from perfectplay.games.connect4.text import format_connect4_picture, render_connect4_board
from perfectplay.games.protocol import Player

C4 = game(7, 6, 4)
WIDE = game(10, 5, 4)  # 10 x 6 does not fit 64 bits (10 * 7 = 70); 10 x 5 does (60)
DRAWN_4X4 = "4321311144234232"  # fills the 4x4 board without a line of 4


def moves_reject(
    error: type[PerfectplayError], text: str, *reasons: str, g: Connect4Game = C4
) -> str:
    """Parse ``text`` as moves on ``g``, expecting exactly ``error`` naming every reason."""
    return rejects(lambda moves: parse_connect4_moves(g, moves), error, text, *reasons)


def picture_reject(error: type[PerfectplayError], text: str, *reasons: str, k: int = 4) -> str:
    """Parse ``text`` as a picture, expecting exactly ``error`` with the input and reasons."""
    with pytest.raises(PerfectplayError) as info:
        parse_connect4_picture(text, k)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    message = str(info.value)
    shown = text if len(text) <= 60 else text[:57] + "..."  # long input is quoted shortened
    assert message.startswith(f"board {shown!r}:"), message
    for reason in reasons:
        assert reason in message, message
    return message


# -- move sequences: examples --------------------------------------------------------------
def test_move_examples() -> None:
    position, columns = parse_connect4_moves(C4, "4453")
    assert columns == [3, 3, 4, 2]
    assert str(position) == ".......\n" * 4 + "...o...\n..oxx.."
    assert C4.to_move(position) is C4.to_move(C4.initial())
    assert format_connect4_moves(C4, columns) == "4453"

    position, columns = parse_connect4_moves(WIDE, "10,3,4")
    assert columns == [9, 2, 3]
    assert str(position).splitlines()[-1] == "..ox.....x"
    assert format_connect4_moves(WIDE, columns) == "10,3,4"

    assert parse_connect4_moves(C4, "") == (C4.initial(), [])
    assert parse_connect4_moves(WIDE, "") == (WIDE.initial(), [])


@pytest.mark.parametrize(
    "text", ["4453", " 4453 ", "\t4453\n", "4,4,5,3", " 4 , 4,5 ,3 ", "04,4,005,3"]
)
def test_move_spellings(text: str) -> None:
    assert parse_connect4_moves(C4, text)[1] == [3, 3, 4, 2]


@pytest.mark.parametrize(("text", "columns"), [("10", [9]), ("1,10", [0, 9]), (" 7 ", [6])])
def test_wide_boards_read_numbers(text: str, columns: list[int]) -> None:
    assert parse_connect4_moves(WIDE, text)[1] == columns


@pytest.mark.parametrize("text", ["", " ", "\n\t "])
def test_blank_text_is_the_empty_board(text: str) -> None:
    assert parse_connect4_moves(C4, text) == (C4.initial(), [])


# -- move sequences: rejections --------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "char", "index"),
    [
        ("44a3", "a", 3),
        ("4 4", " ", 2),
        ("4-4", "-", 2),
        ("4.5", ".", 2),
        (" 4x", "x", 3),  # the index counts in the text as given
        ("\u0663", "\u0663", 1),  # an Arabic-Indic three is not a column digit
        ("4\u00b2", "\u00b2", 2),  # nor a superscript two
        ("4,a", "a", 3),
        ("4, 4 5", " ", 5),
        ("1;2", ";", 2),
        ("+4", "+", 1),
        ("4453x", "x", 5),
        ("44444444x", "x", 9),  # a bad character is reported before any illegal move
    ],
)
def test_unknown_characters_are_located(text: str, char: str, index: int) -> None:
    moves_reject(NotationError, text, f"unexpected character {char!r} at index {index}")


@pytest.mark.parametrize(
    ("text", "char", "index"), [("10,3x", "x", 5), ("10 3", " ", 3), ("-1", "-", 1)]
)
def test_unknown_characters_on_wide_boards(text: str, char: str, index: int) -> None:
    moves_reject(
        NotationError, text, f"unexpected character {char!r} at index {index}", "10,3,4", g=WIDE
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4,,5", "move 2 is empty (no column after the comma at index 2)"),
        (",4", "move 1 is empty (no column before the comma at index 1)"),
        ("4,", "move 2 is empty (no column after the comma at index 2)"),
        ("4, ,5", "move 2 is empty (no column after the comma at index 2)"),
        (",", "move 1 is empty"),
    ],
)
def test_empty_moves_between_commas(text: str, reason: str) -> None:
    moves_reject(NotationError, text, reason)


def test_full_column_message_is_exact() -> None:
    message = moves_reject(IllegalMoveError, "44444444")
    assert message == "moves '44444444': move 7 (column 4): the column is full"


@pytest.mark.parametrize(
    ("text", "number", "column"),
    [("0", 1, 0), ("48", 2, 8), ("4,4,9", 3, 9), ("4,12", 2, 12), ("44,53", 1, 44)],
)
def test_missing_columns(text: str, number: int, column: int) -> None:
    message = moves_reject(IllegalMoveError, text)
    assert message == (
        f"moves {text!r}: move {number} (column {column}): no such column, the board has "
        "columns 1-7"
    )


def test_full_columns() -> None:
    text = "1111" + "2222" + "33333"  # column 3 overflows at the 13th move
    moves_reject(IllegalMoveError, text, "move 13 (column 3): the column is full", g=game(4, 4))
    moves_reject(IllegalMoveError, "1,1,1,1,1,1,1", "move 7 (column 1): the column is full")


@pytest.mark.parametrize(
    ("text", "number", "column"), [("11", 1, 11), ("3,0", 2, 0), ("4453", 1, 4453)]
)
def test_missing_columns_on_wide_boards(text: str, number: int, column: int) -> None:
    message = moves_reject(
        IllegalMoveError, text, f"move {number} (column {column}): no such column", g=WIDE
    )
    assert "columns 1-10" in message and "separate the columns with commas" in message


def test_moves_after_the_end() -> None:
    message = moves_reject(GameOverError, "12121213")
    assert message == (
        "moves '12121213': move 8 (column 3): the game is already over (player 1 connects 4)"
    )
    # game over wins over every other problem of the move
    moves_reject(GameOverError, "12121219", "move 8 (column 9): the game is already over")
    moves_reject(GameOverError, "1,2,1,2,1,2,1,1", "move 8 (column 1)")
    o_wins = "12123252"  # o's fourth stone in column 2 is the 8th move
    position, _ = parse_connect4_moves(C4, o_wins)
    assert C4.outcome(position).winner is Player.SECOND  # type: ignore[union-attr]
    moves_reject(
        GameOverError,
        o_wins + "4",
        "move 9 (column 4): the game is already over (player 2 connects 4)",
    )
    drawn = game(4, 4)
    full, _ = parse_connect4_moves(drawn, DRAWN_4X4)
    assert drawn.outcome(full) is not None and drawn.outcome(full).is_draw  # type: ignore[union-attr]
    moves_reject(
        GameOverError,
        DRAWN_4X4 + "1",
        "move 17 (column 1): the game is already over (the board is full)",
        g=drawn,
    )
    with pytest.raises(IllegalMoveError):  # a GameOverError is an IllegalMoveError
        parse_connect4_moves(C4, "12121213")


def test_non_text_and_overlong_moves() -> None:
    with pytest.raises(NotationError, match="expected text"):
        parse_connect4_moves(C4, 4453)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="longer than 4096 characters") as info:
        parse_connect4_moves(C4, "4" * 5000)
    assert len(str(info.value)) < 200
    message = moves_reject(IllegalMoveError, "1," + "9" * 4000, "move 2 (column 999999...)")
    assert len(message) < 200


def test_format_moves_checks_columns() -> None:
    assert format_connect4_moves(C4, []) == ""
    assert format_connect4_moves(WIDE, [9, 0, 9]) == "10,1,10"
    for bad in (-1, 7, True, 2.0):
        with pytest.raises(IllegalMoveError, match="not a 0-based column"):
            format_connect4_moves(C4, [3, bad])  # type: ignore[list-item]


# -- pictures --------------------------------------------------------------------------------
def test_picture_example() -> None:
    text = ".......\n.......\n.......\n...o...\n...x...\n..xox.."
    g, position = parse_connect4_picture(text)
    assert g.spec == Connect4Spec(7, 6, 4)
    assert position == parse_connect4_moves(C4, "34445")[0]
    assert format_connect4_picture(position) == str(position) == text


@pytest.mark.parametrize(
    "text",
    [
        "____/____/o___/x___",
        "..../..../O.../X...",
        "----\n----\no---\nx---\n",
        "....\r\n....\r\no...\r\nx...",
        "  ....\n  ....\n  o...\n  x...  ",
    ],
)
def test_picture_spellings(text: str) -> None:
    g, position = parse_connect4_picture(text)
    assert g == game(4, 4)
    assert position == parse_connect4_moves(g, "11")[0]


def test_a_trailing_slash_is_an_empty_row() -> None:
    with pytest.raises(NotationError, match="row 5 is empty"):
        parse_connect4_picture("..../..../o.../x.../")


@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        ("..../.../..../....", ["ragged rows", "row 2 has 3 cells", "row 1 has 4"]),
        ("....\n....\n....\n.....", ["ragged rows", "row 4 has 5 cells"]),
    ],
)
def test_picture_ragged_rows(text: str, reasons: list[str]) -> None:
    picture_reject(NotationError, text, *reasons)


@pytest.mark.parametrize(
    ("text", "char", "row", "col"),
    [
        ("..../..../..../x..y", "y", 4, 4),
        ("..../.1../..../....", "1", 2, 2),
        ("..../..../..../x o.", " ", 4, 2),
        ("....|..../..../....", "|", 1, 5),
    ],
)
def test_picture_unknown_characters(text: str, char: str, row: int, col: int) -> None:
    picture_reject(NotationError, text, f"unknown character {char!r} at row {row}, column {col}")


@pytest.mark.parametrize(("text", "row"), [("....//..../....", 2), ("/....", 1)])
def test_picture_empty_rows(text: str, row: int) -> None:
    picture_reject(NotationError, text, f"row {row} is empty")


@pytest.mark.parametrize("text", ["", "  ", "\n\n"])
def test_picture_empty_text(text: str) -> None:
    picture_reject(NotationError, text, "empty text")


def test_picture_non_text_and_overlong() -> None:
    with pytest.raises(NotationError, match="expected text"):
        parse_connect4_picture(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="longer than 4096"):
        parse_connect4_picture("." * 5000)


@pytest.mark.parametrize(
    ("text", "k", "reasons"),
    [
        ("..../..../....", 4, ["size 4x3", "at least 4"]),
        (".../.../.../...", 4, ["size 3x4", "at least 4"]),
        ("/".join(["." * 10] * 6), 4, ["size 10x6", "70 must be at most 64"]),
        ("/".join(["...."] * 16), 4, ["size 4x16", "68 must be at most 64"]),
        ("/".join(["." * 7] * 6), 8, ["k=8", "from 2 to 7"]),
        ("/".join(["." * 7] * 6), 1, ["k=1", "from 2 to 7"]),
    ],
)
def test_picture_size_and_k(text: str, k: int, reasons: list[str]) -> None:
    picture_reject(ParameterError, text, *reasons, k=k)


def test_picture_largest_sizes() -> None:
    for width, height in [(8, 7), (4, 15), (12, 4), (9, 6)]:
        g, position = parse_connect4_picture("/".join(["." * width] * height))
        assert g.spec == Connect4Spec(width, height, 4) and position == g.initial()
    assert parse_connect4_picture("/".join(["." * 7] * 6), k=5)[0] == game(7, 6, 5)


@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        ("..../..../.x../....", ["a stone floats above an empty cell in column 2"]),
        ("x.../..../..../...o", ["a stone floats above an empty cell in column 1"]),
        ("..../x..o/..../x..o", ["floats", "in columns 1, 4"]),
        ("..../..../..../xx..", ["impossible stone counts", "player 1 (x) has 2", "(o) has 0"]),
        ("..../..../..../o...", ["impossible stone counts", "(x) has 0", "(o) has 1"]),
        ("..../x.../x.../xxo.", ["impossible stone counts", "(x) has 4", "(o) has 1"]),
        ("..../..../oooo/xxxx", ["both players have a line"]),
        ("..../x.../oooo/xxxx", ["both players have a line"]),
        ("..../o.../oo.o/xxxx", ["player 1 (x) has a line but did not move last"]),
        ("x.../x.../xxx./oooo", ["player 2 (o) has a line but did not move last"]),
        ("..../..o./oxoo/xxxx", ["no legal game reaches this board", "player 1"]),
    ],
)
def test_picture_impossible_boards(text: str, reasons: list[str]) -> None:
    picture_reject(IllegalPositionError, text, *reasons)


def test_picture_wins_are_found() -> None:
    g, position = parse_connect4_picture("..../o.../o.o./xxxx")
    outcome = g.outcome(position)
    assert outcome is not None and outcome.winner is not None
    assert set(outcome.line) == {(c, 0) for c in range(4)}
    assert g.legal_moves(position) == ()
    g, position = parse_connect4_picture("ooox/xxxo/ooox/xxxo", k=4)  # full, no line: a draw
    assert g.outcome(position) is not None and g.outcome(position).is_draw  # type: ignore[union-attr]


# -- round trips ---------------------------------------------------------------------------
SIZES = [(w, h) for w in range(4, 13) for h in range(4, 16) if w * (h + 1) <= 64]


@st.composite
def played_games(draw: st.DrawFn) -> tuple[Connect4Game, Connect4Position, list[int]]:
    """A random board size and k, and a random legal game on it (maybe finished)."""
    width, height = draw(st.sampled_from(SIZES))
    k = draw(st.integers(min_value=2, max_value=min(6, max(width, height))))
    g = game(width, height, k)
    choices = draw(st.lists(st.integers(0, 11), max_size=width * height))
    position = g.initial()
    columns: list[int] = []
    for choice in choices:
        moves = g.legal_moves(position)
        if not moves:
            break
        columns.append(moves[choice % len(moves)])
        position = g.play(position, columns[-1])
    return g, position, columns


ROUND_TRIP = settings(max_examples=200, deadline=None)


@ROUND_TRIP
@given(played_games())
def test_moves_round_trip(played: tuple[Connect4Game, Connect4Position, list[int]]) -> None:
    g, position, columns = played
    text = format_connect4_moves(g, columns)
    if g.spec.width <= 9:
        assert text == "".join(str(c + 1) for c in columns)
    else:
        assert text == ",".join(str(c + 1) for c in columns)
    parsed, parsed_columns = parse_connect4_moves(g, text)
    assert parsed_columns == columns
    assert parsed == position and parsed.win_mask == position.win_mask
    assert parse_connect4_moves(g, ",".join(str(c + 1) for c in columns))[0] == position
    assert parse_connect4_moves(g, f"  {text}\n")[0] == position


@ROUND_TRIP
@given(played_games())
def test_picture_round_trip(played: tuple[Connect4Game, Connect4Position, list[int]]) -> None:
    g, position, columns = played
    text = format_connect4_picture(position)
    # the picture is the plain reference's, built by dropping the same stones
    board = ref.new_board(g.spec.width, g.spec.height, g.spec.k)
    for column in columns:
        board = ref.drop(board, column)
    assert text == ref.picture(board) == str(position)
    parsed_game, parsed = parse_connect4_picture(text, g.spec.k)
    assert parsed_game == g
    assert parsed == position and parsed.win_mask == position.win_mask
    assert parsed_game.outcome(parsed) == g.outcome(position)
    assert parsed_game.to_move(parsed) is g.to_move(position)
    assert parse_connect4_picture(text.replace("\n", "/").upper(), g.spec.k)[1] == position
    assert parse_connect4_picture(text.replace(".", "_"), g.spec.k)[1] == position


# -- terminal rendering --------------------------------------------------------------------
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_render_plain_and_coloured() -> None:
    position, _ = parse_connect4_moves(C4, "4453")
    plain = render_connect4_board(position, color=False)
    assert "\x1b" not in plain
    lines = plain.splitlines()
    assert lines[0] == "1 2 3 4 5 6 7"
    assert lines[1:] == [" ".join(row) for row in str(position).splitlines()]
    assert lines[-1] == ". . o x x . ."
    coloured = render_connect4_board(position, color=True)
    assert ANSI.sub("", coloured) == plain
    assert "\x1b[31mx\x1b[0m" in coloured and "\x1b[33mo\x1b[0m" in coloured
    assert coloured.count("\x1b[31m") == 2 and coloured.count("\x1b[33m") == 2
    assert render_connect4_board(position) == plain


def test_render_wide_board_keeps_columns_aligned() -> None:
    position, _ = parse_connect4_moves(WIDE, "10,1,10")
    lines = render_connect4_board(position, color=False).splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 11)]
    assert len({len(line) for line in lines}) == 1
    assert lines[-1].split() == ["o"] + ["."] * 8 + ["x"]
    assert lines[-2].split()[-1] == "x"
    # every stone sits under the last digit of its column number
    assert lines[-1].rindex("x") == lines[0].rindex("10") + 1


def test_render_random_positions_match_the_picture() -> None:
    rng = random.Random(5)
    for width, height in [(4, 4), (7, 6), (12, 4)]:
        g = game(width, height)
        position = g.initial()
        for _ in range(rng.randint(0, width * height)):
            if not g.legal_moves(position):
                break
            position = g.play(position, rng.choice(g.legal_moves(position)))
        lines = ANSI.sub("", render_connect4_board(position, color=True)).splitlines()
        assert [line.split() for line in lines[1:]] == [
            list(row) for row in format_connect4_picture(position).splitlines()
        ]
