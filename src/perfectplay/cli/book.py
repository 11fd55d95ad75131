"""``perfectplay book``: build an opening book of exact scores (games that keep books)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK, console, say
from perfectplay.cli.progress import status_line

EPILOG = """examples:
  perfectplay book connect4 --size 6x5 --depth 4 --out c4-6x5.npz
  perfectplay solve connect4 '' --size 6x5 --book c4-6x5.npz

Solves every position with DEPTH stones (one of each mirror pair) and writes their exact
scores to exactly the file named (written whole or not at all); a search that reaches that
depth then reads the score instead of searching on."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "build an opening book of exact scores (connect4)"
    sub = options.add_verb(
        commands, "book", summary, EPILOG, run, requires=options.capability("BOOK")
    )
    options.add_size(sub)
    sub.add_argument("--depth", type=int, required=True, help="stones on the book's positions")
    sub.add_argument("--out", required=True, metavar="FILE", help="where to write the book")
    options.add_solver(sub)


def run(args: argparse.Namespace) -> int:
    """Build the book and say how many positions it holds."""
    from perfectplay import api

    game = options.new_game(args)
    game_kit = api.kit_of(game)
    started = time.perf_counter()
    with status_line(sys.stderr.isatty()) as status:

        def progress(done: int, count: int, seconds: float) -> None:
            if status is not None:
                status.show(f"book: {done}/{count} positions solved, {seconds:.1f} s", seconds)

        total = api.build_book(
            game, args.depth, args.out, options=options.kernel_options(args), progress=progress
        )
    size = game_kit.size_text(game) or game_kit.name
    say(
        console(),
        f"opening book {size}, depth {args.depth}: {total} positions "
        f"in {time.perf_counter() - started:.1f} s, written to {args.out}",
    )
    return EXIT_OK
