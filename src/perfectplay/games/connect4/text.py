"""Connect Four boards as text: rows of marks, the picture notation, the terminal drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from perfectplay.games.common.ansi import RED, RESET, YELLOW
from perfectplay.games.common.svg import board_svg

if TYPE_CHECKING:
    from perfectplay.games.connect4.rules import Connect4Position


def connect4_rows(position: Connect4Position) -> list[list[str]]:
    """The cells as ``x``/``o``/``.`` rows, top row first."""
    spec = position.spec
    rows = []
    for row in range(spec.height - 1, -1, -1):
        cells = []
        for column in range(spec.width):
            bit = 1 << (column * spec.stride + row)
            cells.append("x" if position.first & bit else "o" if position.second & bit else ".")
        rows.append(cells)
    return rows


def format_connect4_picture(position: Connect4Position) -> str:
    """Rows top to bottom, one line each: ``.`` empty, ``x`` player 1, ``o`` player 2."""
    return "\n".join("".join(row) for row in connect4_rows(position))


def render_connect4_board(position: Connect4Position, color: bool = False) -> str:
    """A drawing for the terminal: the 1-based column numbers on top, then the rows from the
    top with ``.``, ``x`` and ``o`` separated by spaces; with ``color`` x is red and o yellow
    (ANSI escape codes)."""
    spec = position.spec
    cell = len(str(spec.width))
    paint = {".": ".", "x": "x", "o": "o"}
    if color:
        paint.update(x=f"{RED}x{RESET}", o=f"{YELLOW}o{RESET}")
    lines = [" ".join(f"{c:>{cell}}" for c in range(1, spec.width + 1))]
    for row in connect4_rows(position):
        lines.append(" ".join(" " * (cell - 1) + paint[char] for char in row))
    return "\n".join(lines)


def connect4_cells(position: Connect4Position) -> list[list[dict[str, Any] | None]]:
    """The cells from the top: ``None`` or the player (1 for x, 2 for o) and its mark."""
    return [
        [None if c == "." else {"player": 1 if c == "x" else 2, "mark": c} for c in row]
        for row in connect4_rows(position)
    ]


def connect4_svg(position: Connect4Position) -> str:
    """The board as an SVG picture, columns numbered from 1 as moves are written."""
    return board_svg(connect4_cells(position), gravity=True)
