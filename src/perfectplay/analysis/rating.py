"""Elo from game results: each player's score against the field it met, with error bars.

The method is the one cutechess-cli prints for a match, applied to each player's games:

* ``p``, the player's score: ``(wins + draws / 2) / games``;
* ``elo = -400 * log10(1 / p - 1)``: the Elo difference at which the logistic Elo model
  expects that score, against the mean of the opponents met (in a round robin every player
  meets the same field, so the numbers compare; in a gauntlet the field's players met only
  the first);
* the error bar is a 95 % interval: the per-game standard deviation of the score
  ``s = sqrt((W (1 - p)^2 + D (1/2 - p)^2 + L p^2) / n)``, its standard error
  ``s / sqrt(n)``, and ``(elo(p + 1.96 se) - elo(p - 1.96 se)) / 2``.

A score of 0 or 1 has no finite Elo (nor does an interval that reaches 0 or 1): then
:attr:`Elo.value` or :attr:`Elo.error` is ``None`` and :attr:`Elo.bound` says ``"-inf"``
or ``"+inf"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True, slots=True)
class Elo:
    """An Elo difference to the field met and the half-width of its 95 % interval
    (``None`` where infinite; ``bound`` is then ``"+inf"``/``"-inf"`` for the value)."""

    value: float | None
    error: float | None
    bound: str | None = None

    def __str__(self) -> str:
        if self.value is None:
            return str(self.bound)
        error = "inf" if self.error is None else f"{self.error:.0f}"
        return f"{round(self.value) or 0:+d} ± {error}"

    def as_dict(self) -> dict[str, float | str | None]:
        """``standings.json``'s form: rounded value and error, bound, and as the report
        writes it (``text``)."""
        return {
            "value": None if self.value is None else round(self.value, 1),
            "error": None if self.error is None else round(self.error, 1),
            "bound": self.bound,
            "text": str(self),
        }


def elo_of_score(p: float) -> float:
    """The Elo difference whose expected score is ``p`` (0 < p < 1)."""
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo(wins: int, draws: int, losses: int) -> Elo:
    """The Elo of a player's ``wins``, ``draws`` and ``losses`` (see the module docstring).
    Raises ``ValueError`` for a negative count; no games give ``Elo(0, None)``."""
    if min(wins, draws, losses) < 0:
        raise ValueError(f"negative counts: {wins} wins, {draws} draws, {losses} losses")
    n = wins + draws + losses
    if n == 0:
        return Elo(0.0, None)
    p = (wins + draws / 2) / n
    if p <= 0 or p >= 1:
        return Elo(None, None, "-inf" if p <= 0 else "+inf")
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    se = math.sqrt(variance / n)
    low, high = p - Z95 * se, p + Z95 * se
    if low <= 0 or high >= 1:
        return Elo(elo_of_score(p), None)
    return Elo(elo_of_score(p), (elo_of_score(high) - elo_of_score(low)) / 2)
