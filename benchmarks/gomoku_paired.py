"""Paired Gomoku matches read back: an arm against its control, game by game (issue 26).

    python benchmarks/gomoku_paired.py benchmarks/data/gomoku_s19_records.txt --arm s19-triples-
    python benchmarks/gomoku_paired.py benchmarks/data/gomoku_s1[78]_records.txt \\
        --arm s17-se6- --arm s18-se6- --gain 4

A paired run is two ``bench_gomoku_peers.py`` matches started together on the same openings
file, one with the setting under test (the *arm*, ``--name RUN``) and one without (its
*control*, ``--name RUN-ctl``): both meet the same opponent in the same minutes, so the
machine's load falls on both. One pair, from the benchmarks folder (an arm of another
checkout runs that checkout's ``bench_gomoku_peers.py`` with its ``src`` first on
``PYTHONPATH``)::

    R="--engine /tmp/i26_rapfi/build/pbrain-rapfi --nodes 50000 --openings data/gomoku_openings.txt"
    python bench_gomoku_peers.py $R --records data/RECORDS --name s19-triples-r1 --values triples &
    python bench_gomoku_peers.py $R --records data/RECORDS --name s19-triples-r1-ctl &
    wait

This reads the records of every run whose name starts with an ``--arm`` prefix, pairs each arm
game with its control's game of the same run, opening and colour, and prints for each side its
score (by colour), then the pairs: how many the arm did better, worse or the same, the mean
paired difference in points with its standard error, and a sequential probability ratio test
(the normal approximation of a generalized SPRT, as chess engines' test farms use) of "the arm
gains nothing" against "the arm gains ``--gain`` points": its log-likelihood ratio and the
bounds that stop the test at error rates ``--alpha`` and ``--beta``. Runs can be fed pair by
pair and the test read after each: "continue" means neither bound is reached yet.

A record whose run has no control (or the reverse) is counted on its side but not paired.
Exits 2 with one line when a records file cannot be read, a record line is malformed, or
no run matches.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NoReturn

from bench_gomoku_peers import RESULT_POINTS

CONTROL_SUFFIX = "-ctl"


class RecordError(ValueError):
    """A record line that is not one of ``bench_gomoku_peers.py``'s."""


@dataclass(frozen=True)
class Game:
    """One game of a run: which run, whether it is the control's, and its key and result."""

    run: str
    control: bool
    opening: str
    colour: str
    points: float


@dataclass
class Side:
    """The points of one side (arm or control), by colour."""

    points: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    games: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, game: Game) -> None:
        """Count one game."""
        self.points[game.colour] += game.points
        self.games[game.colour] += 1

    def line(self, name: str) -> str:
        """``arm: 80.5/216 = 37.3 %  black 60/108  white 20.5/108``."""
        total, count = sum(self.points.values()), sum(self.games.values())
        share = 100 * total / count if count else 0.0
        colours = "  ".join(
            f"{colour} {self.points[colour]:g}/{self.games[colour]}"
            for colour in ("black", "white")
        )
        return f"{name}: {total:g}/{count} = {share:.1f} %  {colours}"


def parse(line: str) -> Game:
    """A record line with a run's name first (``NAME | date | vs ... | perfectplay COLOUR |
    RESULT (reason) | opening ... | moves ...``). Raises :class:`RecordError`."""
    fields = [part.strip() for part in line.split("|")]
    if len(fields) < 7 or not fields[3].startswith("perfectplay "):
        raise RecordError(f"not a named game record: {line[:60]!r}")
    result = fields[4].split()[0] if fields[4] else ""
    if result not in RESULT_POINTS:
        raise RecordError(f"unknown result {result!r} in {line[:60]!r}")
    name = fields[0]
    control = name.endswith(CONTROL_SUFFIX)
    return Game(
        run=name[: -len(CONTROL_SUFFIX)] if control else name,
        control=control,
        opening=fields[5],
        colour=fields[3].split()[1],
        points=RESULT_POINTS[result],
    )


def matching_games(path: str, prefixes: list[str]) -> list[Game]:
    """The games of ``path`` whose run starts with one of ``prefixes`` (unnamed lines
    skipped). Raises :class:`OSError` or :class:`RecordError`."""
    games = []
    with open(path) as records:
        for number, line in enumerate(records, 1):
            if not any(line.startswith(prefix) for prefix in prefixes):
                continue
            try:
                games.append(parse(line))
            except RecordError as error:
                raise RecordError(f"{path}:{number}: {error}") from None
    return games


def paired_differences(games: list[Game]) -> list[float]:
    """Arm minus control, for every run, opening and colour both sides played (a key played
    twice by one side keeps its last game: a run's name is meant to be unique)."""
    keyed: dict[tuple[str, str, str], dict[bool, float]] = defaultdict(dict)
    for game in games:
        keyed[game.run, game.opening, game.colour][game.control] = game.points
    return [sides[False] - sides[True] for sides in keyed.values() if len(sides) == 2]


def mean_and_variance(differences: list[float]) -> tuple[float, float]:
    """The mean and the sample variance of at least two differences."""
    mean = sum(differences) / len(differences)
    return mean, sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)


def llr(differences: list[float], gain: float) -> float:
    """The log-likelihood ratio of a mean paired difference of ``gain`` against 0, the
    differences taken as normal with their sample variance (0 with fewer than two pairs or
    no spread)."""
    if len(differences) < 2:
        return 0.0
    _, variance = mean_and_variance(differences)
    if variance == 0:
        return 0.0
    return gain * (sum(differences) - len(differences) * gain / 2) / variance


def summary(differences: list[float], args: argparse.Namespace) -> list[str]:
    """The paired lines: better/worse/same, the mean difference and the test."""
    count = len(differences)
    better = sum(d > 0 for d in differences)
    worse = sum(d < 0 for d in differences)
    lines = [f"pairs: {count}, arm better {better}, worse {worse}, same {count - better - worse}"]
    if count < 2:
        return lines
    mean, variance = mean_and_variance(differences)
    error = 100 * math.sqrt(variance / count)
    lines.append(f"paired difference: {100 * mean:+.1f} points (standard error {error:.1f})")
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    ratio = llr(differences, args.gain / 100)
    verdict = "gain (H1)" if ratio >= upper else "no gain (H0)" if ratio <= lower else "continue"
    lines.append(
        f"SPRT 0 against {args.gain:+g} points: LLR {ratio:.2f} in [{lower:.2f}, {upper:.2f}]: "
        f"{verdict}"
    )
    return lines


def fail(message: str) -> NoReturn:
    """One line on stderr, exit 2."""
    print(f"gomoku_paired: {message}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="bench_gomoku_peers.py records files")
    parser.add_argument(
        "--arm", action="append", required=True, help="a run name prefix, repeatable"
    )
    parser.add_argument("--gain", type=float, default=5.0, help="H1's gain in points (5)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args()
    if not (0 < args.alpha < 1 and 0 < args.beta < 1) or args.gain <= 0:
        parser.error("--alpha and --beta lie strictly between 0 and 1, --gain above 0")
    try:
        games = [game for path in args.records for game in matching_games(path, args.arm)]
    except (OSError, RecordError) as error:
        fail(str(error))
    if not games:
        fail(f"no run in {', '.join(args.records)} starts with {', '.join(args.arm)}")
    arm, control = Side(), Side()
    for game in games:
        (control if game.control else arm).add(game)
    print(arm.line("arm"))
    print(control.line("control"))
    print("\n".join(summary(paired_differences(games), args)))


if __name__ == "__main__":
    main()
