"""Plain games that break the contract, for the guard's tests: each is a one-heap take-away
game (take 1 or 2, the last take wins) with one slip."""

from __future__ import annotations

from typing import Any


class Good:
    """The sound game the others break."""

    def start(self) -> Any:
        return (4, 1)

    def moves(self, position: Any) -> Any:
        return [take for take in (1, 2) if take <= position[0]]

    def play(self, position: Any, take: Any) -> Any:
        return (position[0] - take, 3 - position[1])

    def result(self, position: Any) -> Any:
        return None if position[0] else 3 - position[1]


class Raises(Good):
    """``play`` raises past the first move."""

    def play(self, position: Any, take: Any) -> Any:
        if position[0] < 4:
            raise KeyError("the rules slipped")
        return super().play(position, take)


class Repeats(Good):
    """``moves`` lists a move twice."""

    def moves(self, position: Any) -> Any:
        return [1, 1, 2]


class NoMoves(Good):
    """``moves`` is empty while ``result`` says the game goes on."""

    def moves(self, position: Any) -> Any:
        return [] if position[0] < 4 else super().moves(position)


class NotAList(Good):
    """``moves`` returns a number."""

    def moves(self, position: Any) -> Any:
        return 2


class BadResult(Good):
    """``result`` returns a word."""

    def result(self, position: Any) -> Any:
        return "won" if position[0] == 0 else None


class Pile:
    """A mutable position hashed by its contents."""

    def __init__(self, stones: list[int]) -> None:
        self.stones = stones

    def __hash__(self) -> int:
        return hash(tuple(self.stones))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pile) and other.stones == self.stones


class Mutates(Good):
    """``play`` changes the position it is given."""

    def start(self) -> Any:
        return Pile([4, 1])

    def moves(self, position: Any) -> Any:
        return [take for take in (1, 2) if take <= position.stones[0]]

    def play(self, position: Any, take: Any) -> Any:
        position.stones[0] -= take
        position.stones[1] = 3 - position.stones[1]
        return position

    def result(self, position: Any) -> Any:
        return None if position.stones[0] else 3 - position.stones[1]


class Unhashable(Good):
    """``start`` returns a list."""

    def start(self) -> Any:
        return [4, 1]


BROKEN = {
    "raises": (Raises, "play", "raised KeyError in play"),
    "repeats": (Repeats, "moves", "twice"),
    "nomoves": (NoMoves, "moves", "returned no move"),
    "notalist": (NotAList, "moves", "expected a list"),
    "badresult": (BadResult, "result", "expected None"),
    "mutates": (Mutates, "play", "changed the position"),
    "unhashable": (Unhashable, "start", "hashable"),
}
"""Each broken game by name: its class, the method named in its error, and words of it."""
