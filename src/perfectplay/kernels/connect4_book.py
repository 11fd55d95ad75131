"""Connect Four opening books: exact scores of every position at one depth, built by the
solver itself and consulted by it.

A book of depth ``d`` holds, for every running position with ``d`` stones, the standard score
for the side to move. Positions and their mirror images share one entry, keyed by the smaller
of the two solver keys (``current + mask``, see :mod:`perfectplay.kernels.connect4_kernel`).
When a search reaches a position with ``d`` stones it reads the score instead of searching
below it, so the empty board is solved by searching only the first ``d`` plies.

Books are ``.npz`` files: ``width``, ``height``, ``k``, ``depth`` and the sorted ``keys`` with
their ``scores``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.connect4 import Connect4Game, Connect4Position

BookProgress = Callable[[int, int, float], None]
"""Called with (positions solved, positions in all, seconds) while a book is built."""


@dataclass(frozen=True)
class OpeningBook:
    """Exact scores of the positions with ``depth`` stones on one board size."""

    width: int
    height: int
    k: int
    depth: int
    keys: np.ndarray[Any, Any]
    scores: np.ndarray[Any, Any]

    def __len__(self) -> int:
        return len(self.keys)

    def save(self, path: Path) -> None:
        """Write the book as an ``.npz`` file."""
        np.savez_compressed(
            path,
            width=self.width,
            height=self.height,
            k=self.k,
            depth=self.depth,
            keys=self.keys,
            scores=self.scores,
        )

    @classmethod
    def load(cls, path: Path) -> OpeningBook:
        """Read a book written by :meth:`save`.

        Raises :class:`ParameterError` naming the file when it is missing or not a book.
        """
        try:
            with np.load(path) as data:
                keys = data["keys"].astype(np.uint64)
                scores = data["scores"].astype(np.int8)
                width, height, k, depth = (int(data[n]) for n in ("width", "height", "k", "depth"))
        except (OSError, KeyError, ValueError) as exc:
            raise ParameterError(f"opening book {str(path)!r}: not readable ({exc})") from None
        if len(keys) != len(scores) or np.any(keys[1:] <= keys[:-1]):
            raise ParameterError(f"opening book {str(path)!r}: keys must be sorted and unique")
        return cls(width, height, k, depth, keys, scores)


BUNDLED = {(7, 6, 4): "connect4-7x6-depth2.npz"}
"""Books shipped with the package (in ``perfectplay/data/``), by (width, height, k); the
solver consults them unless told not to (``--no-book``)."""


def bundled_book(width: int, height: int, k: int) -> OpeningBook | None:
    """The book shipped for this board, or ``None``."""
    name = BUNDLED.get((width, height, k))
    if name is None:
        return None
    path = Path(__file__).resolve().parent.parent / "data" / name
    return OpeningBook.load(path) if path.exists() else None


def solver_key(game: Connect4Game, position: Connect4Position) -> int:
    """The solver's key of a position: the side to move's stones plus all stones."""
    current = position.first if position.plies % 2 == 0 else position.second
    return current + position.mask


def canonical_solver_key(game: Connect4Game, position: Connect4Position) -> int:
    """The smaller of the position's key and its mirror image's key."""
    key = solver_key(game, position)
    return min(key, game.mirror(key))


def positions_at(game: Connect4Game, depth: int) -> list[Connect4Position]:
    """One running position per mirror pair among those with ``depth`` stones."""
    level = {canonical_solver_key(game, game.initial()): game.initial()}
    for _ in range(depth):
        following: dict[int, Connect4Position] = {}
        for position in level.values():
            for column in game.legal_moves(position):
                child = game.play_column(position, column)
                if game.outcome(child) is None:
                    following.setdefault(canonical_solver_key(game, child), child)
        level = following
    return [level[key] for key in sorted(level)]


def build_book(
    game: Connect4Game,
    depth: int,
    table_entries: int = 1 << 22,
    progress: BookProgress | None = None,
) -> OpeningBook:
    """Solve every position with ``depth`` stones (one per mirror pair) into a book."""
    if not 0 <= depth < game.spec.cells:
        raise ParameterError(f"book depth={depth}: must be from 0 to {game.spec.cells - 1}")
    kernel = game.kernel()
    table = kernel.new_table(table_entries)
    positions = positions_at(game, depth)
    keys = np.empty(len(positions), dtype=np.uint64)
    scores = np.empty(len(positions), dtype=np.int8)
    started = time.perf_counter()
    for i, position in enumerate(positions):
        table.clear()
        keys[i] = canonical_solver_key(game, position)
        scores[i] = kernel.solve(position, table).score
        if progress is not None:
            progress(i + 1, len(positions), time.perf_counter() - started)
    spec = game.spec
    return OpeningBook(spec.width, spec.height, spec.k, depth, keys, scores)
