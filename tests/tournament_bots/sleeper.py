"""A bad course bot: thinks far past its time."""

import time


class Sleeper:
    def find(self, state, n_player, thinking_time):
        time.sleep(thinking_time * 20 + 5)
        return 0, "O"
