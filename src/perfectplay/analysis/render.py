"""Pictures of a :class:`~perfectplay.analysis.tree.GameTree`: a nested terminal tree (rich),
Graphviz DOT source (written here, for people who lay trees out with Graphviz), and the text
every picture shares; :mod:`perfectplay.analysis.tree_svg` draws the SVG picture with it.

Each shows, for every node, the move that led to it and who played it, the board (when asked
for), the value in the game's conventional score (a bound is written ``>= 3`` or ``<= -9``),
alpha-beta's window ``[alpha, beta]``, and marks the best line (highlighted) and the branches
alpha-beta cut off (greyed, unvisited, labelled ``cut``). rich is imported inside the function
that uses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the tree draws itself with these functions (GameTree._repr_svg_)
    from perfectplay.analysis.tree import GameTree, TreeNode
from perfectplay.errors import ParameterError, UnknownGameError
from perfectplay.games.registry import kit_of

BEST_COLOUR = "#c0392b"
PRUNED_COLOUR = "#9e9e9e"
MAX_PICTURE_NODES = 2_000
"""Most nodes a picture (SVG or DOT) of a tree may have: beyond, nobody can read it."""


# -- text shared by both pictures -------------------------------------------------------------
Cell = tuple[str, int]
"""A board cell as text draws it: its character (``.`` empty) and its player (0: none)."""


def board_cells(tree: GameTree, position: Any) -> list[list[Cell]] | None:
    """The board of a position of the tree's game, rows from the top, from the kit's board
    view (:class:`~perfectplay.games.kit.BoardView`): a cell shows its mark (``x``, ``o``),
    else its shape (upper case for the first player, lower for the second: shape-and-color's
    ``O``/``X`` of either side); ``None`` for a game without a board view. (Not the text of
    the position: a game's text is notation, not always a grid of cells, and shape-and-color
    draws its board with column bars, which drawn cell by cell became column strips.)"""
    try:
        view = kit_of(tree.game).board(tree.game, position)
    except UnknownGameError:
        return None
    if view is None:
        return None
    return [[_cell(cell) for cell in row] for row in view.cells]


def _cell(cell: Mapping[str, object] | None) -> Cell:
    """A board view's cell as text (see :func:`board_cells`)."""
    if cell is None:
        return (".", 0)
    player = cell.get("player")
    number = player if isinstance(player, int) else 0
    mark, shape = cell.get("mark"), cell.get("shape")
    if isinstance(mark, str) and len(mark) == 1:
        return (mark, number)
    if isinstance(shape, str) and len(shape) == 1:
        return (shape.upper() if number == 1 else shape.lower(), number)
    return (str(number) if number else "?", number)


def board_line(tree: GameTree, position: Any) -> str:
    """The board in one line, rows from the top separated by ``/`` (``.`` empty), or the
    position's text for a game without a board view."""
    cells = board_cells(tree, position)
    if cells is None:
        return str(position)
    return "/".join("".join(char for char, _ in row) for row in cells)


def side_name(game: Any, player: Any) -> str:
    """``x`` (tic-tac-toe) or ``player 1`` (games whose sides are numbers)."""
    name = str(game.player_name(player))
    return f"player {name}" if name.isdigit() else name


def move_name(game: Any, move: Any) -> str:
    """``row 2 col 0`` (tic-tac-toe) or ``column 3`` (games whose moves are numbers)."""
    text = str(game.format_move(move))
    return f"column {text}" if text.isdigit() else text


def value_text(tree: GameTree, node: TreeNode) -> str:
    """``10``, ``>= 3``, ``<= -9`` or ``pruned``."""
    if node.pruned or node.value is None:
        return "pruned"
    shown = tree.display_value(node.value)
    return {"lower": f">= {shown}", "upper": f"<= {shown}"}.get(node.bound, shown)


def window_text(tree: GameTree, node: TreeNode) -> str:
    """``[-inf, +inf]``: the alpha-beta window the node was entered with ('' without one)."""
    if node.window is None:
        return ""
    alpha, beta = node.window
    return f"[{tree.display_value(alpha)}, {tree.display_value(beta)}]"


def move_text(tree: GameTree, node: TreeNode, mover: Any) -> str:
    """``x plays row 2 col 0``, ``player 2 plays column 3`` (``x to move`` at the root)."""
    game = tree.game
    if node.move is None:
        return f"{side_name(game, game.to_move(node.position))} to move"
    return f"{side_name(game, mover)} plays {move_name(game, node.move)}"


def note_text(tree: GameTree, node: TreeNode) -> str:
    """Why a leaf is a leaf: the game's end, the depth limit, or alpha-beta's cut."""
    if node.pruned:
        return "cut off: alpha >= beta, not visited"
    if node.terminal:
        outcome = tree.game.outcome(node.position)
        return "draw" if outcome.winner is None else str(outcome.reason)
    if node.horizon:
        return "heuristic at the cut" if tree.leaves == "heuristic" else "solved past the cut"
    return ""


def summary_text(tree: GameTree) -> str:
    """``alpha-beta visited 9 nodes, plain minimax 12 (3 saved, 25%); 2 branches cut off``."""
    if not tree.alphabeta:
        plural = "" if tree.visited == 1 else "s"
        return f"plain minimax visited {tree.visited:,} node{plural}"
    saved = tree.minimax_nodes - tree.visited
    share = 100 * saved / tree.minimax_nodes if tree.minimax_nodes else 0.0
    return (
        f"alpha-beta visited {tree.visited:,} nodes, plain minimax {tree.minimax_nodes:,} "
        f"({saved:,} saved, {share:.0f}%); {tree.pruned:,} branches cut off"
    )


def walk(tree: GameTree) -> Iterator[tuple[TreeNode, TreeNode | None, Any, bool]]:
    """Every node depth-first as ``(node, parent, mover, on the best line)``."""
    game = tree.game
    stack: list[tuple[TreeNode, TreeNode | None, int]] = [(tree.root, None, 0)]
    while stack:
        node, parent, on_line = stack.pop()
        mover = None if parent is None else game.to_move(parent.position)
        best = on_line == node.depth and (
            node.depth == 0 or tree.principal[node.depth - 1] == node.move
        )
        yield node, parent, mover, best
        depth_on_line = node.depth + 1 if best and node.depth < len(tree.principal) else -1
        for child in reversed(node.children):
            stack.append((child, node, depth_on_line))


# -- terminal ---------------------------------------------------------------------------------
def rich_tree(tree: GameTree, boards: bool = True) -> Any:
    """A :class:`rich.tree.Tree` of the game tree, one line a node; ``boards`` adds each
    node's board in one line (rows from the top separated by ``/``, ``.`` empty)."""
    from rich.text import Text
    from rich.tree import Tree

    made: dict[int, Any] = {}
    top: Any = None
    for node, parent, mover, best in walk(tree):
        board = board_line(tree, node.position) if boards and not node.pruned else None
        label = Text(_line(tree, node, mover, board), style=_style(node, best))
        if parent is None:
            top = made[id(node)] = Tree(label, guide_style="dim")
        else:
            made[id(node)] = made[id(parent)].add(label)
    return top


def _line(tree: GameTree, node: TreeNode, mover: Any, board: str | None) -> str:
    parts = [move_text(tree, node, mover)] + ([] if board is None else [board])
    value = value_text(tree, node)
    parts.append(value if node.pruned else f"value {value}")
    window = window_text(tree, node)
    if window:
        parts.append(f"window {window}")
    note = note_text(tree, node)
    if note:
        parts.append(note)
    return "  ".join(parts)


def _style(node: TreeNode, best: bool) -> str:
    if node.pruned:
        return "dim strike"
    return "bold green" if best else ""


# -- Graphviz's DOT source (written here; Graphviz itself is not needed) ----------------------
def check_picture(tree: GameTree) -> None:
    """Raise :class:`ParameterError` when ``tree`` has more than :data:`MAX_PICTURE_NODES`
    nodes (the check every picture of a tree makes first)."""
    count = tree.node_count()
    if count > MAX_PICTURE_NODES:
        raise ParameterError(
            f"picture: the tree has {count:,} nodes, more than the {MAX_PICTURE_NODES:,} a "
            "picture can show; cut the tree at a smaller depth"
        )


def cut_window(tree: GameTree, parent: TreeNode) -> tuple[float, float] | None:
    """The window ``(alpha, beta)`` of ``parent`` when alpha-beta cut its remaining
    children: the window it was entered with, narrowed by the values of the children it
    searched (``None`` for a node without a window)."""
    if parent.window is None:
        return None
    alpha, beta = parent.window
    maximising = tree.game.to_move(parent.position) == tree.root_player
    for child in parent.children:
        if child.pruned or child.value is None:
            continue
        if maximising:
            alpha = max(alpha, child.value)
        else:
            beta = min(beta, child.value)
    return alpha, beta


def cut_text(tree: GameTree, parent: TreeNode) -> str:
    """Why alpha-beta cut ``parent``'s remaining children: ``alpha 10 >= beta 0`` (the
    bound the node moves first); '' for a node without a window."""
    window = cut_window(tree, parent)
    if window is None:
        return ""
    alpha, beta = (tree.display_value(bound) for bound in window)
    if tree.game.to_move(parent.position) == tree.root_player:
        return f"alpha {alpha} >= beta {beta}"
    return f"beta {beta} <= alpha {alpha}"


def to_dot(tree: GameTree, boards: bool = True) -> str:
    """The tree as Graphviz DOT source (``boards``: drawn as tables in the nodes, else each
    node shows its position's text); written without Graphviz, for people who want to lay
    it out with Graphviz's ``dot``.

    Raises :class:`ParameterError` above :data:`MAX_PICTURE_NODES` nodes.
    """
    check_picture(tree)
    lines = [
        "digraph tree {",
        "\tgraph [nodesep=0.15 rankdir=TB ranksep=0.45]",
        "\tnode [fontname=Helvetica fontsize=10 shape=plaintext]",
        "\tedge [arrowsize=0.6 fontname=Helvetica fontsize=9]",
    ]
    names: dict[int, str] = {}
    for number, (node, parent, mover, best) in enumerate(walk(tree)):
        name = names[id(node)] = f"n{number}"
        lines.append(f"\t{name} [label={_html_label(tree, node, mover, best, boards)}]")
        if parent is not None:
            style = _dot_attributes(_edge_style(node, best))
            lines.append(f"\t{names[id(parent)]} -> {name}{style}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_attributes(attributes: dict[str, str]) -> str:
    """`` [color="#9e9e9e" style=dashed]`` ('' for none): DOT attributes, quoted where a
    value is not a plain identifier or number."""
    if not attributes:
        return ""
    return " [" + " ".join(f"{key}={_dot_id(value)}" for key, value in attributes.items()) + "]"


def _dot_id(value: str) -> str:
    """A DOT identifier: as it is when plain, else double-quoted with ``"`` and ``\\``
    escaped."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)", value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _edge_style(node: TreeNode, best: bool) -> dict[str, str]:
    if node.pruned:
        return {
            "color": PRUNED_COLOUR,
            "style": "dashed",
            "label": "cut",
            "fontcolor": PRUNED_COLOUR,
        }
    if best:
        return {"color": BEST_COLOUR, "penwidth": "2.5"}
    return {}


def _html_label(tree: GameTree, node: TreeNode, mover: Any, best: bool, boards: bool) -> str:
    """An HTML-like label: the move, the value (bold), the window, the note, the board (or
    the position's text)."""
    colour = PRUNED_COLOUR if node.pruned else BEST_COLOUR if best else "black"
    lines = [escape(move_text(tree, node, mover)), f"<B>{escape(value_text(tree, node))}</B>"]
    window = window_text(tree, node)
    if window:
        lines.append(escape(f"window {window}"))
    note = note_text(tree, node)
    if note and not node.pruned:
        lines.append(f"<I>{escape(note)}</I>")
    cells = board_cells(tree, node.position) if boards else None
    if cells is None:
        lines.append(escape(str(node.position)))
    text = "".join(f'<TR><TD><FONT COLOR="{colour}">{line}</FONT></TD></TR>' for line in lines)
    board = "" if cells is None else f"<TR><TD>{_board_table(cells, node.pruned)}</TD></TR>"
    return (
        f'<<TABLE BORDER="{2 if best else 1}" COLOR="{colour}" CELLBORDER="0" CELLSPACING="1">'
        f"{text}{board}</TABLE>>"
    )


def _board_table(cells: list[list[Cell]], pruned: bool) -> str:
    """The board as a table of fixed-size cells, one a board cell (rows and columns as the
    board's)."""
    rows = "".join(
        "<TR>"
        + "".join(
            f'<TD WIDTH="16" HEIGHT="16" FIXEDSIZE="TRUE">{_stone(cell, pruned)}</TD>'
            for cell in row
        )
        + "</TR>"
        for row in cells
    )
    return f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0">{rows}</TABLE>'


def _stone(cell: Cell, pruned: bool) -> str:
    char, player = cell
    if player == 0:
        return " "
    if pruned:
        return f'<FONT COLOR="{PRUNED_COLOUR}">{escape(char)}</FONT>'
    colour = "#1f4e9e" if player == 1 else "#c77c02"
    return f'<FONT COLOR="{colour}"><B>{escape(char)}</B></FONT>'
