"""Connect Four opening books: exact scores of every position at one depth, built by the
solver itself and consulted by it.

A book of depth ``d`` holds, for every running position with ``d`` stones, the standard score
for the side to move. Positions and their mirror images share one entry, keyed by the smaller
of the two solver keys (``current + mask``, see :mod:`perfectplay.games.connect4.compiled`).
When a search reaches a position with ``d`` stones it reads the score instead of searching
below it, so the empty board is solved by searching only the first ``d`` plies.

Books are ``.npz`` files: ``width``, ``height``, ``k``, ``depth`` and the sorted ``keys`` with
their ``scores``, and what the book is for and that it is whole: ``game`` (``connect4``),
``version`` (:data:`FORMAT_VERSION`) and ``checksum`` (SHA-256 of all the rest, see
:func:`checksum`). Loading checks every one, and every score against the range a position of
the book's depth can have on its board (:func:`score_bound`): a damaged or tampered book, or
one for another game or format, is refused with a :class:`~perfectplay.errors.DataFileError`
naming the file and the reason, never believed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from perfectplay.errors import DataFileError, ParameterError, quote

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class OpeningBook:
    """Exact scores of the positions with ``depth`` stones on one board size."""

    width: int
    height: int
    k: int
    depth: int
    keys: np.ndarray[Any, Any]
    scores: np.ndarray[Any, Any]

    def __len__(self) -> int:
        return len(self.keys)

    def check_board(self, width: int, height: int, k: int) -> None:
        """Raise :class:`ParameterError` when the book is not for a ``width`` x ``height``
        board with ``k`` in a row."""
        if (self.width, self.height, self.k) != (width, height, k):
            raise ParameterError(
                f"opening book for {self.width}x{self.height}: this board is {width}x{height}"
            )

    def score(self, key: int, mirror: Callable[[int], int]) -> int | None:
        """The standard score of the position whose solver key (the side to move's stones
        plus all stones) is ``key``, looked up under the smaller of it and its ``mirror``
        image (a binary search); ``None`` when the book does not hold it."""
        import numpy as np

        wanted = np.uint64(min(key, mirror(key)))
        index = int(np.searchsorted(self.keys, wanted))
        if index < len(self.keys) and self.keys[index] == wanted:
            return int(self.scores[index])
        return None

    def checksum(self) -> str:
        """The SHA-256 (hex) of what the book says: see :func:`checksum`."""
        return checksum(self.width, self.height, self.k, self.depth, self.keys, self.scores)

    def save(self, path: Path) -> None:
        """Write the book as an ``.npz`` file to exactly ``path`` (no suffix is added),
        atomically: a temporary file in the same folder, then a rename. Raises
        :class:`ParameterError` naming the file when it cannot be written, or names something
        that is not a regular file (a device, a folder)."""
        if not path.name or "\x00" in str(path):  # the system refuses a NUL in a name
            raise ParameterError(f"opening book {quote(str(path), 200)}: not a file name")
        import numpy as np

        try:
            if path.exists() and not path.is_file():  # a device or a folder is never replaced
                raise ParameterError(f"opening book {quote(str(path), 200)}: not a regular file")
            with tempfile.NamedTemporaryFile(
                dir=path.parent or Path("."), prefix=f".{path.name}.", delete=False
            ) as handle:
                np.savez_compressed(
                    handle,
                    width=self.width,
                    height=self.height,
                    k=self.k,
                    depth=self.depth,
                    keys=self.keys,
                    scores=self.scores,
                    game=np.array(GAME),
                    version=np.array(FORMAT_VERSION),
                    checksum=np.array(self.checksum()),
                )
                handle.flush()
                os.fchmod(handle.fileno(), FILE_MODE & ~process_umask())  # not the temp's 0600
                os.fsync(handle.fileno())
            os.replace(handle.name, path)
        except OSError as exc:
            raise ParameterError(
                f"opening book {quote(str(path), 200)}: cannot write it ({exc.strerror})"
            ) from None

    @classmethod
    def load(cls, path: Path) -> OpeningBook:
        """Read a book written by :meth:`save`.

        Raises :class:`~perfectplay.errors.DataFileError` naming the file when it is missing,
        unreadable, not an ``.npz`` archive (a plain ``.npy`` array, a truncated or corrupt
        zip, an empty file, an array larger than the memory), or lacks a field, or is for
        another game or format version, or has a field of the wrong shape or out of range (a
        score beyond :func:`score_bound`), or does not match its checksum.
        """
        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as data:
                if not isinstance(data, np.lib.npyio.NpzFile):
                    raise ValueError("not an .npz archive of a book")
                fields = {name: data[name] for name in BOOK_FIELDS}
                fields.update((name, data[name]) for name in META_FIELDS if name in data.files)
        except UNREADABLE as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__  # one line
            if "pickle" in reason:  # numpy's advice to load it with pickle: never for a book
                reason = "it holds pickled Python objects, which a book never does"
            if len(reason) > REASON:  # zipfile quotes whole headers
                reason = reason[: REASON - 3] + "..."
            raise DataFileError(
                f"opening book {quote(str(path), 200)}: not readable ({reason})"
            ) from None
        except (AttributeError, TypeError):  # np.load gave a plain array: no context manager
            raise DataFileError(
                f"opening book {quote(str(path), 200)}: not readable "
                "(not an .npz archive of a book)"
            ) from None
        return cls.from_fields(path, fields)

    @classmethod
    def from_fields(cls, path: Path, fields: dict[str, np.ndarray[Any, Any]]) -> OpeningBook:
        """A book from the arrays of its file; :class:`~perfectplay.errors.DataFileError`
        naming ``path`` when the file is not a book of this format for Connect Four, a number
        is not a scalar in its range, the keys and scores do not match, a score is out of
        the range of the book's positions, or the checksum does not match."""
        _check_format(path, fields)
        width, height, k, depth = _sizes(path, fields)
        bound = score_bound(width, height, k, depth)
        keys, scores = _entries(path, fields["keys"], fields["scores"], bound)
        book = cls(width, height, k, depth, keys, scores)
        if _text(fields["checksum"]) != book.checksum():
            raise DataFileError(
                f"opening book {quote(str(path), 200)}: its content does not match its "
                "checksum (the file is damaged or was changed)"
            )
        return book


def checksum(
    width: int,
    height: int,
    k: int,
    depth: int,
    keys: np.ndarray[Any, Any],
    scores: np.ndarray[Any, Any],
) -> str:
    """The SHA-256 (hex) of a book's game, format version, board, depth, keys (little-endian
    64-bit) and scores (8-bit): what a book file's ``checksum`` holds."""
    digest = hashlib.sha256(
        f"{GAME} {FORMAT_VERSION} {width}x{height} k={k} depth={depth} {len(keys)}".encode()
    )
    digest.update(keys.astype("<u8").tobytes())
    digest.update(scores.astype("i1").tobytes())
    return digest.hexdigest()


def score_bound(width: int, height: int, k: int, depth: int) -> int:
    """The largest score (in absolute value) a running position with ``depth`` stones can
    have on a ``width`` x ``height`` board with ``k`` in a row: the score of a win with the
    side to move's ``s``-th stone is ``(cells + 1) // 2 + 1 - s``, and its next stone is at
    least its ``depth // 2 + 1``-th and at least its ``k``-th (a loss is a win of the other
    side, whose stones are as many or one more)."""
    cells = width * height
    return max(0, (cells + 1) // 2 + 1 - max(k, depth // 2 + 1))


def _text(value: np.ndarray[Any, Any]) -> str | None:
    """The text of a scalar text field, else ``None``."""
    return str(value) if value.shape == () and value.dtype.kind == "U" else None


def _check_format(path: Path, fields: dict[str, np.ndarray[Any, Any]]) -> None:
    """Refuse (:class:`~perfectplay.errors.DataFileError` naming ``path``) a file without
    the fields of this format, or one for another game or format version."""
    missing = [name for name in META_FIELDS if name not in fields]
    if missing:
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: no {', '.join(missing)} (an older or "
            f"foreign format; this perfectplay reads version {FORMAT_VERSION}: build the book "
            "again with perfectplay book)"
        )
    game = _text(fields["game"])
    if game != GAME:
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: a book for {quote(game)}, not {GAME}"
        )
    version = fields["version"]
    if version.shape != () or version.dtype.kind not in "iu" or int(version) != FORMAT_VERSION:
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: format version {quote(version.tolist())}, "
            f"this perfectplay reads version {FORMAT_VERSION} (build the book again)"
        )


def _entries(
    path: Path, keys: np.ndarray[Any, Any], scores: np.ndarray[Any, Any], bound: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The keys (``uint64``) and scores (``int8``) of a book's fields;
    :class:`~perfectplay.errors.DataFileError` naming the file when they do not pair up, are
    not integers, are out of range (a key below 0, a score beyond ``bound``) or the keys are
    not sorted and unique."""
    if keys.ndim != 1 or scores.ndim != 1 or len(keys) != len(scores):
        raise DataFileError(f"opening book {quote(str(path), 200)}: keys and scores do not match")
    if keys.dtype.kind not in "iu" or scores.dtype.kind not in "iu":
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: keys and scores are not integers"
        )
    if len(keys) and (
        int(keys.min()) < 0 or not -bound <= int(scores.min()) <= int(scores.max()) <= bound
    ):
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: keys must be at least 0 and scores from "
            f"-{bound} to {bound} (the range of its positions on its board)"
        )
    import numpy as np

    keys, scores = keys.astype(np.uint64), scores.astype(np.int8)
    if np.any(keys[1:] <= keys[:-1]):
        raise DataFileError(f"opening book {quote(str(path), 200)}: keys must be sorted and unique")
    return keys, scores


def _sizes(path: Path, fields: dict[str, np.ndarray[Any, Any]]) -> tuple[int, int, int, int]:
    """The width, height, k and depth of a book's fields, each checked for its range."""
    width = _number(path, fields, "width", 1, MAX_SIDE)
    height = _number(path, fields, "height", 1, MAX_SIDE)
    k = _number(path, fields, "k", 1, MAX_SIDE)
    return width, height, k, _number(path, fields, "depth", 0, width * height)


def _number(
    path: Path, fields: dict[str, np.ndarray[Any, Any]], name: str, low: int, high: int
) -> int:
    """The whole number of field ``name``; :class:`DataFileError` naming the file, the field
    and the range for an array, another type, or a number out of the range."""
    value = fields[name]
    if value.shape != () or value.dtype.kind not in "iu" or not low <= int(value) <= high:
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: {name} is not a whole number from {low} "
            f"to {high}"
        )
    return int(value)


def process_umask() -> int:
    """The process's umask, read without changing it (Linux states it in ``/proc``; elsewhere
    the usual 022)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return DEFAULT_UMASK


FILE_MODE = 0o666
"""A new file's mode before the umask, as ``open`` makes it."""
DEFAULT_UMASK = 0o022
"""The umask assumed where the system does not state it."""
BOOK_FIELDS = ("width", "height", "k", "depth", "keys", "scores")
"""The arrays of a book file."""
META_FIELDS = ("game", "version", "checksum")
"""The arrays that say what a book file is for and that it is whole."""
GAME = "connect4"
"""The ``game`` field of every book."""
FORMAT_VERSION = 2
"""The book format this code writes and reads (1: no ``game``, ``version``, ``checksum``)."""
MAX_SIDE = 64
"""No side of a board whose bitboard fits 64 bits is longer."""
UNREADABLE = (
    OSError,
    KeyError,
    ValueError,
    EOFError,
    RuntimeError,  # zipfile: an encrypted member, an unknown compression (NotImplementedError)
    MemoryError,  # an array header larger than the memory (the file cannot hold it anyway)
    zipfile.BadZipFile,
    zlib.error,  # corrupt compressed data
)
"""What reading a file that is not a book raises, in numpy and zipfile."""
REASON = 200
"""The longest reason quoted from numpy or zipfile."""


class ShippedBook(NamedTuple):
    """A book shipped with the package: its file in this package's ``data/`` and its depth
    (known without reading the file, and checked when it is read)."""

    file: str
    depth: int


BUNDLED = {
    (7, 6, 4): ShippedBook("connect4-7x6-depth2.npz", 2),
    (6, 6, 4): ShippedBook("connect4-6x6-depth8.npz", 8),  # built by `perfectplay book`
}
"""Books shipped with the package, by (width, height, k); the solver consults them unless
told not to (``--no-book``)."""


@lru_cache(maxsize=8)
def bundled_book(width: int, height: int, k: int) -> OpeningBook | None:
    """The book shipped for this board, or ``None`` (read once per process; books are never
    written after loading)."""
    shipped = BUNDLED.get((width, height, k))
    if shipped is None or bundled_depth(width, height, k) is None:
        return None
    path = shipped_path(shipped)
    book = OpeningBook.load(path)
    if book.depth != shipped.depth or (book.width, book.height, book.k) != (width, height, k):
        raise DataFileError(
            f"opening book {quote(str(path), 200)}: {book.width}x{book.height}, k={book.k}, "
            f"depth {book.depth}; shipped as {width}x{height}, k={k}, depth {shipped.depth}"
        )
    return book


def shipped_path(shipped: ShippedBook) -> Path:
    """Where the package keeps a shipped book."""
    return Path(__file__).resolve().parent / "data" / shipped.file


def bundled_depth(width: int, height: int, k: int) -> int | None:
    """The depth of the book shipped for this board, known without reading it (``None``:
    none shipped, or its file is missing)."""
    shipped = BUNDLED.get((width, height, k))
    if shipped is None or not shipped_path(shipped).exists():
        return None
    return shipped.depth
