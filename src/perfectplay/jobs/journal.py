"""The output of a batch job: JSON lines appended as answers arrive, which ``--resume`` can
trust.

Each line is one JSON object with at least ``index`` (the input line, from 0) and
``position`` (as the input gave it), written whole with its newline and flushed, so a run
killed at any moment leaves complete lines and at most one half-written last line. A resumed
run reads the file, cuts off that half line (the only change ever made to what is there),
checks every complete line against the input, and appends the rest. Lines already written
are never rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from perfectplay.errors import ConflictError, ParameterError, quote


def output_path(text: str) -> Path:
    """The output file named by ``text``; :class:`ParameterError` when it names no file (an
    empty name, a folder, a NUL byte)."""
    path = Path(text)
    if not text or text.endswith("/") or "\x00" in text or path.is_dir():
        raise ParameterError(f"--out {quote(text)}: needs the name of a file, not a folder")
    return path


def check_new(path: Path) -> None:
    """Raise :class:`ParameterError` when ``path`` already holds answers (a fresh run would
    mix with them) or its folder does not exist."""
    try:
        holds_answers = path.exists() and (not path.is_file() or path.stat().st_size > 0)
    except OSError as exc:
        raise ParameterError(f"--out {quote(str(path))}: cannot be used ({exc.strerror})") from None
    if holds_answers:
        raise ParameterError(
            f"--out {quote(str(path))}: already exists; pass --resume to go on with it, "
            "or remove it"
        )
    if not path.parent.is_dir():
        raise ParameterError(f"--out {quote(str(path))}: no such folder")


def recover(path: Path, positions: Sequence[str]) -> dict[int, dict[str, object]]:
    """The answers already in ``path`` by index (none when it does not exist), after
    cutting off a half-written last line. Raises :class:`ConflictError` naming the line when
    a complete line is not an answer to this input (another input, a changed file, a line
    written twice)."""
    try:
        there = path.exists()
    except OSError as exc:
        raise ParameterError(f"--out {quote(str(path))}: cannot be used ({exc.strerror})") from None
    if not there:
        check_new(path)
        return {}
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParameterError(f"--out {quote(str(path))}: cannot be read ({exc.strerror})") from None
    whole = data.rfind(b"\n") + 1
    if whole < len(data):
        with path.open("r+b") as handle:  # the torn line of a killed run, never a whole one
            handle.truncate(whole)
    done: dict[int, dict[str, object]] = {}
    for number, raw in enumerate(data[:whole].splitlines(), start=1):
        index, line = _answered(raw, number, positions, path)
        if index in done:
            raise ConflictError(f"{path} line {number}: index {index} is there twice")
        done[index] = line
    return done


def _answered(
    raw: bytes, number: int, positions: Sequence[str], path: Path
) -> tuple[int, dict[str, object]]:
    """One complete line and its index, checked against the input."""
    where = f"{path} line {number}"
    try:
        line = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ConflictError(f"{where}: not a JSON answer; is this the output of a batch?") from None
    index = line.get("index") if isinstance(line, dict) else None
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(positions):
        raise ConflictError(
            f"{where}: index {quote(index)} is not a line of the input ({len(positions)} lines)"
        )
    if line.get("position") != positions[index]:
        raise ConflictError(
            f"{where}: index {index} answers {quote(line.get('position'))}, but input line "
            f"{index + 1} is {quote(positions[index])}: not the same input"
        )
    return index, line


class Journal:
    """The output file opened for appending; :meth:`write` adds one line, flushed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def __enter__(self) -> Journal:
        try:
            self._handle = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise ParameterError(
                f"--out {quote(str(self.path))}: cannot be written ({exc.strerror})"
            ) from None
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._handle is not None:
            self._handle.close()

    def write(self, text: str) -> None:
        """Append ``text`` (one line of JSON, without its newline) and flush it."""
        assert self._handle is not None and "\n" not in text
        self._handle.write(text + "\n")
        self._handle.flush()
