"""Exact values of many positions of one game, memoised, from the fastest engine it has.

History reconstruction and the game tree ask for the exact value of thousands of related
positions (every sub-board of a target board, every leaf of a cut tree). :class:`ExactValues`
answers them one by one and keeps one transposition table for all of them, so that work
done for one position speeds up the next:

* m,n,k boards of up to :data:`COMPLETE_TABLE_CELLS` cells (tic-tac-toe): the complete
  value table of the game (:meth:`perfectplay.games.mnk.kernel.MNKKernel.exact_values`, about
  15 ms for 3x3), built once per process and shared by every instance;
* any game with a compiled kernel: the kernel's exact value on one shared table (a full-depth
  search for m,n,k boards, the exact solver for Connect Four);
* any other game: the generic exact :func:`perfectplay.search.solver.solve`.

Values use the scale of :mod:`perfectplay.search.result`, for the side to move: ``WIN - p``
for a win whose deciding stone is the ``p``-th ply from now, 0 for a draw, ``-(WIN - p)``
for a loss. A finished position is worth 0 (draw), ``-WIN`` when the side to move has lost,
``WIN`` in a game where a move can hand the win to the opponent (who then is the side to
move).

An instance is not thread-safe (the kernels are not): use one per thread.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import Any

from perfectplay.errors import ParameterError
from perfectplay.games import interrupt
from perfectplay.games.kernel import Kernel
from perfectplay.search.result import Score, score_of_move
from perfectplay.search.solver import SearchOptions, solve
from perfectplay.values import WIN

COMPLETE_TABLE_CELLS = 9
"""Boards up to this many cells are valued from their complete table (3**9 positions bound)."""
MAX_TABLE_BITS = 22
"""The shared table has the kernel's default size, at most 2**22 slots."""
PYTHON_SEARCH = SearchOptions(engine="python")


class ExactValues:
    """Memoised exact values of positions of ``game`` (see the module docstring).

    ``engine="python"`` skips the compiled kernel. Construction is cheap; the kernel is
    loaded (about a second, once per process) on the first query that needs it.
    """

    def __init__(self, game: Any, engine: str = "auto") -> None:
        self.game = game
        self._memo: dict[Hashable, int] = {}
        self._kernel: Kernel[Any, Any] | None = None
        self._table: Any = None
        self._engine = engine
        self._ready = False
        self._complete: Mapping[Hashable, int] | None = None

    def __len__(self) -> int:
        """Positions valued so far."""
        return len(self._memo)

    def value(self, position: Any) -> int:
        """The exact value of ``position`` for its side to move."""
        key = self.game.key(position)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._compute(position)
        return known

    def move_value(self, position: Any, move: Any) -> int:
        """The exact value of ``move`` in ``position`` for the side playing it."""
        child = self.game.play(position, move)
        return int(score_of_move(Score(self.value(child), True)).value)

    # -- engines --------------------------------------------------------------------------
    def _compute(self, position: Any) -> int:
        outcome = self.game.outcome(position)
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN if outcome.winner == self.game.to_move(position) else -WIN
        if not self._ready:
            self._prepare()
        if self._complete is not None:
            known = self._complete.get(self.game.key(position))
            if known is not None:
                return known
        if self._kernel is None:
            return int(solve(self.game, position, search=PYTHON_SEARCH).score.value)
        with interrupt.guard():
            return int(self._kernel.exact_value(position, self._table))

    def _prepare(self) -> None:
        """Load the kernel and allocate the shared table (once)."""
        self._ready = True
        game = self.game
        kernel = None if self._engine == "python" else game.kernel()
        self._kernel = kernel
        if kernel is None:
            return
        small = game.plies_left_bound(game.initial()) <= COMPLETE_TABLE_CELLS
        if kernel.traits.complete_table and small:
            self._complete = complete_table(game)
        self._table = kernel.new_table(min(kernel.table_entries_hint(), 1 << MAX_TABLE_BITS))


@lru_cache(maxsize=8)
def complete_table(game: Any) -> Mapping[Hashable, int]:
    """The exact value of every position of a small game, keyed by ``game.key`` (built once
    per game and process; treat it as read-only)."""
    kernel = game.kernel()
    if kernel is None or not kernel.traits.complete_table:
        raise ParameterError(f"complete table: {game.name} has no kernel that lists one")
    return dict(kernel.exact_values(game.initial()))
