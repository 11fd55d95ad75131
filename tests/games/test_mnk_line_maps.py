"""The big-board engine's bit-parallel line maps (issue 26) against the old window scans.

``board_compiled.threat_map``/``threat_maps`` were ``O(k**3)`` loops of shifted conjunctions
and are now bit-sliced window counts; the old loops are kept here, in plain Python, as the
slow reference. The search must be unchanged, so every map must be identical.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from perfectplay.games.mnk.board_compiled import line_value, threat_map, threat_maps
from perfectplay.games.mnk.lines import evaluation_weights


def sh(x: int, d: int) -> int:
    """``x`` moved ``d`` bits down (negative: up)."""
    return x >> d if d >= 0 else x << (-d)


def reference_threat_map(m: int, e: int, k: int, exact: bool, four: bool) -> int:
    """The engine's threat map before issue 26: per new-stone offset ``j`` and gap ``q``,
    a conjunction of shifted sets."""
    result = 0
    for j in range(k):
        for q in range(k if four else 1):
            if four and q == j:
                continue
            acc = e & sh(e, q - j) if four else e
            for i in range(k):
                if i != j and not (four and i == q):
                    acc &= sh(m, i - j)
            if exact:
                acc &= ~(sh(m, -j - 1) | sh(m, k - j))
            result |= acc
    return result


def reference_line_value(a: int, b: int, length: int, k: int, weights: list[int]) -> int:
    """The windows' evaluation before issue 26: a loop over every window."""
    value = 0
    for s in range(length - k + 1):
        ca, cb = bin(a >> s & ((1 << k) - 1)).count("1"), bin(b >> s & ((1 << k) - 1)).count("1")
        if ca and not cb:
            value += weights[ca]
        elif cb and not ca:
            value -= weights[cb]
    return value


def random_line(rng: random.Random, length: int) -> tuple[int, int, int]:
    """``(mine, theirs, empty)`` of a random line, dense in stones to make threats common."""
    mine = theirs = 0
    for bit in range(length):
        draw = rng.random()
        if draw < 0.55:
            mine |= 1 << bit
        elif draw < 0.7:
            theirs |= 1 << bit
    return mine, theirs, ((1 << length) - 1) & ~(mine | theirs)


@pytest.mark.parametrize("k", range(1, 10))
@pytest.mark.parametrize("exact", [False, True])
def test_threat_maps_equal_the_window_conjunctions(k: int, exact: bool) -> None:
    rng = random.Random(k * 2 + exact)
    for _ in range(600):
        length = rng.randint(1, 20)
        mine, _theirs, empty = random_line(rng, length)
        wins = reference_threat_map(mine, empty, k, exact, False)
        fours = reference_threat_map(mine, empty, k, exact, True)
        assert threat_maps(mine, empty, k, exact) == (wins, fours), (length, mine, empty)
        assert threat_map(mine, empty, k, exact, False) == wins
        assert threat_map(mine, empty, k, exact, True) == fours


@pytest.mark.parametrize("k", range(1, 10))
def test_line_value_equals_the_window_loop(k: int) -> None:
    rng = random.Random(100 + k)
    weights = np.array(evaluation_weights(k), dtype=np.int64)
    for _ in range(600):
        length = rng.randint(1, 20)
        a, b, _empty = random_line(rng, length)
        if rng.random() < 0.5:
            a, b = b, a
        expected = reference_line_value(a, b, length, k, [int(w) for w in weights])
        assert line_value(a, b, length, k, weights) == expected, (length, a, b)
