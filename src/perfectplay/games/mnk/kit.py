"""Tic-tac-toe and every m,n,k-game: the kit the api and the front doors read.

Positions are written as boards (``xox/oox/___``, size read from the board); moves are cells
(``b3``, or ``3 2`` as row and column from 1).
"""

from __future__ import annotations

from math import comb
from typing import Any

from perfectplay.games import kit as base
from perfectplay.games.mnk.notation import (
    format_mnk_move,
    parse_json_cell,
    parse_mnk_board,
    parse_mnk_move,
)
from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition, cell_words, game
from perfectplay.games.mnk.text import (
    column_letters,
    format_mnk_board,
    mnk_board_cells,
    mnk_board_svg,
)
from perfectplay.games.mnk.text import render_mnk_board as render_board

DEFAULT_SIZE = (3, 3)
GOMOKU_SIZE = (15, 15)
WEB_SIDE = 19
"""The largest side the web app draws (Go's board; the engine plays up to 20x20, Gomocup's
freestyle board, through the CLI and the Gomocup brain)."""
"""Default sizes as ``(width, height)``."""
EXACT_PLIES = 24
"""An unbounded exact solve needs at most this many empty cells: from the empty board 4x5
(width x height, k=4) takes 0.2 s, 4x6 13 s, 5x5 46 s (k=4) to minutes (k=5)."""
WHOLE_TREE_CELLS = 12
"""Whole game trees are counted on boards up to this many cells (3x4: 2.5 s)."""
GENERIC_CELLS = 10
"""Boards of at most this many cells are searched by the generic alpha-beta: the empty 3x3
board is solved in about 13 ms and analysed in 11 ms (2x5 in 8 ms), where loading the compiled
kernel takes half a second (3x4 would take 60 ms and 200 ms)."""
"""The board matrix's values as marks."""


FOCUS_CELLS = 64
"""Boards larger than this are analysed near their stones only (the web's overlay)."""
FOCUS_RADIUS = 2


def near(spec: Any, stones: int, move: Cell) -> bool:
    """Whether a stone lies within :data:`FOCUS_RADIUS` rows and columns of ``move``."""
    row, col = move
    for r in range(max(0, row - FOCUS_RADIUS), min(spec.rows, row + FOCUS_RADIUS + 1)):
        for c in range(max(0, col - FOCUS_RADIUS), min(spec.cols, col + FOCUS_RADIUS + 1)):
            if stones >> (r * spec.cols + c) & 1:
                return True
    return False


class MNKRetraction(base.Retraction):
    """Any stone of the last mover can be taken back."""

    def state_of(self, position: MNKPosition) -> tuple[int, int]:
        """``(x, o)``."""
        return position.x, position.o

    def removable(self, state: tuple[int, int]) -> int:
        """Every stone of the side that moved last."""
        first, second = state
        return first if (first | second).bit_count() % 2 else second

    def move_of(self, stone: int) -> Cell:
        """The cell of the stone."""
        cell: Cell = self.game.cell(stone.bit_length() - 1)
        return cell

    def bound(self, state: tuple[int, int]) -> int:
        """Sub-boards: every way to keep some of each side's stones in turn order."""
        first, second = (s.bit_count() for s in state)
        total = first + second
        return sum(comb(first, (i + 1) // 2) * comb(second, i // 2) for i in range(total + 1))


class TicTacToeKit(base.GameKit):
    """Tic-tac-toe on WIDTHxHEIGHT boards (columns x rows), k in a row."""

    name = "tictactoe"
    title = "Tic-tac-toe (m,n,k-games)"
    aliases: tuple[str, ...] = ("mnk", "ttt", "tic-tac-toe")
    summary = (
        "x and o take turns on a WIDTHxHEIGHT board (1x1 to 20x20); k in a row wins. "
        "Positions are boards such as xox/oox/___; moves are cells such as b3."
    )
    size = base.SizeRule(("cols", "rows"), DEFAULT_SIZE)
    takes_k = True
    board_notation = True
    capabilities = frozenset(
        {base.Capability.HISTORY, base.Capability.SYMMETRY, base.Capability.BOARD}
    )
    examples = ("xox/oox/___", "___/_x_/___")
    policy = base.Policy(
        exact_plies=EXACT_PLIES,
        whole_tree_cells=WHOLE_TREE_CELLS,
        web_cells=WEB_SIDE * WEB_SIDE,
        generic_plies=GENERIC_CELLS,
    )

    engine_params: tuple[base.GameParams, ...] = (
        base.GameParams((4, 4)),
        base.GameParams((15, 15), 5),
    )
    """A board of the one-word kernel and one of the big-board kernel (the default 3x3 board
    is searched by the generic alpha-beta)."""

    exactly = False
    """The rule: ``k`` or more in a row wins (freestyle), or exactly ``k`` (the Gomoku kit)."""

    def make(self, params: base.GameParams) -> MNKGame:
        """``game(rows, cols, k)`` of a ``(width, height)`` size; ``k`` defaults to the
        shorter side, 5 from 15 columns on."""
        cols, rows = params.size or self.size.default
        return game(rows, cols, params.k, self.exactly)

    def load(self, text: str, params: base.GameParams) -> base.Loaded:
        """A board (its size read from it; ``size``, when given, must agree), or the empty
        board of ``size`` for the empty text."""
        if not text.strip():
            return self.start(self.make(params))
        parsed, position = parse_mnk_board(text, params.k, self.exactly)
        self.check_size(params, parsed)
        return base.Loaded(parsed, position, None)

    def position_text(self, loaded: base.Loaded) -> str:
        """The board, ``xox/oox/___``."""
        return format_mnk_board(loaded.position)

    def parse_move(self, game: Any, position: Any, text: str) -> Cell:
        """``b3`` or ``3 2`` (1-based row and column)."""
        return parse_mnk_move(game, text)

    def move_text(self, game: Any, move: Cell) -> str:
        """``b3``."""
        return format_mnk_move(move)

    def move_from_json(self, game: Any, data: base.JSONValue) -> Cell:
        """``{"row": r, "col": c}``, counted from 1 (``c3`` is ``{"row": 3, "col": 3}``)."""
        return parse_json_cell(game, data)

    def label(self, game: Any) -> str:
        """The spec's label."""
        return str(game.spec.label)

    def render(self, game: Any, position: Any, color: bool = False) -> str:
        """The board with column letters and row numbers."""
        return render_board(position)

    def side_label(self, game: Any, player: int) -> str:
        """``x`` or ``o``."""
        return "x" if player == 1 else "o"

    def move_label(self, game: Any, move: Cell) -> str:
        """``c3 (row 3, column 3)``: the typed cell and its row and column from 1."""
        return f"{format_mnk_move(move)} {cell_words(move)}"

    def move_entry(self, game: Any) -> str:
        """A cell."""
        return "a move such as b2 or '2 2'"

    def move_help(self, game: Any) -> str:
        """Cells as letter and number, or row and column."""
        spec = game.spec
        return (
            f"moves: a cell as column letter and row number (a1 .. "
            f"{column_letters(spec.cols)[-1]}{spec.rows}) or row and column from 1 ('2 3')"
        )

    def board(self, game: Any, position: Any) -> base.BoardView:
        """x and o marks, rows from the top."""
        cells: list[list[base.JSONObject | None]] = list(mnk_board_cells(position))
        return base.BoardView(game.spec.rows, game.spec.cols, False, cells)

    def picture(self, game: Any, position: Any) -> str:
        """The board with its columns lettered and rows numbered, as moves are written."""
        return mnk_board_svg(position)

    def focus_moves(self, game: Any, position: Any) -> tuple[Cell, ...] | None:
        """On boards of more than :data:`FOCUS_CELLS` cells, the empty cells within
        :data:`FOCUS_RADIUS` rows and columns of a stone (the centre on an empty board);
        every move on smaller boards."""
        spec = game.spec
        if spec.cells <= FOCUS_CELLS or game.outcome(position) is not None:
            return None
        stones = position.x | position.o
        if not stones:
            return (Cell(spec.rows // 2, spec.cols // 2),)
        return tuple(move for move in game.legal_moves(position) if near(spec, stones, move))

    def move_cell(self, game: Any, position: Any, move: Cell) -> tuple[int, int]:
        """The cell itself."""
        return move[0], move[1]

    def retraction(self, game: Any, position: Any) -> MNKRetraction:
        """Any stone of the last mover."""
        return MNKRetraction(game)


class GomokuKit(TicTacToeKit):
    """Standard Gomoku: the m,n,k-game under the exact rule (five in a row wins, six or more
    does not), on 15x15 by default. ``tictactoe`` with k=5 is freestyle Gomoku."""

    name = "gomoku"
    title = "Gomoku (exactly k in a row)"
    aliases: tuple[str, ...] = ("standard-gomoku",)
    summary = (
        "x and o take turns on a WIDTHxHEIGHT board (15x15 by default, up to 20x20); exactly k "
        "in a row wins (5 from 15 columns on): an overline does not. Moves are cells such as "
        "h8 (column letter, row from the top)."
    )
    size = base.SizeRule(("cols", "rows"), GOMOKU_SIZE)
    engine_params = (base.GameParams(),)
    exactly = True


KIT = TicTacToeKit()
GOMOKU_KIT = GomokuKit()
