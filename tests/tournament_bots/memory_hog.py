"""A bad course bot: allocates memory without end."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class MemoryHog:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        hoard: list[bytearray] = []
        while True:
            hoard.append(bytearray(16 << 20))
