"""What every verb prints: consoles, JSON, boards, durations, values in words.

Text goes through rich consoles (plain text when the stream is not a terminal); ``--json``
output goes straight to stdout, one document, nothing else. rich and the api are imported
inside the functions, so that importing a verb module stays cheap.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from perfectplay.api import RegisteredGame, SearchResult
    from perfectplay.contract import JSONObject

PROG = "perfectplay"
EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def stderr(message: str) -> None:
    """Write one line to stderr, unformatted."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so that the exit flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def console(on_stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr); plain text when it is not a terminal."""
    from rich.console import Console

    return Console(stderr=on_stderr, highlight=False, soft_wrap=True)


def say(out: Console, text: str) -> None:
    """Print ``text`` literally (no markup, so boards and user input print as they are)."""
    out.print(text, markup=False, highlight=False)


def print_json(data: JSONObject) -> None:
    """The only thing ``--json`` writes to stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")
    sys.stdout.flush()


def show_board(out: Console, game: RegisteredGame, position: object) -> None:
    """The board as the game draws it (coloured on a terminal), then the game's notes
    (the pieces left, say)."""
    from rich.text import Text

    from perfectplay import api

    out.print(Text.from_ansi(api.render(game, position, color=out.is_terminal)), soft_wrap=True)
    for note in api.kit_of(game).notes(game, position):
        say(out, note)


def cell_mark(piece: JSONObject | None) -> str:
    """A cell of a game's board view in one character or so: its ``mark`` (``x``) where the
    game gives one, else its player (``1``); ``.`` when empty."""
    if piece is None:
        return "."
    return str(piece.get("mark") or piece["player"])


def side(game: RegisteredGame, position: object) -> str:
    """The side to move as the game names it in sentences (``x``, ``player 1 (x)``)."""
    from perfectplay import api

    return api.kit_of(game).side_label(game, int(game.to_move(position)))


def game_over(game: RegisteredGame, position: object) -> str:
    """``game over: x has 3 in a row`` or ``game over: the board is full (draw)``."""
    outcome = game.outcome(position)
    assert outcome is not None
    return f"game over: {outcome.reason}" + (" (draw)" if outcome.winner is None else "")


def duration(seconds: float) -> str:
    """``0.4 ms`` or ``1.25 s``."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def mean_time(seconds: float) -> str:
    """``51.2 µs``, ``10.2 ms`` or ``1.25 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return duration(seconds)


def search_line(result: SearchResult[Any]) -> str:
    """``searched 9 nodes in 0.4 ms, depth 3, exact``."""
    plural = "" if result.nodes == 1 else "s"
    return (
        f"searched {result.nodes:,} node{plural} in {duration(result.time)}, "
        f"depth {result.depth}, {score_kind(result)}"
    )


def score_kind(result: SearchResult[Any]) -> str:
    """``weak``, ``exact``, ``proved, distance a bound`` (a win or loss proved by threats on a
    big board: it comes within the plies said) or ``heuristic``."""
    score = result.score
    if score.weak:
        return "weak"
    if score.exact:
        return "exact"
    return "proved, distance a bound" if score.bounded else "heuristic"


def value_text(game: RegisteredGame, data: JSONObject) -> str:
    """A value in words from its JSON fields: ``win in 1 (score 10)``, ``loss in 4 (score
    -15; the opponent wins with its 7th stone)``, ``draw (score 0)``, ``win (weak solve)``,
    ``win in at most 7 (score 4)`` (proved, not exact: the distance is a bound) or
    ``heuristic score +12 (not proven)``."""
    from perfectplay import api

    outcome, score = data["outcome"], data["score"]
    if data.get("weak"):
        return f"{outcome} (weak solve, score {score})"
    if outcome in ("win", "loss"):
        assert isinstance(score, int)
        if data.get("exact") is False:  # proved, the distance an upper bound
            return f"{outcome} in at most {data['plies']} (score {score})"
        ending = api.kit_of(game).ending(game, outcome == "win", score)
        return f"{outcome} in {data['plies']} (score {score}" + (f"; {ending})" if ending else ")")
    if outcome == "draw":
        return "draw (score 0)"
    assert isinstance(score, int | float)
    return f"heuristic score {score:+g} (not proven)"


def line_text(game: RegisteredGame, position: object, moves: Sequence[object]) -> str:
    """A line of moves: in the game's move-list notation (``324``, ``4O 4X``), which can be
    pasted as a position; for games written as boards, ``x b2, o a1, x c3``."""
    from perfectplay import api

    game_kit = api.kit_of(game)
    if not game_kit.board_notation:
        return game_kit.moves_text(game, moves) or "(none)"
    parts = []
    for move in moves:
        parts.append(f"{game.player_name(game.to_move(position))} {game_kit.move_text(game, move)}")
        position = game.play(position, move)
    return ", ".join(parts) if parts else "(none)"


def rank(item: JSONObject) -> tuple[int, float]:
    """The order of analysis rows: proven wins, then draws and heuristic values, then losses
    (a heuristic value never outranks a proven win)."""
    tier = {"win": 2, "loss": 0}.get(str(item["outcome"]), 1)
    score = item["score"]
    assert isinstance(score, int | float)
    return tier, float(score)
