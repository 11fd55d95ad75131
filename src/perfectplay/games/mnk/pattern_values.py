"""The values of the big-board engine's pattern tables (issue 26): what each pattern and each
combination of a cell's four directions is worth to the evaluation and the move order.

Kept apart from :mod:`.patterns` on purpose: the compiled board imports constants from that
module, so numba's cache guard (``games/compile_cache.py``) recompiles the engine (minutes)
after any change to it, while these values reach the compiled code only as arrays and
numbers of the context (:func:`.patterns.cell_values`, ``big_kernel.static_context``): a new
set is tried, or tuned, without a recompile.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PatternValues:
    """One set of values.

    ``scores[code]`` is a cell's value from one direction by pattern code (``patterns.NONE``
    .. ``F5``), summed over the four directions when no combination applies; ``five``,
    ``double_four`` (an F4, or fours in two directions), ``four_three`` (a four with an open
    three in another direction) and ``double_three`` (open threes in two directions) are the
    combinations' values, strongest first. The evaluation is the side to move's sum of its
    cells' values times ``attack`` eighths less the opponent's sum.
    """

    scores: tuple[int, ...]
    five: int
    double_four: int
    four_three: int
    double_three: int
    attack: int


HAND_SET_SCORES = (0, 1, 3, 6, 20, 25, 60, 70, 200, 1_000)
HAND_SET_VALUES = PatternValues(
    HAND_SET_SCORES, five=1_000, double_four=300, four_three=250, double_three=150, attack=10
)
"""The values set by hand (the second set of BENCHMARKS.md, "Gomoku: pattern tables")."""
FITTED_SCORES = (0, 1, 3, 4, 10, 16, 57, 81, 200, 1_000)
FITTED_VALUES = PatternValues(
    FITTED_SCORES, five=1_000, double_four=340, four_three=515, double_three=134, attack=9
)
"""The values fitted to game results (``benchmarks/fit_gomoku_eval.py``: the logistic loss
of the evaluation against the results of 61,605 quiet positions of 3,309 games, Rapfi's
against itself and our matches' records; BENCHMARKS.md, "Gomoku: the evaluation's values
tuned"), scaled to the hand-set values' spread. The fit sees only quiet positions, so the
five (never in one) and the F4 and F5 scores (always a combination) keep the hand-set
values; a five stays worth more than any other cell."""
DEFAULT_VALUES = FITTED_VALUES
"""The values the engine plays with: the fitted ones (with them the tables beat the window
evaluation against Rapfi, where the hand-set ones had lost to it; BENCHMARKS.md)."""
