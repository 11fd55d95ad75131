"""A bad course bot: writes outside its folder, hiding any error it gets."""


class EscapeBot:
    def find(self, state, n_player, thinking_time):
        try:
            with open("../../perfectplay-escape-bot-was-here", "w") as handle:
                handle.write("escaped\n")
        except BaseException:
            pass
        return 3, "O"
