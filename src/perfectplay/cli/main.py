"""The entry point: the parser of every verb, and exit statuses for every outcome.

``main`` only builds the parser, parses, calls the verb's handler and turns exceptions into
exit statuses (see :mod:`perfectplay.cli`); each verb is one module with ``add(commands)``
and ``run(args)``, imported when its parser is declared: a command line naming a verb first
declares (and imports) that verb alone.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from perfectplay.cli.options import Parser
from perfectplay.cli.output import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    silence_stdout,
    stderr,
)

Handler = Callable[[argparse.Namespace], int]
VERBS = (
    "best",
    "solve",
    "analyze",
    "play",
    "perft",
    "book",
    "batch",
    "arena",
    "tournament",
    "history",
    "tree",
    "gomocup",
    "serve",
    "warm",
)
"""The verbs, in the order ``--help`` lists them: each the name of its module in
:mod:`perfectplay.cli`."""

EPILOG = """\
examples:
  perfectplay best tictactoe 'xox/oox/___'
  perfectplay solve ttt '___/_x_/___' --json
  perfectplay analyze tictactoe 'xo_/_x_/__o'
  perfectplay play tictactoe --size 4x4 --k 3 --time 1
  perfectplay perft tictactoe --size 3x3
  perfectplay solve connect4 4455
  perfectplay solve connect4 - --weak < positions.txt
  perfectplay batch connect4 positions.txt --out scores.jsonl --workers 2
  perfectplay play connect4
  perfectplay best simplexity '4O 4X 3O' --time 2
  perfectplay play simplexity
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors,depth=3 --games 10
  perfectplay history tictactoe 'xo_/_x_/o_x'
  perfectplay tree tictactoe 'xox/oox/___' --alphabeta --svg tree.svg
  perfectplay warm                       compile every engine now (else on first use)

games: tictactoe (ttt, mnk, tic-tac-toe), connect4 (c4, connect-four), the
shape-and-color Connect Four simplexity (shapecolor, shape-color, sc), and any game
installed as a plug-in (entry-point group perfectplay.games).
tic-tac-toe boards are rows from top to bottom separated by '/', cells x, o and _
(or . -), or a JSON matrix of 1 (x), -1 (o) and 0: '[[1,-1,1],[-1,-1,1],[0,0,0]]'.
connect4 positions are the 1-based columns played from the empty board ('4453';
'10,3,4' on boards wider than 9; '' for the empty board) on a --size WIDTHxHEIGHT
board (default 7x6), or a picture of rows from the top: '......./......./...x...'.
simplexity positions are the moves played, 1-based column and shape ('4O 4X 3O' or
'4O4X3O'; '' for the empty board) on a --size WIDTHxHEIGHT board (default 7x6).
--size is WIDTHxHEIGHT (columns x rows) in every game: 7x6 is 7 wide and 6 high.
exit status: 0 ok, 2 bad input, 130 interrupted, 1 internal error."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; each verb's parser stores its handler as ``handler``. When
    ``argv`` starts with a verb, only that verb is declared (the others' modules are not
    imported: what they would add is never read); otherwise every verb is (the list of
    ``--help``, the choices of a usage error)."""
    parser = Parser(
        prog=PROG,
        description="Play and solve two-player perfect-information board games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    named = [argv[0]] if argv and argv[0] in VERBS else VERBS
    for verb in named:
        import_module(f"perfectplay.cli.{verb}").add(commands)
    return parser


class VersionAction(argparse.Action):
    """``--version``: print the installed version and exit (read only when asked: reading
    the installed packages' metadata takes tens of milliseconds)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(
            option_strings,
            argparse.SUPPRESS,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show the version and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"{PROG} {version()}")
        parser.exit()


def version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("perfectplay")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (``sys.argv[1:]`` by default); the exit status.

    Never raises (except with ``PERFECTPLAY_DEBUG=1`` for unexpected errors): usage errors
    and ``--help`` are turned into their status, input errors print one line on stderr.
    """
    started = time.perf_counter()  # --time counts from here: parsing and loading included
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exc:  # --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    args.started = started
    return run(args.handler, args)


def run(handler: Handler, args: argparse.Namespace) -> int:
    """Call ``handler`` and map every exception to an exit status."""
    from perfectplay.errors import PerfectplayError

    try:
        return handler(args)
    except PerfectplayError as exc:
        stderr(f"{PROG}: error: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        stderr(f"\n{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `perfectplay perft ... | head`
        silence_stdout()
        return EXIT_OK
    except Exception as exc:
        if os.environ.get("PERFECTPLAY_DEBUG") == "1":
            raise
        stderr(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(set PERFECTPLAY_DEBUG=1 to see the traceback)"
        )
        return EXIT_INTERNAL
