"""The Connect Four solver against the public benchmark positions, known board values and a
brute-force search on small boards."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from perfectplay import api, contract
from perfectplay.games.connect4.notation import parse_connect4_moves
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position, game
from perfectplay.search.alphabeta import alphabeta
from perfectplay.search.limits import Limit
from perfectplay.search.result import Score
from perfectplay.search.solver import analyze, solve

DATA = Path(__file__).parent.parent / "data"
SETS = sorted((DATA / "connect4_sets").glob("*.txt"))
C4 = game()
KERNEL = C4.kernel()
TABLE = KERNEL.new_table(1 << 20)


def lines(path: Path) -> list[tuple[str, int]]:
    return [(m, int(s)) for m, s in (line.split() for line in path.read_text().splitlines())]


def standard(g: Connect4Game, position: Connect4Position, value: float) -> int:
    """A WIN - plies value for the side to move as a standard Connect Four score."""
    data: dict[str, Any] = contract.score_json(g, position, Score(value, True))
    score = data["score"]
    return int(score)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_benchmark_positions_have_the_listed_scores(path: Path) -> None:
    for moves, expected in lines(path):
        position, _ = parse_connect4_moves(C4, moves)
        TABLE.clear()
        assert KERNEL.solve(position, TABLE).score == expected, moves
        TABLE.clear()
        weak = KERNEL.solve(position, TABLE, weak=True).score
        assert weak == (expected > 0) - (expected < 0), moves


def test_the_two_worked_examples_through_the_public_api() -> None:
    for moves, expected in (("4455", 18), ("44455554221", -15)):
        g, position = api.load("connect4", moves)
        data: dict[str, Any] = contract.result_json(g, position, api.solve(g, position))
        assert data["score"] == expected
        assert data["outcome"] == ("win" if expected > 0 else "loss")
        # The principal variation replays to a finished game with that score.
        current = position
        for move in data["pv"]:
            current = g.play(current, move["column"] - 1)
        assert g.outcome(current) is not None
        assert g.finished_score(current) == (expected if len(data["pv"]) % 2 == 0 else -expected)


def test_progress_reports_a_narrowing_window_and_the_same_score() -> None:
    position, _ = parse_connect4_moves(
        C4, lines(DATA / "connect4_sets" / "middle-medium.txt")[0][0]
    )
    seen: list[tuple[int, int]] = []
    TABLE.clear()
    quiet = KERNEL.solve(position, TABLE).score
    TABLE.clear()
    loud = KERNEL.solve(position, TABLE, progress=lambda lo, hi, n, t: seen.append((lo, hi))).score
    assert quiet == loud and seen[-1] == (loud, loud)
    assert all(hi - lo >= h2 - l2 for (lo, hi), (l2, h2) in itertools.pairwise(seen))


@pytest.mark.parametrize(
    "entry",
    json.loads((DATA / "connect4_values.json").read_text()),
    ids=lambda e: f"{e['width']}x{e['height']}",
)
def test_board_size_values(entry: dict[str, int]) -> None:
    g = game(entry["width"], entry["height"])
    kernel = g.kernel()
    assert kernel.solve(g.initial(), kernel.new_table(1 << 20)).score == entry["score"]


def random_running_position(
    g: Connect4Game, rng: random.Random, low: int, high: int
) -> Connect4Position | None:
    """A random game of ``low`` to ``high`` stones, or ``None`` when it is over."""
    position = g.initial()
    for _ in range(rng.randint(low, high)):
        moves = g.legal_moves(position)
        if not moves:
            break
        position = g.play(position, rng.choice(moves))
    return position if g.outcome(position) is None else None


def test_4x4_scores_equal_a_brute_force_search() -> None:
    g = game(4, 4)
    kernel = g.kernel()
    table = kernel.new_table(1 << 16)
    brute = alphabeta(g, g.initial())
    assert standard(g, g.initial(), brute.score.value) == kernel.solve(g.initial(), table).score
    rng = random.Random(44)
    for _ in range(60):
        position = random_running_position(g, rng, 2, 11)
        if position is None:
            continue
        table.clear()
        expected = standard(g, position, alphabeta(g, position).score.value)
        assert kernel.solve(position, table).score == expected, str(position)


BRUTE_FORCE_BOARDS = [(4, 5, 4), (5, 4, 4), (4, 5, 3), (5, 5, 4)]
"""Small boards of odd and even heights that plain alpha-beta solves from midgame."""


@pytest.mark.parametrize("size", BRUTE_FORCE_BOARDS, ids=str)
def test_odd_and_even_heights_equal_a_brute_force_search(size: tuple[int, int, int]) -> None:
    """Strong and weak scores of random positions against plain alpha-beta, on boards whose
    columns have an odd or even height."""
    g = game(*size)
    kernel = g.kernel()
    table = kernel.new_table(1 << 16)
    rng = random.Random(sum(size))
    for _ in range(40):
        position = random_running_position(g, rng, g.spec.cells // 2, g.spec.cells - 2)
        if position is None:
            continue
        expected = standard(g, position, alphabeta(g, position).score.value)
        for weak in (False, True):
            table.clear()
            want = (expected > 0) - (expected < 0) if weak else expected
            assert kernel.solve(position, table, weak).score == want, str(position)


@pytest.mark.parametrize("size", [(4, 4, 4), (4, 5, 4), (5, 4, 4), (5, 5, 4)], ids=str)
def test_the_claimeven_bound_is_never_below_the_exact_value(size: tuple[int, int, int]) -> None:
    """Every running position of random games whose columns all have an even number of
    empty cells, from midgame on: the opponent's claimeven bound (0, or -1 when it also
    completes a line of the opponent's) is at least the brute-force value; the bound is
    given only there."""
    from perfectplay.games.connect4 import compiled

    g = game(*size)
    kernel = g.kernel()
    rng = random.Random(sum(size))
    columns = range(g.spec.width)
    bounded = 0
    for _ in range(30):
        position = g.initial()
        while g.outcome(position) is None:
            current, mask, _ = kernel.boards(position)
            bound = compiled.claimeven_bound(current, mask, kernel.work)
            stride, column = g.spec.height + 1, (1 << g.spec.height) - 1
            heights = [(position.mask >> (c * stride) & column).bit_count() for c in columns]
            if all((g.spec.height - h) % 2 == 0 for h in heights):
                if bound != compiled.NO_BOOK and position.plies >= g.spec.cells // 2:
                    bounded += 1
                    exact = standard(g, position, alphabeta(g, position).score.value)
                    assert exact <= bound, str(position)
            else:
                assert bound == compiled.NO_BOOK, str(position)
            position = g.play(position, rng.choice(g.legal_moves(position)))
    assert bounded > 0


def test_every_move_value_and_the_best_move_agree() -> None:
    moves = "4453443"
    position, _ = parse_connect4_moves(C4, moves)
    values = {v.move: standard(C4, position, v.score.value) for v in analyze(C4, position)}
    TABLE.clear()
    assert values == KERNEL.move_scores(position, TABLE)
    result = solve(C4, position)
    assert values[result.best_move] == max(values.values())


def test_time_limited_play_returns_a_legal_move_and_is_exact_when_easy() -> None:
    early, _ = parse_connect4_moves(C4, "44")
    quick = solve(C4, early, Limit(time=0.5))
    assert quick.best_move in C4.legal_moves(early) and quick.depth >= 1
    late, _ = parse_connect4_moves(C4, lines(DATA / "connect4_sets" / "end-easy.txt")[0][0])
    exact = solve(C4, late, Limit(time=5.0))
    assert exact.exact


def test_depth_limited_search_finds_a_forced_win() -> None:
    position, _ = parse_connect4_moves(C4, "4455")
    result = solve(C4, position, Limit(depth=5))
    assert result.score.outcome == "win" and result.exact and result.best_move in (2, 5)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_a_batch_in_one_compiled_call_equals_one_solve_at_a_time(path: Path) -> None:
    """``solve_many`` empties the table before each position, in runs that never let the
    epochs wrap mid-run (a 2**16-slot table has 256 epochs: the set, repeated past them,
    crosses a wrap)."""
    table = KERNEL.new_table(1 << 16)
    entries = lines(path) * (1 + (table.epochs + 20) // len(lines(path)))
    positions = [parse_connect4_moves(C4, moves)[0] for moves, _ in entries]
    assert table.epochs < len(positions)
    for weak in (False, True):
        solved = KERNEL.solve_many(positions, table, weak)
        expected = [score if not weak else (score > 0) - (score < 0) for _, score in entries]
        assert [s.score for s in solved] == expected
        assert all(s.nodes >= 1 and not s.aborted for s in solved)


def test_a_batch_cut_by_its_deadline_says_which_positions_are_aborted() -> None:
    import time

    hard = [parse_connect4_moves(C4, moves)[0] for moves in ("13712", "3246313")]
    options = api.kernel_options(book=False)
    kernel = C4.kernel(options)
    solved = kernel.solve_many(hard, kernel.new_table(1 << 16), deadline=time.perf_counter())
    assert [s.aborted for s in solved] == [True, True]


def test_the_direct_call_answers_as_numba_dispatch_does() -> None:
    """The driver calls the compiled solve's entry point, skipping numba's type dispatch: the
    same scores and nodes as through the dispatcher, the kernel's own cycles recorded, and a
    node budget or a passed deadline still cut the search short."""
    import time

    from perfectplay.games.connect4 import compiled
    from perfectplay.games.connect4.kernel import solve_entry
    from perfectplay.games.interrupt import NO_DEADLINE_NS

    assert solve_entry() is not compiled.solve_call
    for moves, expected in lines(SETS[0])[:20]:
        position, _ = parse_connect4_moves(C4, moves)
        answers = []
        for call in (solve_entry(), compiled.solve_call):
            TABLE.clear()
            arrays = (KERNEL.work, TABLE.slots, TABLE.stats, KERNEL.deep, TABLE.marks)
            score = call(position.first, position.second, False, 1 << 62, NO_DEADLINE_NS, *arrays)
            answers.append((score, int(TABLE.stats[compiled.NODES])))
            assert TABLE.stats[compiled.CYCLES] > 0
        assert answers[0] == answers[1] and answers[0][0] == expected, moves
    hard, _ = parse_connect4_moves(C4, "13712")
    kernel = C4.kernel(api.kernel_options(book=False))
    assert kernel.solve(hard, TABLE, node_budget=100).aborted
    assert kernel.solve(hard, TABLE, deadline=time.perf_counter()).aborted


def test_threads_sharing_the_table_give_the_single_thread_scores() -> None:
    """With progress reports a kernel of two threads shares every probe from the start: the
    benchmark lines' scores, strong and weak, and the table left to one thread after."""
    from perfectplay.games.connect4 import compiled

    kernel = C4.kernel(api.kernel_options(book=False, threads=2))
    table = kernel.new_table(1 << 20)
    for path in SETS:
        for moves, expected in lines(path)[:6]:
            position, _ = parse_connect4_moves(C4, moves)
            for weak in (False, True):
                table.clear()
                solved = kernel.solve(position, table, weak, progress=lambda *_: None)
                assert not solved.aborted
                assert solved.score == ((expected > 0) - (expected < 0) if weak else expected)
    assert table.stats[compiled.SHARED] == 0


def test_a_search_outgrowing_its_trial_goes_on_with_threads() -> None:
    """Past :data:`SHARED_AFTER_NODES` nodes alone, the solve goes on with both threads on
    the same table: the single thread's score, and the nodes of both counted."""
    from perfectplay.games.connect4.kernel import SHARED_AFTER_NODES

    position, _ = parse_connect4_moves(C4, "44444413")  # about 5 M nodes alone
    alone = C4.kernel(api.kernel_options(book=False))
    shared = C4.kernel(api.kernel_options(book=False, threads=2))
    one = alone.solve(position, alone.new_table(1 << 20))
    two = shared.solve(position, shared.new_table(1 << 20))
    assert one.score == two.score == 2 and not two.aborted
    assert two.nodes > SHARED_AFTER_NODES


def test_threads_stop_at_the_deadline_and_the_node_budget() -> None:
    import time

    position, _ = parse_connect4_moves(C4, "4445")  # minutes without a book
    kernel = C4.kernel(api.kernel_options(book=False, threads=2))
    table = kernel.new_table(1 << 20)
    solved = kernel.solve(position, table, deadline=time.perf_counter() + 0.3)
    assert solved.aborted
    table.clear()
    assert kernel.solve(position, table, node_budget=3_000_000).aborted
    table.clear()
    assert kernel.solve(position, table, progress=lambda *_: None, node_budget=10**5).aborted
