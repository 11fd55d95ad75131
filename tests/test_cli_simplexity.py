"""The shape-and-color game on the command line: best (its JSON contract), solve, analyze,
play, arena, and the errors (exit 2, one line, no traceback). Small boards, short times."""

from __future__ import annotations

import pytest
from cli_support import run, run_json, with_stdin

from perfectplay.api import Policy
from perfectplay.games.simplexity.kit import SimplexityKit
from perfectplay.games.simplexity.notation import parse_simplexity_moves
from perfectplay.games.simplexity.rules import SimplexityMove, game

WON_BY_2 = "1X 7O 2X 7O 3X 7O 4X"  # red completes an X four: player 2 has won
DRAWN_6X7 = (
    "6O 3X 5X 5X 6X 4O 5O 5X 2O 7X 4O 2X 2X 4X 4X 5X 2O 2O 3O 3O 1O 5O 4O 2O 6X 1O 4X 7O 7X "
    "6O 3O 3X 3O 7O 7X 1X 7O 1O 1X 6X 1X 6X"
)
BEST_KEYS = {"finished", "winner", "to_move", "best_move", "score", "exact"}
BEST_KEYS |= {"depth", "nodes", "time_ms"}


# -- best ------------------------------------------------------------------------------------
def test_best_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "simplexity", "4O 4X 3O", "--time", "0.2")
    assert set(data) >= BEST_KEYS
    assert data["finished"] is False and data["winner"] is None and data["to_move"] == "2"
    move = data["best_move"]
    assert set(move) == {"column", "shape"} and 1 <= move["column"] <= 7
    assert move["shape"] in ("O", "X")
    assert isinstance(data["score"], int | float) and data["exact"] is False
    assert data["depth"] >= 1 and data["nodes"] > 0 and 0 < data["time_ms"] < 1000
    g = game()
    position, _ = parse_simplexity_moves(g, "4O 4X 3O")
    g.play(position, SimplexityMove(move["column"] - 1, move["shape"]))  # legal
    assert data["pv"][0] == move


def test_best_finds_the_immediate_win(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "sc", "1O 1X 2O 2X 3O 3X", "--time", "0.3")
    assert data["best_move"]["column"] == 4 and data["to_move"] == "1"
    assert data["exact"] is True and data["outcome"] == "win" and data["plies"] == 1
    assert data["score"] == 22 - 4  # Connect Four's convention: the winner's 4th piece


def test_best_on_finished_boards(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "best", "simplexity", WON_BY_2)
    assert data["finished"] is True and data["winner"] == "2" and data["to_move"] == "2"
    assert data["best_move"] is None and data["exact"] is True and data["score"] > 0
    drawn = run_json(capsys, "best", "simplexity", DRAWN_6X7)
    assert drawn["finished"] is True and drawn["winner"] is None and drawn["score"] == 0
    code, out, _ = run(capsys, "best", "simplexity", WON_BY_2)
    assert code == 0 and "game over: four X shapes: player 2 wins" in out


def test_best_default_time_and_depth(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert SimplexityKit.policy.play_time == 3.0
    monkeypatch.setattr(SimplexityKit, "policy", Policy(play_time=0.1, exact_plies=20))
    data = run_json(capsys, "best", "simplexity", "")
    assert data["time_ms"] < 1000 and data["best_move"] is not None
    data = run_json(capsys, "best", "simplexity", "4O", "--depth", "2")
    assert data["depth"] == 2 and data["exact"] is False
    data = run_json(capsys, "best", "simplexity", "4O", "--depth", "1", "--seed", "3")
    assert data["best_move"] is not None


def test_best_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "best", "simplexity", "2O 2X 3O", "--size", "4x4", "--time", "0.2")
    assert code == 0, err
    assert out.startswith("  1     2     3     4\n. -=- . -=- . -=- . -=- .\n")
    assert "|  -  |  O  |  O  |  -  |" in out
    assert "pieces left: player 1 (red): O 2, X 4 | player 2 (blue): O 4, X 3" in out
    assert "player 2 (blue, X) to move: best move " in out
    assert "searched " in out and "\x1b[" not in out  # no colour when not a terminal


# -- solve -----------------------------------------------------------------------------------
def test_solve_small_board_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "simplexity", "", "--size", "6x2")
    assert data["exact"] is True and data["outcome"] == "draw" and data["score"] == 0
    assert len(data["pv"]) == 12 and data["finished"] is False and data["to_move"] == "1"
    code, out, _ = run(capsys, "solve", "simplexity", "3O 3X", "--size", "6x2")
    assert code == 0 and "principal variation: " in out and "exact" in out


def test_solve_large_board_needs_a_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "simplexity", "")
    assert code == 2 and out == ""
    assert err == (
        "perfectplay: error: solve simplexity: not proved in its 10 s trial on a position 42 "
        "plies from the end, so it needs more than 10 s of processor time (solves end soon "
        "with at most 20 plies left); give --time S (exact if the search reaches the end), "
        "--depth N or a smaller --size\n"
    )
    data = run_json(capsys, "solve", "simplexity", "", "--time", "0.2")
    assert data["exact"] is False and len(data["pv"]) >= 1


# -- analyze ---------------------------------------------------------------------------------
def test_analyze_every_column_and_shape(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "simplexity", "2O 2X 3O", "--size", "4x4", "--time", "0.4")
    moves = [(m["column"], m["shape"]) for m in data["moves"]]
    assert moves == [(c, s) for c in range(1, 5) for s in "OX"]
    assert data["to_move"] == "2" and data["finished"] is False
    for item in data["moves"]:
        assert {"outcome", "plies", "score", "value", "exact"} <= set(item)


def test_analyze_exact_on_a_small_board(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "simplexity", "3O 3X 4O", "--size", "6x2")
    assert all(item["exact"] for item in data["moves"])
    assert {item["outcome"] for item in data["moves"]} <= {"win", "draw", "loss"}
    code, out, _ = run(capsys, "analyze", "simplexity", "3O 3X 4O", "--size", "6x2")
    assert code == 0 and "best" in out and "4X" in out


def test_analyze_finished_board(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "simplexity", WON_BY_2)
    assert data["moves"] == [] and data["finished"] is True
    code, out, _ = run(capsys, "analyze", "simplexity", WON_BY_2)
    assert code == 0 and "no moves to analyze" in out


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["best", "sc", "9O"], "moves '9O': move 1 (9O): no such column, the board has columns"),
        (["best", "sc", "4O 4Z"], "move 2 (4Z): the shape is O or X"),
        (["best", "sc", "1O 1X 1O 1X 1O 1X 1O"], "move 7 (1O): column 1 is full"),
        (["best", "sc", "1X 1O 2X", "--size", "3x2"], "move 3 (2X): player 1 (red) has no X"),
        (["best", "sc", WON_BY_2 + " 5O"], "move 8 (5O): the game is already over"),
        (["best", "sc", "", "--size", "3x3"], "size 3x3: columns x rows must be even"),
        (["best", "sc", "", "--size", "axb"], "size 'axb'"),
        (["best", "sc", "", "--k", "3"], "--k 3: simplexity takes no k"),
        (["solve", "sc", "", "--weak"], "--weak: simplexity does not offer it"),
        (["best", "sc", "-"], "BOARD '-'"),
        (["best", "sc", "", "--table-bits", "40"], "--table-bits 40"),
        (["play", "sc", "--k", "3"], "--k 3: simplexity takes no k"),
        (["best", "sc", "", "--time", "0"], "time=0.0"),
    ],
)
def test_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("perfectplay: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


# -- play ------------------------------------------------------------------------------------
def test_play_person_with_illegal_input_hint_and_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "2O\nhint\n9O\n2Z\nxx\nhelp\n\n1X\nquit\n"
    argv = ("play", "simplexity", "--size", "4x4", "--time", "0.1")
    code, out, err = with_stdin(capsys, monkeypatch, stdin, *argv)
    assert code == 0, err
    assert "you are player 1 (red, O), the engine is player 2 (blue, X)" in out
    assert "Enter a move such as 4O (column 1-4, shape O or X)" in out
    assert "you play 2O" in out and "you play 1X" in out
    assert "engine plays " in out
    assert "hint: " in out
    assert "illegal: move 9O: no such column, the board has columns 1-4; try again" in out
    assert "illegal: move 3 (2Z): the shape is O or X; try again" in out
    assert "illegal: move 3 'xx': a move is a column number and a shape" in out
    assert "a shape four beats a color four" in out  # help
    assert "pieces left: player 1 (red): O 4, X 4 | player 2 (blue): O 4, X 4" in out
    assert out.rstrip().endswith("game abandoned")


def test_play_exhausted_shape_is_re_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "1X\n2X\nq\n"  # 3x2: player 1 has a single X
    argv = ("play", "simplexity", "--size", "3x2", "--depth", "1")
    code, out, _ = with_stdin(capsys, monkeypatch, stdin, *argv)
    assert code == 0
    assert "illegal: move 2X: player 1 (red) has no X pieces left (quota 1); try again" in out


def test_play_self_finishes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("play", "simplexity", "--self", "--size", "4x4", "--time", "0.05")
    code, out, err = with_stdin(capsys, monkeypatch, "", *argv)
    assert code == 0, err
    assert "simplexity 4x4: the engine plays both sides" in out
    assert "player 1 (red, O) plays " in out and "player 2 (blue, X) plays " in out
    assert "result: " in out and "to move>" not in out


def test_play_engine_first_and_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("play", "sc", "--engine-first", "--size", "5x4", "--depth", "2")
    code, out, _ = with_stdin(capsys, monkeypatch, "", *argv)
    assert code == 0
    assert "you are player 2 (blue, X), the engine is player 1 (red, O)" in out
    assert "engine plays " in out and "end of input: game abandoned" in out


# -- arena -----------------------------------------------------------------------------------
def test_arena_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "simplexity", "--p1", "engine:time=0.03", "--p2", "random:seed=5"]
    data = run_json(capsys, *argv, "--games", "4", "--size", "5x4", "--opening-plies", "2")
    assert data["game"] == "simplexity" and data["size"] == "5x4" and data["games"] == 4
    assert [g["first"] for g in data["results"]] == ["p1", "p2", "p1", "p2"]
    p1, p2 = data["players"]["p1"], data["players"]["p2"]
    assert p1["spec"] == "engine:time=0.03" and p2["spec"] == "random:seed=5"
    assert p1["wins"] + p1["losses"] + p1["draws"] == 4
    assert p1["wins"] == p2["losses"] and p1["losses"] == p2["wins"]
    assert p1["as_first"]["games"] == p1["as_second"]["games"] == 2
    assert p1["mean_depth"] > 0 and p2["mean_depth"] is None
    assert 0 < p1["mean_time_ms"] <= p1["max_time_ms"] < 1000
    first, second = (r["moves"].split()[:2] for r in data["results"][:2])
    assert first == second  # a pair shares its opening


def test_arena_text_and_depth_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "sc", "--p1", "engine:eval=neighbors,depth=2", "--p2", "engine:depth=1"]
    code, out, err = run(capsys, *argv, "--games", "2", "--size", "4x4", "--time", "0.5")
    assert code == 0, err
    assert "arena simplexity 4x4, 2 games, 0.5 s per move" in out
    assert "p1 = engine:eval=neighbors,depth=2, p2 = engine:depth=1" in out
    assert "p1 wins " in out and " draws" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--p1", "bot", "--p2", "random"], "player 'bot': unknown kind 'bot'"),
        (["--p1", "engine:depth=x", "--p2", "random"], "depth 'x' must be a whole number"),
        (["--p1", "engine", "--p2", "random:depth=2"], "random takes no setting 'depth'"),
        (["--p1", "engine:eval=smart", "--p2", "random"], "eval 'smart' is unknown"),
        (["--p1", "engine", "--p2", "random", "--time", "-1"], "time=-1.0"),
    ],
)
def test_arena_errors(capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    code, out, err = run(capsys, "arena", "simplexity", "--games", "2", *extra)
    assert code == 2 and out == "" and message in err, err
    code, _, err = run(
        capsys, "arena", "connect4", "--p1", "engine", "--p2", "random", "--games", "1"
    )
    assert code == 2 and "arena connect4: connect4 does not offer it" in err
    code, _, err = run(capsys, "arena", "sc", "--p1", "engine", "--p2", "random", "--games", "0")
    assert code == 2 and "games=0" in err


# -- --eval ----------------------------------------------------------------------------------
def test_eval_selects_the_heuristic_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    windows = run_json(capsys, "best", "simplexity", "4O 4X", "--depth", "1")
    neighbors = run_json(
        capsys, "best", "simplexity", "4O 4X", "--depth", "1", "--eval", "neighbors"
    )
    assert windows["exact"] is False and neighbors["exact"] is False
    assert windows["score"] != neighbors["score"]  # two different heuristics at the horizon


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("best", "simplexity", "4O", "--eval", "bogus"), "unknown; known are windows, neighbors"),
        (
            ("best", "tictactoe", "xox/oox/___", "--eval", "neighbors"),
            "tictactoe does not offer it",
        ),
        (("best", "connect4", "44", "--eval", "neighbors"), "connect4 does not offer it"),
    ],
)
def test_eval_errors(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
