"""The deep 7x6 opening books of the ``bitbully-databases`` package (MIT), read with our own
code: exact values of every 7x6 position of 8 or 12 stones that the side to move cannot win
at once.

A position is keyed by a Huffman-style code, read column by column from the left, each column
from the bottom up::

    first player's stone  10        second player's stone  11
    end of a column       0         (after its last stone, also when it is full)
    then one more 0 as padding

With 12 stones that is ``2 * 12 + 7 + 1 = 32`` bits; with 8 stones 24 bits. For a board of
two stones, ``4`` then ``45``, the code reads (columns 1..7)::

    0 | 0 | 0 | 10 11 0 | 0 | 0 | 0 | 0      -> 0b000_10110_0000_0 (then padded)

A position and its mirror image share one record: a lookup tries the code of the position,
then the code of its mirror image. The files are sorted by code.

============================  =====================================  ====================
file                          record                                 values
============================  =====================================  ====================
``book_8ply.dat``             3 bytes big-endian: code | value       value in the low 2
                                                                     bits: 0 draw, 1 loss;
                                                                     absent: a win
``book_12ply.dat``            4 bytes big-endian, signed: code |     the same
                              value
``book_12ply_distances.dat``  4 bytes code (signed), 1 byte value    ``100 - d`` when the
                                                                     side to move wins ``d``
                                                                     plies from now,
                                                                     ``-(100 - d)`` when it
                                                                     loses, 0 a draw
============================  =====================================  ====================

The files are a dependency's data, so nothing in them is believed unchecked: a file must be
a whole, non-empty number of records, its codes sorted, and every value one the format can
hold (a distance from 1 to the plies left, a win/draw/loss mark); anything else is refused
with a :class:`~perfectplay.errors.DataFileError` naming the file and the reason.

The side to move is always the first player (the stone counts are even). Values are
converted here to the standard score (:mod:`perfectplay.games.connect4.compiled`): a win with
the winner's ``s``-th stone is ``22 - s``. Codes are kept as offset-binary ``uint32`` (the
signed code plus ``2**31``), so that the files' signed order is the arrays' unsigned order.
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perfectplay.errors import DataFileError, ParameterError, quote

if TYPE_CHECKING:
    import numpy as np

WIDTH, HEIGHT = 7, 6
"""The only board these books are for."""
DEEP_BOARD = (WIDTH, HEIGHT, 4)
"""Width, height and k of that board."""
TOP = (WIDTH * HEIGHT + 1) // 2 + 1
"""The standard score of a win with a 0th stone on 7x6: 22."""
SIGN_FLIP = 0x8000_0000
"""XOR with this turns a two's-complement 32-bit code into offset binary."""
DISTANCE_BASE = 100
"""The distance book stores ``100 - plies`` for a win, its negative for a loss."""
PACKAGE = "bitbully_databases"
"""The Python package that ships the book files (its ``assets/`` folder)."""


class DeepBookKind(Enum):
    """The three books of ``bitbully-databases``: file, stones, record size, and whether the
    values are exact scores (distances) or only win, draw or loss."""

    EIGHT = ("book_8ply.dat", 8, 3, False)
    TWELVE = ("book_12ply.dat", 12, 4, False)
    TWELVE_DISTANCES = ("book_12ply_distances.dat", 12, 5, True)

    @property
    def file_name(self) -> str:
        """The file in the package's ``assets/``."""
        return str(self.value[0])

    @property
    def stones(self) -> int:
        """The stones on the board of every position in the book."""
        return int(self.value[1])

    @property
    def record_bytes(self) -> int:
        """Bytes a record."""
        return int(self.value[2])

    @property
    def exact(self) -> bool:
        """Whether values are exact scores, not only win, draw or loss."""
        return bool(self.value[3])


@dataclass(frozen=True)
class DeepBook:
    """One book in memory: sorted offset-binary ``codes`` (``uint32``) and the standard score
    of each for the side to move (``scores``, ``int8``); in a win/draw/loss book the scores
    are 1, 0 and -1, and a position it lacks is a win (:meth:`score` says so)."""

    kind: DeepBookKind
    codes: np.ndarray[Any, Any]
    scores: np.ndarray[Any, Any]

    def __len__(self) -> int:
        return len(self.codes)

    def lookup(self, code: int) -> int | None:
        """The stored score of an offset-binary code, or ``None`` when it has no record."""
        import numpy as np

        index = int(np.searchsorted(self.codes, np.uint32(code)))
        if index < len(self.codes) and int(self.codes[index]) == code:
            return int(self.scores[index])
        return None

    def score(self, first: int, mask: int) -> int | None:
        """The score for the side to move of the position whose first player holds the
        stones ``first`` among ``mask`` (bitboards in the solver's column layout), tried as
        it is and mirrored. ``None`` when an exact book lacks it; a win/draw/loss book answers
        1 for a position it lacks (its convention). Raises :class:`ParameterError` when the
        position has not the book's number of stones."""
        stones = mask.bit_count()
        if stones != self.kind.stones:
            raise ParameterError(
                f"position of {stones} stones: the {self.kind.stones}-stone book holds no such"
            )
        for mirrored in (False, True):
            found = self.lookup(position_code(first, mask, mirrored))
            if found is not None:
                return found
        return None if self.kind.exact else 1


class MappedDeepBook:
    """An exact book's file searched where it lies (memory-mapped; a binary search reads a
    few dozen records a lookup): the handful of lookups of an answer that needs no search,
    without reading the 21 MB file or importing numpy (the kernel reads the whole book,
    :func:`kernel_words`)."""

    def __init__(self, kind: DeepBookKind, path: Path) -> None:
        """The book of ``kind`` in ``path``. Raises :class:`ParameterError` for a book without
        exact scores, :class:`~perfectplay.errors.DataFileError` naming the file for one that
        cannot be mapped or is not a whole, non-empty number of records (a lookup refuses a
        value out of the format's range the same way)."""
        if not kind.exact:
            raise ParameterError(f"{kind.file_name}: holds no exact scores")
        try:
            with path.open("rb") as handle:
                self.data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:  # ValueError: an empty file cannot be mapped
            raise DataFileError(
                f"opening book {quote(str(path), 200)}: not readable ({exc})"
            ) from None
        _check_size(path, kind, len(self.data))
        self.kind, self.path = kind, path

    def lookup(self, code: int) -> int | None:
        """The standard score of an offset-binary code, or ``None`` when it has no record
        (the file is sorted by signed code: offset binary compares in the same order)."""
        size, data = self.kind.record_bytes, self.data
        low, high = 0, len(data) // size
        while low < high:
            middle = (low + high) // 2
            start = middle * size
            found = int.from_bytes(data[start : start + 4], "big") ^ SIGN_FLIP
            if found < code:
                low = middle + 1
            elif found > code:
                high = middle
            else:
                return checked_score(self.path, data[start + 4], self.kind.stones)
        return None

    def score(self, first: int, mask: int) -> int | None:
        """The score for the side to move of a position of the book's number of stones
        (``first``: the first player's stones among ``mask``, in the solver's layout), tried
        as it is and mirrored; ``None`` when the book lacks it (the side to move wins at
        once)."""
        for mirrored in (False, True):
            found = self.lookup(position_code(first, mask, mirrored))
            if found is not None:
                return found
        return None


def installed_mapped_book(
    kind: DeepBookKind = DeepBookKind.TWELVE_DISTANCES,
) -> MappedDeepBook | None:
    """The exact book of ``kind`` from the installed ``bitbully-databases``, mapped (see
    :class:`MappedDeepBook`), or ``None`` when the package is missing."""
    path = database_path(kind)
    return None if path is None else MappedDeepBook(kind, path)


def position_code(first: int, mask: int, mirrored: bool = False) -> int:
    """The offset-binary code of a 7x6 position (the oracle of the compiled twin in
    :mod:`perfectplay.games.connect4.compiled`): ``first`` the first player's stones,
    ``mask`` all stones, read from the rightmost column first when ``mirrored``. Only
    positions of 8 or 12 stones make codes of the books' widths (24 or 32 bits)."""
    code = 0
    stride = HEIGHT + 1
    for index in range(WIDTH):
        column = WIDTH - 1 - index if mirrored else index
        for row in range(HEIGHT):
            bit = 1 << (column * stride + row)
            if not mask & bit:
                break
            code = code << 2 | (0b10 if first & bit else 0b11)
        code <<= 1
    code <<= 1
    return code ^ SIGN_FLIP if mask.bit_count() == 12 else code


def position_of_code(code: int, stones: int) -> tuple[int, int]:
    """``(first, mask)`` of an offset-binary code of a position of ``stones`` stones: the
    inverse of :func:`position_code` (not mirrored). Raises :class:`ParameterError` when the
    code does not describe a 7x6 position of that many stones."""
    bits = (code ^ SIGN_FLIP if stones == 12 else code) >> 1  # drop the padding
    width = 2 * stones + WIDTH
    symbols = [(bits >> (width - 1 - i)) & 1 for i in range(width)]
    first = mask = column = row = 0
    index = 0
    while index < len(symbols):
        if symbols[index] == 0:
            column, row, index = column + 1, 0, index + 1
            continue
        if column >= WIDTH or row >= HEIGHT or index + 1 >= len(symbols):
            raise ParameterError(f"book code {code}: not a 7x6 position of {stones} stones")
        bit = 1 << (column * (HEIGHT + 1) + row)
        mask |= bit
        first |= bit if symbols[index + 1] == 0 else 0
        row, index = row + 1, index + 2
    if column != WIDTH or mask.bit_count() != stones:
        raise ParameterError(f"book code {code}: not a 7x6 position of {stones} stones")
    return first, mask


def database_path(kind: DeepBookKind) -> Path | None:
    """Where the installed ``bitbully-databases`` keeps ``kind``'s file, or ``None`` when the
    package (or the file) is not there."""
    from importlib.util import find_spec

    spec = find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "assets" / kind.file_name
        if path.is_file():
            return path
    return None


def read_deep_book(kind: DeepBookKind, path: Path) -> DeepBook:
    """Read a book file of ``kind`` (format in the module docstring) and convert its values
    to standard scores. Raises :class:`~perfectplay.errors.DataFileError` naming the file
    when it cannot be read, its size is not a whole, non-empty number of records, a value is
    out of the format's range, or its codes are not sorted."""
    import numpy as np

    try:
        raw = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: not readable ({exc.strerror})"
        ) from None
    size = kind.record_bytes
    _check_size(path, kind, len(raw))
    if kind.exact:
        records = raw.view(np.dtype([("code", ">u4"), ("value", "i1")]))
        codes = records["code"].astype(np.uint32) ^ np.uint32(SIGN_FLIP)
        values = records["value"].view(np.uint8)
        if not np.all(_valid_bytes(kind.stones)[values]):
            raise _bad_value(path, kind)
        scores = distance_table(kind.stones)[values]
    else:
        words = np.zeros(len(raw) // size, dtype=np.uint32)
        for column in range(size):  # big-endian
            words = words << np.uint32(8) | raw[column::size]
        if np.any((words & np.uint32(3)) > 1):  # 0 a draw, 1 a loss: nothing else
            raise _bad_value(path, kind)
        scores = -(words & np.uint32(3)).astype(np.int8)
        words &= ~np.uint32(3)
        codes = words ^ np.uint32(SIGN_FLIP) if size == 4 else words
    codes = codes.astype(np.uint32)
    if len(codes) > 1 and not np.all(codes[1:] > codes[:-1]):
        raise DataFileError(f"opening book {quote(str(path), 200)}: codes are not sorted")
    return DeepBook(kind, codes, scores.astype(np.int8, copy=False))


def _check_size(path: Path, kind: DeepBookKind, size: int) -> None:
    """Refuse (:class:`~perfectplay.errors.DataFileError` naming ``path``) a file of ``size``
    bytes that is not a whole, non-empty number of ``kind``'s records."""
    records = kind.record_bytes
    if size == 0 or size % records:
        problem = "empty" if size == 0 else f"not a whole number of {records}-byte records"
        raise DataFileError(f"opening book {quote(str(path), 200)}: {problem}")


def _bad_value(path: Path, kind: DeepBookKind) -> DataFileError:
    """The refusal of a book file holding a value its format cannot hold."""
    return DataFileError(
        f"opening book {quote(str(path), 200)}: a value out of the range of {kind.file_name} "
        f"(positions of {kind.stones} stones)"
    )


def valid_distance(byte: int, stones: int) -> bool:
    """Whether a distance book's value byte (read unsigned) is one a position of ``stones``
    stones can have: 0 (a draw), or ``100 - d`` or its negative for a result ``d`` plies
    from now, ``d`` from 1 to the plies left."""
    value = byte - 256 if byte > 127 else byte
    return value == 0 or 1 <= DISTANCE_BASE - abs(value) <= WIDTH * HEIGHT - stones


@lru_cache(maxsize=4)
def _valid_bytes(stones: int) -> np.ndarray[Any, Any]:
    """:func:`valid_distance` of every byte value, as a boolean array indexed by the byte."""
    import numpy as np

    return np.array([valid_distance(byte, stones) for byte in range(256)], dtype=bool)


def checked_score(path: Path, byte: int, stones: int) -> int:
    """:func:`distance_score` of a value byte read from the book file ``path``; raises
    :class:`~perfectplay.errors.DataFileError` naming the file for a value out of range."""
    if not valid_distance(byte, stones):
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: value byte {byte} is out of the range of "
            f"a position of {stones} stones"
        )
    return distance_score(byte, stones)


def distance_score(byte: int, stones: int) -> int:
    """The standard score of a distance book's value byte (read unsigned, meaning a signed
    8-bit value), for a position of ``stones`` stones: the side to move, the first player,
    has placed ``stones // 2``; a win ``d`` plies from now comes with its
    ``stones // 2 + (d + 1) // 2``-th stone, a loss ``d`` plies from now with the opponent's
    ``stones // 2 + d // 2``-th."""
    value = byte - 256 if byte > 127 else byte
    if value == 0:
        return 0
    placed, plies = stones // 2, DISTANCE_BASE - abs(value)
    if value > 0:
        return TOP - (placed + (plies + 1) // 2)
    return -(TOP - (placed + plies // 2))


def distance_table(stones: int) -> np.ndarray[Any, Any]:
    """:func:`distance_score` of every byte value (indexed by the byte read unsigned), as
    ``int8``: what a whole book's values are converted with."""
    import numpy as np

    return np.array([distance_score(byte, stones) for byte in range(256)], dtype=np.int8)


@lru_cache(maxsize=4)
def installed_deep_book(kind: DeepBookKind = DeepBookKind.TWELVE_DISTANCES) -> DeepBook | None:
    """The book of ``kind`` from the installed ``bitbully-databases``, read once per process
    (books are never written after loading), or ``None`` when the package is missing."""
    path = database_path(kind)
    return None if path is None else read_deep_book(kind, path)


def kernel_words(book: DeepBook) -> np.ndarray[Any, Any]:
    """The book as the compiled solver reads it (``deep`` in
    :mod:`perfectplay.games.connect4.compiled`): ``code << 8 | score + 128``, sorted.
    Raises :class:`ParameterError` for a book without exact scores, which the solver cannot
    use."""
    import numpy as np

    if not book.kind.exact:
        raise ParameterError(f"{book.kind.file_name}: holds no exact scores for the solver")
    scores = (book.scores.astype(np.int64) + 128).astype(np.uint64)
    return (book.codes.astype(np.uint64) << np.uint64(8)) | scores


@lru_cache(maxsize=1)
def installed_kernel_words() -> np.ndarray[Any, Any] | None:
    """:func:`kernel_words` of the installed 12-stone distance book, built once per process
    and shared by every kernel (never written), or ``None`` without the package."""
    kind = DeepBookKind.TWELVE_DISTANCES
    path = database_path(kind)  # read here, not through the cache: the words are all kept
    return None if path is None else kernel_words(read_deep_book(kind, path))
