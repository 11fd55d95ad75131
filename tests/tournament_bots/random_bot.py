"""A course bot that plays a random legal move, seeded by the board (so repeatable)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class RandomBot:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        board, quota = state.board, state.players[n_player].quota
        columns = [c for c in range(board.col) if board[0, c].shape == "-"]
        shapes = [s for s in ("O", "X") if quota[s] > 0]
        cells = "".join(
            board[r, c].shape + board[r, c].color[0]
            for r in range(board.row)
            for c in range(board.col)
        )
        rng = random.Random(cells)
        return rng.choice(columns), rng.choice(shapes)
