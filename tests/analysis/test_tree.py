"""The game tree: values against plain minimax, alpha-beta counts against the library's
alpha-beta (no table, no reordering: an independent count), the article's example, and the
pictures."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.analysis.render import rich_tree, summary_text, to_dot
from perfectplay.analysis.tree import GameTree, TreeNode, build_tree
from perfectplay.analysis.tree_svg import to_svg
from perfectplay.errors import ParameterError
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position
from perfectplay.games.mnk.rules import MNKPosition, game
from perfectplay.search.alphabeta import Options, alphabeta
from perfectplay.search.minimax import minimax
from perfectplay.search.result import is_decisive
from perfectplay.values import WIN

TTT = game()
TEXTBOOK = Options(table=False, symmetry=False, ordering=False)
EXAMPLE = "xox/oox/___"


@st.composite
def boards(draw: st.DrawFn, min_stones: int = 0) -> MNKPosition:
    """A random running 3x3 position with at least ``min_stones`` stones."""
    choices = draw(st.lists(st.integers(0, 8), min_size=min_stones, max_size=8))
    position = TTT.initial()
    for choice in choices:
        moves = TTT.legal_moves(position)
        if not moves or (TTT.ply(position) >= min_stones and choice == 8):
            break
        child = TTT.play(position, moves[choice % len(moves)])
        if TTT.outcome(child) is not None:
            break
        position = child
    return position


def nodes(node: TreeNode) -> Iterator[TreeNode]:
    yield node
    for child in node.children:
        yield from nodes(child)


def minimax_value(tree: GameTree, node: TreeNode, depth: int | None = None) -> float:
    """The node's value from plain minimax run on the node, made root-relative."""
    game_ = tree.game
    outcome = game_.outcome(node.position)
    mine = game_.to_move(node.position) == tree.root_player
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        won = outcome.winner == tree.root_player
        return float(WIN - node.depth if won else -(WIN - node.depth))
    if depth is not None and node.depth >= depth:  # a horizon leaf: the evaluation
        heuristic = float(game_.evaluate(node.position))
        return heuristic if mine else -heuristic
    limit = api.limit(depth=None if depth is None else depth - node.depth)
    value = minimax(game_, node.position, limit).score.value
    if is_decisive(value):
        plies = WIN - abs(value) + node.depth
        return float(WIN - plies if (value > 0) == mine else -(WIN - plies))
    return float(value if mine else -value)


# -- the article's example ----------------------------------------------------------------------
def test_the_article_example() -> None:
    g, position = api.load("tictactoe", EXAMPLE)
    tree = build_tree(g, position)
    children = [(c.move, tree.display_value(c.value or 0)) for c in tree.root.children]
    assert children == [((2, 0), "-9"), ((2, 1), "0"), ((2, 2), "10")]
    assert tree.display_value(tree.root.value or 0) == "10"
    assert tree.principal == ((2, 2),)
    first = tree.root.children[0]
    assert [(c.move, tree.display_value(c.value or 0)) for c in first.children] == [
        ((2, 1), "-9"),  # o answers at row 2 col 1 and wins
        ((2, 2), "0"),
    ]
    assert tree.visited == tree.minimax_nodes == minimax(g, position).nodes == 11


def test_svg_of_the_example_shows_the_three_values() -> None:
    g, position = api.load("tictactoe", EXAMPLE)
    svg = to_svg(build_tree(g, position))
    assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    texts = [html.unescape(t) for t in re.findall(r">([^<>]*)</text>", svg)]  # &#45; is "-"
    for value in ("-9", "0", "10"):
        assert value in texts
    assert texts.count("10") >= 2  # the root and the winning move


def test_dot_marks_the_best_line_and_the_cuts() -> None:
    g, position = api.load("tictactoe", "xo_/_x_/___")
    tree = build_tree(g, position, alphabeta=True)
    assert tree.pruned > 0
    dot = to_dot(tree)
    assert dot.count("style=dashed") == tree.pruned
    assert "penwidth=2.5" in dot
    assert dot.count("penwidth=2.5") == len(tree.principal)
    assert "window [-inf, +inf]" in dot


def test_terminal_tree_shows_moves_values_and_boards() -> None:
    from rich.console import Console

    g, position = api.load("tictactoe", EXAMPLE)
    console = Console(width=100, record=True, color_system=None)
    console.print(rich_tree(build_tree(g, position)))
    lines = console.export_text().splitlines()
    assert lines[0] == "x to move  xox/oox/...  value 10"
    assert lines[1] == "├── x plays a3  xox/oox/x..  value -9"
    assert lines[2] == "│   ├── o plays b3  xox/oox/xo.  value -9  o has 3 in a row"
    assert lines[-1] == "└── x plays c3  xox/oox/..x  value 10  x has 3 in a row"
    assert len(lines) == 11
    console.print(rich_tree(build_tree(g, position), boards=False))
    assert console.export_text().splitlines()[0] == "x to move  value 10"
    assert summary_text(build_tree(g, position)) == "plain minimax visited 11 nodes"


# -- values and counts against the references ---------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(boards(min_stones=3))
def test_tree_values_are_plain_minimax_values(position: MNKPosition) -> None:
    tree = build_tree(TTT, position)
    for node in nodes(tree.root):
        assert node.value == minimax_value(tree, node)
    assert tree.visited == tree.minimax_nodes == minimax(TTT, position).nodes


@settings(max_examples=40, deadline=None)
@given(boards(min_stones=3))
def test_alphabeta_counts_match_the_library_alphabeta(position: MNKPosition) -> None:
    tree = build_tree(TTT, position, alphabeta=True)
    assert tree.visited == alphabeta(TTT, position, options=TEXTBOOK).nodes
    assert tree.minimax_nodes == minimax(TTT, position).nodes
    assert tree.root.value == minimax(TTT, position).score.value
    _check_bounds(tree.root, build_tree(TTT, position).root)


def _check_bounds(searched: TreeNode, exact: TreeNode) -> None:
    """Alpha-beta's values are the exact values, or bounds on them, node by node."""
    assert searched.move == exact.move
    if searched.pruned:
        return
    assert searched.value is not None and exact.value is not None
    if searched.bound == "exact":
        assert searched.value == exact.value
    elif searched.bound == "lower":
        assert exact.value >= searched.value
    else:
        assert exact.value <= searched.value
    for mine, theirs in zip(searched.children, exact.children, strict=True):
        _check_bounds(mine, theirs)


@settings(max_examples=25, deadline=None)
@given(boards(min_stones=1), st.integers(1, 3))
def test_depth_limited_heuristic_trees_match_the_searches(
    position: MNKPosition, depth: int
) -> None:
    limit = api.limit(depth=depth)
    plain = build_tree(TTT, position, depth, leaves="heuristic")
    assert plain.root.value == minimax(TTT, position, limit).score.value
    assert plain.visited == minimax(TTT, position, limit).nodes
    for node in nodes(plain.root):
        assert node.value == minimax_value(plain, node, depth)
    pruned = build_tree(TTT, position, depth, alphabeta=True, leaves="heuristic")
    assert pruned.visited == alphabeta(TTT, position, limit, options=TEXTBOOK).nodes
    assert pruned.root.value == plain.root.value


def test_depth_limited_exact_leaves_are_exact() -> None:
    g, position = api.load("tictactoe", "x__/_o_/___")
    tree = build_tree(g, position, 1)
    assert tree.visited == 1 + 7
    for child in tree.root.children:
        assert child.horizon and child.value == minimax_value(tree, child)
    assert tree.root.value == minimax(g, position).score.value


def test_empty_board_alphabeta_against_minimax() -> None:
    tree = build_tree(TTT, TTT.initial(), alphabeta=True)
    assert tree.visited == alphabeta(TTT, TTT.initial(), options=TEXTBOOK).nodes == 20_866
    assert tree.minimax_nodes == 549_946  # the full tic-tac-toe tree, as perft counts it
    assert tree.root.value == 0


def test_connect4_tree_with_exact_leaves() -> None:
    g, position = api.load("connect4", "...../...../.o.../oxxxo")
    assert isinstance(g, Connect4Game) and isinstance(position, Connect4Position)
    tree = build_tree(g, position, 2, alphabeta=True)
    kernel = g.kernel()
    scores = kernel.move_scores(position, kernel.new_table(1 << 16))
    for child in tree.root.children:
        if child.bound == "exact" and not child.pruned:
            value = child.value or 0
            standard = 0 if value == 0 else g.score_of(position, int(WIN - abs(value)), value > 0)
            assert standard == scores[child.move]
    assert tree.display_value(tree.root.value or 0) == str(max(scores.values()))


# -- limits -------------------------------------------------------------------------------------
def test_trees_too_large_are_refused() -> None:
    # in words every door can show (issue 15, item 6: the web page named CLI flags)
    with pytest.raises(ParameterError, match=r"more than 1,000 nodes .* cut the tree at a depth"):
        build_tree(TTT, TTT.initial(), max_nodes=1_000)
    with pytest.raises(ParameterError, match=r"at a smaller depth .* with alpha-beta") as refused:
        build_tree(TTT, TTT.initial(), 6, max_nodes=1_000)
    assert "--" not in str(refused.value)
    with pytest.raises(ParameterError, match="depth=-1"):
        build_tree(TTT, TTT.initial(), -1)
    with pytest.raises(ParameterError, match="picture: the tree has"):
        to_dot(build_tree(TTT, TTT.initial(), 4))


def test_finished_root() -> None:
    g, position = api.load("tictactoe", "xxx/oo_/___")
    tree = build_tree(g, position)
    assert tree.root.terminal and tree.root.children == ()
    assert tree.display_value(tree.root.value or 0) == str(g.finished_score(position))
    assert tree.visited == 1


def test_a_tree_reports_its_growth_node_by_node() -> None:
    """Issue 15, item 3: long trees said nothing; each node added is now reported, which the
    CLI shows on a terminal."""
    from perfectplay import api

    game, position = api.load("tictactoe", "xox/oox/___")
    heard: list[tuple[int, int, float]] = []
    built = api.tree(game, position, on_progress=lambda *report: heard.append(report))
    assert [report[0] for report in heard] == list(range(1, built.node_count() + 1))
    assert {report[1] for report in heard} == {100_000}
