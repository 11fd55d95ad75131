"""Who plays in a tournament: player specs read once, with precise errors.

::

    engine | engine:depth=2 | engine:eval=neighbors,time=0.5    our engine (the arena's specs)
    random | random:seed=3                                       random legal moves
    level:casual                                                 a strength of search/levels.py
    course:PATH | course:PATH:CLASS                              a course bot (shape-and-color)
    gomocup:PATH                                                 a Gomocup brain (m,n,k, Gomoku)
    line:PATH                                                    our line protocol (any game)

Each may end in ``@NAME``, the name in the tables (default: the spec for our players, the
file's name without its suffix for outside bots). ``PATH`` is a file (for ``course``, a
Python file or a package folder). Outside bots run in the sandbox
(:mod:`perfectplay.jobs.sandbox`); ours run in the referee's process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from perfectplay.analysis.arena import PlayerSpec, parse_player
from perfectplay.errors import ParameterError, quote
from perfectplay.search.levels import LEVELS, level_named

OURS = ("engine", "random", "level")
OUTSIDE = ("course", "gomocup", "line")
COURSE_GAMES = ("simplexity",)
GOMOCUP_GAMES = ("tictactoe", "gomoku")
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Entrant:
    """A checked player: ``name`` (unique in its tournament), ``kind`` (one of :data:`OURS`
    or :data:`OUTSIDE`), ``spec`` (the text without ``@NAME``), ``engine`` (for ``engine``
    and ``random``), ``level`` (for ``level``), ``path`` and ``class_name`` (outside bots;
    ``path`` absolute)."""

    name: str
    kind: str
    spec: str
    engine: PlayerSpec | None = None
    level: str | None = None
    path: str | None = None
    class_name: str | None = None

    @property
    def outside(self) -> bool:
        """Whether the player is code we did not write (it runs in the sandbox)."""
        return self.kind in OUTSIDE


def parse_entrant(text: str, game_name: str, evaluations: tuple[str, ...]) -> Entrant:
    """The :class:`Entrant` of ``text`` for a tournament of ``game_name`` (the kit's name).

    Raises :class:`ParameterError` quoting the spec for an unknown kind, a bad engine or level
    spec, an empty or over-long name, a missing file or folder, a course bot outside the
    shape-and-color game, a Gomocup brain outside the m,n,k games.
    """
    if not isinstance(text, str) or not text.strip():
        raise ParameterError(f"player {quote(text)}: expected a spec such as engine:depth=2")
    spec, at, name = text.strip().rpartition("@") if "@" in text else (text.strip(), "", "")
    spec = spec.strip()
    kind = spec.partition(":")[0].strip().lower()
    if kind in ("engine", "random"):
        engine = parse_player(spec, evaluations)
        return Entrant(_name(text, name, spec, at), kind, spec, engine=engine)
    if kind == "level":
        level = spec.partition(":")[2].strip().lower()
        try:
            level_named(level)
        except ParameterError:
            names = ", ".join(item.name for item in LEVELS)
            raise ParameterError(
                f"player {quote(text)}: level {quote(level)} is unknown; known are {names}"
            ) from None
        return Entrant(_name(text, name, spec, at), kind, spec, level=level)
    if kind in OUTSIDE:
        return _outside(text, kind, spec, name, at, game_name)
    known = ", ".join((*OURS, *OUTSIDE))
    raise ParameterError(f"player {quote(text)}: unknown kind {quote(kind)}; known are {known}")


def _name(text: str, name: str, default: str, at: str) -> str:
    chosen = name.strip() if at else default
    if not chosen or len(chosen) > MAX_NAME or any(c.isspace() for c in chosen):
        raise ParameterError(
            f"player {quote(text)}: the name {quote(chosen)} must be 1-{MAX_NAME} characters "
            "without spaces"
        )
    return chosen


def _outside(text: str, kind: str, spec: str, name: str, at: str, game_name: str) -> Entrant:
    games = {"course": COURSE_GAMES, "gomocup": GOMOCUP_GAMES}.get(kind)
    if games is not None and game_name not in games:
        raise ParameterError(
            f"player {quote(text)}: a {kind} bot plays {' or '.join(games)}, not {game_name}"
        )
    rest = spec.partition(":")[2].strip()
    class_name = None
    if kind == "course" and ":" in rest:
        rest, _, class_name = rest.rpartition(":")
        if not class_name.isidentifier():
            raise ParameterError(f"player {quote(text)}: {quote(class_name)} is no class name")
    if not rest:
        raise ParameterError(f"player {quote(text)}: expected {kind}:PATH")
    path = Path(rest).expanduser().resolve()
    _check_path(text, kind, path)
    default = path.stem if path.is_file() else path.name
    return Entrant(
        _name(text, name, default, at), kind, spec, path=str(path), class_name=class_name
    )


def _check_path(text: str, kind: str, path: Path) -> None:
    if kind == "course":
        if path.is_dir() and (path / "__init__.py").is_file():
            return
        if path.is_file() and path.suffix == ".py":
            return
        raise ParameterError(
            f"player {quote(text)}: {quote(str(path))} is no Python file (.py) nor package "
            "folder (with __init__.py)"
        )
    if not path.is_file():
        raise ParameterError(f"player {quote(text)}: no file {quote(str(path))}")
    if path.suffix != ".py" and not os.access(path, os.X_OK):
        raise ParameterError(
            f"player {quote(text)}: {quote(str(path))} is not executable (nor a .py script)"
        )


def check_names(entrants: list[Entrant]) -> None:
    """Raise :class:`ParameterError` when two players share a name (name them with @NAME)."""
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.name in seen:
            raise ParameterError(
                f"player name {quote(entrant.name)} is given twice; name them apart with @NAME"
            )
        seen.add(entrant.name)
