"""The ``perfectplay`` command line on Connect Four: solve/best/analyze (JSON and text), weak
solves, batch mode over the public benchmark lines, errors, play and perft.

Everything runs in-process through :func:`perfectplay.cli.main`; stdin is monkeypatched for
batch mode and play. The empty 7x6 board is never solved here (it takes minutes).
"""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import COMMAND, run, run_json, with_stdin
from rich.console import Console

from perfectplay import api
from perfectplay.cli import build_parser, progress, solve_batch
from perfectplay.games.connect4.rules import game as connect4_game

DATA = Path(__file__).resolve().parent / "data" / "connect4_sets"
END_EASY = (DATA / "end-easy.txt", 20)
MIDDLE_EASY = (DATA / "middle-easy.txt", 10)
"""Benchmark files and how many of their first lines the batch tests feed in."""


def first_lines(source: tuple[Path, int]) -> str:
    path, count = source
    return "".join(line + "\n" for line in path.read_text().splitlines()[:count])


# -- solve / best / analyze ------------------------------------------------------------------
def test_solve_json_standard_score(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "connect4", "4455")
    assert data["score"] == 18
    assert data["outcome"] == "win"
    assert data["to_move"] == "1"
    assert data["exact"] is True
    assert data["best_move"] in ({"column": 3}, {"column": 6})
    assert data["pv"][0] == data["best_move"]
    assert len(data["pv"]) == data["plies"] == 3


def test_solve_json_losing_side(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "c4", "44455554221")
    assert data["score"] == -15
    assert data["outcome"] == "loss"
    assert data["to_move"] == "2"


@pytest.mark.parametrize(
    ("moves", "score", "outcome"), [("4455", 1, "win"), ("44455554221", -1, "loss")]
)
def test_weak_solve_json(
    capsys: pytest.CaptureFixture[str], moves: str, score: int, outcome: str
) -> None:
    data = run_json(capsys, "solve", "connect-four", moves, "--weak")
    assert data["score"] == score
    assert data["outcome"] == outcome
    assert data["weak"] is True
    assert {"nodes", "time_ms"} <= set(data)


def test_solve_text_verdict_pv_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "connect4", "4455")
    assert code == 0, err
    assert err == ""  # no progress when stderr is not a terminal
    assert out.startswith("1 2 3 4 5 6 7\n")
    assert ". . . x x . ." in out
    assert "\x1b[" not in out  # no colour when stdout is not a terminal
    assert "player 1 (x) to move: best move column 3" in out
    assert (
        "player 1 (x) to move: best move column 3 — win in 3 (score 18; wins with its 4th stone)"
        in out
    )
    pv = next(line for line in out.splitlines() if line.startswith("principal variation: "))
    assert len(pv.removeprefix("principal variation: ")) == 3
    assert "searched " in out and "exact" in out


def test_best_text_losing_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "c4", "44455554221")
    assert code == 0
    assert "player 2 (o) to move: best move column 4 — loss in 2 (score -15" in out
    assert "the opponent wins with its 7th stone)" in out
    assert "principal variation" not in out


def test_best_with_time_limit_and_picture(capsys: pytest.CaptureFixture[str]) -> None:
    picture = "......./......./......./......./...oo../...xx.."
    data = run_json(capsys, "best", "connect4", picture, "--time", "1")
    assert data["score"] == 18
    assert data["best_move"] in ({"column": 3}, {"column": 6})


def test_finished_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "connect4", "4455667")
    assert code == 0
    assert "game over: player 1 connects 4" in out
    data = run_json(capsys, "solve", "connect4", "4455667")
    assert data["best_move"] is None and data["outcome"] == "loss"
    weak = run_json(capsys, "solve", "connect4", "4455667", "--weak")
    assert (weak["score"], weak["outcome"]) == (-1, "loss")


MIDDLE = "52753311433677442422121"
"""A middle-game position of Test_L2_R1 (score 8: player 2 wins with its 14th stone)."""


def test_analyze_json_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "connect4", MIDDLE)
    scores = {item["column"]: item["score"] for item in data["moves"]}
    assert scores == {1: 2, 2: 3, 3: 7, 4: 7, 5: 8, 6: 7, 7: 2}
    assert all(item["exact"] and item["outcome"] == "win" for item in data["moves"])


def test_analyze_weak_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "connect4", "44455554221", "--weak")
    assert [item["score"] for item in data["moves"]] == [-1] * 7
    assert all(item["weak"] is True for item in data["moves"])
    code, out, _ = run(capsys, "analyze", "connect4", MIDDLE)
    assert code == 0
    assert "player 2 (o) to move: 7 moves" in out
    best = next(line for line in out.splitlines() if "best" in line)
    assert "wins with its 14th stone" in best
    assert best.split()[1:3] == ["column", "5"]


# -- batch mode --------------------------------------------------------------------------------
@pytest.mark.parametrize("source", [END_EASY, MIDDLE_EASY], ids=["end-easy", "middle-easy"])
def test_batch_reproduces_the_benchmark_scores(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    source: tuple[Path, int],
) -> None:
    text = first_lines(source)
    code, out, err = with_stdin(capsys, monkeypatch, text, "solve", "connect4", "-")
    assert code == 0, err
    assert out.splitlines() == text.splitlines()
    lines = len(text.splitlines())
    assert err.startswith(f"perfectplay: {lines} positions, 0 mismatches, mean ")


def test_batch_weak_scores_are_signs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = first_lines(MIDDLE_EASY)
    code, out, err = with_stdin(capsys, monkeypatch, text, "solve", "c4", "-", "--weak")
    assert code == 0, err
    for given, answered in zip(text.splitlines(), out.splitlines(), strict=True):
        moves, score = given.split()
        sign = (int(score) > 0) - (int(score) < 0)
        assert answered == f"{moves} {sign}"
    assert "0 mismatches" in err


def test_batch_mismatch_is_answered_and_counted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "4455 3\n4,4,5,5 \n44455554221\t-15\r\n"
    code, out, err = with_stdin(capsys, monkeypatch, stdin, "solve", "connect4", "-")
    assert code == 0
    assert out == "4455 18\n4455 18\n44455554221 -15\n"
    assert "line 1: expected score 3, computed 18" in err
    assert "3 positions, 1 mismatch, mean " in err
    assert "(2 with expected scores)" in err


def test_batch_without_expected_scores_prints_no_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = with_stdin(capsys, monkeypatch, "4455\n", "solve", "connect4", "-")
    assert (code, out, err) == (0, "4455 18\n", "")


@pytest.mark.parametrize(
    ("bad", "fragments"),
    [
        ("448a", ["line 2: moves '448a'", "unexpected character 'a' at index 4"]),
        ("48", ["line 2: moves '48'", "move 2 (column 8)", "no such column"]),
        ("4455 x1", ["line 2: moves '4455 x1'", "unexpected character ' '"]),
        ("4455 3 4", ["line 2: moves '4455 3'", "unexpected character ' '"]),
        ("4455 1.5", ["line 2: score '1.5': not a whole number"]),
        ("4455 40", ["line 2: score 40: out of range"]),
    ],
)
def test_batch_stops_at_the_first_bad_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    bad: str,
    fragments: list[str],
) -> None:
    stdin = f"4455 18\n{bad}\n44455554221 -15\n"
    code, out, err = with_stdin(capsys, monkeypatch, stdin, "solve", "connect4", "-")
    assert code == 2
    assert out == "4455 18\n"  # the lines before are answered, none after
    assert err.startswith("perfectplay: error: ")
    assert err.count("\n") == 1
    for fragment in fragments:
        assert fragment in err


def test_batch_line_parsing_empty_board() -> None:
    game = connect4_game()
    args = build_parser().parse_args(["solve", "connect4", "-"])
    empty = solve_batch.parse_line(args, "\n", 1)
    assert (empty.text, empty.loaded.position, empty.expected) == ("", game.initial(), None)
    scored = solve_batch.parse_line(args, " 1\n", 1)
    assert (scored.text, scored.loaded.position, scored.expected) == ("", game.initial(), 1)
    wide_args = build_parser().parse_args(["solve", "connect4", "-", "--size", "10x5"])
    wide = solve_batch.parse_line(wide_args, "10, 3,4 -2", 1)
    assert (wide.text, wide.expected) == ("10,3,4", -2)


@pytest.mark.parametrize(
    "extra", [["--json"], ["--depth", "3"], ["--time", "1"]], ids=["json", "depth", "time"]
)
def test_batch_rejects_search_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, extra: list[str]
) -> None:
    code, out, err = with_stdin(capsys, monkeypatch, "4455\n", "solve", "c4", "-", *extra)
    assert code == 2 and out == ""
    assert "batch mode" in err


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["solve", "connect4", "448"], ["moves '448'", "move 3 (column 8)", "columns 1-7"]),
        (["solve", "connect4", "4444444"], ["move 7 (column 4)", "the column is full"]),
        (["best", "connect4", "44556677"], ["move 8 (column 7)", "the game is already over"]),
        (["analyze", "connect4", "44x5"], ["'44x5'", "unexpected character 'x' at index 3"]),
        (["solve", "connect4", "4455", "--size", "3x3"], ["size 3x3", "at least 4"]),
        (["solve", "connect4", "4455", "--size", "20x20"], ["size 20x20", "too large"]),
        (["play", "connect4", "--size", "3x3"], ["size 3x3"]),
        (["perft", "connect4", "--size", "20x20"], ["size 20x20"]),
        (["solve", "connect5", "4455"], ["game 'connect5'", "connect4", "simplexity", "tictactoe"]),
        (["solve", "connect4", "44", "--weak", "--depth", "3"], ["--weak"]),
        (["best", "connect4", "-"], ["BOARD '-'", "solve"]),
        (["solve", "tictactoe", "___/___/___", "--weak"], ["--weak", "tictactoe does not offer"]),
        (["solve", "simplexity", "4O", "--no-book"], ["--no-book", "simplexity does not offer"]),
        (["best", "connect4", "4", "--eval", "windows"], ["--eval windows", "connect4 does not"]),
        (["solve", "simplexity", "4O", "--k", "4"], ["--k 4: simplexity takes no k"]),
        (["perft", "connect4"], ["perft connect4 7x6", "--depth"]),
    ],
)
def test_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("perfectplay: error: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


# -- progress ----------------------------------------------------------------------------------
def test_status_line_shows_window_nodes_and_rate_on_a_terminal() -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100)
    status = progress.StatusLine(console)
    status.update(-3, 5, 1000, 0.01)  # too early: nothing shown yet
    assert stream.getvalue() == ""
    status.label = "line 7"
    status.update(-3, 5, 2_000_000, 1.0)
    status.update(-1, 5, 4_000_000, 2.0)
    status.stop()
    shown = stream.getvalue()
    assert "line 7: score -1..5, 4,000,000 nodes, 2.0 M nodes/s" in shown
    assert shown.endswith("\x1b[2K")  # transient: the line is erased at the end


def terminal_batch(stdin: bytes, *argv: str) -> tuple[int, str]:
    """``perfectplay ARGV`` reading ``stdin`` from a pipe, with stdout and stderr on one
    pseudo-terminal (a person typing ``echo ... | perfectplay solve connect4 -``): the exit
    status and what the terminal showed."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [*COMMAND, *argv], stdin=subprocess.PIPE, stdout=follower, stderr=follower
    )
    os.close(follower)
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    shown = b""
    try:
        while select.select([leader], [], [], 120)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process closed its end
                break
            if not chunk:
                break
            shown += chunk
        process.wait(timeout=60)
    finally:
        process.kill()
        os.close(leader)
    return process.returncode, shown.decode(errors="replace")


def test_batch_mode_shows_progress_on_a_terminal_as_single_solves_do() -> None:
    """Issue 27, item 12: stdin batch mode on a terminal showed nothing while it solved."""
    # A solve of a few seconds (the line shows after progress.PROGRESS_DELAY; a 6x5 solve
    # once ended before, and the line was rightly never shown).
    argv = ("solve", "connect4", "-", "--no-book")
    code, shown = terminal_batch(b"444444\n", *argv)
    assert code == 0, shown
    before, answer, after = shown.rpartition("444444 1\r\n")
    assert answer, shown
    assert "line 1: score " in before and " nodes" in before  # the single solves' status line
    assert "score" not in after  # and it was gone before the answer


def test_no_progress_when_stderr_is_not_a_terminal() -> None:
    with progress.status_line(sys.stderr.isatty()) as status:
        assert status is None


# -- play ----------------------------------------------------------------------------------------
def test_play_self_on_4x4_finishes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("play", "connect4", "--self", "--size", "4x4", "--depth", "4")
    code, out, err = with_stdin(capsys, monkeypatch, "", *argv)
    assert code == 0, err
    assert "connect4 4x4: the engine plays both sides" in out
    assert "player 1 (x) plays " in out and "player 2 (o) plays " in out
    assert "result: " in out
    assert "to move>" not in out


def test_play_person_with_illegal_input_hint_and_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "4\n9\nx\n0\nhint\nhelp\n\nquit\n"
    code, out, err = with_stdin(capsys, monkeypatch, stdin, "play", "c4", "--depth", "2")
    assert code == 0, err
    assert "you are player 1 (x), the engine is player 2 (o)" in out
    assert "you play 4" in out
    assert "engine plays " in out and "(heuristic " in out
    assert "illegal: move column 9: no such column, the board has columns 1-7; try again" in out
    assert "illegal: move 'x': expected a column number from 1 to 7; try again" in out
    assert "illegal: move column 0: no such column" in out
    assert "hint: " in out
    assert "quit (q)" in out
    assert out.rstrip().endswith("game abandoned")
    assert out.count("player 1 (x) to move> ") == 8


def test_play_full_column_is_re_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "1\n1\n1\n1\nq\n"  # the engine blocks the column: the 4th stone does not fit
    argv = ("play", "c4", "--size", "4x4", "--depth", "1")
    code, out, _ = with_stdin(capsys, monkeypatch, stdin, *argv)
    assert code == 0
    assert out.count("you play 1") == 3
    assert "illegal: move column 1: the column is full; try again" in out
    assert out.rstrip().endswith("game abandoned")


def test_play_engine_first_announces_sides(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("play", "connect4", "--engine-first", "--depth", "2")
    code, out, _ = with_stdin(capsys, monkeypatch, "", *argv)
    assert code == 0
    assert "you are player 2 (o), the engine is player 1 (x)" in out
    assert "engine plays 4 " in out
    assert "end of input: game abandoned" in out


# -- perft -------------------------------------------------------------------------------------
def test_perft_connect4_depth_4(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "perft", "connect4", "--depth", "4")
    assert data["nodes_by_depth"] == [1, 7, 49, 343, 2401]
    assert data["positions_by_depth"] == [1, 7, 49, 238, 1120]
    assert {"first_wins", "second_wins"} <= set(data)
    assert "x_wins" not in data
    assert data["complete"] is False
    code, out, _ = run(capsys, "perft", "c4", "--depth", "4")
    assert code == 0
    assert "nodes at ply 4" in out and "2,401" in out
    assert "player 1 (x) wins" in out


def test_help_shows_connect4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0
    assert "perfectplay solve connect4 4455 --json" in out
    assert "--weak" in out


# -- opening books ---------------------------------------------------------------------------
def test_book_is_built_and_consulted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from perfectplay.games.connect4.rules import game

    book = tmp_path / "c4-5x4.npz"
    code, out, err = run(
        capsys, "book", "connect4", "--size", "5x4", "--depth", "3", "--out", str(book)
    )
    assert code == 0, err
    assert "49 positions" in out and book.exists()
    try:
        plain = run_json(capsys, "solve", "connect4", "", "--size", "5x4")
        booked = run_json(capsys, "solve", "connect4", "", "--size", "5x4", "--book", str(book))
        assert booked["score"] == plain["score"] == 0
        assert booked["nodes"] < plain["nodes"]
        middle = run_json(capsys, "solve", "connect4", "3322", "--size", "5x4", "--book", str(book))
        game(5, 4).kernel().use_book(None)
        assert (
            middle["score"]
            == run_json(capsys, "solve", "connect4", "3322", "--size", "5x4")["score"]
        )
    finally:
        game(5, 4).kernel().use_book(None)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["book", "tictactoe", "--depth", "2", "--out", "x.npz"], "tictactoe does not offer it"),
        (["book", "connect4", "--depth", "99", "--out", "x.npz"], "depth=99"),
        (["book", "connect4", "--depth", "1", "--out", "/no/such/dir/x.npz"], "cannot write it"),
        (["solve", "connect4", "44", "--book", "/no/such/book.npz"], "not readable"),
        (["solve", "connect4", "44", "--table-bits", "40"], "--table-bits 40"),
        (["solve", "tictactoe", "x________", "--table-bits", "9"], "--table-bits 9"),
        (["solve", "connect4", "44", "--threads", "0"], "--threads 0: must be a whole number"),
        (["analyze", "connect4", "44", "--threads", "65"], "from 1 to 64"),
        (["best", "tictactoe", "x________", "--threads", "2"], "--threads 2: tictactoe does"),
    ],
)
def test_book_and_table_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("perfectplay: error: ") and fragment in err and "Traceback" not in err


def test_threads_give_the_same_answers(capsys: pytest.CaptureFixture[str]) -> None:
    middle = "274552224131661"
    one = run_json(capsys, "analyze", "connect4", middle, "--no-book")
    two = run_json(capsys, "analyze", "connect4", middle, "--no-book", "--threads", "2")
    assert [m["score"] for m in one["moves"]] == [m["score"] for m in two["moves"]]
    solved = run_json(capsys, "solve", "connect4", "44455554221", "--threads", "2")
    assert solved["score"] == -15 and solved["exact"] is True


def test_the_shipped_7x6_book_is_used_unless_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with_book = run_json(capsys, "solve", "connect4", "4", "--weak")
    assert with_book["score"] == -1 and with_book["nodes"] < 10_000  # read from the book
    without = run_json(capsys, "solve", "connect4", "4455", "--no-book")
    assert without["score"] == 18
    assert connect4_game(7, 6).kernel(api.kernel_options(book=False)).book is None
    assert connect4_game(7, 6).kernel().book is not None  # options travel with the call
    for argv, fragment in (
        (["best", "tictactoe", "x________", "--no-book"], "tictactoe does not offer"),
        (["best", "simplexity", "4O", "--no-book"], "--no-book"),
        (["best", "connect4", "4", "--no-book", "--book", "x.npz"], "not allowed with"),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and fragment in err, err
