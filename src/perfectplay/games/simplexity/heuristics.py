"""Heuristic evaluations of shape-and-color positions, selectable by name.

* ``neighbors``: the course's background note, faithfully. For each piece, every other piece
  on the same row, column or diagonal (anywhere along that line, as the note's grid counts:
  an empty cell two columns left of a pair of red ``X`` scores 4) adds 1 when it has the same
  color and 1 when it has the same shape. A player's total sums its pieces; the value is the
  side to move's total minus the opponent's.
* ``windows``: every set of four aligned cells that can still become a four. A window holding
  only ``O`` shapes counts for player 1 and only ``X`` shapes for player 2 (whoever placed
  them: shape beats color); a window of only red pieces counts for player 1 and only blue for
  player 2. Fuller windows weigh more, shape windows more than color windows (a shape four
  decides even over a color four, and both players can fill it).

These are the reference versions; the compiled kernel computes the same numbers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from perfectplay.errors import ParameterError, quote
from perfectplay.games.protocol import Player
from perfectplay.values import HEURISTIC_LIMIT

if TYPE_CHECKING:
    from perfectplay.games.simplexity.rules import SimplexityGame, SimplexityPosition

SHAPE_WEIGHTS = (0, 4, 24, 160, 0)
"""Value of a window holding 0..4 pieces of one shape and none of the other."""
COLOR_WEIGHTS = (0, 2, 12, 80, 0)
"""Value of a window holding 0..4 pieces of one color and none of the other."""
EVALUATION_BOUND = HEURISTIC_LIMIT


def evaluate(game: SimplexityGame, position: SimplexityPosition, name: str) -> float:
    """The heuristic ``name`` of ``position`` for the side to move.

    Raises :class:`ParameterError` for an unknown name.
    """
    if name == "windows":
        value = windows_value(game, position)
    elif name == "neighbors":
        value = neighbors_value(game, position)
    else:
        raise ParameterError(f"evaluation {quote(name)}: unknown; known are windows, neighbors")
    if game.to_move(position) is Player.SECOND:
        value = -value
    return float(max(-EVALUATION_BOUND, min(EVALUATION_BOUND, value)))


def windows_value(game: SimplexityGame, position: SimplexityPosition) -> int:
    """The ``windows`` heuristic from player 1's point of view."""
    circles, crosses = position.circles, position.crosses
    red, blue = position.red, position.blue
    total = 0
    for window in game.layout.windows:
        o, x = (circles & window).bit_count(), (crosses & window).bit_count()
        r, b = (red & window).bit_count(), (blue & window).bit_count()
        total += SHAPE_WEIGHTS[o] if not x else -SHAPE_WEIGHTS[x] if not o else 0
        total += COLOR_WEIGHTS[r] if not b else -COLOR_WEIGHTS[b] if not r else 0
    return total


def neighbors_value(game: SimplexityGame, position: SimplexityPosition) -> int:
    """The ``neighbors`` heuristic from player 1's point of view."""
    rays = line_masks(game.spec.rows, game.spec.cols)
    shapes = (position.circles, position.crosses)
    total = 0
    for sign, color in ((1, position.red), (-1, position.blue)):
        pieces = color
        while pieces:
            piece = pieces & -pieces
            pieces ^= piece
            lines = rays[piece.bit_length() - 1]
            shape = shapes[0] if position.circles & piece else shapes[1]
            total += sign * ((lines & color).bit_count() + (lines & shape).bit_count())
    return total


@lru_cache(maxsize=32)
def line_masks(rows: int, cols: int) -> tuple[int, ...]:
    """Per bit index (gravity layout), the other cells of its row, column and diagonals."""
    stride = rows + 1
    masks = [0] * (cols * stride)
    for col in range(cols):
        for row in range(rows):
            mask = 0
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                for sign in (1, -1):
                    c, r = col + sign * dc, row + sign * dr
                    while 0 <= c < cols and 0 <= r < rows:
                        mask |= 1 << (c * stride + r)
                        c, r = c + sign * dc, r + sign * dr
            masks[col * stride + row] = mask
    return tuple(masks)
