"""Shape-and-color boards as text: the course's drawing, with colours, and the quotas left."""

from __future__ import annotations

from typing import Any

from perfectplay.games.common.ansi import BLUE, RED, RESET
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
