"""Issue 27, item 7: no error message longer than about 300 characters (a long input echoed
is cut in the middle), argparse's own messages included; the --book error does not pass on
numpy's advice to load the file with pickle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_support import run

from perfectplay.errors import MAX_MESSAGE, MAX_WORD, NotationError, ParameterError, shorten

LONG = "9" * 4301
LINE = 300  # a message echoing one long input, with its "perfectplay: error: "


def last_line(err: str) -> str:
    return err.splitlines()[-1]


def test_shorten_cuts_long_words_in_the_middle_keeping_the_name_and_the_reason() -> None:
    message = f"move 1 ({'4' * 4000}Q): the shape is O or X"
    short = shorten(message)
    assert len(short) <= len("move 1 (): the shape is O or X") + MAX_WORD
    assert short.startswith("move 1 (4444") and short.endswith("4Q): the shape is O or X")
    assert shorten("short") == "short"


def test_shorten_cuts_a_long_message_of_short_words() -> None:
    short = shorten("unrecognized arguments: " + "x " * 2000 + "(the end)")
    assert len(short) == MAX_MESSAGE and " ... " in short and short.endswith("(the end)")


def test_every_perfectplay_error_is_cut() -> None:
    error = ParameterError(f"--size {'9' * 5000}: too large")
    assert len(str(error)) <= 200 and str(error).endswith(": too large")


@pytest.mark.parametrize(
    "argv",
    [
        ["best", "simplexity", "4" * 4000 + "Q"],  # the shape error reached 4,332 characters
        ["best", "simplexity", "4O " * 1300 + "4" * 80 + "O"],
        ["best", "tictactoe", "x", "--frob", LONG],  # argparse: unrecognized arguments
        [LONG],  # argparse: invalid choice of verb
        ["best", "tictactoe", "x", "--eval", LONG],
        ["perft", "tictactoe", "--depth", LONG],
    ],
    ids=["shape", "column", "unrecognized", "verb", "eval", "depth"],
)
def test_cli_error_lines_are_short(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    line = last_line(err)
    assert "error:" in line and len(line) <= LINE, len(line)


def test_simplexity_shape_error_still_names_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NotationError, match=r"move 1 \(444444\.\.\.Q\): the shape is O or X$"):
        from perfectplay import api

        api.load("simplexity", "4" * 4000 + "Q")


def test_book_error_does_not_advise_pickle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "book.npy"
    np.save(path, np.array([{"score": 1}], dtype=object), allow_pickle=True)
    code, out, err = run(capsys, "best", "connect4", "4", "--book", str(path))
    assert (code, out) == (2, "")
    assert "opening book" in err and "not readable" in err
    assert "allow_pickle" not in err and "pickle.load" not in err and "trust" not in err
