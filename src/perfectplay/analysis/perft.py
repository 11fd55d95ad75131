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

from perfectplay.errors import ParameterError
from perfectplay.games.protocol import Player

MAX_LEVEL_POSITIONS = 2_000_000
"""The most distinct positions one level may hold: past it the count is refused, since each
level is held whole in memory (about 0.5 GiB of Python objects a million) and takes minutes.
7x6 Connect Four has 1,662,623 positions at ply 10 (its --depth 9 took 72 s on a busy
machine), 4,568,683 at ply 11."""
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

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready counts (the winners as ``first_wins`` and ``second_wins`` in every
        game)."""
        return {
            "games": self.games,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
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


@dataclass(slots=True)
class _Tally:
    """Running counts while the levels are walked."""

    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0
    by_length: dict[int, int] = field(default_factory=dict)
    nodes_by_depth: list[int] = field(default_factory=list)
    positions_by_depth: list[int] = field(default_factory=list)
    canonical: int = 0
    terminal: int = 0

    def finished(self, winner: Player | None, length: int, paths: int) -> None:
        self.terminal += 1
        self.by_length[length] = self.by_length.get(length, 0) + paths
        if winner is None:
            self.draws += paths
        elif winner is Player.FIRST:
            self.first_wins += paths
        else:
            self.second_wins += paths

    def counts(self, complete: bool) -> PerftCounts:
        return PerftCounts(
            games=self.first_wins + self.second_wins + self.draws,
            first_wins=self.first_wins,
            second_wins=self.second_wins,
            draws=self.draws,
            games_by_length=dict(sorted(self.by_length.items())),
            nodes=sum(self.nodes_by_depth),
            nodes_by_depth=tuple(self.nodes_by_depth),
            positions=sum(self.positions_by_depth),
            positions_by_depth=tuple(self.positions_by_depth),
            canonical_positions=self.canonical,
            terminal_positions=self.terminal,
            complete=complete,
        )


def perft(
    game: Any,
    position: Any = None,
    max_depth: int | None = None,
    progress: ProgressCallback | None = None,
    max_positions: int = MAX_LEVEL_POSITIONS,
) -> PerftCounts:
    """Count the tree below ``position`` (the initial position by default).

    With ``max_depth`` only that many plies are expanded (``complete`` is then False when
    unfinished positions remain at the last level; games and terminal counts cover the
    levels reached). Game lengths count plies from ``position``. Raises
    :class:`ParameterError` (naming ``--depth``) as soon as a level would hold more than
    ``max_positions`` distinct positions.
    """
    root = game.initial() if position is None else position
    level: dict[Any, tuple[Any, int]] = {game.key(root): (root, 1)}
    tally = _Tally()
    depth = 0
    while True:
        tally.nodes_by_depth.append(sum(paths for _, paths in level.values()))
        tally.positions_by_depth.append(len(level))
        tally.canonical += len({game.canonical_key(p) for p, _ in level.values()})
        expand = max_depth is None or depth < max_depth
        following: dict[Any, tuple[Any, int]] = {}
        unfinished = False
        for current, paths in level.values():
            outcome = game.outcome(current)
            if outcome is not None:
                tally.finished(outcome.winner, depth, paths)
                continue
            unfinished = True
            if expand:
                for move in game.legal_moves(current):
                    child = game.play(current, move)
                    key = game.key(child)
                    known = following.get(key)
                    following[key] = (child, paths if known is None else known[1] + paths)
                if len(following) > max_positions:
                    raise _too_many(depth + 1, max_positions)
        if progress is not None:
            progress(depth, len(level), sum(tally.nodes_by_depth))
        if not following:
            return tally.counts(complete=not unfinished or expand)
        level = following
        depth += 1


def _too_many(depth: int, max_positions: int) -> ParameterError:
    """The refusal of a level past ``max_positions`` distinct positions."""
    return ParameterError(
        f"perft: ply {depth} has more than {max_positions:,} distinct positions, too many to "
        f"hold in memory; give --depth {depth - 1} or less"
    )
