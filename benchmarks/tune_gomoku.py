"""Tuning the big-board evaluation by self-play (issue 17, item 3): SPSA over the weights;
since issue 26 also over the pattern tables' values (``--patterns``).

    python benchmarks/tune_gomoku.py --iterations 60 --seed 2026      # the tuning run
    python benchmarks/tune_gomoku.py --verify 0,1,6,36,216,1296,216   # the tuned (default)
                                                                      # weights against these
    nice -n 10 python benchmarks/tune_gomoku.py --patterns --nodes 20000 --pairs 6 \
        --iterations 60 --seed 2626                                   # issue 26's run
    python benchmarks/tune_gomoku.py --verify 0,3,1,8,4,15,25,79,200,1000,1000,129,411,269,10,5 \
        --nodes 20000 --openings 91                                   # 16 pattern values

The weights are those of :func:`perfectplay.games.mnk.lines.evaluation_weights` for k = 5:
the open windows holding 1 to 5 stones and the tempo bonus (the empty window's 0 stays). The
search is over their logarithms, so a step scales a weight rather than adding to it.

SPSA (simultaneous perturbation stochastic approximation): each iteration perturbs every
log-weight by ``+c`` or ``-c`` at random, plays the two perturbed sets against each other on
fresh seeded openings, each opening with both colours, at a fixed depth (so that a game is a
function of the weights and the opening: the run is reproducible from its seed), and steps
along the perturbation in proportion to the score. The first player wins most games of
freestyle Gomoku, so most pairs of games split one-one; such a pair counts half a point for
the side whose win came sooner (it made more of x and held out longer with o). The engines
play through the public :func:`perfectplay.api.best` with the weights in their
:class:`~perfectplay.api.KernelOptions`, in this one process. Prints one line per iteration
and the tuned weights. Since issue 26 the engine evaluates k = 5 by its pattern tables
(``games/mnk/pattern_values.py``, fitted by ``fit_gomoku_eval.py``); explicit window weights
still evaluate by windows (the tables then order the moves), which is what this tunes.

``--patterns`` (issue 26) tunes the pattern values instead, from
:data:`~perfectplay.games.mnk.pattern_values.DEFAULT_VALUES`: the logarithms of the scores of
B1 .. B4, of the double four, four-three and double three, and of the attack and defence
eighths (:data:`PATTERN_TUNED`; the five, the F4 and F5 scores, which a combination always
overrides, and the empty code's 0 stay). The values travel as ``KernelOptions.evaluation``
(their 16 numbers). Games are played at ``--nodes`` nodes a move (a fixed budget: a game is a
function of the values and the opening, whatever the machine's load) from openings of the
run's seed (three stones about the centre: ``bench_gomoku_match.openings``), each with both
colours.

``--verify`` plays the package's default evaluation (the pattern tables since issue 26)
against the given window weights (7 numbers) or pattern values (16) on the ten openings
of ``bench_gomoku_match.py`` (or ten others: ``--openings SEED``), both colours, at ``--time``
seconds or ``--nodes`` nodes a move (or ``--depth``).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import common
from bench_gomoku_match import (
    SEED,
    Player,
    Tally,
    gomoku_game,
    match,
    openings,
    ours_at_depth,
    ours_under,
    print_game,
    summary,
)

from perfectplay import api
from perfectplay.games.mnk.lines import evaluation_weights, geometric_weights
from perfectplay.games.mnk.pattern_values import DEFAULT_VALUES, MAX_EIGHTHS, values_from
from perfectplay.games.mnk.rules import MNKGame

K = 5
TUNED = slice(1, K + 2)
"""The weights tuned: windows of 1 to k stones and the tempo bonus (weights[0] stays 0)."""
PERTURBATION = 0.25
"""SPSA's ``c``: each log-weight moves by this much either way (about 28%) at the start."""
STEP = 0.6
"""SPSA's ``a``: the step of a whole win's gradient estimate at the start."""
STABILITY = 5
"""SPSA's ``A``: iterations added to the step's decay, so that the first steps are not wild."""
LARGEST_LOG = math.log(1 << 20)
"""Log-weights are kept at most this (the kernel takes weights up to 2**24)."""


PATTERN_TUNED = (1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15)
"""The pattern values tuned, by index in ``PatternValues.numbers()``: the scores of B1, F1,
B2, F2, B3, F3, B4, then double_four, four_three, double_three, attack, defend."""
EIGHTHS = (14, 15)
"""Of those, the attack and defence shares (1 to ``MAX_EIGHTHS``; the others 1 to the largest
a five still outvalues)."""
Theta = list[float]
PlayerOf = Callable[[Theta], Player]
Shown = Callable[[Theta], tuple[int, ...]]


def weights_of(theta: list[float]) -> tuple[int, ...]:
    """The kernel's weights of log-weights ``theta`` (weights[0] = 0; each at least 1)."""
    return (0, *(max(1, round(math.exp(t))) for t in theta))


def player(theta: list[float], depth: int) -> Player:
    """Our engine at ``depth`` plies with the weights of ``theta``."""
    return ours_at_depth(depth, api.KernelOptions(evaluation=weights_of(theta)))


def values_of(theta: Theta) -> tuple[int, ...]:
    """The 16 pattern numbers of log-values ``theta`` (:data:`PATTERN_TUNED`; the others the
    defaults'), each kept where :func:`values_from` takes it: the eighths from 1 to
    ``MAX_EIGHTHS``, the rest from 1 to what keeps a five worth more than any other cell."""
    numbers = list(DEFAULT_VALUES.numbers())
    for index, t in zip(PATTERN_TUNED, theta, strict=True):
        high = MAX_EIGHTHS if index in EIGHTHS else DEFAULT_VALUES.five - 1
        numbers[index] = min(high, max(1, round(math.exp(t))))
    for index in range(1, 8):  # four directions' scores stay below the five
        numbers[index] = min(numbers[index], (DEFAULT_VALUES.five - 1) // 4)
    return tuple(values_from(tuple(numbers)).numbers())


def pattern_player(nodes: int) -> PlayerOf:
    """Our engine at ``nodes`` nodes a move with the pattern values of a ``theta``."""

    def make(theta: Theta) -> Player:
        options = api.KernelOptions(evaluation=values_of(theta))
        return ours_under(api.limit(nodes=nodes), options)

    return make


def spsa_step(
    game: MNKGame, theta: Theta, t: int, rng: random.Random, make: PlayerOf, gains: Gains
) -> tuple[list[float], float]:
    """One SPSA iteration (``t`` from 0): the new log-weights and the match's points
    (wins minus losses of the ``+`` side over ``2 * pairs`` games)."""
    pairs = gains.pairs
    c = gains.perturbation / (t + 1) ** 0.101
    a = gains.step / (t + 1 + STABILITY) ** 0.602
    delta = [rng.choice((-1.0, 1.0)) for _ in theta]
    plus = [x + c * d for x, d in zip(theta, delta, strict=True)]
    minus = [x - c * d for x, d in zip(theta, delta, strict=True)]
    starts = openings(game, pairs, seed=rng.randrange(1 << 30))
    points = paired_points(match(game, starts, make(plus), make(minus)))
    share = points / (2 * pairs)
    moved = [
        min(LARGEST_LOG, x + a * share / (2 * c) * d) for x, d in zip(theta, delta, strict=True)
    ]
    return moved, points


def paired_points(tally: Tally) -> float:
    """Wins minus losses of the first engine, and for each start whose two games split one
    win each, half a point to the side whose win took fewer plies (none when as many)."""
    points = tally.points
    for i in range(0, len(tally.results), 2):
        pair, plies = tally.results[i : i + 2], tally.plies[i : i + 2]
        if sorted(pair) == ["loss", "win"] and plies[0] != plies[1]:
            ours_won = plies[pair.index("win")]
            theirs_won = plies[pair.index("loss")]
            points += 0.5 if ours_won < theirs_won else -0.5
    return points


@dataclass(frozen=True)
class Gains:
    """SPSA's ``a`` (``step``) and ``c`` (``perturbation``) at the start, and the openings
    an iteration plays (each with both colours)."""

    step: float = STEP
    perturbation: float = PERTURBATION
    pairs: int = 4


def tune(
    iterations: int, seed: int, gains: Gains, make: PlayerOf, theta: Theta, shown: Shown
) -> tuple[int, ...]:
    """SPSA from ``theta`` (log-weights or log-values: ``make`` plays them, ``shown`` turns
    them into the kernel's numbers); prints each iteration; the tuned numbers."""
    game = gomoku_game()
    rng = random.Random(seed)
    began = time.perf_counter()
    for t in range(iterations):
        theta, points = spsa_step(game, theta, t, rng, make, gains)
        elapsed = time.perf_counter() - began
        print(f"{t + 1:3d} {points:+5.1f} {shown(theta)} {elapsed:7.0f} s", flush=True)
    return shown(theta)


def verify(against: tuple[int, ...], limit: api.Limit, seed: int) -> None:
    """The default evaluation against ``against`` (window weights, or 16 pattern values) on
    ten openings of ``seed`` (the match's by default), both colours, each move under
    ``limit``."""
    game = gomoku_game()
    us, them = ours_under(limit), ours_under(limit, api.KernelOptions(evaluation=against))
    tally = match(game, openings(game, seed=seed), us, them, print_game)
    print()
    print(common.machine())
    print(f"default {evaluation_weights(K)} against {against}")
    print(summary(f"weights {against}", tally))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60, help="SPSA iterations (60)")
    parser.add_argument("--seed", type=int, default=2026, help="the run's seed (2026)")
    parser.add_argument("--depth", type=int, default=3, help="plies a move searches (3)")
    parser.add_argument("--pairs", type=int, default=4, help="openings an iteration (4)")
    parser.add_argument("--step", type=float, default=STEP, help=f"SPSA's a ({STEP})")
    parser.add_argument(
        "--perturbation", type=float, default=PERTURBATION, help=f"SPSA's c ({PERTURBATION})"
    )
    parser.add_argument("--verify", help="weights, comma-separated: play the default against")
    parser.add_argument("--time", type=float, help="--verify: seconds a move (else --depth)")
    parser.add_argument(
        "--patterns", action="store_true", help="tune the pattern values (issue 26)"
    )
    parser.add_argument("--nodes", type=int, help="nodes a move (--patterns: 6000; else --depth)")
    parser.add_argument(
        "--openings", type=int, default=SEED, help=f"--verify: the openings' seed ({SEED})"
    )
    args = parser.parse_args()
    if args.verify:
        weights = tuple(int(w) for w in args.verify.split(","))
        timed = args.time is not None or args.nodes is not None
        limit = api.limit(time=args.time, nodes=args.nodes) if timed else api.limit(args.depth)
        verify(weights, limit, args.openings)
        return
    began = time.perf_counter()
    if args.patterns:
        start = [math.log(DEFAULT_VALUES.numbers()[i]) for i in PATTERN_TUNED]
        make, shown = pattern_player(args.nodes or 6_000), values_of
    else:
        start = [math.log(max(1, w)) for w in geometric_weights(K)[TUNED]]
        make, shown = (lambda theta: player(theta, args.depth)), weights_of
    gains = Gains(args.step, args.perturbation, args.pairs)
    tuned = tune(args.iterations, args.seed, gains, make, start, shown)
    print()
    print(common.machine())
    print(f"tuned {'values' if args.patterns else 'weights'} {tuned}")
    print(f"in {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
