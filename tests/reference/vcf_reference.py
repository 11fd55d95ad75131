"""A brute-force VCF (victory by continuous fours) search, the oracle of the engine's threat
search: plain sets of cells and every window of ``k`` cells listed and checked one by one.

Freestyle rule (``k`` or more wins). A side's *win cells* are the empty cells that complete a
window of ``k`` cells; a *four* is a move after which its side has a win cell. A VCF: the
attacker makes a four (blocking the defender's single win cell when there is one), the
defender plays the attacker's single win cell (or loses to two), and so on until the attacker
has two win cells. Nothing is shared with the engine's code.
"""

from __future__ import annotations

from functools import cache

Cell = tuple[int, int]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@cache
def windows(rows: int, cols: int, k: int) -> tuple[tuple[Cell, ...], ...]:
    """Every window of ``k`` aligned cells on the board."""
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                cells = tuple((r + i * dr, c + i * dc) for i in range(k))
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    found.append(cells)
    return tuple(found)


class Board:
    """The size, ``k`` and the two sides' stones."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.windows = windows(rows, cols, k)

    def win_cells(self, mine: frozenset[Cell], theirs: frozenset[Cell]) -> set[Cell]:
        """Empty cells completing a window of ``mine``."""
        found = set()
        for window in self.windows:
            missing = [cell for cell in window if cell not in mine]
            if len(missing) == 1 and missing[0] not in theirs:
                found.add(missing[0])
        return found

    def four_cells(self, mine: frozenset[Cell], theirs: frozenset[Cell]) -> set[Cell]:
        """Empty cells where ``mine`` makes a four (a window then lacks one empty cell)."""
        found = set()
        for window in self.windows:
            if any(cell in theirs for cell in window):
                continue
            missing = [cell for cell in window if cell not in mine]
            if len(missing) == 2:
                found.update(missing)
        return found

    def vcf(self, mine: frozenset[Cell], theirs: frozenset[Cell], fours: int) -> int | None:
        """Plies of a VCF of the side to move (``mine``) with at most ``fours`` fours."""
        if fours == 0:
            return None
        threats = self.win_cells(theirs, mine)
        if len(threats) >= 2:
            return None
        moves = self.four_cells(mine, theirs)
        if threats:
            moves &= threats
        for cell in sorted(moves):
            after = mine | {cell}
            wins = self.win_cells(after, theirs)
            if len(wins) >= 2:
                return 3
            (reply,) = wins
            deeper = self.vcf(after, theirs | {reply}, fours - 1)
            if deeper is not None:
                return deeper + 2
        return None

    def shortest_vcf(
        self, mine: frozenset[Cell], theirs: frozenset[Cell], fours: int
    ) -> int | None:
        """Plies of the shortest VCF of at most ``fours`` fours, or ``None``."""
        for depth in range(1, fours + 1):
            found = self.vcf(mine, theirs, depth)
            if found is not None:
                return found
        return None
