"""m,n,k boards as text: the compact form, the matrix, and the terminal drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.games.mnk.rules import MNKPosition


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
