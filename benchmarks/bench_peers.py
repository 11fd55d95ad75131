"""perfectplay's Connect Four solver side by side with BitBully, interleaved in one process.

    python benchmarks/bench_peers.py opening --count 300    every move of 0-12 stone positions
    python benchmarks/bench_peers.py middle --count 24      every move of 13-18 stone positions
    python benchmarks/bench_peers.py middle --engine        ours through one Engine
    python benchmarks/bench_peers.py sets --limit 200       Pons' six sets, no book, strong
    python benchmarks/bench_peers.py sets --weak            the same, win/draw/loss only
    python benchmarks/bench_peers.py sets --pons DRIVER     and Pons' C++ solver (see PonsSolver)
    python benchmarks/bench_peers.py api --limit 100        the six sets through the public API
    python benchmarks/bench_peers.py api --limit 100 --weak   the same, win/draw/loss only
    python benchmarks/bench_peers.py verify --count 2000 --count8 300   books against our solver

BitBully (``pip install bitbully``, C++ with pybind11) is AGPL: it is installed for this
benchmark only and never imported by the package. Each position is given to both solvers one
after the other, the order alternating, so that the machine's load falls on both alike; the
figures are ratios (ours / BitBully: below 1 we are faster). ``opening`` and ``middle`` time
what a user calls: ``perfectplay.analyze`` (every move's exact score, the opening books on)
against ``BitBully().score_all_moves`` (its default book), after one warm-up call each.
``sets`` also solves each set in one call of our compiled ``solve_many`` (column "in one
batch": what ``solve connect4 -`` style batches cost without a trip to Python between
positions, the table emptied before each). ``sets`` times the bare solvers without books,
the table cleared before each position (ours in O(1) inside the timing; BitBully's, which
writes its whole table and so flushes the caches, before both), each solver primed by
solving the set's previous position just before its timed one: our compiled ``solve``
against BitBully's ``mtdf`` (strong) or ``negamax`` on the window
[-1, 1] (weak). Every score is compared; mismatches are counted and listed.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from common import PONS_SETS, fmt, machine

from perfectplay import api
from perfectplay.contract import score_json
from perfectplay.games.connect4 import compiled as kernel
from perfectplay.games.connect4.deep_book import (
    DeepBookKind,
    installed_deep_book,
    position_of_code,
)
from perfectplay.games.connect4.kernel import Connect4Kernel
from perfectplay.games.connect4.rules import Connect4Game

SETS = {
    "end-easy": "Test_L3_R1",
    "middle-easy": "Test_L2_R1",
    "middle-medium": "Test_L2_R2",
    "begin-easy": "Test_L1_R1",
    "begin-medium": "Test_L1_R2",
    "begin-hard": "Test_L1_R3",
}


def connect4() -> tuple[Connect4Game, Connect4Kernel]:
    """The registered 7x6 game and its compiled kernel without the books (the bare solver)."""
    game = api.load("connect4", "")[0]
    assert isinstance(game, Connect4Game)
    driver = game.kernel(api.kernel_options(book=False))
    assert isinstance(driver, Connect4Kernel)
    return game, driver


def standard_score(game: Any, position: Any, score: api.Score) -> int:
    """A score as Pons' sets and BitBully give it (the contract's ``score``)."""
    value = score_json(game, position, score)["score"]
    assert isinstance(value, int), f"a score of {value!r}"
    return value


def random_moves(rng: random.Random, low: int, high: int) -> str:
    """0-based columns of a random running 7x6 game of ``low`` to ``high`` stones in which
    the side to move cannot win at once (as in the books)."""
    game, driver = connect4()
    start = game.initial()
    while True:
        stones = rng.randint(low, high)
        position, moves = start, []
        for _ in range(stones):
            legal = [m for m in game.legal_moves(position) if not game.play(position, m).win_mask]
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            position = game.play(position, move)
        current, mask, _ = driver.boards(position)
        if len(moves) == stones and not kernel.can_win_next(current, mask, driver.work):
            return "".join(str(m) for m in moves)


def ours_analyze(moves: str, engine: Any = None) -> dict[int, int]:
    """Every move's standard score from ``perfectplay.analyze``, or from ``engine`` (a
    ``perfectplay.Engine`` keeping its table, emptied first)."""
    game, position = api.load("connect4", one_based(moves))
    scores = {}
    if engine is not None:
        engine.clear()
    entries = api.analyze(game, position) if engine is None else engine.analyze(position)
    for entry in entries:
        assert isinstance(entry.move, int)
        scores[entry.move] = standard_score(game, position, entry.score)
    return scores


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def compare_analysis(count: int, low: int, high: int, seed: int, engine: bool) -> None:
    """Every move's score of ``count`` random positions by both, interleaved: ours by
    ``perfectplay.analyze`` (a fresh table per call), or with ``engine`` by one
    ``perfectplay.Engine`` (its table kept and emptied per position, as BitBully's instance
    keeps its own)."""
    from bitbully import BitBully, Board  # type: ignore[import-not-found]  # AGPL peer

    rng = random.Random(seed)
    positions = [random_moves(rng, low, high) for _ in range(count)]
    theirs_engine = BitBully()
    ours_engine = api.Engine(api.load("connect4", "")[0]) if engine else None
    ours_analyze(positions[0], ours_engine)  # load, compile, read the books
    theirs_engine.score_all_moves(Board(positions[0]))
    ours_times, theirs_times, mismatches = [], [], []
    for index, moves in enumerate(positions):
        runs = [("ours", lambda m=moves: ours_analyze(m, ours_engine))]
        runs.append(("theirs", lambda m=moves: theirs_engine.score_all_moves(Board(m))))
        if index % 2:
            runs.reverse()
        answers = {name: timed(run) for name, run in runs}
        ours_times.append(answers["ours"][1])
        theirs_times.append(answers["theirs"][1])
        if answers["ours"][0] != dict(answers["theirs"][0]):
            mismatches.append(moves)
    report_analysis(low, high, ours_times, theirs_times, mismatches, engine)


def report_analysis(
    low: int,
    high: int,
    ours: list[float],
    theirs: list[float],
    mismatches: list[str],
    engine: bool,
) -> None:
    def p95(times: list[float]) -> float:
        return sorted(times)[max(0, round(0.95 * len(times)) - 1)]

    print(f"Machine: {machine()}")
    print(f"every move of {len(ours)} random positions of {low}-{high} stones\n")
    print("| solver | total | mean | median | p95 | max |")
    print("|---|---|---|---|---|---|")
    mine = "perfectplay.Engine.analyze" if engine else "perfectplay.analyze"
    for name, times in ((mine, ours), ("BitBully score_all_moves", theirs)):
        print(
            f"| {name} | {fmt(sum(times))} | {fmt(statistics.mean(times))} | "
            f"{fmt(statistics.median(times))} | {fmt(p95(times))} | {fmt(max(times))} |"
        )
    print(f"\nratio of totals (ours / BitBully): {sum(ours) / sum(theirs):.2f}x")
    print(f"mismatches: {len(mismatches)} {mismatches[:5]}")


def one_based(moves: str) -> str:
    """Columns 0-6 (BitBully's notation) as the digits 1-7 people and Pons' solver read."""
    return "".join(str(int(c) + 1) for c in moves)


def load_set(name: str, limit: int | None) -> list[tuple[str, int]]:
    """``(0-based moves, score)`` of a benchmark set."""
    lines = (PONS_SETS / SETS[name]).read_text().split("\n")
    pairs = [line.split() for line in lines if line.strip()][:limit]
    return [("".join(str(int(c) - 1) for c in moves), int(score)) for moves, score in pairs]


class PonsSolver:
    """Pascal Pons' C++ solver behind a pipe, when a build of it is given (``--pons``): a
    driver that reads one position a line, resets its table, solves and answers
    ``score nodes microseconds`` (its own clock, around the solve only). Neither the driver
    nor a recipe for it is part of this repository (the solver is AGPL)."""

    def __init__(self, binary: Path, weak: bool) -> None:
        import subprocess

        arguments = [str(binary), "-w"] if weak else [str(binary)]
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def solve(self, moves: str) -> tuple[int, float]:
        """Score and seconds of a position given as 0-based columns."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(one_based(moves) + "\n")
        score, _nodes, micros = self.process.stdout.readline().split()
        return int(score), float(micros) / 1e6

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def compare_sets(names: list[str], limit: int | None, weak: bool, pons: Path | None) -> None:
    """Pons' sets by the bare solvers, no book, tables cleared per position."""
    from bitbully import BitBully, Board

    game, driver = connect4()
    table = driver.new_table()
    table.touch()
    theirs_engine = BitBully(None)
    driver.solve_many([game.play_column(game.initial(), 3)], table, weak)  # load the batch code

    pons_solver = None if pons is None else PonsSolver(pons, weak)
    print(f"Machine: {machine()}\nmode: {'weak' if weak else 'strong'}, no books\n")
    per_second = cycles_per_second()
    print(
        "| set | n | ours a call | BitBully a call | ratio | ours, kernel's clock | Pons, his "
        "clock | ratio | ours a call / Pons | ours in one batch | to BitBully | to Pons | "
        "ours nodes | mismatches |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        ours_times, theirs_times, pons_times, nodes, mismatches = [], [], [], 0, 0
        clock_times: list[float] = []
        entries = load_set(name, limit)
        positions = [api.load("connect4", one_based(moves))[1] for moves, _ in entries]
        boards = [Board(moves) for moves, _ in entries]

        def ours(p: Any) -> int:
            table.clear()  # O(1): a new epoch
            return driver.solve(p, table, weak).score

        def theirs(b: Any) -> int:
            return int(theirs_engine.negamax(b, -1, 1) if weak else theirs_engine.mtdf(b))

        for index, (_, expected) in enumerate(entries):
            # each solver is primed with the set's previous position (untimed): the state of
            # a process solving the set in turn, its code and scratch memory warm
            theirs_engine.reset_transposition_table()  # tens of ms, flushing the caches
            runs: list[tuple[str, Callable[[Any], int], list[Any]]] = [
                ("ours", ours, positions),
                ("theirs", theirs, boards),
            ]
            answers = {}
            for who, solver, items in runs if index % 2 else runs[::-1]:
                solver(items[index - 1])
                answers[who] = timed(partial(solver, items[index]))
            if pons_solver is not None:
                pons_score, pons_time = pons_solver.solve(entries[index][0])
                pons_times.append(pons_time)
                # weak: Pons' solver answers a win at once with its exact score, so signs
                pons_answer = sign(pons_score) if weak else pons_score
                mismatches += int(pons_answer != (sign(expected) if weak else expected))
            ours_times.append(answers["ours"][1])
            clock_times.append(int(table.stats[kernel.CYCLES]) / per_second)
            theirs_times.append(answers["theirs"][1])
            nodes += int(table.stats[0])
            want = (expected > 0) - (expected < 0) if weak else expected
            mismatches += int(answers["ours"][0] != want)
            mismatches += int(sign(answers["theirs"][0]) != sign(want) if weak else 0)
        batch_mean, batch_mismatches = batch_time(driver, table, name, limit, weak)
        mismatches += batch_mismatches
        ours_mean, theirs_mean = statistics.mean(ours_times), statistics.mean(theirs_times)
        clock_mean = statistics.mean(clock_times)
        pons_mean = statistics.mean(pons_times) if pons_times else None
        pons_cells = (
            "| - | - | - "
            if pons_mean is None
            else (
                f"| {fmt(pons_mean)} | {clock_mean / pons_mean:.2f}x | "
                f"{ours_mean / pons_mean:.2f}x "
            )
        )
        batch_to_pons = "-" if pons_mean is None else f"{batch_mean / pons_mean:.2f}x"
        print(
            f"| {name} | {len(ours_times)} | {fmt(ours_mean)} | {fmt(theirs_mean)} | "
            f"{ours_mean / theirs_mean:.2f}x | {fmt(clock_mean)} {pons_cells}| "
            f"{fmt(batch_mean)} | {batch_mean / theirs_mean:.2f}x | {batch_to_pons} | "
            f"{nodes / len(ours_times):,.0f} | {mismatches} |",
            flush=True,
        )
    if pons_solver is not None:
        pons_solver.close()


def batch_time(
    driver: Any, table: Any, name: str, limit: int | None, weak: bool
) -> tuple[float, int]:
    """Mean seconds a position when the whole set is solved in one compiled call (the
    kernel's ``solve_many``: the table emptied before each position, no interpreter between
    them), and the mismatches."""
    entries = load_set(name, limit)
    positions = [api.load("connect4", one_based(moves))[1] for moves, _ in entries]
    start = time.perf_counter()
    solved = driver.solve_many(positions, table, weak)
    mean = (time.perf_counter() - start) / len(positions)
    wanted = [sign(score) if weak else score for _, score in entries]
    return mean, sum(s.score != w for s, w in zip(solved, wanted, strict=True))


HARD_SETS = {"begin-hard": 4, "begin-medium": 30}
"""At most this many positions of the slow sets in ``api`` (seconds each)."""


def compare_api(
    names: list[str], limit: int | None, weak: bool, batch: int, runs: int, repeat: int = 1
) -> None:
    """Pons' sets through the public API against BitBully, no book, tables cleared per
    position (ours by ``Engine.clear``, O(1), inside the timing; BitBully's before both,
    untimed), interleaved, each solver primed with an easy position just before its timed
    one: ``Engine.solve(position, line=False)`` (the value and best move) and
    ``Engine.solve(position)`` (with the proven line) against ``mtdf``, or the weak solves
    against ``negamax`` on [-1, 1]; then ``Engine.solve_many`` of ``batch`` end-easy
    positions against a loop of ``mtdf`` calls. ``repeat`` above 1: each position's
    interleaved round is run that many times and each solver keeps its shortest time (on a
    busy machine a single preemption of milliseconds moves the mean of 100 searches of
    microseconds by tens of them)."""
    from bitbully import BitBully, Board

    game, _ = api.load("connect4", "")
    engine = api.Engine(game, api.kernel_options(book=False))
    theirs = BitBully(None)
    easy_moves = load_set("end-easy", 1)[0][0]
    easy, easy_board = api.load("connect4", one_based(easy_moves))[1], Board(easy_moves)
    mode = "weak" if weak else "strong"
    print(f"Machine: {machine()}\nmode: {mode}, no books, public API\n")
    print(
        "| set | n | value alone | with its line | BitBully "
        f"{'negamax [-1, 1]' if weak else 'mtdf'} | value / BitBully | medians' ratio | "
        "line / value | mismatches |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        count = min(limit or 1000, HARD_SETS.get(name, 1000))
        entries = load_set(name, count)
        easy_pair = (easy, easy_board)
        times, mismatches = api_set_times(engine, theirs, entries, weak, easy_pair, repeat)
        value, bitbully = statistics.mean(times["value"]), statistics.mean(times["theirs"])
        medians = statistics.median(times["value"]) / statistics.median(times["theirs"])
        full = statistics.mean(times["line"]) if times["line"] else 0.0
        line_cell = "-" if weak else fmt(full)
        line_ratio = "-" if weak else f"{full / value:.2f}x"
        print(
            f"| {name} | {len(entries)} | {fmt(value)} | {line_cell} | {fmt(bitbully)} | "
            f"{value / bitbully:.2f}x | {medians:.2f}x | {line_ratio} | {mismatches} |",
            flush=True,
        )
    if batch and not weak:
        api_batch(engine, theirs, load_set("end-easy", batch), runs)


def api_set_times(
    engine: Any,
    theirs: Any,
    entries: list[tuple[str, int]],
    weak: bool,
    easy: tuple[Any, Any],
    repeat: int = 1,
) -> tuple[dict[str, list[float]], int]:
    """The seconds of each position's value alone, solve with its line and BitBully's
    solve (each the shortest of ``repeat`` interleaved rounds), and the mismatches against
    the set's scores."""
    from bitbully import Board

    game = engine.game
    times: dict[str, list[float]] = {"value": [], "line": [], "theirs": []}
    mismatches = 0

    def ours(position: Any, line: bool) -> Any:
        engine.clear()  # O(1): a new epoch
        return engine.solve(position, weak=weak, line=line)

    def bitbully(board: Any) -> int:
        return int(theirs.negamax(board, -1, 1) if weak else theirs.mtdf(board))

    def standard(position: Any, result: Any) -> int:
        """Our result as the set's score (converted outside the timing)."""
        if weak:
            return int(result.score.value)
        return standard_score(game, position, result.score)

    for index, (moves, expected) in enumerate(entries):
        position, board = api.load("connect4", one_based(moves))[1], Board(moves)
        runs: list[tuple[str, Callable[[Any], Any], Any]] = [
            ("value", partial(ours, line=False), position),
            ("theirs", bitbully, board),
        ]
        if not weak:
            runs.append(("line", partial(ours, line=True), position))
        answers: dict[str, tuple[Any, float]] = {}
        for _ in range(repeat):
            theirs.reset_transposition_table()  # tens of ms, flushing the caches: untimed
            for who, solver, item in runs if index % 2 else runs[::-1]:
                solver(easy[1] if who == "theirs" else easy[0])  # primed
                got = timed(partial(solver, item))
                if who not in answers or got[1] < answers[who][1]:
                    answers[who] = got
        for who, (_, seconds) in answers.items():
            times[who].append(seconds)
        want = sign(expected) if weak else expected
        ours_answers = [got[0] for who, got in answers.items() if who != "theirs"]
        mismatches += sum(int(standard(position, got) != want) for got in ours_answers)
        mismatches += int(sign(answers["theirs"][0]) != sign(want))
    return times, mismatches


def api_batch(engine: Any, theirs: Any, entries: list[tuple[str, int]], runs: int) -> None:
    """``Engine.solve_many(..., line=False, clear=True)`` of the positions against a loop of
    BitBully's ``mtdf`` calls (its table reset before each, untimed: 0.1-0.3 s a reset on a
    busy machine), ``runs`` runs each, the order alternating; the median of each and the
    mismatches."""
    from bitbully import Board

    game = engine.game
    positions = [api.load("connect4", one_based(moves))[1] for moves, _ in entries]
    boards = [Board(moves) for moves, _ in entries]
    wanted = [score for _, score in entries]
    engine.solve_many(positions[:2], line=False, clear=True)  # primed
    ours_runs, theirs_runs, mismatches = [], [], 0
    for run in range(runs):
        for who in ("ours", "theirs") if run % 2 == 0 else ("theirs", "ours"):
            if who == "ours":
                many = partial(engine.solve_many, positions, line=False, clear=True)
                results, seconds = timed(many)
                ours_runs.append(seconds)
                pairs = zip(positions, results, strict=True)
                got = [score_json(game, p, r.score)["score"] for p, r in pairs]
                mismatches += sum(g != w for g, w in zip(got, wanted, strict=True))
            else:
                seconds = 0.0
                for board, want in zip(boards, wanted, strict=True):
                    theirs.reset_transposition_table()
                    score, spent = timed(partial(theirs.mtdf, board))
                    seconds += spent
                    mismatches += int(score != want)
                theirs_runs.append(seconds)
    ours, bitbully = statistics.median(ours_runs), statistics.median(theirs_runs)
    print(
        f"\nEngine.solve_many of {len(positions)} end-easy positions (line=False, clear=True): "
        f"{fmt(ours)}; a loop of BitBully mtdf calls: {fmt(bitbully)}; "
        f"ratio {ours / bitbully:.2f}x; mismatches {mismatches} (median of {runs} runs each)"
    )


def cycles_per_second() -> float:
    """The rate of the processor's cycle counter, which our kernel reads around its solve
    (``stats[CYCLES]``), measured against ``time.perf_counter`` over a fifth of a second."""
    from perfectplay.games.common.compiled_bits import cycle_count

    cycle_count()  # load the compiled code before the clock starts
    cycles, seconds = cycle_count(), time.perf_counter()
    time.sleep(0.2)
    return float((cycle_count() - cycles) / (time.perf_counter() - seconds))


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def verify_books(count: int, count_eight: int, seed: int) -> None:
    """``count`` entries of each 12-stone book and ``count_eight`` of the 8-stone one
    (mirrored or not, at random) against our solver without any book (weak for the
    win/draw/loss books, strong for the distances)."""
    game, _ = connect4()
    options = api.kernel_options(book=False)
    rng = random.Random(seed)
    print(f"Machine: {machine()}\n")
    print("| book | entries checked | mirrored | mismatches | time |")
    print("|---|---|---|---|---|")
    for kind in DeepBookKind:
        book = installed_deep_book(kind)
        assert book is not None, "pip install bitbully-databases"
        checked = mirrored = bad = 0
        start = time.perf_counter()
        drawn = count_eight if kind is DeepBookKind.EIGHT else count
        for index in rng.sample(range(len(book)), drawn):
            first, mask = position_of_code(int(book.codes[index]), kind.stones)
            if rng.random() < 0.5:
                first, mask = game.mirror(first), game.mirror(mask)
                mirrored += 1
            position = game.from_bits(first, mask & ~first)
            expected = book.score(first, mask)
            solved = api.solve(game, position, weak=not kind.exact, options=options)
            got = standard_score(game, position, solved.score)
            checked += 1
            bad += int(got != expected)
        print(
            f"| {kind.file_name} | {checked} | {mirrored} | {bad} | "
            f"{fmt(time.perf_counter() - start)} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("job", choices=["opening", "middle", "sets", "api", "verify"])
    parser.add_argument("--count", type=int, default=300, help="positions or book entries")
    parser.add_argument("--count8", type=int, default=100, help="8-stone entries to verify")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--limit", type=int, default=None, help="positions per set")
    parser.add_argument("--weak", action="store_true")
    parser.add_argument(
        "--engine", action="store_true", help="ours through one Engine (its table kept)"
    )
    parser.add_argument("--pons", type=Path, help="a build of Pons' solver behind a driver")
    parser.add_argument("--batch", type=int, default=1000, help="end-easy positions (api)")
    parser.add_argument("--runs", type=int, default=1, help="runs of the batch (api)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds per position, the shortest kept (api)"
    )
    args = parser.parse_args()
    if args.job != "verify" and importlib.util.find_spec("bitbully") is None:
        parser.error(f"{args.job}: needs BitBully, not installed here (pip install bitbully)")
    if args.job == "opening":
        compare_analysis(args.count, 0, 12, args.seed, args.engine)
    elif args.job == "middle":
        compare_analysis(args.count, 13, 18, args.seed, args.engine)
    elif args.job == "sets":
        compare_sets(args.sets, args.limit, args.weak, args.pons)
    elif args.job == "api":
        compare_api(args.sets, args.limit, args.weak, args.batch, args.runs, args.repeat)
    else:
        verify_books(args.count, args.count8, args.seed)


if __name__ == "__main__":
    main()
