"""Boards in the text pictures of a game tree (issue 27, item 15: "in the tree pictures boards
look like three separate column strips"). The DOT source (``tree --dot``, laid out by
Graphviz, as the tree's SVG was before perfectplay drew it itself) and the terminal tree drew
a board by cutting the position's *text* into cells: shape-and-color's text is a drawing with
column numbers and ``|`` bars, which became a table of bordered characters, strips of bars
and blanks; Nim's ``3,4`` became a board of three cells. Boards now come from the kit's board
view, one cell a board cell; a game without one shows its position's text."""

from __future__ import annotations

import re

import pytest

from perfectplay import api
from perfectplay.analysis.render import board_line, rich_tree, to_dot

CASES = [
    ("tictactoe", "xo_/_x_/o__", None, 3, 3),
    ("connect4", "4455", "5x4", 4, 5),
    ("simplexity", "1O 2X", "4x4", 4, 4),
]


def tables(dot: str) -> list[str]:
    """The board tables of the DOT source, one a node."""
    return re.findall(r'<TABLE BORDER="0" CELLBORDER="1".*?</TABLE>', dot)


@pytest.mark.parametrize(("name", "board", "size", "rows", "cols"), CASES)
def test_dot_boards_have_the_boards_rows_and_columns(
    name: str, board: str, size: str | None, rows: int, cols: int
) -> None:
    game, position = api.load(name, board, size=size)
    tree = api.tree(game, position, 1, leaves="exact" if name == "tictactoe" else "heuristic")
    found = tables(to_dot(tree))
    assert len(found) == tree.node_count()
    for table in found:
        shown = re.findall(r"<TR>(.*?)</TR>", table)
        assert len(shown) == rows
        assert all(row.count("<TD ") == cols for row in shown)
        pieces = set(re.findall(r"<B>(.*?)</B>", table))
        assert pieces <= set("xoXO")  # stones, no piece of a text drawing (bars, numbers)


def test_dot_shows_shape_and_colour_pieces_by_shape_and_player() -> None:
    game, position = api.load("simplexity", "1O 2X", size="4x4")
    dot = to_dot(api.tree(game, position, 1, leaves="heuristic"))
    root = tables(dot)[0]
    assert re.search(r'COLOR="#1f4e9e"><B>O</B>', root)  # the first player's O
    assert re.search(r'COLOR="#c77c02"><B>x</B>', root)  # the second player's X
    assert board_line(api.tree(game, position, 0), position) == "..../..../..../Ox.."


def test_a_game_without_a_board_shows_its_text_not_a_board_of_characters() -> None:
    if "nim" not in api.game_names():
        pytest.skip("the Nim example is not installed")
    game, position = api.load("nim", "3,4")
    tree = api.tree(game, position, 1)
    dot = to_dot(tree)
    assert tables(dot) == []
    assert ">3,4</FONT>" in dot
    assert board_line(tree, position) == "3,4"


def test_the_terminal_tree_shows_boards_row_by_row() -> None:
    game, position = api.load("simplexity", "1O", size="2x2")
    tree = api.tree(game, position, 1, leaves="heuristic")
    lines = str(rich_tree(tree).label).split("  ")
    assert "../O." in lines
