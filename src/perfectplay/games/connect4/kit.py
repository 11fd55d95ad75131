"""Connect Four on any board whose bitboard fits 64 bits: the kit the api and the front doors
read.

Positions are move sequences of 1-based columns (``4453``; ``10,3,4`` on boards wider than
9) or pictures (rows top to bottom, ``/`` or new lines between them); a move is a column
number. Scores are the standard ones: ``(cells + 1) // 2 + 1 - s`` for a win with the
winner's ``s``-th stone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import prod
from pathlib import Path
from typing import Any, cast

from perfectplay.errors import DataFileError, NotationError, quote
from perfectplay.games import kit as base
from perfectplay.games.common.moves import column_from_json
from perfectplay.games.connect4.notation import (
    format_connect4_moves,
    parse_connect4_moves,
    parse_connect4_picture,
)
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position, game
from perfectplay.games.connect4.text import (
    connect4_cells,
    format_connect4_picture,
    render_connect4_board,
)
from perfectplay.games.kernel import KernelOptions

DEFAULT_SIZE = (7, 6)
DEFAULT_K = 4
WHOLE_TREE_CELLS = 16
EXACT_PLIES = 30
"""An unbounded exact solve needs at most this many plies left, unless the opening book
answers the position: 6x5 boards from empty take about 2 s, 7x6 positions with 12 stones
seconds, with 3 stones several minutes each (BENCHMARKS.md)."""
"""``perft`` without ``--depth`` counts whole trees only up to 4x4."""


class Connect4Retraction(base.Retraction):
    """Only the top stone of a column can be taken back (gravity)."""

    def state_of(self, position: Connect4Position) -> tuple[int, int]:
        """The two players' stones."""
        return position.first, position.second

    def removable(self, state: tuple[int, int]) -> int:
        """The last mover's stones on top of their columns."""
        first, second = state
        mask = first | second
        tops = mask & ~(mask >> 1)  # the bit above a column's top stone is empty (or sentinel)
        return tops & (first if mask.bit_count() % 2 else second)

    def move_of(self, stone: int) -> int:
        """The 0-based column of the stone."""
        stride: int = self.game.spec.stride
        return (stone.bit_length() - 1) // stride

    def bound(self, state: tuple[int, int]) -> int:
        """Sub-boards: every column cut at every height."""
        mask = state[0] | state[1]
        stride = self.game.spec.stride
        column = (1 << stride) - 1
        heights = ((mask >> (c * stride)) & column for c in range(self.game.spec.width))
        return prod(h.bit_count() + 1 for h in heights)


class Connect4Kit(base.GameKit):
    """Connect Four, 7x6 by default."""

    name = "connect4"
    title = "Connect Four"
    aliases = ("connect-four", "connectfour", "c4")
    summary = (
        "Stones fall down WIDTHxHEIGHT columns (7x6 by default); k (4) in a row wins. "
        "Positions are the 1-based columns played (4453) or a picture."
    )
    size = base.SizeRule(("width", "height"), DEFAULT_SIZE)
    takes_k = True
    capabilities = frozenset(
        {
            base.Capability.WEAK,
            base.Capability.THREADS,
            base.Capability.BOOK,
            base.Capability.HISTORY,
            base.Capability.SYMMETRY,
            base.Capability.BOARD,
        }
    )
    policy = base.Policy(exact_plies=EXACT_PLIES, whole_tree_cells=WHOLE_TREE_CELLS)
    examples = ("4453", "44455554221")

    def make(self, params: base.GameParams) -> Connect4Game:
        """``game(width, height, k)``."""
        width, height = params.size or DEFAULT_SIZE
        return game(width, height, DEFAULT_K if params.k is None else params.k)

    def load(self, text: str, params: base.GameParams) -> base.Loaded:
        """A move sequence on a ``size`` board, or a picture (text with ``/`` or new lines)
        whose size is read from it (``size``, when given, must agree)."""
        if "/" in text or "\n" in text:  # a picture has several rows; moves never have these
            parsed, position = parse_connect4_picture(
                text, DEFAULT_K if params.k is None else params.k
            )
            self.check_size(params, parsed)
            return base.Loaded(parsed, position, None)
        made = self.make(params)
        position, columns = parse_connect4_moves(made, text)
        return base.Loaded(made, position, tuple(columns))

    def position_text(self, loaded: base.Loaded) -> str:
        """The move sequence when known, else the picture with ``/`` between rows."""
        if loaded.moves is None:
            return format_connect4_picture(loaded.position).replace("\n", "/")
        return format_connect4_moves(cast(Connect4Game, loaded.game), loaded.moves)

    def parse_moves(self, game: Any, text: str) -> tuple[Any, list[Any]]:
        """A move sequence (``4453``, ``10,3,4``) played from the empty board."""
        position, columns = parse_connect4_moves(game, text)
        return position, list(columns)

    def moves_text(self, game: Any, moves: Any) -> str:
        """``4453`` (``10,3,4`` on wide boards)."""
        return format_connect4_moves(game, moves)

    def parse_move(self, game: Any, position: Any, text: str) -> int:
        """A 1-based column number; the 0-based column."""
        cleaned = text.strip()
        if not re.fullmatch(r"[0-9]{1,3}", cleaned):
            raise NotationError(
                f"move {quote(text)}: expected a column number from 1 to {game.spec.width}"
            )
        return int(cleaned) - 1

    def move_from_json(self, game: Any, data: base.JSONValue) -> int:
        """``{"column": c}``, 1-based."""
        return column_from_json(data, game.spec.width)

    def label(self, game: Any) -> str:
        """The spec's label."""
        return str(game.spec.label)

    def render(self, game: Any, position: Any, color: bool = False) -> str:
        """The board with column numbers, coloured on a terminal."""
        return render_connect4_board(position, color=color)

    def side_label(self, game: Any, player: int) -> str:
        """``player 1 (x)``."""
        return f"player {player} ({'x' if player == 1 else 'o'})"

    def move_label(self, game: Any, move: int) -> str:
        """``column 4``."""
        return f"column {move + 1}"

    def ending(self, game: Any, win: bool, score: int) -> str:
        """``wins with its 4th stone`` / ``the opponent wins with its 7th stone``."""
        stones = game.spec.max_score + 1 - abs(score)
        who = "wins" if win else "the opponent wins"
        return f"{who} with its {ordinal(stones)} stone"

    def move_entry(self, game: Any) -> str:
        """A column number."""
        return f"a column number 1-{game.spec.width}"

    def move_help(self, game: Any) -> str:
        """Columns from the left."""
        return (
            f"moves: a column number from 1 (left) to {game.spec.width} (right); the stone "
            "falls to the lowest empty cell"
        )

    def board(self, game: Any, position: Any) -> base.BoardView:
        """x and o marks, rows from the top."""
        cells: list[list[base.JSONObject | None]] = list(connect4_cells(position))
        return base.BoardView(game.spec.height, game.spec.width, True, cells)

    def display_cell(self, game: Any, cell: Any) -> tuple[int, int]:
        """``(column, height)`` as ``(row, col)`` from the top."""
        return game.layout.display_cell(cell)  # type: ignore[no-any-return]

    def build_book(
        self,
        game: Any,
        depth: int,
        path: Path,
        options: KernelOptions,
        progress: base.BookProgress | None,
    ) -> int:
        """Solve every position ``depth`` stones deep (one per mirror pair) and write the
        book to exactly ``path``, atomically (a temporary file beside it, then a rename)."""
        from perfectplay.games.connect4.book_builder import build_book

        book = build_book(game, depth, options, progress)
        book.save(path)
        return len(book)

    def book_positions(self, game: Any, depth: int) -> list[Any]:
        """One position per mirror pair among those with ``depth`` stones, by key."""
        from perfectplay.games.connect4.book_builder import check_depth, positions_at

        check_depth(game, depth)
        return positions_at(game, depth)

    def book_key(self, game: Any, position: Any) -> int:
        """The smaller of the solver's keys of the position and its mirror image."""
        from perfectplay.games.connect4.book_builder import canonical_solver_key

        return canonical_solver_key(game, position)

    def book_score(self, game: Any, kernel: Any, table: Any, position: Any) -> int:
        """The solver's exact score of the position."""
        return int(kernel.solve(position, table).score)

    def save_book(
        self, game: Any, depth: int, keys: Sequence[int], scores: Sequence[int], path: Path
    ) -> None:
        """An ``.npz`` book (see :mod:`perfectplay.games.connect4.book`); raises
        :class:`~perfectplay.errors.DataFileError` naming ``path`` for a score no position of
        ``depth`` stones can have (a checkpoint changed by hand), before anything is written."""
        import numpy as np

        from perfectplay.games.connect4.book import OpeningBook, score_bound

        spec = game.spec
        bound = score_bound(spec.width, spec.height, spec.k, depth)
        wrong = next((score for score in scores if not -bound <= score <= bound), None)
        if wrong is not None:
            raise DataFileError(
                f"opening book {quote(str(path), 200)}: score {quote(wrong)} is out of the "
                f"range of its positions, -{bound} to {bound} (a checkpoint changed?)"
            )
        book = OpeningBook(
            spec.width,
            spec.height,
            spec.k,
            depth,
            np.asarray(keys, dtype=np.uint64),
            np.asarray(scores, dtype=np.int8),
        )
        book.save(path)

    def move_cell(self, game: Any, position: Any, move: int) -> tuple[int, int]:
        """Where the stone dropped into the column lands."""
        stone = game.layout.drop(position.mask, move)
        cell: tuple[int, int] = game.layout.display_cell(
            game.layout.cell_of(stone.bit_length() - 1)
        )
        return cell

    def retraction(self, game: Any, position: Any) -> Connect4Retraction:
        """Top stones only."""
        return Connect4Retraction(game)


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


KIT = Connect4Kit()
