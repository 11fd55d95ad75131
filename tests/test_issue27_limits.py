"""Issue 27, item 6: limits that took nonsense are refused up front, in one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run

from perfectplay import api
from perfectplay.cli.serve import MIN_CAP_S
from perfectplay.errors import ParameterError


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused command writes on stderr (exit 2, nothing on stdout)."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("perfectplay: error: "), err
    return err


@pytest.mark.parametrize("cap", ["0.0005", "1e-320", "0.049"])
def test_serve_refuses_a_cap_below_the_minimum(
    capsys: pytest.CaptureFixture[str], cap: str
) -> None:
    err = refused(capsys, "serve", "--cap", cap, "--port", "1")
    assert f"--cap {float(cap):g}: must be from {MIN_CAP_S:g} to 600 seconds" in err


@pytest.mark.parametrize("db", ["", "  "])
def test_serve_refuses_an_empty_db_name(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert "--db" in refused(capsys, "serve", "--db", db, "--port", "1")


@pytest.mark.parametrize("option", ["--svg", "--dot"])
def test_tree_refuses_an_empty_picture_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, "tree", "tictactoe", "xox/oox/___", option, "")
    assert f"{option} '': an empty file name" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("book_path", [5, b"book.npz", ""])
def test_kernel_options_refuses_a_book_path_that_is_no_file_name(book_path: object) -> None:
    with pytest.raises(ParameterError, match=r"^--book .*: must be the name of a book file$"):
        api.kernel_options(book_path=book_path)  # type: ignore[arg-type]


def test_kernel_options_takes_a_path(tmp_path: Path) -> None:
    assert api.kernel_options(book_path=tmp_path / "b.npz").book_path == tmp_path / "b.npz"  # type: ignore[arg-type]


@pytest.mark.parametrize("depth", ["1000", "17", "42"])
def test_perft_refuses_a_depth_as_large_as_the_whole_tree(
    capsys: pytest.CaptureFixture[str], depth: str
) -> None:
    err = refused(capsys, "perft", "connect4", "--depth", depth)
    assert "perft connect4 7x6" in err and "far too large to count" in err and "--depth" in err


def test_perft_still_counts_a_depth_within_the_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "perft", "tictactoe", "--depth", "1000", "--json")
    assert code == 0, err
    assert '"nodes": 549946' in out.replace("\n", "")
