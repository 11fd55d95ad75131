"""Shape-and-color boards as text: the course's drawing, with colours, and the quotas left."""

from __future__ import annotations

from typing import Any

from perfectplay.games.common.ansi import BLUE, RED, RESET
from perfectplay.games.common.svg import board_svg
from perfectplay.games.protocol import Player

SEPARATOR = ". -=- "


def render_simplexity_board(position: Any, color: bool = False) -> str:
    """The board as the course's engine prints it: the column numbers (1-based, as moves are
    written), then every row from the top between ``. -=- .`` lines, cells ``|  O  |`` with
    ``-`` for empty; with ``color`` red and blue pieces are painted (ANSI escape codes)."""
    spec = position.spec
    rows, cols = spec.rows, spec.cols
    separator = SEPARATOR * cols + "."
    lines = ["".join(f"{c:^6}" for c in range(1, cols + 1)).rstrip(), separator]
    for row in range(rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            bit = 1 << (col * (rows + 1) + row)
            cells.append(_simplexity_cell(position, bit, color))
        lines.append("|" + "|".join(f"  {cell}  " for cell in cells) + "|")
        lines.append(separator)
    return "\n".join(lines)


def _simplexity_cell(position: Any, bit: int, color: bool) -> str:
    if not position.mask & bit:
        return "-"
    shape = "O" if position.circles & bit else "X"
    if not color:
        return shape
    paint = RED if position.red & bit else BLUE
    return f"{paint}{shape}{RESET}"


def simplexity_quotas(game: Any, position: Any) -> str:
    """Each player's pieces left per shape: ``player 1 (red): O 11, X 10 | player 2 ...``."""
    parts = []
    for player, color in ((Player.FIRST, "red"), (Player.SECOND, "blue")):
        left = ", ".join(f"{s} {game.quota_left(position, player, s)}" for s in ("O", "X"))
        parts.append(f"player {int(player)} ({color}): {left}")
    return " | ".join(parts)


def simplexity_cells(position: Any) -> list[list[dict[str, Any] | None]]:
    """The cells from the top: ``None`` or the piece's player, shape and color."""
    spec = position.spec
    stride = spec.rows + 1
    return [
        [_piece(position, 1 << (c * stride + spec.rows - 1 - r)) for c in range(spec.cols)]
        for r in range(spec.rows)
    ]


def simplexity_svg(position: Any) -> str:
    """The board as an SVG picture: discs and crosses in red and blue, columns from 1."""
    return board_svg(simplexity_cells(position), gravity=True)


def _piece(position: Any, bit: int) -> dict[str, Any] | None:
    """A cell: ``None`` or the piece's player, shape and color."""
    if not position.mask & bit:
        return None
    red = bool(position.red & bit)
    return {
        "player": 1 if red else 2,
        "shape": "O" if position.circles & bit else "X",
        "color": "red" if red else "blue",
    }
