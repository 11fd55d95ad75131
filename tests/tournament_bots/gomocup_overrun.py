"""A Gomocup brain that plays its first two moves at once and from its third move on thinks
three times the turn time the manager gave it (``INFO timeout_turn``) before answering."""

import sys
import time
from typing import TypedDict


class State(TypedDict):
    """The board's size, its stones (1 own, 2 the opponent's), the turn time, moves made."""

    size: tuple[int, int]
    stones: dict[tuple[int, int], int]
    turn_ms: int
    moves: int


state: State = {"size": (0, 0), "stones": {}, "turn_ms": 1000, "moves": 0}


def say(text: str) -> None:
    print(text, flush=True)


def answer() -> None:
    state["moves"] += 1
    if state["moves"] >= 3:
        time.sleep(3 * state["turn_ms"] / 1000)
    (width, height), stones = state["size"], state["stones"]
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in stones]
    best = min(free, key=lambda c: (abs(c[0] - width // 2) + abs(c[1] - height // 2), c))
    stones[best] = 1
    say(f"{best[0]},{best[1]}")


def read_board() -> None:
    state["stones"] = {}
    while (row := sys.stdin.readline().strip()).upper() != "DONE":
        x, y, who = map(int, row.split(","))
        state["stones"][(x, y)] = who
    answer()


def heard(words: list[str]) -> bool:
    if words[0] in ("START", "RECTSTART"):
        state["size"], state["stones"] = (int(words[1]), int(words[-1])), {}
        say("OK")
    elif words[:2] == ["INFO", "timeout_turn"]:
        state["turn_ms"] = int(words[2])
    elif words[0] == "TURN":
        state["stones"][(int(words[1]), int(words[2]))] = 2
        answer()
    elif words[0] == "BEGIN":
        answer()
    elif words[0] == "BOARD":
        read_board()
    return words[0] != "END"


while (line := sys.stdin.readline()) and heard(line.replace(",", " ").split() or ["?"]):
    pass
