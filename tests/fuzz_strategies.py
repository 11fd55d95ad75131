"""The inputs of the fuzz suite (``tests/test_fuzz.py`` and ``benchmarks/fuzz.py``): hostile
text, near-valid text (valid positions and moves written in every accepted way, then a few
characters changed), JSON values and move objects, opening-book files and command lines.

Every strategy mixes three kinds of input so that both the accepting and the refusing paths
of a parser run: valid text, valid text mutated (a character replaced, inserted, deleted,
swapped or duplicated, the text cut or its case swapped), and random or hostile text (huge
numbers, Unicode digits, NUL, deeply nested JSON, empty strings, signs, NaN and infinities).

``tests/`` is on ``sys.path`` in the tests (``conftest.py``) and in ``benchmarks/fuzz.py``,
so both import this module as ``fuzz_strategies``.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from perfectplay import api
from perfectplay.games.connect4.text import format_connect4_picture
from perfectplay.games.mnk.text import mnk_board_matrix

# -- text --------------------------------------------------------------------------------------
HOSTILE_TEXT: tuple[str, ...] = (
    "",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\x00",
    "x\x00o",
    "4\x004",
    "\x0b\x0c",
    "\x85",
    "\u2028",
    "\u00a0",
    "\u200b",
    "\ufeff",
    "\udcff",
    "-1",
    "-0",
    "+1",
    "0",
    "00",
    "1e309",
    "-1e309",
    "1e-320",
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "9" * 19,
    "9" * 4301,
    "-" + "9" * 40,
    "1_000",
    "0x10",
    "1.5",
    "1,5",
    " 4 ",
    "\u0664",
    "\u0663x\u0663",
    "\uff14",
    "\u00b2",
    "\u2163",
    "\U0001d7d2",
    "\u212a3",
    "\u0130",
    "\U0001f642",
    "[" * 1000,
    "[" * 1000 + "]" * 1000,
    "[" * 20 + "1" + "]" * 20,
    "[]",
    "[[]]",
    "{}",
    "null",
    "true",
    '"x"',
    "[[1,-1],[0]]",
    "[[2]]",
    "[[1e400]]",
    "[[1.0]]",
    "[[true]]",
    "x" * 5000,
    "/" * 10,
    "4" * 100,
    "," * 5,
    "4O" * 50,
    "1:1 " * 10,
    "engine:" + "," * 10,
)
"""Text that has broken parsers elsewhere: every kind of number people and programs write,
invisible and separating characters, deep JSON, and text longer than any board."""

HOSTILE_CHARS = "\x00\n\r\t ,;:/_.-+[]{}\"'\\0123456789xoXO=\u0664\u00a0\u2028\udcff"
"""Characters every random or mutated text draws from, beside the parser's own."""

MUTATIONS = ("replace", "insert", "delete", "swap", "duplicate", "truncate", "case")
SHRINKING = ("replace", "delete", "swap", "truncate", "case")
"""Mutations that never add cells to a board (for verbs whose cost grows with the board)."""


def characters(alphabet: str) -> st.SearchStrategy[str]:
    """One character: the parser's own, a hostile one, or any character at all."""
    return st.one_of(st.sampled_from(alphabet + HOSTILE_CHARS), st.characters())


def random_text(alphabet: str, max_size: int = 40) -> st.SearchStrategy[str]:
    """Random text of ``alphabet`` mixed with hostile and arbitrary characters."""
    return st.text(characters(alphabet), max_size=max_size)


@st.composite
def mutated(draw: st.DrawFn, text: str, alphabet: str, kinds: tuple[str, ...] = MUTATIONS) -> str:
    """``text`` after one to three mutations of ``kinds``."""
    for _ in range(draw(st.integers(1, 3))):
        text = mutate(draw, text, draw(st.sampled_from(kinds)), alphabet)
    return text


def mutate(draw: st.DrawFn, text: str, kind: str, alphabet: str) -> str:
    """``text`` after one mutation of ``kind``, its place and character drawn."""
    at = draw(st.integers(0, len(text)))
    if kind == "insert":
        return text[:at] + draw(characters(alphabet)) + text[at:]
    if kind == "truncate":
        return text[:at]
    if kind == "case":
        return text.swapcase()
    if kind == "duplicate":
        end = draw(st.integers(at, len(text)))
        return text[:end] + text[at:end] + text[end:]
    if not text:
        return text
    at = min(at, len(text) - 1)
    if kind == "replace":
        return text[:at] + draw(characters(alphabet)) + text[at + 1 :]
    if kind == "delete":
        return text[:at] + text[at + 1 :]
    other = draw(st.integers(0, len(text) - 1))  # swap
    chars = list(text)
    chars[at], chars[other] = chars[other], chars[at]
    return "".join(chars)


@st.composite
def fuzzed(
    draw: st.DrawFn,
    valid: st.SearchStrategy[str],
    alphabet: str,
    kinds: tuple[str, ...] = MUTATIONS,
) -> str:
    """Valid text, valid text mutated, random text or hostile text, about equally often."""
    way = draw(st.sampled_from(("valid", "mutated", "random", "hostile")))
    if way == "valid":
        return draw(valid)
    if way == "mutated":
        return draw(mutated(draw(valid), alphabet, kinds))
    if way == "random":
        return draw(random_text(alphabet))
    return draw(st.sampled_from(HOSTILE_TEXT))


# -- numbers and JSON --------------------------------------------------------------------------
def huge_number() -> int:
    """An integer whose decimal text is longer than Python converts by default (hypothesis
    never holds it in a strategy, whose ``repr`` would fail)."""
    return 10**5000


HOSTILE_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    2,
    2**31,
    2**63,
    2**64,
    10**30,
    -(10**30),
    True,
    False,
    None,
    0.0,
    -0.0,
    1.0,
    1.5,
    1e-320,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    "1",
    "",
    "\x00",
    "\u0663",
)
"""Values a caller may pass where a number is expected."""


def hostile_scalars() -> st.SearchStrategy[Any]:
    """A hostile number-ish value, or any integer, float or short text."""
    return st.one_of(
        st.sampled_from(HOSTILE_NUMBERS),
        st.builds(huge_number),
        st.integers(),
        st.floats(),
        st.text(characters("0123456789OX"), max_size=4),
    )


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON-like value (lists and objects nested a few levels), hostile scalars at the
    leaves."""
    return st.recursive(
        hostile_scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.sampled_from(("row", "col", "column", "shape", "heap", "take", ""))
                | st.text(max_size=4),
                inner,
                max_size=3,
            ),
        ),
        max_leaves=6,
    )


@st.composite
def mutated_object(draw: st.DrawFn, data: dict[str, Any]) -> Any:
    """A JSON move object with one thing wrong: a value replaced, a key dropped, added or
    renamed, the object wrapped in a list or its values written as text."""
    data = dict(data)
    keys = sorted(data)
    way = draw(st.sampled_from(("value", "drop", "add", "rename", "wrap", "text")))
    key = draw(st.sampled_from(keys)) if keys else "row"
    if way == "value":
        data[key] = draw(json_values())
    elif way == "drop":
        data.pop(key, None)
    elif way == "add":
        data[draw(st.sampled_from(("extra", "ROW", "column", "shape", "row")))] = draw(
            json_values()
        )
    elif way == "rename" and key in data:
        data[key.upper()] = data.pop(key)
    elif way == "wrap":
        return [data]
    else:
        data = {name: str(value) for name, value in data.items()}
    return data


# -- games and positions -----------------------------------------------------------------------
GAMES = ("tictactoe", "connect4", "simplexity", "nim")
"""The registered games: the three built-in ones and the Nim plug-in of ``examples/nim``."""
ALIASES = ("ttt", "mnk", "tic-tac-toe", "c4", "connect-four", "connectfour", "sc", "shapecolor")
SIZES: dict[str, tuple[tuple[int, int] | None, ...]] = {
    "tictactoe": ((3, 3), (1, 1), (1, 4), (2, 3), (3, 4), (4, 4), (5, 5), (7, 3), (15, 15)),
    "connect4": ((7, 6), (4, 4), (5, 4), (4, 5), (8, 7), (10, 5), (12, 4), (4, 12)),
    "simplexity": ((7, 6), (4, 4), (2, 2), (1, 2), (4, 5), (5, 4), (8, 7)),
    "nim": (None,),
}
"""Board sizes (width, height, as ``--size`` reads them in every game) the valid positions
are drawn on."""
SMALL_SIZES: dict[str, tuple[tuple[int, int] | None, ...]] = {
    "tictactoe": ((3, 3), (1, 1), (2, 2), (2, 3), (3, 2)),
    "connect4": ((4, 4), (5, 4)),
    "simplexity": ((2, 2), (4, 2), (2, 4)),
    "nim": (None,),
}
"""Sizes on which every verb answers in milliseconds, even exactly."""
ALPHABETS = {
    "tictactoe": "xoXO_.-/\n[],01 ",
    "connect4": "0123456789,/\nxo. ",
    "simplexity": "0123456789OXox ,",
    "nim": "0123456789,:- ",
}
"""Each game's notation characters, for random and mutated text."""


@dataclass(frozen=True)
class Sample:
    """A valid position of a game: its registry name, the ``--size`` text and ``k`` that
    made the game (``None``: the default), the loaded position and the moves played."""

    name: str
    size: str | None
    k: int | None
    loaded: api.Loaded
    played: tuple[Any, ...]

    def __repr__(self) -> str:
        text = api.position_text(self.loaded)
        return f"Sample({self.name!r}, size={self.size!r}, k={self.k!r}, position={text!r})"


def k_values(name: str, size: tuple[int, int] | None) -> st.SearchStrategy[int | None]:
    """A valid ``k`` for the game on ``size`` (or ``None``, its default)."""
    if size is None or name not in ("tictactoe", "connect4"):
        return st.none()
    low = 1 if name == "tictactoe" else 2
    return st.none() | st.integers(low, max(size))


@st.composite
def samples(
    draw: st.DrawFn, name: str, small: bool = False, size: tuple[int, int] | None = None
) -> Sample:
    """A position reached by random legal moves (possibly finished) of game ``name`` on
    ``size``, else on one of its :data:`SIZES` (``small``: :data:`SMALL_SIZES`)."""
    size = size or draw(st.sampled_from((SMALL_SIZES if small else SIZES)[name]))
    k = draw(k_values(name, size))
    size_text = None if size is None else f"{size[0]}x{size[1]}"
    if name == "nim":
        heaps = draw(
            st.just([3, 4, 5])
            | st.lists(st.integers(0, 3 if small else 15), min_size=1, max_size=8)
        )
        loaded = api.load_with_moves(
            "nim", ",".join(str(heap) for heap in heaps[: 3 if small else 8])
        )
    else:
        loaded = api.start(api.new_game(name, size=size_text, k=k)[0])
    played: list[Any] = []
    for choice in draw(st.lists(st.integers(0, 1 << 16), max_size=256)):
        game, position = loaded.game, loaded.position
        moves = game.legal_moves(position) if game.outcome(position) is None else ()
        if not moves:
            break
        played.append(moves[choice % len(moves)])
        loaded = api.play(loaded, played[-1])
    return Sample(name, size_text, k, loaded, tuple(played))


@st.composite
def position_texts(draw: st.DrawFn, sample: Sample) -> str:
    """The sample's position written in one of the ways its game reads it."""
    loaded = sample.loaded
    if sample.name == "tictactoe":
        return draw(mnk_board_texts(loaded.position))
    if sample.name == "connect4":
        return draw(connect4_texts(sample))
    text = api.position_text(loaded)
    if sample.name == "simplexity":
        separator = draw(st.sampled_from((" ", "", ",", ", ", "  ", " ,")))
        moves = [
            f"{move.column + 1}{draw(st.sampled_from(move.shape + move.shape.lower()))}"
            for move in sample.played
        ]
        return separator.join(moves)
    if sample.name == "nim" and draw(st.booleans()):
        return text.replace(",", " , ").replace(":", draw(st.sampled_from(":-")))
    return text


@st.composite
def mnk_board_texts(draw: st.DrawFn, position: Any) -> str:
    """An m,n,k board as rows (any empty character, either case, ``/`` or new lines, maybe
    a final new line) or as a JSON matrix."""
    grid = mnk_board_matrix(position)
    if draw(st.integers(0, 3)) == 0:
        return json.dumps(grid, separators=draw(st.sampled_from(((",", ":"), (", ", ": ")))))
    marks = {1: draw(st.sampled_from("xX")), -1: draw(st.sampled_from("oO"))}
    marks[0] = draw(st.sampled_from("_.-"))
    separator = draw(st.sampled_from(("/", "\n", "\r\n", " / ")))
    text = separator.join("".join(marks[value] for value in row) for row in grid)
    return text + draw(st.sampled_from(("", "", "\n")))


@st.composite
def connect4_texts(draw: st.DrawFn, sample: Sample) -> str:
    """A Connect Four position as its move sequence (digits, or commas) or as a picture."""
    loaded = sample.loaded
    if draw(st.integers(0, 2)) == 0:
        picture = format_connect4_picture(loaded.position)
        empty = draw(st.sampled_from("._-"))
        return picture.replace(".", empty).replace("\n", draw(st.sampled_from(("/", "\n"))))
    text = api.position_text(loaded)
    if "," not in text and draw(st.booleans()):
        return draw(st.sampled_from((",", ", ", " ,"))).join(text)
    return text


@dataclass(frozen=True)
class LoadInput:
    """The arguments of ``api.load_with_moves``."""

    name: str
    text: str
    size: str | None
    k: int | None


def size_texts() -> st.SearchStrategy[str]:
    """``AxB`` texts, valid or not: any separator, numbers from 0 to huge, mutated."""
    valid = st.builds(
        "{}{}{}".format,
        st.integers(0, 20) | st.integers(0, 10**4),
        st.sampled_from(("x", "X", "\u00d7", "*", " x ", "")),
        st.integers(0, 20) | st.just(""),
    )
    return fuzzed(valid, "0123456789xX*\u00d7 ")


def any_k() -> st.SearchStrategy[int | None]:
    """A ``k`` a caller may pass: none, small, negative or huge."""
    return (
        st.none()
        | st.integers(-3, 20)
        | st.sampled_from((2**63, -(2**63)))
        | st.builds(huge_number)
    )


@st.composite
def load_inputs(draw: st.DrawFn, name: str) -> LoadInput:
    """A position text for game ``name`` (near-valid, random or hostile) with the size and
    ``k`` that made it, or sometimes other ones."""
    sample = draw(samples(name))
    text = draw(fuzzed(position_texts(sample), ALPHABETS[name]))
    size = sample.size if draw(st.booleans()) or name != "tictactoe" else None
    if size is not None and name == "tictactoe" and draw(st.booleans()):
        size = None  # a board's size is read from it
    k = sample.k
    if draw(st.integers(0, 5)) == 0:
        size = draw(st.none() | size_texts())
    if draw(st.integers(0, 5)) == 0:
        k = draw(any_k())
    return LoadInput(name, text, size, k)


def some_move(draw: st.DrawFn, sample: Sample) -> Any:
    """A legal move of the sample's position, else of its game's initial position (else of
    the game's default initial position)."""
    game = sample.loaded.game
    moves = (
        game.legal_moves(sample.loaded.position)
        if game.outcome(sample.loaded.position) is None
        else ()
    )
    moves = moves or game.legal_moves(game.initial())
    if not moves:  # Nim from empty heaps: a move of the default game
        default, start = api.new_game(sample.name)
        moves = default.legal_moves(start)
    return draw(st.sampled_from(moves))


@st.composite
def move_texts(draw: st.DrawFn, sample: Sample) -> str:
    """A move of the sample's game as people type it (near-valid, random or hostile)."""
    game = sample.loaded.game
    move = some_move(draw, sample)
    text = api.kit_of(game).move_text(game, move)
    if sample.name == "tictactoe" and draw(st.booleans()):
        sep = draw(st.sampled_from((" ", ",", ";", " , ")))
        text = f"{move[0] + 1}{sep}{move[1] + 1}"
    return draw(fuzzed(st.just(text), ALPHABETS[sample.name] + "abcdefghijklmnopqrstuvwxyz"))


@st.composite
def move_objects(draw: st.DrawFn, sample: Sample) -> Any:
    """A JSON move object of the sample's game: valid, with one thing wrong, or any JSON."""
    game = sample.loaded.game
    data = game.move_to_json(some_move(draw, sample))
    way = draw(st.sampled_from(("valid", "mutated", "mutated", "random")))
    if way == "valid":
        return data
    if way == "mutated":
        return draw(mutated_object(data))
    return draw(json_values())


@st.composite
def replay_lists(draw: st.DrawFn, sample: Sample) -> Any:
    """The JSON moves of the sample's game, maybe with one wrong, cut, extended or not a
    list at all."""
    game = sample.loaded.game
    moves: list[Any] = [game.move_to_json(move) for move in sample.played]
    way = draw(st.sampled_from(("valid", "item", "extra", "random")))
    if way == "item" and moves:
        at = draw(st.integers(0, len(moves) - 1))
        moves[at] = draw(mutated_object(moves[at]))
    elif way == "extra":
        moves.append(draw(json_values() | move_objects(sample)))
    elif way == "random":
        return draw(st.lists(json_values(), max_size=4) | st.text(max_size=4))
    return moves


def game_names() -> st.SearchStrategy[str]:
    """A game name or alias in any case, mutated, random or hostile."""
    valid = st.sampled_from(GAMES + ALIASES).flatmap(
        lambda name: st.sampled_from((name, name.upper(), name.title(), f" {name}"))
    )
    return fuzzed(valid, "abcdefghijklmnopqrstuvwxyz-4")


# -- the shared notation -----------------------------------------------------------------------
@dataclass(frozen=True)
class WholeInput:
    """The arguments of ``notation.parse_whole``."""

    text: str
    low: int
    high: int


@st.composite
def whole_inputs(draw: st.DrawFn) -> WholeInput:
    """A number text (near-valid, random or hostile) and a range."""
    low = draw(st.integers(-(10**20), 10**20) | st.integers(-100, 100))
    high = draw(st.integers(low - 5, low + 10**6) | st.integers(-(10**20), 10**20))
    valid = st.integers(min(low, high) - 3, max(low, high) + 3).map(str) | st.integers().map(str)
    return WholeInput(draw(fuzzed(valid, "0123456789+- ")), low, high)


def player_texts() -> st.SearchStrategy[str]:
    """``x``, ``o``, ``1``, ``2``, ``first``, ``second`` in any case and spacing, fuzzed."""
    valid = st.sampled_from(("x", "o", "1", "2", "first", "second")).flatmap(
        lambda word: st.sampled_from((word, word.upper(), f" {word}\t"))
    )
    return fuzzed(valid, "xo12firstsecond")


@st.composite
def grid_texts(draw: st.DrawFn) -> str:
    """A board picture (rows of marks) of any size, fuzzed."""
    sample = draw(samples("tictactoe"))
    return draw(fuzzed(mnk_board_texts(sample.loaded.position), ALPHABETS["tictactoe"]))


# -- arena players and options -----------------------------------------------------------------
EVALUATIONS = ("windows", "neighbors")


@st.composite
def player_specs(draw: st.DrawFn) -> str:
    """An arena player spec such as ``engine:eval=neighbors,depth=3`` (near-valid, random
    or hostile)."""
    kind = draw(st.sampled_from(("engine", "random", "Engine", " random ")))
    names = ("eval", "depth", "time") if "engine" in kind.lower() else ("seed",)
    values = {
        "eval": st.sampled_from((*EVALUATIONS, "NEIGHBORS", "none")),
        "depth": st.integers(-2, 12_000).map(str),
        "time": st.floats(0, 100).map(repr) | st.sampled_from(("1e-3", "0.5", "nan", "inf")),
        "seed": st.integers(-(10**19), 10**19).map(str),
    }
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    settings = [f"{name}={draw(values[name])}" for name in chosen]
    valid = kind + (":" + ",".join(settings) if bool(settings) or draw(st.booleans()) else "")
    return draw(fuzzed(st.just(valid), "engineraodm:=,.0123456789"))


@dataclass(frozen=True)
class LimitInput:
    """The arguments of ``api.limit``."""

    depth: Any
    time: Any
    nodes: Any


def limit_inputs() -> st.SearchStrategy[LimitInput]:
    """Depths, times and node counts: none, valid, out of range, of the wrong type."""
    value = st.none() | st.integers(-5, 20_000) | st.floats(-1, 100_000) | hostile_scalars()
    return st.builds(LimitInput, value, value, value)


@dataclass(frozen=True)
class OptionsInput:
    """The arguments of ``api.kernel_options``."""

    book: Any
    book_path: Any
    table_bits: Any


def options_inputs() -> st.SearchStrategy[OptionsInput]:
    """Book switches, book paths and table sizes (whole numbers, as the types say), valid or
    not."""
    return st.builds(
        OptionsInput,
        st.booleans(),
        st.none() | st.text(max_size=20) | st.sampled_from(HOSTILE_TEXT),
        st.none()
        | st.integers(0, 40)
        | st.integers()
        | st.sampled_from((True, False))
        | st.builds(huge_number),
    )


# -- opening-book files ------------------------------------------------------------------------
SHIPPED_BOOK = Path(api.__file__).parent / "games" / "connect4" / "data" / "connect4-7x6-depth2.npz"
BOOK_FIELDS = ("width", "height", "k", "depth", "keys", "scores")


@dataclass(frozen=True)
class BookFile:
    """What a book path holds: ``data`` bytes, or nothing (``missing``), or a folder."""

    kind: str
    data: bytes = b""

    def __repr__(self) -> str:
        return f"BookFile({self.kind!r}, {len(self.data)} bytes: {self.data[:40]!r}...)"


def npz_bytes(fields: dict[str, Any]) -> bytes:
    """An ``.npz`` archive of ``fields``, in memory."""
    buffer = io.BytesIO()
    np.savez(buffer, **fields)
    return buffer.getvalue()


def field_values() -> st.SearchStrategy[Any]:
    """A book field as it may be found: a whole number, an array of any integer or float
    type and shape, text, or an object array."""
    dtypes = st.sampled_from(("int8", "int64", "uint64", "uint8", "float64", "bool", "U3"))
    arrays = st.builds(
        lambda values, dtype, shape: (
            np.array(values).astype(dtype).reshape(shape)
            if len(values) == math.prod(shape)
            else np.array(values).astype(dtype)
        ),
        st.lists(st.integers(-300, 2**40), max_size=8),
        dtypes,
        st.sampled_from(((0,), (1,), (2, 2), (8,), ())),
    )
    return st.one_of(st.integers(-5, 70), arrays, st.text(max_size=3))


@st.composite
def book_fields(draw: st.DrawFn) -> dict[str, Any]:
    """The fields of a book (sizes, keys and scores), mostly right, some wrong or missing."""
    width, height = draw(st.sampled_from(((7, 6), (4, 4), (5, 4), (8, 7))))
    keys = sorted(set(draw(st.lists(st.integers(0, 2**63 - 1), max_size=12))))
    fields: dict[str, Any] = {
        "width": width,
        "height": height,
        "k": draw(st.sampled_from((4, 4, 3, 0, -1))),
        "depth": draw(st.integers(-2, 50)),
        "keys": np.array(keys, dtype=np.uint64),
        "scores": np.array(
            draw(st.lists(st.integers(-130, 130), min_size=len(keys), max_size=len(keys))),
            dtype=np.int64,
        ),
    }
    for name in draw(st.lists(st.sampled_from(BOOK_FIELDS), unique=True, max_size=2)):
        if draw(st.booleans()):
            del fields[name]
        else:
            fields[name] = draw(field_values())
    return fields


def huge_header_book() -> bytes:
    """A book whose ``keys`` claim ten billion entries that the file does not hold."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<u8", "fortran_order": False, "shape": (10**10,)}
    )
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as out:
        for name in BOOK_FIELDS:
            if name == "keys":
                out.writestr("keys.npy", header.getvalue() + b"\0" * 64)
            else:
                array = io.BytesIO()
                np.save(array, np.array(4 if name != "scores" else [0]))
                out.writestr(f"{name}.npy", array.getvalue())
    return archive.getvalue()


@st.composite
def book_files(draw: st.DrawFn) -> BookFile:
    """A file at a book path: random bytes, the shipped book cut or with a byte changed, an
    archive of (mostly) book fields, a plain array, a huge header, nothing, or a folder."""
    kind = draw(
        st.sampled_from(
            (
                "random",
                "truncated",
                "flipped",
                "fields",
                "fields",
                "plain",
                "huge",
                "missing",
                "folder",
            )
        )
    )
    shipped = SHIPPED_BOOK.read_bytes()
    if kind == "random":
        return BookFile(kind, draw(st.binary(max_size=200)))
    if kind == "truncated":
        return BookFile(kind, shipped[: draw(st.integers(0, len(shipped)))])
    if kind == "flipped":
        at = draw(st.integers(0, len(shipped) - 1))
        return BookFile(kind, shipped[:at] + bytes([draw(st.integers(0, 255))]) + shipped[at + 1 :])
    if kind == "fields":
        return BookFile(kind, npz_bytes(draw(book_fields())))
    if kind == "plain":
        array = io.BytesIO()
        np.save(array, np.arange(draw(st.integers(0, 5))))
        return BookFile(kind, array.getvalue())
    if kind == "huge":
        return BookFile(kind, huge_header_book())
    return BookFile(kind)


def write_book_file(book: BookFile, folder: Path) -> Path:
    """Put ``book`` in ``folder``; its path."""
    path = folder / "book.npz"
    if book.kind == "folder":
        path.mkdir()
    elif book.kind != "missing":
        path.write_bytes(book.data)
    return path


# -- command lines -----------------------------------------------------------------------------
TMP = "@TMP@"
"""Stands for the run's temporary folder in command lines; the runner puts a valid 4x4 book
(``book-4x4.npz``) and a garbage one (``garbage.npz``) there."""
NAMES = {
    "tictactoe": ("tictactoe", "ttt", "mnk", "tic-tac-toe", "TicTacToe"),
    "connect4": ("connect4", "c4", "connect-four", "CONNECT4"),
    "simplexity": ("simplexity", "sc", "shapecolor", "shape-color"),
    "nim": ("nim", "NIM"),
}
"""How each game may be named on the command line."""
DEPTHS = ("0", "1", "2")
BAD_DEPTHS = ("-1", "10001", "9" * 30, "9" * 5000, "1.5", "", "nan", "one", "0x1", "1e1", "\x00")
TIMES = ("0.001", "0.002", "0.005", "1e-3")
BAD_TIMES = (
    "0",
    "-1",
    "-0.001",
    "nan",
    "inf",
    "-inf",
    "1e-320",
    "0.0005",
    "86401",
    "1e9",
    "1e400",
    "",
    "abc",
    "\x00",
)
"""Bounds of every search the command-line fuzz starts: a depth of at most 2 or a few
milliseconds, or a value the command line must refuse."""
BAD_SIZES = ("0", "0x0", "99x99", "1000x1000", "4x", "x4", "\u0664x\u0664", "-4x4", "4x4x4", "")
BAD_KS = ("0", "-1", "99", "9" * 30, "x", "1.5", "")
TABLE_BITS = ("10", "12", "16", "9", "31", "-1", "9" * 25, "x", "")
BOOK_PATHS = (
    f"{TMP}/book-4x4.npz",
    f"{TMP}/garbage.npz",
    f"{TMP}/missing.npz",
    TMP,
    "/dev/null",
    str(SHIPPED_BOOK),
    "a\x00b",
    "",
)
OUT_PATHS = (
    f"{TMP}/out.npz",
    f"{TMP}/out",
    f"{TMP}/missing/out.npz",
    TMP,
    "/dev/null",
    "a\x00b",
    "",
    f"{TMP}/{'x' * 300}",
)
PICTURE_PATHS = (f"{TMP}/tree.svg", f"{TMP}/missing/tree.dot", TMP, "a\x00b", "", "/dev/null")
EVALS = ("windows", "neighbors", "NEIGHBORS", "bogus", "", "a\nb", "\x00")
OPTIONS = (
    "--json",
    "--size",
    "--k",
    "--depth",
    "--time",
    "--weak",
    "--seed",
    "--eval",
    "--alphabeta",
    "--heuristic",
    "--strict",
    "--outcome",
    "--self",
    "--engine-first",
    "--games",
    "--p1",
    "--p2",
    "--opening-plies",
    "--help",
    "-h",
    "--version",
    "--bogus",
    "--",
)
"""Options random command lines draw from (never ``--no-book``, ``--book`` or ``--table-bits``:
a random line must not start an unbounded search)."""
VERBS = ("best", "solve", "analyze", "play", "perft", "book", "arena", "history", "tree")
"""Every verb but ``serve``, which would start a server."""
PROTECTED = frozenset({"--heuristic"})
"""Tokens a mutation never drops: without them a bounded command would solve exactly."""


def _moderate_number(token: str) -> bool:
    """Whether ``token`` reads as a number a bound could take (a depth of 4, 1.5 seconds)."""
    for convert in (int, float):
        try:
            value = convert(token)
        except (ValueError, OverflowError):
            continue
        if math.isfinite(value) and 0 < abs(value) < 10**5:
            return True
    return False


ARGV_HOSTILE = tuple(token for token in HOSTILE_TEXT if not _moderate_number(token))
"""Hostile tokens a mutation may put anywhere in a command line: none reads as a moderate
number, so that no bound of the line becomes a long search."""


@dataclass(frozen=True)
class CommandLine:
    """The arguments of ``perfectplay`` and what its stdin holds."""

    argv: tuple[str, ...]
    stdin: str = ""


def cli_name(draw: st.DrawFn, name: str, hostile: bool) -> str:
    """How the command line names game ``name``: a spelling of it, or (``hostile``, rarely)
    no game."""
    if hostile and draw(st.integers(0, 7)) == 0:
        return draw(st.sampled_from(("chess", "", "c5", "\x00", "ttt ", "\u0131", "x" * 3000)))
    return draw(st.sampled_from(NAMES[name]))


def one_of(draw: st.DrawFn, good: tuple[str, ...], bad: tuple[str, ...], hostile: bool) -> str:
    """A good value; when ``hostile``, a bad one one time in three."""
    return draw(st.sampled_from(bad if hostile and draw(st.integers(0, 2)) == 0 else good))


def board_text(draw: st.DrawFn, sample: Sample, hostile: bool, kinds: tuple[str, ...]) -> str:
    """The sample's position as text; when ``hostile``, fuzzed with ``kinds`` of mutation."""
    valid = position_texts(sample)
    return draw(fuzzed(valid, ALPHABETS[sample.name], kinds) if hostile else valid)


def size_args(draw: st.DrawFn, sample: Sample, hostile: bool) -> list[str]:
    """``--size`` and ``--k`` for the sample's game: its own, none, or (``hostile``) bad."""
    args: list[str] = []
    if sample.size is not None and (sample.name != "tictactoe" or draw(st.booleans())):
        args += ["--size", sample.size]
    if sample.k is not None:
        args += ["--k", str(sample.k)]
    if hostile and draw(st.integers(0, 4)) == 0:
        args += ["--size", draw(st.sampled_from(BAD_SIZES))]
    if hostile and draw(st.integers(0, 4)) == 0:
        args += ["--k", draw(st.sampled_from(BAD_KS))]
    return args


def bound_args(draw: st.DrawFn, both: bool, hostile: bool) -> list[str]:
    """``--depth D`` or ``--time S`` (``both``: either or both), good or bad values."""
    depth = ["--depth", one_of(draw, DEPTHS, BAD_DEPTHS, hostile)]
    time = ["--time", one_of(draw, TIMES, BAD_TIMES, hostile)]
    way = draw(st.integers(0, 2 if both else 1))
    return depth if way == 0 else time if way == 1 else depth + time


def solver_args(draw: st.DrawFn, sample: Sample, hostile: bool) -> list[str]:
    """Some of ``--json``, ``--eval``, ``--no-book``, ``--book FILE``, ``--table-bits N``:
    those the game takes, or (``hostile``) any, with bad values too."""
    args = ["--json"] if draw(st.booleans()) else []
    if (hostile or sample.name == "simplexity") and draw(st.integers(0, 2)) == 0:
        args += ["--eval", one_of(draw, EVALS[:3], EVALS[3:], hostile)]
    books = draw(st.integers(0, 5)) if hostile or sample.name == "connect4" else 5
    if books == 0:
        args.append("--no-book")
    elif books == 1 and (hostile or sample.size == "4x4"):
        args += ["--book", one_of(draw, BOOK_PATHS[:1], BOOK_PATHS[1:], hostile)]
    if draw(st.integers(0, 4)) == 0:
        args += ["--table-bits", one_of(draw, TABLE_BITS[:3], TABLE_BITS[3:], hostile)]
    return args


@st.composite
def search_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``best``, ``solve`` or ``analyze`` of a position, bounded by depth or time."""
    verb = draw(st.sampled_from(("best", "solve", "analyze")))
    name = draw(st.sampled_from(GAMES))
    sample = draw(samples(name))
    argv = [verb, cli_name(draw, name, hostile), board_text(draw, sample, hostile, MUTATIONS)]
    argv += size_args(draw, sample, hostile) + bound_args(draw, verb != "best", hostile)
    argv += solver_args(draw, sample, hostile)
    if verb == "best" and draw(st.booleans()):
        argv += ["--seed", one_of(draw, ("0", "7", "-1", "9" * 30), ("x", ""), hostile)]
    if hostile and verb != "best" and draw(st.integers(0, 3)) == 0:
        argv.append("--weak")  # with a depth or a time: refused
    return CommandLine(tuple(argv))


@st.composite
def exact_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``solve`` or ``analyze`` without a bound, of a valid position of a small board (the
    same whether ``hostile`` or not: bad input here could start a long search)."""
    verb = draw(st.sampled_from(("solve", "analyze")))
    name = draw(st.sampled_from(GAMES))
    sample = draw(samples(name, small=True))
    argv = [verb, cli_name(draw, name, False), draw(position_texts(sample))]
    argv += size_args(draw, sample, False)
    if name == "connect4" and draw(st.booleans()):
        argv.append("--weak")
    if draw(st.booleans()):
        argv.append("--json")
    return CommandLine(tuple(argv))


@st.composite
def play_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``play`` bounded by depth or time, the person's moves (and commands, and when
    ``hostile`` junk) on stdin, or the engine against itself."""
    name = draw(st.sampled_from(GAMES))
    sample = draw(samples(name))
    argv = ["play", cli_name(draw, name, hostile), *size_args(draw, sample, hostile)]
    argv += bound_args(draw, False, hostile)
    argv += draw(st.sampled_from(([], ["--self"], ["--engine-first"])))
    if draw(st.integers(0, 3)) == 0:
        argv += ["--seed", one_of(draw, ("1", "-5", "9" * 30), ("", "x"), hostile)]
    if (hostile or name == "simplexity") and draw(st.integers(0, 3)) == 0:
        argv += ["--eval", one_of(draw, EVALS[:3], EVALS[3:], hostile)]
    game = sample.loaded.game
    moves = st.sampled_from(game.legal_moves(game.initial()) or [None]).map(
        lambda move: "" if move is None else api.kit_of(game).move_text(game, move)
    )
    typed = move_texts(sample) if hostile else moves
    commands = st.sampled_from(("hint", "help", "?", "quit", "", "HINT", "q"))
    lines = draw(st.lists(typed | typed | commands, max_size=6))
    return CommandLine(tuple(argv), "\n".join(lines))


@st.composite
def perft_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``perft`` to depth 2 at most (1 on large boards), or without a depth where the game
    refuses the whole tree or the board is tiny."""
    name = draw(st.sampled_from(GAMES))
    small = draw(st.booleans())
    sample = draw(samples(name, small=small))
    argv = ["perft", cli_name(draw, name, hostile), *size_args(draw, sample, hostile)]
    cells = 0 if sample.size is None else math.prod(map(int, sample.size.split("x")))
    depths = DEPTHS if cells <= 42 else DEPTHS[:2]
    if not (small and name in ("tictactoe", "simplexity")) or draw(st.booleans()):
        argv += ["--depth", one_of(draw, depths, BAD_DEPTHS, hostile)]
    if draw(st.booleans()):
        argv.append("--json")
    return CommandLine(tuple(argv))


@st.composite
def book_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``book`` of a small board at depth 0 to 2, written to good and (``hostile``) bad
    paths."""
    name = draw(st.sampled_from(GAMES)) if hostile and draw(st.booleans()) else "connect4"
    size = one_of(draw, ("4x4", "5x4", "4x5"), BAD_SIZES, hostile)
    argv = ["book", cli_name(draw, name, hostile), "--size", size]
    argv += ["--depth", one_of(draw, DEPTHS, BAD_DEPTHS, hostile)]
    argv += ["--out", one_of(draw, OUT_PATHS[:2], OUT_PATHS[2:], hostile)]
    if draw(st.integers(0, 2)) == 0:
        argv += draw(st.sampled_from((["--no-book"], ["--book", f"{TMP}/garbage.npz"])))
    if draw(st.integers(0, 3)) == 0:
        argv += ["--table-bits", one_of(draw, TABLE_BITS[:3], TABLE_BITS[3:], hostile)]
    return CommandLine(tuple(argv))


PLAYERS = ("engine", "random", "engine:depth=1", "engine:eval=neighbors,depth=2", "random:seed=3")
"""Valid arena players (the match's time bounds every engine move)."""


@st.composite
def arena_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``arena`` of one or two games between players (``hostile``: fuzzed specs), a few
    milliseconds a move."""
    name = draw(st.sampled_from(GAMES)) if hostile and draw(st.booleans()) else "simplexity"
    players = player_specs() if hostile else st.sampled_from(PLAYERS)
    argv = ["arena", cli_name(draw, name, hostile), "--p1", draw(players), "--p2", draw(players)]
    argv += ["--games", one_of(draw, ("1", "2"), ("0", "-1", "100001", "9" * 30, "x", ""), hostile)]
    argv += ["--time", one_of(draw, TIMES, BAD_TIMES, hostile)]
    if draw(st.booleans()):
        argv += ["--size", one_of(draw, ("4x4", "7x6", "2x2", "4x2"), BAD_SIZES, hostile)]
    if draw(st.integers(0, 2)) == 0:
        argv += [
            "--opening-plies",
            one_of(draw, ("0", "1", "2", "4"), ("-1", "99999", "x"), hostile),
        ]
    if draw(st.integers(0, 2)) == 0:
        argv += ["--seed", one_of(draw, ("0", "3", "-2", "9" * 30), ("x", ""), hostile)]
    if draw(st.booleans()):
        argv.append("--json")
    return CommandLine(tuple(argv))


@st.composite
def history_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``history`` of a small board (mutations never add cells)."""
    name = draw(st.sampled_from(GAMES)) if hostile else draw(st.sampled_from(GAMES[:2]))
    sample = draw(samples(name, small=True))
    board = board_text(draw, sample, hostile, SHRINKING)
    if name == "connect4" and draw(st.booleans()):
        board = format_connect4_picture(sample.loaded.position).replace("\n", "/")
    argv = ["history", cli_name(draw, name, hostile), board, *size_args(draw, sample, hostile)]
    argv += draw(st.sampled_from(([], ["--strict"], ["--outcome"], ["--strict", "--outcome"])))
    if draw(st.booleans()):
        argv.append("--json")
    return CommandLine(tuple(argv))


@st.composite
def tree_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``tree`` at most 2 plies deep: exact leaves on small boards, the heuristic on others."""
    name = draw(st.sampled_from(GAMES))
    small = draw(st.booleans()) and name != "simplexity"
    sample = draw(samples(name, small=small))
    cells = 0 if sample.size is None else math.prod(map(int, sample.size.split("x")))
    board = board_text(draw, sample, hostile, SHRINKING)
    argv = ["tree", cli_name(draw, name, hostile), board, *size_args(draw, sample, hostile)]
    argv += ["--depth", one_of(draw, DEPTHS if cells <= 42 else DEPTHS[:2], BAD_DEPTHS, hostile)]
    if not small:
        argv.append("--heuristic")
    if draw(st.booleans()):
        argv.append("--alphabeta")
    if draw(st.integers(0, 3)) == 0:
        picture = one_of(draw, PICTURE_PATHS[:1], PICTURE_PATHS[1:], hostile)
        argv += [draw(st.sampled_from(("--svg", "--dot"))), picture]
    return CommandLine(tuple(argv))


@st.composite
def batch_lines(draw: st.DrawFn, hostile: bool) -> CommandLine:
    """``solve connect4 -`` on a small board: positions with or without expected scores on
    stdin, and (``hostile``) junk and hostile lines."""
    sample = draw(samples("connect4", small=True))
    argv = ["solve", cli_name(draw, "connect4", hostile), "-", "--size", str(sample.size)]
    argv += draw(st.sampled_from(([], ["--weak"], ["--no-book"])))
    if hostile:
        argv += draw(st.sampled_from(([], ["--json"], ["--depth", "1"])))
    width, height = map(int, str(sample.size).split("x"))
    same = samples("connect4", size=(width, height))
    scores = ("", " 0", " 3", " -2", " +1") + ((" 99", " 1.5", " " + "9" * 30) if hostile else ())
    scored = st.tuples(same.flatmap(position_texts), st.sampled_from(scores)).map("".join)
    if hostile:
        scored |= fuzzed(position_texts(sample), ALPHABETS["connect4"], SHRINKING)
    return CommandLine(tuple(argv), "\n".join(draw(st.lists(scored, max_size=4))))


CLOSERS = {"arena": ("--time", "0.001"), "tree": ("--depth", "1", "--heuristic")}
"""What closes a random line of these verbs (``--depth 1`` closes the others)."""


@st.composite
def random_lines(draw: st.DrawFn) -> CommandLine:
    """A verb (or not) and random tokens: options, game names, hostile values; a depth of 1
    or a time of a millisecond closes the line, so that nothing searches long."""
    first = draw(
        st.sampled_from(VERBS) | st.sampled_from(("", "--help", "--version", "bogus", "-h"))
    )
    pool = st.sampled_from(
        OPTIONS
        + ARGV_HOSTILE
        + tuple(name for names in NAMES.values() for name in names)
        + ("0", "xox/oox/___", "44", "4O", "3,4,5", "engine", "random:seed=1", "4x4")
    )
    argv = [first, *draw(st.lists(pool, max_size=6))]
    return CommandLine((*argv, *CLOSERS.get(first, ("--depth", "1"))))


@st.composite
def mutated_line(draw: st.DrawFn, line: CommandLine) -> CommandLine:
    """``line`` with one token replaced, inserted, dropped or duplicated (never a moderate
    number, never dropping a :data:`PROTECTED` token)."""
    argv = list(line.argv)
    token = st.sampled_from(
        (*ARGV_HOSTILE, "--bogus", "--json", "--help", "--", "--size", "--k", "--weak")
    )
    at = draw(st.integers(0, max(0, len(argv) - 1)))
    way = draw(st.sampled_from(("replace", "insert", "drop", "duplicate")))
    if way == "insert" or not argv:
        argv.insert(at, draw(token))
    elif way == "replace":
        argv[at] = draw(token)
    elif way == "drop" and argv[at] not in PROTECTED:
        del argv[at]
    elif way == "duplicate":
        argv += argv[at : at + 2]
    return CommandLine(tuple(argv), line.stdin)


LINES = (
    search_lines,
    exact_lines,
    play_lines,
    perft_lines,
    book_lines,
    arena_lines,
    history_lines,
    tree_lines,
    batch_lines,
)
"""Every kind of command line the fuzz runs (besides :func:`random_lines`); each takes
``hostile``: valid values only, or bad ones too."""


@st.composite
def command_lines(draw: st.DrawFn) -> CommandLine:
    """A command line: of any kind, with valid values only (half of them) or bad ones too,
    and then mutated one time in four; or random tokens (one time in ten)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(random_lines())
    hostile = draw(st.booleans())
    line = draw(st.sampled_from(LINES).flatmap(lambda kind: kind(hostile)))
    if hostile and draw(st.booleans()):
        line = draw(mutated_line(line))
    return line
