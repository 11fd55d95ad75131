"""``perfectplay history`` and ``perfectplay tree``: JSON contract, text, pictures, errors."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from cli_support import run, run_json

from perfectplay.cli import build_parser

ARTICLE = "xox/oox/___"
MISTAKE = "xo_/_x_/o_x"


# -- history ----------------------------------------------------------------------------------
def test_history_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "history", "tictactoe", "xox/xoo/oxx")
    assert list(data) == [
        "reachable_optimally",
        "history",
        "optimal_histories",
        "mistakes",
        "notion",
    ]
    assert data["reachable_optimally"] is True
    assert data["optimal_histories"] == 222
    assert data["mistakes"] == [] and data["notion"] == "outcome"
    assert len(data["history"]) == 9
    assert all(set(move) == {"row", "col"} for move in data["history"])


def test_history_json_moves_are_best_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    best = run_json(capsys, "best", "tictactoe", ARTICLE)["best_move"]
    history = run_json(capsys, "history", "tictactoe", "xox/oox/__x")["history"]
    assert all(set(move) == set(best) for move in history)
    assert {"row": 3, "col": 3} in history and len(history) == 7


def test_history_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "history", "ttt", MISTAKE)
    assert data["reachable_optimally"] is False and data["optimal_histories"] == 0
    assert data["mistakes"] == [
        {"ply": 4, "move": {"row": 1, "col": 2}, "before": "draw", "after": "loss"}
    ]
    strict = run_json(capsys, "history", "ttt", MISTAKE, "--strict")
    assert strict["notion"] == "strict"
    assert strict["mistakes"][0]["after"] == "loss in 2"
    assert run_json(capsys, "history", "ttt", MISTAKE, "--outcome")["notion"] == "outcome"


def test_history_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "history", "tictactoe", MISTAKE)
    assert code == 0 and err == ""
    assert "5 moves on the board, game over, x has 3 in a row" in out
    assert "fewest mistakes: 1 (move 4 turned a draw into a loss)" in out
    assert "MISTAKE" in out and "optimal" in out
    assert "boards after each move:" in out
    assert out.rstrip().endswith(
        ". x .   . x .   . x .   . x .   . x .\n. . .   o . .   o . x   o . x   o . x"
    )


def test_history_connect4_picture(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "history", "connect4", "...../...../..x../.xoo.")
    assert data["history"][0] == {"column": 2}
    assert [(m["ply"], m["before"], m["after"]) for m in data["mistakes"]] == [
        (3, "draw", "loss"),
        (4, "win", "draw"),
    ]
    code, out, _ = run(capsys, "history", "c4", "...../...../.o.../oxxxo")
    assert code == 0
    assert "player 1 (x) to move" in out and "22 histories" in out
    assert "column 1" in out


def test_history_4x4(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "history", "tictactoe", "x_o_/_x__/__o_/____", "--k", "4")
    assert data["reachable_optimally"] is True and len(data["history"]) == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["connect4", "...../...../x..../o...."], "no legal game reaches this board"),
        (["tictactoe", "xx_/___/___"], "impossible piece counts"),
        (["tictactoe", "xxx/ooo/___"], "both x and o have a line"),
        (["tictactoe", "xo/x"], "ragged rows"),
        (["chess", "x"], "unknown"),
        (["tictactoe", "___/___/___", "--size", "4x4"], "size 4x4"),
    ],
)
def test_history_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "history", *argv)
    assert code == 2 and out == ""
    assert err.startswith("perfectplay: error: ") and message in err
    assert "Traceback" not in err


def test_history_notions_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "history", "ttt", MISTAKE, "--outcome", "--strict")
    assert code == 2 and "not allowed with argument" in err


# -- tree -------------------------------------------------------------------------------------
def test_tree_text_shows_the_article_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tree", "tictactoe", ARTICLE)
    assert code == 0 and err == ""
    assert out.startswith("x to move  xox/oox/...  value 10\n")
    for line in (
        "x plays a3  xox/oox/x..  value -9",
        "x plays b3  xox/oox/.x.  value 0",
        "x plays c3  xox/oox/..x  value 10  x has 3 in a row",
    ):
        assert line in out
    assert "plain minimax visited 11 nodes" in out
    assert "best line: c3" in out


def test_tree_alphabeta_shows_windows_and_cuts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tree", "tictactoe", "xo_/_x_/___", "--alphabeta")
    assert code == 0
    assert "window [-inf, +inf]" in out
    assert "cut off: alpha >= beta, not visited" in out
    match = re.search(r"alpha-beta visited (\d+) nodes, plain minimax ([\d,]+)", out)
    assert match is not None
    assert int(match.group(1)) < int(match.group(2).replace(",", ""))


def test_tree_depth_and_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tree", "tictactoe", "x__/_o_/___", "--depth", "1")
    assert code == 0 and "solved past the cut" in out and "plain minimax visited 8 nodes" in out
    code, out, _ = run(capsys, "tree", "ttt", "x__/_o_/___", "--depth", "1", "--heuristic")
    assert code == 0 and "heuristic at the cut" in out and "value ~" in out


def test_tree_svg_and_dot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "tree.svg"
    code, out, err = run(capsys, "tree", "tictactoe", ARTICLE, "--svg", str(svg))
    assert code == 0, err
    assert f"wrote {svg} (11 nodes)" in out
    texts = [html.unescape(t) for t in re.findall(r">([^<>]*)</text>", svg.read_text())]
    assert {"-9", "0", "10"} <= set(texts)
    dot = tmp_path / "tree.dot"
    code, out, _ = run(capsys, "tree", "tictactoe", ARTICLE, "--alphabeta", "--dot", str(dot))
    assert code == 0 and dot.read_text().startswith("digraph tree {")


def test_tree_connect4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tree", "connect4", "...../...../.o.../oxxxo", "--depth", "1")
    assert code == 0, err
    assert "player 1 to move  ...../...../.o.../oxxxo  value 0" in out
    assert "player 1 plays column 5  ...../...../.o..x/oxxxo  value 0  solved past the cut" in out
    assert "best line: column" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["___/___/___"], "more than 100,000 nodes below this position"),
        (["___/___/___", "--depth", "-1"], "depth=-1"),
        (["x__/_o_/___", "--heuristic"], "--heuristic: values at a depth limit"),
        (["___/___/___", "--depth", "4", "--dot", "t.dot"], "picture: the tree has"),
        (["xox/oox/___", "--svg", "/nonexistent/dir/t.svg"], "cannot write it"),
        (["xo/x"], "ragged rows"),
    ],
)
def test_tree_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "tree", "tictactoe", *argv)
    assert code == 2
    assert err.startswith("perfectplay: error: ") and message in err
    assert "Traceback" not in err


def test_tree_pictures_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tree", "ttt", ARTICLE, "--svg", "a.svg", "--dot", "a.dot")
    assert code == 2 and "not allowed with argument" in err


def test_help_lists_the_commands() -> None:
    text = build_parser().format_help()
    assert "history" in text and "tree" in text
