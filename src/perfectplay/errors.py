"""Every error perfectplay raises on bad input.

All of them derive from :class:`PerfectplayError`, itself a :class:`ValueError`, so a caller
can catch one class at the boundary. Each message names the offending input and the reason;
the command line prints the message and exits with status 2, the web API answers 4xx with it.

Hierarchy::

    PerfectplayError (ValueError)
    ├── UnknownGameError        a game name that is not registered
    ├── ParameterError          a game or search parameter out of range (size, k, depth, time)
    │   └── DataFileError       a data file (an opening book) that is not what it claims
    ├── NotationError           text that does not parse (ragged rows, unknown characters)
    ├── IllegalPositionError    a board that parses but that no legal game reaches
    ├── IllegalMoveError        a move that is not legal in the position
    │   └── GameOverError       any move after the game has ended
    ├── ConflictError           a change that contradicts what is stored (a finished game's
    │                           record rewritten); the web answers 409
    └── PluginError             a plug-in game's code raised something else than these
                                (named: the game, its method, what it raised)
"""

from __future__ import annotations

import re

MAX_WORD = 100
"""The most characters of one word (a run without spaces) of an error message: a longer one
(an input echoed whole, such as a 4,301-digit number) is cut in its middle by
:func:`shorten`."""
MAX_MESSAGE = 300
"""The most characters of an error message, whatever it echoes: a longer one is cut in its
middle by :func:`shorten` (the longest written in full, a refused trial naming its bounds,
has about 250)."""
_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")


def _cut_middle(text: str, limit: int, mark: str) -> str:
    """``text`` cut in its middle to ``limit`` characters, ``mark`` where it is cut."""
    if len(text) <= limit:
        return text
    head = (limit - len(mark)) * 2 // 3
    return text[:head] + mark + text[len(text) - (limit - len(mark) - head) :]


def shorten(message: str) -> str:
    """``message`` with every word longer than :data:`MAX_WORD` cut in its middle, and then
    the whole cut in its middle to :data:`MAX_MESSAGE` characters: its start names the input,
    its end says the reason."""
    message = _WORD.sub(lambda word: _cut_middle(word.group(), MAX_WORD, "..."), message)
    return _cut_middle(message, MAX_MESSAGE, " ... ")


class PerfectplayError(ValueError):
    """Base of all input errors; the message is meant for the user as it is (cut in the
    middle to :data:`MAX_MESSAGE` characters, however long the input it echoes)."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (shorten(args[0]),)
        super().__init__(*args)


class UnknownGameError(PerfectplayError):
    """The game name is not in the registry."""


class ParameterError(PerfectplayError):
    """A parameter (board size, k, depth, time, table size) is out of range or malformed."""


class NotationError(PerfectplayError):
    """Text that does not parse as a position or a move of the game."""


class IllegalPositionError(PerfectplayError):
    """A syntactically valid board that no legal game from the empty board reaches."""


class IllegalMoveError(PerfectplayError):
    """A move that is not legal in the given position."""


class GameOverError(IllegalMoveError):
    """A move was asked for, or played, in a position where the game has already ended."""


class NotFoundError(PerfectplayError):
    """A stored thing named by its id that is not there: a saved game that does not exist."""


class ConflictError(PerfectplayError):
    """A change that contradicts what is stored: a finished game's record rewritten, an
    ended game sent back to playing."""


class PluginError(PerfectplayError):
    """A plug-in game's own code (its kit or its rules) raised an exception that is not a
    :class:`PerfectplayError`; the message names the game, the method and what was raised."""


class DataFileError(ParameterError):
    """A data file the engine reads (an opening book, a database) that is damaged, is for
    another game, size or depth, or holds values out of range; the message names the file
    and the reason. A :class:`ParameterError`, as the file is named by an option (``--book``)
    or shipped for one (the board size)."""


def quote(text: object, limit: int = 60) -> str:
    """``text`` as a message quotes it: ``repr``, cut to ``limit`` characters (anything
    that is not text is quoted as its ``repr``, cut the same way; a value whose ``repr``
    fails, such as one holding an integer of more than 4300 digits, by its type)."""
    if not isinstance(text, str):
        try:
            shown = repr(text)
        except ValueError:  # Python refuses to write very long integers in decimal
            shown = f"<{type(text).__name__} too large to show>"
        return shown if len(shown) <= limit else shown[: limit - 3] + "..."
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)


PLAIN = re.compile(r"[\w.,:/+=-]{1,60}", re.ASCII)
"""Text shown as it is in a message: short, one word of common characters."""


def plain(value: object) -> str:
    """``value`` as a message shows an option's value: as it is when it is a short word
    (``--eval windows``), else quoted as :func:`quote` does (``--eval 'a b'``)."""
    return value if isinstance(value, str) and PLAIN.fullmatch(value) else quote(value)
