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
EIGHTHS = 8
"""The unit of the weights given in eighths: ``attack`` (the side to move's pattern values in
the evaluation, the opponent's counting 8: its threats come first), ``defend`` (the opponent's
pattern value of a cell in the move order, the side's counting 8) and the threat table's
weight (``P_THREAT_EVAL``)."""
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


TRIPLES = TOPS * (TOPS + 1) * (TOPS + 2) // 6
"""Triples of a cell's three strongest codes (``a >= b >= c``, all below ``F5``)."""


def triple_index(strongest: int, second: int, third: int) -> int:
    """The place among :data:`TRIPLES` of a cell whose three strongest direction codes are
    ``strongest >= second >= third`` (all below ``F5``; the combinatorial number system,
    so numpy arrays of codes work too)."""
    return strongest * (strongest + 1) * (strongest + 2) // 6 + pair_index(second, third)


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


@dataclass(frozen=True, slots=True)
class TripleValues:
    """A class set refined by the third code (issue 26): a cell's value is the value of its
    three strongest direction codes (``triples[triple_index(a, b, c)]``: an open three beside
    a four and a two differs from one beside a four and nothing) plus ``scores`` of its
    fourth direction's code; a five in any direction is worth ``five``. ``attack`` and
    ``defend`` as in :class:`PatternValues`. Reaches the engine as a cell table, like the
    others (``bench_gomoku_peers.py --values NAME``), not by ``KernelOptions.evaluation``."""

    triples: tuple[int, ...]
    scores: tuple[int, ...]
    five: int
    attack: int
    defend: int = 8

    def numbers(self) -> tuple[int, ...]:
        """The set as :func:`triple_values_from` reads it: the triples, the scores, then
        the five, attack and defend (the fields' order)."""
        return (*self.triples, *self.scores, *astuple(self)[2:])


Values = PatternValues | ClassValues | TripleValues
"""A set of values of any layout (each reaches the compiled code as one cell table)."""


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


TRIPLE_VALUE_COUNT = TRIPLES + CODES + 3
"""Numbers of a :class:`TripleValues` set (:meth:`TripleValues.numbers`)."""

TRIPLE_CODES = tuple((a, b, c) for a in range(TOPS) for b in range(a + 1) for c in range(b + 1))
"""The three strongest codes of each triple, in the order of :func:`triple_index`."""

TRIPLE_NAMES = (
    *(f"triple {a},{b},{c}" for a, b, c in TRIPLE_CODES),
    *(f"score {code}" for code in range(CODES)),
    "five",
    "attack",
    "defend",
)
"""The numbers' names in :func:`triple_values_from`'s messages (a triple by its codes)."""


def triple_values_from(numbers: tuple[int, ...]) -> TripleValues:
    """The triple set of ``numbers`` (the layout of :meth:`TripleValues.numbers`), checked
    as :func:`class_values_from` checks a class set: the five worth more than the largest
    triple and the largest score. Raises :class:`~perfectplay.errors.ParameterError`."""
    layout = f"{TRIPLES} triples, {CODES} scores by code, then five, attack, defend"
    check_numbers(numbers, TRIPLE_NAMES, "triple values", layout)
    values = TripleValues(numbers[:TRIPLES], numbers[TRIPLES:-3], *numbers[-3:])
    best_other = max(values.triples) + max(values.scores[:TOPS])
    if values.five <= best_other:
        raise ParameterError(
            f"triple values: five {values.five} must be worth more than any other cell "
            f"({best_other}: the largest triple and the largest score)"
        )
    return values


def any_values_from(numbers: tuple[int, ...]) -> Values:
    """:func:`values_from`, :func:`class_values_from` or :func:`triple_values_from` by the
    count of ``numbers``."""
    if len(numbers) == CLASS_VALUE_COUNT:
        return class_values_from(numbers)
    if len(numbers) == TRIPLE_VALUE_COUNT:
        return triple_values_from(numbers)
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
RAPFI_TRIPLES = (  # a line a pair, its triples by the third code, NONE first
    *(0,),  # NONE+NONE
    *(4,),  # B1+NONE
    *(0, 5),  # B1+B1
    *(12,),  # F1+NONE
    *(10, 18),  # F1+B1
    *(4, 10, 5),  # F1+F1
    *(8,),  # B2+NONE
    *(4, 0),  # B2+B1
    *(7, 8, 8),  # B2+F1
    *(11, 0, 8, 1),  # B2+B2
    *(6,),  # F2+NONE
    *(3, 1),  # F2+B1
    *(9, 12, 10),  # F2+F1
    *(12, 6, 16, 13),  # F2+B2
    *(11, 23, 24, 24, 51),  # F2+F2
    *(4,),  # B3+NONE
    *(0, 7),  # B3+B1
    *(15, 24, 24),  # B3+F1
    *(13, 5, 20, 19),  # B3+B2
    *(26, 37, 37, 34, 47),  # B3+F2
    *(28, 28, 36, 42, 50, 63),  # B3+B3
    *(12,),  # F3+NONE
    *(13, 0),  # F3+B1
    *(28, 36, 55),  # F3+F1
    *(22, 35, 59, 56),  # F3+B2
    *(46, 55, 82, 84, 100),  # F3+F2
    *(53, 55, 93, 88, 112, 119),  # F3+B3
    *(84, 72, 96, 113, 104, 75, 92),  # F3+F3
    *(10,),  # B4+NONE
    *(24, 46),  # B4+B1
    *(41, 73, 97),  # B4+F1
    *(40, 53, 115, 99),  # B4+B2
    *(84, 131, 153, 175, 232),  # B4+F2
    *(78, 97, 164, 170, 227, 197),  # B4+B3
    *(320, 345, 420, 434, 480, 424, 358),  # B4+F3
    *(190, 178, 266, 224, 204, 235, 203, 203),  # B4+B4
    *(162,),  # F4+NONE
    *(159, 151),  # F4+B1
    *(232, 207, 247),  # F4+F1
    *(255, 280, 325, 322),  # F4+B2
    *(283, 321, 305, 413, 395),  # F4+F2
    *(304, 317, 357, 387, 430, 385),  # F4+B3
    *(332, 321, 406, 405, 417, 390, 358),  # F4+F3
    *(177, 178, 179, 196, 204, 235, 203, 203),  # F4+B4
    *(177, 178, 179, 196, 204, 235, 203, 203, 203),  # F4+F4
)
RAPFI_TRIPLE_VALUES = TripleValues(
    RAPFI_TRIPLES, (0, 1, 2, 19, 27, 58, 26, 26, 26, 0), five=1_000, attack=9
)
"""A triple set fitted to Rapfi's values (``benchmarks/fit_gomoku_eval.py --labels
benchmarks/data/gomoku_rapfi_labels.txt.gz benchmarks/data/gomoku_rapfi_labels_odd.txt.gz
benchmarks/data/gomoku_rapfi_labels_new.txt.gz --triples --fresh --attacks 9``: 181,890
quiet positions of 8,132 games, each valued by Rapfi at 3,000 nodes; BENCHMARKS.md, "Gomoku:
the class evaluation fitted further"): each triple its pair's value plus the third code's
score plus a fitted correction (none for a triple seen fewer than 200 times), in the fitted
values' units. Held-out loss against Rapfi's probabilities 0.5919, the played set's 0.5956
(a class set refitted to the same labels: 0.5952). Against Rapfi at 25,000 nodes it scored
32.3 % beside the played set's 27.1 % over 96 paired games (14 better, 8 worse: about one
standard error), so it is not played by default."""

UNPROVED_TRIPLES = (  # a line a pair, its triples by the third code, NONE first
    *(0,),  # NONE+NONE
    *(6,),  # B1+NONE
    *(3, 0),  # B1+B1
    *(10,),  # F1+NONE
    *(9, 16),  # F1+B1
    *(4, 5, 3),  # F1+F1
    *(6,),  # B2+NONE
    *(4, 0),  # B2+B1
    *(7, 3, 5),  # B2+F1
    *(16, 0, 9, 6),  # B2+B2
    *(6,),  # F2+NONE
    *(7, 8),  # F2+B1
    *(6, 11, 11),  # F2+F1
    *(8, 7, 14, 18),  # F2+B2
    *(10, 28, 32, 38, 71),  # F2+F2
    *(4,),  # B3+NONE
    *(3, 9),  # B3+B1
    *(12, 18, 22),  # B3+F1
    *(12, 14, 21, 24),  # B3+B2
    *(21, 38, 41, 45, 69),  # B3+F2
    *(24, 36, 43, 50, 77, 85),  # B3+B3
    *(16,),  # F3+NONE
    *(22, 11),  # F3+B1
    *(31, 39, 66),  # F3+F1
    *(30, 48, 73, 75),  # F3+B2
    *(50, 59, 99, 117, 140),  # F3+F2
    *(53, 61, 103, 106, 147, 154),  # F3+B3
    *(91, 84, 122, 125, 168, 171, 160),  # F3+F3
    *(10,),  # B4+NONE
    *(28, 68),  # B4+B1
    *(37, 76, 100),  # B4+F1
    *(49, 68, 104, 105),  # B4+B2
    *(72, 109, 133, 148, 190),  # B4+F2
    *(79, 84, 127, 144, 180, 178),  # B4+B3
    *(181, 177, 237, 261, 280, 283, 253),  # B4+F3
    *(106, 109, 157, 134, 164, 180, 180, 180),  # B4+B4
    *(134,),  # F4+NONE
    *(116, 109),  # F4+B1
    *(184, 144, 216),  # F4+F1
    *(206, 208, 256, 261),  # F4+B2
    *(180, 188, 234, 295, 259),  # F4+F2
    *(184, 185, 222, 251, 290, 249),  # F4+B3
    *(179, 182, 184, 207, 237, 253, 253),  # F4+F3
    *(179, 182, 184, 207, 237, 253, 253, 253),  # F4+B4
    *(179, 182, 184, 207, 237, 253, 253, 253, 253),  # F4+F4
)
UNPROVED_TRIPLE_VALUES = TripleValues(
    UNPROVED_TRIPLES, (0, 3, 5, 28, 58, 74, 74, 74, 74, 0), five=1_000, attack=9
)
"""The triple set fitted as :data:`RAPFI_TRIPLE_VALUES` is, without the positions Rapfi
proves won or lost (``--unproved``: 118,112 training positions): flatter (a four with an
open three about 250 against 420); on the unproved held-out positions it predicts the
results better (loss 0.6297 against the played set's 0.6540), on all of them a little
worse (0.6077 against 0.6047). Against Rapfi at 25,000 nodes: 34.4 % beside the played
set's 47.9 % over 48 paired games (6 better, 11 worse): not played by default."""

PLAYED_VALUES: Values = RAPFI_CLASS_VALUES
"""The values the engine plays with (``big_kernel.static_context``): the class set fitted to
Rapfi. At the old speed and 12,000 Rapfi nodes it had not paid (44.8 % over 192 games paired
with the fitted set's 48.7 %); on the 1.9x faster engine, at 25,000 nodes, it scored 48.8 %
against the fitted set's 25.8 % over 120 paired games, 36 pairs better and 8 worse
(BENCHMARKS.md, "Gomoku: what the 1.9x faster engine buys"). ``--values fitted`` plays the
old set."""


@dataclass(frozen=True, slots=True)
class ThreatValues:
    """The evaluation's threat table (issue 26): ``entries`` are pairs ``(mask, value)``, the
    value added to the side to move's evaluation when the position's threat mask
    (``patterns.threat_mask``) is ``mask``; every other mask adds 0. It reaches the engine as
    an array of the context (``pattern_classes.threat_table``), a runtime choice."""

    entries: tuple[tuple[int, int], ...]


NO_THREAT_VALUES = ThreatValues(())
"""The empty threat table: the cells' values alone."""
RAPFI_THREAT_VALUES = ThreatValues(
    (
        (0b00000000000, -48),
        (0b00000010000, -25),
        (0b00000011000, -31),
        (0b00001000000, -35),
        (0b00001010000, -15),
        (0b00001100000, -54),
        (0b00001110000, -37),
        (0b00001111000, -9),
        (0b00100000000, -27),
        (0b00100000100, 44),
        (0b00100010000, -11),
        (0b00100010100, 42),
        (0b00100011000, -23),
        (0b00101000000, -3),
        (0b00101000100, 116),
        (0b00101010000, 1),
        (0b00101011000, -22),
        (0b00101100000, 6),
        (0b00101100100, 129),
        (0b00101110000, -2),
        (0b00101110100, 74),
        (0b00101111000, -9),
        (0b00101111100, 37),
        (0b00110000000, 5),
        (0b00110000100, 42),
        (0b00110010000, 0),
        (0b00110010100, 37),
        (0b00110011000, -3),
        (0b00110011100, 20),
        (0b00111000100, 45),
        (0b00111010000, 8),
        (0b00111010100, 23),
        (0b00111011000, -33),
        (0b00111011100, 22),
        (0b00111100000, 40),
        (0b00111100100, 55),
        (0b00111110000, 28),
        (0b00111110100, 90),
        (0b00111111000, 30),
        (0b00111111100, 21),
        (0b01101100100, 3),
        (0b01101111100, 8),
        (0b01111100000, 13),
        (0b01111100100, -76),
        (0b01111110000, 10),
        (0b01111110100, -22),
        (0b01111111000, 7),
        (0b01111111100, -38),
        (0b10000000000, -55),
        (0b10000010000, -13),
        (0b10001000000, -68),
        (0b10001010000, -12),
        (0b10001100000, 13),
        (0b10001110000, 0),
        (0b10001111000, -10),
        (0b10100000000, -22),
        (0b10100000100, 35),
        (0b10100010000, -20),
        (0b10100011000, -36),
        (0b10101000100, 66),
        (0b10101010000, -13),
        (0b10101011000, -23),
        (0b10101100000, 7),
        (0b10101100100, 95),
        (0b10101110000, -5),
        (0b10101110100, 51),
        (0b10101111000, -18),
        (0b10101111100, 15),
        (0b10110000000, 8),
        (0b10110000100, 22),
        (0b10110010000, -2),
        (0b10110010100, 30),
        (0b10110011000, -14),
        (0b10110011100, 20),
        (0b10111000000, 1),
        (0b10111000100, 25),
        (0b10111010000, 17),
        (0b10111010100, 28),
        (0b10111011000, -19),
        (0b10111011100, 19),
        (0b10111100000, 49),
        (0b10111100100, -11),
        (0b10111101100, -15),
        (0b10111110000, 40),
        (0b10111110100, 11),
        (0b10111111000, 20),
        (0b10111111100, -28),
        (0b11000000000, -87),
        (0b11000010000, -98),
        (0b11000011000, -74),
        (0b11000110000, 25),
        (0b11000111000, 52),
        (0b11001000000, -114),
        (0b11001010000, -79),
        (0b11001011000, -53),
        (0b11001100000, 14),
        (0b11001101000, 52),
        (0b11001110000, 108),
        (0b11001111000, 148),
        (0b11010011000, 10),
        (0b11011011000, -11),
        (0b11011100000, 20),
        (0b11011100100, -9),
        (0b11011110000, 72),
        (0b11011110100, 6),
        (0b11011111000, 101),
        (0b11011111100, 1),
        (0b11100000000, -36),
        (0b11100000100, 58),
        (0b11100010000, -70),
        (0b11100010100, 8),
        (0b11100011000, -65),
        (0b11100011100, -7),
        (0b11100110000, 22),
        (0b11100111000, 26),
        (0b11101000000, -33),
        (0b11101000100, 12),
        (0b11101010000, -46),
        (0b11101010100, 6),
        (0b11101011000, -68),
        (0b11101011100, -13),
        (0b11101100000, 48),
        (0b11101100100, -33),
        (0b11101101000, 23),
        (0b11101101100, -45),
        (0b11101110000, 71),
        (0b11101110100, -24),
        (0b11101111000, 109),
        (0b11101111100, -89),
        (0b11110000000, -24),
        (0b11110000100, 17),
        (0b11110001000, -16),
        (0b11110010000, -37),
        (0b11110010100, 22),
        (0b11110011000, -49),
        (0b11110011100, -18),
        (0b11110100000, 2),
        (0b11110100100, -12),
        (0b11110110000, 18),
        (0b11110110100, -14),
        (0b11110111000, 20),
        (0b11110111100, -18),
        (0b11111000000, -32),
        (0b11111000100, 27),
        (0b11111010000, 7),
        (0b11111010100, 29),
        (0b11111011000, -23),
        (0b11111011100, -27),
        (0b11111100000, 8),
        (0b11111100100, -182),
        (0b11111101000, 4),
        (0b11111101100, -146),
        (0b11111110000, 103),
        (0b11111110100, -95),
        (0b11111111000, 95),
        (0b11111111100, -152),
    )
)
"""The threat table fitted to Rapfi's values of 181,890 quiet positions on top of the played
class set (``benchmarks/fit_gomoku_threats.py`` on the three 3,000-node label files, seed 26):
156 masks seen 100 times or more. Held-out loss against Rapfi's probabilities 0.5872 against
the class set's 0.5922 alone, against the results 0.5902 against 0.5987. The largest values:
the opponent's open three with no four to answer it, -182; the side to move with fours and
threes and the opponent with neither, +148."""
PLAYED_THREATS = RAPFI_THREAT_VALUES
"""The threat table the engine's context holds (``big_kernel.static_context``), added to the
evaluation times ``P_THREAT_EVAL`` eighths."""


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
    "triples": RAPFI_TRIPLE_VALUES,
    "triples-unproved": UNPROVED_TRIPLE_VALUES,
}
"""The sets a benchmark names (``bench_gomoku_peers.py --values NAME``): the plain ones, the
class set fitted to Rapfi and the same with the default's combination values (45.8 % against
the default's 45.3 % over 96 paired games: no gain either; BENCHMARKS.md), and the triple
sets fitted to Rapfi with and without its proved positions (not played by default: the first
gained within the noise of 96 paired games, the second lost 13 points over 48; BENCHMARKS.md,
"Gomoku: the class evaluation fitted further")."""
