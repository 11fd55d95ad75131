"""The deep 7x6 books of ``bitbully-databases``, read by our own code: the position code, the
score conversion, the solver's use of them, and entries checked against our solver without
any book."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from perfectplay import api
from perfectplay.contract import score_json
from perfectplay.errors import ParameterError
from perfectplay.games.connect4 import compiled
from perfectplay.games.connect4.deep_book import (
    DeepBook,
    DeepBookKind,
    installed_deep_book,
    position_code,
    position_of_code,
    read_deep_book,
)
from perfectplay.games.connect4.rules import Connect4Position, game
from perfectplay.games.kernel import KernelOptions

STANDARD = game()
NO_BOOK = api.kernel_options(book=False)


def book(kind: DeepBookKind) -> DeepBook:
    found = installed_deep_book(kind)
    assert found is not None, "bitbully-databases is a dependency"
    return found


def bits_of_matrix(matrix: list[list[int]]) -> tuple[int, int]:
    """``(first, mask)`` of a board matrix as the books' package writes it: top row first,
    1 the first player, 2 the second, 0 empty."""
    first = mask = 0
    for row_from_top, row in enumerate(matrix):
        for column, cell in enumerate(row):
            if cell:
                bit = 1 << (column * 7 + (len(matrix) - 1 - row_from_top))
                mask |= bit
                first |= bit if cell == 1 else 0
    return first, mask


# The examples documented by the books' package: the value it states, and the same value on
# the standard scale (a win with the mover's s-th stone is 22 - s).
DOCUMENTED = [
    # 71: the first player wins 29 plies from now, with its 6 + 15 = 21st stone
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 1, 0, 2, 0, 0, 0],
            [0, 2, 0, 1, 0, 2, 0],
            [0, 1, 0, 2, 0, 1, 0],
            [0, 2, 0, 1, 0, 2, 0],
        ],
        1,
    ),
    # -88: it loses 12 plies from now, to the opponent's 6 + 6 = 12th stone
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 1, 1, 0, 0, 0],
            [0, 0, 2, 2, 0, 0, 0],
            [0, 1, 2, 1, 0, 0, 0],
            [0, 1, 1, 2, 0, 2, 2],
        ],
        -10,
    ),
    # 73: a win 27 plies from now, with its 6 + 14 = 20th stone
    (
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0, 0],
            [0, 2, 2, 0, 1, 0, 0],
            [0, 2, 1, 0, 2, 0, 0],
            [1, 1, 2, 1, 2, 0, 0],
        ],
        2,
    ),
]


@pytest.mark.parametrize(("matrix", "score"), DOCUMENTED)
def test_documented_positions_read_their_documented_values(
    matrix: list[list[int]], score: int
) -> None:
    first, mask = bits_of_matrix(matrix)
    assert book(DeepBookKind.TWELVE_DISTANCES).score(first, mask) == score
    assert book(DeepBookKind.TWELVE).score(first, mask) == (score > 0) - (score < 0)
    position = STANDARD.from_bits(first, mask & ~first)
    with_books = api.solve(STANDARD, position)
    data: dict[str, Any] = score_json(STANDARD, position, with_books.score)
    assert int(data["score"]) == score


def test_codes_round_trip_and_the_compiled_code_equals_the_reference() -> None:
    driver = STANDARD.kernel(NO_BOOK)
    rng = random.Random(7)
    for kind in DeepBookKind:
        entries = book(kind)
        for index in rng.sample(range(len(entries)), 200):
            code = int(entries.codes[index])
            first, mask = position_of_code(code, kind.stones)
            assert position_code(first, mask) == code
            mirrored = position_code(STANDARD.mirror(first), STANDARD.mirror(mask))
            assert position_code(first, mask, mirrored=True) == mirrored
            if kind.stones == 12:  # the solver's twin, on the code width it reads
                for flip in (False, True):
                    compiled_code = compiled.position_code(
                        np.uint64(first), np.uint64(mask), 12, flip, driver.work
                    )
                    assert int(compiled_code) == position_code(first, mask, flip)


def test_a_code_that_is_no_position_is_refused() -> None:
    with pytest.raises(ParameterError, match="not a 7x6 position of 12 stones"):
        position_of_code(0xFFFF_FFFF, 12)


def test_a_book_file_that_is_cut_or_unsorted_is_refused(tmp_path: Path) -> None:
    cut = tmp_path / "cut.dat"
    cut.write_bytes(bytes(7))
    with pytest.raises(ParameterError, match="not a whole number of 5-byte records"):
        read_deep_book(DeepBookKind.TWELVE_DISTANCES, cut)
    unsorted = tmp_path / "unsorted.dat"
    unsorted.write_bytes(bytes([0, 0, 0, 8, 0, 0, 0, 0, 4, 0]))
    with pytest.raises(ParameterError, match="codes are not sorted"):
        read_deep_book(DeepBookKind.TWELVE_DISTANCES, unsorted)
    with pytest.raises(ParameterError, match="not readable"):
        read_deep_book(DeepBookKind.EIGHT, tmp_path / "missing.dat")


def test_a_twelve_stone_position_is_answered_by_one_lookup() -> None:
    entries = book(DeepBookKind.TWELVE_DISTANCES)
    first, mask = position_of_code(int(entries.codes[1234]), 12)
    position = STANDARD.from_bits(first, mask & ~first)
    kernel = STANDARD.kernel()
    table = kernel.new_table(1 << 16)
    solved = kernel.solve(position, table)
    assert solved.score == entries.score(first, mask)
    assert solved.nodes <= 3  # each probe of the score's range is one node: the lookup
    without = STANDARD.kernel(NO_BOOK).solve(position, kernel.new_table(1 << 20))
    assert (without.score, without.nodes > 1000) == (solved.score, True)


def _solved(position: Connect4Position, exact: bool, options: KernelOptions | None) -> int:
    chosen = NO_BOOK if options is None else options
    result = api.solve(STANDARD, position, weak=not exact, options=chosen)
    data: dict[str, Any] = score_json(STANDARD, position, result.score)
    return int(data["score"])


SAMPLES = {
    DeepBookKind.TWELVE_DISTANCES: 120,
    DeepBookKind.TWELVE: 80,
    DeepBookKind.EIGHT: 25,  # 8 stones: about 0.6 s each without a book
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(SAMPLES), ids=lambda kind: kind.file_name)
def test_random_book_entries_equal_our_solver_without_books(kind: DeepBookKind) -> None:
    """Entries drawn at random, half of them mirrored, against our own solver with every
    book off: strong for the distance book, weak for the win/draw/loss books."""
    entries = book(kind)
    rng = random.Random(2026)
    mirrored = 0
    for index in rng.sample(range(len(entries)), SAMPLES[kind]):
        first, mask = position_of_code(int(entries.codes[index]), kind.stones)
        if rng.random() < 0.5:
            first, mask = STANDARD.mirror(first), STANDARD.mirror(mask)
            mirrored += 1
        position = STANDARD.from_bits(first, mask & ~first)
        assert _solved(position, kind.exact, NO_BOOK) == entries.score(first, mask), index
    assert 0 < mirrored < SAMPLES[kind]


def test_positions_the_eight_stone_book_lacks_are_wins_and_the_deep_book_agrees() -> None:
    """Eight-stone entries (and positions it lacks, wins by its convention) against our solver
    searching down to the twelve-stone book: two books of one source that must agree."""
    entries = book(DeepBookKind.EIGHT)
    rng = random.Random(8)
    for index in rng.sample(range(len(entries)), 100):
        first, mask = position_of_code(int(entries.codes[index]), 8)
        position = STANDARD.from_bits(first, mask & ~first)
        weak = api.solve(STANDARD, position, weak=True)
        data: dict[str, Any] = score_json(STANDARD, position, weak.score)
        assert int(data["score"]) == entries.score(first, mask)


def random_position(rng: random.Random, stones: int) -> Connect4Position:
    """A random 7x6 position of ``stones`` stones reached without a win on the way."""
    position = STANDARD.initial()
    while position.plies < stones:
        moves = [
            m for m in STANDARD.legal_moves(position) if not STANDARD.play(position, m).win_mask
        ]
        position = STANDARD.play(position, rng.choice(moves))
    return position


def test_every_move_of_opening_positions_equals_the_solver_without_books() -> None:
    rng = random.Random(11)
    for stones in (9, 10, 11):
        position = random_position(rng, stones)
        with_books = api.analyze(STANDARD, position)
        without = api.analyze(STANDARD, position, options=NO_BOOK)
        assert [(e.move, e.score) for e in with_books] == [(e.move, e.score) for e in without]


def test_an_engine_keeps_its_table_and_analyses_as_the_function_does() -> None:
    """``Engine.analyze`` values every move as ``analyze`` does, on one table kept across
    calls (emptied between positions), in every game with a kernel."""
    engine = api.Engine(STANDARD)
    rng = random.Random(3)
    for stones in (4, 11, 13):
        position = random_position(rng, stones)
        engine.clear()
        kept = [(e.move, e.score) for e in engine.analyze(position)]
        assert kept == [(e.move, e.score) for e in api.analyze(STANDARD, position)]
    game, board = api.load("tictactoe", "xox/oox/___")
    assert [str(e.score) for e in api.Engine(game).analyze(board)] == [
        str(e.score) for e in api.analyze(game, board)
    ]
