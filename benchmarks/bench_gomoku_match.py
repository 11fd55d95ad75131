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
from typing import Any

import common

from perfectplay import api
from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition

SIZE = 15
OPENINGS = 10
SEED = 17
Player = Callable[[MNKGame, MNKPosition], Cell]


def ours(seconds: float) -> Player:
    """The engine under a time limit."""

    def play(game: MNKGame, position: MNKPosition) -> Cell:
        move: Cell = api.best(game, position, api.limit(time=seconds)).best_move
        return move

    return play


def ours_at_depth(depth: int) -> Player:
    """The engine searching a fixed number of plies (1: the evaluation alone picks)."""

    def play(game: MNKGame, position: MNKPosition) -> Cell:
        move: Cell = api.best(game, position, api.limit(depth=depth)).best_move
        return move

    return play


def gomoku_terminal() -> Player:
    """gomoku-terminal's hard AI on a board rebuilt from the position each move."""
    from gomoku.ai import GomokuAI
    from gomoku.board import Board

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


def openings(game: MNKGame) -> list[MNKPosition]:
    """Ten openings: x in the centre, o next to it, x within two cells (seeded)."""
    rng = random.Random(SEED)
    found: list[MNKPosition] = []
    centre = SIZE // 2
    while len(found) < OPENINGS:
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
    us = ours(args.time)
    game: Any = api.new_game("tictactoe", size=f"{SIZE}x{SIZE}", k=5)[0]
    api.best(game, game.initial(), api.limit(depth=1))  # load the engine
    score = {"win": 0, "loss": 0, "draw": 0}
    our_times: list[float] = []
    their_times: list[float] = []
    plies_all: list[int] = []
    for number, start in enumerate(openings(game), 1):
        for we_play in ("x", "o"):
            clocks: dict[str, list[float]] = {"x": [], "o": []}
            x, o = (us, them) if we_play == "x" else (them, us)
            winner, plies = play_game(game, start, x, o, clocks)
            our_times += clocks[we_play]
            their_times += clocks["o" if we_play == "x" else "x"]
            plies_all.append(plies)
            result = (
                "draw" if winner is None else "win" if (winner == 1) == (we_play == "x") else "loss"
            )
            score[result] += 1
            print(f"opening {number}, perfectplay {we_play}: {result} in {plies} plies", flush=True)
    print()
    print(common.machine())
    print()
    print(
        "| opponent | games | wins | losses | draws | plies (median) | our s/move | their s/move |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {args.opponent} | {sum(score.values())} | {score['win']} | {score['loss']} | "
        f"{score['draw']} | {statistics.median(plies_all):.0f} | "
        f"{statistics.mean(our_times):.2f} | {statistics.mean(their_times):.2f} |"
    )


if __name__ == "__main__":
    main()
