"""What an opening book saves on a board's early positions: exact solves with it and without.

For one Connect Four size, solves the empty board, every first move, and ``--random`` random
positions of 2 to ``--depth - 1`` stones, each with the book (the one shipped for the size,
or ``--book FILE``) and without (``book=False``), alternating, in one process after a warm-up;
then the value of every move of the empty board (``analyze``) both ways. Prints each time,
the ratio, and checks that both ways give the same score.

    python3 benchmarks/bench_book_gain.py --size 6x6 --depth 8
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from common import fmt, machine

from perfectplay import api


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="6x6")
    parser.add_argument("--depth", type=int, default=8, help="the book's depth")
    parser.add_argument("--book", default=None, help="a book file (default: the one shipped)")
    parser.add_argument("--random", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args()


def early_positions(size: str, depth: int, count: int, seed: int) -> list[str]:
    """The empty board, every first move, and ``count`` random positions of 2 to depth-1
    stones (still running), as column digits."""
    game, _ = api.load("connect4", "", size=size)
    width = int(size.split("x")[0])
    found = ["", *(str(column) for column in range(1, width + 1))]
    chooser = random.Random(seed)
    while len(found) < width + 1 + count:
        moves = "".join(
            str(chooser.randint(1, width)) for _ in range(chooser.randint(2, depth - 1))
        )
        try:
            game, position = api.load("connect4", moves, size=size)
        except ValueError:
            continue
        if game.outcome(position) is None and moves not in found:
            found.append(moves)
    return found


def timed(call: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    """(seconds, value) of ``call(*args, **kwargs)``."""
    started = time.perf_counter()
    value = call(*args, **kwargs)
    return time.perf_counter() - started, value


def main() -> None:
    args = parse_args()
    with_book = api.kernel_options(book_path=args.book)
    without = api.kernel_options(book=False)
    game, start = api.load("connect4", "", size=args.size)
    api.solve(game, game.play(start, game.legal_moves(start)[0]), options=with_book)  # warm-up
    print(f"machine: {machine()}")
    print(f"connect4 {args.size}, book: {args.book or 'shipped'}")
    print("| position | stones | score | with the book | without | ratio |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for moves in early_positions(args.size, args.depth, args.random, args.seed):
        game, position = api.load("connect4", moves, size=args.size)
        fast, booked = timed(api.solve, game, position, options=with_book)
        slow, searched = timed(api.solve, game, position, options=without)
        assert booked.score == searched.score, (moves, booked.score, searched.score)
        ratios.append(slow / fast)
        print(f"| `{moves or '(empty)'}` | {len(moves)} | {searched.score} "
              f"| {fmt(fast)} | {fmt(slow)} | {slow / fast:,.0f}x |")  # fmt: skip
    fast, booked_values = timed(api.analyze, game, start, options=with_book)
    slow, searched_values = timed(api.analyze, game, start, options=without)
    assert [v.score for v in booked_values] == [v.score for v in searched_values]
    print(
        f"| analyze (empty), every move | 0 | - | {fmt(fast)} | {fmt(slow)} | {slow / fast:,.0f}x |"
    )
    print(f"median ratio over the solves: {statistics.median(ratios):,.0f}x")


if __name__ == "__main__":
    main()
