"""A bad course bot: proposes a column that is not on the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class IllegalBot:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        return state.board.col + 5, "O"
