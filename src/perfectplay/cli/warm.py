"""``perfectplay warm``: compile the compiled engines ahead of time; and the one-line notice
(with a status line of the seconds elapsed on a terminal) of any command whose search must
first compile its engine.

numba compiles an engine the first time it is used after an install (seconds to a minute)
and keeps the code on disk; every later process loads it in a fraction of a second. A
command asks the api whether its search needs a compile (:func:`compile_first`) before its
clock starts: ``--time`` never counts the compile.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK, PROG, stderr
from perfectplay.cli.progress import elapsed_line

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from perfectplay.api import KernelOptions, RegisteredGame, Warmed

SUMMARY = "compile the compiled engines ahead of time (numba), all games by default"
EPILOG = """\
examples:
  perfectplay warm                      every engine of every game
  perfectplay warm connect4             the Connect Four solver only
  perfectplay warm tictactoe gomoku     the m,n,k engines (small and big boards)

The first search of a game after an install compiles its engine (seconds to a minute);
numba keeps the code on disk (beside the package, or under $NUMBA_CACHE_DIR), so later runs
load it at once. Time limits (--time) never count the compile: their clock starts after it."""


def add(commands: Any) -> None:
    """Declare the verb."""
    sub: argparse.ArgumentParser = commands.add_parser(
        "warm",
        help=SUMMARY,
        description=SUMMARY,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=run, requires=None, **dict(options.UNSET))
    sub.add_argument(
        "games", metavar="GAME", nargs="*", help="games whose engines to compile (default: all)"
    )


def run(args: argparse.Namespace) -> int:
    """Compile (or load) the engines, with a progress bar on a terminal, a line for each
    engine otherwise; then one line for each engine: compiled or already cached, seconds."""
    from perfectplay import api

    for name in args.games:
        api.kit(name)  # an unknown game is refused before anything is compiled
    if sys.stderr.isatty():
        warmed = with_bar(args.games)
    else:
        warmed = api.warm(args.games, progress=plain_progress)
    for done in warmed:
        how = "compiled" if done.compiled else "loaded from numba's cache"
        print(f"{done.game_name}: {done.engine.label}: {how} in {done.seconds:.1f} s")
    if not warmed:
        print("no compiled engine to warm")
    return EXIT_OK


def plain_progress(label: str, done: int, total: int) -> None:
    """One line on stderr as each engine starts."""
    if label:
        stderr(f"{PROG}: warming {label} ({done + 1} of {total})")


def with_bar(games: list[str]) -> list[Warmed]:
    """:func:`perfectplay.api.warm` under a rich progress bar on stderr, naming the engine
    being compiled and the time elapsed."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from perfectplay import api
    from perfectplay.cli.output import console

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console(on_stderr=True), transient=True) as bar:
        task = bar.add_task("engines", total=None)
        return api.warm(games, progress=lambda *told: advance(bar, task, *told))


def advance(bar: Progress, task: TaskID, label: str, done: int, total: int) -> None:
    """Move the bar to ``done`` of ``total`` engines, naming the one starting."""
    bar.update(task, completed=done, total=total, description=label or "done")


def compile_first(
    args: argparse.Namespace,
    game: RegisteredGame,
    position: object,
    kernel: KernelOptions | None = None,
    *,
    every_position: bool = False,
) -> None:
    """When the search of ``position`` (``None``: any) with ``kernel`` options (``None``:
    the defaults) must first compile its engine (``every_position``: a job that values
    many positions with it, see :func:`perfectplay.api.engine_to_compile`): say so on
    stderr in one line, compile it (a status line of the seconds elapsed on a terminal, a
    closing line otherwise), and start the command's clock (``args.started``) afterwards,
    so that ``--time`` does not count the compile. Nothing happens otherwise."""
    from perfectplay import api

    kernel = api.kernel_options() if kernel is None else kernel
    engine = api.engine_to_compile(game, position, kernel, every_position=every_position)
    if engine is None:
        return
    stderr(
        f"{PROG}: compiling {engine.label}: first run after install, about "
        f"{engine.compile_seconds} s (the code is kept: later runs start at once; "
        "time limits start after it)"
    )
    started = time.perf_counter()
    terminal = sys.stderr.isatty()
    with elapsed_line(f"compiling {engine.label}", terminal):
        api.warm_game(game, kernel, every_position=every_position)
    if not terminal:
        stderr(f"{PROG}: compiled in {time.perf_counter() - started:.1f} s")
    args.started = time.perf_counter()
