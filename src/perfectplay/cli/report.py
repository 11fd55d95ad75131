"""How ``best`` and ``solve`` print a result: JSON through the contract, or the board, the
verdict, the principal variation and the search figures."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from perfectplay.cli.output import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    console,
    game_over,
    line_text,
    print_json,
    say,
    search_line,
    show_board,
    side,
    stderr,
    value_text,
)
from perfectplay.cli.progress import StatusLine, rate

if TYPE_CHECKING:
    from perfectplay.api import Loaded, Score, SearchResult


def report(
    args: argparse.Namespace, loaded: Loaded, result: SearchResult[Any], with_pv: bool
) -> int:
    """Print ``result`` for the position of ``loaded`` (``with_pv``: the whole line)."""
    from perfectplay import api, contract

    game, position = loaded.game, loaded.position
    data = contract.result_json(game, position, result)
    if args.json:
        print_json(data)
        return EXIT_OK
    out = console()
    show_board(out, game, position)
    if game.outcome(position) is not None:
        say(out, game_over(game, position))
        return EXIT_OK
    if result.best_move is None:  # a weak solve: the value only
        say(out, f"{side(game, position)} to move: {value_text(game, data)}")
    else:
        move = api.kit_of(game).move_label(game, result.best_move)
        say(out, f"{side(game, position)} to move: best move {move} — {value_text(game, data)}")
        if with_pv:
            say(out, "principal variation: " + line_text(game, position, result.pv))
    say(out, search_line(result))
    over_time_note(args, result)
    return EXIT_OK


OVERSHOOT = 0.05
"""A timed search ending later than ``--time`` by more than this fraction (and 50 ms) is
explained on stderr."""


def over_time_note(args: argparse.Namespace, result: SearchResult[Any]) -> None:
    """Say why a search took longer than ``--time``: the limit counts from the command's
    start, and loading the compiled engine (once per process) took longer, or the first
    depth, which most engines complete whatever the limit (the big-board one keeps it)."""
    if args.time is None or result.time <= args.time + max(OVERSHOOT * args.time, 0.05):
        return
    stderr(
        f"note: answered after {result.time:.2f} s, over --time {args.time:g}: loading the "
        "compiled engine (once per process) or the search's first depth took longer"
    )


class BestSoFar:
    """The ``on_iteration`` callback of a timed search: keeps the last completed iteration,
    so that an interrupted search can still say what it found, and shows it on ``status``
    (when given) with the nodes, their rate and the time left of ``seconds_limit``."""

    def __init__(
        self,
        loaded: Loaded | None = None,
        status: StatusLine | None = None,
        seconds_limit: float | None = None,
    ) -> None:
        self.found: tuple[int, Score, Any, int, float] | None = None
        self.loaded, self.status, self.seconds_limit = loaded, status, seconds_limit

    def __call__(self, depth: int, score: Score, move: Any, nodes: int, seconds: float) -> None:
        self.found = (depth, score, move, nodes, seconds)
        if self.status is None or self.loaded is None or move is None:
            return
        from perfectplay import api

        game = self.loaded.game
        label = api.kit_of(game).move_text(game, move)
        left = "" if self.seconds_limit is None else f", {self.seconds_limit - seconds:.1f} s left"
        self.status.show(
            f"depth {depth + 1}; so far {label} {score}; {nodes:,} nodes"
            f"{rate(nodes, seconds)}{left}",
            seconds,
        )


def interrupted(loaded: Loaded, so_far: BestSoFar) -> int:
    """After Ctrl-C: the best move of the last completed iteration, if any, on stderr;
    the exit status of an interrupted command."""
    from perfectplay import api

    if so_far.found is None:
        stderr("perfectplay: interrupted before any depth was completed")
        return EXIT_INTERRUPTED
    depth, score, move, nodes, seconds = so_far.found
    label = api.kit_of(loaded.game).move_label(loaded.game, move)
    stderr(
        f"perfectplay: interrupted; best so far: {label} ({score}, depth {depth}, "
        f"{nodes:,} nodes in {seconds:.2f} s)"
    )
    return EXIT_INTERRUPTED
