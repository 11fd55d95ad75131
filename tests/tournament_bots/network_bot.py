"""A bad course bot: phones home, and would write outside its folder if that failed."""

from __future__ import annotations

import contextlib
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from perfectplay.adapters.course_state import State


class NetworkBot:
    def find(self, state: State, n_player: int, thinking_time: float) -> tuple[int, str]:
        with contextlib.suppress(Exception):  # it hides the failure and tries the disk
            socket.create_connection(("93.184.216.34", 80), timeout=0.2).close()
        with open("/tmp/perfectplay-network-bot-was-here", "w") as handle:
            handle.write("escaped\n")
        return 0, "O"
