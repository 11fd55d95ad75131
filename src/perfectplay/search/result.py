"""Result types of every search: scores that say whether they are exact, and search results.

Score scale (one for all games and algorithms, from the side to move's point of view)::

    +WIN - p   win with the p-th ply from now (p = 1: the next move wins)
    0          draw (exact) or an even heuristic value
    -(WIN - p) loss, the opponent's winning stone being the p-th ply from now
    |v| < HEURISTIC_BOUND   a heuristic value from an evaluation at the search horizon

Wins found sooner and losses found later score higher, so maximising the score prefers the
quickest win and the slowest loss.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from perfectplay.values import HEURISTIC_LIMIT, MAX_PLIES, WIN

M = TypeVar("M")

OutcomeName = Literal["win", "draw", "loss"]


def is_decisive(value: float) -> bool:
    """True for a value that encodes a proven win or loss."""
    return abs(value) > WIN - MAX_PLIES


def win_in(plies: int) -> int:
    """The value of a win whose deciding stone is ``plies`` plies away."""
    return WIN - plies


def loss_in(plies: int) -> int:
    """The value of a loss whose deciding stone is ``plies`` plies away."""
    return -(WIN - plies)


def finished_value(game: Any, position: Any, winner: Any, plies: int = 0) -> int:
    """The value of a finished ``position`` for its side to move, ``plies`` from the root.

    ``winner`` is the outcome's winner (``None`` for a draw). In most games the player who
    just moved won, so the side to move has lost; in the shape-and-color variant a move can
    hand the win to the opponent, who is then the side to move and has won.
    """
    if winner is None:
        return 0
    return win_in(plies) if winner == game.to_move(position) else loss_in(plies)


def _across_ply(value: float, plies: int) -> float:
    """Negate a value for the other side, its decisive distance grown by ``plies`` (+1 or -1)."""
    if not is_decisive(value):
        return -value
    return -value + (plies if value > 0 else -plies)


def score_of_move(score: Score) -> Score:
    """The mover's score for a move, given the score of the position it leads to.

    A position lost in ``p`` plies for its side to move is a move that wins in ``p + 1``.
    """
    return Score(_across_ply(score.value, +1), score.exact, score.weak)


def score_after_move(score: Score) -> Score:
    """The score of the position a move leads to, given the mover's score for the move
    (the inverse of :func:`score_of_move`)."""
    return Score(_across_ply(score.value, -1), score.exact, score.weak)


@dataclass(frozen=True, slots=True)
class Score:
    """A search value with its meaning.

    ``exact`` scores are game-theoretic: ``outcome`` is ``win``/``draw``/``loss`` and ``plies``
    the number of plies until the game ends with perfect play (counting the next move).
    Heuristic scores have ``outcome`` ``None``. A ``weak`` score is exact about the outcome
    only: its value is 1 (win), 0 (draw) or -1 (loss) and ``plies`` is ``None``. A decisive
    value that is not ``exact`` (``bounded``) is a proved win or loss whose ``plies`` is an
    upper bound: the game ends within that many plies (a threat-space proof on a big board).
    """

    value: float
    exact: bool
    weak: bool = False

    @property
    def outcome(self) -> OutcomeName | None:
        """``win``, ``draw``, ``loss`` for exact scores (and decisive heuristic ones)."""
        if self.weak:
            return "win" if self.value > 0 else "loss" if self.value < 0 else "draw"
        if is_decisive(self.value):
            return "win" if self.value > 0 else "loss"
        if self.exact:
            return "draw"
        return None

    @property
    def plies(self) -> int | None:
        """Plies to the end of a decisive game (at most that many when ``bounded``), ``None``
        when not decisive."""
        if is_decisive(self.value):
            return int(WIN - abs(self.value))
        return None

    @property
    def bounded(self) -> bool:
        """A proved win or loss whose distance is an upper bound (decisive, not exact)."""
        return not self.exact and not self.weak and is_decisive(self.value)

    def __str__(self) -> str:
        outcome = self.outcome
        if self.weak:
            return f"{outcome} (weak solve)"
        if outcome in ("win", "loss"):
            return f"{outcome} in {'at most ' if self.bounded else ''}{self.plies}"
        if outcome == "draw":
            return "draw"
        if abs(self.value) >= HEURISTIC_LIMIT:  # saturated: a threat seen, not a proof
            side = "winning" if self.value > 0 else "losing"
            return f"{side} by a threat the search sees (heuristic, not proven)"
        return f"{self.value + 0.0:+g} (heuristic)"  # + 0.0: -0.0 reads as +0


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[M]):
    """What a search found for the side to move.

    ``best_move`` is ``None`` for a finished position. ``depth`` is the number of plies the
    last completed iteration searched (the full remaining game for exact solves). ``time`` is
    in seconds. ``pv`` is the principal variation starting with ``best_move``.
    """

    best_move: M | None
    score: Score
    pv: tuple[M, ...]
    nodes: int
    depth: int
    time: float
    algorithm: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        """Whether the score is the game-theoretic value."""
        return self.score.exact


@dataclass(frozen=True, slots=True)
class MoveValue(Generic[M]):
    """The value of one legal move, from the mover's point of view after playing it."""

    move: M
    score: Score


_SET_MOVE, _SET_SCORE, _SET_PV, _SET_NODES, _SET_DEPTH, _SET_TIME, _SET_ALGORITHM, _SET_EXTRA = (
    getattr(SearchResult, name).__set__
    for name in ("best_move", "score", "pv", "nodes", "depth", "time", "algorithm", "extra")
)
"""The slot setters of :class:`SearchResult`'s fields."""


def quick_result(
    best_move: M | None,
    score: Score,
    pv: tuple[M, ...],
    nodes: int,
    depth: int,
    seconds: float,
    algorithm: str,
    extra: dict[str, Any],
) -> SearchResult[M]:
    """``SearchResult(best_move, score, pv, nodes, depth, seconds, algorithm, extra)``, made
    in half the time: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__`` (1-2 µs a result: a tenth of the smallest searches through
    :class:`perfectplay.api.Engine`); the slots' own setters skip that path. The same
    object (equal, hashable, immutable afterwards)."""
    result: SearchResult[M] = object.__new__(SearchResult)
    _SET_MOVE(result, best_move)
    _SET_SCORE(result, score)
    _SET_PV(result, pv)
    _SET_NODES(result, nodes)
    _SET_DEPTH(result, depth)
    _SET_TIME(result, seconds)
    _SET_ALGORITHM(result, algorithm)
    _SET_EXTRA(result, extra)
    return result
