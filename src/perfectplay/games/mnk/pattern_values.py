"""The values of the big-board engine's pattern tables (issue 26): what each pattern and each
combination of a cell's four directions is worth to the evaluation and the move order.

Kept apart from :mod:`.patterns` on purpose: the compiled board imports constants from that
module, so numba's cache guard (``games/compile_cache.py``) recompiles the engine (minutes)
after any change to it, while these values reach the compiled code only as arrays and
numbers of the context (:func:`.patterns.cell_values`, ``big_kernel.static_context``): a new
set is tried, or tuned, without a recompile.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

from perfectplay.errors import ParameterError


@dataclass(frozen=True, slots=True)
class PatternValues:
    """One set of values.

    ``scores[code]`` is a cell's value from one direction by pattern code (``patterns.NONE``
    .. ``F5``), summed over the four directions when no combination applies; ``five``,
    ``double_four`` (an F4, or fours in two directions), ``four_three`` (a four with an open
    three in another direction) and ``double_three`` (open threes in two directions) are the
    combinations' values, strongest first. The evaluation is the side to move's sum of its
    cells' values times ``attack`` eighths less the opponent's sum; the move order adds to a
    cell's value for the side to move the opponent's times ``defend`` eighths.
    """

    scores: tuple[int, ...]
    five: int
    double_four: int
    four_three: int
    double_three: int
    attack: int
    defend: int = 8

    def numbers(self) -> tuple[int, ...]:
        """The set as :func:`values_from` reads it (``KernelOptions.evaluation``): the
        scores, then the five, double_four, four_three, double_three, attack and defend."""
        return (*self.scores, *astuple(self)[1:])


CODES = 10
"""Pattern codes, weakest first (:mod:`.patterns`' ``NONE`` .. ``F5``): the scores a set
holds. Defined here, where a set of values is read, and imported by :mod:`.patterns`."""
VALUE_COUNT = CODES + 6
"""Numbers of a set of values as a caller passes it (:meth:`PatternValues.numbers`): never the
length of the window weights of ``k`` = 5 (7), so ``KernelOptions.evaluation`` tells them apart."""
MAX_VALUE = 20_000
"""The largest value of a pattern or combination: a 20x20 board's sum of cells stays within a
few times the heuristic range (the evaluation clamps it) and no product overflows."""
MAX_EIGHTHS = 64
"""The largest ``attack`` and ``defend`` (eight times the other side's weight)."""


NAMES = (
    *(f"score {code}" for code in range(CODES)),
    "five",
    "double_four",
    "four_three",
    "double_three",
    "attack",
    "defend",
)
"""The numbers' names in :func:`values_from`'s messages (a score by its code)."""


def values_from(numbers: tuple[int, ...]) -> PatternValues:
    """The set of values of ``numbers`` (the layout of :meth:`PatternValues.numbers`), checked:
    :data:`VALUE_COUNT` whole numbers, each value from 0 to :data:`MAX_VALUE`, ``attack`` and
    ``defend`` from 1 to :data:`MAX_EIGHTHS`, and the five worth more than any other cell can
    be (a combination, or four directions' scores). Raises
    :class:`~perfectplay.errors.ParameterError` naming the number at fault."""
    if len(numbers) != VALUE_COUNT or any(
        isinstance(n, bool) or not isinstance(n, int) for n in numbers
    ):
        raise ParameterError(
            f"pattern values {numbers!r}: give {VALUE_COUNT} whole numbers ({CODES} "
            "scores by code, then five, double_four, four_three, double_three, attack, defend)"
        )
    values = PatternValues(numbers[:CODES], *numbers[CODES:])
    for name, value in zip(NAMES, numbers, strict=True):
        low, high = (1, MAX_EIGHTHS) if name in ("attack", "defend") else (0, MAX_VALUE)
        if not low <= value <= high:
            raise ParameterError(f"pattern values: {name} {value} is not from {low} to {high:,}")
    best_other = max(values.double_four, values.four_three, values.double_three)
    best_other = max(best_other, 4 * max(values.scores[: CODES - 2]))
    if values.five <= best_other:
        raise ParameterError(
            f"pattern values: five {values.five} must be worth more than any other cell "
            f"({best_other}: a combination or four directions' best score)"
        )
    return values


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
