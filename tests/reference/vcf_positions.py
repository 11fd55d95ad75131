"""The Gomoku tactics set of issue 26 (``tests/data/gomoku_vcf_set.json``), made with the
brute-force VCF of :mod:`vcf_reference` alone (no engine code)::

    python tests/reference/vcf_positions.py > tests/data/gomoku_vcf_set.json

Random games on 15x15 (freestyle: five or more), every move a random empty cell within two
of a stone, from the centre; the first position of a game where the side to move has a VCF
of at least two fours (5 plies or more) and neither side has a win cell already (no
five to make, no four to block) goes in, with its shortest VCF's plies. The seed makes the
set the same every run.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

TESTS_DIR = str(Path(__file__).resolve().parent.parent)
if TESTS_DIR not in sys.path:  # run as a script: its own folder is on the path, not tests/
    sys.path.insert(0, TESTS_DIR)

from reference.vcf_reference import Board, Cell  # noqa: E402  (tests/ is on the path now)

SIZE, K = 15, 5
COUNT = 24
MAX_FOURS = 6
SEED = 26
MAX_PLIES = 60
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def name(cell: Cell) -> str:
    """``h8``: the column letter and the row from the top, from 1."""
    return f"{COLUMNS[cell[1]]}{cell[0] + 1}"


def near(cell: Cell, stones: set[Cell]) -> bool:
    """Whether ``cell`` lies within two of a stone."""
    r, c = cell
    return any((r + dr, c + dc) in stones for dr in range(-2, 3) for dc in range(-2, 3))


def one_game(board: Board, rng: random.Random) -> dict[str, object] | None:
    """The first position of a random game with a VCF of 5 plies or more, or ``None``."""
    x: set[Cell] = {(SIZE // 2, SIZE // 2)}
    o: set[Cell] = set()
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    for ply in range(1, MAX_PLIES):
        mine, theirs = (x, o) if ply % 2 == 0 else (o, x)
        fm, ft = frozenset(mine), frozenset(theirs)
        if board.win_cells(fm, ft) or board.win_cells(ft, fm):
            return None
        plies = board.shortest_vcf(fm, ft, MAX_FOURS)
        if plies is not None and plies >= 5:
            return {"x": sorted(map(name, x)), "o": sorted(map(name, o)), "vcf_plies": plies}
        taken = x | o
        free = [cell for cell in cells if cell not in taken and near(cell, taken)]
        mine.add(rng.choice(free))
    return None


def main() -> None:
    """Print the set as JSON."""
    board = Board(SIZE, SIZE, K)
    rng = random.Random(SEED)
    found: list[dict[str, object]] = []
    while len(found) < COUNT:
        entry = one_game(board, rng)
        if entry is not None:
            found.append({"name": f"random game {len(found) + 1}", **entry})
            print(f"{len(found)}: {entry['vcf_plies']} plies", file=sys.stderr)
    lines = ",\n".join(f"  {json.dumps(entry)}" for entry in found)
    print(f"[\n{lines}\n]")


if __name__ == "__main__":
    main()
