"""``perfectplay gomocup``: the Gomocup (piskvork) protocol on standard input and output,
driven as a tournament manager drives a brain."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from perfectplay.cli.gomocup import Brain
from perfectplay.games.common.grid import windows

COMMAND = [sys.executable, "-c", "from perfectplay.cli.main import main; raise SystemExit(main())"]


class Manager:
    """A brain process and the lines exchanged with it."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, "gomocup", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, line: str) -> str:
        """The answer to ``line``; MESSAGE lines (the brain may say one at any time: its
        engine loaded) are passed over, as a manager does."""
        self.send(line)
        assert self.process.stdout is not None
        while (answer := self.process.stdout.readline().strip()).startswith("MESSAGE"):
            pass
        return answer

    def end(self) -> int:
        self.send("END")
        return self.process.wait(timeout=30)


def cell(answer: str) -> tuple[int, int]:
    x, y = answer.split(",")
    return int(x), int(y)


def five_of(stones: set[tuple[int, int]]) -> bool:
    """Whether ``stones`` (``(x, y)``) hold five in a row, by the game's own rules."""
    bits = sum(1 << (y * 15 + x) for x, y in stones)
    return any(bits & w == w for w in windows(15, 15, 5))


def test_a_whole_game_through_standard_input_and_output() -> None:
    """The brain opens and plays against a manager placing stones along the top row: every
    answer is an empty cell, the brain makes five and the game ends with END, status 0."""
    manager = Manager("tictactoe")
    try:
        assert manager.ask("START 15") == "OK"
        manager.send("INFO timeout_turn 300")
        manager.send("INFO rule 0")
        own: set[tuple[int, int]] = set()
        theirs: set[tuple[int, int]] = set()
        answer = manager.ask("BEGIN")
        for x in range(15):
            move = cell(answer)
            assert move not in own | theirs and 0 <= move[0] < 15 and 0 <= move[1] < 15
            own.add(move)
            if five_of(own):
                break
            reply = next(c for c in ((x, 0), (x, 14), (14, x)) if c not in own | theirs)
            theirs.add(reply)
            answer = manager.ask(f"TURN {reply[0]},{reply[1]}")
        assert five_of(own) and not five_of(theirs)
        assert manager.end() == 0
    finally:
        manager.process.kill()
        manager.process.wait()


def lines(*text: str) -> Iterator[str]:
    return iter(text)


def test_every_command_is_answered() -> None:
    brain = Brain()
    replies = list(
        brain.serve(
            lines(
                "ABOUT",
                "TURN 1,1",
                "RECTSTART 15,15",
                "INFO timeout_turn 200",
                "BOARD",
                "7,7,1",
                "7,8,2",
                "8,8,1",
                "9,9,2",
                "DONE",
                "TAKEBACK 9,9",
                "TAKEBACK 9,9",
                "TURN 15,3",
                "TURN 7,7",
                "START 40",
                "PLAY",
                "RESTART",
                "END",
                "ABOUT",
            )
        )
    )
    assert replies[0].startswith('name="perfectplay"')
    assert replies[1] == "ERROR no board yet: START first"
    assert replies[2] == "OK"
    assert cell(replies[3]) not in {(7, 7), (7, 8), (8, 8), (9, 9)}
    assert replies[4:] == [
        "OK",
        "ERROR no stone at 9,9",
        "ERROR 15,3 is off the 15x15 board",
        "ERROR 7,7 is taken",
        "ERROR unsupported size 40x40: 5 to 20 a side",
        "UNKNOWN PLAY",
        "OK",
    ]  # nothing after END


@pytest.mark.parametrize(("rule", "name"), [("1", "gomoku"), ("0", "tictactoe")])
def test_the_rule_picks_the_game(rule: str, name: str) -> None:
    brain = Brain()
    list(brain.serve(lines("START 15", f"INFO rule {rule}")))
    assert brain.game_name == name
