"""Boards as SVG pictures, for notebooks (``_repr_svg_``) and anything else that shows one.

One drawing serves every grid game: ``cells`` row by row from the top, each ``None`` (empty)
or a mapping with ``player`` (1 or 2) and, for the shape-and-color game, ``shape`` (``O`` or
``X``) and ``color`` (``red`` or ``blue``). The style follows the web pages: a grid with x
and o marks for games where any cell may be taken, a frame with round holes and stones for
games where pieces fall (``gravity``), shapes in their colour on the shape-and-color board.
Columns are labelled 1, 2, ... below a falling-piece board; a free-placement board is labelled
as its moves are written: letters over the columns, numbers from 1 beside the rows.

::

    gravity=False               gravity=True
       a   b   c               ┌───────────────┐
    1  x │ o │ x               │ ○  ○  ●  ○  ○ │
      ───┼───┼───              │ ○  ●  ●  ○  ○ │
    2    │ o │                 └───────────────┘
                                 1  2  3  4  5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

CELL = 40
"""Pixels a cell takes."""
MARGIN = 22
"""Pixels around the board, where the labels go."""
COLOURS: Mapping[str, str] = {
    "x": "#d6336c",
    "o": "#1c7ed6",
    "grid": "#5b6478",
    "label": "#5b6478",
    "drop-board": "#2f55d4",
    "shape-board": "#8d6e4f",
    "hole": "#f4f6fb",
    "red": "#e03131",
    "yellow": "#fcc419",
    "blue": "#1c7ed6",
}
"""The web pages' colours (``web/static/app.css``)."""
DROP_STONES = {1: "red", 2: "yellow"}
"""Stone colours of the falling-piece games without colours of their own."""

Cells = Sequence[Sequence[Mapping[str, Any] | None]]


def board_svg(cells: Cells, *, gravity: bool, letters: str = "") -> str:
    """The board of ``cells`` as a standalone SVG document; ``letters`` labels the columns
    of a free-placement board (``abc...``)."""
    rows, cols = len(cells), len(cells[0]) if cells else 0
    width, height = cols * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'
    ]
    if gravity:
        parts += _drop_board(cells, rows, cols)
    else:
        parts += _grid_board(cells, rows, cols, letters)
    parts.append("</svg>")
    return "".join(parts)


def _drop_board(cells: Cells, rows: int, cols: int) -> list[str]:
    """A frame with holes; stones (or shapes in colour) in the taken ones; column numbers."""
    shaped = any(cell is not None and "shape" in cell for row in cells for cell in row)
    board = COLOURS["shape-board" if shaped else "drop-board"]
    parts = [
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{cols * CELL}" height="{rows * CELL}" '
        f'rx="8" fill="{board}"/>'
    ]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            x, y = _centre(r, c)
            parts.append(f'<circle cx="{x}" cy="{y}" r="{CELL * 0.4:g}" fill="{COLOURS["hole"]}"/>')
            if cell is not None:
                parts.append(_piece(cell, x, y))
    for c in range(cols):
        x, _ = _centre(0, c)
        parts.append(_label(x, rows * CELL + MARGIN + 15, str(c + 1)))
    return parts


def _piece(cell: Mapping[str, Any], x: float, y: float) -> str:
    """A stone, or a shape (``O`` a disc, ``X`` a cross) in its colour."""
    colour = COLOURS[str(cell.get("color") or DROP_STONES[int(cell["player"])])]
    radius = CELL * 0.34
    if cell.get("shape") == "X":
        arm = radius * 0.8
        return (
            f'<path d="M{x - arm:g},{y - arm:g}L{x + arm:g},{y + arm:g}M{x - arm:g},{y + arm:g}'
            f'L{x + arm:g},{y - arm:g}" stroke="{colour}" stroke-width="7" '
            'stroke-linecap="round"/>'
        )
    return f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{colour}"/>'


def _grid_board(cells: Cells, rows: int, cols: int, letters: str) -> list[str]:
    """Grid lines, x and o marks, column letters above and row numbers beside."""
    colour = COLOURS["grid"]
    parts = []
    for c in range(1, cols):
        x = MARGIN + c * CELL
        parts.append(_line(x, MARGIN, x, MARGIN + rows * CELL, colour))
    for r in range(1, rows):
        y = MARGIN + r * CELL
        parts.append(_line(MARGIN, y, MARGIN + cols * CELL, y, colour))
    for r, row in enumerate(cells):
        parts.append(_label(MARGIN / 2, _centre(r, 0)[1] + 4, str(r + 1)))
        for c, cell in enumerate(row):
            if cell is not None:
                parts.append(_mark(int(cell["player"]), *_centre(r, c)))
    for c, letter in enumerate(letters[:cols]):
        parts.append(_label(_centre(0, c)[0], MARGIN - 7, letter))
    return parts


def _mark(player: int, x: float, y: float) -> str:
    """x (player 1) as a cross, o (player 2) as a ring."""
    arm = CELL * 0.28
    if player == 1:
        return (
            f'<path d="M{x - arm:g},{y - arm:g}L{x + arm:g},{y + arm:g}M{x - arm:g},{y + arm:g}'
            f'L{x + arm:g},{y - arm:g}" stroke="{COLOURS["x"]}" stroke-width="4" '
            'stroke-linecap="round"/>'
        )
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{arm:g}" fill="none" stroke="{COLOURS["o"]}" '
        'stroke-width="4"/>'
    )


def _centre(row: int, col: int) -> tuple[float, float]:
    """The centre of a cell, in pixels."""
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


def _line(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    """A grid line."""
    ends = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
    return f'<line {ends} stroke="{colour}" stroke-width="2"/>'


def _label(x: float, y: float, text: str) -> str:
    """A column or row label."""
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="middle" fill="{COLOURS["label"]}">'
        f"{escape(text)}</text>"
    )
