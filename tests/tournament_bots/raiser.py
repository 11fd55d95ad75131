"""A bad course bot: raises."""


class Raiser:
    def find(self, state, n_player, thinking_time):
        raise RuntimeError("this bot always fails")
