"""Results that show themselves in Jupyter (issue 15, item 11): positions and trees as SVG,
analyses as HTML; and docs/example.ipynb, executed as CI runs it, with every picture there."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from perfectplay import api
from perfectplay.games.connect4.rules import Connect4Position
from perfectplay.games.mnk.rules import MNKPosition
from perfectplay.games.simplexity.rules import SimplexityPosition

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "example.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


def shapes(svg: str, tag: str, **attributes: str) -> list[ET.Element]:
    """The elements ``tag`` of a picture whose attributes include ``attributes``."""
    root = ET.fromstring(svg)  # a well-formed document, or this raises
    assert root.tag == f"{SVG}svg"
    return [
        element
        for element in root.iter(f"{SVG}{tag}")
        if all(element.get(name) == value for name, value in attributes.items())
    ]


def test_a_tic_tac_toe_position_draws_its_marks_and_labels() -> None:
    _, position = api.load("tictactoe", "xox/oox/___")
    assert isinstance(position, MNKPosition)
    svg = position._repr_svg_()
    assert len(shapes(svg, "path", stroke="#d6336c")) == 3  # x: three crosses
    assert len(shapes(svg, "circle", fill="none")) == 3  # o: three rings
    labels = [text.text for text in shapes(svg, "text")]
    assert labels == ["1", "2", "3", "a", "b", "c"]  # rows from 1, columns as moves name them


def test_a_connect_four_position_draws_its_stones_where_they_fell() -> None:
    _, position = api.load("connect4", "4453")
    assert isinstance(position, Connect4Position)
    svg = position._repr_svg_()
    assert len(shapes(svg, "circle", fill="#f4f6fb")) == 42  # every hole
    red, yellow = shapes(svg, "circle", fill="#e03131"), shapes(svg, "circle", fill="#fcc419")
    assert len(red) == len(yellow) == 2
    bottom = float(max(circle.get("cy", "0") for circle in red + yellow))
    columns = {(c.get("cx", ""), c.get("cy", "")) for c in red}
    assert {float(y) for _, y in columns} == {bottom}  # the first player's two on the floor
    assert [text.text for text in shapes(svg, "text")] == [str(c) for c in range(1, 8)]


def test_a_shape_and_color_position_draws_discs_and_crosses_in_colour() -> None:
    _, position = api.load("simplexity", "4O 4X 3O 5X")
    assert isinstance(position, SimplexityPosition)
    svg = position._repr_svg_()
    assert len(shapes(svg, "circle", fill="#e03131")) == 2  # the first player's red discs
    assert len(shapes(svg, "path", stroke="#1c7ed6")) == 2  # the second's blue crosses


def test_an_analysis_is_the_values_and_shows_the_board_and_the_best_moves() -> None:
    game, position = api.load("tictactoe", "xox/oox/___")
    analysis = api.analysis_of(game, position)
    values = api.analyze(game, position)
    assert len(analysis) == 3 and [v.score for v in analysis] == [v.score for v in values]
    assert analysis[2].move == values[2].move and [b.move for b in analysis.best] == [(2, 2)]
    given = api.analysis_of(game, position, values[:2])  # values found another way
    assert [v.move for v in given] == [v.move for v in values[:2]] and len(given.best) == 1
    html = analysis._repr_html_()
    assert html.count("<tr>") == 4 and html.count("★") == 1
    assert "<td>c3</td><td>win in 1</td><td>★</td>" in html and "<svg" in html


def test_an_analysis_of_a_game_without_a_board_shows_its_text() -> None:
    if "nim" not in api.game_names():
        pytest.skip("the Nim example plug-in is not installed (pip install ./examples/nim)")
    game, position = api.load("nim", "1,2")
    html = api.analysis_of(game, position)._repr_html_()
    assert "<pre>" in html and "<svg" not in html and "★" in html


def test_a_tree_draws_itself_without_graphviz_or_falls_back_to_text_when_too_large(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "")  # no Graphviz: perfectplay draws the tree itself
    game, position = api.load("tictactoe", "xox/oox/___")
    tree = api.tree(game, position, alphabeta=True)
    svg = tree._repr_svg_()
    assert svg is not None
    assert (
        len(shapes(svg, "g", **{"class": "node"})) + len(shapes(svg, "g", **{"class": "node best"}))
        == tree.node_count()
    )
    assert shapes(svg, "g", **{"class": "board"})  # the kit's boards in the nodes
    large = api.tree(game, game.initial(), 4)
    assert large.node_count() > 2_000  # more than a picture shows: the text repr instead
    assert large._repr_svg_() is None


def test_the_example_notebook_runs_and_shows_every_picture() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from jupyter_client.manager import KernelManager

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []  # what is stored is not what is checked
    kernel = KernelManager(kernel_name="python3", transport="ipc")
    try:
        nbclient.NotebookClient(notebook, timeout=180, km=kernel).execute()
    finally:  # nbclient leaves a kernel it was given running (seen left behind on CI)
        if kernel.has_kernel:
            kernel.shutdown_kernel(now=True)
    shown = [
        sorted(output.get("data", {}))
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    ]
    assert all("ename" not in output for c in notebook.cells for output in c.get("outputs", []))
    pictures = sum("image/svg+xml" in kinds for kinds in shown)
    tables = sum("text/html" in kinds for kinds in shown)
    assert pictures == 4 and tables == 2  # three positions and a tree; two analyses
