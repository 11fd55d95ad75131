"""A bad course bot: raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class Raiser:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        raise RuntimeError("this bot always fails")
