"""The ``perfectplay`` command line: best move, solve, analyze, play and perft.

Games: tic-tac-toe (m,n,k boards) here, Connect Four in :mod:`perfectplay.cli_connect4`
(its handlers are called from here once the game name resolves to ``connect4``).

Contracts shared by every subcommand:

* ``--json`` prints exactly one JSON document on stdout (the shapes of :mod:`perfectplay.api`)
  and nothing else; text output goes through rich (plain when stdout is not a terminal).
* Exit status: 0 on success, 2 on bad input (any :class:`~perfectplay.errors.PerfectplayError`
  or an argparse usage error, the message on stderr as ``perfectplay: error: ...``), 130 on
  Ctrl-C, 1 on an unexpected internal error (no traceback unless ``PERFECTPLAY_DEBUG=1``).
* Starting is cheap: this module imports only the standard library at top level; the search
  (numba, numpy) and rich are imported inside the command handlers.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from perfectplay.search.limits import Limit
    from perfectplay.search.result import Score, SearchResult

PROG = "perfectplay"
EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "h", "?"})

Handler = Callable[[argparse.Namespace], int]

MAIN_EPILOG = """\
examples:
  perfectplay best tictactoe 'xox/oox/___'
  perfectplay solve ttt '___/_x_/___' --json
  perfectplay analyze tictactoe 'xo_/_x_/__o'
  perfectplay play tictactoe --size 4x4 --k 3 --time 1
  perfectplay perft tictactoe --size 3x3
  perfectplay solve connect4 4455
  perfectplay solve connect4 - --weak < positions.txt
  perfectplay play connect4
  perfectplay best simplexity '4O 4X 3O' --time 2
  perfectplay play simplexity
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors,depth=3 --games 10
  perfectplay history tictactoe 'xo_/_x_/o_x'
  perfectplay tree tictactoe 'xox/oox/___' --alphabeta --svg tree.svg

games: tictactoe (ttt, mnk, tic-tac-toe), connect4 (c4, connect-four) and the
shape-and-color Connect Four simplexity (shapecolor, shape-color, sc).
tic-tac-toe boards are rows from top to bottom separated by '/', cells x, o and _
(or . -), or a JSON matrix of 1 (x), -1 (o) and 0: '[[1,-1,1],[-1,-1,1],[0,0,0]]'.
connect4 positions are the 1-based columns played from the empty board ('4453';
'10,3,4' on boards wider than 9; '' for the empty board) on a --size WIDTHxHEIGHT
board (default 7x6), or a picture of rows from the top: '......./......./...x...'.
simplexity positions are the moves played, 1-based column and shape ('4O 4X 3O' or
'4O4X3O'; '' for the empty board) on a --size ROWSxCOLS board (default 6x7).
exit status: 0 ok, 2 bad input, 130 interrupted, 1 internal error."""

BEST_EPILOG = """\
examples:
  perfectplay best tictactoe 'xox/oox/___'            exact best move (c3, win in 1)
  perfectplay best tictactoe 'xox/oox/___' --json     the same as JSON
  perfectplay best tictactoe '____/____/____/____' --time 2
  perfectplay best tictactoe '___/___/___' --seed 7   random choice among equal moves
  perfectplay best tictactoe 'x____/_____/_____/_____/_____' --k 4 --depth 4
  perfectplay best connect4 4455                      column 3: win with the 4th stone
  perfectplay best connect4 '' --time 2               the empty 7x6 board, 2 s"""

SOLVE_EPILOG = """\
examples:
  perfectplay solve tictactoe '___/___/___'           the empty board is a draw
  perfectplay solve tictactoe 'x__/_o_/__x' --json
  perfectplay solve tictactoe '____/____/____/____' --k 3 --time 5
  perfectplay solve connect4 4455 --json              score 18 (standard Connect Four score)
  perfectplay solve connect4 44455554221 --weak       -1: player 2 to move loses
  perfectplay solve connect4 33434 --size 6x5        a move sequence on a 6x5 board
  perfectplay solve connect4 '....../....../....../..o.../..x...'   a picture (6x5)
  perfectplay solve connect4 - < Test_L3_R1           batch: 'moves [score]' lines

batch mode (BOARD '-', connect4): reads one position per line from stdin, 'moves' or
'moves score' (an empty line is the empty board; a line of a space and a score is the
empty board with that score), and writes 'moves score' for each, in order, flushed line
by line (with --weak the score is -1, 0 or 1, compared by sign with the expected one).
Mismatches with the expected scores are reported on stderr with a summary at the end;
they do not change the exit status. The first bad line stops the batch with exit 2.
connect4 scores: (cells + 1) // 2 + 1 - s when the side to move wins with its s-th
stone, 0 for a draw, negative when the opponent wins (7x6: 22 - s)."""

ANALYZE_EPILOG = """\
examples:
  perfectplay analyze tictactoe 'xox/oox/___'
  perfectplay analyze tictactoe 'x__/___/___' --json
  perfectplay analyze tictactoe '____/_x__/__o_/____' --k 3 --depth 6

in the board drawing each empty cell shows the value of playing there for the side
to move: W3 wins with the 3rd ply from now, L4 loses at the 4th ply, D draws,
+12 is a heuristic score (depth- or time-limited search).

  perfectplay analyze connect4 4455                   every column's standard score
  perfectplay analyze connect4 4455 --weak --json     win (1), draw (0) or loss (-1) only"""

PLAY_EPILOG = """\
examples:
  perfectplay play tictactoe                          you are x on 3x3
  perfectplay play tictactoe --engine-first           the engine opens, you are o
  perfectplay play tictactoe --size 4x4 --k 3 --time 1
  perfectplay play tictactoe --self --seed 3          engine against engine

  perfectplay play connect4                           you are player 1 (x) on 7x6
  perfectplay play connect4 --size 8x7 --engine-first --time 5

during the game type a move as b3 (column letter, row number) or '3 2' (row, column)
in tic-tac-toe, a column number (1 at the left) in connect4; 'hint' for the engine's
suggestion, 'help', or 'quit' (q). End of input also quits. The engine has 3 seconds a
move by default: it plays perfectly when it can solve the position in time."""

PERFT_EPILOG = """\
examples:
  perfectplay perft tictactoe                         the whole 3x3 game tree
  perfectplay perft tictactoe --json
  perfectplay perft tictactoe --size 4x4 --depth 5    the first 5 plies only
  perfectplay perft tictactoe --size 3x4 --k 3
  perfectplay perft connect4 --depth 8                7x6: 5,673,234 nodes at ply 8
  perfectplay perft connect4 --size 4x4               the whole 4x4 game tree

connect4 boards larger than 4x4 need --depth (their whole tree is far too large)."""


# -- argument parsing ------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The full argument parser; each subparser stores its handler as ``handler``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play and solve two-player perfect-information board games.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_best(commands)
    _add_solve(commands)
    _add_analyze(commands)
    _add_play(commands)
    _add_perft(commands)
    _add_book(commands)
    _add_arena(commands)
    _add_history(commands)
    _add_tree(commands)
    from perfectplay.cli_web import add_serve

    add_serve(commands, cmd_serve)
    return parser


def _subparser(
    commands: Any, name: str, summary: str, epilog: str, handler: Handler
) -> argparse.ArgumentParser:
    """A subcommand parser with an examples epilog, bound to ``handler``."""
    sub: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=summary,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=handler)
    sub.add_argument(
        "game",
        metavar="GAME",
        help="tictactoe (aliases ttt, mnk, tic-tac-toe), connect4 (c4, connect-four) or "
        "simplexity (shapecolor, shape-color, sc)",
    )
    return sub


SIZE_HELP = (
    "board size: tictactoe ROWSxCOLS (default 3x3), connect4 WIDTHxHEIGHT (default 7x6), "
    "simplexity ROWSxCOLS (default 6x7)"
)


def _add_board_options(sub: argparse.ArgumentParser) -> None:
    """BOARD, --size, --k and --json, shared by best, solve and analyze."""
    sub.add_argument(
        "board",
        metavar="BOARD",
        help="the position: a board such as 'xox/oox/___', or connect4 moves such as 4453",
    )
    sub.add_argument("--size", metavar="AxB", help=SIZE_HELP + "; must agree with a board")
    sub.add_argument(
        "--k", type=int, help="stones in a row to win (default: the smaller side; connect4 4)"
    )
    sub.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_solver_options(sub)


def _add_solver_options(sub: argparse.ArgumentParser) -> None:
    """--table-bits and --book (connect4's exact solver)."""
    sub.add_argument(
        "--table-bits",
        type=int,
        metavar="N",
        help="connect4: 2**N transposition-table slots of 16 bytes (default 23: 128 MiB)",
    )
    books = sub.add_mutually_exclusive_group()
    books.add_argument(
        "--book", metavar="FILE", help="connect4: consult an opening book built by 'book'"
    )
    books.add_argument(
        "--no-book",
        action="store_true",
        help="connect4: search without the opening book shipped for 7x6",
    )
    _add_evaluation(sub)


def _add_evaluation(sub: argparse.ArgumentParser) -> None:
    """--eval (simplexity): the heuristic at the search horizon."""
    sub.add_argument(
        "--eval",
        metavar="NAME",
        help="simplexity: the heuristic at the horizon, windows (default) or neighbors",
    )


def _add_weak(sub: argparse.ArgumentParser) -> None:
    """--weak (connect4): win, draw or loss only."""
    sub.add_argument(
        "--weak", action="store_true", help="connect4: win/draw/loss only (score 1, 0 or -1)"
    )


def _add_limits(sub: argparse.ArgumentParser, exclusive: bool) -> None:
    """--depth and --time; mutually exclusive when ``exclusive``. Neither: solve exactly."""
    group: Any = sub.add_mutually_exclusive_group() if exclusive else sub
    group.add_argument("--depth", type=int, metavar="N", help="search N plies (heuristic below)")
    group.add_argument("--time", type=float, metavar="S", help="iterative deepening for S seconds")


def _add_best(commands: Any) -> None:
    sub = _subparser(commands, "best", "the best move of a position", BEST_EPILOG, cmd_best)
    _add_board_options(sub)
    _add_limits(sub, exclusive=True)
    sub.add_argument("--seed", type=int, help="choose randomly (reproducibly) among equal moves")


def _add_solve(commands: Any) -> None:
    summary = "the value, best move and principal variation of a position"
    sub = _subparser(commands, "solve", summary, SOLVE_EPILOG, cmd_solve)
    _add_board_options(sub)
    _add_limits(sub, exclusive=False)
    _add_weak(sub)


def _add_analyze(commands: Any) -> None:
    summary = "the value of every legal move of a position"
    sub = _subparser(commands, "analyze", summary, ANALYZE_EPILOG, cmd_analyze)
    _add_board_options(sub)
    _add_limits(sub, exclusive=False)
    _add_weak(sub)


def _add_play(commands: Any) -> None:
    summary = "play against the engine in the terminal"
    sub = _subparser(commands, "play", summary, PLAY_EPILOG, cmd_play)
    sub.add_argument("--size", metavar="AxB", help=SIZE_HELP)
    sub.add_argument("--k", type=int, help="stones in a row to win (default: the smaller side)")
    sub.add_argument("--engine-first", action="store_true", help="the engine plays x and opens")
    _add_limits(sub, exclusive=True)
    sub.add_argument("--self", action="store_true", help="the engine plays both sides")
    sub.add_argument("--seed", type=int, help="engine chooses randomly among equal moves")
    _add_evaluation(sub)


BOOK_EPILOG = """examples:
  perfectplay book connect4 --size 6x5 --depth 4 --out c4-6x5.npz
  perfectplay solve connect4 '' --size 6x5 --book c4-6x5.npz

Solves every position with DEPTH stones (one of each mirror pair) and writes their exact
scores; a search that reaches that depth then reads the score instead of searching on."""


def _add_book(commands: Any) -> None:
    summary = "connect4: build an opening book of exact scores"
    sub = _subparser(commands, "book", summary, BOOK_EPILOG, cmd_book)
    sub.add_argument("--size", metavar="WxH", help="board size (default 7x6)")
    sub.add_argument("--k", type=int, help="stones in a row to win (default 4)")
    sub.add_argument("--depth", type=int, required=True, help="stones on the book's positions")
    sub.add_argument("--out", required=True, metavar="FILE", help="where to write the book")
    _add_solver_options(sub)


def cmd_book(args: argparse.Namespace) -> int:
    """``book``: an opening book (Connect Four only)."""
    from perfectplay.errors import ParameterError
    from perfectplay.games.registry import canonical_name

    if canonical_name(args.game) != "connect4":
        raise ParameterError(f"book {args.game}: opening books are for connect4")
    from perfectplay import cli_connect4

    return cli_connect4.cmd_book(args)


ARENA_EPILOG = """\
examples:
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors,depth=3 --games 40 --time 3
  perfectplay arena simplexity --p1 engine:time=0.5 --p2 random --games 10 --json
  perfectplay arena simplexity --p1 engine --p2 engine:eval=neighbors --games 20 --opening-plies 2

player specs: engine (the default evaluation, --time per move, 3 s without it), or
engine:eval=windows|neighbors,depth=N,time=S in any combination; random, random:seed=N.
An engine with a depth searches that deep (--time, when given, is then a hard cap); with
its own time it uses the smaller of that and --time. Game i has --p1 moving first when i
is even. With --opening-plies K both games of a pair start from the same K random plies."""


def _add_arena(commands: Any) -> None:
    summary = "simplexity: a match between two player specs, sides alternating"
    sub = _subparser(commands, "arena", summary, ARENA_EPILOG, cmd_arena)
    sub.add_argument("--p1", required=True, metavar="SPEC", help="player 1 (see below)")
    sub.add_argument("--p2", required=True, metavar="SPEC", help="player 2 (see below)")
    sub.add_argument("--games", type=int, required=True, metavar="N", help="games to play")
    sub.add_argument("--time", type=float, metavar="S", help="seconds per engine move")
    sub.add_argument("--size", metavar="RxC", help="board size ROWSxCOLS (default 6x7)")
    sub.add_argument("--seed", type=int, default=0, help="seed of random players and openings")
    sub.add_argument(
        "--opening-plies", type=int, default=0, metavar="K", help="random plies opening each pair"
    )
    sub.add_argument("--json", action="store_true", help="print the match as one JSON document")


def cmd_arena(args: argparse.Namespace) -> int:
    """``arena``: see :mod:`perfectplay.cli_simplexity` (the shape-and-color game only)."""
    from perfectplay.errors import ParameterError

    if not _is_simplexity(args):
        raise ParameterError(f"arena {args.game}: only simplexity has an arena so far")
    from perfectplay import cli_simplexity

    return cli_simplexity.cmd_arena(args)


def _add_perft(commands: Any) -> None:
    summary = "count the game tree (games, wins, draws, positions)"
    sub = _subparser(commands, "perft", summary, PERFT_EPILOG, cmd_perft)
    sub.add_argument("--size", metavar="AxB", help=SIZE_HELP)
    sub.add_argument("--k", type=int, help="stones in a row to win (default: the smaller side)")
    sub.add_argument("--depth", type=int, metavar="D", help="expand only the first D plies")
    sub.add_argument("--json", action="store_true", help="print the counts as JSON")


HISTORY_EPILOG = """\
examples:
  perfectplay history tictactoe 'xox/xoo/oxx'         a drawn board: 222 optimal histories
  perfectplay history tictactoe 'xo_/_x_/o_x' --json  no optimal history: move 4 lost
  perfectplay history tictactoe 'xo_/_x_/o_x' --strict   quickest wins, slowest losses too
  perfectplay history tictactoe 'xoox/ooox/oxxx/oxxo' --k 4
  perfectplay history connect4 '...../...../..x../.xoo.'   a 5x4 picture

A move is optimal when it keeps the mover's game-theoretic result (--outcome, the
default) or, with --strict, also the quickest win or the slowest loss. When no history
has only optimal moves, one with the fewest mistakes is shown, each mistake naming what
it threw away ('move 5 turned a draw into a loss')."""

TREE_EPILOG = """\
examples:
  perfectplay tree tictactoe 'xox/oox/___'            values -9, 0 and 10 for the 3 moves
  perfectplay tree tictactoe 'x__/_o_/___' --depth 1  exact values, tree cut after 1 ply
  perfectplay tree tictactoe 'xo_/_x_/___' --alphabeta   windows, cuts, nodes saved
  perfectplay tree tictactoe 'x__/_o_/___' --depth 2 --heuristic --alphabeta
  perfectplay tree tictactoe 'xox/oox/___' --svg tree.svg   a Graphviz picture
  perfectplay tree connect4 '....x/...oo/xo.xo/xxxoo' --dot tree.dot

Values are the root player's, depth-adjusted as in the classic tic-tac-toe article
(a win with the d-th ply from the root is 10 - (d - 1), a loss its negative, a draw 0;
connect4: the standard score). A bound reads '>= 3' or '<= -9'; the window is alpha-beta's
[alpha, beta] on entering a node. Moves are tried in the game's move order."""


def _add_history(commands: Any) -> None:
    summary = "rebuild a board's history: optimal move orders, or the fewest mistakes"
    sub = _subparser(commands, "history", summary, HISTORY_EPILOG, cmd_history)
    sub.add_argument("board", metavar="BOARD", help="the board (connect4: a picture)")
    notion = sub.add_mutually_exclusive_group()
    notion.add_argument(
        "--outcome", action="store_true", help="optimal keeps win/draw/loss (default)"
    )
    notion.add_argument("--strict", action="store_true", help="optimal also keeps the distance")
    sub.add_argument("--size", metavar="AxB", help=SIZE_HELP + "; must agree with a board")
    sub.add_argument("--k", type=int, help="stones in a row to win (default: the smaller side)")
    sub.add_argument("--json", action="store_true", help="print the result as JSON")


def _add_tree(commands: Any) -> None:
    summary = "the game tree with minimax values, or alpha-beta's windows and cuts"
    sub = _subparser(commands, "tree", summary, TREE_EPILOG, cmd_tree)
    sub.add_argument("board", metavar="BOARD", help="the position at the root")
    sub.add_argument("--depth", type=int, metavar="D", help="cut the tree D plies deep")
    sub.add_argument("--alphabeta", action="store_true", help="search it with alpha-beta")
    sub.add_argument(
        "--heuristic", action="store_true", help="value the cut by the evaluation, not exactly"
    )
    picture = sub.add_mutually_exclusive_group()
    picture.add_argument("--svg", metavar="FILE", help="draw the tree as SVG (Graphviz)")
    picture.add_argument("--dot", metavar="FILE", help="write the tree as Graphviz DOT source")
    sub.add_argument("--size", metavar="AxB", help=SIZE_HELP + "; must agree with a board")
    sub.add_argument("--k", type=int, help="stones in a row to win (default: the smaller side)")


def cmd_history(args: argparse.Namespace) -> int:
    """``history``: see :mod:`perfectplay.cli_analysis`."""
    from perfectplay import cli_analysis

    return cli_analysis.cmd_history(args)


def cmd_tree(args: argparse.Namespace) -> int:
    """``tree``: see :mod:`perfectplay.cli_analysis`."""
    from perfectplay import cli_analysis

    return cli_analysis.cmd_tree(args)


def cmd_serve(args: argparse.Namespace) -> int:
    """``serve``: see :mod:`perfectplay.cli_web`."""
    from perfectplay import cli_web

    return cli_web.cmd_serve(args)


# -- entry point -----------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (``sys.argv[1:]`` by default); return the exit status.

    Never raises (except with ``PERFECTPLAY_DEBUG=1`` for unexpected errors): usage errors and
    ``--help`` are turned into their status, input errors print one line on stderr.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    return _run(args.handler, args)


def _run(handler: Handler, args: argparse.Namespace) -> int:
    """Call ``handler`` and map every exception to an exit status (see the module docstring)."""
    from perfectplay.errors import PerfectplayError

    try:
        return handler(args)
    except PerfectplayError as exc:
        _stderr(f"{PROG}: error: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _stderr(f"\n{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `perfectplay perft ... | head`
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:
        if os.environ.get("PERFECTPLAY_DEBUG") == "1":
            raise
        _stderr(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(set PERFECTPLAY_DEBUG=1 to see the traceback)"
        )
        return EXIT_INTERNAL


def _stderr(message: str) -> None:
    """Write one line to stderr, unformatted."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so that the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


# -- shared helpers --------------------------------------------------------------------------
def _console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr); plain text when it is not a terminal."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _say(console: Console, text: str) -> None:
    """Print ``text`` literally (no markup, so boards and user input print as they are)."""
    console.print(text, markup=False, highlight=False)


def _print_json(data: Any) -> None:
    """The only thing ``--json`` writes to stdout."""
    import json

    sys.stdout.write(json.dumps(data, indent=2) + "\n")
    sys.stdout.flush()


def _limit(args: argparse.Namespace) -> Limit:
    """The checked search limit of ``--depth``/``--time`` (exact solve when neither)."""
    from perfectplay import api

    return api.limit(depth=args.depth, time=args.time)


def _load(args: argparse.Namespace) -> tuple[Any, Any]:
    """The game and validated position of ``GAME BOARD [--size AxB] [--k K]``."""
    from perfectplay import api

    return api.load(_game_name(args), args.board, size=args.size, k=args.k)


def _game_name(args: argparse.Namespace) -> str:
    """The registered name of ``GAME`` (:class:`UnknownGameError` naming the known games)."""
    from perfectplay.games.registry import canonical_name

    return canonical_name(args.game)


def _is_connect4(args: argparse.Namespace) -> bool:
    """Whether ``GAME`` is Connect Four (its handlers live in :mod:`perfectplay.cli_connect4`)."""
    return _game_name(args) == "connect4"


def _is_simplexity(args: argparse.Namespace) -> bool:
    """Whether ``GAME`` is the shape-and-color game (handlers in :mod:`.cli_simplexity`)."""
    return _game_name(args) == "simplexity"


def _check_tictactoe_options(args: argparse.Namespace) -> None:
    """Reject the options only Connect Four has (``--weak``, BOARD ``-``)."""
    from perfectplay.errors import ParameterError

    if getattr(args, "weak", False):
        raise ParameterError("--weak: only connect4 has a weak (win/draw/loss) solver")
    if args.board == "-":
        raise ParameterError("BOARD '-' (positions from stdin): only connect4 has batch mode")
    if args.eval is not None:
        raise ParameterError(f"--eval {args.eval}: only simplexity has named evaluations")
    for option, value in (("--book", args.book), ("--table-bits", args.table_bits)):
        if value is not None:
            raise ParameterError(f"{option}: only connect4's solver takes it")
    if args.no_book:
        raise ParameterError("--no-book: only connect4's solver takes it")


def _render(position: Any) -> str:
    """The board drawn with column letters and row numbers."""
    from perfectplay.notation import render_mnk_board

    return render_mnk_board(position)


def _cell_label(move: Any) -> str:
    """``b3``: the label the ``play`` prompt reads."""
    from perfectplay.notation import format_mnk_move

    return format_mnk_move(move)


def _move_label(move: Any) -> str:
    """``c3 (row 2, col 2)``: the prompt label and the 0-based JSON coordinates."""
    return f"{_cell_label(move)} (row {move[0]}, col {move[1]})"


def _value_text(data: dict[str, Any]) -> str:
    """``win in 1 (score 10)``, ``draw (score 0)`` or a heuristic value, from the JSON fields."""
    outcome = data["outcome"]
    if outcome in ("win", "loss"):
        return f"{outcome} in {data['plies']} (score {data['score']})"
    if outcome == "draw":
        return "draw (score 0)"
    return f"heuristic score {data['score']:+g} (not proven)"


def _short_value(data: dict[str, Any]) -> str:
    """``W1``, ``D``, ``L4`` or a heuristic ``+12``: the value drawn in a board cell."""
    outcome = data["outcome"]
    if outcome == "win":
        return f"W{data['plies']}"
    if outcome == "loss":
        return f"L{data['plies']}"
    if outcome == "draw":
        return "D"
    return f"{round(data['score']):+d}"


def _duration(seconds: float) -> str:
    """``0.4 ms`` or ``1.25 s``."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _search_line(result: SearchResult[Any]) -> str:
    """``searched 9 nodes in 0.4 ms, depth 3, exact``."""
    kind = "exact" if result.exact else "heuristic"
    return (
        f"searched {result.nodes:,} node{'' if result.nodes == 1 else 's'} in "
        f"{_duration(result.time)}, "
        f"depth {result.depth}, {kind}"
    )


def _summary(game: Any, position: Any, result: SearchResult[Any]) -> str:
    """``x to move: best move c3 (row 2, col 2) — win in 1 (score 10)`` (or the game's end)."""
    from perfectplay import api

    outcome = game.outcome(position)
    side = game.player_name(game.to_move(position))
    if outcome is not None or result.best_move is None:
        reason = game.describe_outcome(position)
        return f"game over: {reason}"
    data = api.result_json(game, position, result)
    return f"{side} to move: best move {_move_label(result.best_move)} — {_value_text(data)}"


# -- best / solve ----------------------------------------------------------------------------
def cmd_best(args: argparse.Namespace) -> int:
    """``best``: the best move (``api.result_json`` with ``--json``)."""
    from perfectplay import api

    if _is_connect4(args):
        from perfectplay import cli_connect4

        return cli_connect4.cmd_best(args)
    if _is_simplexity(args):
        from perfectplay import cli_simplexity

        return cli_simplexity.cmd_best(args)
    _check_tictactoe_options(args)
    game, position = _load(args)
    result = api.best(game, position, _limit(args), seed=args.seed)
    return _report(args, game, position, result, with_pv=False)


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve``: value, best move and principal variation (``api.result_json`` as JSON)."""
    from perfectplay import api

    if _is_connect4(args):
        from perfectplay import cli_connect4

        return cli_connect4.cmd_solve(args)
    if _is_simplexity(args):
        from perfectplay import cli_simplexity

        return cli_simplexity.cmd_solve(args)
    _check_tictactoe_options(args)
    game, position = _load(args)
    result = api.solve(game, position, _limit(args))
    return _report(args, game, position, result, with_pv=True)


def _report(
    args: argparse.Namespace, game: Any, position: Any, result: SearchResult[Any], with_pv: bool
) -> int:
    """Print a search result as JSON or as the board, the verdict and the search figures."""
    from perfectplay import api

    if args.json:
        _print_json(api.result_json(game, position, result))
        return EXIT_OK
    console = _console()
    _say(console, _render(position))
    _say(console, _summary(game, position, result))
    if result.best_move is not None:
        if with_pv:
            _say(console, "principal variation: " + _pv_text(game, position, result.pv))
        _say(console, _search_line(result))
    return EXIT_OK


def _pv_text(game: Any, position: Any, pv: Sequence[Any]) -> str:
    """``x b2, o a1, x c3``: the moves of the line with the side playing each."""
    parts = []
    for move in pv:
        parts.append(f"{game.player_name(game.to_move(position))} {_cell_label(move)}")
        position = game.play(position, move)
    return ", ".join(parts) if parts else "(none)"


# -- analyze ---------------------------------------------------------------------------------
def cmd_analyze(args: argparse.Namespace) -> int:
    """``analyze``: every legal move's value (``api.analysis_json`` with ``--json``)."""
    from perfectplay import api

    if _is_connect4(args):
        from perfectplay import cli_connect4

        return cli_connect4.cmd_analyze(args)
    if _is_simplexity(args):
        from perfectplay import cli_simplexity

        return cli_simplexity.cmd_analyze(args)
    _check_tictactoe_options(args)
    game, position = _load(args)
    values = api.analyze(game, position, _limit(args))
    data = api.analysis_json(game, position, values)
    if args.json:
        _print_json(data)
        return EXIT_OK
    console = _console()
    if not data["moves"]:
        _say(console, _render(position))
        _say(console, f"game over: {game.describe_outcome(position)}; no moves to analyze")
        return EXIT_OK
    side = game.player_name(game.to_move(position))
    console.print(_analysis_table(data["moves"], side))
    _say(console, _value_board(position, data["moves"]))
    return EXIT_OK


def _analysis_table(moves: list[dict[str, Any]], side: str) -> Any:
    """A rich table: move, outcome, plies, score, and a mark on the best moves."""
    from rich.table import Table

    top = max(item["score"] for item in moves)
    table = Table(title=f"{side} to move: {len(moves)} moves", title_justify="left")
    for name in ("move", "row, col", "outcome"):
        table.add_column(name)
    table.add_column("plies", justify="right")
    table.add_column("score", justify="right")
    table.add_column("")
    for item in moves:
        cell = (item["row"], item["col"])
        table.add_row(
            _cell_label(cell),
            f"{item['row']}, {item['col']}",
            item["outcome"] or "heuristic",
            "" if item["plies"] is None else str(item["plies"]),
            f"{item['score']:g}",
            "best" if item["score"] == top else "",
        )
    return table


def _value_board(position: Any, moves: list[dict[str, Any]]) -> str:
    """The board with each empty cell showing its value compactly (W1, D, L4, +12)."""
    from perfectplay.notation import column_letters, format_mnk_board

    labels = {(item["row"], item["col"]): _short_value(item) for item in moves}
    rows = format_mnk_board(position, empty=".").split("/")
    width = max(3, *(len(label) for label in labels.values()))
    cols = len(rows[0])
    lines = ["    " + " ".join(f"{letter:^{width + 2}}" for letter in column_letters(cols))]
    separator = "    " + "+".join(["-" * (width + 2)] * cols)
    for r, row in enumerate(rows):
        cells = [labels.get((r, c), row[c]) for c in range(cols)]
        lines.append(f"{r + 1:>2}  " + "|".join(f" {cell:^{width}} " for cell in cells))
        if r < len(rows) - 1:
            lines.append(separator)
    return "\n".join(line.rstrip() for line in lines)


# -- play ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayText:
    """How ``play`` shows and reads one game: its board, moves, sides and values.

    ``read(game, position, text)`` returns the move typed and the position after it, or raises
    a :class:`~perfectplay.errors.PerfectplayError` saying why the input is not a legal move.
    """

    show_board: Callable[[Console, Any], None]
    move: Callable[[Any], str]
    side: Callable[[str], str]
    value: Callable[[Score], str]
    read: Callable[[Any, Any, str], tuple[Any, Any]]
    entry: Callable[[Any], str]
    help: Callable[[Any], str]


@dataclass
class _Match:
    """One terminal game: the rules, the engine's settings and which sides it plays."""

    game: Any
    limit: Limit
    seed: int | None
    engine_sides: frozenset[str]
    console: Console
    text: PlayText


PLAY_DEFAULT_TIME = 3.0
"""Seconds per engine move in ``play`` without --depth/--time (exact whenever it can finish)."""


def cmd_play(args: argparse.Namespace) -> int:
    """``play``: a person against the engine (or the engine against itself with ``--self``).

    Reads moves with :func:`input`; ``quit`` or end of input abandons the game (status 0).
    """
    from perfectplay import api

    game, position = api.new_game(_game_name(args), size=args.size, k=args.k)
    game = api.with_evaluation(game, args.eval)
    first, second = _side_names(game)
    if args.self:
        engine = frozenset({first, second})
    else:
        engine = frozenset({first if args.engine_first else second})
    limit = _limit(args)
    if limit.unlimited:  # perfect play where it is fast, a bounded wait elsewhere
        limit = api.limit(time=PLAY_DEFAULT_TIME)
    match = _Match(game, limit, args.seed, engine, _console(), _play_text(game))
    _say(match.console, _intro(match, first, second))
    while game.outcome(position) is None:
        side = game.player_name(game.to_move(position))
        if side in match.engine_sides:
            position = _engine_turn(match, position, side)
        else:
            match.text.show_board(match.console, position)
            following = _person_turn(match, position, side)
            if following is None:
                return EXIT_OK
            position = following
    match.text.show_board(match.console, position)
    _say(match.console, _result_text(match, position))
    return EXIT_OK


def _play_text(game: Any) -> PlayText:
    """The :class:`PlayText` of ``game`` (Connect Four's from :mod:`perfectplay.cli_connect4`)."""
    if game.name == "connect4":
        from perfectplay import cli_connect4

        return cli_connect4.play_text()
    if game.name == "simplexity":
        from perfectplay import cli_simplexity

        return cli_simplexity.play_text()
    return PlayText(
        show_board=_show_mnk_board,
        move=_cell_label,
        side=str,
        value=str,
        read=_read_mnk_move,
        entry=lambda game: "a move such as b2 or '2 2'",
        help=_mnk_play_help,
    )


def _show_mnk_board(console: Console, position: Any) -> None:
    """Print the tic-tac-toe board with its column letters and row numbers."""
    _say(console, _render(position))


def _read_mnk_move(game: Any, position: Any, text: str) -> tuple[Any, Any]:
    """The cell typed (``b3`` or ``3 2``) and the position after it; errors name the cell."""
    from perfectplay.errors import PerfectplayError
    from perfectplay.notation import parse_mnk_move

    move = parse_mnk_move(game, text)
    try:
        return move, game.play(position, move)
    except PerfectplayError as exc:
        raise type(exc)(f"{_cell_label(move)} — {exc}") from None


def _side_names(game: Any) -> tuple[str, str]:
    """The names of the first and second player (``x``, ``o``; ``1``, ``2`` in Connect Four)."""
    from perfectplay.games.protocol import Player

    return game.player_name(Player.FIRST), game.player_name(Player.SECOND)


def _intro(match: _Match, first: str, second: str) -> str:
    """Who plays what, the board size and how to enter moves."""
    label = f"{match.game.name} {match.game.spec.label}"
    if len(match.engine_sides) == 2:
        return f"{label}: the engine plays both sides"
    you = second if first in match.engine_sides else first
    engine = first if you == second else second
    side = match.text.side
    return (
        f"{label}: you are {side(you)}, the engine is {side(engine)}. "
        f"Enter {match.text.entry(match.game)}; also hint, help, quit."
    )


def _engine_turn(match: _Match, position: Any, side: str) -> Any:
    """Search, announce (``engine plays b2 (draw)``) and play the engine's move."""
    result = _engine_search(match, position)
    who = match.text.side(side) if len(match.engine_sides) == 2 else "engine"
    move, value = match.text.move(result.best_move), match.text.value(result.score)
    _say(match.console, f"{who} plays {move} ({value})")
    return match.game.play(position, result.best_move)


def _engine_search(match: _Match, position: Any) -> SearchResult[Any]:
    """The engine's choice in ``position`` under the match's limit and seed."""
    from perfectplay import api

    return api.best(match.game, position, match.limit, seed=match.seed)


def _person_turn(match: _Match, position: Any, side: str) -> Any | None:
    """Ask until a legal move is entered; the new position, or ``None`` on quit/end of input."""
    from perfectplay.errors import PerfectplayError

    while True:
        try:
            text = input(f"{match.text.side(side)} to move> ")
        except EOFError:
            _say(match.console, "\nend of input: game abandoned")
            return None
        word = text.strip().lower()
        if not word:
            continue
        if word in QUIT_WORDS:
            _say(match.console, "game abandoned")
            return None
        if word in HELP_WORDS or word == "hint":
            _say(match.console, _hint(match, position) if word == "hint" else _play_help(match))
            continue
        try:
            move, following = match.text.read(match.game, position, text)
        except PerfectplayError as exc:
            _say(match.console, f"illegal: {exc}; try again")
            continue
        _say(match.console, f"you play {match.text.move(move)}")
        return following


def _hint(match: _Match, position: Any) -> str:
    """``hint: b2 (draw)``: the engine's best move for the person and its value."""
    result = _engine_search(match, position)
    return f"hint: {match.text.move(result.best_move)} ({match.text.value(result.score)})"


def _play_help(match: _Match) -> str:
    """The commands understood at the prompt."""
    return match.text.help(match.game)


PROMPT_COMMANDS = (
    "hint: show the engine's best move for you and its value\nquit (q): abandon the game"
)
"""The play prompt's commands besides moves, the same in every game."""


def _mnk_play_help(game: Any) -> str:
    """The tic-tac-toe prompt's commands."""
    from perfectplay.notation import column_letters

    spec = game.spec
    return (
        f"moves: a cell as column letter and row number (a1 .. "
        f"{column_letters(spec.cols)[-1]}{spec.rows}) or row and column from 1 ('2 3')\n"
        + PROMPT_COMMANDS
    )


def _result_text(match: _Match, position: Any) -> str:
    """``result: draw — the board is full`` or ``result: x wins (you win) — x has 3 in a row``."""
    outcome = match.game.outcome(position)
    if outcome.winner is None:
        return f"result: draw — {outcome.reason}"
    winner = match.game.player_name(outcome.winner)
    if len(match.engine_sides) == 2:
        who = ""
    else:
        who = " (the engine wins)" if winner in match.engine_sides else " (you win)"
    return f"result: {match.text.side(winner)} wins{who} — {outcome.reason}"


# -- perft -----------------------------------------------------------------------------------
PERFT_NAMES = {"connect4": (("first", "second"), ("player 1 (x)", "player 2 (o)"))}
"""JSON key prefixes and table labels of the winners, where they are not the player names."""
WHOLE_TREE_CELLS = {"connect4": 16}
"""Largest board (in cells) whose whole tree ``perft`` counts without --depth."""


def cmd_perft(args: argparse.Namespace) -> int:
    """``perft``: game-tree counts (``PerftCounts.as_dict`` with ``--json``; the winners are
    ``x_wins``/``o_wins`` in tic-tac-toe, ``first_wins``/``second_wins`` in Connect Four)."""
    from perfectplay import api
    from perfectplay.analysis.perft import perft

    game, _ = api.new_game(_game_name(args), size=args.size, k=args.k)
    if args.depth is not None:
        api.limit(depth=args.depth)  # the same range check as a search depth
    else:
        _check_whole_tree(game)
    with _perft_progress(game, args.depth) as progress:
        counts = perft(game, None, args.depth, progress)
    keys, labels = _perft_names(game)
    data = counts.as_dict(*keys)
    if args.json:
        _print_json(data)
        return EXIT_OK
    _console().print(_perft_table(game, data, keys, labels))
    return EXIT_OK


def _perft_names(game: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """The winners' JSON key prefixes and table labels (``x``/``o`` in tic-tac-toe)."""
    names = _side_names(game)
    return PERFT_NAMES.get(game.name, (names, names))


def _check_whole_tree(game: Any) -> None:
    """Refuse to count a whole tree that is far too large (Connect Four beyond 4x4)."""
    from perfectplay.errors import ParameterError

    limit = WHOLE_TREE_CELLS.get(game.name)
    if limit is not None and game.spec.cells > limit:
        raise ParameterError(
            f"perft {game.name} {game.spec.label}: the whole game tree is far too large to "
            "count; give --depth D (such as --depth 8)"
        )


@contextmanager
def _perft_progress(
    game: Any, depth: int | None
) -> Iterator[Callable[[int, int, int], None] | None]:
    """A perft progress callback drawing a rich progress bar on stderr, when it is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    levels = game.plies_left_bound(game.initial()) + 1
    if depth is not None:
        levels = min(levels, depth + 1)
    columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task("perft", total=levels)

        def update(level: int, positions: int, nodes: int) -> None:
            description = f"perft ply {level}: {positions:,} positions, {nodes:,} nodes"
            bar.update(task, completed=level + 1, description=description)

        yield update


def _perft_table(
    game: Any, data: dict[str, Any], keys: tuple[str, str], labels: tuple[str, str]
) -> Any:
    """The counts as a two-column rich table."""
    from rich.table import Table

    title = f"perft {game.name} {game.spec.label}"
    if not data["complete"]:
        title += " (depth-limited: unfinished positions remain)"
    table = Table(title=title, title_justify="left")
    table.add_column("count")
    table.add_column("value", justify="right")
    rows: list[tuple[str, int | None]] = [
        ("games", data["games"]),
        (f"{labels[0]} wins", data[f"{keys[0]}_wins"]),
        (f"{labels[1]} wins", data[f"{keys[1]}_wins"]),
        ("draws", data["draws"]),
        ("games by length", None),
    ]
    rows += [(f"  {n} plies", v) for n, v in data["games_by_length"].items()]
    rows += [
        ("nodes", data["nodes"]),
        (f"nodes at ply {len(data['nodes_by_depth']) - 1}", data["nodes_by_depth"][-1]),
        ("positions", data["positions"]),
        ("canonical positions", data["canonical_positions"]),
        ("terminal positions", data["terminal_positions"]),
    ]
    for name, value in rows:
        table.add_row(name, "" if value is None else f"{value:,}")
    return table


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
