"""A bad course bot: thinks far past its time."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class Sleeper:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        time.sleep(thinking_time * 20 + 5)
        return 0, "O"
