"""How far unbounded work may go: one policy for every front door.

Some jobs have a size nobody knows until they are done: an exact solve, the exact values at
the leaves of a game tree, the exact value of every sub-board of a board's history, the count
of a whole game tree. The command line starts such a job without a bound only when the
game's kit says it ends in reasonable time (seconds, not hours); otherwise it refuses the job,
saying why and naming the option that bounds it. The same measure serves every verb:

* an exact value is within reach when the position has at most the kit's
  :attr:`~perfectplay.games.kit.Policy.exact_plies` plies left, or when the kernel's opening
  book answers it (:meth:`~perfectplay.games.kernel.Kernel.book_reach`);
* a tree with exact leaves needs its leaves within reach, and a history every sub-board
  from the empty board to the target (it values them all); beyond, they are refused up front;
* a single exact ``solve`` or ``analyze`` beyond reach is not refused blindly, since some
  positions far from the end are decided quickly (a forced win) and many just past the reach
  take seconds: the exact solver gets a trial of :data:`TRIAL_SECONDS` under the clock (the
  clock starts once the engine is loaded), and the job is refused when the trial does not
  end exact, saying how long the solve would take: an estimate from the growth of the
  solver's own work on this position (:mod:`perfectplay.search.estimate`), given as "about"
  with its basis, never as certain (the trial's time alone, a lower bound, when the trial
  measured no growth);
  an untimed ``best`` beyond reach thinks for the game's play time instead;
* a whole game tree is counted only on boards of at most
  :attr:`~perfectplay.games.kit.Policy.whole_tree_cells` cells.

Each refusal is a :class:`~perfectplay.errors.ParameterError` whose message names the job,
the numbers that decided it and the option that bounds the job. (The web app bounds every
request by its own time cap instead.)
"""

from __future__ import annotations

from dataclasses import dataclass

from perfectplay.errors import ParameterError
from perfectplay.search.estimate import Estimate

TRIAL_SECONDS = 10.0
"""The time an unbounded exact solve or analysis beyond reach gets before it is refused: the
exact solver's alone, in processor time (a busy machine slows the trial, it does not fail
it), counted once its engine is loaded (compiled code, table), so that a
position it proves within the time a person waits for a command is proved (the empty 5x5
board of (5,5,4), 25 plies from the end, takes 2 to 4 s)."""


@dataclass(frozen=True, slots=True)
class Reach:
    """Which exact values come in reasonable time: positions with at most ``exact_plies``
    plies left (``None``: every position), and those with at least ``book_plies`` plies left,
    which the opening book answers (``None``: no book)."""

    exact_plies: int | None
    book_plies: int | None = None

    def covers(self, plies_left: int) -> bool:
        """True when a position with ``plies_left`` plies left has its exact value in
        reasonable time."""
        if self.exact_plies is None or plies_left <= self.exact_plies:
            return True
        return self.book_plies is not None and plies_left >= self.book_plies

    def gap(self, least: int, most: int) -> tuple[int, int] | None:
        """The plies left, from fewest to most, within ``[least, most]`` that are out of
        reach (one range: between the exact search's reach and the book's), or ``None``."""
        if self.exact_plies is None:
            return None
        low = max(least, self.exact_plies + 1)
        high = most if self.book_plies is None else min(most, self.book_plies - 1)
        return (low, high) if low <= high else None

    def limit_text(self) -> str:
        """The reach in words, for messages."""
        if self.book_plies is None:
            return f"at most {self.exact_plies} plies left"
        return f"at most {self.exact_plies} plies left or at least {self.book_plies} in the book"


def check_trial(
    job: str,
    reach: Reach,
    plies_left: int,
    exact: bool,
    bounds: str,
    every_move: bool = False,
    estimate: Estimate | None = None,
) -> None:
    """Refuse the answer of a trial (see the module docstring) that did not end ``exact``;
    ``every_move``: the trial valued every move of the position; ``estimate``: what the
    trial measured of the solve's cost (``None``: nothing, the trial's time is then given
    as a lower bound). Raises :class:`ParameterError`."""
    if exact:
        return
    if estimate is not None:
        raise ParameterError(
            f"{job}: {plies_left} plies left; solving would take {estimate.text()}; {bounds}"
        )
    tried = "the moves of a position" if every_move else "a position"
    raise ParameterError(
        f"{job}: not proved in its {TRIAL_SECONDS:g} s trial on {tried} {plies_left} plies "
        f"from the end, so it needs more than {TRIAL_SECONDS:g} s of processor time (solves "
        f"end soon with {reach.limit_text()}); {bounds}"
    )


def check_leaves(job: str, reach: Reach, plies_left: int, depth: int, bounds: str) -> None:
    """Refuse a tree cut ``depth`` plies below a root ``plies_left`` plies from its end when
    its exact leaves are out of ``reach``. Raises :class:`ParameterError`."""
    leaves = plies_left - depth
    if leaves > 0 and not reach.covers(leaves):
        raise ParameterError(
            f"{job}: its leaves, {depth} plies down, have {leaves} plies left, too many to "
            f"value exactly in reasonable time ({reach.limit_text()}); {bounds}"
        )


def check_history(job: str, reach: Reach, plies_left: int, full: int) -> None:
    """Refuse a history of a board ``plies_left`` plies from its end, in a game of ``full``
    plies at most, when some of its sub-boards are out of ``reach`` (each needs an exact
    value). Raises :class:`ParameterError`."""
    gap = reach.gap(plies_left, full)
    if gap is not None:
        low, high = gap
        span = str(low) if low == high else f"{low} to {high}"
        raise ParameterError(
            f"{job}: it values every sub-board exactly, and those with {span} plies left "
            f"are too far from the end to solve in reasonable time ({reach.limit_text()}); "
            "a smaller board, or an opening book reaching deeper, would do"
        )


def check_whole_tree(job: str, cells: int | None, plies: int, depth: int | None = None) -> None:
    """Refuse counting a whole game tree of ``plies`` plies at most on a game whose policy
    counts whole trees only up to ``cells`` cells (``None``: any), and the same for a tree cut
    ``depth`` plies down that is that deep (a ``depth`` beyond the policy's is a tree as large
    as the whole tree it refuses). Raises :class:`ParameterError`."""
    if cells is None:
        return
    if depth is not None and min(depth, plies) > cells:
        raise ParameterError(
            f"{job}: a tree {min(depth, plies)} plies deep is far too large to count "
            f"(trees up to {cells} plies deep); give a smaller --depth D (such as --depth 6)"
        )
    if depth is None and plies > cells:
        raise ParameterError(
            f"{job}: the whole game tree ({plies} plies deep) is far too large to count "
            f"(whole trees up to {cells} cells); give --depth D (such as --depth 6)"
        )
