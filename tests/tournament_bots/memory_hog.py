"""A bad course bot: allocates memory without end."""


class MemoryHog:
    def find(self, state, n_player, thinking_time):
        hoard = []
        while True:
            hoard.append(bytearray(16 << 20))
