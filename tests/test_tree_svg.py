"""Game trees drawn by perfectplay itself (issue 25, item 5): the tidy-tree layout, and the
SVG of ``perfectplay tree --svg`` with no Graphviz on the PATH, read back and checked node
by node: values, windows, cuts, the best line, boards, and boxes that never overlap."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from cli_support import run

from perfectplay import api
from perfectplay.analysis.render import (
    BEST_COLOUR,
    PRUNED_COLOUR,
    move_text,
    to_dot,
    value_text,
    walk,
    window_text,
)
from perfectplay.analysis.tree import GameTree
from perfectplay.analysis.tree_svg import Box, tidy_layout, to_svg
from perfectplay.errors import ParameterError

SVG = "{http://www.w3.org/2000/svg}"
needs_nim = pytest.mark.skipif(
    "nim" not in api.game_names(),
    reason="the Nim example plug-in is not installed (pip install ./examples/nim)",
)


# -- the layout -------------------------------------------------------------------------------
def check_tidy(children: Sequence[Sequence[int]], boxes: list[Box], gap: float) -> None:
    """The rules of a tidy drawing: parents centred over their children, children one level
    below, siblings left to right in their order, no two boxes of a level closer than
    ``gap`` (so none overlap)."""
    depth = {0: 0}
    for node, kids in enumerate(children):
        for kid in kids:
            depth[kid] = depth[node] + 1
            assert boxes[kid].y >= boxes[node].bottom
        if kids:
            middle = (boxes[kids[0]].centre + boxes[kids[-1]].centre) / 2
            assert boxes[node].centre == pytest.approx(middle)
        for before, after in pairwise(kids):
            assert boxes[before].x + boxes[before].width + gap <= boxes[after].x + 1e-6
    levels: dict[int, list[Box]] = {}
    for node, box in enumerate(boxes):
        levels.setdefault(depth[node], []).append(box)
    for row in levels.values():
        assert len({box.y for box in row}) == 1
        row.sort(key=lambda box: box.x)
        for left, right in pairwise(row):
            assert left.x + left.width + gap <= right.x + 1e-6
    assert min(box.x for box in boxes) == pytest.approx(0) and boxes[0].y == 0


def random_tree(rng: random.Random, count: int) -> list[list[int]]:
    """A random tree of ``count`` nodes: each node's parent an earlier node, children lists
    in the order the nodes were made (a few nodes get many children, most few)."""
    children: list[list[int]] = [[] for _ in range(count)]
    for node in range(1, count):
        parent = int(rng.random() ** 2 * node)
        children[parent].append(node)
    return children


def test_one_node_and_a_parent_centred_over_its_children_packed_tight() -> None:
    assert tidy_layout([[]], [(30, 20)]) == [Box(0, 0, 30, 20)]
    sizes = [(40.0, 20.0), (20.0, 10.0), (60.0, 30.0), (20.0, 10.0)]
    boxes = tidy_layout([[1, 2, 3], [], [], []], sizes, gap=10, level_gap=5)
    check_tidy([[1, 2, 3], [], [], []], boxes, 10)
    assert [box.x for box in boxes[1:]] == [0, 30, 100]  # no wider than the rules demand
    assert boxes[1].y == boxes[2].y == 25  # the root's height and the level gap
    assert boxes[0].centre == boxes[2].centre == 60


def test_small_subtrees_between_two_wide_ones_are_spread_evenly() -> None:
    # 0 has children 1 (5 leaves), 2, 3 (leaves) and 4 (5 leaves): the leaves of 1 and 4
    # push 1 and 4 apart (100 between their centres), and 2 and 3 share the room evenly
    children = [[1, 2, 3, 4], [5, 6, 7, 8, 9], [], [], [10, 11, 12, 13, 14]] + [[]] * 10
    boxes = tidy_layout(children, [(10.0, 10.0)] * 15, gap=10)
    check_tidy(children, boxes, 10)
    centres = [boxes[node].centre for node in (1, 2, 3, 4)]
    steps = [right - left for left, right in pairwise(centres)]
    assert steps == pytest.approx([100 / 3] * 3)


def test_the_same_subtree_is_drawn_the_same_wherever_it_stands() -> None:
    # 1 and 3 root the same shape; 2 sits between them
    children = [[1, 2, 3], [4, 5], [6], [7, 8], [], [9], [], [], [10], [], []]
    boxes = tidy_layout(children, [(12.0, 8.0)] * 11, gap=6)
    check_tidy(children, boxes, 6)
    first = [boxes[node].x - boxes[1].x for node in (1, 4, 5, 9)]
    second = [boxes[node].x - boxes[3].x for node in (3, 7, 8, 10)]
    assert first == pytest.approx(second)


@pytest.mark.parametrize("seed", range(12))
def test_random_trees_of_random_sizes_are_tidy(seed: int) -> None:
    rng = random.Random(seed)
    children = random_tree(rng, rng.randint(2, 300))
    sizes = [(rng.uniform(5, 120), rng.uniform(5, 60)) for _ in children]
    check_tidy(children, tidy_layout(children, sizes, gap=7), 7)


def test_a_deep_chain_and_a_wide_tree_lay_out() -> None:
    """Deeper than Python's recursion, and wide; their speed: benchmarks/bench_tree_svg.py."""
    chain = [[node + 1] for node in range(4_999)] + [[]]  # deeper than Python's recursion
    boxes = tidy_layout(chain, [(10.0, 10.0)] * 5_000)
    assert {box.x for box in boxes} == {0}
    children = random_tree(random.Random(7), 2_000)
    boxes = tidy_layout(children, [(90.0, 70.0)] * 2_000)
    check_tidy(children, boxes, 14)


@pytest.mark.parametrize(
    ("children", "count", "message"),
    [
        ([[1], [0]], 2, "node 0"),  # the root as a child
        ([[1, 1], []], 2, "node 1: listed twice"),
        ([[], []], 2, "node 1: nobody's child"),
        ([[5]], 1, "node 5"),
        ([[]], 2, "one list of children per node"),
    ],
)
def test_a_list_that_is_not_a_tree_is_refused(
    children: list[list[int]], count: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        tidy_layout(children, [(1.0, 1.0)] * count)


# -- the picture, read back -------------------------------------------------------------------
def draw(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: Sequence[str],
) -> ET.Element:
    """Run ``perfectplay tree ARGV --svg FILE`` with no Graphviz on the PATH; the parsed
    picture."""
    empty = tmp_path / "empty"
    empty.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("PATH", str(empty))
    picture = tmp_path / "t.svg"
    code, out, err = run(capsys, "tree", *argv, "--svg", str(picture))
    assert code == 0, err
    assert f"wrote {picture}" in out
    root = ET.fromstring(picture.read_text(encoding="utf-8"))  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def groups(root: ET.Element, prefix: str) -> dict[int, ET.Element]:
    """The picture's node (``n``) or edge (``e``) groups by number."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        name = group.get("id") or ""
        if re.fullmatch(rf"{prefix}\d+", name):
            found[int(name[1:])] = group
    return found


def classes(group: ET.Element) -> set[str]:
    return set((group.get("class") or "").split())


def texts(group: ET.Element) -> list[str]:
    """The lines of text of a node group itself (not its board's labels)."""
    return [text.text or "" for text in group.findall(f"{SVG}text")]


def on_best_line(tree: GameTree) -> set[int]:
    """The ids (``id()``) of the nodes on the principal line, the root included."""
    chosen, node = {id(tree.root)}, tree.root
    for move in tree.principal:
        node = next(c for c in node.children if c.move == move and not c.pruned)
        chosen.add(id(node))
    return chosen


def rectangle(group: ET.Element) -> tuple[float, float, float, float]:
    """A node group's frame: x, y, width, height."""
    box = group.find(f"{SVG}rect")
    assert box is not None
    x, y, width, height = (float(box.get(name) or "nan") for name in ("x", "y", "width", "height"))
    return x, y, width, height


CASES = [
    pytest.param("nim", "1,2", (), marks=needs_nim, id="nim"),
    pytest.param("tictactoe", "xox/oox/___", (), id="tictactoe"),
    pytest.param("nim", "2,2", ("--alphabeta",), marks=needs_nim, id="nim-cuts"),
    pytest.param("tictactoe", "xo_/ox_/___", ("--alphabeta",), id="tictactoe-cuts"),
]


@pytest.mark.parametrize(("game_name", "board", "flags"), CASES)
def test_every_node_is_drawn_with_its_move_value_and_window(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    game_name: str,
    board: str,
    flags: tuple[str, ...],
) -> None:
    root = draw(capsys, monkeypatch, tmp_path, [game_name, board, *flags])
    game, position = api.load(game_name, board)
    tree = api.tree(game, position, alphabeta=bool(flags))
    nodes = groups(root, "n")
    assert len(nodes) == tree.node_count()
    for number, (node, _, mover, _) in enumerate(walk(tree)):
        lines = texts(nodes[number])
        assert move_text(tree, node, mover) in lines
        assert value_text(tree, node) in lines
        window = window_text(tree, node)
        assert (f"window {window}" in lines) == bool(window)
    assert len(groups(root, "e")) == tree.node_count() - 1
    assert tree.root.value is not None
    assert tree.display_value(tree.root.value) in texts(nodes[0])


@pytest.mark.parametrize(("game_name", "board", "flags"), CASES)
def test_the_best_line_is_highlighted_and_the_cuts_greyed_dashed_and_labelled(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    game_name: str,
    board: str,
    flags: tuple[str, ...],
) -> None:
    root = draw(capsys, monkeypatch, tmp_path, [game_name, board, *flags])
    game, position = api.load(game_name, board)
    tree = api.tree(game, position, alphabeta=bool(flags))
    nodes, edges = groups(root, "n"), groups(root, "e")
    best = on_best_line(tree)
    cut = 0
    for number, (node, _, _, _) in enumerate(walk(tree)):
        kinds, frame = classes(nodes[number]), nodes[number].find(f"{SVG}rect")
        assert frame is not None
        assert ("best" in kinds) == (id(node) in best)
        assert ("pruned" in kinds) == node.pruned
        if id(node) in best:
            assert frame.get("stroke") == BEST_COLOUR
            assert number == 0 or "best" in classes(edges[number])
        if node.pruned:
            cut += 1
            assert_cut(nodes[number], edges[number], frame)
    assert cut == tree.pruned and (cut > 0) == bool(flags)
    assert sum("best" in classes(edge) for edge in edges.values()) == len(tree.principal)


def assert_cut(node: ET.Element, edge: ET.Element, frame: ET.Element) -> None:
    """A pruned node: grey and dashed, ``pruned``, the window that closed; its edge grey,
    dashed and labelled ``cut``."""
    lines = texts(node)
    assert "pruned" in lines and "not visited" in lines
    assert any(
        re.fullmatch(r"cut: (alpha \S+ >= beta \S+|beta \S+ <= alpha \S+)", t) for t in lines
    )
    assert frame.get("stroke") == PRUNED_COLOUR and frame.get("stroke-dasharray")
    assert "cut" in classes(edge)
    line = edge.find(f"{SVG}line")
    assert line is not None and line.get("stroke") == PRUNED_COLOUR
    assert line.get("stroke-dasharray") and texts(edge) == ["cut"]


@pytest.mark.parametrize(("game_name", "board", "flags"), CASES)
def test_no_two_boxes_overlap_and_every_edge_joins_its_boxes(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    game_name: str,
    board: str,
    flags: tuple[str, ...],
) -> None:
    root = draw(capsys, monkeypatch, tmp_path, [game_name, board, *flags])
    nodes = groups(root, "n")
    frames = {number: rectangle(group) for number, group in nodes.items()}
    for (x1, y1, w1, h1), (x2, y2, w2, h2) in combinations(frames.values(), 2):
        assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    assert root.get("viewBox") == f"0 0 {width:.0f} {height:.0f}"
    margin = re.fullmatch(
        r"translate\((\d+),(\d+)\)", root.findall(f"{SVG}g")[0].get("transform") or ""
    )
    assert margin is not None
    dx, dy = float(margin.group(1)), float(margin.group(2))
    for x, y, w, h in frames.values():
        assert x + dx >= 0 and x + dx + w <= width and y + dy >= 0 and y + dy + h <= height
    assert_edges_join(root, frames)


def assert_edges_join(
    root: ET.Element, frames: dict[int, tuple[float, float, float, float]]
) -> None:
    """Each edge runs from the bottom centre of a box to the top centre of its own node's
    box, which lies below."""
    bottoms = [(x + w / 2, y + h) for x, y, w, h in frames.values()]
    for number, edge in groups(root, "e").items():
        line = edge.find(f"{SVG}line")
        assert line is not None
        x1, y1, x2, y2 = (float(line.get(name) or "nan") for name in ("x1", "y1", "x2", "y2"))
        x, y, w, _ = frames[number]
        assert abs(x2 - (x + w / 2)) < 0.15 and abs(y2 - y) < 0.15
        assert any(abs(x1 - bx) < 0.15 and abs(y1 - by) < 0.15 for bx, by in bottoms)
        assert y1 < y2


def test_tic_tac_toe_nodes_show_real_boards_and_nim_nodes_their_heaps(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = draw(capsys, monkeypatch, tmp_path, ["tictactoe", "xo_/ox_/___", "--alphabeta"])
    game, position = api.load("tictactoe", "xo_/ox_/___")
    tree = api.tree(game, position, alphabeta=True)
    for number, (node, _, _, _) in enumerate(walk(tree)):
        shown = nodes_board(groups(root, "n")[number])
        assert len(shown.findall(f"{SVG}line")) == 4  # one 3x3 grid, not strips
        crosses = len(shown.findall(f"{SVG}path"))
        rings = len(shown.findall(f"{SVG}circle"))
        text = str(node.position)
        assert (crosses, rings) == (text.count("x"), text.count("o"))
    if "nim" in api.game_names():
        root = draw(capsys, monkeypatch, tmp_path / "nim", ["nim", "2,2"])
        assert not [g for g in root.iter(f"{SVG}g") if "board" in classes(g)]
        assert "2,2" in texts(groups(root, "n")[0])  # the position's text instead


def nodes_board(node: ET.Element) -> ET.Element:
    """The one board picture (a nested ``svg``) of a node group."""
    boards = [g for g in node.findall(f"{SVG}g") if "board" in classes(g)]
    assert len(boards) == 1
    pictures = boards[0].findall(f"{SVG}svg")
    assert len(pictures) == 1
    return pictures[0]


def test_text_is_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    game, position = api.load("tictactoe", "xox/oox/___")
    monkeypatch.setattr(type(game), "format_move", lambda self, move: '<b>&"\x01')
    tree = api.tree(game, position)
    root = ET.fromstring(to_svg(tree))
    shown = [text.text for text in root.iter(f"{SVG}text")]
    assert 'x plays <b>&"\ufffd' in shown


def test_a_large_tree_draws_and_a_larger_one_is_refused() -> None:
    """The largest picture drawn (its speed: benchmarks/bench_tree_svg.py), the next refused."""
    game = api.load("tictactoe", "___/___/___")[0]
    tree = api.tree(game, game.initial(), 4, alphabeta=True)
    assert 1_000 < tree.node_count() <= 2_000
    assert len(ET.fromstring(to_svg(tree)).findall(f".//{SVG}rect")) > tree.node_count()
    larger = api.tree(game, game.initial(), 4)
    with pytest.raises(ParameterError, match="picture: the tree has 3,610 nodes"):
        to_svg(larger)


def test_dot_source_is_written_without_graphviz_and_graphviz_reads_it(tmp_path: Path) -> None:
    game, position = api.load("tictactoe", "xo_/ox_/___")
    tree = api.tree(game, position, alphabeta=True)
    dot = to_dot(tree)
    assert dot.startswith("digraph tree {") and dot.rstrip().endswith("}")
    assert dot.count(" -> ") == tree.node_count() - 1
    assert dot.count("label=cut") == tree.pruned
    checked = subprocess.run(
        [sys.executable, "-c", SANS_GRAPHVIZ], capture_output=True, text=True, timeout=120
    )
    assert checked.returncode == 0, checked.stderr
    if shutil.which("dot") is not None:  # where Graphviz is installed, it lays the source out
        laid = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
        assert laid.returncode == 0 and laid.stderr == "", laid.stderr
        assert ET.fromstring(laid.stdout).tag == f"{SVG}svg"


SANS_GRAPHVIZ = """
import sys
sys.modules["graphviz"] = None  # importing it now fails
from perfectplay import api
game, position = api.load("tictactoe", "xo_/ox_/___")
tree = api.tree(game, position, alphabeta=True)
api.to_svg(tree), api.to_dot(tree), tree._repr_svg_()
"""
