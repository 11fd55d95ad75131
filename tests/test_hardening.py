"""Inputs that used to reach an internal error (issue 16): each gets the project's precise
error, naming the input, and exit 2 from the command line."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_support import STOPPED_SOON, interrupt, run, with_stdin

from perfectplay import api
from perfectplay.errors import NotationError, ParameterError
from perfectplay.games.kernel import SearchControls
from perfectplay.values import UNLIMITED_NODES

NESTED = "[" * 1000 + "]" * 1000
LONG_NUMBER = "9" * 4301
"""One digit past Python's limit on converting digit strings to integers."""


def test_deeply_nested_json_board_is_a_notation_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NotationError, match="nested too deeply"):
        api.load("tictactoe", NESTED)
    code, out, err = run(capsys, "solve", "tictactoe", NESTED)
    assert code == 2 and out == "" and "nested too deeply" in err and "Traceback" not in err


def test_huge_numbers_are_refused_by_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = with_stdin(capsys, monkeypatch, f"4 {LONG_NUMBER}\n", "solve", "c4", "-")
    assert code == 2 and out == "" and "line 1: score 999999999...: out of range" in err
    for spec, what in (
        (f"engine:depth={LONG_NUMBER}", "depth"),
        (f"random:seed={LONG_NUMBER}", "seed"),
    ):
        with pytest.raises(ParameterError, match=what):
            api.parse_player(spec, ("windows",))
        code, _, err = run(capsys, "arena", "sc", "--p1", spec, "--p2", "random", "--games", "1")
        assert code == 2 and what in err and len(err) < 400  # the input is quoted, shortened


def test_unicode_digits_are_refused() -> None:
    with pytest.raises(ParameterError, match="size"):
        api.load("tictactoe", "", size="\u0664x\u0664")  # Arabic-Indic four
    with pytest.raises(ParameterError, match="depth"):
        api.parse_player("engine:depth=\u0663", ("windows",))


def broken_books(folder: Path) -> dict[str, Path]:
    """Files that are not opening books, each in its own way."""
    shipped = Path(api.__file__).parent / "games" / "connect4" / "data" / "connect4-7x6-depth2.npz"
    truncated = folder / "truncated.npz"
    truncated.write_bytes(shipped.read_bytes()[:100])
    plain = folder / "plain.npz"
    with plain.open("wb") as handle:
        np.save(handle, np.arange(3))
    wrong = folder / "wrong.npz"
    np.savez(wrong, width=np.array([7, 7]), height=6, k=4, depth=2, keys=[1, 2], scores=[0, 1])
    return {"truncated": truncated, "plain": plain, "wrong": wrong, "empty": Path("/dev/null")}


def test_malformed_books_are_refused_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, path in broken_books(tmp_path).items():
        with pytest.raises(ParameterError, match="opening book"):
            api.solve(*api.load("connect4", "44"), options=api.kernel_options(book_path=str(path)))
        code, out, err = run(capsys, "solve", "connect4", "44", "--book", str(path))
        assert code == 2 and out == "" and str(path) in err, (name, err)


def test_book_out_writes_exactly_the_named_file_or_fails_cleanly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "book"
    code, _, err = run(capsys, "book", "c4", "--size", "4x4", "--depth", "1", "--out", str(out))
    assert code == 0, err
    assert out.is_file() and not (tmp_path / "book.npz").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book"]  # no temporary file left
    for target in ("", "/dev/null", str(tmp_path), str(tmp_path / "missing" / "b.npz")):
        code, _, err = run(capsys, "book", "c4", "--size", "4x4", "--depth", "1", "--out", target)
        assert code == 2 and "opening book" in err and "Traceback" not in err, target


def test_version_and_time_limits_under_a_millisecond(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("perfectplay ")
    for seconds in ("1e-320", "0.0005", "0"):
        code, out, err = run(capsys, "best", "tictactoe", "", "--time", seconds)
        assert code == 2 and out == "" and "from 0.001 to 86400" in err
    assert api.limit(time=0.001).time == 0.001


def test_a_table_larger_than_the_memory_is_refused_up_front() -> None:
    from perfectplay.games.kernel import check_table_memory, machine_memory

    entries = 1 << 40  # 16 TiB of 16-byte slots
    with pytest.raises(ParameterError, match="2\\*\\*40 slots"):
        check_table_memory(entries, 16)
    check_table_memory(1 << 10, 16)  # a small one passes
    assert machine_memory() > 0
    if 0.75 * machine_memory() < (1 << 30) * 16:  # 16 GiB: more than this machine allows
        game, position = api.load("connect4", "4455")
        with pytest.raises(ParameterError, match="table bits"):
            api.solve(game, position, options=api.kernel_options(table_bits=30))


# -- item 6: every search keeps a clock deadline -----------------------------------------------
KERNEL_POSITIONS = (
    ("connect4", ""),
    ("connect4", "44"),
    ("tictactoe", "____/____/____/____"),
    ("simplexity", ""),
)


@pytest.mark.parametrize(("name", "text"), KERNEL_POSITIONS)
def test_kernels_stop_at_a_deadline_already_past(name: str, text: str) -> None:
    """A kernel search started after its deadline stops at its first node, however deep it
    was asked to go (Connect Four used to turn time into a node budget and search on)."""
    game, position = api.load(name, text)
    kernel = game.kernel(api.kernel_options(book=False))
    assert kernel is not None and kernel.traits.keeps_deadline
    kernel.warm_up(game.initial())
    table = kernel.new_table(1 << 12)
    controls = SearchControls(deadline=time.perf_counter() - 1.0)
    depth = game.plies_left_bound(position)
    result = kernel.search(position, depth, None, table, UNLIMITED_NODES, controls)
    assert result.aborted and result.nodes <= 2 * len(game.legal_moves(position))


def test_connect4_stops_a_search_it_cannot_finish_at_its_deadline() -> None:
    """The empty 7x6 board without a book takes minutes to solve: a 50 ms deadline ends the
    exact search (unfinished) and the depth-limited one (heuristic), deadline seen inside."""
    game, start = api.load("connect4", "")
    kernel = game.kernel(api.kernel_options(book=False))
    assert kernel is not None
    kernel.warm_up(start)
    for depth in (42, 30):
        controls = SearchControls(deadline=time.perf_counter() + 0.05)
        table = kernel.new_table(1 << 16)
        result = kernel.search(start, depth, None, table, UNLIMITED_NODES, controls)
        assert result.aborted


@pytest.mark.parametrize(("name", "text"), [*KERNEL_POSITIONS, ("tictactoe", "")])
def test_a_timed_search_always_answers_a_move_searched_to_depth_1(name: str, text: str) -> None:
    game, position = api.load(name, text)
    for options in (api.kernel_options(), api.kernel_options(book=False)):
        result = api.solve(game, position, api.limit(time=0.001), options=options)
        assert result.depth >= 1 and result.best_move in game.legal_moves(position)


# -- item 7: one policy for unbounded jobs -----------------------------------------------------
FULL_BOTTOM_ROW = "/".join(["......."] * 5 + ["xoxoxox"])
FULL_BOTTOM_ROW_8X7 = "/".join(["........"] * 6 + ["xoxoxoxo"])

UNBOUNDED = (
    (("solve", "connect4", "", "--no-book"), ("proved", "42 plies", "--time", "--depth")),
    (
        ("analyze", "connect4", "", "--size", "8x7"),
        ("10 s trial", "moves of a position 56 plies", "--time"),
    ),
    (("solve", "tictactoe", "", "--size", "5x5"), ("proved", "25 plies", "--size")),
    (("solve", "connect4", "", "--size", "8x7", "--weak"), ("10 s trial", "56 plies", "--size")),
    (("tree", "simplexity", "", "--depth", "2"), ("40 plies left", "depth", "heuristically")),
    (("tree", "connect4", "", "--size", "8x7", "--depth", "3"), ("53 plies left", "depth")),
    (("history", "connect4", FULL_BOTTOM_ROW_8X7), ("48 to 56 plies left", "smaller board")),
    (("perft", "simplexity"), ("42 plies deep", "--depth")),
    (("perft", "tictactoe", "--size", "4x4"), ("16 plies deep", "--depth")),
)


OPENING_JOBS = (
    ("analyze", "connect4", "444"),
    ("solve", "connect4", "444", "--weak"),
    ("tree", "connect4", "", "--depth", "3"),
    ("history", "connect4", FULL_BOTTOM_ROW),
)
"""Jobs that ran for minutes before the 12-stone book: now answered from it."""


@pytest.mark.parametrize("argv", OPENING_JOBS)
def test_opening_jobs_on_7x6_end_from_the_deep_book(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == "" and out, err


@pytest.mark.parametrize(("argv", "words"), UNBOUNDED)
def test_jobs_too_long_to_finish_are_refused_naming_their_bound(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: tuple[str, ...]
) -> None:
    """Each of these ran for minutes or hours; each is now refused, with the numbers that
    decided it and the option that bounds it: up front, or after the few seconds' trial a
    single solve far from the end gets (some such positions are decided quickly)."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    for word in words:
        assert word in err


@pytest.mark.parametrize(
    "argv",
    [
        ("solve", "connect4", "", "--json"),  # the book answers; the line is proved briefly
        ("solve", "connect4", "4", "--json"),
        ("solve", "connect4", "4455", "--json"),  # far from the end, but a quick win: a trial
        ("analyze", "connect4", "4444443322", "--json"),
        ("tree", "connect4", "", "--depth", "2"),
        ("tree", "simplexity", "", "--depth", "2", "--heuristic"),
        ("history", "connect4", "...../...../...../..xo.", "--json"),
        ("perft", "tictactoe", "--size", "4x4", "--depth", "3", "--json"),
        ("solve", "tictactoe", "", "--size", "4x4", "--json"),
        ("best", "connect4", "444", "--json"),  # out of reach: thinks for the play time
    ],
)
def test_jobs_within_reach_or_bounded_still_run(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert json.loads(out) if "--json" in argv else "best line" in out


def test_an_untimed_exact_line_on_6x6_is_proved_whole_from_its_book() -> None:
    """The shipped 6x6 book of 8 stones answers the empty board, and its line (each step a
    null-window proof on the warm table) reaches the end of the game."""
    game, start = api.load("connect4", "", size="6x6")
    result = api.solve(game, start)
    assert result.score.exact and str(result.score) == "loss in 36"
    position = start
    for move in result.pv:
        position = game.play(position, move)
    outcome = game.outcome(position)
    assert len(result.pv) == 36 and outcome is not None and outcome.winner is not None


def test_the_7x6_line_is_proved_whole_from_the_deep_book() -> None:
    game, start = api.load("connect4", "")
    result = api.solve(game, start)
    assert result.score.exact and result.best_move == 3 and len(result.pv) == 41


def test_reach_covers_the_exact_search_and_the_books() -> None:
    game, _ = api.load("connect4", "")
    with_book = api.reach(game)  # 12-stone book: 30 plies left or more, and 30 or fewer
    assert all(with_book.covers(plies) for plies in range(43))
    assert with_book.gap(0, 42) is None
    six = api.load("connect4", "", size="6x6")[0]
    assert api.reach(six).gap(0, 36) is None  # 8 stones: 28 plies left or more
    without = api.reach(game, api.kernel_options(book=False))
    assert not without.covers(42) and without.gap(0, 42) == (31, 42)


# -- Ctrl-C stops a compiled search at once (issue 15, item 3) ----------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("best", "connect4", "", "--no-book", "--time", "60"),
        ("best", "connect4", "", "--no-book", "--time", "60", "--threads", "2"),
        ("best", "simplexity", "", "--time", "60"),
        ("best", "tictactoe", "", "--size", "8x8", "--k", "5", "--time", "60"),
    ],
)
def test_ctrl_c_stops_a_long_search_with_its_best_move_so_far(argv: tuple[str, ...]) -> None:
    """SIGINT in the middle of a compiled search: exit 130 long before the search's end (the
    kernels read the clock, and with it the request to stop, every few thousand nodes), with
    the best move of the last completed depth on stderr. How soon (0.1-0.3 s on a quiet
    machine) is measured by ``benchmarks/bench_ctrl_c.py``: a loaded machine stretches it."""
    command = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
    # a second into the search once its first depth is done (however long the start took)
    code, text, waited = interrupt([*command, *argv], after=1.0, when="so far")
    assert code == 130, text
    assert "interrupted; best so far:" in text and "depth" in text and "Traceback" not in text
    assert waited < STOPPED_SOON, f"stopped {waited:.2f} s after SIGINT"
