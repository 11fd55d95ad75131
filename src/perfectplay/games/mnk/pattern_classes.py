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

from perfectplay.games.mnk.pattern_values import (
    CODES,
    ClassValues,
    PatternValues,
    TripleValues,
    Values,
    pair_index,
    triple_index,
)
from perfectplay.games.mnk.patterns import F5, cell_values, two_wins


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
    table = np.zeros(CODES**4, dtype=np.int64)
    for index in range(CODES**4):
        codes = tuple(index // CODES**d % CODES for d in range(4))
        table[index] = 2 * class_value(codes, values) + two_wins(codes)
    return table


def value_table(values: Values) -> np.ndarray[Any, Any]:
    """The compiled board's cell table of either kind of set."""
    if isinstance(values, PatternValues):
        return cell_values(values)
    return class_table(values)
