"""Rebuild the history of a board: the orders of play that reach it, judged move by move.

Given a board (finished or not), :func:`reconstruct` answers: can it be reached from the
empty board by a game in which **every move was optimal** for the player who made it; one
such history; how many there are; and, when there is none, a history with the **fewest
non-optimal moves**, each mistake with the value the mover had before it and the value of
the move played ("move 5 turned a draw into a loss").

Two notions of an optimal move (:data:`Notion`):

* ``"outcome"`` (the default): the move keeps the game-theoretic result, win stays win,
  draw stays draw (a side that is lost anyway cannot make a mistake);
* ``"strict"``: the move also keeps the distance, the quickest win and the slowest loss
  (its exact value equals the best exact value of the position).

Method: every position of a history is the target board with some stones taken away, so the
search runs over sub-boards of the target. Going back from the target, a sub-board's
predecessors take away one stone of the player who moved last (in Connect Four only a stone
on top of its column); a predecessor must be a running game (the game ends at the first
line). Going forward from the empty board, a dynamic programme over these sub-boards counts
the optimal histories (paths whose every move is optimal) and finds the fewest mistakes
(with a back-pointer to rebuild one such path). Exact values come from
:class:`perfectplay.analysis.exact.ExactValues`: one exact value per sub-board, the best
value of a position being its own value and a move's value that of the position it makes.

Supported games: those whose kit declares the ``HISTORY`` capability and gives a
:class:`~perfectplay.games.kit.Retraction` (m,n,k boards and Connect Four). A board no legal
game reaches raises :class:`~perfectplay.errors.IllegalPositionError`; too many sub-boards raise
:class:`~perfectplay.errors.ParameterError`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from perfectplay.analysis.exact import ExactValues
from perfectplay.errors import IllegalPositionError, ParameterError, quote
from perfectplay.games.kit import Retraction
from perfectplay.games.protocol import Player
from perfectplay.search.result import Score, score_of_move

Notion = Literal["outcome", "strict"]
NOTIONS: tuple[Notion, ...] = ("outcome", "strict")
MAX_STATES = 2_000_000
"""Most sub-boards a reconstruction will consider (an upper bound is checked first)."""

State = tuple[int, int]
"""A sub-board: the first player's and the second player's stones, as bitboards."""


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """One move of a history.

    ``ply`` is the 1-based move number, ``position`` the board after the move. ``best`` is
    the exact value the mover could reach before the move and ``played`` the exact value of
    the move played, both for the mover on the scale of :mod:`perfectplay.search.result`.
    """

    ply: int
    move: Any
    player: Player
    position: Any
    best: int
    played: int
    optimal: bool


@dataclass(frozen=True, slots=True)
class History:
    """The answer of :func:`reconstruct`.

    ``steps`` is an all-optimal history when there is one, else one with the fewest
    mistakes; ``optimal_histories`` counts the all-optimal move orders (0 when none).
    """

    position: Any
    notion: Notion
    steps: tuple[HistoryStep, ...]
    optimal_histories: int

    @property
    def reachable_optimally(self) -> bool:
        """Whether some history of the board has only optimal moves."""
        return self.optimal_histories > 0

    @property
    def moves(self) -> tuple[Any, ...]:
        """The moves of ``steps``, in order."""
        return tuple(step.move for step in self.steps)

    @property
    def mistakes(self) -> tuple[HistoryStep, ...]:
        """The non-optimal steps (none when the board is reachable optimally)."""
        return tuple(step for step in self.steps if not step.optimal)


def value_words(value: int, notion: Notion) -> str:
    """``win``/``draw``/``loss`` (``outcome``), or with the distance: ``win in 3``
    (``strict``)."""
    score = Score(value, True)
    return str(score) if notion == "strict" else str(score.outcome)


def mistake_text(step: HistoryStep, notion: Notion) -> str:
    """``move 5 turned a draw into a loss``."""
    before, after = value_words(step.best, notion), value_words(step.played, notion)
    return f"move {step.ply} turned a {before} into a {after}"


def is_optimal(best: int, played: int, notion: Notion) -> bool:
    """Whether a move worth ``played`` is optimal where ``best`` was available."""
    if notion == "strict":
        return played == best
    return _sign(played) == _sign(best)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


# -- sub-boards -------------------------------------------------------------------------------
class _SubBoards:
    """The target's sub-boards, as the game's :class:`Retraction` takes stones back."""

    def __init__(self, game: Any, retraction: Retraction, target: Any) -> None:
        self.game = game
        self.retraction = retraction
        self.target_state: State = retraction.state_of(target)

    def removable(self, state: State) -> int:
        """Stones of the last mover that can have been its last stone."""
        return self.retraction.removable(state)

    def move_of(self, stone: int) -> Any:
        """The move that placed the single-bit ``stone``."""
        return self.retraction.move_of(stone)

    def bound(self) -> int:
        """An upper bound on the number of sub-boards."""
        return self.retraction.bound(self.target_state)

    def position(self, state: State) -> Any:
        """The running position of ``state``, or ``None`` if no game passes through it
        (a line on the board: the game would have ended)."""
        try:
            position = self.retraction.position(state)
        except IllegalPositionError:
            return None
        return position if self.game.outcome(position) is None else None


# -- the reconstruction -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Edge:
    """A move from ``before`` (a state) that makes the state this edge is stored under."""

    before: State
    stone: int


@dataclass(slots=True)
class _Tally:
    """Forward dynamic-programme entry of one state."""

    optimal_paths: int
    mistakes: int
    back: _Edge | None
    best: int = 0
    played: int = 0
    optimal: bool = True


HistoryProgress = Callable[[int, int, int, float], None]
"""Called as sub-boards are valued: (stones on the boards being valued, stones on the
target, sub-boards valued so far, seconds)."""


def reconstruct(
    game: Any,
    position: Any,
    retraction: Retraction,
    notion: Notion = "outcome",
    values: ExactValues | None = None,
    on_progress: HistoryProgress | None = None,
) -> History:
    """The history of ``position`` (a validated position of ``game``) under ``notion``,
    taking stones back as the game's ``retraction`` says (its kit's, for games that declare
    the ``HISTORY`` capability).

    ``values`` lets several calls share exact values (it must belong to ``game``);
    ``on_progress`` hears of each sub-board valued (the boards with few stones, far from the
    end, are the slow ones, and come first). Raises
    :class:`ParameterError` for an unknown notion or a board with too
    many sub-boards (more than :data:`MAX_STATES`), and :class:`IllegalPositionError` when
    no legal game reaches the board (possible for Connect Four boards that pass the
    notation's checks, e.g. player 2's stone under player 1's alone in a column).
    """
    if notion not in NOTIONS:
        raise ParameterError(f"notion {quote(notion)}: expected one of {', '.join(NOTIONS)}")
    boards = _SubBoards(game, retraction, position)
    bound = boards.bound()
    if bound > MAX_STATES:
        raise ParameterError(
            f"history: up to {bound:,} sub-boards to examine on this board; the limit is "
            f"{MAX_STATES:,}"
        )
    values = ExactValues(game) if values is None else values
    layers, edges = _predecessors(boards, position)
    tallies = _forward(layers, edges, values, notion, on_progress)
    final = tallies.get(boards.target_state)
    if final is None:
        raise IllegalPositionError(
            "no legal game reaches this board: its stones cannot be taken back one at a time, "
            "the last mover's first (as the rules allow), down to the empty board without "
            "passing a finished position"
        )
    steps = _rebuild(boards, layers, tallies)
    return History(position, notion, steps, final.optimal_paths)


def _predecessors(
    boards: _SubBoards, target: Any
) -> tuple[list[dict[State, Any]], dict[State, list[_Edge]]]:
    """Layers of states by stone count (position of each) and each state's incoming edges,
    walking back from the target; states no game passes through are left out."""
    start = boards.target_state
    count = (start[0] | start[1]).bit_count()
    layers: list[dict[State, Any]] = [{} for _ in range(count + 1)]
    layers[count][start] = target
    edges: dict[State, list[_Edge]] = {}
    for ply in range(count, 0, -1):
        below = layers[ply - 1]
        dead: set[State] = set()
        for state in layers[ply]:
            incoming = edges[state] = []
            stones = boards.removable(state)
            while stones:
                stone = stones & -stones
                stones ^= stone
                before = (state[0] & ~stone, state[1] & ~stone)
                if before in dead:
                    continue
                if before not in below:
                    found = boards.position(before)
                    if found is None:
                        dead.add(before)
                        continue
                    below[before] = found
                incoming.append(_Edge(before, stone))
    return layers, edges


def _forward(
    layers: list[dict[State, Any]],
    edges: dict[State, list[_Edge]],
    values: ExactValues,
    notion: Notion,
    on_progress: HistoryProgress | None = None,
) -> dict[State, _Tally]:
    """Optimal-path counts and fewest mistakes of every state reachable from the empty board."""
    tallies: dict[State, _Tally] = {}
    if (0, 0) in layers[0]:
        tallies[(0, 0)] = _Tally(1, 0, None)
    started, valued = time.perf_counter(), 0
    for layer_index in range(1, len(layers)):
        for state, position in layers[layer_index].items():
            tally = _tally(state, position, layers[layer_index - 1], edges, tallies, values, notion)
            if tally is not None:
                tallies[state] = tally
            valued += 1
            if on_progress is not None:
                on_progress(layer_index, len(layers) - 1, valued, time.perf_counter() - started)
    return tallies


def _tally(
    state: State,
    position: Any,
    below: dict[State, Any],
    edges: dict[State, list[_Edge]],
    tallies: dict[State, _Tally],
    values: ExactValues,
    notion: Notion,
) -> _Tally | None:
    """The entry of ``state`` from its predecessors' entries (``None`` if none is reachable)."""
    reachable = [edge for edge in edges.get(state, ()) if edge.before in tallies]
    if not reachable:
        return None
    result: _Tally | None = None
    played = int(score_of_move(Score(values.value(position), True)).value)
    for edge in reachable:
        previous = tallies[edge.before]
        best = values.value(below[edge.before])
        optimal = is_optimal(best, played, notion)
        mistakes = previous.mistakes + (0 if optimal else 1)
        paths = previous.optimal_paths if optimal else 0
        if result is None:
            result = _Tally(paths, mistakes, edge, best, played, optimal)
            continue
        result.optimal_paths += paths
        if mistakes < result.mistakes:
            result.mistakes, result.back = mistakes, edge
            result.best, result.optimal = best, optimal
    return result


def _rebuild(
    boards: _SubBoards, layers: list[dict[State, Any]], tallies: dict[State, _Tally]
) -> tuple[HistoryStep, ...]:
    """The fewest-mistakes path, read back from the target along the back-pointers."""
    steps: list[HistoryStep] = []
    state = boards.target_state
    ply = len(layers) - 1
    while ply > 0:
        tally = tallies[state]
        edge = tally.back
        assert edge is not None  # every reachable non-empty state has a predecessor
        player = Player.FIRST if ply % 2 else Player.SECOND
        move = boards.move_of(edge.stone)
        steps.append(
            HistoryStep(
                ply, move, player, layers[ply][state], tally.best, tally.played, tally.optimal
            )
        )
        state, ply = edge.before, ply - 1
    return tuple(reversed(steps))
