"""Tuning the big-board evaluation by self-play (issue 17, item 3): SPSA over the weights.

    python benchmarks/tune_gomoku.py --iterations 60 --seed 2026      # the tuning run
    python benchmarks/tune_gomoku.py --verify 0,1,6,36,216,1296,216   # the tuned (default)
                                                                      # weights against these

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

``--verify`` plays the package's default evaluation (the pattern tables since issue 26)
against the given window weights on the ten openings
of ``bench_gomoku_match.py`` (or ten others: ``--openings SEED``), both colours, at ``--time``
seconds a move (or ``--depth``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import common
from bench_gomoku_match import (
    SEED,
    Player,
    Tally,
    gomoku_game,
    match,
    openings,
    ours,
    ours_at_depth,
    print_game,
    summary,
)

from perfectplay import api
from perfectplay.games.mnk.lines import evaluation_weights, geometric_weights
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


def weights_of(theta: list[float]) -> tuple[int, ...]:
    """The kernel's weights of log-weights ``theta`` (weights[0] = 0; each at least 1)."""
    return (0, *(max(1, round(math.exp(t))) for t in theta))


def player(theta: list[float], depth: int) -> Player:
    """Our engine at ``depth`` plies with the weights of ``theta``."""
    return ours_at_depth(depth, api.KernelOptions(evaluation=weights_of(theta)))


def spsa_step(
    game: MNKGame, theta: list[float], t: int, rng: random.Random, depth: int, pairs: int
) -> tuple[list[float], float]:
    """One SPSA iteration (``t`` from 0): the new log-weights and the match's points
    (wins minus losses of the ``+`` side over ``2 * pairs`` games)."""
    c = PERTURBATION / (t + 1) ** 0.101
    a = STEP / (t + 1 + STABILITY) ** 0.602
    delta = [rng.choice((-1.0, 1.0)) for _ in theta]
    plus = [x + c * d for x, d in zip(theta, delta, strict=True)]
    minus = [x - c * d for x, d in zip(theta, delta, strict=True)]
    starts = openings(game, pairs, seed=rng.randrange(1 << 30))
    points = paired_points(match(game, starts, player(plus, depth), player(minus, depth)))
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


def tune(iterations: int, seed: int, depth: int, pairs: int) -> tuple[int, ...]:
    """SPSA from the hand-set weights; prints each iteration; the tuned weights."""
    game = gomoku_game()
    rng = random.Random(seed)
    theta = [math.log(max(1, w)) for w in geometric_weights(K)[TUNED]]
    began = time.perf_counter()
    for t in range(iterations):
        theta, points = spsa_step(game, theta, t, rng, depth, pairs)
        elapsed = time.perf_counter() - began
        print(f"{t + 1:3d} {points:+5.1f} {weights_of(theta)} {elapsed:7.0f} s", flush=True)
    return weights_of(theta)


def verify(against: tuple[int, ...], seconds: float | None, depth: int, seed: int) -> None:
    """The default evaluation against the window weights ``against`` on ten openings of
    ``seed`` (the match's by default), both colours."""
    game = gomoku_game()
    other = api.KernelOptions(evaluation=against)
    if seconds is None:
        us, them = ours_at_depth(depth), ours_at_depth(depth, other)
    else:
        us, them = ours(seconds), ours(seconds, other)
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
    parser.add_argument("--verify", help="weights, comma-separated: play the default against")
    parser.add_argument("--time", type=float, help="--verify: seconds a move (else --depth)")
    parser.add_argument(
        "--openings", type=int, default=SEED, help=f"--verify: the openings' seed ({SEED})"
    )
    args = parser.parse_args()
    if args.verify:
        weights = tuple(int(w) for w in args.verify.split(","))
        verify(weights, args.time, args.depth, args.openings)
        return
    began = time.perf_counter()
    tuned = tune(args.iterations, args.seed, args.depth, args.pairs)
    print()
    print(common.machine())
    print(f"tuned weights {tuned} in {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
