"""A bad course bot: proposes a column that is not on the board."""


class IllegalBot:
    def find(self, state, n_player, thinking_time):
        return state.board.col + 5, "O"
