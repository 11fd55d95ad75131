"""The options the verbs share: how they are declared, and the one place they are checked
against the game's kit.

Each option a game may not offer names the capability it needs (:data:`REQUIRES`); a verb
checks the options it was given with :func:`check`, so ``--weak`` on a game without a weak
solver is a one-line error naming the option and the game, whatever the game is. Sizes and
``k`` are checked by the api against the kit's size rule.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from perfectplay.api import GameKit, KernelOptions, Limit, Loaded, RegisteredGame

SIZE_HELP = "board size AxB in the game's order (tictactoe ROWSxCOLS, connect4 WIDTHxHEIGHT)"
GAME_HELP = "the game: tictactoe (ttt, mnk), connect4 (c4), simplexity (sc) or a plug-in game"

REQUIRES = {
    "weak": ("--weak", "WEAK"),
    "book": ("--book", "BOOK"),
    "no_book": ("--no-book", "BOOK"),
    "eval": ("--eval", "EVALUATIONS"),
}
"""Options that only some games offer: the option's name and the capability it needs."""


def add_verb(
    commands: Any, name: str, summary: str, epilog: str, handler: Any
) -> argparse.ArgumentParser:
    """A verb's parser, with the GAME argument and an examples epilog, bound to ``handler``."""
    sub: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=handler)
    sub.add_argument("game", metavar="GAME", help=GAME_HELP)
    return sub


def add_size(sub: argparse.ArgumentParser, board: bool = False) -> None:
    """``--size`` and ``--k`` (with ``board``: they must agree with a board given)."""
    sub.add_argument(
        "--size", metavar="AxB", help=SIZE_HELP + ("; must agree with a board" if board else "")
    )
    sub.add_argument("--k", type=int, help="stones in a row to win (default: the game's)")


def add_board(sub: argparse.ArgumentParser) -> None:
    """BOARD, --size, --k, --json and the solver's options, shared by best, solve, analyze."""
    sub.add_argument(
        "board", metavar="BOARD", help="the position in the game's notation ('' to start)"
    )
    add_size(sub, board=True)
    sub.add_argument("--json", action="store_true", help="print the result as JSON")
    add_solver(sub)


def add_solver(sub: argparse.ArgumentParser) -> None:
    """``--table-bits``, ``--book``/``--no-book`` and ``--eval``."""
    sub.add_argument("--table-bits", type=int, metavar="N", help="2**N transposition-table slots")
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


def add_limits(sub: argparse.ArgumentParser, exclusive: bool) -> None:
    """--depth and --time; mutually exclusive when ``exclusive``. Neither: solve exactly."""
    group: Any = sub.add_mutually_exclusive_group() if exclusive else sub
    group.add_argument("--depth", type=int, metavar="N", help="search N plies (heuristic below)")
    group.add_argument("--time", type=float, metavar="S", help="iterative deepening for S seconds")


# -- checking and loading -------------------------------------------------------------------------
def kit(args: argparse.Namespace) -> GameKit:
    """The kit of GAME; checks every option given against its capabilities (see
    :data:`REQUIRES`). Raises :class:`~perfectplay.errors.UnknownGameError` or
    :class:`~perfectplay.errors.ParameterError` naming the option and the game."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    game_kit = api.kit(args.game)
    for field, (option, capability) in REQUIRES.items():
        value = getattr(args, field, None)
        if value and not game_kit.has(api.Capability[capability]):
            shown = option if value is True else f"{option} {value}"
            raise ParameterError(f"{shown}: {game_kit.name} does not offer it")
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
    if getattr(args, "weak", False) and (args.depth is not None or args.time is not None):
        raise ParameterError("--weak: the weak solve is exact; it takes no --depth or --time")
    loaded = api.load_with_moves(args.game, args.board, size=args.size, k=args.k)
    game = api.with_evaluation(loaded.game, getattr(args, "eval", None))
    return api.Loaded(game, loaded.position, loaded.moves)


def new_game(args: argparse.Namespace) -> RegisteredGame:
    """The game of ``GAME [--size] [--k]``, searched with ``--eval``."""
    from perfectplay import api

    kit(args)
    game, _ = api.new_game(args.game, size=args.size, k=args.k)
    return api.with_evaluation(game, getattr(args, "eval", None))


def limit(args: argparse.Namespace) -> Limit:
    """The checked limit of ``--depth``/``--time`` (an exact solve when neither)."""
    from perfectplay import api

    return api.limit(depth=args.depth, time=args.time)


def exact_or_refused(args: argparse.Namespace, game: RegisteredGame, position: object) -> Limit:
    """The limit of ``--depth``/``--time``; without either an exact solve, refused up front
    (naming the options that bound it) where the game's policy says the position is too far
    from its end."""
    from perfectplay import api
    from perfectplay.errors import ParameterError

    bound = limit(args)
    most = api.kit_of(game).policy.exact_plies
    left = game.plies_left_bound(position)
    if bound.unlimited and most is not None and left > most:
        raise ParameterError(
            f"{args.command} {api.kit_of(game).name}: {left} plies left are too many to solve "
            f"exactly (at most {most}); give --time S to search S seconds (exact when the "
            "search reaches the end), --depth N, or a smaller --size"
        )
    return bound


def timed_or_exact(args: argparse.Namespace, game: RegisteredGame, position: object) -> Limit:
    """The limit of ``--depth``/``--time``; without either an exact solve where the game's
    policy allows one, else the game's thinking time."""
    from perfectplay import api

    bound = limit(args)
    policy = api.kit_of(game).policy
    far = policy.exact_plies is not None and game.plies_left_bound(position) > policy.exact_plies
    return api.limit(time=policy.play_time) if bound.unlimited and far else bound


def kernel_options(args: argparse.Namespace) -> KernelOptions:
    """The kernel options of ``--book``, ``--no-book`` and ``--table-bits``."""
    from perfectplay import api

    return api.kernel_options(
        book=not getattr(args, "no_book", False),
        book_path=getattr(args, "book", None),
        table_bits=getattr(args, "table_bits", None),
    )
