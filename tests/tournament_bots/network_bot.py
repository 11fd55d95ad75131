"""A bad course bot: phones home, and would write outside its folder if that failed."""

import contextlib
import socket


class NetworkBot:
    def find(self, state, n_player, thinking_time):
        with contextlib.suppress(Exception):  # it hides the failure and tries the disk
            socket.create_connection(("93.184.216.34", 80), timeout=0.2).close()
        with open("/tmp/perfectplay-network-bot-was-here", "w") as handle:
            handle.write("escaped\n")
        return 0, "O"
