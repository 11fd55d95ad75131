"""``perfectplay book``: build an opening book of exact scores (games that keep books)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import whole
from perfectplay.cli.output import EXIT_INTERNAL, EXIT_OK, PROG, console, say, stderr
from perfectplay.cli.progress import status_line
from perfectplay.cli.warm import compile_first

if TYPE_CHECKING:
    from perfectplay import api

EPILOG = """examples:
  perfectplay book connect4 --size 6x5 --depth 4 --out c4-6x5.npz
  perfectplay book connect4 --size 6x5 --depth 4 --out c4-6x5.npz --resume   after a kill
  perfectplay book connect4 --size 8x7 --depth 6 --out c4-8x7.npz --executor ray
  perfectplay solve connect4 '' --size 6x5 --book c4-6x5.npz

Solves every position with DEPTH stones (one of each mirror pair) on the executor's workers
(a process pool here by default, or Ray actors) and writes their exact scores to exactly
the file named (written whole or not at all); a search that reaches that depth then reads
the score instead of searching on. Each answer is kept in FILE.partial as it comes, so a
build killed on the way goes on with --resume; the checkpoint is removed at the end."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "build an opening book of exact scores (connect4)"
    sub = options.add_verb(
        commands, "book", summary, EPILOG, run, requires=options.capability("BOOK")
    )
    options.add_size(sub)
    sub.add_argument("--depth", type=whole, required=True, help="stones on the book's positions")
    sub.add_argument("--out", required=True, metavar="FILE", help="where to write the book")
    options.add_executor(sub)
    sub.add_argument(
        "--resume", action="store_true", help="go on from FILE.partial, a killed build's answers"
    )
    options.add_solver(sub)


def run(args: argparse.Namespace) -> int:
    """Build the book and say how many positions it holds."""
    from perfectplay import api

    game = options.new_game(args)
    game_kit = api.kit_of(game)
    options.check_executor(args)
    compile_first(args, game, None, options.kernel_options(args), every_position=True)
    job = api.batch_job(args.game, size=args.size, options=options.kernel_options(args))
    started = time.perf_counter()
    with status_line(sys.stderr.isatty()) as status:

        def progress(done: int, count: int, seconds: float) -> None:
            if status is not None:
                status.show(f"book: {done}/{count} positions solved, {seconds:.1f} s", seconds)

        try:
            built = api.build_book_with(
                job,
                args.depth,
                args.out,
                executor=args.executor,
                workers=args.workers,
                address=args.address,
                resume=args.resume,
                progress=progress,
            )
        except api.WorkerLost as exc:
            stderr(
                f"{PROG}: error: {exc}; the answers so far are in {args.out}.partial, "
                "--resume goes on"
            )
            return EXIT_INTERNAL
    size = game_kit.size_text(game) or game_kit.name
    say(
        console(),
        f"opening book {size}, depth {args.depth}: {built.positions} positions "
        f"in {time.perf_counter() - started:.1f} s{resumed(built)}, written to {args.out}",
    )
    return EXIT_OK


def resumed(built: api.BookBuild) -> str:
    """`` (23163 solved now, 13899 from the checkpoint)`` when a build went on, else ``""``."""
    if built.solved == built.positions:
        return ""
    return f" ({built.solved} solved now, {built.positions - built.solved} from the checkpoint)"
