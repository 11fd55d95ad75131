"""Alpha-beta one step at a time: the search of a small position as a list of events a
student can step forward and back through.

:func:`record_steps` searches the position with the textbook alpha-beta of
:func:`perfectplay.analysis.tree.build_tree` (fail-soft, no table; the same values, windows,
cuts and node counts) in a chosen move order (:data:`ORDERS`), then walks the tree it built
in the order the search met its nodes, writing one :class:`Step` per event:

* ``enter``: the search enters an inner node (its path of moves from the root, its depth, the
  window ``alpha``, ``beta`` it was entered with);
* ``leaf``: it reaches a finished game or the depth limit, and values it;
* ``return``: a child's value comes back to its parent, which keeps the better of it and its
  best so far (the maximiser raises ``alpha``, the minimiser lowers ``beta``);
* ``cut``: the window has closed (``alpha >= beta``) and the node's remaining moves are
  skipped, with the reason in words and the moves named;
* ``done``: the root's value and best move.

Each step carries the nodes visited so far; :attr:`Steps.minimax_nodes` is what plain minimax
visits on the same tree. Values are the tree's: root-relative, shown in the game's
conventional score by :meth:`Steps.display` (``10``, ``-9``, ``0``, ``+inf``).

The orders: ``game`` (the game's own), ``reversed`` (the game's order backwards), ``best``
(each side tries its best move first: the minimal tree, every cut as early as it can be) and
``worst`` (each side tries its worst move first: hardly a cut). ``best`` and ``worst`` rank
the moves by their exact value, or with heuristic leaves by a heuristic search to the same
depth limit, so they cost a solve of every child; :func:`check_ranking` applies the one
policy of unbounded jobs (:mod:`perfectplay.analysis.reach`) to it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from perfectplay.analysis.exact import ExactValues
from perfectplay.analysis.reach import Reach
from perfectplay.analysis.render import move_name, note_text, side_name
from perfectplay.analysis.tree import GameTree, Leaves, MoveOrder, TreeNode, build_tree
from perfectplay.errors import ParameterError, plain
from perfectplay.search.result import Score, finished_value, score_of_move
from perfectplay.values import INFINITY

ORDERS: Mapping[str, str] = MappingProxyType(
    {
        "game": "the game's own move order",
        "best": "best first: each side tries its best move first",
        "worst": "worst first: each side tries its worst move first",
        "reversed": "the game's move order backwards",
    }
)
"""The move orders a student can step through, by name, with what each means."""
RANKED = frozenset({"best", "worst"})
"""The orders that rank moves by their value."""
MAX_STEP_NODES = 2_000
"""Most nodes (visited and cut) a step-through may have: the teacher is for small positions."""
MAX_RANKED = 200_000
"""Most positions the heuristic ranking of ``best``/``worst`` may value."""

StepKind = Literal["enter", "leaf", "return", "cut", "done"]
REST = "the rest of this node's moves cannot change the choice above"
ABOVE = "by another move higher up"


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the search (see the module docstring).

    ``path`` holds the moves from the root to the node the step is at (for ``return`` and
    ``cut``, the node receiving the value or cutting), ``position`` and ``depth`` are that
    node's. ``alpha`` and ``beta`` are its window after the step, root-relative.
    ``value`` is the leaf's value, the value returned, or the root's value (``done``);
    ``best`` the node's best so far; ``move`` the child whose value returned;
    ``skipped`` the moves a cut leaves unsearched. ``visited`` counts the nodes visited
    so far; ``text`` says it all in words and ``reason`` is a cut's reason.
    """

    kind: StepKind
    path: tuple[Any, ...]
    position: Any
    depth: int
    alpha: float
    beta: float
    visited: int
    text: str
    value: float | None = None
    best: float | None = None
    move: Any = None
    skipped: tuple[Any, ...] = ()
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Steps:
    """The steps of one alpha-beta search, the tree it built and the move order used."""

    tree: GameTree
    order: str
    steps: tuple[Step, ...]

    @property
    def game(self) -> Any:
        """The game searched."""
        return self.tree.game

    @property
    def visited(self) -> int:
        """Nodes alpha-beta visited."""
        return self.tree.visited

    @property
    def minimax_nodes(self) -> int:
        """Nodes plain minimax visits on the same tree."""
        return self.tree.minimax_nodes

    @property
    def cuts(self) -> int:
        """The cuts made (each skips one or more moves)."""
        return sum(step.kind == "cut" for step in self.steps)

    def display(self, value: float) -> str:
        """A root-relative value in the game's conventional score (see
        :meth:`GameTree.display_value`)."""
        return self.tree.display_value(value)


def check_order(order: object) -> str:
    """``order`` when it names one of :data:`ORDERS`; else :class:`ParameterError` naming
    them."""
    if not isinstance(order, str) or order not in ORDERS:
        names = ", ".join(ORDERS)
        raise ParameterError(f"order {plain(order)}: expected one of {names}")
    return order


def check_ranking(job: str, reach: Reach, order: str, plies_left: int) -> None:
    """Refuse, with :class:`ParameterError`, a ``best`` or ``worst`` order with exact values
    on a position whose moves lead to positions out of ``reach`` (each must be solved to
    rank the moves); ``plies_left``: the root's."""
    if check_order(order) in RANKED and not reach.covers(max(plies_left - 1, 0)):
        raise ParameterError(
            f"{job}: ordering the moves {order} first solves every move of a position "
            f"{plies_left} plies from the end, too far to solve in reasonable time "
            f"({reach.limit_text()}); use --order game or reversed, or give --depth D "
            "with --heuristic"
        )


def record_steps(
    game: Any,
    position: Any,
    depth: int | None = None,
    *,
    order: str = "game",
    leaves: Leaves = "exact",
    values: ExactValues | None = None,
    max_nodes: int = MAX_STEP_NODES,
) -> Steps:
    """The alpha-beta search of ``position`` (a validated position of ``game``) as steps,
    ``depth`` plies deep (to the end of the game when ``None``), trying moves in ``order``.

    Raises :class:`ParameterError` for an unknown order, heuristic leaves without a depth,
    a bad depth or leaf rule, a tree of more than ``max_nodes`` nodes, or a heuristic
    ranking that would value more than :data:`MAX_RANKED` positions. (Reach is not checked
    here: see :func:`check_ranking` and :func:`perfectplay.analysis.reach.check_leaves`.)
    """
    check_order(order)
    if leaves == "heuristic" and depth is None:
        raise ParameterError("heuristic values: they are taken at a depth limit; give a depth")
    values = ExactValues(game) if values is None else values
    ranker = _Ranker(game, depth, leaves, values)
    tree = build_tree(
        game,
        position,
        depth,
        alphabeta=True,
        leaves=leaves,
        values=values,
        max_nodes=max_nodes,
        order=ranker.orderer(order),
    )
    return Steps(tree, order, _Walk(tree).steps())


class _Ranker:
    """The moves of a position ranked by their value for the mover (exact, or by a memoised
    heuristic negamax to the depth limit), for the ``best`` and ``worst`` orders."""

    def __init__(self, game: Any, depth: int | None, leaves: Leaves, values: ExactValues):
        self.game = game
        self.limit = depth
        self.leaves = leaves
        self.values = values
        self.memo: dict[tuple[Hashable, int], float] = {}

    def orderer(self, order: str) -> MoveOrder | None:
        """The move order named ``order`` (``None``: the game's own)."""
        if order == "reversed":
            return lambda position, moves, depth: moves[::-1]
        if order not in RANKED:
            return None
        first = order == "best"

        def ranked(position: Any, moves: list[Any], depth: int) -> list[Any]:
            """``moves`` best first (or worst first), ties in the game's order."""
            return sorted(moves, key=lambda move: self.rank(position, move, depth), reverse=first)

        return ranked

    def rank(self, position: Any, move: Any, depth: int) -> float:
        """The value of ``move`` for the side playing it in ``position``, ``depth`` plies
        below the root."""
        if self.leaves == "exact":
            return float(self.values.move_value(position, move))
        assert self.limit is not None
        return self.move_value(position, move, self.limit - depth - 1)

    def move_value(self, position: Any, move: Any, remaining: int) -> float:
        """The heuristic value of ``move`` for its player, ``remaining`` plies searched
        after it."""
        after = self.heuristic(self.game.play(position, move), remaining)
        return score_of_move(Score(after, False)).value

    def heuristic(self, position: Any, remaining: int) -> float:
        """Negamax value of ``position`` for its side to move, searched ``remaining`` plies
        and valued by the game's evaluation there (decisive values depth-adjusted)."""
        outcome = self.game.outcome(position)
        if outcome is not None:
            return float(finished_value(self.game, position, outcome.winner))
        if remaining <= 0:
            return float(self.game.evaluate(position))
        key = (self.game.key(position), remaining)
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) >= MAX_RANKED:
                raise ParameterError(
                    f"steps: ranking the moves by a heuristic search takes more than "
                    f"{MAX_RANKED:,} positions; give a smaller --depth or --order game"
                )
            moves = self.game.legal_moves(position)
            known = max(self.move_value(position, m, remaining - 1) for m in moves)
            self.memo[key] = known
        return known


class _Walk:
    """The steps of one tree, written as the search met its nodes."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.game = tree.game
        self.root_player = tree.root_player
        self.visited = 0
        self.written: list[Step] = []

    def steps(self) -> tuple[Step, ...]:
        """Every step, the root's ``done`` last."""
        self.done(self.node(self.tree.root, ()))
        return tuple(self.written)

    # -- words ---------------------------------------------------------------------------
    def show(self, value: float) -> str:
        return self.tree.display_value(value)

    def where(self, path: tuple[Any, ...]) -> str:
        """``the root`` or the moves from it: ``a3, b3``."""
        return ", ".join(move_name(self.game, move) for move in path) or "the root"

    def side(self, position: Any, mine: bool = True) -> str:
        """The side to move in ``position`` (``mine=False``: the other side)."""
        player = self.game.to_move(position)
        return side_name(self.game, player if mine else player.other)

    def maximising(self, node: TreeNode) -> bool:
        return bool(self.game.to_move(node.position) == self.root_player)

    # -- events --------------------------------------------------------------------------
    def node(self, node: TreeNode, path: tuple[Any, ...]) -> tuple[float, float]:
        """The steps of ``node`` and everything the search did below it; its window at
        the end."""
        self.visited += 1
        assert node.window is not None
        alpha, beta = node.window
        if node.is_leaf:
            self.leaf(node, path, alpha, beta)
            return alpha, beta
        self.enter(node, path, alpha, beta)
        best = -float(INFINITY) if self.maximising(node) else float(INFINITY)
        searched = [child for child in node.children if not child.pruned]
        skipped = tuple(child.move for child in node.children if child.pruned)
        for child in searched:
            self.node(child, (*path, child.move))
            last = child is searched[-1] and not skipped
            alpha, beta, best = self.back(node, path, child, (alpha, beta), best, last)
        if skipped:
            self.cut(node, path, (alpha, beta), best, skipped)
        return alpha, beta

    def add(
        self,
        kind: StepKind,
        node: TreeNode,
        path: tuple[Any, ...],
        window: tuple[float, float],
        text: str,
        **more: Any,
    ) -> None:
        """Write one step at ``node`` with its window after the step."""
        alpha, beta = window
        self.written.append(
            Step(kind, path, node.position, node.depth, alpha, beta, self.visited, text, **more)
        )

    def enter(self, node: TreeNode, path: tuple[Any, ...], alpha: float, beta: float) -> None:
        side = self.side(node.position)
        role = "maximises, raising alpha" if self.maximising(node) else "minimises, lowering beta"
        start = "Start at the root" if not path else f"Enter {self.where(path)}"
        text = (
            f"{start} (depth {node.depth}): {side} to move, alpha {self.show(alpha)}, "
            f"beta {self.show(beta)}; {side} {role}."
        )
        self.add("enter", node, path, (alpha, beta), text)

    def leaf(self, node: TreeNode, path: tuple[Any, ...], alpha: float, beta: float) -> None:
        assert node.value is not None
        text = (
            f"Leaf {self.where(path)} (depth {node.depth}): {note_text(self.tree, node)}, "
            f"value {self.show(node.value)}."
        )
        self.add("leaf", node, path, (alpha, beta), text, value=node.value)

    def back(
        self,
        node: TreeNode,
        path: tuple[Any, ...],
        child: TreeNode,
        window: tuple[float, float],
        best: float,
        last: bool,
    ) -> tuple[float, float, float]:
        """The step of ``child``'s value returning to ``node`` (``last``: no move of
        ``node`` is left): the new alpha, beta, best."""
        assert child.value is not None
        value, (alpha, beta) = child.value, window
        if self.maximising(node):
            best, name, old = max(best, value), "alpha", alpha
            alpha = new = max(alpha, value)
        else:
            best, name, old = min(best, value), "beta", beta
            beta = new = min(beta, value)
        change = (
            f"{name} {self.show(old)} → {self.show(new)}"
            if new != old
            else f"{name} stays {self.show(old)}"
        )
        text = (
            f"{move_name(self.game, child.move)} returns {self.show(value)} to "
            f"{self.where(path)}: best so far {self.show(best)}; {change}."
        )
        if last and alpha >= beta:
            text += " The window has closed (alpha ≥ beta), but no moves are left to skip."
        more = {"value": value, "best": best, "move": child.move}
        self.add("return", node, path, (alpha, beta), text, **more)
        return alpha, beta, best

    def cut(
        self,
        node: TreeNode,
        path: tuple[Any, ...],
        window: tuple[float, float],
        best: float,
        skipped: tuple[Any, ...],
    ) -> None:
        """The step of a cut: the window closed, ``skipped`` are never searched."""
        alpha, beta = window
        a, b, value = self.show(alpha), self.show(beta), self.show(best)
        me, other = self.side(node.position), self.side(node.position, mine=False)
        if self.maximising(node):
            reason = f"alpha {a} ≥ beta {b}: {REST}"
            why = f"{me} can get {value} or more here, but {other} can hold {me} to {b} {ABOVE}"
        else:
            reason = f"beta {b} ≤ alpha {a}: {REST}"
            why = f"{me} can hold {other} to {value} or less here, but {other} has {a} {ABOVE}"
        names = ", ".join(move_name(self.game, move) for move in skipped)
        count = f"{len(skipped)} move{'s' if len(skipped) > 1 else ''}"
        text = f"Cut at {self.where(path)}: {why}; {count} skipped: {names}."
        more = {"best": best, "skipped": skipped, "reason": reason}
        self.add("cut", node, path, window, text, **more)

    def done(self, window: tuple[float, float]) -> None:
        """The last step: the root's value and best move, with the counts."""
        root = self.tree.root
        assert root.value is not None
        line = self.tree.principal
        move = f", best move {move_name(self.game, line[0])}" if line else ""
        text = (
            f"Done: the root's value is {self.show(root.value)}{move}. Alpha-beta visited "
            f"{self.tree.visited:,} nodes; plain minimax visits {self.tree.minimax_nodes:,}."
        )
        self.add("done", root, (), window, text, value=root.value, best=root.value)
