"""The shape-and-color Connect Four ("Simplexity"): the kit the api and the front doors read.

Positions are the moves played from the empty board (``4O 4X 3O`` or ``4O4X3O``); a move is
a 1-based column and a shape. Scores follow Connect Four's convention.
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import NotationError, ParameterError, quote
from perfectplay.games import kit as base
from perfectplay.games.common.moves import column_from_json
from perfectplay.games.protocol import Player
from perfectplay.games.simplexity.board import COLORS, EVALUATIONS, SHAPES, SimplexityMove
from perfectplay.games.simplexity.notation import (
    format_simplexity_moves,
    parse_simplexity_move,
    parse_simplexity_moves,
)
from perfectplay.games.simplexity.rules import SimplexityGame, SimplexityPosition, game
from perfectplay.games.simplexity.text import (
    render_simplexity_board,
    simplexity_cells,
    simplexity_quotas,
)

DEFAULT_SIZE = (7, 6)
"""The course's board as ``(width, height)``: 7 columns, 6 rows."""
EXACT_PLIES = 20
"""An unbounded exact search is refused with more than this many empty cells."""
WHOLE_TREE_CELLS = 10
"""Whole game trees are counted on boards up to this many cells (4x2: 0.7 s; 3x4: 41 s,
width x height)."""
MOVE_KEYS = frozenset({"column", "shape"})


class SimplexityKit(base.GameKit):
    """The course's shape-and-color game, 7x6 (width x height) by default."""

    name = "simplexity"
    title = "Shape-and-color Connect Four (Simplexity)"
    aliases = ("shapecolor", "shape-color", "sc")
    summary = (
        "Connect Four where each piece has a shape (O, X) and a color: four of one shape win "
        "for that shape's owner, four of one color for its owner. Positions are moves: 4O 4X."
    )
    size = base.SizeRule(("cols", "rows"), DEFAULT_SIZE)
    capabilities = frozenset(
        {
            base.Capability.SYMMETRY,
            base.Capability.BOARD,
            base.Capability.EVALUATIONS,
            base.Capability.ARENA,
        }
    )
    policy = base.Policy(exact_plies=EXACT_PLIES, whole_tree_cells=WHOLE_TREE_CELLS)
    evaluations = EVALUATIONS
    examples = ("4O 4X 3O", "4O4X")

    def make(self, params: base.GameParams) -> SimplexityGame:
        """``game(rows, cols)`` of a ``(width, height)`` size; the game always plays four
        in a row (refuses ``k``)."""
        if params.k is not None:
            raise ParameterError(
                f"k={params.k}: the shape-and-color game always plays four in a row"
            )
        cols, rows = params.size or DEFAULT_SIZE
        return game(rows, cols)

    def load(self, text: str, params: base.GameParams) -> base.Loaded:
        """A move sequence from the empty board of ``size``."""
        made = self.make(params)
        position, moves = parse_simplexity_moves(made, text)
        return base.Loaded(made, position, tuple(moves))

    def moves_text(self, game: Any, moves: Any) -> str:
        """``4O 4X 3O``."""
        return format_simplexity_moves(moves)

    def parse_move(self, game: Any, position: SimplexityPosition, text: str) -> SimplexityMove:
        """``4O`` or ``4x``; errors number the move in the game."""
        column, shape = parse_simplexity_move(text, position.plies + 1)
        return SimplexityMove(column, shape)

    def move_text(self, game: Any, move: SimplexityMove) -> str:
        """``4O``."""
        return f"{move.column + 1}{move.shape}"

    def move_from_json(self, game: Any, data: base.JSONValue) -> SimplexityMove:
        """``{"column": c, "shape": "O"}``, the column 1-based."""
        column = column_from_json(data, game.spec.cols, MOVE_KEYS)
        assert isinstance(data, dict)  # checked by column_from_json
        if data["shape"] not in SHAPES:
            raise NotationError(f"move {quote(data)}: shape must be 'O' or 'X'")
        return SimplexityMove(column, str(data["shape"]))

    def with_evaluation(self, game: Any, name: str) -> SimplexityGame:
        """The same rules searched with the heuristic ``name``."""
        searched: SimplexityGame = game.with_evaluation(name)
        return searched

    def label(self, game: Any) -> str:
        """The spec's label."""
        return str(game.spec.label)

    def render(self, game: Any, position: Any, color: bool = False) -> str:
        """The course's drawing, coloured on a terminal."""
        return render_simplexity_board(position, color=color)

    def side_label(self, game: Any, player: int) -> str:
        """``player 1 (red, O)``."""
        return f"player {player} ({COLORS[player - 1]}, {SHAPES[player - 1]})"

    def notes(self, game: Any, position: Any) -> list[str]:
        """The pieces each player has left."""
        return ["pieces left: " + simplexity_quotas(game, position)]

    def move_entry(self, game: Any) -> str:
        """A column and a shape."""
        return f"a move such as 4O (column 1-{game.spec.cols}, shape O or X)"

    def move_help(self, game: Any) -> str:
        """Columns and shapes, and what wins."""
        return (
            f"moves: a column number from 1 (left) to {game.spec.cols} (right) and a shape, O "
            "or X (4O, 2x); the piece falls to the lowest empty cell and has your color. Four "
            "of one shape win for that shape's owner (O: player 1, X: player 2), whoever "
            "placed them; four of one color win for that color; a shape four beats a color four"
        )

    def natural_move(self, game: Any, position: Any, move: SimplexityMove) -> bool:
        """The mover's own shape (a random piece of the other shape often loses at once)."""
        return move.shape == SHAPES[game.to_move(position) - 1]

    def board(self, game: Any, position: SimplexityPosition) -> base.BoardView:
        """Pieces with their shape and color, rows from the top; the quotas left."""
        rows, cols = game.spec.rows, game.spec.cols
        cells: list[list[base.JSONObject | None]] = list(simplexity_cells(position))
        quotas: base.JSONObject = {
            str(int(p)): {s: game.quota_left(position, p, s) for s in SHAPES}
            for p in (Player.FIRST, Player.SECOND)
        }
        return base.BoardView(rows, cols, True, cells, {"quotas": quotas})

    def display_cell(self, game: Any, cell: Any) -> tuple[int, int]:
        """``(column, height)`` as ``(row, col)`` from the top."""
        return game.layout.display_cell(cell)  # type: ignore[no-any-return]


KIT = SimplexityKit()
