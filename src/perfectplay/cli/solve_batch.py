"""Batch mode of ``solve`` (BOARD ``-``): every line of stdin solved on one engine.

Each input line is ``position`` or ``position score`` (trailing whitespace ignored; an empty
line is the initial position, and a space followed by a score is the initial position with
that expected score, which is how its output line reads). The output repeats the position
in the game's notation with the computed score (the game's conventional score; weak: -1,
0, 1), one flushed line per input line. One engine (kernel and table) serves the whole
batch, its table emptied before each position. An expected score that differs (with
``--weak``: in sign) is still answered with the computed score, reported on stderr and
counted; a summary line closes the batch on stderr when any line had an expected score.
Mismatches leave the exit status 0. A bad line stops the batch: the lines before it have
been answered, the error names the line and the problem, status 2. When stderr is a terminal,
a position solved for more than a moment shows the status line of single solves there
(:mod:`perfectplay.cli.progress`), removed before its answer is written.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from perfectplay.cli import options
from perfectplay.cli.output import EXIT_OK, PROG, mean_time, stderr
from perfectplay.cli.progress import StatusLine, callback, note, status_line
from perfectplay.cli.warm import compile_first

if TYPE_CHECKING:
    from perfectplay.api import Loaded


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One parsed input line: the position as written back, the position, the expected
    score."""

    text: str
    loaded: Loaded
    expected: int | None


@dataclass(slots=True)
class BatchTally:
    """What the summary line reports."""

    positions: int = 0
    checked: int = 0
    mismatches: int = 0
    nodes: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """``20 positions, 0 mismatches, mean 51.2 µs, 51 nodes``."""
        count = max(1, self.positions)
        text = (
            f"{self.positions} position{'' if self.positions == 1 else 's'}, "
            f"{self.mismatches} mismatch{'' if self.mismatches == 1 else 'es'}, "
            f"mean {mean_time(self.seconds / count)}, {round(self.nodes / count):,} nodes"
        )
        if self.checked < self.positions:
            text += f" ({self.checked} with expected scores)"
        return text


def run(args: argparse.Namespace) -> int:
    """Solve every line of stdin (see the module docstring)."""
    from perfectplay import api, contract
    from perfectplay.errors import ParameterError

    if args.json or args.depth is not None or args.time is not None:
        raise ParameterError(
            "BOARD '-' (batch mode) writes 'position score' lines of exact solves; "
            "it takes no --json, --depth or --time"
        )
    game = options.new_game(args)
    compile_first(args, game, None, options.kernel_options(args))
    engine = api.Engine(game, options.kernel_options(args))
    tally = BatchTally()
    with status_line(sys.stderr.isatty()) as status:
        for number, text in enumerate(sys.stdin, start=1):
            line = parse_line(args, text, number)
            if status is not None:
                status.label = f"line {number}"
            engine.clear()
            result = engine.solve(  # the score alone is written: no line sought
                line.loaded.position, weak=args.weak, line=False, on_progress=callback(status)
            )
            data = contract.result_json(game, line.loaded.position, result)
            score = data["score"]
            assert isinstance(score, int)
            if status is not None:
                status.stop()  # gone before the answer, which may share its terminal
            sys.stdout.write(f"{line.text} {score}\n")
            sys.stdout.flush()
            count(tally, status, number, line.expected, (score, result.nodes, result.time), args)
    if tally.checked:
        stderr(f"{PROG}: {tally.summary()}")
    return EXIT_OK


def count(
    tally: BatchTally,
    status: StatusLine | None,
    number: int,
    expected: int | None,
    solved: tuple[int, int, float],
    args: argparse.Namespace,
) -> None:
    """Count one answered line; report a mismatch with its expected score on stderr."""
    score, nodes, seconds = solved
    tally.positions += 1
    tally.nodes += nodes
    tally.seconds += seconds
    if expected is None:
        return
    tally.checked += 1
    wanted = ((expected > 0) - (expected < 0)) if args.weak else expected
    if wanted != score:
        tally.mismatches += 1
        kind = "weak score" if args.weak else "score"
        note(status, f"{PROG}: line {number}: expected {kind} {expected}, computed {score}")


def parse_line(args: argparse.Namespace, text: str, number: int) -> BatchLine:
    """The position and expected score of input line ``number``; errors start ``line N:``."""
    from perfectplay import api

    line = api.scored_line(args.game, text, number, size=args.size, k=args.k)
    return BatchLine(api.position_text(line.loaded), line.loaded, line.expected)
