"""Bitboard helpers shared by the grid games.

A grid of ``rows`` x ``cols`` cells is stored densely, row-major, one bit per cell::

    bit index = row * cols + col          (row 0 is the top row)

    3x3 example:           5x4 example (5 wide, 4 high):
        0  1  2                0  1  2  3  4
        3  4  5                5  6  7  8  9
        6  7  8               10 11 12 13 14
                              15 16 17 18 19

A *window* is the mask of ``k`` consecutive cells along a row, a column or a diagonal; a side
has a line when one of its windows is full of its stones. Symmetries of the grid (the 8 of the
square's dihedral group, or the 4 of a rectangle) are cell permutations, applied to a bitboard
with one table look-up per byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Row/column steps of the four line directions: across, down, down-right, down-left."""


def bit_indices(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@lru_cache(maxsize=256)
def windows(rows: int, cols: int, k: int) -> tuple[int, ...]:
    """Every window of ``k`` aligned cells on the grid, as masks, in a fixed order."""
    found: list[int] = []
    for dr, dc in DIRECTIONS:
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                mask = 0
                for i in range(k):
                    mask |= 1 << ((r + dr * i) * cols + c + dc * i)
                if mask not in found:  # k = 1 makes the four directions coincide
                    found.append(mask)
    return tuple(found)


@lru_cache(maxsize=256)
def windows_by_cell(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    """For every cell, the windows that contain it."""
    all_windows = windows(rows, cols, k)
    return tuple(tuple(w for w in all_windows if w >> cell & 1) for cell in range(rows * cols))


@lru_cache(maxsize=256)
def symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Cell permutations of the grid's symmetry group, identity first.

    ``perm[cell]`` is where ``cell`` goes. Square grids have 8 (rotations and reflections),
    other rectangles 4 (identity, flip rows, flip columns, half turn).
    """

    def build(mapping: Callable[[int, int], tuple[int, int]]) -> tuple[int, ...]:
        cells = (mapping(r, c) for r in range(rows) for c in range(cols))
        return tuple(r2 * cols + c2 for r2, c2 in cells)

    last_r, last_c = rows - 1, cols - 1
    perms = [
        build(lambda r, c: (r, c)),
        build(lambda r, c: (last_r - r, c)),
        build(lambda r, c: (r, last_c - c)),
        build(lambda r, c: (last_r - r, last_c - c)),
    ]
    if rows == cols:
        perms += [
            build(lambda r, c: (c, r)),
            build(lambda r, c: (last_c - c, r)),
            build(lambda r, c: (c, last_r - r)),
            build(lambda r, c: (last_c - c, last_r - r)),
        ]
    unique: list[tuple[int, ...]] = []
    for perm in perms:
        if perm not in unique:  # 1xN and 1x1 grids have fewer distinct symmetries
            unique.append(perm)
    return tuple(unique)


def inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation that undoes ``perm``."""
    inv = [0] * len(perm)
    for src, dst in enumerate(perm):
        inv[dst] = src
    return tuple(inv)


class BitPermutation:
    """Applies a cell permutation to bitboards with one table look-up per byte."""

    __slots__ = ("_tables",)

    def __init__(self, perm: tuple[int, ...]) -> None:
        tables: list[list[int]] = []
        for chunk_start in range(0, len(perm), 8):
            table = [0] * 256
            for byte in range(256):
                mapped = 0
                for bit in range(8):
                    cell = chunk_start + bit
                    if byte >> bit & 1 and cell < len(perm):
                        mapped |= 1 << perm[cell]
                table[byte] = mapped
            tables.append(table)
        self._tables = tuple(tuple(t) for t in tables)

    def apply(self, bits: int) -> int:
        """The bitboard with every set cell moved by the permutation."""
        out = 0
        for table in self._tables:
            out |= table[bits & 0xFF]
            bits >>= 8
            if not bits:
                break
        return out


@lru_cache(maxsize=64)
def bit_permutations(rows: int, cols: int) -> tuple[BitPermutation, ...]:
    """The grid's symmetries as :class:`BitPermutation` objects, identity first."""
    return tuple(BitPermutation(p) for p in symmetries(rows, cols))


@lru_cache(maxsize=256)
def centre_first_order(rows: int, cols: int) -> tuple[int, ...]:
    """Cells sorted by distance from the centre (ties by index): a good default move order."""
    mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2

    def distance(cell: int) -> tuple[float, int]:
        r, c = divmod(cell, cols)
        return (
            max(abs(r - mid_r), abs(c - mid_c)) + 0.01 * (abs(r - mid_r) + abs(c - mid_c)),
            cell,
        )

    return tuple(sorted(range(rows * cols), key=distance))
