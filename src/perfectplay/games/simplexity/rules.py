"""The shape-and-color Connect Four variant ("Simplexity"), as the course's engine plays it.

Rules (``docs/shapecolor-rules.md``): pieces fall down columns; each has a shape (``O``
or ``X``) and a color (red or blue). Player 1 is red and owns ``O``; player 2 is blue and owns
``X``. A move is ``(column, shape)``; the piece has the mover's color. Each player has
``rows * cols / 2`` pieces: ``ceil(half / 2)`` of its own shape and ``floor(half / 2)`` of the
other. Four in a row of one shape wins for that shape's owner, whoever placed them; four of one
color wins for that color's owner; a move making both decides by the shape. The game ends at
the first four; a full board without one is a draw.

Bit layout: the gravity layout of :mod:`perfectplay.games.common.gravity` (``bit = column *
(rows + 1) + row``, row 0 at the bottom, a sentinel bit above every column).

A position holds three bitboards: ``red`` (player 1's pieces), ``blue`` (player 2's) and
``circles`` (the pieces of shape ``O``, of either color). The crosses are
``(red | blue) & ~circles``; the quotas left follow from the counts. For example (4x4)::

    board        red          blue         circles
    . . . .      . . . .      . . . .      . . . .
    . . . .      . . . .      . . . .      . . . .
    . X . .      . . . .      . 1 . .      . . . .
    o O x .      1 . 1 .      . 1 . .      1 1 . .

(lower case red, upper case blue: red played ``1O`` and ``3X``, blue ``2O`` and ``2X``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    ParameterError,
    quote,
)
from perfectplay.games.common.gravity import GravityLayout
from perfectplay.games.kernel import DEFAULT_KERNEL_OPTIONS, KernelOptions
from perfectplay.games.protocol import BaseGame, Outcome, Player
from perfectplay.games.simplexity.board import (
    COLORS,
    EVALUATIONS,
    SHAPES,
    K,
    SimplexityMove,
    SimplexityPosition,
    SimplexitySpec,
    make_spec,
)

__all__ = [
    "EVALUATIONS",
    "SHAPES",
    "SimplexityGame",
    "SimplexityMove",
    "SimplexityPosition",
    "SimplexitySpec",
    "game",
    "make_spec",
]

if TYPE_CHECKING:
    from perfectplay.games.kernel import CompiledEngine
    from perfectplay.games.simplexity.kernel import SimplexityKernel


class SimplexityGame(BaseGame[SimplexityPosition, SimplexityMove]):
    """The rules on one board size. Moves are :class:`SimplexityMove` (0-based column)."""

    name = "simplexity"

    def __init__(self, spec: SimplexitySpec, evaluation: str = EVALUATIONS[0]) -> None:
        if evaluation not in EVALUATIONS:
            raise ParameterError(
                f"evaluation {quote(evaluation)}: unknown; known are {', '.join(EVALUATIONS)}"
            )
        self._spec = spec
        self.evaluation = evaluation
        self.layout = GravityLayout(spec.cols, spec.rows, K)
        self._top = tuple(self.layout.top_cell(c) for c in range(spec.cols))
        self._order = self.layout.centre_first()

    def __repr__(self) -> str:
        return f"SimplexityGame({self._spec.label}, evaluation={self.evaluation!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SimplexityGame)
            and other._spec == self._spec
            and other.evaluation == self.evaluation
        )

    def __hash__(self) -> int:
        return hash(("simplexity", self._spec, self.evaluation))

    def with_evaluation(self, evaluation: str) -> SimplexityGame:
        """The same rules searched with the heuristic ``evaluation`` (one of
        :data:`EVALUATIONS`); raises :class:`ParameterError` for an unknown name."""
        return SimplexityGame(self._spec, evaluation)

    @property
    def spec(self) -> SimplexitySpec:
        """The static facts of this board."""
        return self._spec

    # -- protocol ------------------------------------------------------------------------
    def initial(self) -> SimplexityPosition:
        """The empty board."""
        return SimplexityPosition(self._spec, 0, 0, 0)

    def to_move(self, position: SimplexityPosition) -> Player:
        """Player 1 (red) after an even number of pieces, else player 2 (blue)."""
        return Player.FIRST if position.plies % 2 == 0 else Player.SECOND

    def ply(self, position: SimplexityPosition) -> int:
        """Pieces on the board."""
        return position.plies

    def plies_left_bound(self, position: SimplexityPosition) -> int:
        """Empty cells, 0 once the game is over."""
        return 0 if position.win_mask else self._spec.cells - position.plies

    def quota_left(self, position: SimplexityPosition, player: Player, shape: str) -> int:
        """How many pieces of ``shape`` ``player`` still has."""
        used = position.pieces(player, shape).bit_count()
        return self._spec.quota(player, shape) - used

    def shapes_left(self, position: SimplexityPosition) -> tuple[str, ...]:
        """The shapes the side to move still has pieces of."""
        player = self.to_move(position)
        return tuple(s for s in SHAPES if self.quota_left(position, player, s) > 0)

    def legal_moves(self, position: SimplexityPosition) -> tuple[SimplexityMove, ...]:
        """Every (column, shape) with room and quota, by column then ``O`` before ``X``;
        none once the game is over."""
        if position.win_mask or position.plies == self._spec.cells:
            return ()
        shapes = self.shapes_left(position)
        return tuple(
            SimplexityMove(c, s)
            for c in range(self._spec.cols)
            if not position.mask & self._top[c]
            for s in shapes
        )

    def ordered_moves(self, position: SimplexityPosition) -> tuple[SimplexityMove, ...]:
        """Legal moves, centre columns first, the mover's own shape first."""
        if position.win_mask or position.plies == self._spec.cells:
            return ()
        own = SHAPES[self.to_move(position) - 1]
        shapes = sorted(self.shapes_left(position), key=lambda s: s != own)
        return tuple(
            SimplexityMove(c, s)
            for c in self._order
            if not position.mask & self._top[c]
            for s in shapes
        )

    def play(self, position: SimplexityPosition, move: Any) -> SimplexityPosition:
        """Drop the side to move's piece of ``move.shape`` into ``move.column`` (0-based).

        Raises :class:`GameOverError` after the end, :class:`IllegalMoveError` for a column
        that does not exist or is full, a shape other than ``O``/``X``, or a shape whose quota
        is used up.
        """
        column, shape = self._checked_move(move)
        outcome = self.outcome(position)
        label = f"{column + 1}{shape}"
        if outcome is not None:
            raise GameOverError(f"move {label}: the game is already over ({outcome.reason})")
        if not 0 <= column < self._spec.cols:
            raise IllegalMoveError(
                f"move {label}: no such column, the board has columns 1-{self._spec.cols}"
            )
        if position.mask & self._top[column]:
            raise IllegalMoveError(f"move {label}: column {column + 1} is full")
        player = self.to_move(position)
        if self.quota_left(position, player, shape) <= 0:
            raise IllegalMoveError(
                f"move {label}: player {int(player)} ({COLORS[player - 1]}) has no {shape} "
                f"pieces left (quota {self._spec.quota(player, shape)})"
            )
        return self.play_move(position, SimplexityMove(column, shape))

    @staticmethod
    def _checked_move(move: Any) -> tuple[int, str]:
        try:
            column, shape = move
        except (TypeError, ValueError):
            raise IllegalMoveError(f"move {quote(move)}: a move is (column, shape)") from None
        if isinstance(column, bool) or not isinstance(column, int):
            raise IllegalMoveError(f"move {quote(move)}: the column is a whole number")
        if not isinstance(shape, str) or shape.upper() not in SHAPES:
            raise IllegalMoveError(f"move {quote(move)}: the shape is 'O' or 'X'")
        return column, shape.upper()

    def play_move(self, position: SimplexityPosition, move: SimplexityMove) -> SimplexityPosition:
        """Unchecked fast path of :meth:`play` for a legal move of a running game."""
        piece = self.layout.drop(position.mask, move.column)
        red, blue, circles = position.red, position.blue, position.circles
        if position.plies % 2 == 0:
            red |= piece
            color = red
        else:
            blue |= piece
            color = blue
        if move.shape == "O":
            circles |= piece
            shape = circles
        else:
            shape = (red | blue) & ~circles
        line = self.layout.line_through(shape, piece) or self.layout.line_through(color, piece)
        return SimplexityPosition(self._spec, red, blue, circles, line)

    def winner_of_line(self, position: SimplexityPosition, line: int) -> tuple[Player, str]:
        """Who a four ``line`` of ``position`` wins for, and why (shape beats color)."""
        if line & position.circles == line:
            return Player.FIRST, "four O shapes"
        if line & position.crosses == line:
            return Player.SECOND, "four X shapes"
        if line & position.red == line:
            return Player.FIRST, "four red pieces"
        return Player.SECOND, "four blue pieces"

    def outcome(self, position: SimplexityPosition) -> Outcome | None:
        """The deciding four's owner, a draw on a full board, else ``None``."""
        if position.win_mask:
            winner, why = self.winner_of_line(position, position.win_mask)
            cells = self.layout.cells_of(position.win_mask)
            return Outcome(winner, f"{why}: player {int(winner)} wins", cells)
        if position.plies == self._spec.cells:
            return Outcome(None, "the board is full")
        return None

    def key(self, position: SimplexityPosition) -> Hashable:
        """``(red, blue, circles)``."""
        return (position.red, position.blue, position.circles)

    def canonical_form(self, position: SimplexityPosition) -> tuple[Hashable, int]:
        """The smaller of the key and the mirrored key, with the symmetry (0 or 1) giving it."""
        plain = (position.red, position.blue, position.circles)
        mirror = self.layout.mirror
        mirrored = (mirror(position.red), mirror(position.blue), mirror(position.circles))
        return (plain, 0) if plain <= mirrored else (mirrored, 1)

    def canonical_key(self, position: SimplexityPosition) -> Hashable:
        """The key shared with the mirror image."""
        return self.canonical_form(position)[0]

    def map_move(self, move: SimplexityMove, symmetry: int) -> SimplexityMove:
        """A move under the symmetry of :meth:`canonical_form`."""
        if not symmetry:
            return move
        return SimplexityMove(self._spec.cols - 1 - move.column, move.shape)

    def unmap_move(self, move: SimplexityMove, symmetry: int) -> SimplexityMove:
        """The inverse of :meth:`map_move` (the mirror is its own inverse)."""
        return self.map_move(move, symmetry)

    def evaluate(self, position: SimplexityPosition) -> float:
        """The game's heuristic (:attr:`evaluation`), for the side to move."""
        from perfectplay.games.simplexity.heuristics import evaluate

        return evaluate(self, position, self.evaluation)

    def kernel(self, options: KernelOptions = DEFAULT_KERNEL_OPTIONS) -> SimplexityKernel:
        """A compiled engine for this board (:mod:`perfectplay.games.simplexity.kernel`)."""
        from perfectplay.games.simplexity.kernel import SimplexityKernel

        return SimplexityKernel(self, options)

    def compiled_engine(self) -> CompiledEngine:
        """The engine :meth:`kernel` searches with."""
        from perfectplay.games.simplexity.kernel import ENGINE

        return ENGINE

    def move_to_json(self, move: SimplexityMove) -> dict[str, Any]:
        """``{"column": c, "shape": "O"|"X"}``, the column 1-based."""
        return {"column": move.column + 1, "shape": move.shape}

    def format_move(self, move: SimplexityMove) -> str:
        """``4O``: the 1-based column and the shape."""
        return f"{move.column + 1}{move.shape}"

    def player_name(self, player: Player) -> str:
        """ "1" or "2"."""
        return str(int(player))

    # -- conversions -----------------------------------------------------------------------
    def conventional_score(self, position: SimplexityPosition, win: bool, plies: int) -> int:
        """Connect Four's convention: ``(cells + 1) // 2 + 1 - s`` with ``s`` the pieces the
        winner has played at the end, positive for a win of the side to move."""
        value = self.score_of_plies(position, plies, win)
        return value if win else -value

    def score_of_plies(self, position: SimplexityPosition, plies: int, win: bool) -> int:
        """The magnitude of the score of a result ``plies`` away: ``(cells + 1) // 2 + 1``
        minus the pieces the winner has played at the end (a win handed over by the loser's
        last piece counts the winner's own pieces too)."""
        end = position.plies + plies
        winner_first = (position.plies % 2 == 0) == win
        pieces = (end + 1) // 2 if winner_first else end // 2
        return (self._spec.cells + 1) // 2 + 1 - pieces

    def finished_score(self, position: SimplexityPosition) -> int:
        """A finished board's score for the side to move: positive when it has won (the
        opponent handed it the four), negative when it lost, 0 for a draw."""
        outcome = self.outcome(position)
        if outcome is None or outcome.winner is None:
            return 0
        pieces = (position.red if outcome.winner is Player.FIRST else position.blue).bit_count()
        value = (self._spec.cells + 1) // 2 + 1 - pieces
        return value if outcome.winner == self.to_move(position) else -value

    # -- construction from a board --------------------------------------------------------
    def from_bits(self, red: int, blue: int, circles: int) -> SimplexityPosition:
        """A validated position from the three bitboards (in the layout above).

        Raises :class:`IllegalPositionError` for overlapping pieces, pieces off the board,
        floating pieces, impossible counts (red has as many pieces as blue or one more),
        quotas exceeded, or fours that no game ending at its first four leaves.
        """
        self._check_bits(red, blue, circles)
        position = SimplexityPosition(self._spec, red, blue, circles)
        fours = self._fours(position)
        if not fours:
            return position
        last = Player.FIRST if red.bit_count() > blue.bit_count() else Player.SECOND
        mover = red if last is Player.FIRST else blue
        tops = self.layout.tops(position.mask) & mover
        while tops:
            piece = tops & -tops
            tops ^= piece
            before = SimplexityPosition(self._spec, red & ~piece, blue & ~piece, circles & ~piece)
            if all(line & piece for line in fours) and not self._fours(before):
                shape = "O" if circles & piece else "X"
                column = self.layout.cell_of(piece.bit_length() - 1)[0]
                return self.play_move(before, SimplexityMove(column, shape))
        raise IllegalPositionError(
            "no legal game reaches this board: its fours cannot all have been completed by "
            f"player {int(last)}'s last piece (the game ends at the first four)"
        )

    def _check_bits(self, red: int, blue: int, circles: int) -> None:
        for name, bits in (("red", red), ("blue", blue), ("circles", circles)):
            if isinstance(bits, bool) or not isinstance(bits, int) or bits < 0:
                raise IllegalPositionError(
                    f"{name}={quote(bits)}: a bitboard is a whole number >= 0"
                )
        if red & blue:
            raise IllegalPositionError("a cell holds pieces of both colors")
        mask = red | blue
        if mask & ~self.layout.board or circles & ~mask:
            raise IllegalPositionError("pieces lie outside the board")
        floating = self.layout.floating(mask)
        if floating:
            columns = sorted({c + 1 for c, _ in self.layout.cells_of(floating)})
            raise IllegalPositionError(
                f"a piece floats above an empty cell in column {', '.join(map(str, columns))}"
            )
        n_red, n_blue = red.bit_count(), blue.bit_count()
        if n_red not in (n_blue, n_blue + 1):
            raise IllegalPositionError(
                f"impossible piece counts: red (player 1) has {n_red} and blue (player 2) has "
                f"{n_blue}; red moves first, so it has as many pieces as blue or one more"
            )
        position = SimplexityPosition(self._spec, red, blue, circles)
        for player in Player:
            for shape in SHAPES:
                used = position.pieces(player, shape).bit_count()
                if used > self._spec.quota(player, shape):
                    raise IllegalPositionError(
                        f"player {int(player)} ({COLORS[player - 1]}) has {used} {shape} pieces "
                        f"but only {self._spec.quota(player, shape)} to play"
                    )

    def _fours(self, position: SimplexityPosition) -> list[int]:
        """Every window of four filled with one shape or one color."""
        boards = (position.circles, position.crosses, position.red, position.blue)
        return [w for w in self.layout.windows for b in boards if b & w == w]


def game(rows: int = 6, cols: int = 7, evaluation: str = EVALUATIONS[0]) -> SimplexityGame:
    """The game on a ``rows`` x ``cols`` board searched with the heuristic ``evaluation``;
    see :func:`make_spec` for the checks."""
    return SimplexityGame(make_spec(rows, cols), evaluation)
