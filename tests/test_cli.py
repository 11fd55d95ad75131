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

from perfectplay import api
from perfectplay.cli import build_parser, main, options
from perfectplay.cli import perft as perft_verb
from perfectplay.errors import ParameterError

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
    assert data["best_move"] == {"row": 3, "col": 3}
    assert data["outcome"] == "win"
    assert data["plies"] == 1
    assert data["score"] == 10
    assert data["to_move"] == "x"
    assert data["exact"] is True


def test_best_text_names_move_value_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", "ttt", ARTICLE)
    assert code == 0, err
    assert "x to move: best move c3 (row 3, column 3) — win in 1 (score 10)" in out
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
    assert set(moves) == {(3, 1), (3, 2), (3, 3)}
    assert (moves[(3, 1)]["outcome"], moves[(3, 1)]["plies"], moves[(3, 1)]["score"]) == (
        "loss",
        2,
        -9,
    )
    assert (moves[(3, 2)]["outcome"], moves[(3, 2)]["score"]) == ("draw", 0)
    assert (moves[(3, 3)]["outcome"], moves[(3, 3)]["plies"], moves[(3, 3)]["score"]) == (
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
        "first_wins": 131184,
        "second_wins": 77904,
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
        (["play", "tictactoe", "--size", "21x21"], ["rows=21"]),
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


# -- options and verbs checked against the game's kit ----------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "tictactoe", "___/___/___", "--weak"], "--weak: tictactoe does not offer it"),
        (["analyze", "ttt", "___/___/___", "--weak"], "--weak: tictactoe does not offer it"),
        (["solve", "ttt", "not a board", "--weak"], "--weak: tictactoe does not offer it"),
        (["best", "c4", "44", "--eval", "windows"], "--eval windows: connect4 does not offer it"),
        (
            ["play", "connect4", "--eval", "neighbors"],
            "--eval neighbors: connect4 does not offer it",
        ),
        (["solve", "simplexity", "4O", "--k", "4"], "--k 4: simplexity takes no k"),
        (["perft", "sc", "--k", "3"], "--k 3: simplexity takes no k"),
        (["tree", "sc", "4O", "--k", "0"], "--k 0: simplexity takes no k"),
        (
            ["solve", "ttt", "x________", "--book", "b.npz"],
            "--book b.npz: tictactoe does not offer it",
        ),
        (["best", "sc", "4O", "--no-book"], "--no-book: simplexity does not offer it"),
        (
            ["history", "simplexity", "not a board"],
            "history simplexity: simplexity does not offer it",
        ),
        (
            ["arena", "ttt", "--p1", "engine", "--p2", "random", "--games", "1"],
            "arena ttt: tictactoe does not offer it",
        ),
        (["book", "sc", "--depth", "1", "--out", "b.npz"], "book sc: simplexity does not offer it"),
    ],
)
def test_options_and_verbs_are_checked_against_the_kit(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Refused before the position is read: one line naming the option (or verb) and game."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == f"perfectplay: error: {message}\n"


OPTION_ARGS = {
    "weak": ["--weak"],
    "book": ["--book", "b.npz"],
    "no_book": ["--no-book"],
    "eval": ["--eval", "name"],
    "size": ["--size", "4x4"],
    "k": ["--k", "3"],
}
"""How each option that only some games offer is given, for the check over every game."""


@pytest.mark.parametrize("requirement", options.OPTION_REQUIREMENTS, ids=lambda r: r.option)
@pytest.mark.parametrize("game_kit", api.games(), ids=lambda k: k.name)
def test_every_option_is_offered_exactly_where_the_kit_says(
    game_kit: api.GameKit, requirement: options.Requirement
) -> None:
    """The check reads the kit alone: its capabilities, its size rule, whether it takes k."""
    given = OPTION_ARGS[requirement.field]
    args = build_parser().parse_args(["solve", game_kit.name, "", *given])
    expected = {
        "weak": game_kit.has(api.Capability.WEAK),
        "book": game_kit.has(api.Capability.BOOK),
        "no_book": game_kit.has(api.Capability.BOOK),
        "eval": game_kit.has(api.Capability.EVALUATIONS),
        "size": game_kit.size is not None,
        "k": game_kit.takes_k,
    }[requirement.field]
    if expected:
        assert options.kit(args) is game_kit
        return
    with pytest.raises(ParameterError) as refused:
        options.kit(args)
    assert str(refused.value).startswith(" ".join(given) + ": " + game_kit.name + " ")


@pytest.mark.parametrize("verb", ["history", "arena", "book"])
@pytest.mark.parametrize("game_kit", api.games(), ids=lambda k: k.name)
def test_verbs_apply_exactly_where_the_kit_says(game_kit: api.GameKit, verb: str) -> None:
    """``history``, ``arena`` and ``book`` need the capability of their name."""
    argv = {
        "history": ["history", game_kit.name, ""],
        "arena": ["arena", game_kit.name, "--p1", "random", "--p2", "random", "--games", "1"],
        "book": ["book", game_kit.name, "--depth", "1", "--out", "b.npz"],
    }[verb]
    args = build_parser().parse_args(argv)
    if game_kit.has(api.Capability[verb.upper()]):
        assert options.kit(args) is game_kit
        return
    with pytest.raises(ParameterError, match=f"^{verb} {game_kit.name}: {game_kit.name} does"):
        options.kit(args)


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
    assert "illegal: b2 — move (row 2, column 2): the cell is occupied" in out
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


# -- a plug-in game ---------------------------------------------------------------------------
PLUGIN = "nim"
"""The plug-in of ``examples/nim`` (no kernel, no board view, no size, no k, no
capability): its tests run whenever it is installed."""
needs_plugin = pytest.mark.skipif(
    PLUGIN not in api.game_names(),
    reason="the example plug-in is not installed (python3 -m pip install ./examples/nim)",
)


@needs_plugin
def test_plugin_solve_best_and_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", PLUGIN, "3,4,5")
    assert data["to_move"] == "1" and data["weak"] is False and data["exact"] is True
    assert (data["outcome"], data["plies"], data["score"]) == ("win", 11, 1)
    assert data["best_move"] == {"heap": 1, "take": 2} and data["pv"][0] == data["best_move"]
    code, out, err = run(capsys, "solve", PLUGIN, "3,4,5")
    assert code == 0, err
    assert "heap 3  |||||  5" in out and "objects left: 12" in out  # the kit's text and notes
    assert "player 1 to move: best move 1:2 — win in 11 (score 1)" in out
    assert "principal variation: 1:2 1:1 " in out
    best = run_json(capsys, "best", PLUGIN, "1,2")
    assert best["best_move"] == {"heap": 2, "take": 1} and best["outcome"] == "win"
    moves = run_json(capsys, "analyze", PLUGIN, "1,2")["moves"]
    assert [(m["heap"], m["take"], m["outcome"]) for m in moves] == [
        (1, 1, "loss"),
        (2, 1, "win"),
        (2, 2, "loss"),
    ]
    code, out, err = run(capsys, "analyze", PLUGIN, "1,2")
    assert code == 0, err
    assert "player 1 to move: 3 moves" in out and "objects left: 3" in out


@needs_plugin
def test_plugin_tree_perft_and_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, out, err = run(capsys, "tree", PLUGIN, "2,1")
    assert code == 0, err
    assert "plain minimax visited 12 nodes" in out
    assert "best line: take 1 from heap 1, take 1 from heap 1, take 1 from heap 2" in out
    picture = tmp_path / "nim.dot"
    code, out, err = run(capsys, "tree", PLUGIN, "2,1", "--dot", str(picture))
    assert code == 0, err
    assert picture.read_text().startswith("digraph")
    counts = run_json(capsys, "perft", PLUGIN, "--depth", "4")
    assert counts["nodes"] == 5274 and counts["nodes_by_depth"] == [1, 12, 113, 810, 4338]
    assert (counts["first_wins"], counts["second_wins"], counts["draws"]) == (6, 108, 0)
    code, out, err = with_stdin(capsys, monkeypatch, "3,4,5\n1,2 1\n1,1 1\n", "solve", PLUGIN, "-")
    assert code == 0
    assert out == "3,4,5 1\n1,2 1\n1,1 -1\n"
    assert "line 3: expected score 1, computed -1" in err and "1 mismatch," in err


@needs_plugin
def test_plugin_play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    typed = "2:1\nzz\n9:1\nhint\nhelp\nquit\n"
    code, out, err = play(capsys, monkeypatch, typed, PLUGIN)
    assert code == 0, err
    assert "you are player 1, the engine is player 2. Enter a move such as 2:3" in out
    assert "you play 2:1" in out and "engine plays " in out
    assert "illegal: move 'zz': expected a heap" in out
    assert "illegal: move 9:1: no heap 9" in out
    assert "hint: " in out and "whoever takes the last object wins" in out
    assert out.rstrip().endswith("game abandoned")
    code, out, err = play(capsys, monkeypatch, "", PLUGIN, "--self")
    assert code == 0, err
    assert "result: player " in out and "took the last one" in out


@needs_plugin
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["history", PLUGIN, "3,4"], "history nim: nim does not offer it"),
        (["solve", PLUGIN, "3,4", "--size", "3x3"], "--size 3x3: nim takes no board size"),
        (["solve", PLUGIN, "3,4", "--weak"], "--weak: nim does not offer it"),
        (["perft", PLUGIN, "--k", "3"], "--k 3: nim takes no k"),
        (["analyze", PLUGIN, "3,4", "--eval", "x"], "--eval x: nim does not offer it"),
        (["arena", PLUGIN, "--p1", "random", "--p2", "random", "--games", "1"], "arena nim: nim"),
        (["book", PLUGIN, "--depth", "1", "--out", "b.npz"], "book nim: nim does not offer it"),
        (
            ["solve", PLUGIN, "15,15,15,15,15,15,15,14"],
            "nim: 119 plies left; solving would take about",
        ),
    ],
)
def test_plugin_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("perfectplay: error: ") and message in err and err.count("\n") == 1
    assert "--size" not in err or "--size 3x3" in err  # no advice a game without sizes cannot take


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
