"""The line layout of the big-board m,n,k engine: every row, column and diagonal as a line of
cells, each line a small bit set per side (at most 20 bits), plus the constant tables the
compiled engine reads (Zobrist keys per symmetry, neighbourhoods, window weights).

Lines of a 4x4 board, one family per direction (``d`` is the index in ``cell_line[cell, d]``)::

    d=0 across (0, +1)   d=1 down (+1, 0)   d=2 diagonal (+1, +1)   d=3 anti-diagonal (+1, -1)
    0 0 0 0              0 1 2 3            3 2 1 0                 0 1 2 3
    1 1 1 1              0 1 2 3            4 3 2 1                 1 2 3 4
    2 2 2 2              0 1 2 3            5 4 3 2                 2 3 4 5
    3 3 3 3              0 1 2 3            6 5 4 3                 3 4 5 6

(line numbers within a family; the global line id is the family's offset plus that number).
A cell's bit in its line counts from the line's first cell (top-most, then left-most).
Every cell lies on exactly one line of each family, so a stone touches four lines; the engine
keeps per line and side the stone bits, the cells that would complete ``k`` (its threat map)
and the cells that would make a four, and updates only those four lines on make and unmake.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from perfectplay.games.common.grid import centre_first_order, inverse, symmetries

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Row and column steps of the four line families: across, down, diagonal, anti-diagonal."""
NEIGHBOURHOOD = 2
"""Candidate moves of the depth-limited search lie within this many cells of a stone."""
ZOBRIST_SEED = 0x6D6E6B
"""Seed of the Zobrist keys: constant, so that keys are the same in every process."""
WEIGHT_BASE = 6
"""The hand-set evaluation: an open window holding ``n`` stones is worth
``WEIGHT_BASE ** (n - 1)`` (capped), the tempo bonus is a ``k - 1`` window's worth."""
WEIGHT_CAP = 20_000
TUNED_WEIGHTS: dict[int, tuple[int, ...]] = {
    5: (0, 3, 20, 56, 63, 1574, 152),
}
"""Evaluation weights tuned by self-play, per ``k`` (``python benchmarks/tune_gomoku.py
--iterations 90 --seed 2026 --depth 4 --pairs 4``: SPSA from the hand-set ones, 720 games at
4 plies, 35 minutes; BENCHMARKS.md); other values of ``k`` take the hand-set
:func:`geometric_weights`."""


@dataclass(frozen=True, slots=True)
class LineLayout:
    """The lines of a ``rows`` x ``cols`` board.

    ``cell_line[cell, d]`` is the id of the line of family ``d`` through ``cell`` and
    ``cell_bit[cell, d]`` the cell's bit in it; ``line_cells[line, i]`` is the cell at bit ``i``
    (-1 past the line's end) and ``line_len[line]`` its length.
    """

    cell_line: np.ndarray[Any, Any]
    cell_bit: np.ndarray[Any, Any]
    line_cells: np.ndarray[Any, Any]
    line_len: np.ndarray[Any, Any]


def _walk(rows: int, cols: int, r: int, c: int, dr: int, dc: int) -> list[int]:
    """Cells from ``(r, c)`` stepping ``(dr, dc)`` until the board's edge."""
    cells = []
    while 0 <= r < rows and 0 <= c < cols:
        cells.append(r * cols + c)
        r, c = r + dr, c + dc
    return cells


@lru_cache(maxsize=32)
def line_layout(rows: int, cols: int) -> LineLayout:
    """The lines of the board (see the module docstring), built once per size."""
    lines: list[list[int]] = []
    cells = rows * cols
    cell_line = np.zeros((cells, 4), dtype=np.int64)
    cell_bit = np.zeros((cells, 4), dtype=np.int64)
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for r in range(rows):
            for c in range(cols):
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols:
                    continue  # not the first cell of its line
                line = _walk(rows, cols, r, c, dr, dc)
                for bit, cell in enumerate(line):
                    cell_line[cell, d] = len(lines)
                    cell_bit[cell, d] = bit
                lines.append(line)
    width = max(len(line) for line in lines)
    line_cells = np.full((len(lines), width), -1, dtype=np.int64)
    for i, line in enumerate(lines):
        line_cells[i, : len(line)] = line
    line_len = np.array([len(line) for line in lines], dtype=np.int64)
    return LineLayout(cell_line, cell_bit, line_cells, line_len)


def neighbourhoods(rows: int, cols: int, radius: int = NEIGHBOURHOOD) -> np.ndarray[Any, Any]:
    """``near[cell]``: the other cells within ``radius`` rows and columns, -1 padded."""
    width = (2 * radius + 1) ** 2 - 1
    near = np.full((rows * cols, width), -1, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            found = [
                rr * cols + cc
                for rr in range(max(0, r - radius), min(rows, r + radius + 1))
                for cc in range(max(0, c - radius), min(cols, c + radius + 1))
                if (rr, cc) != (r, c)
            ]
            near[r * cols + c, : len(found)] = found
    return near


def zobrist_keys(rows: int, cols: int) -> np.ndarray[Any, Any]:
    """``keys[sym, side, cell]``: the Zobrist key of a stone of ``side`` on ``cell`` as seen
    through symmetry ``sym`` (the key of its image cell), so that the engine keeps the hash
    of every symmetric image of the board incrementally and takes the smallest."""
    cells = rows * cols
    rng = np.random.default_rng(ZOBRIST_SEED)
    base = rng.integers(0, np.iinfo(np.uint64).max, size=(2, cells), dtype=np.uint64)
    perms = symmetries(rows, cols)
    keys = np.zeros((len(perms), 2, cells), dtype=np.uint64)
    for s, perm in enumerate(perms):
        keys[s] = base[:, list(perm)]
    return keys


def geometric_weights(k: int) -> tuple[int, ...]:
    """The hand-set evaluation weights of ``k`` in a row (the layout of
    :func:`evaluation_weights`): windows worth ``WEIGHT_BASE ** (n - 1)``, capped."""
    windows = [0] + [min(WEIGHT_BASE ** (n - 1), WEIGHT_CAP) for n in range(1, k + 1)]
    return (*windows, windows[max(0, k - 1)])


def evaluation_weights(k: int) -> tuple[int, ...]:
    """The default evaluation weights of ``k`` in a row, ``k + 2`` whole numbers:
    ``weights[n]`` (``n`` = 0..k) is the value of a window of ``k`` cells holding ``n`` stones
    of one side and none of the other (``weights[0]`` is 0), and ``weights[k + 1]`` the tempo
    bonus of each line where the side to move can make a four. Tuned for ``k`` = 5."""
    return TUNED_WEIGHTS.get(k, geometric_weights(k))


def permutations(rows: int, cols: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``(perm, inv_perm)``: per symmetry, cell -> image cell and image cell -> cell."""
    perms = symmetries(rows, cols)
    return (
        np.array(perms, dtype=np.int64),
        np.array([inverse(p) for p in perms], dtype=np.int64),
    )


def centre_order(rows: int, cols: int) -> np.ndarray[Any, Any]:
    """Cells, centre first."""
    return np.array(centre_first_order(rows, cols), dtype=np.int64)
