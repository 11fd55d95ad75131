"""``perfectplay play``: a person against the engine in the terminal (or the engine against
itself with ``--self``).

Moves are read with :func:`input` in the game's own notation (``b3``, ``4``, ``4O``);
``hint`` shows the engine's choice, ``help`` the commands, ``quit`` or the end of input
abandons the game (status 0). The engine thinks for the game's default time unless
``--depth``/``--time`` say otherwise.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import whole
from perfectplay.cli.output import EXIT_OK, console, say, show_board
from perfectplay.cli.warm import compile_first

if TYPE_CHECKING:
    from rich.console import Console

    from perfectplay.api import GameKit, Limit, Loaded, RegisteredGame, Score

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "h", "?"})
PROMPT_COMMANDS = (
    "hint: show the engine's best move for you and its value\nquit (q): abandon the game"
)
"""The prompt's commands besides moves, the same in every game."""

EPILOG = """\
examples:
  perfectplay play tictactoe                          you are x on 3x3
  perfectplay play tictactoe --engine-first           the engine opens, you are o
  perfectplay play tictactoe --size 4x4 --k 3 --time 1
  perfectplay play tictactoe --self --seed 3          engine against engine
  perfectplay play connect4 --level casual            an engine a person can beat
  perfectplay play connect4                           you are player 1 (x) on 7x6
  perfectplay play connect4 --size 8x7 --engine-first --time 5
  perfectplay play simplexity --eval neighbors

during the game type a move in the game's notation: b3 (column letter, row number) or
'3 2' (row, column) in tic-tac-toe, a column number (1 at the left) in connect4, a column
and a shape (4O) in simplexity; 'hint' for the engine's suggestion, 'help', or 'quit'
(q). End of input also quits. The engine has 3 seconds a move by default: it plays
perfectly when it can solve the position in time. --level NAME plays a strength a person can
beat instead: a shallow look ahead and, now and then, a worse move (--seed repeats a game)."""


@dataclass
class Match:
    """One terminal game: the rules, the engine's settings and which sides it plays."""

    game: RegisteredGame
    kit: GameKit
    limit: Limit
    seed: int | None
    engine_sides: frozenset[int]
    console: Console
    level: str | None = None
    """A named strength (``--level``): the engine's moves come from it, not from ``limit``."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "play against the engine in the terminal"
    sub = options.add_verb(commands, "play", summary, EPILOG, run)
    options.add_size(sub)
    sub.add_argument("--engine-first", action="store_true", help="the engine plays first")
    options.add_limits(sub, exclusive=True, levels=True)
    sub.add_argument("--self", action="store_true", help="the engine plays both sides")
    sub.add_argument("--seed", type=whole, help="engine chooses randomly among equal moves")
    options.add_eval(sub)


def run(args: argparse.Namespace) -> int:
    """Play until the game ends or the person quits."""
    from perfectplay import api

    game = options.new_game(args)
    compile_first(args, game, None)
    game_kit = api.kit_of(game)
    engine = frozenset({1, 2}) if args.self else frozenset({1 if args.engine_first else 2})
    bound = options.limit(args, per_move=True)
    if bound.unlimited:  # perfect play where it is fast, a bounded wait elsewhere
        bound = api.limit(time=game_kit.policy.play_time)
    if args.level is not None:
        api.level_named(args.level)  # an unknown name is refused before the game starts
    match = Match(game, game_kit, bound, args.seed, engine, console(), args.level)
    say(match.console, intro(match))
    loaded = api.start(game)
    while game.outcome(loaded.position) is None:
        player = int(game.to_move(loaded.position))
        if player in match.engine_sides:
            loaded = engine_turn(match, loaded, player)
        else:
            show_board(match.console, game, loaded.position)
            following = person_turn(match, loaded, player)
            if following is None:
                return EXIT_OK
            loaded = following
    show_board(match.console, game, loaded.position)
    say(match.console, result_text(match, loaded.position))
    return EXIT_OK


def intro(match: Match) -> str:
    """Who plays what, the board size and how to enter moves."""
    game, game_kit = match.game, match.kit
    label = f"{game_kit.name} {game_kit.label(game)}".rstrip()
    if len(match.engine_sides) == 2:
        return f"{label}: the engine plays both sides"
    engine = next(iter(match.engine_sides))
    you = 3 - engine
    strength = "" if match.level is None else f" (level {match.level})"
    return (
        f"{label}: you are {game_kit.side_label(game, you)}, the engine is "
        f"{game_kit.side_label(game, engine)}{strength}. Enter {game_kit.move_entry(game)}; "
        "also hint, help, quit."
    )


def value_words(score: Score) -> str:
    """``win in 13``, ``draw``, ``loss in 4`` or ``heuristic +12``."""
    if score.outcome is None:
        return f"heuristic {score.value:+g}"
    return str(score)


def engine_turn(match: Match, loaded: Loaded, player: int) -> Loaded:
    """Search, announce (``engine plays b2 (draw)``) and play the engine's move."""
    from perfectplay import api

    who = match.kit.side_label(match.game, player) if len(match.engine_sides) == 2 else "engine"
    if match.level is not None:
        seed = None if match.seed is None else match.seed + len(loaded.moves or ())  # per ply
        chosen = api.level_move(match.game, loaded.position, match.level, seed=seed)
        move = match.kit.move_text(match.game, chosen.move)
        say(match.console, f"{who} plays {move} ({match.level})")
        return api.play(loaded, chosen.move)
    result = api.best(match.game, loaded.position, match.limit, seed=match.seed)
    move = match.kit.move_text(match.game, result.best_move)
    say(match.console, f"{who} plays {move} ({value_words(result.score)})")
    return api.play(loaded, result.best_move)


def person_turn(match: Match, loaded: Loaded, player: int) -> Loaded | None:
    """Ask until a legal move is entered; the new position, or ``None`` on quit/end of input."""
    from perfectplay import api
    from perfectplay.errors import PerfectplayError

    name = match.kit.side_label(match.game, player)
    while True:
        try:
            text = input(f"{name} to move> ")
        except EOFError:
            say(match.console, "\nend of input: game abandoned")
            return None
        word = text.strip().lower()
        if not word:
            continue
        if word in QUIT_WORDS:
            say(match.console, "game abandoned")
            return None
        if word in HELP_WORDS or word == "hint":
            say(match.console, hint(match, loaded) if word == "hint" else help_text(match))
            continue
        try:
            move = api.parse_move(loaded, text)
        except PerfectplayError as exc:
            say(match.console, f"illegal: {exc}; try again")
            continue
        try:
            following = api.play(loaded, move)
        except PerfectplayError as exc:
            typed = match.kit.move_text(match.game, move)
            named = str(exc) if typed in str(exc) else f"{typed} — {exc}"  # name the move once
            say(match.console, f"illegal: {named}; try again")
            continue
        say(match.console, f"you play {match.kit.move_text(match.game, move)}")
        return following


def hint(match: Match, loaded: Loaded) -> str:
    """``hint: b2 (draw)``: the engine's best move for the person and its value."""
    from perfectplay import api

    result = api.best(match.game, loaded.position, match.limit, seed=match.seed)
    return (
        f"hint: {match.kit.move_text(match.game, result.best_move)} ({value_words(result.score)})"
    )


def help_text(match: Match) -> str:
    """The commands understood at the prompt."""
    return match.kit.move_help(match.game) + "\n" + PROMPT_COMMANDS


def result_text(match: Match, position: object) -> str:
    """``result: draw — the board is full`` or ``result: x wins (you win) — x has 3 in a row``."""
    outcome = match.game.outcome(position)
    assert outcome is not None
    if outcome.winner is None:
        return f"result: draw — {outcome.reason}"
    winner = int(outcome.winner)
    who = ""
    if len(match.engine_sides) == 1:
        who = " (the engine wins)" if winner in match.engine_sides else " (you win)"
    return f"result: {match.kit.side_label(match.game, winner)} wins{who} — {outcome.reason}"
