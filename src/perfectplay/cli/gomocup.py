"""``perfectplay gomocup``: the engine as a Gomocup (piskvork) brain on standard input/output.

The tournament managers people use (piskvork, Gomocup's manager, pbrain wrappers) talk to a
brain in lines of text; the brain answers each command that asks for it::

    START 15            -> OK              a new 15x15 game (RECTSTART 15,20: 15 wide, 20 high)
    INFO timeout_turn 1000                 milliseconds a move (also time_left, rule: bit 1 is
                                           the exact rule, an overline does not win)
    BEGIN               -> 7,7             the brain opens
    TURN 7,8            -> 8,8             the opponent played column 7, row 8; the brain replies
    BOARD / 7,7,1 / 7,8,2 / DONE -> 8,7    a whole position (1: the brain's, 2: the opponent's)
    TAKEBACK 7,8        -> OK              RESTART -> OK
    ABOUT               -> name="perfectplay", version="...", ...
    END                                    the brain exits

Coordinates are ``x,y`` from 0: the column, then the row from the top. Bad commands get
``ERROR reason`` (the message of the :mod:`perfectplay.errors` exception that names the bad
input: a bad move, a size the engine does not play) or ``UNKNOWN command``, and the brain
keeps going. The board is rebuilt from the stones for every move, so the brain
keeps no more than the stones and the clock between commands.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    NotationError,
    ParameterError,
    PerfectplayError,
    quote,
)

if TYPE_CHECKING:
    from perfectplay.api import RegisteredGame

EPILOG = """\
examples:
  perfectplay gomocup tictactoe        freestyle (five or more wins), as Gomocup's default
  perfectplay gomocup gomoku           the exact rule from the start (INFO rule 1 also sets it)

then type (or let a tournament manager send) START 15, INFO timeout_turn 1000, BEGIN,
TURN 7,8, ..., END."""
K = 5
"""Five in a row: Gomocup's rules."""
FREESTYLE, EXACT_RULE = "tictactoe", "gomoku"
"""The games of the two rules: five or more wins, exactly five wins."""
DEFAULT_TURN_MS = 5_000
"""Milliseconds a move when the manager says nothing (Gomocup's usual limit)."""
TIME_SHARE = 0.8
"""The share of a move's time the search may use (the rest is the line's transport)."""
MATCH_SHARE = 0.05
"""At most this share of the match time left goes to one move."""
MIN_SECONDS = 0.05
SIZES = range(5, 20)
"""Board sides the brain plays (the engine's boards: up to 19x19)."""
ABOUT = 'name="perfectplay", version="{version}", author="perfectplay", country="-"'


def add(commands: object) -> None:
    """Declare the verb."""
    summary = "play as a Gomocup (piskvork) brain on standard input and output"
    options.add_verb(commands, "gomocup", summary, EPILOG, run)


def run(args: argparse.Namespace) -> int:
    """Answer the protocol's commands until ``END`` or the end of input."""
    from perfectplay import api

    name = api.kit(args.game).name
    if name not in (FREESTYLE, EXACT_RULE):
        raise ParameterError(
            f"gomocup {args.game}: the protocol plays {FREESTYLE} (freestyle) or {EXACT_RULE}"
        )
    brain = Brain(exact_rule=name == EXACT_RULE)
    for reply in brain.serve(iter(sys.stdin.readline, "")):
        write(sys.stdout, reply)
    return EXIT_OK


def write(out: TextIO, line: str) -> None:
    """One answer, flushed at once (the manager waits for it)."""
    out.write(line + "\n")
    out.flush()


@dataclass
class Brain:
    """The protocol's state: the board's size, the rule, the clock and the stones (own and
    the opponent's, as ``(x, y)``)."""

    exact_rule: bool = False
    cols: int = 0
    rows: int = 0
    turn_ms: int = DEFAULT_TURN_MS
    left_ms: int | None = None
    own: list[tuple[int, int]] = field(default_factory=list)
    theirs: list[tuple[int, int]] = field(default_factory=list)

    def serve(self, lines: Iterator[str]) -> Iterator[str]:
        """The answers to the commands read from ``lines`` (``BOARD`` reads its own lines)."""
        for raw in lines:
            words = raw.strip().split(maxsplit=1)
            if not words:
                continue
            command, rest = words[0].upper(), words[1] if len(words) > 1 else ""
            if command == "END":
                return
            if command == "BOARD":
                yield self.board(lines)
                continue
            reply = self.answer(command, rest)
            if reply is not None:
                yield reply

    def answer(self, command: str, rest: str) -> str | None:
        """The answer to one command (``None`` for those that take none)."""
        handlers: dict[str, Callable[[str], str | None]] = {
            "START": self.start,
            "RECTSTART": self.rect_start,
            "RESTART": lambda _: self.restart(),
            "BEGIN": lambda _: self.move(),
            "TURN": self.turn,
            "TAKEBACK": self.take_back,
            "INFO": self.info,
            "ABOUT": lambda _: about(),
        }
        handler = handlers.get(command)
        if handler is None:
            return f"UNKNOWN {command}"
        try:
            return handler(rest)
        except PerfectplayError as error:
            return f"ERROR {error}"

    def start(self, rest: str) -> str:
        """``START size``: a new square board."""
        size = whole(rest, "size")
        return self.new_board(size, size)

    def rect_start(self, rest: str) -> str:
        """``RECTSTART width,height``."""
        width, height = pair(rest)
        return self.new_board(width, height)

    def new_board(self, cols: int, rows: int) -> str:
        """An empty board of the size, when the engine plays it; loads the engine."""
        if cols not in SIZES or rows not in SIZES:
            raise ParameterError(f"unsupported size {cols}x{rows}: 5 to 19 a side")
        self.cols, self.rows = cols, rows
        warm_up(self.game_name, rows, cols)
        return self.restart()

    def restart(self) -> str:
        """The same board, emptied."""
        self.own.clear()
        self.theirs.clear()
        return "OK"

    def turn(self, rest: str) -> str:
        """``TURN x,y``: the opponent's stone, then the brain's move."""
        self.place(pair(rest), self.theirs)
        return self.move()

    def take_back(self, rest: str) -> str:
        """``TAKEBACK x,y``: the stone there is lifted."""
        cell = pair(rest)
        for stones in (self.own, self.theirs):
            if cell in stones:
                stones.remove(cell)
                return "OK"
        raise IllegalMoveError(f"no stone at {cell[0]},{cell[1]}")

    def info(self, rest: str) -> None:
        """``INFO key value``: the clock and the rule; other keys are ignored."""
        key, _, value = rest.partition(" ")
        key = key.lower()
        if key == "timeout_turn":
            self.turn_ms = whole(value, key)
        elif key == "time_left":
            self.left_ms = whole(value, key)
        elif key == "rule":
            self.exact_rule = bool(whole(value, key) & 1)

    def board(self, lines: Iterator[str]) -> str:
        """``BOARD``: ``x,y,who`` lines up to ``DONE``, then the brain's move."""
        self.restart()
        for raw in lines:
            text = raw.strip()
            if text.upper() == "DONE":
                break
            parts = text.split(",")
            if len(parts) != 3:
                return f"ERROR board line {text!r}: expected x,y,who"
            try:
                cell, who = pair(",".join(parts[:2])), whole(parts[2], "who")
                if who in (1, 2):
                    self.place(cell, self.own if who == 1 else self.theirs)
            except PerfectplayError as error:
                return f"ERROR {error}"
        try:
            return self.move()
        except PerfectplayError as error:
            return f"ERROR {error}"

    def place(self, cell: tuple[int, int], stones: list[tuple[int, int]]) -> None:
        """Add a stone after checking the cell is on the board and empty."""
        x, y = cell
        if not self.cols:
            raise ParameterError("no board yet: START first")
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise IllegalMoveError(f"{x},{y} is off the {self.cols}x{self.rows} board")
        if cell in self.own or cell in self.theirs:
            raise IllegalMoveError(f"{x},{y} is taken")
        stones.append(cell)

    @property
    def game_name(self) -> str:
        """The kit of the rule in force."""
        return EXACT_RULE if self.exact_rule else FREESTYLE

    def move(self) -> str:
        """The brain's move on the current stones, as ``x,y`` (also kept as its stone)."""
        from perfectplay import api

        if not self.cols:
            raise ParameterError("no board yet: START first")
        game, position = api.load(self.game_name, self.board_text(), k=K)
        if game.outcome(position) is not None:
            raise GameOverError("the game is over")
        result = api.best(game, position, api.limit(time=self.seconds()))
        cell = api.kit_of(game).move_cell(game, position, result.best_move)
        if cell is None:
            raise ParameterError(f"{self.game_name} has no board cells")
        row, col = cell
        self.own.append((col, row))
        return f"{col},{row}"

    def board_text(self) -> str:
        """The stones as a board (``x`` the side that has as many stones or one more)."""
        if len(self.own) == len(self.theirs):
            mine, other = "x", "o"
        elif len(self.theirs) == len(self.own) + 1:
            mine, other = "o", "x"
        else:
            raise IllegalPositionError(
                f"the brain has {len(self.own)} stones and the opponent {len(self.theirs)}: "
                "not the brain's turn"
            )
        grid = [["_"] * self.cols for _ in range(self.rows)]
        for stones, mark in ((self.own, mine), (self.theirs, other)):
            for x, y in stones:
                grid[y][x] = mark
        return "/".join("".join(row) for row in grid)

    def seconds(self) -> float:
        """The search's time: a share of the move's limit and of the match time left."""
        budget = self.turn_ms / 1000 * TIME_SHARE
        if self.left_ms is not None:
            budget = min(budget, self.left_ms / 1000 * MATCH_SHARE)
        return max(MIN_SECONDS, budget)


def warm_up(game_name: str, rows: int, cols: int) -> None:
    """Load the engine's compiled code now, before the first move's clock runs."""
    from perfectplay import api

    game: RegisteredGame
    game, start = api.new_game(game_name, size=f"{cols}x{rows}", k=K)
    api.best(game, start, api.limit(depth=1))


def about() -> str:
    """The ``ABOUT`` line."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("perfectplay")
    except PackageNotFoundError:
        found = "unknown"
    return ABOUT.format(version=found)


def whole(text: str, name: str) -> int:
    """A whole number of the protocol; raises :class:`NotationError` naming it."""
    number = text.strip()  # int() also takes other scripts' digits and "_": not the protocol
    if not options.WHOLE.fullmatch(number) or len(number) > options.MAX_OPTION_DIGITS:
        raise NotationError(f"{name} {quote(number)}: expected a whole number")
    return int(number)


def pair(text: str) -> tuple[int, int]:
    """``x,y``; raises :class:`NotationError` for anything else."""
    parts = text.split(",")
    if len(parts) != 2:
        raise NotationError(f"{text.strip()!r}: expected x,y")
    return whole(parts[0], "x"), whole(parts[1], "y")
