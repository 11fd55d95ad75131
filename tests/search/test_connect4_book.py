"""Opening books: built by the solver, consulted by it, never changing a score."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from perfectplay.errors import ParameterError
from perfectplay.games.connect4.book import OpeningBook
from perfectplay.games.connect4.book_builder import build_book, positions_at
from perfectplay.games.connect4.rules import Connect4Game, Connect4Position, game

SMALL = game(5, 4)


@pytest.fixture
def book() -> Iterator[OpeningBook]:
    built = build_book(SMALL, 3)
    yield built
    SMALL.kernel().use_book(None)


def random_positions(g: Connect4Game, count: int, seed: int) -> list[Connect4Position]:
    rng = random.Random(seed)
    found: list[Connect4Position] = []
    while len(found) < count:
        position = g.initial()
        for _ in range(rng.randint(0, 9)):
            moves = g.legal_moves(position)
            if not moves:
                break
            position = g.play(position, rng.choice(moves))
        if g.outcome(position) is None:
            found.append(position)
    return found


def test_book_holds_one_entry_per_mirror_pair(book: OpeningBook) -> None:
    every = {SMALL.key(p) for p in positions_at(SMALL, 3)}
    assert len(book) == len(every) == len(positions_at(SMALL, 3))
    assert np.all(book.keys[1:] > book.keys[:-1])


def test_scores_are_the_same_with_and_without_the_book(book: OpeningBook) -> None:
    kernel = SMALL.kernel()
    table = kernel.new_table(1 << 16)
    for position in random_positions(SMALL, 40, seed=3):
        kernel.use_book(None)
        table.clear()
        plain = kernel.solve(position, table)
        kernel.use_book(book)
        table.clear()
        booked = kernel.solve(position, table)
        assert plain.score == booked.score, str(position)
    table.clear()
    assert kernel.solve(SMALL.initial(), table).nodes < 1_000  # the book cuts the tree


def test_save_and_load_round_trip(book: OpeningBook, tmp_path: Path) -> None:
    path = tmp_path / "book.npz"
    book.save(path)
    loaded = OpeningBook.load(path)
    assert (loaded.width, loaded.height, loaded.k, loaded.depth) == (5, 4, 4, 3)
    assert np.array_equal(loaded.keys, book.keys) and np.array_equal(loaded.scores, book.scores)
    umask = os.umask(0o022)  # the test's own process: set, then restored
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() makes files, not 0600


def test_bad_books_are_refused(book: OpeningBook, tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match="not readable"):
        OpeningBook.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a book")
    with pytest.raises(ParameterError, match=r"junk\.npz"):
        OpeningBook.load(junk)
    with pytest.raises(ParameterError, match="5x4"):
        game(6, 4).kernel().use_book(book)
    with pytest.raises(ParameterError, match="depth"):
        build_book(SMALL, 99)


# -- the book shipped for 7x6 ------------------------------------------------------------------
STANDARD = game(7, 6)
FIRST_MOVES = [-2, -1, 0, 1, 0, -1, -2]
"""The standard score of each first move on 7x6 for the first player (columns 1 to 7): only
the centre wins, with the last stone (score 1)."""


def test_the_shipped_7x6_book_covers_every_position_with_two_stones() -> None:
    from perfectplay.games.connect4.book import bundled_book
    from perfectplay.games.connect4.book_builder import canonical_solver_key

    shipped = bundled_book(7, 6, 4)
    assert shipped is not None and shipped.depth == 2
    expected = sorted(canonical_solver_key(STANDARD, p) for p in positions_at(STANDARD, 2))
    assert [int(key) for key in shipped.keys] == expected
    assert STANDARD.kernel().book is not None  # consulted by default


def test_with_the_book_the_empty_7x6_board_solves_at_once() -> None:
    kernel = STANDARD.kernel()
    table = kernel.new_table(1 << 16)
    assert kernel.solve(STANDARD.initial(), table).score == 1
    scores = []
    for column in range(7):
        child = STANDARD.play_column(STANDARD.initial(), column)
        table.clear()
        solved = kernel.solve(child, table)
        assert solved.nodes < 10_000  # the book answers below the first two plies
        scores.append(-solved.score)
    assert scores == FIRST_MOVES


def test_a_timed_search_proves_the_whole_winning_line_from_the_books() -> None:
    from perfectplay import api

    result = api.solve(STANDARD, STANDARD.initial(), api.limit(time=0.5))
    assert result.exact and str(result.score) == "win in 41"
    assert result.best_move == 3
    assert len(result.pv) == 41  # the whole game: the first player wins with its 21st stone
    position = STANDARD.initial()
    for move in result.pv:
        position = STANDARD.play(position, move)
    outcome = STANDARD.outcome(position)
    assert outcome is not None and outcome.winner == STANDARD.to_move(STANDARD.initial())


SIX_BY_SIX = game(6, 6)


def test_the_shipped_6x6_book_covers_every_position_with_eight_stones() -> None:
    from perfectplay.games.connect4.book import bundled_book
    from perfectplay.games.connect4.book_builder import canonical_solver_key

    shipped = bundled_book(6, 6, 4)
    assert shipped is not None and shipped.depth == 8 and len(shipped) == 37_062
    expected = sorted(canonical_solver_key(SIX_BY_SIX, p) for p in positions_at(SIX_BY_SIX, 8))
    assert [int(key) for key in shipped.keys] == expected
    assert SIX_BY_SIX.kernel().book is not None  # consulted by default


def test_entries_of_the_shipped_6x6_book_equal_fresh_solves() -> None:
    """Forty random entries (mirror images included) against the solver without the book."""
    from perfectplay.games.connect4.book import bundled_book
    from perfectplay.games.connect4.book_builder import canonical_solver_key
    from perfectplay.games.kernel import KernelOptions

    shipped = bundled_book(6, 6, 4)
    assert shipped is not None
    scores = dict(
        zip((int(k) for k in shipped.keys), (int(s) for s in shipped.scores), strict=True)
    )
    kernel = SIX_BY_SIX.kernel(KernelOptions(book=False, table_bits=20))
    table = kernel.new_table(1 << 20)
    positions = positions_at(SIX_BY_SIX, 8)
    for position in random.Random(6).sample(positions, 40):
        if position.first % 3 == 0:  # about a third: the mirror image reads the same entry
            position = replace(
                position,
                first=SIX_BY_SIX.mirror(position.first),
                second=SIX_BY_SIX.mirror(position.second),
            )
        table.clear()
        solved = kernel.solve(position, table).score
        assert scores[canonical_solver_key(SIX_BY_SIX, position)] == solved


def test_with_the_book_the_empty_6x6_board_solves_at_once() -> None:
    from perfectplay import api

    result = api.solve(SIX_BY_SIX, SIX_BY_SIX.initial())
    assert result.exact and str(result.score) == "loss in 36"  # the second player wins
    assert result.nodes < 200_000  # a search of eight plies down to the book
