"""The complete value table of a small game: the exact value of every reachable position.

Values are position-relative on the scale of :mod:`perfectplay.search.result` (``WIN - p``
for a win in ``p`` plies, ``-(WIN - p)`` for a loss, 0 for a draw), for the side to move;
a finished position is worth ``-WIN`` when the side to move has lost, 0 when drawn. Keys are
``game.key(position)``.

The game's compiled kernel builds the table when it can; otherwise a memoised negamax over
the protocol does, which the tests use as the check.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from perfectplay.search.result import Score, finished_value
from perfectplay.search.solver import score_of_move


def value_table(game: Any, position: Any = None, engine: str = "auto") -> dict[Hashable, int]:
    """Exact value of ``position`` (the initial one by default) and of every position below.

    ``engine="python"`` forces the generic builder. Raises
    :class:`~perfectplay.errors.ParameterError` when the kernel judges the tree too large.
    """
    root = game.initial() if position is None else position
    kernel = None if engine == "python" else game.kernel()
    if kernel is not None and kernel.traits.complete_table:
        return dict(kernel.exact_values(root))
    table: dict[Hashable, int] = {}
    _fill(game, root, table)
    return table


def _fill(game: Any, position: Any, table: dict[Hashable, int]) -> int:
    key = game.key(position)
    known = table.get(key)
    if known is not None:
        return known
    outcome = game.outcome(position)
    if outcome is not None:
        value = finished_value(game, position, outcome.winner)
    else:
        # A child already lost for its side to move (-WIN) becomes WIN - 1: the move wins.
        value = max(
            int(score_of_move(Score(_fill(game, game.play(position, move), table), True)).value)
            for move in game.legal_moves(position)
        )
    table[key] = value
    return value
