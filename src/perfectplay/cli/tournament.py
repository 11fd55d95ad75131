"""``perfectplay tournament``: a round robin (or gauntlet) of our engine and outside bots,
refereed and sandboxed, with standings, crosstable, Elo and a report (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import Parser, decimal, whole
from perfectplay.cli.output import EXIT_OK, EXIT_USAGE, print_json
from perfectplay.errors import ParameterError

if TYPE_CHECKING:
    from perfectplay.web.tournaments import StoreSink

EPILOG = """\
examples:
  perfectplay tournament simplexity engine:depth=2 level:casual course:bots/ours.py@ours \\
      course:bots/theirs:TheirBot --rounds 2 --time 3 --workers 2 --out results
  perfectplay tournament tictactoe engine:time=0.5 gomocup:./pbrain-tiny --size 9x9 --k 5 \\
      --gauntlet --time 1 --out gauntlet
  perfectplay tournament connect4 engine:depth=4 line:./mybot.py --rounds 4 --time 1
  perfectplay tournament connect4 engine:depth=4 random --workers 2 --executor ray
  perfectplay tournament simplexity ... --out results --resume     finish a killed run

players: engine[:eval=NAME,depth=N,time=S], random[:seed=N], level:NAME (beginner, casual,
club, strong), course:PATH[:CLASS] (a course bot: a Python file or package folder with a
class that has find(state, n_player, thinking_time); shape-and-color only),
gomocup:PATH (a Gomocup brain: tictactoe/gomoku boards), line:PATH (our line protocol:
docs/tournaments.md); each may end in @NAME. Outside bots run sandboxed: their own
process, CPU, memory and process limits, no network, read-only files but a folder of
their own. A move may take --time plus --margin seconds of wall clock.
Every pairing plays each round's opening twice, each player first once.
The run and every game are saved in the web app's database (--db, default where
`perfectplay serve` keeps it; --no-db: not at all): its Tournaments page shows them."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "a refereed, sandboxed round robin of engines and outside bots"
    sub = options.add_verb(commands, "tournament", summary, EPILOG, run)
    sub.add_argument("players", nargs="+", metavar="PLAYER", help="player specs (see below)")
    sub.add_argument("--rounds", type=whole, default=1, metavar="N", help="rounds (default 1)")
    sub.add_argument("--time", type=decimal, default=1.0, metavar="S", help="seconds a move")
    sub.add_argument(
        "--margin", type=decimal, metavar="S", help="seconds added before a time forfeit (0.5)"
    )
    sub.add_argument("--openings", metavar="FILE", help="one opening position a line")
    sub.add_argument("--seed", type=whole, default=0, help="seed of openings and our players")
    sub.add_argument("--workers", type=whole, default=1, metavar="N", help="games in parallel")
    options.add_executor(sub, workers=False)
    sub.add_argument("--out", metavar="DIR", help="write games.jsonl, standings.json, report.md")
    sub.add_argument("--resume", action="store_true", help="finish the tournament in --out")
    sub.add_argument("--gauntlet", action="store_true", help="the first player against the rest")
    sub.add_argument("--memory", type=whole, metavar="MB", help="a bot's address space (512)")
    sub.add_argument("--json", action="store_true", help="print standings.json's document")
    sub.add_argument(
        "--db", metavar="PATH", help="save the run and its games in this web app's database"
    )
    sub.add_argument("--no-db", action="store_true", help="save nothing in the web's database")
    options.add_size(sub)


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print its report (or its standings as JSON)."""
    from perfectplay import api

    api.check_executor(args.executor, args.workers, args.address)
    settings = api.tournament_settings(
        args.game,
        size=args.size,
        k=args.k,
        move_time=args.time,
        margin=args.margin,
        rounds=args.rounds,
        seed=args.seed,
        gauntlet=args.gauntlet,
        memory_mb=args.memory,
    )
    players = api.tournament_players(settings, args.players)
    openings = api.tournament_openings(settings, args.openings, args.rounds)
    if args.no_db and args.db is not None:
        raise ParameterError("--db with --no-db: choose one")
    sink = None if args.no_db else store_sink(args.db)
    show = sys.stderr.isatty()

    def progress(done: int, total: int, record: dict[str, Any]) -> None:
        if show:
            sys.stderr.write(f"\rgame {done}/{total}")
            sys.stderr.flush()

    result = api.tournament(
        settings,
        players,
        openings,
        workers=args.workers,
        executor=args.executor,
        address=args.address,
        out=args.out,
        resume=args.resume,
        progress=progress,
        sink=sink,
    )
    if show:
        sys.stderr.write("\n")
    if args.json:
        print_json(result.standings_json())
    else:
        sys.stdout.write(api.tournament_report(result))
    return EXIT_OK


def store_sink(db: str | None) -> StoreSink:
    """The web app's store at ``db`` (``None``: where ``perfectplay serve`` keeps it) as the
    tournament's sink; ParameterError naming a file that cannot be used."""
    from perfectplay.cli.serve import database
    from perfectplay.web.store import GameStore
    from perfectplay.web.tournaments import StoreSink

    return StoreSink(GameStore(database(db)))


def main(argv: Sequence[str] | None = None) -> int:
    """This verb alone, as ``perfectplay tournament`` runs it (exit 2 for bad input): for
    tests and for ``python -m perfectplay.cli.tournament`` before the verb is registered."""
    from perfectplay.errors import PerfectplayError

    parser = Parser(prog="perfectplay")
    commands = parser.add_subparsers(dest="command", required=True)
    add(commands)
    try:
        args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.handler(args))
    except PerfectplayError as exc:
        sys.stderr.write(f"perfectplay: error: {exc}\n")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
