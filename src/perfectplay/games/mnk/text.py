"""m,n,k boards as text: the compact form, the matrix, and the terminal drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from perfectplay.games.common.svg import board_svg

if TYPE_CHECKING:
    from perfectplay.games.mnk.rules import MNKPosition

MARKS = {1: "x", -1: "o"}
"""The mark of each player's value in the board matrix."""


def format_mnk_board(position: MNKPosition, empty: str = "_") -> str:
    """Compact form ``xox/oox/___`` (parses back to the same position)."""
    spec = position.spec
    rows = []
    for r in range(spec.rows):
        cells = []
        for c in range(spec.cols):
            bit = 1 << (r * spec.cols + c)
            cells.append("x" if position.x & bit else "o" if position.o & bit else empty)
        rows.append("".join(cells))
    return "/".join(rows)


def mnk_board_matrix(position: MNKPosition) -> list[list[int]]:
    """The board as a JSON-ready matrix of 1 (x), -1 (o) and 0."""
    spec = position.spec
    matrix: list[list[int]] = []
    for r in range(spec.rows):
        row: list[int] = []
        for c in range(spec.cols):
            bit = 1 << (r * spec.cols + c)
            row.append(1 if position.x & bit else -1 if position.o & bit else 0)
        matrix.append(row)
    return matrix


def column_letters(cols: int) -> str:
    """``abc...`` labels of the first ``cols`` columns."""
    return "abcdefghijklmnopqrstuvwxyz"[:cols]


def render_mnk_board(position: MNKPosition) -> str:
    """A multi-line drawing with column letters and row numbers, as :func:`parse_mnk_move` reads."""
    spec = position.spec
    letters = column_letters(spec.cols)
    lines = ["     " + "   ".join(letters)]
    separator = "    " + "+".join(["---"] * spec.cols)
    for r, row in enumerate(format_mnk_board(position, empty=".").split("/"), start=1):
        lines.append(f"{r:>2}   " + " | ".join(row))
        if r < spec.rows:
            lines.append(separator)
    return "\n".join(lines)


def mnk_board_cells(position: MNKPosition) -> list[list[dict[str, Any] | None]]:
    """The cells from the top: ``None`` or the player (1 for x, 2 for o) and its mark."""
    return [
        [None if v == 0 else {"player": 1 if v == 1 else 2, "mark": MARKS[v]} for v in row]
        for row in mnk_board_matrix(position)
    ]


def mnk_board_svg(position: MNKPosition) -> str:
    """The board as an SVG picture, labelled as moves are written (``b3``)."""
    letters = column_letters(position.spec.cols)
    return board_svg(mnk_board_cells(position), gravity=False, letters=letters)
