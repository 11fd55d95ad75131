"""Opening books and databases are checked before they are believed (issue 27, item 1): a
book says what it is for (game, board, depth, format version) and carries a checksum of its
content; loading refuses, naming the file and the reason, a book that fails any check or
holds a score its positions cannot have, and so does the command line (one line, exit 2).
The databases of ``bitbully-databases``, a dependency's data, are checked for their size and
values the same way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_support import run

from perfectplay import api
from perfectplay.errors import DataFileError
from perfectplay.games.connect4.book import (
    BUNDLED,
    FORMAT_VERSION,
    GAME,
    OpeningBook,
    bundled_book,
    checksum,
    score_bound,
)
from perfectplay.games.connect4.deep_book import (
    DeepBookKind,
    MappedDeepBook,
    read_deep_book,
    valid_distance,
)


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5x4 book of depth 2 built by ``perfectplay book``."""
    path = tmp_path_factory.mktemp("books") / "5x4.npz"
    game, _ = api.new_game("connect4", size="5x4")
    api.build_book(game, 2, str(path))
    return path


def rewritten(source: Path, target: Path, *, fresh_checksum: bool, **changes: object) -> Path:
    """``source`` with its arrays changed by ``changes``, the checksum recomputed for them
    (a tamperer who knows the format) or left as it was."""
    with np.load(source, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files}
    fields.update({name: np.asarray(value) for name, value in changes.items()})
    if fresh_checksum:
        width, height, k, depth = (int(fields[name]) for name in ("width", "height", "k", "depth"))
        fields["checksum"] = np.asarray(
            checksum(width, height, k, depth, fields["keys"], fields["scores"])
        )
    np.savez(target, **fields)
    return target


def test_perfectplay_book_writes_what_the_book_is_for_and_its_checksum(small_book: Path) -> None:
    with np.load(small_book, allow_pickle=False) as data:
        assert str(data["game"]) == GAME and int(data["version"]) == FORMAT_VERSION
        said = str(data["checksum"])
    book = OpeningBook.load(small_book)
    assert (book.width, book.height, book.k, book.depth) == (5, 4, 4, 2)
    assert said == book.checksum() and len(said) == 64


def test_scores_beyond_the_board_are_refused_even_with_a_fitting_checksum(
    small_book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The outside testers' book: every score 100, which made the drawn 5x4 board a win."""
    scores = np.full(len(OpeningBook.load(small_book)), 100, dtype=np.int16)
    tampered = rewritten(small_book, tmp_path / "t.npz", fresh_checksum=True, scores=scores)
    bound = score_bound(5, 4, 4, 2)
    with pytest.raises(DataFileError, match=f"scores from -{bound} to {bound}"):
        OpeningBook.load(tampered)
    code, out, err = run(capsys, "solve", "connect4", "", "--size", "5x4", "--book", str(tampered))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(tampered) in err and f"scores from -{bound} to {bound}" in err
    code, out, _ = run(capsys, "solve", "connect4", "", "--size", "5x4", "--book", str(small_book))
    assert code == 0 and "draw" in out


def test_a_changed_score_in_range_is_caught_by_the_checksum(
    small_book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scores = OpeningBook.load(small_book).scores.copy()
    scores[0] = -scores[0] if scores[0] else 1
    changed = rewritten(small_book, tmp_path / "c.npz", fresh_checksum=False, scores=scores)
    with pytest.raises(DataFileError, match="does not match its checksum"):
        OpeningBook.load(changed)
    code, _, err = run(capsys, "solve", "connect4", "", "--size", "5x4", "--book", str(changed))
    assert code == 2 and str(changed) in err and "checksum" in err


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"game": "tictactoe"}, "a book for 'tictactoe', not connect4"),
        ({"version": 3}, "format version 3, this perfectplay reads version 2"),
        ({"depth": 3}, "does not match its checksum"),
        ({"width": 6}, "does not match its checksum"),
    ],
)
def test_a_book_for_something_else_is_refused(
    small_book: Path, tmp_path: Path, changes: dict[str, object], reason: str
) -> None:
    other = rewritten(small_book, tmp_path / "o.npz", fresh_checksum=False, **changes)
    with pytest.raises(DataFileError, match=reason):
        OpeningBook.load(other)


def test_a_book_of_the_old_format_is_refused_with_what_to_do(
    small_book: Path, tmp_path: Path
) -> None:
    with np.load(small_book, allow_pickle=False) as data:
        fields = {name: data[name] for name in ("width", "height", "k", "depth", "keys", "scores")}
    old = tmp_path / "old.npz"
    np.savez(old, **fields)
    with pytest.raises(DataFileError, match=r"no game, version, checksum .*perfectplay book"):
        OpeningBook.load(old)


def test_the_shipped_books_carry_the_format_and_stay_within_their_range() -> None:
    for (width, height, k), shipped in BUNDLED.items():
        book = bundled_book(width, height, k)
        assert book is not None and book.depth == shipped.depth
        bound = score_bound(width, height, k, book.depth)
        assert -bound <= int(book.scores.min()) <= int(book.scores.max()) <= bound


def test_score_bound_is_the_best_and_worst_score_of_the_depth() -> None:
    assert score_bound(7, 6, 4, 0) == 18  # a win with the 4th stone: 22 - 4
    assert score_bound(6, 6, 4, 8) == 14  # the side to move's next stone is its 5th
    assert score_bound(5, 4, 4, 2) == 7


# -- the databases of bitbully-databases -------------------------------------------------------
def record(code: int, value: int) -> bytes:
    """One 5-byte record of the 12-stone distance database."""
    return code.to_bytes(4, "big") + (value & 0xFF).to_bytes(1, "big")


def test_database_values_out_of_the_formats_range_are_refused(tmp_path: Path) -> None:
    kind = DeepBookKind.TWELVE_DISTANCES
    sound = tmp_path / "sound.dat"
    sound.write_bytes(record(1, 0) + record(2, 99) + record(3, -71))  # 30 plies left at most
    assert read_deep_book(kind, sound).scores.tolist()[0] == 0
    for value in (100, -100, 69, -5, 127):  # no result 0 or over 30 plies from now
        assert not valid_distance(value & 0xFF, 12)
        bad = tmp_path / f"bad{value}.dat"
        bad.write_bytes(record(1, 0) + record(2, value))
        with pytest.raises(DataFileError, match="a value out of the range"):
            read_deep_book(kind, bad)
        mapped = MappedDeepBook(kind, bad)
        with pytest.raises(DataFileError, match=f"value byte {value & 0xFF} is out of"):
            mapped.lookup(2 ^ 0x8000_0000)
    empty = tmp_path / "empty.dat"
    empty.write_bytes(b"")
    for reader in (read_deep_book, MappedDeepBook):
        with pytest.raises(DataFileError, match="empty"):
            reader(kind, empty)


def test_win_draw_loss_databases_hold_only_draws_and_losses(tmp_path: Path) -> None:
    bad = tmp_path / "wdl.dat"
    bad.write_bytes(bytes([0, 0, 4]) + bytes([0, 0, 11]))  # low bits 3: not a mark
    with pytest.raises(DataFileError, match="a value out of the range"):
        read_deep_book(DeepBookKind.EIGHT, bad)


def test_a_book_is_never_written_with_a_score_out_of_range(
    small_book: Path, tmp_path: Path
) -> None:
    """A resumed build takes its checkpoint's scores (JSON lines a person can edit): one out
    of range stops the build before the book is written, with its fresh checksum."""
    game, _ = api.new_game("connect4", size="5x4")
    book = OpeningBook.load(small_book)
    scores = [100, *book.scores.tolist()[1:]]
    out = tmp_path / "never.npz"
    with pytest.raises(DataFileError, match="score 100 is out of the range of its positions"):
        api.kit("connect4").save_book(game, 2, book.keys.tolist(), scores, out)
    assert not out.exists()
