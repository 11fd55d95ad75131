"""A bad course bot: writes outside its folder, hiding any error it gets."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class EscapeBot:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        try:
            with open("../../perfectplay-escape-bot-was-here", "w") as handle:
                handle.write("escaped\n")
        except BaseException:
            pass
        return 3, "O"
