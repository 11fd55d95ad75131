"""A tiny game the web tests install as a plug-in, to show that the web app serves a game it
has never heard of: the pages, the API and the engine learn it only from its kit.

"Pairs": two players take turns claiming the cells of a 2x3 grid; whoever owns both cells of
a column wins, a full grid is a draw. Moves are cells, ``{"row": r, "col": c}`` from 1 in
JSON and ``b1`` (column letter, row number) in text; positions are the moves played, such as
``a1 b2``. It takes no size and no ``k``.

:data:`PAIRS` declares ``Capability.BOARD`` (its board is a grid of x and o marks);
:data:`BLIND` is the same game without a board view (no capability at all), for the refusals.
The web tests register both, either through the entry-point group ``perfectplay.games`` (a
server subprocess, see ``conftest.py``) or by standing in for the registry in-process.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import GameOverError, IllegalMoveError, NotationError
from perfectplay.games.kit import (
    BoardView,
    Capability,
    GameKit,
    GameParams,
    JSONObject,
    JSONValue,
)
from perfectplay.games.protocol import BaseGame, Outcome, Player

ROWS, COLS = 2, 3
LETTERS = "abc"
Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PairsPosition:
    """Who owns each cell (0 nobody, 1 or 2), row by row, and the moves played."""

    owners: tuple[int, ...] = (0,) * (ROWS * COLS)
    plies: int = 0


class PairsGame(BaseGame[PairsPosition, Cell]):
    """The rules of Pairs, under the registry name ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def spec(self) -> tuple[int, int]:
        """Rows and columns."""
        return ROWS, COLS

    def initial(self) -> PairsPosition:
        """The empty grid."""
        return PairsPosition()

    def to_move(self, position: PairsPosition) -> Player:
        """Player 1 after an even number of moves."""
        return Player.FIRST if position.plies % 2 == 0 else Player.SECOND

    def legal_moves(self, position: PairsPosition) -> Sequence[Cell]:
        """The free cells, row by row; none once the game is over."""
        if self.outcome(position) is not None:
            return []
        return [divmod(i, COLS) for i, owner in enumerate(position.owners) if owner == 0]

    def play(self, position: PairsPosition, move: Cell) -> PairsPosition:
        """Claim a free cell."""
        if self.outcome(position) is not None:
            raise GameOverError(f"move {format_cell(move)}: the game is over")
        row, col = move
        if not (0 <= row < ROWS and 0 <= col < COLS) or position.owners[row * COLS + col]:
            raise IllegalMoveError(f"move {format_cell(move)}: not a free cell")
        owners = list(position.owners)
        owners[row * COLS + col] = int(self.to_move(position))
        return PairsPosition(tuple(owners), position.plies + 1)

    def outcome(self, position: PairsPosition) -> Outcome | None:
        """A column owned by one player wins; a full grid is a draw."""
        for col in range(COLS):
            top, bottom = position.owners[col], position.owners[COLS + col]
            if top and top == bottom:
                return Outcome(
                    Player(top), f"player {top} owns column {LETTERS[col]}", ((0, col), (1, col))
                )
        if all(position.owners):
            return Outcome(None, "the grid is full")
        return None

    def key(self, position: PairsPosition) -> Hashable:
        """The owners and the side to move."""
        return position.owners, position.plies % 2

    def ply(self, position: PairsPosition) -> int:
        """Moves played."""
        return position.plies

    def plies_left_bound(self, position: PairsPosition) -> int:
        """The free cells."""
        return position.owners.count(0)

    def move_to_json(self, move: Cell) -> dict[str, Any]:
        """``{"row": r, "col": c}``, counted from 1 as the web's board sends cells."""
        return {"row": move[0] + 1, "col": move[1] + 1}

    def format_move(self, move: Cell) -> str:
        """``b1``."""
        return format_cell(move)


def format_cell(move: Cell) -> str:
    """``b1``: the column letter and the row number from 1."""
    return f"{LETTERS[move[1]]}{move[0] + 1}"


class PairsKit(GameKit):
    """Pairs with a board view."""

    name = "pairs"
    title = "Pairs (a test plug-in)"
    summary = "Claim cells of a 2x3 grid; both cells of a column win. Positions are moves: a1 b2."
    capabilities = frozenset({Capability.BOARD})
    examples = ("a1 a2 b1",)

    def make(self, params: GameParams) -> PairsGame:
        """The game (it takes no size or k: the kit says so, the api refuses them)."""
        return PairsGame(self.name)

    def parse_move(self, game: Any, position: Any, text: str) -> Cell:
        """``b1``."""
        cleaned = text.strip().lower()
        if len(cleaned) != 2 or cleaned[0] not in LETTERS or cleaned[1] not in "12":
            raise NotationError(f"move {text!r}: expected a cell such as b1")
        return int(cleaned[1]) - 1, LETTERS.index(cleaned[0])

    def move_from_json(self, game: Any, data: JSONValue) -> Cell:
        """``{"row": r, "col": c}``."""
        if not isinstance(data, dict) or set(data) != {"row", "col"}:
            raise NotationError(f"move {data!r}: expected {{'row': r, 'col': c}}")
        row, col = data["row"], data["col"]
        if not isinstance(row, int) or not isinstance(col, int):
            raise NotationError(f"move {data!r}: row and col are numbers")
        return row - 1, col - 1

    def board(self, game: Any, position: PairsPosition) -> BoardView | None:
        """x and o marks, rows from the top."""
        cells: list[list[JSONObject | None]] = [
            [
                None if owner == 0 else {"player": owner, "mark": "xo"[owner - 1]}
                for owner in position.owners[row * COLS : (row + 1) * COLS]
            ]
            for row in range(ROWS)
        ]
        return BoardView(ROWS, COLS, False, cells)


class BlindPairsKit(PairsKit):
    """Pairs without a board view: no capability at all."""

    name = "blindpairs"
    title = "Blind pairs (a test plug-in)"
    capabilities = frozenset()

    def board(self, game: Any, position: PairsPosition) -> BoardView | None:
        """No board view."""
        return None


PAIRS = PairsKit()
BLIND = BlindPairsKit()
