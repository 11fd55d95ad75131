"""The properties of the fuzz suite: one :class:`Target` per public parser of perfectplay and
one for the command line, each an input strategy (from :mod:`fuzz_strategies`) and a check.

Every check states the same two properties:

* **refusal**: the parser either accepts the input or raises the project's error
  (:class:`~perfectplay.errors.PerfectplayError`) with a one-line message of reasonable
  length; any other exception is a failure. The command line exits 0 or 2, and 2 with the
  error on stderr (``perfectplay: error: ...`` as the last line, or argparse's usage error),
  never a traceback or an internal error.
* **round trip**: what is accepted is written back in the game's notation (or JSON) and
  parsed again to the same position, move or value; there the project's error is a failure
  too.

A check signals a refusal by raising :class:`Rejected` (see :func:`refusal`);
:func:`verdict` turns that into ``"rejected"`` and a normal return into ``"accepted"``, and
lets every failure through. ``tests/test_fuzz.py`` runs each target for a few hundred inputs,
``benchmarks/fuzz.py`` for many thousands and counts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from fuzz_strategies import (
    GAMES,
    TMP,
    BookFile,
    CommandLine,
    LimitInput,
    LoadInput,
    OptionsInput,
    Sample,
    WholeInput,
    any_k,
    book_files,
    command_lines,
    fuzzed,
    game_names,
    grid_texts,
    hostile_scalars,
    limit_inputs,
    load_inputs,
    mnk_board_texts,
    move_objects,
    move_texts,
    options_inputs,
    player_specs,
    player_texts,
    position_texts,
    replay_lists,
    samples,
    size_texts,
    whole_inputs,
    write_book_file,
)
from hypothesis import strategies as st

from perfectplay import api, errors
from perfectplay.cli import main
from perfectplay.errors import GameOverError, IllegalMoveError, PerfectplayError
from perfectplay.games.connect4.book import OpeningBook
from perfectplay.games.connect4.notation import (
    format_connect4_moves,
    parse_connect4_moves,
    parse_connect4_picture,
)
from perfectplay.games.connect4.rules import Connect4Game
from perfectplay.games.connect4.text import format_connect4_picture
from perfectplay.games.mnk.notation import (
    format_mnk_move,
    parse_json_cell,
    parse_mnk_board,
    parse_mnk_move,
)
from perfectplay.games.mnk.rules import MNKGame
from perfectplay.games.mnk.text import format_mnk_board, mnk_board_matrix
from perfectplay.games.simplexity.notation import (
    format_simplexity_moves,
    parse_simplexity_move,
    parse_simplexity_moves,
)
from perfectplay.notation import grid_from_text, parse_size, parse_whole, player_from_text

MAX_MESSAGE = errors.MAX_MESSAGE
"""The longest error message accepted (issue 27: about 300 characters, echoed input cut)."""


class Rejected(Exception):
    """The input was refused with the project's error, as the property allows."""


def check_message(exc: PerfectplayError) -> None:
    """An error message for people: not empty, one line, not too long."""
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} without a message"
    assert "\n" not in message and "\r" not in message, f"message of several lines: {message!r}"
    assert len(message) <= MAX_MESSAGE, f"message of {len(message)} characters: {message[:200]!r}"


@contextlib.contextmanager
def refusal() -> Iterator[None]:
    """Turn the project's error raised inside into :class:`Rejected`, once its message is
    checked; any other exception passes through (a failure)."""
    try:
        yield
    except PerfectplayError as exc:
        check_message(exc)
        raise Rejected(str(exc)) from exc


@dataclass(frozen=True)
class Target:
    """A public parser under fuzz: its name, its inputs and the check of one input."""

    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], None]


def verdict(target: Target, value: Any) -> str:
    """``"accepted"`` or ``"rejected"``; any failure of the properties propagates."""
    try:
        target.check(value)
    except Rejected:
        return "rejected"
    return "accepted"


def shown(value: Any, limit: int = 400) -> str:
    """``repr(value)`` cut to ``limit`` characters; integers too long for ``repr`` (more
    than 4300 digits) are shown by their size."""
    try:
        text = repr(value)
    except ValueError:
        text = repr(printable(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Huge:
    """Stands for an integer too long to print."""

    def __init__(self, value: int) -> None:
        self.bits = value.bit_length()

    def __repr__(self) -> str:
        return f"<int of {self.bits} bits>"


def printable(value: Any) -> Any:
    """``value`` with every integer too long to print replaced by a :class:`Huge`."""
    if isinstance(value, int) and value.bit_length() > 10_000:
        return Huge(value)
    if isinstance(value, list | tuple):
        items = [printable(item) for item in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {key: printable(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: printable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return f"{type(value).__name__}({fields})"
    return value


def with_sample(
    name: str, inputs: Callable[[Sample], st.SearchStrategy[Any]], small: bool = False
) -> st.SearchStrategy[tuple[Sample, Any]]:
    """A sample position of ``name`` and an input drawn for it."""
    return samples(name, small).flatmap(lambda sample: st.tuples(st.just(sample), inputs(sample)))


# -- perfectplay.notation -------------------------------------------------------------------------
def check_size(text: str) -> None:
    """``parse_size``: ``WIDTHxHEIGHT`` back to the same pair; one number is a square."""
    with refusal():
        width, height = parse_size(text)
    assert 0 <= width <= 999 and 0 <= height <= 999
    assert parse_size(f"{width}x{height}") == (width, height)
    assert parse_size(str(width)) == (width, width)


def check_whole(case: WholeInput) -> None:
    """``parse_whole``: a number in the range, the one written, read back from its digits."""
    with refusal():
        value = parse_whole(case.text, "number", case.low, case.high)
    assert case.low <= value <= case.high
    assert value == int(case.text.strip())
    assert parse_whole(str(value), "number", case.low, case.high) == value


def check_player(text: str) -> None:
    """``player_from_text``: the player, read back from its number and its mark."""
    with refusal():
        player = player_from_text(text)
    assert player_from_text(str(int(player))) is player
    assert player_from_text("xo"[int(player) - 1]) is player


def check_grid(text: str) -> None:
    """``grid_from_text``: rows of 1, -1, 0, read back from their marks."""
    with refusal():
        grid = grid_from_text(text)
    assert grid and all(row and set(row) <= {1, -1, 0} for row in grid)
    marks = {1: "x", -1: "o", 0: "_"}
    again = "/".join("".join(marks[value] for value in row) for row in grid)
    assert grid_from_text(again) == grid


# -- the games' notation ------------------------------------------------------------------------
def check_mnk_board(case: tuple[str, int | None]) -> None:
    """``parse_mnk_board``: the compact board and the JSON matrix read back to the same
    game and position."""
    text, k = case
    with refusal():
        game, position = parse_mnk_board(text, k)
    for again in (format_mnk_board(position), json.dumps(mnk_board_matrix(position))):
        game_again, position_again = parse_mnk_board(again, game.spec.k)
        assert game_again.spec == game.spec and position_again == position, again


def check_mnk_move(case: tuple[Sample, str]) -> None:
    """``parse_mnk_move``: a cell on the board, read back from ``b3`` and from ``3 2``."""
    sample, text = case
    game = sample.loaded.game
    assert isinstance(game, MNKGame)
    with refusal():
        cell = parse_mnk_move(game, text)
    assert 0 <= cell.row < game.spec.rows and 0 <= cell.col < game.spec.cols
    assert parse_mnk_move(game, format_mnk_move(cell)) == cell
    assert parse_mnk_move(game, f"{cell.row + 1} {cell.col + 1}") == cell


def check_json_cell(case: tuple[Sample, Any]) -> None:
    """``parse_json_cell``: a cell on the board, read back from its JSON."""
    sample, data = case
    game = sample.loaded.game
    assert isinstance(game, MNKGame)
    with refusal():
        cell = parse_json_cell(game, data)
    assert parse_json_cell(game, game.move_to_json(cell)) == cell


def check_connect4_moves(case: tuple[Sample, str]) -> None:
    """``parse_connect4_moves``: the columns played give the position; written back, they
    read to the same columns and position."""
    sample, text = case
    game = sample.loaded.game
    assert isinstance(game, Connect4Game)
    with refusal():
        position, columns = parse_connect4_moves(game, text)
    replayed = game.initial()
    for column in columns:
        replayed = game.play(replayed, column)
    assert replayed == position
    assert parse_connect4_moves(game, format_connect4_moves(game, columns)) == (position, columns)


def check_connect4_format(case: tuple[Sample, list[Any]]) -> None:
    """``format_connect4_moves``: columns on the board are written so that they read back
    as the same columns (when they can be played at all)."""
    sample, columns = case
    game = sample.loaded.game
    assert isinstance(game, Connect4Game)
    with refusal():
        text = format_connect4_moves(game, columns)
    try:
        _, played = parse_connect4_moves(game, text)
    except (IllegalMoveError, GameOverError) as exc:  # columns that fill up or follow the end
        check_message(exc)
        return
    assert played == list(columns), text


def check_connect4_picture(case: tuple[str, Any]) -> None:
    """``parse_connect4_picture``: the picture, with new lines or ``/``, reads back to the
    same game and position."""
    text, k = case
    with refusal():
        game, position = parse_connect4_picture(text, k)
    picture = format_connect4_picture(position)
    for again in (picture, picture.replace("\n", "/")):
        game_again, position_again = parse_connect4_picture(again, game.spec.k)
        assert game_again.spec == game.spec and position_again == position, again


def check_simplexity_move(case: tuple[str, int]) -> None:
    """``parse_simplexity_move``: a column and a shape, read back from ``4O``."""
    text, number = case
    with refusal():
        column, shape = parse_simplexity_move(text, number)
    assert shape in ("O", "X")
    assert parse_simplexity_move(f"{column + 1}{shape}", number) == (column, shape)


def check_simplexity_moves(case: tuple[Sample, str]) -> None:
    """``parse_simplexity_moves``: written back, the moves read to the same moves and
    position."""
    sample, text = case
    game = sample.loaded.game
    with refusal():
        position, moves = parse_simplexity_moves(game, text)
    again = parse_simplexity_moves(game, format_simplexity_moves(moves))
    assert again == (position, moves)


# -- perfectplay.api ------------------------------------------------------------------------------
def check_kit(name: str) -> None:
    """``api.kit``: a registered kit, found again by its own name."""
    with refusal():
        found = api.kit(name)
    assert api.kit(found.name) is found
    assert found in api.games()


def check_new_game(case: tuple[str, str | None, int | None]) -> None:
    """``api.new_game``: the game made again from its own size and ``k`` is the same."""
    name, size, k = case
    with refusal():
        game, position = api.new_game(name, size=size, k=k)
    kit = api.kit_of(game)
    again, start = api.new_game(kit.name, size=kit.size_text(game), k=kit.k_of(game))
    assert again.spec == game.spec and start == position


def check_load(case: LoadInput) -> None:
    """``api.load_with_moves`` (and ``api.load``): the position written back by
    ``api.position_text`` loads to the same game, position and moves; it can be drawn."""
    with refusal():
        loaded = api.load_with_moves(case.name, case.text, size=case.size, k=case.k)
    game, position = api.load(case.name, case.text, size=case.size, k=case.k)
    assert position == loaded.position
    kit = api.kit_of(game)
    text = api.position_text(loaded)
    again = api.load_with_moves(kit.name, text, size=kit.size_text(game), k=kit.k_of(game))
    assert again.game.spec == game.spec, text
    assert again.position == loaded.position and again.moves == loaded.moves, text
    assert isinstance(api.render(game, position), str)
    api.board(game, position)


def check_parse_move(case: tuple[Sample, str]) -> None:
    """``api.parse_move`` then ``api.play``: the move reads back from its text; played, the
    position's text loads back to it."""
    sample, text = case
    loaded = sample.loaded
    game = loaded.game
    kit = api.kit_of(game)
    with refusal():
        move = api.parse_move(loaded, text)
    assert api.parse_move(loaded, kit.move_text(game, move)) == move
    with refusal():
        after = api.play(loaded, move)
    again = api.load_with_moves(
        kit.name, api.position_text(after), size=kit.size_text(game), k=kit.k_of(game)
    )
    assert again.position == after.position


def check_play_json(case: tuple[Sample, Any]) -> None:
    """``api.play_json``: the move written back as JSON plays to the same position."""
    sample, data = case
    loaded = sample.loaded
    game = loaded.game
    with refusal():
        after = api.play_json(loaded, data)
    move = api.kit_of(game).move_from_json(game, data)
    assert api.play_json(loaded, game.move_to_json(move)).position == after.position


def check_replay(case: tuple[Sample, Any]) -> None:
    """``api.replay``: the moves written back as JSON replay to the same position."""
    sample, moves = case
    with refusal():
        loaded = api.replay(sample.name, moves, size=sample.size, k=sample.k)
    game = loaded.game
    kit = api.kit_of(game)
    again = [game.move_to_json(kit.move_from_json(game, data)) for data in moves]
    assert api.replay(sample.name, again, size=sample.size, k=sample.k).position == loaded.position


def check_limit(case: LimitInput) -> None:
    """``api.limit``: the fields kept as given, the limit made again from them the same."""
    with refusal():
        bound = api.limit(case.depth, case.time, case.nodes)
    assert bound.depth == case.depth and bound.nodes == case.nodes
    assert (bound.time is None) == (case.time is None)
    assert bound.time is None or (math.isfinite(bound.time) and bound.time == case.time)
    assert api.limit(bound.depth, bound.time, bound.nodes) == bound


def check_kernel_options(case: OptionsInput) -> None:
    """``api.kernel_options``: the options as given, made again from them the same."""
    with refusal():
        options = api.kernel_options(
            book=case.book, book_path=case.book_path, table_bits=case.table_bits
        )
    assert options.book == case.book and options.table_bits == case.table_bits
    path = None if options.book_path is None else str(options.book_path)
    again = api.kernel_options(book=options.book, book_path=path, table_bits=options.table_bits)
    assert again == options


def check_evaluation(case: tuple[Sample, str | None]) -> None:
    """``api.with_evaluation``: the same rules; the name given again is accepted again."""
    sample, name = case
    game = sample.loaded.game
    with refusal():
        searched = api.with_evaluation(game, name)
    assert searched.spec == game.spec
    assert api.with_evaluation(searched, name).spec == game.spec


def check_player_spec(text: str) -> None:
    """``api.parse_player``: the spec written back by ``str`` reads to the same spec."""
    with refusal():
        spec = api.parse_player(text, ("windows", "neighbors"))
    assert api.parse_player(str(spec), ("windows", "neighbors")) == spec, str(spec)


# -- opening books --------------------------------------------------------------------------------
def check_book(book: BookFile) -> None:
    """``OpeningBook.load``: a book read is saved and read back the same, and the solver
    consults it (or refuses it) without any other error."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_book_file(book, Path(folder))
        with refusal():
            loaded = OpeningBook.load(path)
        copy = Path(folder) / "copy.npz"
        loaded.save(copy)
        again = OpeningBook.load(copy)
        assert (again.width, again.height, again.k, again.depth) == (
            loaded.width,
            loaded.height,
            loaded.k,
            loaded.depth,
        )
        assert np.array_equal(again.keys, loaded.keys)
        assert np.array_equal(again.scores, loaded.scores)
        with refusal():
            game, position = api.load(
                "connect4", "", size=f"{loaded.width}x{loaded.height}", k=loaded.k
            )
            options = api.kernel_options(book_path=str(path), table_bits=10)
            api.solve(game, position, api.limit(depth=1), options=options)


# -- the command line -----------------------------------------------------------------------------
ERROR_LINE = re.compile(r"perfectplay: error: \S.*")
USAGE_ERROR = re.compile(r"^perfectplay(?: \S+)?: error: ", re.MULTILINE)
BATCH_NOTE = re.compile(r"perfectplay: line [0-9]+: expected .*")
HELP = frozenset({"-h", "--help", "--version"})


@dataclass(frozen=True)
class Run:
    """What one command line did: its exit status, stdout and stderr."""

    line: CommandLine
    code: object
    out: str
    err: str

    def __str__(self) -> str:
        return (
            f"argv={list(self.line.argv)!r} stdin={self.line.stdin!r}\n"
            f"exit {self.code}\nstdout: {cut(self.out)!r}\nstderr: {cut(self.err)!r}"
        )


def cut(text: str) -> str:
    """The start and the end of a long output."""
    return text if len(text) <= 1500 else f"{text[:500]} [...] {text[-1000:]}"


@cache
def valid_book() -> bytes:
    """A valid 4x4 opening book of depth 1, built once."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.npz"
        game, _ = api.new_game("connect4", size="4x4")
        api.build_book(game, 1, str(path))
        return path.read_bytes()


def prepare(folder: Path) -> None:
    """The files command lines name: a valid 4x4 book and a garbage one."""
    (folder / "book-4x4.npz").write_bytes(valid_book())
    (folder / "garbage.npz").write_bytes(b"PK\x03\x04 not a book \x00\xff" * 3)


def run_command(line: CommandLine, folder: Path) -> Run:
    """``perfectplay.cli.main`` on the line (``TMP`` standing for ``folder``), in-process,
    stdin, stdout and stderr replaced."""
    argv = [token.replace(TMP, str(folder)) for token in line.argv]
    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO(line.stdin)
    os.environ.pop("PERFECTPLAY_DEBUG", None)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = stdin
    return Run(line, code, out.getvalue(), err.getvalue())


def check_command_line(line: CommandLine) -> None:
    """``perfectplay ...``: exit 0, or exit 2 with one error line on stderr (argparse's usage
    error, or ``perfectplay: error: ...`` last, after batch mode's notes); never a traceback
    or an internal error; with ``--json`` and exit 0, stdout is one JSON document."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        prepare(folder)
        run = run_command(line, folder)
    assert run.code in (0, 2), f"exit status {run.code}\n{run}"
    assert "Traceback" not in run.err + run.out, f"traceback\n{run}"
    assert "internal error" not in run.err, f"internal error\n{run}"
    if run.code == 2:
        refused(run)
    if "--json" in line.argv and not HELP & set(line.argv):
        json.loads(run.out)


def refused(run: Run) -> None:
    """Check the error output of exit status 2 and raise :class:`Rejected`."""
    if run.err.startswith("usage:"):
        assert len(USAGE_ERROR.findall(run.err)) == 1, f"not one usage error\n{run}"
        raise Rejected(run.err)
    lines = run.err.splitlines()
    assert lines and ERROR_LINE.fullmatch(lines[-1]), f"no error line last\n{run}"
    assert all(BATCH_NOTE.fullmatch(line) for line in lines[:-1]), f"several lines\n{run}"
    assert len(lines[-1]) <= MAX_MESSAGE + 40, f"message of {len(lines[-1])} characters\n{run}"
    raise Rejected(lines[-1])


# -- the targets ----------------------------------------------------------------------------------
def notation_targets() -> list[Target]:
    """The shared notation and each game's notation module."""
    connect4_pictures = samples("connect4").flatmap(
        lambda sample: fuzzed(
            st.sampled_from(("\n", "/")).map(
                lambda sep: format_connect4_picture(sample.loaded.position).replace("\n", sep)
            ),
            "xo./\n",
        )
    )
    mnk_boards = samples("tictactoe").flatmap(
        lambda sample: fuzzed(mnk_board_texts(sample.loaded.position), "xoXO_.-/\n[],01 ")
    )
    simplexity_move = fuzzed(st.sampled_from(("4O", "1x", " 7X ", "12o", "0O")), "0123456789OXox ,")
    columns = st.lists(st.integers(-2, 13) | hostile_scalars(), max_size=12)
    return [
        Target("notation.parse_size", size_texts(), check_size),
        Target("notation.parse_whole", whole_inputs(), check_whole),
        Target("notation.player_from_text", player_texts(), check_player),
        Target("notation.grid_from_text", grid_texts(), check_grid),
        Target("mnk.parse_mnk_board", st.tuples(mnk_boards, any_k()), check_mnk_board),
        Target("mnk.parse_mnk_move", with_sample("tictactoe", move_texts), check_mnk_move),
        Target("mnk.parse_json_cell", with_sample("tictactoe", move_objects), check_json_cell),
        Target(
            "connect4.parse_connect4_moves",
            with_sample("connect4", lambda s: fuzzed(position_texts(s), "0123456789, ")),
            check_connect4_moves,
        ),
        Target(
            "connect4.format_connect4_moves",
            with_sample("connect4", lambda _: columns),
            check_connect4_format,
        ),
        Target(
            "connect4.parse_connect4_picture",
            st.tuples(connect4_pictures, st.sampled_from((4, 3, 2, 5)) | any_k()),
            check_connect4_picture,
        ),
        Target(
            "simplexity.parse_simplexity_move",
            st.tuples(simplexity_move, st.integers(-5, 10**6)),
            check_simplexity_move,
        ),
        Target(
            "simplexity.parse_simplexity_moves",
            with_sample("simplexity", lambda s: fuzzed(position_texts(s), "0123456789OXox ,")),
            check_simplexity_moves,
        ),
    ]


def api_targets() -> list[Target]:
    """``perfectplay.api``: games, positions, moves, limits, options, players."""
    names = st.sampled_from(GAMES) | game_names()
    evaluations = st.none() | fuzzed(st.sampled_from(("windows", "neighbors")), "windowsneighbor")
    targets = [
        Target("api.kit", game_names(), check_kit),
        Target("api.new_game", st.tuples(names, st.none() | size_texts(), any_k()), check_new_game),
    ]
    for name in GAMES:
        targets += [
            Target(f"api.load_with_moves[{name}]", load_inputs(name), check_load),
            Target(f"api.parse_move+play[{name}]", with_sample(name, move_texts), check_parse_move),
            Target(f"api.play_json[{name}]", with_sample(name, move_objects), check_play_json),
            Target(f"api.replay[{name}]", with_sample(name, replay_lists), check_replay),
        ]
    return [
        *targets,
        Target("api.limit", limit_inputs(), check_limit),
        Target("api.kernel_options", options_inputs(), check_kernel_options),
        Target(
            "api.with_evaluation",
            st.sampled_from(GAMES).flatmap(lambda n: st.tuples(samples(n), evaluations)),
            check_evaluation,
        ),
        Target("api.parse_player", player_specs(), check_player_spec),
    ]


PARSERS: tuple[Target, ...] = (
    *notation_targets(),
    *api_targets(),
    Target("OpeningBook.load", book_files(), check_book),
)
"""Every public parser, each with its inputs and its properties."""
COMMAND_LINE = Target("cli.main", command_lines(), check_command_line)
"""The command line, run in-process."""
