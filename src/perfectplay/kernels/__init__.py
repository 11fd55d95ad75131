"""Compiled search kernels, one module per game, and the protocol the solver drives them by.

Kernel modules import numba; import them lazily (inside functions) so that the command line
and the library start fast. A game offers its kernel through ``game.kernel()`` (``None`` when
the board is too large for the kernel's representation).

Optional attributes a kernel may have, read by :mod:`perfectplay.search.solver`:

* ``exact_line(position, first, value, table, deadline=None)``: a principal variation of an
  exactly solved position (else the solver re-proves each step through
  :meth:`Kernel.search`), cut short at ``deadline`` (``time.perf_counter`` seconds) when
  given, so that a timed search answers in time even when its score came at once (from an
  opening book) and the line needs deep proofs;
* ``solves_exactly_first = True``: under a time limit, try an exact solve on half the budget
  before deepening (Connect Four's exact solver is far better than its depth-limited search);
* ``proves_with_full_depth = True``: re-prove exact values with full-depth searches only;
* ``takes_deadline = True``: ``search`` accepts ``deadline=`` (``time.perf_counter`` seconds)
  and stops there by itself, so the solver need not turn time into a node budget.

Kernels keep scratch memory per board size and are not thread-safe: run one search at a
time per board size in a process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class KernelResult:
    """One fixed-depth root search: the move (``None`` if aborted before any), its value
    (root-relative scale of :mod:`perfectplay.search.result`), nodes, horizon leaves reached,
    and whether the node budget ran out (then the value is only the best of the moves done).
    """

    move: Any
    value: int
    nodes: int
    horizon: int
    aborted: bool


class Kernel(Protocol):
    """What :mod:`perfectplay.search.solver` needs from a compiled kernel."""

    def new_table(self, entries: int) -> Any:
        """A fresh transposition table with ``entries`` slots."""
        ...

    def table_entries_hint(self) -> int:
        """Table slots beyond which a bigger table cannot help (the state-space size)."""
        ...

    def search(
        self,
        position: Any,
        depth: int,
        first: Any,
        table: Any,
        node_budget: int,
        symmetry: bool = True,
        ordering: bool = True,
    ) -> KernelResult:
        """Search a running position ``depth`` plies deep, ``first`` move tried first."""
        ...

    def table_move(self, position: Any, table: Any) -> Any:
        """The table's best move for a running position, or ``None``."""
        ...

    def principal_variation(self, position: Any, first: Any, table: Any) -> tuple[Any, ...]:
        """``first`` and the table's best moves after it."""
        ...
