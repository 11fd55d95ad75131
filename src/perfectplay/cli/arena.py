"""``perfectplay arena``: a match between two player specs, sides alternating (games with a
tuned time-limited engine)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import decimal, whole
from perfectplay.cli.output import EXIT_OK, console, duration, print_json, say
from perfectplay.cli.warm import compile_first

if TYPE_CHECKING:
    from perfectplay.api import ArenaResult, GameRecord, SideRecord

EPILOG = """\
examples:
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors,depth=3 --games 40 --time 3
  perfectplay arena simplexity --p1 engine:time=0.5 --p2 random --games 10 --json
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors --games 20 --opening-plies 2

player specs: engine (the default evaluation, --time per move, 3 s without it), or
engine:eval=NAME,depth=N,time=S in any combination; random, random:seed=N.
An engine with a depth searches that deep (--time, when given, is then a hard cap); with
its own time it uses the smaller of that and --time. Game i has --p1 moving first when i
is even. With --opening-plies K both games of a pair start from the same K random plies."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "a match between two player specs, sides alternating (simplexity)"
    sub = options.add_verb(
        commands, "arena", summary, EPILOG, run, requires=options.capability("ARENA")
    )
    sub.add_argument("--p1", required=True, metavar="SPEC", help="player 1 (see below)")
    sub.add_argument("--p2", required=True, metavar="SPEC", help="player 2 (see below)")
    sub.add_argument("--games", type=whole, required=True, metavar="N", help="games to play")
    sub.add_argument("--time", type=decimal, metavar="S", help="seconds per engine move")
    sub.add_argument("--size", metavar="WxH", help=options.SIZE_HELP)
    sub.add_argument("--seed", type=whole, default=0, help="seed of random players and openings")
    sub.add_argument(
        "--opening-plies", type=whole, default=0, metavar="K", help="random plies opening each pair"
    )
    sub.add_argument("--json", action="store_true", help="print the match as one JSON document")


def run(args: argparse.Namespace) -> int:
    """Play the match (``ArenaResult.as_dict`` with ``--json``)."""
    from perfectplay import api

    game = options.new_game(args)
    compile_first(args, game, None)
    game_kit = api.kit_of(game)
    first = api.parse_player(args.p1, game_kit.evaluations)
    second = api.parse_player(args.p2, game_kit.evaluations)
    if args.time is not None:
        api.limit(time=args.time)
    with progress_bar(sys.stderr.isatty(), args.games) as progress:
        result = api.arena(
            game,
            first,
            second,
            args.games,
            time_limit=args.time,
            seed=args.seed,
            opening_plies=args.opening_plies,
            progress=progress,
        )
    if args.json:
        print_json(result.as_dict())
        return EXIT_OK
    out = console()
    out.print(table(result))
    p1, p2 = result.players
    say(out, f"p1 wins {p1.total.wins}, p2 wins {p2.total.wins}, {result.draws} draws")
    return EXIT_OK


@contextmanager
def progress_bar(show: bool, games: int) -> Iterator[Callable[[int, int, GameRecord], None] | None]:
    """A rich progress bar on stderr (when ``show``) counting the games played."""
    if not show:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console(on_stderr=True), transient=True) as bar:
        task = bar.add_task("arena", total=games)

        def update(done: int, total: int, record: GameRecord) -> None:
            bar.update(task, completed=done)

        yield update


def table(result: ArenaResult) -> Any:
    """Per player: wins-losses-draws in all, moving first and second; time per move (mean
    and maximum); the mean depth completed. The title names the players' specs."""
    from rich.table import Table

    p1, p2 = result.players
    title = f"arena {result.game} {result.size}, {len(result.games)} games"
    if result.time is not None:
        title += f", {result.time:g} s per move"
    title += f"\np1 = {p1.spec}, p2 = {p2.spec}"
    grid = Table(title=title, title_justify="left")
    for name in ("player", "W-L-D", "first", "second"):
        grid.add_column(name)
    for name in ("mean/move", "max/move", "depth"):
        grid.add_column(name, justify="right")
    for label, record in zip(("p1", "p2"), result.players, strict=True):
        depth = record.mean_depth
        grid.add_row(
            label,
            wld(record.total),
            wld(record.first),
            wld(record.second),
            duration(record.mean_seconds),
            duration(record.max_seconds),
            "-" if depth is None else f"{depth:.1f}",
        )
    return grid


def wld(side: SideRecord) -> str:
    """``3-1-0``: wins, losses, draws."""
    return f"{side.wins}-{side.losses}-{side.draws}"
