"""Games of an outside Gomocup engine against itself, for fitting the evaluation (issue 26).

    python benchmarks/gomoku_rapfi_games.py --engine /tmp/i26_rapfi/build/pbrain-rapfi \\
        --games 600 --nodes 3000 --seed 26 --out /tmp/rapfi_games.txt

Each game starts from a seeded random opening (black on the centre, then ``--stones - 1``
more stones, alternately white and black, on empty cells within two cells of the centre), and
the engine plays both colours (two processes, one thread each) at ``--nodes`` nodes a move
(``INFO max_node``), so that a game is a function of the opening and the engine: the run
repeats from its seed. The referee is :func:`bench_gomoku_peers.play` (perfectplay's rules,
five or more wins). One line a game is appended to ``--out``::

    opening x,y x,y ... | moves x,y ... | winner black|white|draw

(0-based ``x`` the column, ``y`` the row; black first). ``fit_gomoku_eval.py`` reads these
lines and the match records of ``bench_gomoku_peers.py``.

With ``--openings FILE`` (``bench_gomoku_peers.py``'s format) the games are that file's
openings instead, one game each (``--games`` and ``--seed`` unused), and a tally of the
winners by colour ends the run: how far the openings favour black when the engine plays
both sides, the balance a match of ours against it is played on.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from bench_gomoku_peers import (
    NODE_MODE_TURN_MS,
    ONE_CORE,
    SIZE,
    Brain,
    Side,
    Tally,
    load,
    play,
    read_openings,
)

CENTRE = SIZE // 2
SPREAD = 2
"""The opening's stones lie within this many cells of the centre."""


def opening(rng: random.Random, stones: int) -> tuple[tuple[int, int], ...]:
    """A random opening of ``stones`` stones: the centre first, the rest near it."""
    near = [
        (x, y)
        for x in range(CENTRE - SPREAD, CENTRE + SPREAD + 1)
        for y in range(CENTRE - SPREAD, CENTRE + SPREAD + 1)
        if (x, y) != (CENTRE, CENTRE)
    ]
    return ((CENTRE, CENTRE), *rng.sample(near, stones - 1))


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play the games, append them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--stones", type=int, default=4, help="stones of each opening")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--openings", type=Path, help="a fixed openings file instead")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.openings is not None and not args.openings.is_file():
        parser.error(f"--openings {args.openings}: no such file")
    infos = (*ONE_CORE, f"INFO max_node {args.nodes}")
    black = Side(Brain([args.engine], "black"), NODE_MODE_TURN_MS, infos)
    white = Side(Brain([args.engine], "white"), NODE_MODE_TURN_MS, infos)
    started, winners = time.perf_counter(), Counter[str]()
    print(f"load before: {load()}", flush=True)
    try:
        for number, stones in enumerate(chosen_openings(args)):
            record = play(black, white, stones, True, 0, 1000, Tally())
            winner = {"win": "black", "loss": "white"}.get(record.result, "draw")
            winners[winner] += 1
            with open(args.out, "a") as out:
                out.write(
                    f"opening {' '.join(f'{x},{y}' for x, y in stones)} | moves "
                    f"{' '.join(f'{x},{y}' for x, y in record.moves)} | winner {winner}\n"
                )
            if number % 50 == 0:
                print(f"{number} games, {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        black.brain.close()
        white.brain.close()
    tally = ", ".join(f"{colour} {winners[colour]}" for colour in ("black", "white", "draw"))
    print(f"winners: {tally}; {time.perf_counter() - started:.0f} s; load after: {load()}")


def chosen_openings(args: argparse.Namespace) -> Iterator[tuple[tuple[int, int], ...]]:
    """The games' openings: the ``--openings`` file's, else ``--games`` seeded random ones."""
    if args.openings is not None:
        yield from read_openings(args.openings)
        return
    rng = random.Random(args.seed)
    for _ in range(args.games):
        yield opening(rng, args.stones)


if __name__ == "__main__":
    main()
