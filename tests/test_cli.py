"""The ``perfectplay`` command line: JSON contracts, text output, errors, exit codes, play.

Most tests call :func:`perfectplay.cli.main` in-process; two run the installed script.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_support import run, run_json, with_stdin

from perfectplay.cli import main
from perfectplay.cli import perft as perft_verb

ARTICLE = "xox/oox/___"


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str,
    *argv: str,
) -> tuple[int, str, str]:
    """``perfectplay play ...`` with ``stdin`` as the person's input."""
    return with_stdin(capsys, monkeypatch, stdin, "play", *argv)


# -- best / solve / analyze ------------------------------------------------------------------
def test_best_article_board_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "tictactoe", ARTICLE)
    assert data["best_move"] == {"row": 2, "col": 2}
    assert data["outcome"] == "win"
    assert data["plies"] == 1
    assert data["score"] == 10
    assert data["to_move"] == "x"
    assert data["exact"] is True


def test_best_text_names_move_value_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", "ttt", ARTICLE)
    assert code == 0, err
    assert "x to move: best move c3 (row 2, col 2) — win in 1 (score 10)" in out
    assert " 1   x | o | x" in out  # the board is drawn
    assert "searched" in out and "exact" in out


def test_best_with_seed_and_alias(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "Tic-Tac-Toe", "___/___/___", "--seed", "3")
    assert data["outcome"] == "draw"
    assert data["score"] == 0
    assert 0 <= data["best_move"]["row"] < 3 and 0 <= data["best_move"]["col"] < 3


def test_best_with_depth_limit_is_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "tictactoe", "____/____/____/____", "--depth", "2")
    assert data["exact"] is False
    assert data["outcome"] is None and data["plies"] is None
    assert isinstance(data["score"], int | float)


def test_best_on_finished_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "tictactoe", "xxx/oo_/___")
    assert code == 0
    assert "game over: x has 3 in a row" in out
    data = run_json(capsys, "best", "tictactoe", "xxx/oo_/___")
    assert data["best_move"] is None
    assert data["outcome"] == "loss" and data["score"] == -10


def test_analyze_article_board_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "tictactoe", ARTICLE)
    moves = {(m["row"], m["col"]): m for m in data["moves"]}
    assert set(moves) == {(2, 0), (2, 1), (2, 2)}
    assert (moves[(2, 0)]["outcome"], moves[(2, 0)]["plies"], moves[(2, 0)]["score"]) == (
        "loss",
        2,
        -9,
    )
    assert (moves[(2, 1)]["outcome"], moves[(2, 1)]["score"]) == ("draw", 0)
    assert (moves[(2, 2)]["outcome"], moves[(2, 2)]["plies"], moves[(2, 2)]["score"]) == (
        "win",
        1,
        10,
    )


def test_analyze_text_table_and_value_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", "tictactoe", ARTICLE)
    assert code == 0, err
    assert "x to move: 3 moves" in out
    for label, outcome in (("a3", "loss"), ("b3", "draw"), ("c3", "win")):
        assert any(label in line and outcome in line for line in out.splitlines())
    last_row = next(line for line in out.splitlines() if line.startswith(" 3 "))
    assert last_row.split("|") == [" 3   L2  ", "  D  ", " W1"]


def test_solve_empty_board_is_an_exact_draw(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "___/___/___")
    assert data["outcome"] == "draw"
    assert data["exact"] is True
    assert data["score"] == 0
    assert data["pv"][0] == data["best_move"]


def test_solve_text_prints_principal_variation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "ttt", "x__/_o_/___")
    assert code == 0, err
    assert "x to move: best move" in out
    pv_line = next(line for line in out.splitlines() if line.startswith("principal variation:"))
    assert pv_line.removeprefix("principal variation: ").startswith("x ")
    assert ", o " in pv_line


# -- perft ------------------------------------------------------------------------------------
def test_perft_json_counts_3x3(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "perft", "tictactoe")
    expected = {
        "games": 255168,
        "x_wins": 131184,
        "o_wins": 77904,
        "draws": 46080,
        "nodes": 549946,
        "positions": 5478,
        "canonical_positions": 765,
        "terminal_positions": 958,
    }
    assert {key: data[key] for key in expected} == expected
    assert data["games_by_length"] == {"5": 1440, "6": 5328, "7": 47952, "8": 72576, "9": 127872}
    assert data["complete"] is True


def test_perft_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "perft", "ttt", "--size", "3x3")
    assert code == 0
    assert err == ""  # no progress display when stderr is not a terminal
    assert "255,168" in out and "131,184" in out and "549,946" in out
    assert "canonical positions" in out


def test_perft_depth_limited(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "perft", "tictactoe", "--size", "4x4", "--depth", "2")
    assert data["nodes"] == 1 + 16 + 16 * 15
    assert data["complete"] is False


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["best", "tictactoe", "xox/oo/___"], ["'xox/oo/___'", "ragged rows"]),
        (["best", "tictactoe", "xoz/___/___"], ["'xoz/___/___'", "unknown character 'z'"]),
        (["solve", "tictactoe", "xxx/___/___"], ["'xxx/___/___'", "piece counts"]),
        (["analyze", "tictactoe", "xxx/ooo/x__"], ["'xxx/ooo/x__'", "both x and o"]),
        (["best", "tictactoe", "___/___/___", "--k", "5"], ["k=5"]),
        (["perft", "tictactoe", "--size", "4y4"], ["size '4y4'"]),
        (["play", "tictactoe", "--size", "20x20"], ["rows=20"]),
        (["best", "tictactoe", "___/___/___", "--depth", "-1"], ["depth=-1"]),
        (["perft", "tictactoe", "--depth", "-1"], ["depth=-1"]),
        (["solve", "tictactoe", "___/___/___", "--time", "0"], ["time=0"]),
        (["best", "chess", "___/___/___"], ["game 'chess'", "tictactoe"]),
        (["perft", "go"], ["game 'go'"]),
    ],
)
def test_input_errors_exit_2_with_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("perfectplay: error: ")
    assert err.count("\n") == 1
    for fragment in fragments:
        assert fragment in err


@pytest.mark.parametrize(
    "argv",
    [
        ["best", "tictactoe", "___/___/___", "--depth", "abc"],
        ["best", "tictactoe", "___/___/___", "--depth", "2", "--time", "1"],
        ["best", "tictactoe"],
        ["frobnicate"],
        [],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert "usage: perfectplay" in err


@pytest.mark.parametrize("command", [[], ["best"], ["solve"], ["analyze"], ["play"], ["perft"]])
def test_help_has_examples(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0
    assert "examples:" in out
    assert "perfectplay " in out.split("examples:")[1]


def test_unexpected_error_is_one_line_without_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: Any) -> int:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(perft_verb, "run", broken)
    monkeypatch.delenv("PERFECTPLAY_DEBUG", raising=False)
    code, _, err = run(capsys, "perft", "tictactoe")
    assert code == 1
    assert "internal error: RuntimeError: kaboom" in err
    assert "Traceback" not in err
    monkeypatch.setenv("PERFECTPLAY_DEBUG", "1")
    with pytest.raises(RuntimeError, match="kaboom"):
        main(["perft", "tictactoe"])


def test_keyboard_interrupt_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(perft_verb, "run", interrupted)
    code, _, err = run(capsys, "perft", "tictactoe")
    assert code == 130
    assert "interrupted" in err


# -- play -------------------------------------------------------------------------------------
def test_play_person_moves_illegal_input_and_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(capsys, monkeypatch, "b2\nzz\nb2\n9 9\nhint\nhelp\nquit\n", "ttt")
    assert code == 0, err
    assert "you are x, the engine is o" in out
    assert "you play b2" in out
    assert "engine plays " in out and "(draw)" in out
    assert "illegal: move 'zz': expected a cell" in out
    assert "illegal: b2 — move (row 1, col 1): the cell is occupied" in out
    assert "illegal: move '9 9': off the 3x3 board" in out
    assert "hint: " in out
    assert "quit (q)" in out
    assert out.rstrip().endswith("game abandoned")
    assert out.count("x to move> ") == 7  # every input was asked for, the bad ones again


def test_play_person_loses_to_engine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = "".join(f"{col}{row}\n" for row in "123" for col in "abc")  # occupied ones re-asked
    code, out, err = play(capsys, monkeypatch, moves, "tictactoe", "--engine-first")
    assert code == 0, err
    assert "you are o, the engine is x" in out
    assert "result: x wins (the engine wins) — x has 3 in a row" in out


def test_play_self_3x3_is_a_draw(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(capsys, monkeypatch, "", "tictactoe", "--self")
    assert code == 0, err
    assert "the engine plays both sides" in out
    assert sum(line.startswith(("x plays", "o plays")) for line in out.splitlines()) == 9
    assert "result: draw — the board is full" in out
    assert "to move>" not in out  # no input was asked for


def test_play_self_with_seed_and_depth(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = play(capsys, monkeypatch, "", "ttt", "--self", "--seed", "5", "--depth", "9")
    assert code == 0
    assert "result: draw" in out


def test_play_end_of_input_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(capsys, monkeypatch, "", "tictactoe", "--size", "4x4", "--k", "3")
    assert code == 0, err
    assert "tictactoe 4x4, k=3" in out
    assert "end of input: game abandoned" in out


# -- the installed script ---------------------------------------------------------------------
def _script() -> list[str]:
    """The installed ``perfectplay`` script (or ``python -m perfectplay.cli`` without one)."""
    beside = Path(sys.executable).with_name("perfectplay")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("perfectplay")
    return [found] if found else [sys.executable, "-m", "perfectplay.cli"]


def _run_script(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PERFECTPLAY_DEBUG"}
    return subprocess.run(
        [*_script(), *argv], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_script_help_is_fast_and_imports_nothing_heavy() -> None:
    done = _run_script("--help")
    assert done.returncode == 0
    assert "examples:" in done.stdout
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, perfectplay.cli; "
            "print(sorted(m for m in ('numba', 'numpy', 'perfectplay.search', 'rich') "
            "if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert probe.stdout.strip() == "[]"


def test_script_bad_board_exits_2_without_traceback() -> None:
    done = _run_script("best", "tictactoe", "xox/oo/___")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "perfectplay: error: board 'xox/oo/___': ragged rows" in done.stderr
    assert "Traceback" not in done.stderr
