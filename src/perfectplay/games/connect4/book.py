"""Connect Four opening books: exact scores of every position at one depth, built by the
solver itself and consulted by it.

A book of depth ``d`` holds, for every running position with ``d`` stones, the standard score
for the side to move. Positions and their mirror images share one entry, keyed by the smaller
of the two solver keys (``current + mask``, see :mod:`perfectplay.games.connect4.compiled`).
When a search reaches a position with ``d`` stones it reads the score instead of searching
below it, so the empty board is solved by searching only the first ``d`` plies.

Books are ``.npz`` files: ``width``, ``height``, ``k``, ``depth`` and the sorted ``keys`` with
their ``scores``.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.errors import ParameterError


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

    def save(self, path: Path) -> None:
        """Write the book as an ``.npz`` file to exactly ``path`` (no suffix is added),
        atomically: a temporary file in the same folder, then a rename. Raises
        :class:`ParameterError` naming the file when it cannot be written, or names something
        that is not a regular file (a device, a folder)."""
        if not path.name:
            raise ParameterError(f"opening book {str(path)!r}: not a file name")
        if path.exists() and not path.is_file():  # a device or a folder is never replaced
            raise ParameterError(f"opening book {str(path)!r}: not a regular file")
        try:
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
                )
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(handle.name, path)
        except OSError as exc:
            raise ParameterError(
                f"opening book {str(path)!r}: cannot write it ({exc.strerror})"
            ) from None

    @classmethod
    def load(cls, path: Path) -> OpeningBook:
        """Read a book written by :meth:`save`.

        Raises :class:`ParameterError` naming the file when it is missing, unreadable, not an
        ``.npz`` archive (a plain ``.npy`` array, a truncated zip, an empty file), or lacks a
        field, or has a field of the wrong shape.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                if not isinstance(data, np.lib.npyio.NpzFile):
                    raise ValueError("not an .npz archive of a book")
                fields = {name: data[name] for name in BOOK_FIELDS}
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            reason = str(exc) or type(exc).__name__
            raise ParameterError(f"opening book {str(path)!r}: not readable ({reason})") from None
        except (AttributeError, TypeError):  # np.load gave a plain array: no context manager
            raise ParameterError(
                f"opening book {str(path)!r}: not readable (not an .npz archive of a book)"
            ) from None
        return cls.from_fields(path, fields)

    @classmethod
    def from_fields(cls, path: Path, fields: dict[str, np.ndarray[Any, Any]]) -> OpeningBook:
        """A book from the arrays of its file; :class:`ParameterError` naming ``path`` when
        a number is not a scalar or the keys and scores do not match."""
        numbers = []
        for name in ("width", "height", "k", "depth"):
            value = fields[name]
            if value.shape != () or value.dtype.kind not in "iu":
                raise ParameterError(f"opening book {str(path)!r}: {name} is not a whole number")
            numbers.append(int(value))
        keys, scores = fields["keys"], fields["scores"]
        if keys.ndim != 1 or scores.ndim != 1 or len(keys) != len(scores):
            raise ParameterError(f"opening book {str(path)!r}: keys and scores do not match")
        if keys.dtype.kind not in "iu" or scores.dtype.kind not in "iu":
            raise ParameterError(f"opening book {str(path)!r}: keys and scores are not integers")
        keys, scores = keys.astype(np.uint64), scores.astype(np.int8)
        if np.any(keys[1:] <= keys[:-1]):
            raise ParameterError(f"opening book {str(path)!r}: keys must be sorted and unique")
        width, height, k, depth = numbers
        return cls(width, height, k, depth, keys, scores)


BOOK_FIELDS = ("width", "height", "k", "depth", "keys", "scores")
"""The arrays of a book file."""

BUNDLED = {(7, 6, 4): "connect4-7x6-depth2.npz"}
"""Books shipped with the package (in this package's ``data/``), by (width, height, k); the
solver consults them unless told not to (``--no-book``)."""


@lru_cache(maxsize=8)
def bundled_book(width: int, height: int, k: int) -> OpeningBook | None:
    """The book shipped for this board, or ``None`` (read once per process; books are never
    written after loading)."""
    name = BUNDLED.get((width, height, k))
    if name is None:
        return None
    path = Path(__file__).resolve().parent / "data" / name
    return OpeningBook.load(path) if path.exists() else None
