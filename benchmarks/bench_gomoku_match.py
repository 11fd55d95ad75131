"""A Gomoku match (issue 17): the big-board engine at 1 s a move against another engine on
15x15, freestyle (five or more wins), 20 games from 10 three-stone openings, each played
with both colours.

    python3 -m pip install gomoku-terminal                      # the opponent (pure Python)
    python benchmarks/bench_gomoku_match.py                     # against gomoku-terminal "hard"
    python benchmarks/bench_gomoku_match.py --opponent depth2   # our engine searching 2 plies
    python benchmarks/bench_gomoku_match.py --opponent pattern  # our evaluation alone (1 ply)

gomoku-terminal's "hard" AI is the strongest Gomoku engine on the package index that runs
here: it scores open and closed fours, threes and twos and searches 2-3 plies among the 20
best-scored cells near the stones. Prints one line per game and a Markdown summary.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import common

from perfectplay import api
from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition

SIZE = 15
OPENINGS = 10
SEED = 17
Player = Callable[[MNKGame, MNKPosition], Cell]
DEFAULT_OPTIONS = api.KernelOptions()


def ours(seconds: float, options: api.KernelOptions = DEFAULT_OPTIONS) -> Player:
    """The engine under a time limit (``options``: its evaluation weights, say)."""
    return ours_under(api.limit(time=seconds), options)


def ours_at_depth(depth: int, options: api.KernelOptions = DEFAULT_OPTIONS) -> Player:
    """The engine searching a fixed number of plies (1: the evaluation alone picks)."""
    return ours_under(api.limit(depth=depth), options)


def ours_under(limit: api.Limit, options: api.KernelOptions = DEFAULT_OPTIONS) -> Player:
    """The engine under ``limit`` with the kernel ``options``."""

    def play(game: MNKGame, position: MNKPosition) -> Cell:
        move = api.best(game, position, limit, options=options).best_move
        if move is None:  # only a finished game has none, and the match stops before one
            raise RuntimeError(f"no move on a running board: {position!r}")
        return move

    return play


def gomoku_terminal() -> Player:
    """gomoku-terminal's hard AI on a board rebuilt from the position each move."""
    from gomoku.ai import GomokuAI  # type: ignore[import-not-found]  # an optional peer
    from gomoku.board import Board  # type: ignore[import-not-found]

    class Board15(Board):  # type: ignore[misc]
        SIZE = SIZE

    ai = GomokuAI("hard")

    def play(game: MNKGame, position: MNKPosition) -> Cell:
        board = Board15()
        for index in range(game.spec.cells):
            if position.x >> index & 1:
                board.place_stone(*divmod(index, SIZE), Board.BLACK)
            elif position.o >> index & 1:
                board.place_stone(*divmod(index, SIZE), Board.WHITE)
        mover = Board.BLACK if game.to_move(position).value == 1 else Board.WHITE
        row, col = ai.get_move(board, mover)
        return Cell(row, col)

    return play


def openings(game: MNKGame, count: int = OPENINGS, seed: int = SEED) -> list[MNKPosition]:
    """``count`` openings: x in the centre, o next to it, x within two cells (seeded; at most
    the 5x5 - 1 - ... distinct ones there are, about 170)."""
    rng = random.Random(seed)
    found: list[MNKPosition] = []
    centre = SIZE // 2
    while len(found) < count:
        o = (centre + rng.randint(-1, 1), centre + rng.randint(-1, 1))
        x = (centre + rng.randint(-2, 2), centre + rng.randint(-2, 2))
        if len({o, x, (centre, centre)}) < 3:
            continue
        position = game.play(game.play(game.play(game.initial(), (centre, centre)), o), x)
        if position not in found:
            found.append(position)
    return found


def play_game(
    game: MNKGame, start: MNKPosition, x: Player, o: Player, clocks: dict[str, list[float]]
) -> tuple[int | None, int]:
    """Winner (1 x, 2 o, ``None`` draw) and plies; each side's seconds per move recorded."""
    position = start
    while game.outcome(position) is None:
        side = "x" if game.to_move(position).value == 1 else "o"
        began = time.perf_counter()
        move = (x if side == "x" else o)(game, position)
        clocks[side].append(time.perf_counter() - began)
        position = game.play(position, move)
    outcome = game.outcome(position)
    assert outcome is not None
    winner = None if outcome.winner is None else outcome.winner.value
    return winner, game.ply(position)


@dataclass
class Tally:
    """What a match found, from the first engine's side: results and the games' plies (in
    the order played: each start with x, then with o), and each engine's seconds per move."""

    score: dict[str, int] = field(default_factory=lambda: {"win": 0, "loss": 0, "draw": 0})
    results: list[str] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)
    our_times: list[float] = field(default_factory=list)
    their_times: list[float] = field(default_factory=list)

    @property
    def points(self) -> float:
        """Wins minus losses: from -games to games."""
        return self.score["win"] - self.score["loss"] + 0.0

    @property
    def games(self) -> int:
        """The games played."""
        return sum(self.score.values())


def match(
    game: MNKGame,
    starts: list[MNKPosition],
    us: Player,
    them: Player,
    report: Callable[[int, str, str, int], None] | None = None,
) -> Tally:
    """Every start played twice, ``us`` with x and then with o; ``report`` hears of each game
    (the start's number from 1, our side, the result, the plies)."""
    tally = Tally()
    for number, start in enumerate(starts, 1):
        for we_play in ("x", "o"):
            clocks: dict[str, list[float]] = {"x": [], "o": []}
            x, o = (us, them) if we_play == "x" else (them, us)
            winner, plies = play_game(game, start, x, o, clocks)
            tally.our_times += clocks[we_play]
            tally.their_times += clocks["o" if we_play == "x" else "x"]
            tally.plies.append(plies)
            result = (
                "draw" if winner is None else "win" if (winner == 1) == (we_play == "x") else "loss"
            )
            tally.score[result] += 1
            tally.results.append(result)
            if report is not None:
                report(number, we_play, result, plies)
    return tally


def print_game(number: int, we_play: str, result: str, plies: int) -> None:
    """One line per game."""
    print(f"opening {number}, perfectplay {we_play}: {result} in {plies} plies", flush=True)


def summary(name: str, tally: Tally) -> str:
    """The Markdown table of a match: header, rule, one row."""
    return "\n".join(
        [
            "| opponent | games | wins | losses | draws | plies (median) | our s/move "
            "| their s/move |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
            f"| {name} | {tally.games} | {tally.score['win']} | {tally.score['loss']} | "
            f"{tally.score['draw']} | {statistics.median(tally.plies):.0f} | "
            f"{statistics.mean(tally.our_times):.2f} | {statistics.mean(tally.their_times):.2f} |",
        ]
    )


def gomoku_game() -> MNKGame:
    """15x15, five or more in a row, its kernel loaded."""
    game: Any = api.new_game("tictactoe", size=f"{SIZE}x{SIZE}", k=5)[0]
    api.best(game, game.initial(), api.limit(depth=1))
    return game  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=("terminal", "depth2", "pattern"), default="terminal")
    parser.add_argument("--time", type=float, default=1.0, help="our seconds a move (1)")
    args = parser.parse_args()
    opponents: dict[str, Callable[[], Player]] = {
        "terminal": gomoku_terminal,
        "depth2": lambda: ours_at_depth(2),
        "pattern": lambda: ours_at_depth(1),
    }
    them = opponents[args.opponent]()
    game = gomoku_game()
    tally = match(game, openings(game), ours(args.time), them, print_game)
    print()
    print(common.machine())
    print()
    print(summary(args.opponent, tally))


if __name__ == "__main__":
    main()
