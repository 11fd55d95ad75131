"""The game tree below a position, with minimax values, or with alpha-beta's window and cuts.

:func:`build_tree` expands every legal move, in the game's move order (``legal_moves``), down
to the end of the game or to a depth limit, and gives every node the value minimax gives it.

Values are **root-relative** and **depth-adjusted**, as in the classic tic-tac-toe article:
the root player is the maximiser, a win whose deciding stone is the ``d``-th ply below the
root is worth ``WIN - d`` (on the scale of :mod:`perfectplay.search.result`), a loss
``-(WIN - d)``, a draw 0; :meth:`GameTree.display_value` turns them into the game's
conventional score (tic-tac-toe: the article's ``10 - (d - 1)``). From ``xox/oox/___`` the
three moves are worth -9, 0 and 10.

At the depth limit a node is a leaf valued by ``leaves``:

* ``"exact"`` (the default): its exact minimax value, found by the solver
  (:class:`~perfectplay.analysis.exact.ExactValues`) as if the tree went on;
* ``"heuristic"``: the game's evaluation, as a depth-limited search sees it (the tree is then
  exactly what :func:`perfectplay.search.minimax.minimax` with that depth searches).

With ``alphabeta=True`` the tree is searched by textbook alpha-beta (fail-soft, no table, no
reordering) in the same move order (or the one ``order`` gives), the maximiser raising
``alpha`` and the minimiser lowering ``beta``; a node records the window ``(alpha, beta)`` it
was entered with, its value is exact only strictly inside that window (a lower bound at or
above ``beta``, an upper bound at or below ``alpha``), and once ``alpha >= beta`` the
remaining children are recorded as pruned, unvisited. Visited nodes are counted exactly as
:func:`perfectplay.search.alphabeta.alphabeta` counts them with ``Options(table=False,
symmetry=False, ordering=False)``: the two agree on full trees and, with the same depth
limit, on heuristic ones; plain minimax visits every node of the same tree
(:attr:`GameTree.minimax_nodes`). With exact leaves the counts are those of the cut tree
(the solver's own work below the cut is not counted).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

from perfectplay.analysis.exact import ExactValues
from perfectplay.errors import ParameterError, quote
from perfectplay.games.protocol import Player
from perfectplay.search.result import is_decisive
from perfectplay.values import INFINITY, WIN

Leaves = Literal["exact", "heuristic"]
Bound = Literal["exact", "lower", "upper"]
MAX_NODES = 100_000
"""Most nodes (visited and pruned) a tree may have."""
TreeProgress = Callable[[int, int, float], None]
"""Called as a tree grows: (nodes so far, the most it may have, seconds)."""
MAX_COUNTED = 2_000_000
"""Most distinct positions the count of plain minimax's nodes may meet."""
MoveOrder = Callable[[Any, list[Any], int], list[Any]]
"""The order alpha-beta tries moves in: (a position, its moves in the game's order, its depth
below the root) -> the same moves in the order to try them."""


@dataclass(frozen=True, slots=True)
class TreeNode:
    """One node of a :class:`GameTree`.

    ``move`` led here from the parent (``None`` at the root); ``depth`` counts plies from the
    root. ``value`` is root-relative (see the module docstring) and ``None`` for a pruned
    node; ``bound`` says whether it is the exact value or only a bound (alpha-beta).
    ``window`` is the ``(alpha, beta)`` the node was entered with (alpha-beta only).
    ``horizon`` marks a running position at the depth limit (a leaf valued by the leaf
    rule), ``terminal`` a finished game.
    """

    move: Any
    position: Any
    depth: int
    value: float | None
    children: tuple[TreeNode, ...] = ()
    bound: Bound = "exact"
    window: tuple[float, float] | None = None
    pruned: bool = False
    horizon: bool = False
    terminal: bool = False

    @property
    def is_leaf(self) -> bool:
        """No children shown (finished, at the depth limit, or pruned)."""
        return not self.children


@dataclass(frozen=True, slots=True)
class GameTree:
    """A game tree with its values and counts.

    ``visited`` counts the nodes the search visited (all of them for minimax; alpha-beta's
    pruned nodes are not visited), ``minimax_nodes`` the nodes plain minimax visits on the
    same tree. ``principal`` is the best line: from the root, at each node the first child
    whose value is the node's value.
    """

    game: Any
    root: TreeNode
    alphabeta: bool
    depth: int | None
    leaves: Leaves
    visited: int
    minimax_nodes: int
    principal: tuple[Any, ...]

    @property
    def root_player(self) -> Player:
        """The maximiser: the side to move at the root."""
        return self.game.to_move(self.root.position)  # type: ignore[no-any-return]

    @property
    def pruned(self) -> int:
        """Branches alpha-beta cut off (pruned children recorded in the tree)."""
        return _count_pruned(self.root)

    def display_value(self, value: float) -> str:
        """A root-relative value as the game's conventional score: ``10``, ``-9``, ``0``;
        ``+inf``/``-inf`` for an open window bound; a heuristic value as ``~+12``."""
        if value >= INFINITY:
            return "+inf"
        if value <= -INFINITY:
            return "-inf"
        if not is_decisive(value):
            return "0" if value == 0 else f"~{value:+g}"
        plies = int(WIN - abs(value))
        root = self.root.position
        if plies == 0:  # the root itself is finished
            return str(self.game.finished_score(root))
        return str(self.game.conventional_score(root, value > 0, plies))

    def node_count(self) -> int:
        """Nodes in the tree, pruned ones included."""
        return _count_nodes(self.root)

    def _repr_svg_(self) -> str | None:
        """The tree drawn as SVG (:func:`perfectplay.analysis.tree_svg.to_svg`, no Graphviz
        needed), for notebooks; ``None`` (the text repr instead) when the tree is too large
        to draw."""
        from perfectplay.analysis.tree_svg import to_svg

        try:
            return to_svg(self)
        except ParameterError:
            return None


def _count_nodes(node: TreeNode) -> int:
    return 1 + sum(_count_nodes(child) for child in node.children)


def _count_pruned(node: TreeNode) -> int:
    return int(node.pruned) + sum(_count_pruned(child) for child in node.children)


def build_tree(
    game: Any,
    position: Any,
    depth: int | None = None,
    *,
    alphabeta: bool = False,
    leaves: Leaves = "exact",
    values: ExactValues | None = None,
    max_nodes: int = MAX_NODES,
    on_progress: TreeProgress | None = None,
    order: MoveOrder | None = None,
) -> GameTree:
    """The tree below ``position`` (a validated position of ``game``), ``depth`` plies deep
    (to the end of the game when ``None``); see the module docstring.

    ``values`` lets several calls share exact leaf values; ``on_progress`` hears of each
    node added (nodes so far, the cap, seconds); ``order`` is the order alpha-beta tries
    the moves of each node in (the game's order when ``None``). Raises :class:`ParameterError`
    for a negative depth, an unknown leaf rule, or a tree of more than ``max_nodes`` nodes
    (the message suggests a depth limit).
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ParameterError(f"depth={quote(depth)}: must be a whole number, 0 or more")
    if leaves not in ("exact", "heuristic"):
        raise ParameterError(f"leaves={quote(leaves)}: expected 'exact' or 'heuristic'")
    builder = _Builder(game, position, depth, leaves, values, max_nodes, alphabeta, on_progress)
    builder.order = order
    if alphabeta:
        root = builder.alphabeta(position, None, 0, -float(INFINITY), float(INFINITY))
        minimax_nodes = builder.count(position, 0, None)
    else:
        builder.count(position, 0, max_nodes)  # refuse a tree too large before building it
        root = builder.minimax(position, None, 0)
        minimax_nodes = builder.visited
    return GameTree(
        game, root, alphabeta, depth, leaves, builder.visited, minimax_nodes, _principal(root)
    )


class _Builder:
    """The state of one :func:`build_tree` call."""

    def __init__(
        self,
        game: Any,
        root: Any,
        depth: int | None,
        leaves: Leaves,
        values: ExactValues | None,
        max_nodes: int,
        pruning: bool,
        on_progress: TreeProgress | None = None,
    ) -> None:
        self.game = game
        self.pruning = pruning
        self.root_player: Player = game.to_move(root)
        self.limit = depth
        self.leaves = leaves
        self.values = values
        self.max_nodes = max_nodes
        self.visited = 0
        self.recorded = 0
        self.sizes: dict[tuple[Hashable, int], int] = {}
        self.on_progress = on_progress
        self.order: MoveOrder | None = None
        self.started = time.perf_counter()

    # -- shared ---------------------------------------------------------------------------
    def record(self) -> None:
        """Count one node of the tree; refuse to grow past ``max_nodes``."""
        self.recorded += 1
        if self.recorded > self.max_nodes:
            self.refuse(self.max_nodes)
        if self.on_progress is not None:
            self.on_progress(self.recorded, self.max_nodes, time.perf_counter() - self.started)

    def refuse(self, cap: int) -> None:
        """Raise the :class:`ParameterError` of a tree with more than ``cap`` nodes."""
        if self.limit is None:
            where, advice = "to the end of the game", "cut the tree at a depth"
        else:
            where, advice = f"to depth {self.limit}", "cut the tree at a smaller depth"
        advice += " (the values at the cut stay exact)"
        if not self.pruning:
            advice += ", or search it with alpha-beta, which cuts branches"
        raise ParameterError(f"tree: more than {cap:,} nodes below this position {where}; {advice}")

    def leaf(self, position: Any, move: Any, depth: int) -> TreeNode | None:
        """The node of a finished position or of one at the depth limit, else ``None``."""
        outcome = self.game.outcome(position)
        if outcome is not None:
            if outcome.winner is None:
                value = 0
            else:
                value = WIN - depth if outcome.winner == self.root_player else -(WIN - depth)
            return TreeNode(move, position, depth, value, terminal=True)
        if self.limit is not None and depth >= self.limit:
            return TreeNode(move, position, depth, self.leaf_value(position, depth), horizon=True)
        return None

    def leaf_value(self, position: Any, depth: int) -> float:
        """Root-relative value of a running position at the depth limit."""
        mine = self.game.to_move(position) == self.root_player
        if self.leaves == "heuristic":
            value = float(self.game.evaluate(position))
            return value if mine else -value
        if self.values is None:
            self.values = ExactValues(self.game)
        return _from_node(self.values.value(position), mine, depth)

    def maximising(self, position: Any) -> bool:
        return bool(self.game.to_move(position) == self.root_player)

    # -- plain minimax --------------------------------------------------------------------
    def minimax(self, position: Any, move: Any, depth: int) -> TreeNode:
        """Every node below ``position``, each with its minimax value."""
        self.visited += 1
        self.record()
        leaf = self.leaf(position, move, depth)
        if leaf is not None:
            return leaf
        children = tuple(
            self.minimax(self.game.play(position, m), m, depth + 1)
            for m in self.game.legal_moves(position)
        )
        child_values = [float(child.value) for child in children if child.value is not None]
        value = max(child_values) if self.maximising(position) else min(child_values)
        return TreeNode(move, position, depth, value, children)

    # -- alpha-beta -----------------------------------------------------------------------
    def alphabeta(
        self, position: Any, move: Any, depth: int, alpha: float, beta: float
    ) -> TreeNode:
        """Alpha-beta below ``position`` entered with ``(alpha, beta)`` (fail-soft)."""
        self.visited += 1
        self.record()
        leaf = self.leaf(position, move, depth)
        if leaf is not None:
            return TreeNode(
                leaf.move,
                position,
                depth,
                leaf.value,
                window=(alpha, beta),
                horizon=leaf.horizon,
                terminal=leaf.terminal,
            )
        window = (alpha, beta)
        maximising = self.maximising(position)
        best = -float(INFINITY) if maximising else float(INFINITY)
        moves = list(self.game.legal_moves(position))
        if self.order is not None:
            moves = self.order(position, moves, depth)
        children: list[TreeNode] = []
        for index, m in enumerate(moves):
            child = self.alphabeta(self.game.play(position, m), m, depth + 1, alpha, beta)
            children.append(child)
            value = float(child.value) if child.value is not None else best
            if maximising:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                children.extend(self.pruned(position, moves[index + 1 :], depth + 1))
                break
        bound: Bound = "upper" if best <= window[0] else "lower" if best >= window[1] else "exact"
        return TreeNode(move, position, depth, best, tuple(children), bound, window)

    def pruned(self, position: Any, moves: list[Any], depth: int) -> list[TreeNode]:
        """Unvisited children cut off by alpha-beta."""
        nodes = []
        for m in moves:
            self.record()
            nodes.append(TreeNode(m, self.game.play(position, m), depth, None, pruned=True))
        return nodes

    def count(self, position: Any, depth: int, cap: int | None) -> int:
        """Nodes plain minimax visits below ``position`` (memoised by position and depth).

        Refuses (:meth:`refuse`) once the count passes ``cap``, or once more than
        :data:`MAX_COUNTED` distinct positions are met (each is a node of the tree).
        """
        if self.game.outcome(position) is not None:
            return 1
        if self.limit is not None and depth >= self.limit:
            return 1
        remaining = -1 if self.limit is None else self.limit - depth
        key = (self.game.key(position), remaining)
        known = self.sizes.get(key)
        if known is None:
            known = 1
            for m in self.game.legal_moves(position):
                known += self.count(self.game.play(position, m), depth + 1, cap)
                if cap is not None and known > cap:
                    self.refuse(cap)
            self.sizes[key] = known
            if len(self.sizes) > MAX_COUNTED:
                self.refuse(MAX_COUNTED)
        return known


def _from_node(value: int, mine: bool, depth: int) -> float:
    """A value for the side to move at a node ``depth`` plies below the root, as a
    root-relative value (decisive distances grow by ``depth``)."""
    if is_decisive(value):
        plies = int(WIN - abs(value)) + depth
        won = (value > 0) == mine
        return float(WIN - plies if won else -(WIN - plies))
    return float(value if mine else -value)


def _principal(root: TreeNode) -> tuple[Any, ...]:
    """The best line: at each node the first visited child worth the node's value."""
    line: list[Any] = []
    node = root
    while node.children:
        chosen = next(
            (c for c in node.children if not c.pruned and c.value == node.value),
            None,
        )
        if chosen is None:
            break
        line.append(chosen.move)
        node = chosen
    return tuple(line)
