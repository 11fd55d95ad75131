"""``perfectplay tree --steps`` (issue 15, item 10): alpha-beta's search one step at a time,
as a numbered list and as the contract's JSON, in each move order.

The counts on the article's board ``xox/oox/___`` (x to move; a3, b3, c3 are worth -9, 0
and 10), worked out by hand: plain minimax visits 11 nodes (the root; a3 with o's b3 win and
c3 then x's b3 draw: 4; b3 with o's a3 then x's c3 win and c3 then x's a3 draw: 5; c3, a
win: 1). In the game's order (a3, b3, c3) every window closes only after a node's last move,
so alpha-beta visits the same 11 nodes with no cut. Best first (c3, then b3 and a3 each with
o's best reply first) visits 7: after c3's 10, o's c3 at b3 holds x to 0 and o's b3 at a3
wins, and each cuts the one reply left. Reversed (c3, b3, a3; replies backwards) visits 8:
the same two cuts, but at a3 o tries the drawing c3 (two nodes) before the winning b3.
"""

from __future__ import annotations

import pytest
from cli_support import run, run_json

ARTICLE = "xox/oox/___"
REASON = "the rest of this node's moves cannot change the choice above"
GAME_ORDER = [
    "1. [1 visited] Start at the root (depth 0): x to move, alpha -inf, beta +inf; "
    "x maximises, raising alpha.",
    "2. [2 visited] Enter a3 (depth 1): o to move, alpha -inf, beta +inf; o minimises, "
    "lowering beta.",
    "3. [3 visited] Leaf a3, b3 (depth 2): o has 3 in a row, value -9.",
    "4. [3 visited] b3 returns -9 to a3: best so far -9; beta +inf → -9.",
    "5. [4 visited] Enter a3, c3 (depth 2): x to move, alpha -inf, beta -9; x maximises, "
    "raising alpha.",
    "6. [5 visited] Leaf a3, c3, b3 (depth 3): draw, value 0.",
    "7. [5 visited] b3 returns 0 to a3, c3: best so far 0; alpha -inf → 0. The window has "
    "closed (alpha ≥ beta), but no moves are left to skip.",
    "8. [5 visited] c3 returns 0 to a3: best so far -9; beta stays -9.",
    "9. [5 visited] a3 returns -9 to the root: best so far -9; alpha -inf → -9.",
]
BEST_CUTS = [
    " 9. [5 visited] Cut at b3: o can hold x to 0 or less here, but x has 10 by another move "
    "higher up; 1 move skipped: a3.",
    f"    why: beta 0 ≤ alpha 10: {REASON}",
    "14. [7 visited] Cut at a3: o can hold x to -9 or less here, but x has 10 by another "
    "move higher up; 1 move skipped: c3.",
    f"    why: beta -9 ≤ alpha 10: {REASON}",
]


def steps_text(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The lines ``tree --steps`` prints (the board first), checking it succeeded."""
    code, out, err = run(capsys, "tree", "tictactoe", *argv, "--steps")
    assert code == 0, err
    assert err == ""
    return out.splitlines()


def test_game_order_on_the_article_board(capsys: pytest.CaptureFixture[str]) -> None:
    lines = steps_text(capsys, ARTICLE)
    assert lines[:6] == [
        "     a   b   c",
        " 1   x | o | x",
        "    ---+---+---",
        " 2   o | o | x",
        "    ---+---+---",
        " 3   . | . | .",
    ]
    assert lines[6] == "alpha-beta, moves in game order (the game's own move order):"
    numbered = [line.lstrip() for line in lines[7:-1]]
    assert len(numbered) == 22  # 11 nodes (6 entered, 5 leaves), 10 returns, 1 done
    assert numbered[:9] == GAME_ORDER
    assert numbered[19] == "20. [11 visited] Leaf c3 (depth 1): x has 3 in a row, value 10."
    assert numbered[21] == (
        "22. [11 visited] Done: the root's value is 10, best move c3. Alpha-beta visited 11 "
        "nodes; plain minimax visits 11."
    )
    assert "Cut at" not in "\n".join(lines)
    assert lines[-1] == "nodes visited: 11 of plain minimax's 11; 0 cuts"


def test_best_first_cuts_with_their_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    lines = steps_text(capsys, ARTICLE, "--order", "best")
    assert lines[6] == (
        "alpha-beta, moves in best order (best first: each side tries its best move first):"
    )
    assert [line for line in lines if "Cut at" in line or "why:" in line] == BEST_CUTS
    assert lines[8] == " 2. [2 visited] Leaf c3 (depth 1): x has 3 in a row, value 10."
    assert lines[-1] == "nodes visited: 7 of plain minimax's 11; 2 cuts"


@pytest.mark.parametrize(
    ("order", "footer"),
    [
        ("game", "nodes visited: 11 of plain minimax's 11; 0 cuts"),
        ("best", "nodes visited: 7 of plain minimax's 11; 2 cuts"),
        ("worst", "nodes visited: 11 of plain minimax's 11; 0 cuts"),
        ("reversed", "nodes visited: 8 of plain minimax's 11; 2 cuts"),
    ],
)
def test_the_order_changes_the_nodes_visited(
    capsys: pytest.CaptureFixture[str], order: str, footer: str
) -> None:
    assert steps_text(capsys, ARTICLE, "--order", order)[-1] == footer


def test_json_is_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "tree", "tictactoe", ARTICLE, "--steps", "--order", "best")
    assert {key: data[key] for key in ("order", "depth", "leaves", "to_move", "value")} == {
        "order": "best",
        "depth": None,
        "leaves": "exact",
        "to_move": "x",
        "value": "10",
    }
    assert (data["visited"], data["minimax_nodes"], data["cuts"]) == (7, 11, 2)
    assert list(data["orders"]) == ["game", "best", "worst", "reversed"]
    steps = data["steps"]
    assert [step["kind"] for step in steps] == [
        "enter", "leaf", "return", "enter", "enter", "leaf", "return", "return",
        "cut", "return", "enter", "leaf", "return", "cut", "return", "done",
    ]  # fmt: skip
    assert [step["number"] for step in steps] == list(range(1, 17))
    cut = steps[8]
    assert cut["path"] == [{"row": 3, "col": 2}]  # b3, 1-based
    assert cut["skipped"] == [{"row": 3, "col": 1}]  # a3
    assert (cut["alpha"], cut["beta"], cut["best"], cut["to_move"]) == ("10", "0", "0", "o")
    assert cut["reason"] == f"beta 0 ≤ alpha 10: {REASON}"
    assert cut["cells"][2] == [None, {"player": 1, "mark": "x"}, None]  # o to move after b3
    back = steps[2]
    assert (back["move"], back["value"], back["alpha"], back["path"]) == (
        {"row": 3, "col": 3},
        "10",
        "10",
        [],
    )
    visited = [step["visited"] for step in steps]
    assert visited == sorted(visited) and visited[-1] == 7


def test_tree_json_without_steps(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "tree", "tictactoe", ARTICLE, "--alphabeta")
    assert (data["visited"], data["minimax_nodes"], data["alphabeta"]) == (11, 11, True)
    assert [child["value"] for child in data["root"]["children"]] == ["-9", "0", "10"]


def test_heuristic_values_at_a_depth_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """7 moves then 6 replies: plain minimax visits 1 + 7 + 42 = 50 nodes."""
    board = "x__/_o_/___"
    footers = {
        order: steps_text(capsys, board, "--depth", "2", "--heuristic", "--order", order)[-1]
        for order in ("game", "best", "worst")
    }
    assert footers == {
        "game": "nodes visited: 31 of plain minimax's 50; 5 cuts",
        "best": "nodes visited: 20 of plain minimax's 50; 6 cuts",
        "worst": "nodes visited: 48 of plain minimax's 50; 2 cuts",
    }
    lines = steps_text(capsys, board, "--depth", "2", "--heuristic")
    assert any("heuristic at the cut, value ~" in line for line in lines)


def test_connect4_steps_name_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "tree", "connect4", "...../...../.o.../oxxxo", "--depth", "1", "--steps"
    )
    assert code == 0, err
    assert "Leaf column 1 (depth 1): solved past the cut" in out
    assert out.splitlines()[-1].startswith("nodes visited: 6 of plain minimax's 6;")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([ARTICLE, "--order", "best"], "--order 'best': orders the steps; give --steps too"),
        (
            [ARTICLE, "--steps", "--order", "sideways"],
            "order sideways: expected one of game, best, worst, reversed",
        ),
        (["___/___/___", "--steps"], "tree: more than 2,000 nodes below this position"),
        ([ARTICLE, "--steps", "--heuristic"], "--heuristic: values at a depth limit"),
        ([ARTICLE, "--steps", "--depth", "-1"], "depth=-1"),
        ([ARTICLE, "--steps", "--svg", "t.svg"], "--svg: not allowed with argument --steps"),
    ],
)
def test_steps_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "tree", "tictactoe", *argv)
    assert code == 2 and out == ""
    assert message in err
