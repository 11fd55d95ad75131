"""Game trees drawn as SVG by perfectplay itself: a tidy-tree layout and an SVG writer, no
Graphviz.

:func:`tidy_layout` places boxes of any size as a tidy tree (Reingold and Tilford's rules in
Buchheim, Jünger and Leipert's linear-time algorithm, with the distance between neighbours
taken from their widths): a parent centred over its children, siblings left to right in
their order, no two boxes overlapping, each subtree drawn the same wherever it stands, and
the tree as narrow as these rules allow. Both walks are loops, not recursion, so a tree of
any depth lays out.

:func:`to_svg` draws a :class:`~perfectplay.analysis.tree.GameTree` with it: every node a box
with the move that led to it and who played it, its value (``>= 3``, ``<= -9`` for a bound,
``pruned`` for a node alpha-beta cut off), alpha-beta's window, why a leaf is a leaf and,
under a cut, the window that closed; the board, drawn by the game kit's ``picture`` when the
game has one (else the position's text). The best line is drawn in
:data:`~perfectplay.analysis.render.BEST_COLOUR`; the branches alpha-beta cut off are grey
(:data:`~perfectplay.analysis.render.PRUNED_COLOUR`), dashed and labelled ``cut``. Nodes are
``<g class="node ...">`` groups (``best``, ``pruned``) and edges ``<g class="edge ...">``
(``best``, ``cut``), numbered in the tree's walk order (node ``n3``, the edge above it
``e3``), so a page can style or find them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from perfectplay.analysis.render import (
    BEST_COLOUR,
    PRUNED_COLOUR,
    check_picture,
    cut_text,
    move_text,
    note_text,
    summary_text,
    value_text,
    walk,
    window_text,
)
from perfectplay.errors import UnknownGameError
from perfectplay.games.registry import kit_of

if TYPE_CHECKING:  # the tree draws itself with this module (GameTree._repr_svg_)
    from perfectplay.analysis.tree import GameTree, TreeNode

FONT_SIZE = 11
"""Pixels of a node's text."""
LINE = 14
"""Pixels from one line of text to the next."""
CHAR_WIDTH = 0.58 * FONT_SIZE
"""A generous width of one character (sans-serif), to size the boxes."""
PAD = 6
"""Pixels between a box's border and what is in it."""
SIBLING_GAP = 14
"""Least pixels between two boxes side by side."""
LEVEL_GAP = 40
"""Pixels between the deepest box of one level and the top of the next (room for ``cut``)."""
MARGIN = 12
"""Pixels around the drawing."""
BOARD_SCALE = 0.45
"""How large a kit's board picture is drawn in a node."""
BOARD_WIDTH = 160
"""Widest a board is drawn in a node (larger boards are scaled down to it)."""
TEXT_COLOUR = "#222222"
FILL = "#ffffff"
PRUNED_FILL = "#f4f4f4"
EDGE_COLOUR = "#555555"
GREY_FILTER = "pp-grey"
"""The id of the filter that greys the boards of pruned nodes."""

_SVG_TAG = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(<svg\b[^>]*>)", re.DOTALL)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# -- layout -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Box:
    """Where a node is drawn: its top-left corner and its size, in pixels."""

    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> float:
        """The x of the box's centre."""
        return self.x + self.width / 2

    @property
    def bottom(self) -> float:
        """The y of the box's bottom edge."""
        return self.y + self.height


def tidy_layout(
    children: Sequence[Sequence[int]],
    sizes: Sequence[tuple[float, float]],
    *,
    gap: float = SIBLING_GAP,
    level_gap: float = LEVEL_GAP,
) -> list[Box]:
    """The boxes of a tree laid out tidily, in linear time (see the module docstring).

    Node 0 is the root; ``children[i]`` lists node ``i``'s children left to right and
    ``sizes[i]`` is its ``(width, height)``. Boxes of one depth share a top edge, each
    depth below the tallest box above it by ``level_gap``; boxes side by side are at least
    ``gap`` apart; the leftmost box touches x = 0 and the root's top is y = 0.
    Raises :class:`ValueError` when ``children`` is not a tree of ``len(sizes)`` nodes
    rooted at 0 (a node listed twice, never, or out of range).
    """
    parents = _parents(children, len(sizes))
    widths = [width for width, _ in sizes]
    state = _Walker(children, parents, widths, gap)
    state.first_walk()
    centres, depths = state.second_walk()
    return _boxes(centres, depths, sizes, level_gap)


def _parents(children: Sequence[Sequence[int]], count: int) -> list[int]:
    """Each node's parent (-1 for the root); :class:`ValueError` unless a tree."""
    if len(children) != count or count == 0:
        raise ValueError(f"a tree needs one list of children per node ({count} sizes given)")
    parents = [-2] * count
    parents[0] = -1
    for node, kids in enumerate(children):
        for child in kids:
            if not 0 < child < count or parents[child] != -2:
                raise ValueError(f"node {child}: listed twice, out of range, or the root")
            parents[child] = node
    if -2 in parents:
        raise ValueError(f"node {parents.index(-2)}: nobody's child")
    return parents


def _boxes(
    centres: list[float], depths: list[int], sizes: Sequence[tuple[float, float]], level_gap: float
) -> list[Box]:
    """Boxes from the centres and depths: each depth's row below the tallest box above."""
    tallest = [0.0] * (max(depths) + 1)
    for (_, height), depth in zip(sizes, depths, strict=True):
        tallest[depth] = max(tallest[depth], height)
    tops = [0.0]
    for height in tallest[:-1]:
        tops.append(tops[-1] + height + level_gap)
    left = min(centre - width / 2 for centre, (width, _) in zip(centres, sizes, strict=True))
    return [
        Box(centre - width / 2 - left, tops[depth], width, height)
        for centre, depth, (width, height) in zip(centres, depths, sizes, strict=True)
    ]


class _Walker:
    """Buchheim, Jünger and Leipert's two walks over arrays indexed by node.

    ``prelim`` is a node's x relative to its parent's subtree, ``mod`` what its subtree is
    shifted by, ``shift``/``change`` the shifts spread over the siblings between two that
    were pushed apart, ``thread`` the next node of a contour where a subtree ends, and
    ``ancestor`` the greatest distinct ancestor of a contour node.
    """

    def __init__(
        self,
        children: Sequence[Sequence[int]],
        parents: list[int],
        widths: list[float],
        gap: float,
    ) -> None:
        count = len(parents)
        self.children = children
        self.parents = parents
        self.widths = widths
        self.gap = gap
        self.number = [0] * count  # place among the siblings, from 0
        self.left_sibling = [-1] * count
        for kids in children:
            for place, child in enumerate(kids):
                self.number[child] = place
                self.left_sibling[child] = kids[place - 1] if place else -1
        self.prelim = [0.0] * count
        self.mod = [0.0] * count
        self.shift = [0.0] * count
        self.change = [0.0] * count
        self.thread = [-1] * count
        self.ancestor = list(range(count))
        self.default = [kids[0] if kids else -1 for kids in children]

    def distance(self, left: int, right: int) -> float:
        """Least distance between the centres of two neighbours."""
        return (self.widths[left] + self.widths[right]) / 2 + self.gap

    def next_left(self, node: int) -> int:
        kids = self.children[node]
        return kids[0] if kids else self.thread[node]

    def next_right(self, node: int) -> int:
        kids = self.children[node]
        return kids[-1] if kids else self.thread[node]

    def first_walk(self) -> None:
        """Every node's ``prelim`` and ``mod``, children before parents, left to right."""
        stack = [(0, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                self.finish(node)
                continue
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(self.children[node]))

    def finish(self, node: int) -> None:
        """Place ``node`` once its subtree is placed, then fit it against its left siblings."""
        kids = self.children[node]
        sibling = self.left_sibling[node]
        after_sibling = self.prelim[sibling] + self.distance(sibling, node) if sibling >= 0 else 0.0
        if kids:
            self.execute_shifts(node)
            midpoint = (self.prelim[kids[0]] + self.prelim[kids[-1]]) / 2
            if sibling >= 0:
                self.prelim[node] = after_sibling
                self.mod[node] = after_sibling - midpoint
            else:
                self.prelim[node] = midpoint
        else:
            self.prelim[node] = after_sibling
        parent = self.parents[node]
        if parent >= 0 and sibling >= 0:
            self.default[parent] = self.apportion(node, self.default[parent])

    def apportion(self, node: int, default: int) -> int:
        """Push ``node``'s subtree right of its left siblings' subtrees, level by level down
        their facing contours; the new default ancestor."""
        inner_right = outer_right = node
        inner_left = self.left_sibling[node]
        outer_left = self.children[self.parents[node]][0]
        sum_ir, sum_or = self.mod[inner_right], self.mod[outer_right]
        sum_il, sum_ol = self.mod[inner_left], self.mod[outer_left]
        while self.next_right(inner_left) >= 0 and self.next_left(inner_right) >= 0:
            inner_left, inner_right = self.next_right(inner_left), self.next_left(inner_right)
            outer_left, outer_right = self.next_left(outer_left), self.next_right(outer_right)
            self.ancestor[outer_right] = node
            shift = (
                self.prelim[inner_left]
                + sum_il
                - self.prelim[inner_right]
                - sum_ir
                + self.distance(inner_left, inner_right)
            )
            if shift > 0:
                self.move_subtree(self.greatest(inner_left, node, default), node, shift)
                sum_ir += shift
                sum_or += shift
            sum_il += self.mod[inner_left]
            sum_ir += self.mod[inner_right]
            sum_ol += self.mod[outer_left]
            sum_or += self.mod[outer_right]
        return self.thread_contours(
            (inner_left, inner_right, outer_left, outer_right),
            (sum_il, sum_ir, sum_ol, sum_or),
            node,
            default,
        )

    def thread_contours(
        self, nodes: tuple[int, int, int, int], sums: tuple[float, ...], node: int, default: int
    ) -> int:
        """Where one side's contour ends before the other's, thread it on; the new default
        ancestor."""
        inner_left, inner_right, outer_left, outer_right = nodes
        sum_il, sum_ir, sum_ol, sum_or = sums
        if self.next_right(inner_left) >= 0 and self.next_right(outer_right) < 0:
            self.thread[outer_right] = self.next_right(inner_left)
            self.mod[outer_right] += sum_il - sum_or
        if self.next_left(inner_right) >= 0 and self.next_left(outer_left) < 0:
            self.thread[outer_left] = self.next_left(inner_right)
            self.mod[outer_left] += sum_ir - sum_ol
            return node
        return default

    def greatest(self, inner_left: int, node: int, default: int) -> int:
        """The left sibling of ``node`` whose subtree holds ``inner_left``."""
        candidate = self.ancestor[inner_left]
        return candidate if self.parents[candidate] == self.parents[node] else default

    def move_subtree(self, left: int, right: int, shift: float) -> None:
        """Shift ``right``'s subtree by ``shift``, spreading it over the siblings between."""
        between = self.number[right] - self.number[left]
        self.change[right] -= shift / between
        self.shift[right] += shift
        self.change[left] += shift / between
        self.prelim[right] += shift
        self.mod[right] += shift

    def execute_shifts(self, node: int) -> None:
        """Apply the spread shifts to ``node``'s children, right to left."""
        shift = change = 0.0
        for child in reversed(self.children[node]):
            self.prelim[child] += shift
            self.mod[child] += shift
            change += self.change[child]
            shift += self.shift[child] + change

    def second_walk(self) -> tuple[list[float], list[int]]:
        """Every node's final centre (its ``prelim`` plus its ancestors' ``mod``) and depth."""
        count = len(self.parents)
        centres, depths = [0.0] * count, [0] * count
        stack = [(0, 0.0, 0)]
        while stack:
            node, offset, depth = stack.pop()
            centres[node], depths[node] = self.prelim[node] + offset, depth
            below = offset + self.mod[node]
            stack.extend((child, below, depth + 1) for child in self.children[node])
        return centres, depths


# -- the picture ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Picture:
    """A board picture in a node: the kit's SVG (no XML declaration), its drawn size and the
    scale it is drawn at."""

    svg: str
    width: float
    height: float
    scale: float


@dataclass(slots=True)
class _Node:
    """What one node shows and how."""

    node: TreeNode
    parent: int
    best: bool
    lines: list[tuple[str, str]]  # (text, style: "move", "value", "plain", "note")
    board: _Picture | None
    children: list[int] = field(default_factory=list)

    @property
    def size(self) -> tuple[float, float]:
        """The box's width and height."""
        text = max(_text_width(text, style) for text, style in self.lines)
        board_width, board_height = (self.board.width, self.board.height) if self.board else (0, 0)
        width = max(text, board_width) + 2 * PAD
        height = len(self.lines) * LINE + 2 * PAD + (board_height + PAD if self.board else 0.0)
        return width, height


def _text_width(text: str, style: str) -> float:
    """A generous width of a line of text (bold a tenth wider)."""
    return len(text) * CHAR_WIDTH * (1.1 if style == "value" else 1.0)


def to_svg(tree: GameTree, boards: bool = True) -> str:
    """The tree drawn as a standalone SVG document (see the module docstring), laid out by
    :func:`tidy_layout`; ``boards``: each node's board drawn by the game kit's ``picture``
    where the game has one (a game without one, or ``boards=False``, shows the position's
    text). Needs no external program.

    Raises :class:`~perfectplay.errors.ParameterError` above
    :data:`~perfectplay.analysis.render.MAX_PICTURE_NODES` nodes.
    """
    check_picture(tree)
    nodes = _nodes(tree, boards)
    boxes = tidy_layout([n.children for n in nodes], [n.size for n in nodes])
    summary = summary_text(tree)
    width = max(max(box.x + box.width for box in boxes), len(summary) * CHAR_WIDTH)
    height = max(box.bottom for box in boxes) + 2 * LINE
    parts = _document_start(width + 2 * MARGIN, height + 2 * MARGIN)
    parts.append(f'<g transform="translate({MARGIN},{MARGIN})">')
    parts += [_edge(i, nodes[i], boxes[nodes[i].parent], boxes[i]) for i in range(1, len(nodes))]
    parts += [
        _node_svg(number, node, box)
        for number, (node, box) in enumerate(zip(nodes, boxes, strict=True))
    ]
    parts.append(_text(0, height, summary, "plain", TEXT_COLOUR, "start"))
    parts.append("</g></svg>\n")
    return "".join(parts)


def _nodes(tree: GameTree, boards: bool) -> list[_Node]:
    """Every node in walk order (the root first, each parent before its children)."""
    picture = _picture_source(tree) if boards else None
    numbers: dict[int, int] = {}
    cuts: dict[int, str] = {}
    nodes: list[_Node] = []
    for node, parent, mover, best in walk(tree):
        up = -1 if parent is None else numbers[id(parent)]
        numbers[id(node)] = len(nodes)
        if up >= 0:
            nodes[up].children.append(len(nodes))
        if node.pruned and parent is not None and up not in cuts:
            cuts[up] = cut_text(tree, parent)
        cut = cuts.get(up, "") if node.pruned else ""
        board = None if picture is None else _board(picture(node.position))
        lines = _lines(tree, node, mover, cut, board is None)
        nodes.append(_Node(node, up, best, lines, board))
    return nodes


def _picture_source(tree: GameTree) -> Callable[[Any], str | None] | None:
    """The kit's ``picture`` of a position of the tree's game (``None`` for a game no kit
    knows)."""
    game = tree.game
    try:
        kit = kit_of(game)
    except UnknownGameError:
        return None
    return lambda position: kit.picture(game, position)


def _lines(
    tree: GameTree, node: TreeNode, mover: Any, cut: str, position_text: bool
) -> list[tuple[str, str]]:
    """The node's lines of text with their styles."""
    lines = [(move_text(tree, node, mover), "move"), (value_text(tree, node), "value")]
    window = window_text(tree, node)
    if window:
        lines.append((f"window {window}", "plain"))
    if node.pruned:
        lines.append((f"cut: {cut}" if cut else "cut", "note"))
        lines.append(("not visited", "note"))
    else:
        note = note_text(tree, node)
        if note:
            lines.append((note, "note"))
    if position_text:
        lines.append((str(node.position), "plain"))
    return lines


def _board(picture: str | None) -> _Picture | None:
    """A kit's standalone SVG picture as drawn in a node; ``None`` for no picture, or one
    whose root tag has no positive numeric width and height."""
    if picture is None:
        return None
    match = _SVG_TAG.match(picture)
    if match is None:
        return None
    width, height = (_attribute(match.group(1), name) for name in ("width", "height"))
    if width is None or height is None or width <= 0 or height <= 0:
        return None
    scale = min(BOARD_SCALE, BOARD_WIDTH / width)
    return _Picture(picture[match.start(1) :], width * scale, height * scale, scale)


def _attribute(tag: str, name: str) -> float | None:
    """A numeric attribute (pixels) of a tag, ``None`` when absent or not a number."""
    found = re.search(rf'\s{name}="([0-9]+(?:\.[0-9]*)?)(?:px)?"', tag)
    return None if found is None else float(found.group(1))


def _document_start(width: float, height: float) -> list[str]:
    """The XML declaration, the root tag, the filter that greys pruned boards, a white
    background."""
    return [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{FONT_SIZE}">',
        "<title>game tree</title>",
        f'<defs><filter id="{GREY_FILTER}"><feColorMatrix type="saturate" values="0"/>'
        "</filter></defs>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="{FILL}"/>',
    ]


def _edge(number: int, child: _Node, top: Box, bottom: Box) -> str:
    """The edge ``e<number>`` from the parent's box to node ``number``'s: the best line's
    thick and coloured, a cut's grey, dashed and labelled ``cut``."""
    x1, y1, x2, y2 = top.centre, top.bottom, bottom.centre, bottom.y
    ends = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    if child.node.pruned:
        kind, stroke = "edge cut", f'stroke="{PRUNED_COLOUR}" stroke-width="1.2"'
        stroke += ' stroke-dasharray="5,4"'
        label = _text((x1 + x2) / 2 + 3, (y1 + y2) / 2 + 4, "cut", "note", PRUNED_COLOUR, "start")
    elif child.best:
        kind, stroke, label = "edge best", f'stroke="{BEST_COLOUR}" stroke-width="2.5"', ""
    else:
        kind, stroke, label = "edge", f'stroke="{EDGE_COLOUR}" stroke-width="1"', ""
    return f'<g class="{kind}" id="e{number}"><line {ends} {stroke}/>{label}</g>'


def _node_svg(number: int, node: _Node, box: Box) -> str:
    """The node's group: its box, its lines of text, its board."""
    pruned = node.node.pruned
    colour = PRUNED_COLOUR if pruned else BEST_COLOUR if node.best else TEXT_COLOUR
    kind = "node pruned" if pruned else "node best" if node.best else "node"
    border = f'stroke="{colour}" stroke-width="{2.5 if node.best else 1}"'
    dashes = ' stroke-dasharray="4,3"' if pruned else ""
    parts = [
        f'<g class="{kind}" id="n{number}">',
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.width:.1f}" '
        f'height="{box.height:.1f}" rx="4" fill="{PRUNED_FILL if pruned else FILL}" '
        f"{border}{dashes}/>",
    ]
    for row, (text, style) in enumerate(node.lines):
        y = box.y + PAD + (row + 1) * LINE - 3
        parts.append(_text(box.centre, y, text, style, colour))
    if node.board is not None:
        top = box.y + PAD + len(node.lines) * LINE + PAD / 2
        parts.append(_board_svg(node.board, box.centre, top, pruned))
    parts.append("</g>")
    return "".join(parts)


def _board_svg(board: _Picture, centre: float, top: float, grey: bool) -> str:
    """The kit's picture placed centred at ``top``, scaled to the node's board size, greyed
    for a pruned node."""
    style = f' opacity="0.5" filter="url(#{GREY_FILTER})"' if grey else ""
    return (
        f'<g class="board" transform="translate({centre - board.width / 2:.1f},{top:.1f}) '
        f'scale({board.scale:.4f})"{style}>{board.svg}</g>'
    )


def _text(x: float, y: float, text: str, style: str, colour: str, anchor: str = "middle") -> str:
    """One line of text, escaped (characters XML forbids replaced)."""
    weight = ' font-weight="bold"' if style == "value" else ""
    italic = ' font-style="italic"' if style == "note" else ""
    clean = _NOT_XML.sub("\ufffd", text)
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{colour}"{weight}'
        f"{italic}>{escape(clean)}</text>"
    )
