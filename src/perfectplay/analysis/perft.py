"""Perft: count the game tree below a position, as a correctness check of move generation.

Counting is done level by level over *distinct* positions, each carrying the number of move
sequences (paths) that reach it, so the work grows with the number of positions, not with
the (much larger) number of games::

    level 0: {root: 1}
    level d+1: for every position p at level d reached by n paths, and every move m:
               level[d+1][play(p, m)] += n          (finished positions stop here)

From these: ``nodes`` (every node of the full tree, the root included) is the sum of all path
counts; ``games`` the paths that end in a finished position, split by winner and length;
``positions`` the distinct positions; ``canonical_positions`` the distinct ones up to the
game's symmetries; ``terminal_positions`` the distinct finished ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfectplay.games.protocol import Player

ProgressCallback = Callable[[int, int, int], None]
"""Called after each level with (depth, positions at that level, nodes so far)."""


@dataclass(frozen=True, slots=True)
class PerftCounts:
    """Counts of the game tree below a position (see the module docstring)."""

    games: int
    first_wins: int
    second_wins: int
    draws: int
    games_by_length: dict[int, int]
    nodes: int
    nodes_by_depth: tuple[int, ...]
    positions: int
    positions_by_depth: tuple[int, ...]
    canonical_positions: int
    terminal_positions: int
    complete: bool = field(default=True)

    def as_dict(self, first: str = "first", second: str = "second") -> dict[str, Any]:
        """JSON-ready counts, with the winners named (``x_wins``/``o_wins`` for tic-tac-toe)."""
        return {
            "games": self.games,
            f"{first}_wins": self.first_wins,
            f"{second}_wins": self.second_wins,
            "draws": self.draws,
            "games_by_length": {str(k): v for k, v in sorted(self.games_by_length.items())},
            "nodes": self.nodes,
            "nodes_by_depth": list(self.nodes_by_depth),
            "positions": self.positions,
            "positions_by_depth": list(self.positions_by_depth),
            "canonical_positions": self.canonical_positions,
            "terminal_positions": self.terminal_positions,
            "complete": self.complete,
        }


def perft(
    game: Any,
    position: Any = None,
    max_depth: int | None = None,
    progress: ProgressCallback | None = None,
) -> PerftCounts:
    """Count the tree below ``position`` (the initial position by default).

    With ``max_depth`` only that many plies are expanded (``complete`` is then False when
    unfinished positions remain at the last level; games and terminal counts cover the
    levels reached). Game lengths count plies from ``position``.
    """
    root = game.initial() if position is None else position
    level: dict[Any, tuple[Any, int]] = {game.key(root): (root, 1)}
    wins = {Player.FIRST: 0, Player.SECOND: 0}
    draws = nodes = positions = canonical = terminal = 0
    by_length: dict[int, int] = {}
    nodes_by_depth: list[int] = []
    positions_by_depth: list[int] = []
    depth = 0
    while level:
        level_nodes = sum(paths for _, paths in level.values())
        nodes += level_nodes
        nodes_by_depth.append(level_nodes)
        positions += len(level)
        positions_by_depth.append(len(level))
        canonical += len({game.canonical_key(p) for p, _ in level.values()})
        expand = max_depth is None or depth < max_depth
        following: dict[Any, tuple[Any, int]] = {}
        for current, paths in level.values():
            outcome = game.outcome(current)
            if outcome is not None:
                terminal += 1
                by_length[depth] = by_length.get(depth, 0) + paths
                if outcome.winner is None:
                    draws += paths
                else:
                    wins[outcome.winner] += paths
                continue
            if not expand:
                continue
            for move in game.legal_moves(current):
                child = game.play(current, move)
                key = game.key(child)
                known = following.get(key)
                following[key] = (child, paths if known is None else known[1] + paths)
        if progress is not None:
            progress(depth, len(level), nodes)
        complete_level = expand or all(game.outcome(p) is not None for p, _ in level.values())
        if not expand:
            return _counts(
                wins,
                draws,
                by_length,
                nodes,
                nodes_by_depth,
                positions,
                positions_by_depth,
                canonical,
                terminal,
                complete_level,
            )
        level = following
        depth += 1
    return _counts(
        wins,
        draws,
        by_length,
        nodes,
        nodes_by_depth,
        positions,
        positions_by_depth,
        canonical,
        terminal,
        True,
    )


def _counts(
    wins: dict[Player, int],
    draws: int,
    by_length: dict[int, int],
    nodes: int,
    nodes_by_depth: list[int],
    positions: int,
    positions_by_depth: list[int],
    canonical: int,
    terminal: int,
    complete: bool,
) -> PerftCounts:
    return PerftCounts(
        games=wins[Player.FIRST] + wins[Player.SECOND] + draws,
        first_wins=wins[Player.FIRST],
        second_wins=wins[Player.SECOND],
        draws=draws,
        games_by_length=dict(sorted(by_length.items())),
        nodes=nodes,
        nodes_by_depth=tuple(nodes_by_depth),
        positions=positions,
        positions_by_depth=tuple(positions_by_depth),
        canonical_positions=canonical,
        terminal_positions=terminal,
        complete=complete,
    )
