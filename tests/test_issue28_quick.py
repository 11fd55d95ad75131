"""Issue 28, the lean exact path: ``Engine.solve`` of an exact limit answers a short solve in
one compiled call without Ctrl-C's guard (the kernel's ``quick`` trait), a longer one on the
guarded path; the best move comes from what the solve's probes proved. The answers are those
of the guarded search, and Ctrl-C still stops a long solve."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_support import hear_ctrl_c

from perfectplay import api
from perfectplay.games.connect4.kernel import QUICK_NODES
from perfectplay.games.connect4.rules import Connect4Game
from perfectplay.search.limits import make_limit
from perfectplay.values import UNLIMITED_NODES, WIN

SETS = Path(__file__).parent / "data" / "connect4_sets"
C4, _ = api.load("connect4", "")
assert isinstance(C4, Connect4Game)
NO_BOOK = api.kernel_options(book=False)
FULL_DEPTH = make_limit(depth=C4.spec.cells)
"""A depth covering the whole game: the same exact solve through the guarded path."""


def set_entries(name: str, count: int) -> list[tuple[Any, int]]:
    """The first ``count`` positions of one of Pons' sets with their published scores."""
    lines = (SETS / f"{name}.txt").read_text().splitlines()[:count]
    return [(api.load("connect4", line.split()[0])[1], int(line.split()[1])) for line in lines]


Solve = Callable[[api.Engine[Any, Any], Any], Any]


def quick_and_guarded(name: str, quick: Solve, guarded: Solve) -> Iterator[tuple[Any, ...]]:
    """For each of the first 25 positions of set ``name``: the position, its published
    score, and the results of ``quick`` and ``guarded`` on one engine, each on an emptied
    table."""
    engine = api.Engine(C4, NO_BOOK)
    for position, score in set_entries(name, 25):
        engine.clear()
        first = quick(engine, position)
        engine.clear()
        yield position, score, first, guarded(engine, position)


def published(position: Any, value: float) -> int:
    """A value as the sets' standard score."""
    if value == 0:
        return 0
    return C4.score_of(position, int(WIN - abs(value)), value > 0)


@pytest.mark.parametrize("name", ["end-easy", "middle-easy", "middle-medium"])
@pytest.mark.parametrize("line", [False, True])
def test_the_quick_path_answers_as_the_guarded_search(name: str, line: bool) -> None:
    """Short and long solves alike (a long one goes on past the quick path's node budget):
    the published score, and the same best move, line, depth and algorithm as the guarded
    search of a full-depth limit, each on an emptied table."""
    longest = 0
    for position, score, quick, guarded in quick_and_guarded(
        name,
        lambda engine, position: engine.solve(position, line=line),
        lambda engine, position: engine.solve(position, FULL_DEPTH, line=line),
    ):
        assert published(position, quick.score.value) == score
        assert (quick.score, quick.best_move, quick.pv) == (
            guarded.score,
            guarded.best_move,
            guarded.pv,
        )
        assert (quick.depth, quick.algorithm, quick.extra) == (
            guarded.depth,
            guarded.algorithm,
            guarded.extra,
        )
        longest = max(longest, quick.nodes)
    if name == "middle-medium":
        assert longest > QUICK_NODES  # the guarded path took over


@pytest.mark.parametrize("name", ["end-easy", "middle-easy", "begin-easy"])
def test_the_best_move_from_the_probes_is_the_first_optimal_column(name: str) -> None:
    """The column the solve's probes name (and the moves they refute, not searched again) is
    the one the plain rule gives: the first column in centre-first order that achieves the
    score, each candidate searched on the warm table."""
    kernel = C4.kernel(NO_BOOK)
    assert kernel is not None
    table = kernel.new_table(1 << 20)
    for position, _ in set_entries(name, 40):
        table.clear()
        answer = kernel.quick_exact(position, table, False)
        table.clear()
        searched = kernel.search(position, C4.spec.cells, None, table, UNLIMITED_NODES)
        table.clear()
        score = kernel.solve(position, table).score
        column, _ = kernel.best_column(position, score, table, UNLIMITED_NODES)
        assert searched.move == column
        assert kernel.to_value(position, score) == searched.value
        if answer is not None:
            assert answer[:2] == (searched.value, (column,))
            assert answer[3] == C4.plies_left_bound(position)
    for position in (api.load("connect4", "4455667")[1], full_board_draw()):
        assert C4.outcome(position) is not None
        assert kernel.quick_exact(position, table, True) is None


def full_board_draw() -> Any:
    """A position whose board is full and nobody connected (random games until one)."""
    rng = random.Random(7)
    while True:
        position = C4.initial()
        while C4.outcome(position) is None:
            position = C4.play(position, rng.choice(C4.legal_moves(position)))
        outcome = C4.outcome(position)
        if outcome is not None and outcome.winner is None:
            return position


def test_the_api_solve_and_its_engine_agree_on_finished_and_book_positions() -> None:
    engine = api.Engine(C4)  # with the books: the quick path hands them their answer
    for moves in ("", "4", "4455", "1212121", "445566"):
        position = api.load("connect4", moves)[1]
        for line in (False, True):
            alone = api.solve(C4, position, line=line)
            kept = engine.solve(position, line=line)
            assert (alone.score, alone.best_move, alone.pv) == (kept.score, kept.best_move, kept.pv)
            assert alone.algorithm == kept.algorithm


@pytest.mark.parametrize("name", ["end-easy", "middle-easy", "middle-medium"])
def test_the_quick_weak_path_answers_as_the_guarded_weak_search(name: str) -> None:
    """Weak solves take the lean path too: the sign of the published score, and the same
    result (no move, no line, depth, algorithm, extra) as the guarded weak search (a progress
    callback keeps a solve off the lean path), each on an emptied table; a long solve goes on
    past the lean path's node budget."""
    longest = 0
    for _, score, quick, guarded in quick_and_guarded(
        name,
        lambda engine, position: engine.solve(position, weak=True),
        lambda engine, position: engine.solve(position, weak=True, on_progress=lambda *_: None),
    ):
        assert quick.score.value == (score > 0) - (score < 0)
        assert quick.score == guarded.score and quick.score.weak and quick.exact
        assert (quick.best_move, quick.pv, quick.depth) == (None, (), guarded.depth)
        assert (quick.algorithm, quick.extra) == (guarded.algorithm, guarded.extra)
        longest = max(longest, quick.nodes)
    if name == "middle-medium":
        assert longest > QUICK_NODES  # the guarded path took over


def test_the_kernels_quick_weak_solve_stops_at_its_budget_and_at_the_end() -> None:
    """``quick_weak`` gives the weak value within its node budget, ``None`` past it (the empty
    board) and for a finished position."""
    kernel = C4.kernel(NO_BOOK)
    assert kernel is not None
    table = kernel.new_table(1 << 20)
    for position, score in set_entries("end-easy", 10):
        table.clear()
        answer = kernel.quick_weak(position, table)
        assert answer is not None and answer[0] == (score > 0) - (score < 0)
        assert 0 < answer[1] <= QUICK_NODES and answer[2] == C4.plies_left_bound(position)
    table.clear()
    assert kernel.quick_weak(C4.initial(), table) is None
    for position in (api.load("connect4", "4455667")[1], full_board_draw()):
        assert kernel.quick_weak(position, table) is None


def test_weak_solves_of_the_engine_and_the_api_agree_with_the_books() -> None:
    """With the books, a weak solve through an engine (the lean path asks them first) is the
    api's, source included, for opening, running and finished positions."""
    engine = api.Engine(C4)
    for moves in ("", "4", "4455", "1212121", "445566", "4455667"):
        position = api.load("connect4", moves)[1]
        alone = api.solve(C4, position, weak=True)
        kept = engine.solve(position, weak=True)
        assert (alone.score, alone.best_move, alone.pv) == (kept.score, kept.best_move, kept.pv)
        assert alone.algorithm == kept.algorithm


def test_ctrl_c_stops_a_long_engine_solve_within_a_second() -> None:
    """The quick path skips the guard only for searches it cuts short before their first
    clock read: a long solve through ``Engine.solve`` still raises KeyboardInterrupt within
    half a second of Ctrl-C (sent a second into the solve, once the engine is ready)."""
    script = (
        "import time\n"
        "from perfectplay import api\n"
        "game, position = api.load('connect4', '')\n"
        "engine = api.Engine(game, api.kernel_options(book=False, table_bits=20))\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    engine.solve(position, line=False)\n"
        "except KeyboardInterrupt:\n"
        "    print(time.monotonic(), flush=True)\n"  # the system's clock, as the parent's
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=hear_ctrl_c,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == b"ready\n"
        time.sleep(1.0)
        assert process.poll() is None, "the solve ended before SIGINT was sent"
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert out.strip(), f"no KeyboardInterrupt: {err.decode()}"
    waited = float(out) - sent  # the interpreter's exit after it is not counted
    assert waited < 0.5, f"stopped {waited:.2f} s after SIGINT"
