"""The process a course bot lives in: loads the bot's file and answers the referee's pipe.

Started inside the sandbox (:mod:`perfectplay.jobs.sandbox`) as a fresh interpreter::

    python -I -B -m perfectplay.adapters.bot_runner PATH [CLASS]

``PATH`` is a Python file or a package folder; ``CLASS`` names the bot's class (without it,
the one class defined there that has a ``find`` method). The pipe protocol, one JSON object a
line on the runner's standard input and output::

    runner  -> {"ready": "MinimaxBot"}           the bot is loaded and built (no arguments)
    referee -> {"find": STATE, "player": 0, "time": 0.3}
    runner  -> {"move": [3, "O"]}                what find returned: column (0-based), shape
    runner  -> {"error": "crash", "detail": "ZeroDivisionError: ..."}
    referee -> {"end": true}                     (or end of input): the runner exits

``STATE`` is :func:`perfectplay.adapters.course_state.state_data`'s plain data. Errors:
``memory`` (a ``MemoryError``), ``sandbox`` (the bot tried something the sandbox forbids:
a socket, a write outside its folder, starting a process, signalling one; seen by an audit
hook, whatever the bot caught), ``crash`` (any other exception, or a bot that cannot be
loaded). The bot's own prints go to standard error: its standard output is not the pipe.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from typing import Any, TextIO

from perfectplay.adapters.course_state import state_from_data

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
FORBIDDEN = frozenset(
    {
        "socket.connect",
        "socket.bind",
        "socket.sendto",
        "socket.sendmsg",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "os.fork",
        "os.forkpty",
        "os.posix_spawn",
        "os.exec",
        "os.system",
        "subprocess.Popen",
        "os.kill",
        "os.killpg",
    }
)
"""Audit events a bot may not raise at all."""
PATH_EVENTS = frozenset(
    {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.symlink"}
    | {"os.link", "os.truncate", "os.utime", "shutil.rmtree"}
)
"""Audit events whose first argument is a path that must lie inside the bot's folder."""


class SandboxViolation(BaseException):
    """The bot did something the sandbox forbids (a ``BaseException``: ``except Exception``
    in the bot does not swallow it)."""


class Guard:
    """The audit hook: remembers the first forbidden act of the bot and raises
    :class:`SandboxViolation` for it (and for every later one)."""

    def __init__(self, folder: str) -> None:
        self.folder = os.path.realpath(folder)
        self.violation: str | None = None
        self.busy = False

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if self.busy:
            return
        self.busy = True
        try:
            found = self.check(event, args)
        finally:
            self.busy = False
        if found is not None:
            self.violation = self.violation or found
            raise SandboxViolation(found)

    def check(self, event: str, args: tuple[Any, ...]) -> str | None:
        """What is forbidden about ``event``, or ``None``."""
        if event in FORBIDDEN:
            return f"{event} is not allowed"
        if event == "open" and len(args) >= 3 and _writes(args[1], args[2]):
            return self.outside(event, args[0])
        if event in PATH_EVENTS and args:
            return self.outside(event, args[0])
        return None

    def outside(self, event: str, path: Any) -> str | None:
        """A violation when ``path`` (not a file descriptor) lies outside the folder."""
        if isinstance(path, int) or path is None:
            return None
        try:
            full = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return f"{event} of an unreadable path"
        if full == self.folder or full.startswith(self.folder + os.sep):
            return None
        return f"{event} {full!r}: outside the bot's folder"


def _writes(mode: Any, flags: Any) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & WRITE_FLAGS)


def load_bot(path: str, class_name: str | None) -> Any:
    """The bot built from ``path`` (a file or package folder) and ``class_name`` (or the one
    class defined there with ``find``). Raises ``ImportError`` or ``LookupError``."""
    path = os.path.abspath(path)
    if os.path.isdir(path):
        sys.path.insert(0, os.path.dirname(path))
        module = importlib.import_module(os.path.basename(path))
    else:
        sys.path.insert(0, os.path.dirname(path))
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    if class_name is not None:
        if not isinstance(getattr(module, class_name, None), type):
            raise LookupError(f"no class {class_name} in {path}")
        return getattr(module, class_name)()
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and callable(getattr(value, "find", None))
    ]
    if len(found) != 1:
        names = ", ".join(sorted(c.__name__ for c in found)) or "none"
        raise LookupError(f"expected one class with find in {path}, found {names}")
    return found[0]()


def answer(bot: Any, guard: Guard, request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one ``find`` request (see the module docstring)."""
    state = state_from_data(request["find"])
    try:
        column, shape = bot.find(state, int(request["player"]), float(request["time"]))
        move = [int(column), str(getattr(shape, "value", shape))]
    except SandboxViolation as exc:
        return {"error": "sandbox", "detail": str(exc)}
    except MemoryError:
        return {"error": "memory", "detail": "MemoryError"}
    except Exception as exc:
        if guard.violation is not None:
            return {"error": "sandbox", "detail": guard.violation}
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return {"error": "crash", "detail": detail[:500]}
    if guard.violation is not None:
        return {"error": "sandbox", "detail": guard.violation}
    return {"move": move}


def send(out: TextIO, data: dict[str, Any]) -> None:
    """One line of JSON to the referee."""
    out.write(json.dumps(data) + "\n")
    out.flush()


def private_pipes() -> tuple[TextIO, TextIO]:
    """The referee's pipe, moved off file descriptors 0 and 1: the bot's input is empty and
    its prints go to standard error."""
    into = os.fdopen(os.dup(0), "r")
    out = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - the bot's empty input, for the process
    sys.stdout = sys.stderr
    return into, out


def serve(path: str, class_name: str | None) -> int:
    """Load the bot, then answer requests until ``end``; the exit status."""
    into, out = private_pipes()
    guard = Guard(os.getcwd())
    sys.addaudithook(guard)
    try:
        bot = load_bot(path, class_name)
    except SandboxViolation as exc:
        send(out, {"error": "sandbox", "detail": str(exc)})
        return 1
    except MemoryError:
        send(out, {"error": "memory", "detail": "MemoryError while loading"})
        return 1
    except Exception as exc:
        send(out, {"error": "crash", "detail": f"cannot load the bot: {exc}"[:500]})
        return 1
    send(out, {"ready": type(bot).__name__})
    for line in into:
        request = json.loads(line)
        if request.get("end"):
            break
        send(out, answer(bot, guard, request))
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
