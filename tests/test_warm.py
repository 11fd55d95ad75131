"""Compiling ahead of time (``perfectplay warm``, :func:`perfectplay.api.warm`) and the notice
of a first compile: when numba's cache lacks an engine (an empty ``NUMBA_CACHE_DIR``), a
command says so in one line on stderr before compiling, and its clock starts after the
compile; once compiled, nothing is said.

The shape-and-color engine is the one compiled here: the smallest (about 15 s).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perfectplay import api
from perfectplay.games.compile_cache import cached, decorator_lines

COMMAND = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
"""``perfectplay`` in a process of its own."""
SMALL = "simplexity"
"""The game whose engine compiles fastest."""


def perfectplay(*argv: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``perfectplay argv`` in a process of its own (numba's cache in ``cache`` when given)."""
    environment = dict(os.environ)
    if cache is not None:
        environment["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [*COMMAND, *argv], capture_output=True, text=True, env=environment, timeout=600
    )


def test_warm_help_says_what_it_does() -> None:
    done = perfectplay("warm", "--help")
    assert done.returncode == 0
    assert "compile the compiled engines ahead of time" in done.stdout
    assert "--time" in done.stdout  # time limits never count the compile


def test_warm_unknown_game_is_a_one_line_error() -> None:
    done = perfectplay("warm", "chess")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert "game 'chess': unknown" in done.stderr


def test_warm_names_each_engine() -> None:
    done = perfectplay("warm", SMALL, "sc")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("simplexity: the shape-and-color engine: ")
    assert done.stdout.count("\n") == 1  # one engine, named twice: warmed once
    assert "warming the shape-and-color engine (1 of 1)" in done.stderr


def test_api_warm_reports_each_engine_once() -> None:
    told: list[tuple[str, int, int]] = []
    warmed = api.warm([SMALL], progress=lambda *args: told.append(args))
    assert [(w.game_name, w.engine.label) for w in warmed] == [
        ("simplexity", "the shape-and-color engine")
    ]
    assert told == [("the shape-and-color engine", 0, 1), ("", 1, 1)]
    assert cached(warmed[0].engine)
    assert api.warm(["nim"]) == []  # a game without a compiled engine


def test_engine_to_compile_none_without_a_compile() -> None:
    assert api.engine_to_compile(*api.load("tictactoe", "xox/oox/___")) is None  # generic
    assert api.engine_to_compile(*api.load("connect4", "1212121")) is None  # finished
    assert api.engine_to_compile(*api.load("connect4", "44444412222")) is None  # the books


def test_decorator_lines_name_the_first_decorator() -> None:
    source = "@njit(\n    cache=True,\n)\n@other\ndef kernel(x):\n    pass\n\ndef plain():\n"
    assert decorator_lines(source) == {"kernel": 1}


def to_compile(position: str, cache: Path) -> str:
    """What :func:`perfectplay.api.engine_to_compile` says of ``position`` of the small game,
    asked in a process whose numba cache is ``cache``."""
    script = (
        "from perfectplay import api; "
        f"engine = api.engine_to_compile(*api.load({SMALL!r}, {position!r})); "
        "print(engine and engine.label)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
def test_first_compile_is_said_once(tmp_path: Path) -> None:
    position = "4O 4X 3O"
    assert to_compile(position, tmp_path) == "the shape-and-color engine"
    first = perfectplay("best", SMALL, position, "--time", "0.5", "--json", cache=tmp_path)
    assert first.returncode == 0, first.stderr
    notice, done = first.stderr.splitlines()[:2]
    assert notice.startswith(
        "perfectplay: compiling the shape-and-color engine: first run after install, about "
    )
    assert done.startswith("perfectplay: compiled in ")
    compile_seconds = float(done.removeprefix("perfectplay: compiled in ").split()[0])
    # The clock starts after the compile: had it counted, the search would report at least
    # the compile's seconds (whatever the machine's load, which only stretches both).
    assert json.loads(first.stdout)["time_ms"] / 1000 < compile_seconds
    again = perfectplay("best", SMALL, position, "--time", "0.5", cache=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "compiling" not in again.stderr
    assert to_compile(position, tmp_path) == "None"
