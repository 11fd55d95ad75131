"""Building Connect Four opening books: every position at one depth, solved exactly.

See :mod:`perfectplay.games.connect4.book` for what a book holds and how the solver reads it.
"""

from __future__ import annotations

import time

import numpy as np

from perfectplay.errors import ParameterError
from perfectplay.games.connect4.book import OpeningBook
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.kit import BookProgress

BUILD_TABLE_BITS = 22
"""The table of a book build by default: 2**22 slots (64 MiB)."""
BUILD_OPTIONS = KernelOptions(table_bits=BUILD_TABLE_BITS)


def solver_key(game: Connect4Game, position: Connect4Position) -> int:
    """The solver's key of a position: the side to move's stones plus all stones."""
    return position.to_move_stones + position.mask


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


def check_depth(game: Connect4Game, depth: int) -> None:
    """Raise :class:`ParameterError` unless a book of ``depth`` stones fits the board."""
    if not 0 <= depth < game.spec.cells:
        raise ParameterError(f"book depth={depth}: must be from 0 to {game.spec.cells - 1}")


def build_book(
    game: Connect4Game,
    depth: int,
    options: KernelOptions = BUILD_OPTIONS,
    progress: BookProgress | None = None,
) -> OpeningBook:
    """Solve every position with ``depth`` stones (one per mirror pair) into a book, with a
    kernel of ``options`` (its table size; the book it consults, if any)."""
    check_depth(game, depth)
    kernel = game.kernel(options)
    table = kernel.new_table(kernel.table_entries_hint())
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
