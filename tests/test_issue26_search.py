"""Issue 26: a stronger Gomoku search for the same time. A timed search keeps the move of
an iteration cut off by its deadline when that iteration had searched the previous best to
the end and found a better one (the big-board kernel's ``move_ready`` trait); and a search
stopped before it starts answers the move it was given to try first."""

from __future__ import annotations

import time
from typing import Any

import pytest

from perfectplay import api
from perfectplay.games.kernel import KernelResult, SearchControls
from perfectplay.games.mnk.big_kernel import BigMNKKernel

# Row 7: x at columns 6-7, o at columns 8 and 5: a quiet middle game (0-based row, column).
BOARD = "/".join("_" * 15 if r != 7 else "_" * 5 + "oxxo" + "_" * 6 for r in range(15))


def loaded() -> tuple[Any, Any]:
    return api.load("tictactoe", BOARD, k=5)


def test_a_cut_off_iteration_that_beat_the_previous_move_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second iteration is cut off (aborted) after its first move, the first iteration's,
    was beaten by another: the search answers that other move, not the first iteration's."""
    game, position = loaded()
    real = BigMNKKernel.search
    seen: dict[str, Any] = {}

    def search(self: BigMNKKernel, position: Any, depth: int, first: Any, *rest: Any) -> Any:
        found = real(self, position, depth, first, *rest)
        if depth == 1:
            seen["first"] = found.move
            return found
        other = next(m for m in game.ordered_moves(position) if m != first)
        seen["other"] = other
        return KernelResult(other, 7, found.nodes, 1, True)

    monkeypatch.setattr(BigMNKKernel, "search", search)
    result = api.solve(game, position, api.limit(time=30), line=False)
    assert result.best_move == seen["other"] != seen["first"]
    assert result.depth == 1 and not result.score.exact


def test_a_cut_off_iteration_without_a_better_move_keeps_the_previous_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, position = loaded()
    real = BigMNKKernel.search

    def search(self: BigMNKKernel, position: Any, depth: int, first: Any, *rest: Any) -> Any:
        found = real(self, position, depth, first, *rest)
        return found if depth == 1 else KernelResult(first, -5, found.nodes, 1, True)

    monkeypatch.setattr(BigMNKKernel, "search", search)
    plain = api.solve(game, position, api.limit(depth=1), line=False)
    result = api.solve(game, position, api.limit(time=30), line=False)
    assert result.best_move == plain.best_move and result.score.value == plain.score.value


def test_a_search_stopped_before_it_starts_answers_its_first_move() -> None:
    """With its deadline already past, the kernel answers the move it was told to try first
    (the previous iteration's), not its own first by gain."""
    game, position = loaded()
    kernel = BigMNKKernel(game, api.kernel_options())
    by_gain = kernel.search(position, 1, None, None, 1_000_000).move
    first = next(m for m in game.ordered_moves(position) if m != by_gain)
    past = SearchControls(deadline=time.perf_counter() - 1)
    found = kernel.search(position, 4, first, None, 1_000_000, past)
    assert found.aborted and found.move == first
