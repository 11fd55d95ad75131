"""Property-based fuzz of every public parser and of the command line (issue "hardening").

Each target of :mod:`fuzz_properties` (one per parser: the shared notation, each game's
notation, ``perfectplay.api``, the arena player specs, the opening-book loader; and
``perfectplay.cli.main``) gets random, hostile and near-valid inputs, and must either accept
them, and then read back what it writes, or refuse them with the project's error and a
one-line message. ``benchmarks/fuzz.py`` runs the same targets for many more inputs
(``docs/reliability.md`` has the figures); here they are bounded so that the file runs in
about a minute on two cores.

``--hypothesis-show-statistics`` counts accepted and rejected inputs. The tests at the end
pin the bugs the fuzz found, now fixed.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fuzz_properties import (
    COMMAND_LINE,
    PARSERS,
    Rejected,
    Target,
    check_command_line,
    verdict,
)
from fuzz_strategies import TMP, CommandLine, huge_header_book, huge_number
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.errors import (
    IllegalMoveError,
    NotationError,
    ParameterError,
    PerfectplayError,
    quote,
)
from perfectplay.games.connect4.book import FORMAT_VERSION, OpeningBook, checksum
from perfectplay.games.connect4.notation import format_connect4_moves
from perfectplay.games.connect4.rules import Connect4Game
from perfectplay.games.mnk.notation import parse_json_cell
from perfectplay.games.mnk.rules import MNKGame

ENTRIES = ("keys", "scores")
"""The arrays of a book's positions and their scores."""
PARSER_EXAMPLES = 200
"""Inputs per parser here (``benchmarks/fuzz.py --examples`` for more)."""
CLI_EXAMPLES = 500
"""Command lines here, each run in-process (a few milliseconds to a few hundred)."""
FUZZ = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)


@pytest.mark.parametrize("target", PARSERS, ids=lambda target: target.name)
@settings(FUZZ, max_examples=PARSER_EXAMPLES)
@given(data=st.data())
def test_parser_accepts_and_round_trips_or_refuses(target: Target, data: st.DataObject) -> None:
    event(verdict(target, data.draw(target.strategy, label="input")))


@settings(FUZZ, max_examples=CLI_EXAMPLES)
@given(data=st.data())
def test_command_line_exits_0_or_2_with_one_error_line(data: st.DataObject) -> None:
    """Run in a folder of its own: a fuzzed picture path may be relative (a run once left a
    DOT file named '4444...' in the repository)."""
    line = data.draw(COMMAND_LINE.strategy, label="command line")
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        event(verdict(COMMAND_LINE, line))


# -- bugs the fuzz found in the parsers, fixed --------------------------------------------------
def test_values_too_large_to_print_are_quoted_by_their_type() -> None:
    assert quote({"row": huge_number()}) == "<dict too large to show>"
    game, _ = api.new_game("tictactoe")
    assert isinstance(game, MNKGame)
    with pytest.raises(IllegalMoveError, match="off the 3x3 board"):
        parse_json_cell(game, {"row": huge_number(), "col": 0})
    with pytest.raises(NotationError, match="whole numbers"):
        parse_json_cell(game, {"row": [huge_number()], "col": 0})
    connect4, _ = api.new_game("connect4")
    assert isinstance(connect4, Connect4Game)
    with pytest.raises(IllegalMoveError, match="not a 0-based column"):
        format_connect4_moves(connect4, [huge_number()])


def small_book(folder: Path) -> bytes:
    """The bytes of a valid 4x4 book of depth 1."""
    game, _ = api.new_game("connect4", size="4x4")
    api.build_book(game, 1, str(folder / "book.npz"))
    return (folder / "book.npz").read_bytes()


def test_every_single_byte_corruption_of_a_book_is_read_or_refused(tmp_path: Path) -> None:
    data = small_book(tmp_path)
    original = OpeningBook.load(tmp_path / "book.npz")
    whole = (original.keys.tolist(), original.scores.tolist())
    path = tmp_path / "corrupt.npz"
    refused = 0
    for at in range(len(data)):
        for value in {0, 0xFF, data[at] ^ 1}:
            path.write_bytes(data[:at] + bytes([value]) + data[at + 1 :])
            try:
                read = OpeningBook.load(path)
            except ParameterError as exc:  # zlib errors, encrypted members, bad headers
                assert str(path) in str(exc)
                refused += 1
                continue
            # read: the byte was not part of what the book says (the checksum vouches for it)
            assert (read.keys.tolist(), read.scores.tolist()) == whole
    assert refused > len(data)


def book_with(folder: Path, **fields: object) -> Path:
    """A 4x4 book file whose fields are replaced by ``fields``, with the game, format version
    and a checksum that matches what it says (what a tamperer who knows the format writes),
    unless ``fields`` replaces them too."""
    values: dict[str, Any] = {"width": 4, "height": 4, "k": 4, "depth": 1}
    values.update(keys=np.array([1, 2], np.uint64), scores=np.array([0, 1]))
    values.update(fields)
    width, height, k = [
        int(np.asarray(values[name]).ravel()[0]) for name in ("width", "height", "k")
    ]
    depth = int(values["depth"])
    keys, scores = (np.asarray(values[n]) for n in ENTRIES)
    said = checksum(width, height, k, depth, keys, scores)
    values = {"game": "connect4", "version": FORMAT_VERSION, "checksum": said, **values}
    path = folder / "book.npz"
    # numpy's stubs: a ** mapping of arrays might name savez's bool allow_pickle
    np.savez(path, **{name: np.asarray(value) for name, value in values.items()})  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"depth": -2}, "depth is not a whole number from 0 to 16"),
        ({"depth": 17}, "depth is not a whole number from 0 to 16"),
        ({"width": 0}, "width is not a whole number from 1 to 64"),
        ({"scores": np.array([0, 300])}, "scores from -5 to 5"),
        ({"scores": np.array([0, 6])}, "scores from -5 to 5"),  # in 8 bits, not on 4x4
        ({"game": "tictactoe"}, "a book for 'tictactoe', not connect4"),
        ({"version": 1}, "format version 1, this perfectplay reads version 2"),
        ({"checksum": "0" * 64}, "does not match its checksum"),
        ({"keys": np.array([-1, 2])}, "keys must be at least 0"),
    ],
)
def test_book_fields_out_of_range_are_refused(
    tmp_path: Path, fields: dict[str, object], reason: str
) -> None:
    path = book_with(tmp_path, **fields)
    with pytest.raises(ParameterError, match=reason):
        OpeningBook.load(path)
    game, position = api.load("connect4", "", size="4x4")
    with pytest.raises(ParameterError, match=reason):  # was an OverflowError in the solver
        api.solve(
            game, position, api.limit(depth=1), options=api.kernel_options(book_path=str(path))
        )


def test_a_book_claiming_more_than_the_memory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.npz"
    path.write_bytes(huge_header_book())
    with pytest.raises(ParameterError, match="not readable"):
        OpeningBook.load(path)


@pytest.mark.parametrize("out", ["a\x00b", f"{TMP}/{'x' * 300}"])
def test_book_out_paths_the_system_refuses_are_exit_2(tmp_path: Path, out: str) -> None:
    line = CommandLine(("book", "c4", "--size", "4x4", "--depth", "1", "--out", out))
    with pytest.raises(Rejected, match="opening book"):  # exit 2, one error line
        check_command_line(line)
    book = OpeningBook(4, 4, 4, 0, np.zeros(0, np.uint64), np.zeros(0, np.int8))
    with pytest.raises(ParameterError, match="opening book"):
        book.save(Path(out.replace(TMP, str(tmp_path))))


@pytest.mark.parametrize(
    "call",
    [
        lambda: api.new_game("tictactoe", size="9" * 5000 + "x3"),
        lambda: api.new_game("connect4", size="7x6", k=huge_number()),
        lambda: api.limit(depth=huge_number()),
        lambda: api.limit(time=huge_number()),  # was OverflowError from math.isfinite
        lambda: api.limit(nodes=-huge_number()),
        lambda: api.kernel_options(table_bits=huge_number()),
        lambda: api.kernel_options(table_bits="20"),  # type: ignore[arg-type]
        lambda: api.play_json(api.load_with_moves("connect4", ""), {"column": huge_number()}),
        lambda: api.kit("x" * 5000),
        lambda: api.load("connect4", "4" * 100 + "x" * 3000),
        lambda: api.with_evaluation(api.load("simplexity", "")[0], "w\n" * 1000),
    ],
)
def test_huge_and_long_values_are_refused_in_one_short_line(call: Callable[[], object]) -> None:
    with pytest.raises(PerfectplayError) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message and len(message) <= 1000, message


def test_arena_specs_read_back_their_exact_time() -> None:
    spec = api.parse_player("engine:time=0.1234567", ("windows",))
    assert api.parse_player(str(spec), ("windows",)) == spec


def test_a_depth_0_search_still_names_a_legal_move() -> None:
    for name in api.game_names():
        game, position = api.new_game(name)
        result = api.best(game, position, api.limit(depth=0))
        assert result.best_move in game.legal_moves(position), name


def test_a_picture_path_with_a_nul_is_exit_2() -> None:
    # --svg writes through the same function, after Graphviz (absent on some machines)
    line = CommandLine(("tree", "tictactoe", "xo_/___/___", "--depth", "1", "--dot", "a\x00b.dot"))
    with pytest.raises(Rejected, match="cannot write it: not a file name"):
        check_command_line(line)
