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


def check_numbers(numbers: tuple[int, ...], names: tuple[str, ...], kind: str, layout: str) -> None:
    """Raises :class:`~perfectplay.errors.ParameterError` naming the number at fault unless
    ``numbers`` are ``len(names)`` whole numbers, ``attack`` and ``defend`` from 1 to
    :data:`MAX_EIGHTHS`, the others from 0 to :data:`MAX_VALUE` (``kind`` names the set,
    ``layout`` its numbers in the message)."""
    if len(numbers) != len(names) or any(
        isinstance(n, bool) or not isinstance(n, int) for n in numbers
    ):
        raise ParameterError(f"{kind} {numbers!r}: give {len(names)} whole numbers ({layout})")
    for name, value in zip(names, numbers, strict=True):
        low, high = (1, MAX_EIGHTHS) if name in ("attack", "defend") else (0, MAX_VALUE)
        if not low <= value <= high:
            raise ParameterError(f"{kind}: {name} {value} is not from {low} to {high:,}")


def values_from(numbers: tuple[int, ...]) -> PatternValues:
    """The set of values of ``numbers`` (the layout of :meth:`PatternValues.numbers`), checked:
    :data:`VALUE_COUNT` whole numbers, each value from 0 to :data:`MAX_VALUE`, ``attack`` and
    ``defend`` from 1 to :data:`MAX_EIGHTHS`, and the five worth more than any other cell can
    be (a combination, or four directions' scores). Raises
    :class:`~perfectplay.errors.ParameterError` naming the number at fault."""
    layout = f"{CODES} scores by code, then five, double_four, four_three, double_three, "
    check_numbers(numbers, NAMES, "pattern values", layout + "attack, defend")
    values = PatternValues(numbers[:CODES], *numbers[CODES:])
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


TOPS = CODES - 1
"""Codes that can be a cell's strongest without a five (``NONE`` .. ``F4``): the first code
of a :class:`ClassValues` pair."""
PAIRS = TOPS * (TOPS + 1) // 2
"""Pairs of a cell's two strongest codes (``a >= b``, both below ``F5``): a class each."""
CLASS_VALUE_COUNT = PAIRS + CODES + 3
"""Numbers of a :class:`ClassValues` set as a caller passes it (:meth:`ClassValues.numbers`):
neither :data:`VALUE_COUNT` nor the length of any window weights a board can use."""


def pair_index(strongest: int, second: int) -> int:
    """The place in :attr:`ClassValues.pairs` of a cell whose two strongest direction codes
    are ``strongest >= second`` (both below ``F5``)."""
    return strongest * (strongest + 1) // 2 + second


@dataclass(frozen=True, slots=True)
class ClassValues:
    """A richer set of values (issue 26, after Rapfi's classes of a cell's four patterns): a
    cell's value is the value of its *class*, the pair of its two strongest direction codes
    (``pairs[pair_index(a, b)]``: an open four alone, a four with a three, two open twos ...,
    each its own number), plus ``scores`` of its two other directions' codes; a five in any
    direction is worth ``five``. ``attack`` and ``defend`` as in :class:`PatternValues`.
    ``scores[F5]`` is never read (a five is the strongest code)."""

    pairs: tuple[int, ...]
    scores: tuple[int, ...]
    five: int
    attack: int
    defend: int = 8

    def numbers(self) -> tuple[int, ...]:
        """The set as :func:`class_values_from` reads it: the pairs, the scores, then the
        five, attack and defend."""
        return (*self.pairs, *self.scores, self.five, self.attack, self.defend)


Values = PatternValues | ClassValues
"""A set of values of either layout (both reach the compiled code as one cell table)."""


CLASS_NAMES = (
    *(f"pair {a},{b}" for a in range(TOPS) for b in range(a + 1)),
    *(f"score {code}" for code in range(CODES)),
    "five",
    "attack",
    "defend",
)
"""The numbers' names in :func:`class_values_from`'s messages (a pair by its two codes)."""


def class_values_from(numbers: tuple[int, ...]) -> ClassValues:
    """The class set of ``numbers`` (the layout of :meth:`ClassValues.numbers`), checked:
    :data:`CLASS_VALUE_COUNT` whole numbers, each from 0 to :data:`MAX_VALUE`, ``attack``
    and ``defend`` from 1 to :data:`MAX_EIGHTHS`, and the five worth more than any other cell
    can be (the largest pair and twice the largest score). Raises
    :class:`~perfectplay.errors.ParameterError` naming the number at fault."""
    layout = f"{PAIRS} pairs, {CODES} scores by code, then five, attack, defend"
    check_numbers(numbers, CLASS_NAMES, "class values", layout)
    values = ClassValues(numbers[:PAIRS], numbers[PAIRS:-3], *numbers[-3:])
    best_other = max(values.pairs) + 2 * max(values.scores[:TOPS])
    if values.five <= best_other:
        raise ParameterError(
            f"class values: five {values.five} must be worth more than any other cell "
            f"({best_other}: the largest pair and two directions' largest score)"
        )
    return values


def any_values_from(numbers: tuple[int, ...]) -> Values:
    """:func:`values_from` or :func:`class_values_from` by the count of ``numbers``."""
    if len(numbers) == CLASS_VALUE_COUNT:
        return class_values_from(numbers)
    return values_from(numbers)


DEFAULT_VALUES = FITTED_VALUES
"""The default set of the plain kind (a value per code, :class:`PatternValues`): the fitted
one (with it the tables beat the window evaluation against Rapfi, where the hand-set values
had lost; BENCHMARKS.md). The engine plays :data:`PLAYED_VALUES`."""
RAPFI_CLASS_PAIRS = (
    *(0, 8, 6, 9, 16, 3, 8, 0, 5, 1, 9, 4, 6, 15, 21),  # NONE+NONE .. F2+F2
    *(5, 3, 20, 16, 32, 27, 4, 2, 49, 50, 74, 87, 90),  # B3+NONE .. F3+F3
    *(3, 39, 86, 95, 152, 155, 421, 199),  # B4+NONE .. B4+B4
    *(137, 153, 242, 317, 336, 375, 421, 421, 421),  # F4+NONE .. F4+F4
)
RAPFI_CLASS_VALUES = ClassValues(
    RAPFI_CLASS_PAIRS, (0, 2, 2, 7, 31, 27, 27, 27, 27, 0), five=1_000, attack=9
)
"""A class set fitted to Rapfi's values (``benchmarks/fit_gomoku_eval.py --labels
benchmarks/data/gomoku_rapfi_labels.txt.gz``: 71,331 quiet positions of 3,408 games, each
valued by Rapfi at 3,000 nodes, as win probabilities; BENCHMARKS.md, "Gomoku: a class
evaluation fitted to Rapfi's values"), in the fitted values' units: :data:`PLAYED_VALUES`."""
PLAYED_VALUES: Values = RAPFI_CLASS_VALUES
"""The values the engine plays with (``big_kernel.static_context``): the class set fitted to
Rapfi. At the old speed and 12,000 Rapfi nodes it had not paid (44.8 % over 192 games paired
with the fitted set's 48.7 %); on the 1.9x faster engine, at 25,000 nodes, it scored 48.8 %
against the fitted set's 25.8 % over 120 paired games, 36 pairs better and 8 worse
(BENCHMARKS.md, "Gomoku: what the 1.9x faster engine buys"). ``--values fitted`` plays the
old set."""


def with_combinations(values: ClassValues, plain: PatternValues) -> ClassValues:
    """``values`` with each combination class worth at least ``plain``'s value of it: F3+F3
    its double three, B4+F3 its four-three, B4+B4 its double four, the F4 classes the larger
    of the two (a check of whether the class set's lower combinations cost it games)."""
    top = TOPS - 1  # F4; B4 and F3 the codes below it
    lifted = list(values.pairs)
    for index, least in (
        (pair_index(top - 2, top - 2), plain.double_three),
        (pair_index(top - 1, top - 2), plain.four_three),
        (pair_index(top - 1, top - 1), plain.double_four),
        *((pair_index(top, b), max(plain.double_four, plain.four_three)) for b in range(TOPS)),
    ):
        lifted[index] = max(lifted[index], least)
    return ClassValues(tuple(lifted), values.scores, values.five, values.attack, values.defend)


NAMED_VALUES: dict[str, Values] = {
    "hand-set": HAND_SET_VALUES,
    "fitted": FITTED_VALUES,
    "classes": RAPFI_CLASS_VALUES,
    "classes-combinations": with_combinations(RAPFI_CLASS_VALUES, FITTED_VALUES),
}
"""The sets a benchmark names (``bench_gomoku_peers.py --values NAME``): the plain ones, the
class set fitted to Rapfi and the same with the default's combination values (45.8 % against
the default's 45.3 % over 96 paired games: no gain either; BENCHMARKS.md)."""
