"""The exact values a Connect Four search reads from its books, read without the compiled
solver: the opening book of the options (the one shipped for the board, or a file) at its
depth, the deep 12-stone 7x6 book of ``bitbully-databases``, and a win with the next stone.

These are the values the solver itself would read at those positions
(:mod:`perfectplay.games.connect4.compiled` consults the same books), so a position every
child of which is answered here needs no search: ``perfectplay analyze connect4 44444412222``
(eleven stones, every child a twelve-stone book position) is answered in milliseconds, without
loading numba or numpy. Lookups are binary searches: the opening book's sorted keys (read
with numpy, and only for a position of its depth), the deep book's memory-mapped records.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from perfectplay.games.connect4.book import OpeningBook, bundled_book, bundled_depth
from perfectplay.games.connect4.deep_book import (
    DEEP_BOARD,
    DeepBookKind,
    MappedDeepBook,
    installed_mapped_book,
)
from perfectplay.games.kernel import KernelOptions
from perfectplay.values import WIN

if TYPE_CHECKING:
    from perfectplay.games.connect4.rules import Connect4Game, Connect4Position

DEEP_KIND = DeepBookKind.TWELVE_DISTANCES
"""The deep book the solver reads (exact distances)."""


class Connect4Books:
    """The books of one board under one set of kernel options (an
    :class:`~perfectplay.games.kernel.OpeningBooks`)."""

    def __init__(
        self,
        game: Connect4Game,
        book: tuple[int, Callable[[], OpeningBook | None]] | None,
        deep: MappedDeepBook | None,
    ) -> None:
        """``book``: the depth of the opening book the options ask for and how to have it
        (read on the first position of that depth), or ``None``; ``deep``: the deep 7x6
        book, or ``None`` (not consulted)."""
        self.game, self.book, self.deep = game, book, deep

    @classmethod
    def of(cls, game: Connect4Game, options: KernelOptions) -> Connect4Books | None:
        """The books ``options`` ask for on ``game``'s board, as the kernel would consult
        them, or ``None`` when there are none. Raises
        :class:`~perfectplay.errors.ParameterError` naming a book file that cannot be read or
        is for another board (a file named in the options is read here, the shipped book
        when a position of its depth is looked up)."""
        spec = game.spec
        book: tuple[int, Callable[[], OpeningBook | None]] | None = None
        if options.book_path is not None:
            loaded = OpeningBook.load(options.book_path)
            loaded.check_board(spec.width, spec.height, spec.k)
            book = (loaded.depth, lambda: loaded)
        elif options.book:
            depth = bundled_depth(spec.width, spec.height, spec.k)
            if depth is not None:
                book = (depth, partial(bundled_book, spec.width, spec.height, spec.k))
        deep = None
        if options.book and (spec.width, spec.height, spec.k) == DEEP_BOARD:
            deep = installed_mapped_book(DEEP_KIND)
        return None if book is None and deep is None else cls(game, book, deep)

    def reach(self) -> int | None:
        """Positions with at least ``cells - depth`` plies left, ``depth`` the deepest book's
        stones, are answered after a short search (what the kernel's ``book_reach`` says)."""
        depths = [] if self.book is None else [self.book[0]]
        if self.deep is not None:
            depths.append(self.deep.kind.stones)
        return self.game.spec.cells - max(depths) if depths else None

    def value(self, position: Connect4Position) -> int | None:
        """The exact value (``WIN - plies`` scale) of a running position for its side to
        move: a win with the next stone, or the score of the book of its number of stones;
        ``None`` otherwise."""
        game = self.game
        moves = game.legal_moves(position)
        if any(game.play_column(position, column).win_mask for column in moves):
            return WIN - 1
        score = self.score(position)
        if score is None:
            return None
        if score == 0:
            return 0
        plies = game.plies_of(position, score)
        return WIN - plies if score > 0 else -(WIN - plies)

    def score(self, position: Connect4Position) -> int | None:
        """The standard score the books hold for a running position the side to move cannot
        win at once, or ``None``."""
        if self.book is not None and position.plies == self.book[0]:
            book = self.book[1]()
            if book is not None:
                return book.score(position.to_move_stones + position.mask, self.game.mirror)
        if self.deep is not None and position.plies == self.deep.kind.stones:
            return self.deep.score(position.first, position.mask)
        return None
