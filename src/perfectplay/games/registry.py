"""The game registry: every game perfectplay knows, one line each, and the games installed
from outside through the entry-point group ``perfectplay.games``.

A registry line names the module attribute that holds the game's kit
(:class:`perfectplay.games.kit.GameKit`); the module is imported on first use, so that
``perfectplay --help`` imports no game. An installed package adds a game by declaring, in its
``pyproject.toml``::

    [project.entry-points."perfectplay.games"]
    nim = "nim_game.kit:KIT"

Names and aliases are matched case-insensitively; a later game cannot take a name or alias
already taken (it is skipped, and the clash is reported by :func:`problems`). A name the
built-in games answer is looked up without reading the installed packages' entry points
(tens of milliseconds at every start): no plug-in can take it.

An entry point may also name a plain game class (:mod:`perfectplay.games.simple`: start,
moves, play, result), which is adapted under the entry point's name. A plain game can be
registered in a running process too, with no packaging: :func:`register` (exported as
``perfectplay.register``) keeps it in :data:`REGISTERED` for the rest of the process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from perfectplay.errors import ParameterError, UnknownGameError, quote
from perfectplay.games.kit import GameKit, GameParams
from perfectplay.games.plugin import guard_kit
from perfectplay.games.simple import SimpleKit, is_plain, kit_of_rules

ENTRY_POINT_GROUP = "perfectplay.games"

BUILTIN = (
    "perfectplay.games.mnk.kit:KIT",
    "perfectplay.games.mnk.kit:GOMOKU_KIT",
    "perfectplay.games.connect4.kit:KIT",
    "perfectplay.games.simplexity.kit:KIT",
)
"""The built-in games, one line each, in the order they are listed."""


@dataclass(frozen=True)
class Registry:
    """The kits by name, the aliases, and what went wrong loading plug-ins."""

    kits: Mapping[str, GameKit]
    aliases: Mapping[str, str]
    problems: tuple[str, ...]


def _load(reference: str) -> object:
    module, _, attribute = reference.partition(":")
    return getattr(import_module(module), attribute)


def _as_kit(found: object, name: str | None = None) -> GameKit:
    if name is not None and not isinstance(found, GameKit) and is_plain(found):
        return kit_of_rules(found, name)
    kit = found() if isinstance(found, type) and issubclass(found, GameKit) else found
    if not isinstance(kit, GameKit):
        raise TypeError(f"{found!r} is not a GameKit")
    return kit


@cache
def builtin_registry() -> Registry:
    """The built-in games alone, read once per process."""
    return _registry([(ref, lambda ref=ref: _load(ref)) for ref in BUILTIN])


@cache
def registry() -> Registry:
    """The built-in games and the installed plug-ins, read once per process (a plug-in
    installed later is seen by the next process)."""
    from importlib.metadata import entry_points

    sources: list[tuple[Any, ...]] = [(ref, lambda ref=ref: _load(ref)) for ref in BUILTIN]
    sources += [
        (ep.value, ep.load, ep.name.lower()) for ep in entry_points(group=ENTRY_POINT_GROUP)
    ]
    return _registry(sources)


def _registry(sources: list[tuple[Any, ...]]) -> Registry:
    """The kits of ``sources`` (label, loader and, for an entry point, its name), in order;
    a kit that fails to load or takes a name already taken is left out, and the reason
    kept."""
    kits: dict[str, GameKit] = {}
    aliases: dict[str, str] = {}
    problems: list[str] = []
    for label, load, *named in sources:
        try:
            kit = _as_kit(load(), *named)
        except Exception as exc:  # a broken plug-in must not break the built-in games
            problems.append(f"{label}: {type(exc).__name__}: {exc}")
            continue
        names = [kit.name.lower(), *(a.lower() for a in kit.aliases)]
        taken = [n for n in names if n in kits or n in aliases]
        if taken:
            problems.append(f"{label}: the name {taken[0]!r} is taken")
            continue
        kits[names[0]] = kit
        aliases.update((alias, names[0]) for alias in names[1:])
    return Registry(kits, aliases, tuple(problems))


class Registrations:
    """The plain games registered in this process by :func:`register`, by name.

    A process-wide registry is unavoidable here: ``perfectplay.register(MyGame)`` in a
    notebook cell must make ``MyGame`` known to every later call of the api (``load``,
    ``solve``, ``tree``) in that process, none of which is handed a registry. It is this one
    object, changed only by :meth:`add`; the built-in games and the entry points stay
    immutable, read once.
    """

    def __init__(self) -> None:
        self._kits: dict[str, GameKit] = {}

    def add(self, kit: SimpleKit) -> None:
        """Registers ``kit`` under its name, replacing an earlier registration of the name
        (a notebook cell run again)."""
        self._kits[kit.name] = kit

    def registry(self) -> Registry:
        """The games registered so far."""
        return Registry(dict(self._kits), {}, ())


REGISTERED = Registrations()
"""The process's in-process registrations (see :class:`Registrations`)."""


def register(rules: Any, name: str | None = None) -> GameKit:
    """Makes the plain game ``rules`` (a class with start, moves, play and result, or an
    instance of one; see :mod:`perfectplay.games.simple`) known as ``name`` (by default its
    class name in lower case) to this process: the api, ``perfectplay.tree``, the stepper.

    Returns the game's kit. Raises :class:`ParameterError` for a name that is not a plain
    name or that a built-in or installed game has, or for a class that lacks a rule; a
    plain game's constructor that raises is a :class:`~perfectplay.errors.PluginError`.
    Running it again with the same name replaces the earlier game.
    """
    label = str(name or getattr(rules, "__name__", type(rules).__name__)).lower()
    installed = registry()
    lowered = label.strip().lower()
    if lowered in installed.kits or lowered in installed.aliases:
        raise ParameterError(f"name {quote(label)}: a built-in or installed game has it")
    kit = kit_of_rules(rules, label)
    REGISTERED.add(kit)
    return kit


def _known(name: str) -> tuple[Registry, str]:
    """The registry that knows ``name`` (the built-in one when it does, then the games
    registered in this process, then the full one) and the registered name it stands for;
    raises :class:`UnknownGameError` naming the known games."""
    lowered = name.strip().lower()
    for source in (builtin_registry, REGISTERED.registry, registry):
        known = source()
        resolved = known.aliases.get(lowered, lowered)
        if resolved in known.kits:
            return known, resolved
    names = ", ".join(game_names())
    raise UnknownGameError(f"game {quote(name)}: unknown; known games are {names}")


def canonical_name(name: str) -> str:
    """The registered name for ``name`` or one of its aliases (case-insensitive).

    Raises :class:`UnknownGameError` naming the known games.
    """
    return _known(name)[1]


def get_kit(name: str) -> GameKit:
    """The kit of the game ``name`` (or an alias); raises :class:`UnknownGameError`.

    A plug-in's kit comes behind the guard of :mod:`perfectplay.games.plugin` (its games
    too): whatever its code raises is a :class:`~perfectplay.errors.PluginError` naming the
    game, or its own :class:`~perfectplay.errors.PerfectplayError`; a built-in kit comes as
    it is.
    """
    known, registered = _known(name)
    kit = known.kits[registered]
    builtin = builtin_registry().kits.get(registered)
    return kit if kit is builtin else guard_kit(kit)


def kit_of(game: Any) -> GameKit:
    """The kit of a game object (by its ``name``); raises :class:`UnknownGameError`."""
    return get_kit(game.name)


def get_game(name: str, size: tuple[int, int] | None = None, k: int | None = None) -> Any:
    """The game ``name`` built with ``size`` (in its kit's order) and ``k``; raises
    :class:`UnknownGameError` or :class:`~perfectplay.errors.ParameterError`."""
    return get_kit(name).make(GameParams(size, k))


def game_names() -> list[str]:
    """Registered game names (installed and registered in this process), sorted."""
    return sorted({*registry().kits, *REGISTERED.registry().kits})


def problems() -> tuple[str, ...]:
    """Plug-ins that could not be loaded, and why."""
    return registry().problems
