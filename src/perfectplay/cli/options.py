"""The options the verbs share: how they are declared, and the one place they are checked
against the game's kit.

Each option a game may not offer declares what the game's kit must say for it to apply
(:data:`OPTION_REQUIREMENTS`: ``--weak`` needs ``Capability.WEAK``, ``--size`` a size rule,
``--k`` a game that takes k), and so does each verb that only some games offer (``history``
needs ``Capability.HISTORY``: :func:`add_verb`'s ``requires``). :func:`kit` checks them all,
positively, before anything else is read, so ``--weak`` on a game without a weak solver is a
one-line error naming the option and the game, whatever the game is.

Every verb's namespace holds every option of :data:`UNSET` (its default when the verb does
not take it), so the helpers read ``args.weak`` or ``args.eval`` whatever the verb.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from perfectplay.api import Estimate, GameKit, KernelOptions, Limit, Loaded, RegisteredGame

SIZE_HELP = (
    "board size WIDTHxHEIGHT, columns x rows, in every game (7x6: 7 wide, 6 high); "
    "one number for a square board"
)
GAME_HELP = "the game: tictactoe (ttt, mnk), connect4 (c4), simplexity (sc) or a plug-in game"

Offered = Callable[["GameKit"], bool]
"""Whether a game's kit offers an option or a verb."""

UNSET: tuple[tuple[str, object], ...] = (
    ("size", None),
    ("k", None),
    ("depth", None),
    ("time", None),
    ("weak", False),
    ("book", None),
    ("no_book", False),
    ("eval", None),
    ("table_bits", None),
)
"""The options some verbs take, with their value in a verb that does not take them."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are cut in the middle as every error message is
    (argparse echoes an argument whole: a 4,301-digit value made a 4,400-character line)."""

    def error(self, message: str) -> NoReturn:
        from perfectplay.errors import shorten

        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {shorten(message)}\n")


WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
"""A whole number in an option: ASCII digits only, as the notation takes them (Python's
``int`` also takes other scripts' digits and underscores)."""
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
"""A number of seconds in an option: ASCII digits, a point and an exponent only."""
MAX_OPTION_DIGITS = 18
"""The most characters a number in an option has (every option's range is far below)."""


def _number_text(text: str, pattern: re.Pattern[str], kind: str) -> str:
    from perfectplay.errors import quote

    if not pattern.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{quote(text)}: expected {kind} in digits 0-9")
    if len(text) > MAX_OPTION_DIGITS:
        raise argparse.ArgumentTypeError(
            f"{quote(text)}: too long, {MAX_OPTION_DIGITS} characters at most"
        )
    return text


def whole(text: str) -> int:
    """argparse's type of whole-number options: ASCII digits only."""
    return int(_number_text(text, WHOLE, "a whole number"))


def decimal(text: str) -> float:
    """argparse's type of options in seconds: ASCII digits, a point and an exponent only."""
    return float(_number_text(text, DECIMAL, "a number"))


def capability(name: str) -> Offered:
    """The kit declares ``Capability.<name>`` (the api, and with it the capabilities, is
    imported only when a kit is checked)."""

    def offered(game_kit: GameKit) -> bool:
        """Whether ``game_kit`` declares the capability."""
        from perfectplay import api

        return game_kit.has(api.Capability[name])

    return offered


def sized(game_kit: GameKit) -> bool:
    """The game takes ``--size`` (its kit has a size rule)."""
    return game_kit.size is not None


def takes_k(game_kit: GameKit) -> bool:
    """The game takes ``--k``."""
    return game_kit.takes_k


@dataclass(frozen=True, slots=True)
class Requirement:
    """An option that only some games offer: its namespace field, how it is written, what
    the kit must say for it to apply, and how a game without it is refused."""

    field: str
    option: str
    offered: Offered
    refusal: str = "does not offer it"


OPTION_REQUIREMENTS = (
    Requirement("weak", "--weak", capability("WEAK")),
    Requirement("book", "--book", capability("BOOK")),
    Requirement("no_book", "--no-book", capability("BOOK")),
    Requirement("eval", "--eval", capability("EVALUATIONS")),
    Requirement("size", "--size", sized, "takes no board size"),
    Requirement("k", "--k", takes_k, "takes no k"),
)
"""The options only some games offer, checked by :func:`kit` in this order."""


def add_verb(
    commands: Any,
    name: str,
    summary: str,
    epilog: str,
    handler: Any,
    requires: Offered | None = None,
    game_help: str = GAME_HELP,
) -> argparse.ArgumentParser:
    """A verb's parser, with the GAME argument (``game_help`` its help: the games the verb
    plays) and an examples epilog, bound to ``handler``; ``requires``: what the game's kit
    must offer for the verb to apply (checked by :func:`kit`)."""
    sub: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=handler, requires=requires, **dict(UNSET))
    sub.add_argument("game", metavar="GAME", help=game_help)
    return sub


def add_size(sub: argparse.ArgumentParser, board: bool = False) -> None:
    """``--size`` and ``--k`` (with ``board``: they must agree with a board given)."""
    sub.add_argument(
        "--size", metavar="WxH", help=SIZE_HELP + ("; must agree with a board" if board else "")
    )
    sub.add_argument(
        "--k",
        type=whole,
        help="stones in a row to win (default: the game's; m,n,k boards: the shorter side, "
        "5 from 15 columns on, as in Gomoku)",
    )


def add_board(sub: argparse.ArgumentParser) -> None:
    """BOARD, --size, --k, --json and the solver's options, shared by best, solve, analyze."""
    sub.add_argument(
        "board", metavar="BOARD", help="the position in the game's notation ('' to start)"
    )
    add_size(sub, board=True)
    sub.add_argument("--json", action="store_true", help="print the result as JSON")
    add_solver(sub)
    sub.add_argument(
        "--threads",
        type=whole,
        default=1,
        metavar="N",
        help="search on N threads sharing the table (connect4's exact solver; default 1)",
    )


def add_solver(sub: argparse.ArgumentParser) -> None:
    """``--table-bits``, ``--book``/``--no-book`` and ``--eval`` (one search thread, unless
    the verb adds ``--threads``)."""
    sub.set_defaults(threads=1)
    sub.add_argument(
        "--table-bits",
        type=whole,
        metavar="N",
        help="2**N transposition-table slots, 10 to 30 (8 bytes a slot in connect4, whose "
        "default 24 takes 128 MiB; 24 bytes in the others); refused beyond 75%% of the memory",
    )
    books = sub.add_mutually_exclusive_group()
    books.add_argument("--book", metavar="FILE", help="consult an opening book built by 'book'")
    books.add_argument(
        "--no-book", action="store_true", help="search without the opening book shipped"
    )
    add_eval(sub)


def add_eval(sub: argparse.ArgumentParser) -> None:
    """``--eval NAME``: the heuristic at the search horizon (games with named heuristics)."""
    sub.add_argument("--eval", metavar="NAME", help="the heuristic at the horizon (simplexity)")


def add_weak(sub: argparse.ArgumentParser) -> None:
    """``--weak``: win, draw or loss only (games with a weak solver)."""
    sub.add_argument("--weak", action="store_true", help="win/draw/loss only (score 1, 0, -1)")


def add_executor(sub: argparse.ArgumentParser, workers: bool = True) -> None:
    """``--executor``, ``--workers`` (unless ``workers`` is off: a verb with its own) and
    ``--address``: where a batch job's workers run."""
    sub.add_argument(
        "--executor",
        default="local",
        metavar="local|ray",
        help="local: a process pool on this machine (default); ray: Ray actors",
    )
    if workers:
        sub.add_argument(
            "--workers",
            type=whole,
            metavar="N",
            help="worker processes (default: a core each here, a CPU each on a Ray cluster)",
        )
    sub.add_argument(
        "--address",
        metavar="ADDR",
        help="a Ray cluster's HOST:PORT or ray://HOST:PORT (default: a local Ray instance, "
        "started and stopped by the command)",
    )


def check_executor(args: argparse.Namespace) -> None:
    """Check ``--executor``, ``--workers`` and ``--address`` together."""
    from perfectplay import api

    api.check_executor(args.executor, args.workers, args.address)


def add_limits(sub: argparse.ArgumentParser, exclusive: bool, levels: bool = False) -> None:
    """--depth and --time (and --level NAME when ``levels``); mutually exclusive when
    ``exclusive``. None of them: solve exactly."""
    group: Any = sub.add_mutually_exclusive_group() if exclusive else sub
    group.add_argument("--depth", type=whole, metavar="N", help="search N plies (heuristic below)")
    group.add_argument(
        "--time",
        type=decimal,
        metavar="S",
        help="iterative deepening for S seconds (counted after the engine's first compile, "
        "if one is needed)",
    )
    if levels:
        from perfectplay.api import LEVELS

        group.add_argument(
            "--level",
            metavar="NAME",
            help="a strength a person can beat, weakest first: "
            + ", ".join(f"{level.name} ({level.summary})" for level in LEVELS),
        )


# -- checking and loading -------------------------------------------------------------------------
def kit(args: argparse.Namespace) -> GameKit:
    """The kit of GAME, checked against the verb's and the options' requirements (see the
    module docstring). Raises :class:`~perfectplay.errors.UnknownGameError`, or
    :class:`~perfectplay.errors.ParameterError` naming the verb or the option, and the game."""
    from perfectplay import api
    from perfectplay.errors import ParameterError, plain

    game_kit = api.kit(args.game)
    if args.requires is not None and not args.requires(game_kit):
        raise ParameterError(f"{args.command} {args.game}: {game_kit.name} does not offer it")
    given = vars(args)
    for requirement in OPTION_REQUIREMENTS:
        value = given[requirement.field]
        if value is not None and value is not False and not requirement.offered(game_kit):
            shown = requirement.option if value is True else f"{requirement.option} {plain(value)}"
            raise ParameterError(f"{shown}: {game_kit.name} {requirement.refusal}")
    return game_kit


def load(args: argparse.Namespace) -> Loaded:
    """The checked position of ``GAME BOARD [--size] [--k]``, searched with ``--eval``."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    kit(args)
    if args.board == "-":
        raise ParameterError(
            f"BOARD '-' (positions from stdin): batch mode is solve's, not {args.command}'s"
        )
    if args.weak and (args.depth is not None or args.time is not None):
        raise ParameterError("--weak: the weak solve is exact; it takes no --depth or --time")
    loaded = api.load_with_moves(args.game, args.board, size=args.size, k=args.k)
    game = api.with_evaluation(loaded.game, args.eval)
    return api.Loaded(game, loaded.position, loaded.moves)


def new_game(args: argparse.Namespace) -> RegisteredGame:
    """The game of ``GAME [--size] [--k]``, searched with ``--eval``."""
    from perfectplay import api

    kit(args)
    game, _ = api.new_game(args.game, size=args.size, k=args.k)
    return api.with_evaluation(game, args.eval)


def limit(args: argparse.Namespace, per_move: bool = False) -> Limit:
    """The checked limit of ``--depth``/``--time`` (an exact solve when neither). The time
    counts from the command's start, loading included, except ``per_move`` (each move of a
    game gets it whole)."""
    from perfectplay import api

    started = None if per_move else args.started
    return api.limit(depth=args.depth, time=args.time, started=started)


def bounds_text(args: argparse.Namespace, game: RegisteredGame) -> tuple[str, str]:
    """The job's name (``solve connect4``) and the options that bound it, for refusals."""
    from perfectplay import api

    game_kit = api.kit_of(game)
    ways = "--depth N or a smaller --size" if sized(game_kit) else "or --depth N"
    bounds = "give --time S (exact if the search reaches the end), " + ways
    return f"{args.command} {game_kit.name}", bounds


def exact_or_trial(
    args: argparse.Namespace, game: RegisteredGame, position: object, *, every_move: bool = False
) -> tuple[Limit, bool]:
    """The limit of ``--depth``/``--time``, and whether it is a trial: without either, an
    exact solve where the game's policy says it ends in reasonable time
    (:mod:`perfectplay.analysis.reach`: the opening book counts), else a trial of a few
    seconds whose answer :func:`check_trial` accepts only when exact. ``every_move``: the
    job values every move (the positions one move on must be within reach)."""
    from perfectplay import api

    bound = limit(args)
    if not bound.unlimited:
        return bound, False
    trial = api.trial_limit(game, position, kernel_options(args), every_move=every_move)
    return (bound, False) if trial is None else (trial, True)


def check_trial(
    args: argparse.Namespace,
    game: RegisteredGame,
    position: object,
    exact: bool,
    *,
    every_move: bool = False,
    estimate: Estimate | None = None,
) -> None:
    """Refuse the answer of a trial (:func:`exact_or_trial`) that is not exact, with the
    trial's ``estimate`` of the solve's cost when it made one."""
    from perfectplay import api

    job, bounds = bounds_text(args, game)
    options = kernel_options(args)
    api.check_tried(
        game, position, job, bounds, exact, options, every_move=every_move, estimate=estimate
    )


def timed_or_exact(args: argparse.Namespace, game: RegisteredGame, position: object) -> Limit:
    """The limit of ``--depth``/``--time``; without either an exact solve where the game's
    policy allows one (as for :func:`exact_or_trial`), else the game's thinking time."""
    from perfectplay import api

    bound = limit(args)
    if not bound.unlimited:
        return bound
    reach = api.reach(game, kernel_options(args))
    if reach.covers(game.plies_left_bound(position)):
        return bound
    return api.limit(time=api.kit_of(game).policy.play_time)


def kernel_options(args: argparse.Namespace) -> KernelOptions:
    """The kernel options of ``--book``, ``--no-book``, ``--table-bits`` and ``--threads``."""
    from perfectplay import api

    return api.kernel_options(
        book=not args.no_book,
        book_path=args.book,
        table_bits=args.table_bits,
        threads=args.threads,
    )
