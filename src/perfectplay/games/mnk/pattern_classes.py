"""The cell table of a :class:`~.pattern_values.ClassValues` set (issue 26): a cell's value
by the class of its four direction codes (the pair of its two strongest; the three strongest
for a :class:`~.pattern_values.TripleValues` set), built in Python
like :func:`.patterns.cell_values` and read by the compiled board the same way, so a class
set is a runtime choice (no recompile; this module is not imported by compiled code).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.mnk.pattern_values import (
    MAX_VALUE,
    ClassValues,
    PatternValues,
    ThreatValues,
    TripleValues,
    Values,
    pair_index,
    triple_index,
)
from perfectplay.games.mnk.patterns import (
    F5,
    THREAT_MASKS,
    cell_values,
    code_table,
    scoring_entries,
    two_wins,
)


def class_value(codes: tuple[int, ...], values: ClassValues | TripleValues) -> int:
    """A side's value of a cell with these four direction codes by a class set: ``five``
    with a five, else the pair of the two strongest codes plus the other two's scores (by a
    triple set: the triple of the three strongest plus the fourth's score)."""
    first, second, third, fourth = sorted(codes, reverse=True)
    if first == F5:
        return values.five
    if isinstance(values, TripleValues):
        return values.triples[triple_index(first, second, third)] + values.scores[fourth]
    pair = values.pairs[pair_index(first, second)]
    return pair + values.scores[third] + values.scores[fourth]


@lru_cache(maxsize=4)
def class_table(values: ClassValues | TripleValues) -> np.ndarray[Any, Any]:
    """``table[c0 + 10 c1 + 100 c2 + 1000 c3]``: :func:`class_value` of every four codes,
    times 2, plus 1 when :func:`~.patterns.two_wins` (the layout of
    :func:`~.patterns.cell_values`). Built once per set and never written."""
    return code_table(lambda codes: 2 * class_value(codes, values) + two_wins(codes))


def value_table(values: Values) -> np.ndarray[Any, Any]:
    """The compiled board's cell table of either kind of set."""
    if isinstance(values, PatternValues):
        return cell_values(values)
    return class_table(values)


@lru_cache(maxsize=8)
def scoring_table(values: Values) -> np.ndarray[Any, Any]:
    """The compiled board's evaluation cell table of a set: :func:`value_table` with each
    cell's threat class (:func:`~.patterns.scoring_entries`). Built once per set and never
    written."""
    return scoring_entries(value_table(values))


@lru_cache(maxsize=4)
def threat_table(threats: ThreatValues) -> np.ndarray[Any, Any]:
    """The compiled board's threat table: ``table[mask]`` the value of a threat mask. Raises
    :class:`~perfectplay.errors.ParameterError` when a mask is not one of
    :data:`~.patterns.THREAT_MASKS` or a value is beyond :data:`~.pattern_values.MAX_VALUE`
    either way. Built once per set and never written."""
    table = np.zeros(THREAT_MASKS, dtype=np.int64)
    for mask, value in threats.entries:
        if not (0 <= mask < THREAT_MASKS and -MAX_VALUE <= value <= MAX_VALUE):
            raise ParameterError(
                f"threat values entry ({mask}, {value}): give a mask from 0 to "
                f"{THREAT_MASKS - 1} and a value from {-MAX_VALUE} to {MAX_VALUE}"
            )
        table[mask] = value
    return table
