"""A cold process answers what needs no deep search without loading numba or the kernels.

Each check runs in a fresh interpreter and asserts on ``sys.modules`` (never on time): the
library (``import perfectplay``, tic-tac-toe's 3x3 board searched by the generic alpha-beta,
a finished position, a Connect Four position every move of which the 12-stone book answers)
and the command line (``best``, ``analyze``, ``solve`` of those, ``--help``, ``--version``,
and error paths). The values the books give are checked against the compiled solver's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from perfectplay import api
from perfectplay.search.solver import SearchOptions
from perfectplay.search.solver import analyze as search_analyze
from perfectplay.search.solver import solve as search_solve

HEAVY = ("numba", "llvmlite", "perfectplay.games.connect4.kernel", "perfectplay.games.mnk.kernel")
"""Modules a cold answer must not import: the compiler and the kernel drivers over it."""
BOOK_POSITION = "44444412222"
"""Eleven stones: every move leads to a twelve-stone position of the deep book."""


def cold(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter, then report which :data:`HEAVY` modules it
    imported and what it left in ``result`` (JSON); fails when the process fails."""
    script = textwrap.dedent(code) + textwrap.dedent(
        f"""
        import json as _json, sys as _sys
        _loaded = [name for name in {HEAVY!r} if name in _sys.modules]
        print(_json.dumps({{"loaded": _loaded, "result": globals().get("result")}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return report


def cold_cli(tmp_path: Path, *argv: str) -> tuple[int, str, str, list[str]]:
    """``perfectplay argv`` in a fresh interpreter: exit status, stdout, stderr and the
    :data:`HEAVY` modules it imported (written to a file in ``tmp_path``, so that neither
    stream is touched)."""
    modules = tmp_path / "modules.json"
    script = textwrap.dedent(
        f"""
        import json, sys
        from perfectplay.cli import main
        try:
            code = main({list(argv)!r})
        finally:
            loaded = [name for name in {HEAVY!r} if name in sys.modules]
            with open({str(modules)!r}, "w") as handle:
                json.dump(loaded, handle)
        raise SystemExit(code)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    loaded: list[str] = json.loads(modules.read_text())
    return done.returncode, done.stdout, done.stderr, loaded


def test_import_perfectplay_is_light() -> None:
    report = cold(
        """
        import sys
        import perfectplay
        result = [name for name in ("numpy", "rich", "perfectplay.api") if name in sys.modules]
        """
    )
    assert report == {"loaded": [], "result": []}


def test_small_board_solved_without_numba() -> None:
    report = cold(
        """
        import perfectplay
        found = perfectplay.solve(*perfectplay.load("tictactoe", "xox/oox/___"))
        result = [str(found.best_move), str(found.score)]
        """
    )
    assert report == {"loaded": [], "result": ["Cell(row=2, col=2)", "win in 1"]}


def test_small_board_values_are_the_kernels() -> None:
    game, position = api.load("tictactoe", "x__/_o_/___")
    generic = api.analyze(game, position)
    kernel = search_analyze(game, position, search=SearchOptions(engine="kernel"))
    assert [(v.move, v.score) for v in generic] == [(v.move, v.score) for v in kernel]
    solved = search_solve(game, position, search=SearchOptions(engine="kernel"))
    assert api.solve(game, position).score == solved.score


def test_finished_position_without_numba() -> None:
    report = cold(
        """
        import perfectplay
        game, position = perfectplay.load("connect4", "1212121")
        found = perfectplay.solve(game, position)
        result = [found.best_move, str(found.score), perfectplay.analyze(game, position)]
        """
    )
    assert report == {"loaded": [], "result": [None, "loss in 0", []]}


def test_book_positions_answered_without_numba_and_exactly() -> None:
    report = cold(
        f"""
        import sys
        import perfectplay
        game, position = perfectplay.load("connect4", "{BOOK_POSITION}")
        values = perfectplay.analyze(game, position)
        found = perfectplay.solve(game, position)
        result = [[[v.move, v.score.value] for v in values], found.best_move, found.score.value]
        result.append("numpy" in sys.modules)  # the deep book is read without numpy too
        """
    )
    game, position = api.load("connect4", BOOK_POSITION)
    kernel = SearchOptions(engine="kernel")
    expected = [[v.move, v.score.value] for v in search_analyze(game, position, search=kernel)]
    solved = search_solve(game, position, search=kernel)
    assert report == {
        "loaded": [],
        "result": [expected, solved.best_move, solved.score.value, False],
    }


@pytest.mark.parametrize(
    "argv",
    [
        ("best", "tictactoe", "xox/oox/___"),
        ("analyze", "tictactoe", "xox/oox/___"),
        ("solve", "tictactoe", "xox/oox/___", "--json"),
        ("best", "connect4", BOOK_POSITION),
        ("analyze", "connect4", BOOK_POSITION, "--json"),
        ("solve", "connect4", BOOK_POSITION),
        ("solve", "tictactoe", "xxx/oo_/___"),
        ("solve", "connect4", BOOK_POSITION, "--weak"),
        ("analyze", "connect4", BOOK_POSITION, "--weak"),
        ("--help",),
        ("--version",),
        ("warm", "--help"),
    ],
)
def test_cli_answers_without_numba(tmp_path: Path, argv: tuple[str, ...]) -> None:
    code, out, err, loaded = cold_cli(tmp_path, *argv)
    assert (code, loaded) == (0, []), err
    assert out


def test_opening_book_positions_answered_without_numba() -> None:
    report = cold(
        """
        import perfectplay
        found = perfectplay.solve(*perfectplay.load("connect4", "4"))
        result = [found.best_move, str(found.score)]
        """
    )
    game, position = api.load("connect4", "4")
    solved = search_solve(game, position, search=SearchOptions(engine="kernel"))
    assert report == {"loaded": [], "result": [solved.best_move, str(solved.score)]}


def test_weak_book_answers_are_the_kernels() -> None:
    game, position = api.load("connect4", BOOK_POSITION)
    kernel = SearchOptions(engine="kernel")
    assert (
        api.solve(game, position, weak=True).score
        == search_solve(game, position, weak=True, search=kernel).score
    )
    expected = search_analyze(game, position, weak=True, search=kernel)
    assert api.analyze(game, position, weak=True) == expected


def test_cli_book_answer_is_exact(tmp_path: Path) -> None:
    code, out, _, _ = cold_cli(tmp_path, "solve", "connect4", BOOK_POSITION, "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["best_move"], data["outcome"], data["plies"]) == ({"column": 2}, "win", 31)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("best", "chess", "x"), "unknown; known games are"),
        (("best", "tictactoe", "xoq/___/___"), "xoq"),
        (("analyze", "connect4", "48"), "48"),
        (("solve", "tictactoe", "xox/oox/___", "--threads", "0"), "--threads"),
        (("best", "tictactoe", "xox/oox/___", "--bogus"), "unrecognized arguments"),
        (("warm", "chess"), "unknown"),
    ],
)
def test_cli_errors_without_numba(tmp_path: Path, argv: tuple[str, ...], words: str) -> None:
    code, out, err, loaded = cold_cli(tmp_path, *argv)
    assert (code, out, loaded) == (2, "", [])
    assert words in err


def test_library_errors_without_numba() -> None:
    report = cold(
        """
        import perfectplay
        from perfectplay.errors import PerfectplayError
        result = []
        for call in (
            lambda: perfectplay.load("chess", "x"),
            lambda: perfectplay.load("tictactoe", "xoq/___/___"),
            lambda: perfectplay.load("connect4", "48"),
            lambda: perfectplay.kernel_options(threads=0),
        ):
            try:
                call()
            except PerfectplayError as exc:
                result.append(type(exc).__name__)
        """
    )
    assert report == {
        "loaded": [],
        "result": ["UnknownGameError", "NotationError", "IllegalMoveError", "ParameterError"],
    }
