"""Plug-in games behind a guard: whatever a plug-in's code raises becomes a clean error.

A game installed from outside perfectplay (entry-point group ``perfectplay.games``) runs code
perfectplay has never checked. Its kit's methods are guarded in place (:func:`guard_kit`: the
kit stays the plug-in's own object) and the games they make are handed out behind a proxy
(:class:`GuardedGame`): every call goes through to the plug-in's own code, and an exception
that is not a :class:`~perfectplay.errors.PerfectplayError` (a ``ValueError``, ``KeyError``,
``TypeError``, any ``Exception``) is raised again as a
:class:`~perfectplay.errors.PluginError` naming the game, the method and what was raised, so
the command line prints one line (exit 2) and the web answers 400, never an internal error.
A plug-in's own :class:`~perfectplay.errors.PerfectplayError` passes as it is. The built-in
games are never wrapped: their errors are precise, and their searches pay no indirection.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from perfectplay.errors import PerfectplayError, PluginError, quote
from perfectplay.games.kit import GameKit, Loaded

MESSAGE_LIMIT = 200
"""Most characters of a plug-in's own message quoted in a :class:`PluginError`."""


def _failure(game: str, method: str, exc: Exception) -> PluginError:
    """The clean error for ``exc`` raised by the plug-in ``game`` in ``method``."""
    return PluginError(
        f"game {quote(game)}: its rules raised {type(exc).__name__} in {method}: "
        f"{quote(str(exc), MESSAGE_LIMIT)}"
    )


def _is_game(value: object) -> bool:
    """Whether ``value`` looks like a game (it plays moves from an initial position)."""
    return not isinstance(value, type) and all(
        callable(getattr(value, name, None)) for name in ("initial", "play", "legal_moves")
    )


def _unwrap(value: Any) -> Any:
    """``value`` as the plug-in knows it: its own game, not the guard around it."""
    if isinstance(value, GuardedGame):
        return value.inner
    if isinstance(value, Loaded) and isinstance(value.game, GuardedGame):
        return Loaded(value.game.inner, value.position, value.moves)
    return value


def _wrap(game: str, value: Any) -> Any:
    """``value`` as perfectplay hands it on: a game the plug-in made, guarded."""
    if isinstance(value, Loaded) and not isinstance(value.game, GuardedGame):
        return Loaded(GuardedGame(game, value.game), value.position, value.moves)
    if not isinstance(value, GuardedGame) and _is_game(value):
        return GuardedGame(game, value)
    return value


_OUTER: ContextVar[bool] = ContextVar("perfectplay_plugin_call", default=False)
"""Whether a guarded call of a plug-in's kit is under way: the kit's calls of its own
methods run as they are (their games unwrapped, their errors its own), the outermost call
alone converts."""


def _guarded(
    game: str, method: str, function: Callable[..., Any], wrap: bool
) -> Callable[..., Any]:
    """``function`` (a plug-in's method) with its arguments unwrapped, its exceptions other
    than :class:`PerfectplayError` raised as :class:`PluginError` and, with ``wrap`` (a kit's
    method), the games it returns guarded; a kit's method called by the kit itself runs as
    it is."""

    def call(*args: Any, **kwargs: Any) -> Any:
        if wrap and _OUTER.get():
            return function(*args, **kwargs)
        plain_args = [_unwrap(arg) for arg in args]
        plain_kwargs = {name: _unwrap(arg) for name, arg in kwargs.items()}
        token = _OUTER.set(True) if wrap else None
        try:
            result = function(*plain_args, **plain_kwargs)
        except PerfectplayError:
            raise
        except Exception as exc:
            raise _failure(game, method, exc) from exc
        finally:
            if token is not None:
                _OUTER.reset(token)
        return _wrap(game, result) if wrap else result

    call.__name__ = method
    call.__doc__ = function.__doc__
    return call


def _attribute(game: str, owner: object, name: str, wrap: bool) -> Any:
    """Attribute ``name`` of the plug-in's ``owner``: a method guarded (``wrap``: see
    :func:`_guarded`), a value as it is (a property that raises is a :class:`PluginError`
    too)."""
    try:
        value = getattr(owner, name)
    except (PerfectplayError, AttributeError):
        raise
    except Exception as exc:
        raise _failure(game, name, exc) from exc
    if callable(value) and not isinstance(value, type):
        return _guarded(game, name, value, wrap)
    return value


class GuardedGame:
    """A plug-in's game behind the guard: every attribute is the game's own, every method
    guarded (see the module docstring). Equal, and hashed, as the game it wraps."""

    def __init__(self, game_name: str, inner: Any) -> None:
        self.game_name = game_name
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("game_name", "inner"):
            raise AttributeError(name)
        value = _attribute(self.game_name, self.inner, name, wrap=False)
        if callable(value):
            self.__dict__[name] = value  # a method is looked up once per game
        return value

    def __eq__(self, other: object) -> bool:
        inner = other.inner if isinstance(other, GuardedGame) else other
        return bool(self.inner == inner)

    def __hash__(self) -> int:
        return hash(self.inner)

    def __repr__(self) -> str:
        return repr(self.inner)

    def __str__(self) -> str:
        return str(self.inner)

    def __reduce__(self) -> tuple[Any, tuple[str, Any]]:
        return GuardedGame, (self.game_name, self.inner)


GUARDED = "_perfectplay_guarded"
"""The instance attribute that marks a kit whose methods are guarded."""


def guard_kit(kit: GameKit) -> GameKit:
    """``kit`` (a plug-in's) with every public method guarded (see the module docstring),
    in place: the same object, still an instance of its own class; its methods are wrapped
    once, however often it is guarded. Returns ``kit``."""
    if kit.__dict__.get(GUARDED):
        return kit
    name = str(getattr(kit, "name", "?"))
    for attribute in dir(kit):
        if attribute.startswith("_"):
            continue
        value = getattr(kit, attribute, None)
        if inspect.ismethod(value) and value.__self__ is kit:
            setattr(kit, attribute, _guarded(name, attribute, value, wrap=True))
    kit.__dict__[GUARDED] = True
    return kit
