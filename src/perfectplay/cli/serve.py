"""The ``serve`` command: the web app under uvicorn (:mod:`perfectplay.web`).

``perfectplay serve [--host H] [--port P] [--public] [--db PATH] [--workers N] [--cap S]
[--read-timeout S]``
starts the app on http://127.0.0.1:8000 by default, with its SQLite database in
``$XDG_DATA_HOME/perfectplay/games.sqlite3`` (``~/.local/share/...``) unless ``--db`` names
another file; it needs nothing else running. Its startup line names the address it listens
on, and whether other machines can reach it. The pages and ``/api/health`` answer at once;
the engines warm up in the background (one worker compiles the kernels on the first start
after an install, four to eight minutes, then the others load them), with a progress line at
least every few seconds and an ``engines ready after N s`` line when done; a worker that
dies is restarted, said in one line. A client has ``--read-timeout`` seconds (20) to send
each request, headers and body, and an idle connection is closed 5 s after its last answer
(:mod:`perfectplay.web.deadline`): a client that never finishes its request is answered 408
and disconnected, not held.

The app has no login, so it listens only on this machine unless told otherwise: a ``--host``
other than a loopback address (127.0.0.0/8, ::1, ``localhost``) is refused without
``--public``; ``''``, ``0.0.0.0`` and ``::`` mean every interface. Bad options (a host
refused so, a port out of range or in use, a database that cannot be opened) are input
errors: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
from pathlib import Path
from typing import Any

from perfectplay.cli.options import decimal, whole
from perfectplay.errors import ParameterError, quote

EPILOG = """examples:
  perfectplay serve                                  http://127.0.0.1:8000
  perfectplay serve --port 8080 --db ./games.sqlite3
  perfectplay serve --workers 4 --cap 10             4 engine processes, 10 s per request
  perfectplay serve --host 0.0.0.0 --public          every interface: other machines too"""
EVERY_INTERFACE = frozenset({"", "0.0.0.0", "::"})
"""The ``--host`` values that mean every interface of the machine."""
READ_TIMEOUT_S = 20.0
"""Seconds a client has to send one request, headers and body, unless ``--read-timeout``
says otherwise: the largest body the app takes (256 KiB) comes in far less even over a slow
mobile link."""
MIN_CAP_S = 0.05
"""The least ``--cap`` taken: below it no engine answers a request (loading a position and
sending the answer take that much), so the server would refuse every search."""
MAX_CAP_S = 600.0
"""The most ``--cap`` and ``--read-timeout`` taken."""
LOOPBACK = "a loopback address (127.0.0.0/8, ::1, localhost)"


def default_db() -> Path:
    """Where saved games live unless ``--db`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "perfectplay" / "games.sqlite3"


def database(value: str | None) -> Path:
    """The saved-games file of ``--db`` (``None``: :func:`default_db`, its folder made on
    first use); :class:`ParameterError` for an empty name, a folder given that does not
    exist (a typo must not create folders silently) or one that cannot be made."""
    if value is not None and not value.strip():
        raise ParameterError(f"--db {quote(value)}: an empty file name; name the SQLite file")
    db = default_db() if value is None else Path(value)
    if value and not db.parent.is_dir():
        raise ParameterError(
            f"--db {quote(str(db), 200)}: the folder {quote(str(db.parent), 200)} does not exist"
        )
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(
            f"--db {quote(str(db), 200)}: cannot create its folder ({exc.strerror})"
        ) from None
    return db


def add(commands: Any) -> None:
    """Declare the verb (it takes no GAME)."""
    summary = "run the web app: play against the engine, analyse, keep your games"
    sub: argparse.ArgumentParser = commands.add_parser(
        "serve",
        help=summary,
        description=summary,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.set_defaults(handler=run)
    sub.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (127.0.0.1); '' or 0.0.0.0: every interface",
    )
    sub.add_argument(
        "--public",
        action="store_true",
        help="allow a --host other machines can reach: the app has no login, anyone who "
        "reaches it can read and delete the saved games",
    )
    sub.add_argument("--port", type=whole, default=8000, help="port to listen on (8000)")
    sub.add_argument("--db", metavar="PATH", help=f"SQLite file of saved games ({default_db()})")
    sub.add_argument("--workers", type=whole, default=2, help="engine processes (2)")
    sub.add_argument(
        "--cap", type=decimal, default=5.0, help="seconds of engine work per request, at most (5)"
    )
    sub.add_argument(
        "--read-timeout",
        type=decimal,
        default=READ_TIMEOUT_S,
        metavar="S",
        help=f"seconds a client has to send a whole request, headers and body "
        f"({READ_TIMEOUT_S:g}); later: 408 and the connection closed",
    )


def run(args: argparse.Namespace) -> int:
    """Start the server and run until interrupted."""
    import uvicorn

    from perfectplay.web import deadline
    from perfectplay.web.app import Settings, create_app

    if not 1 <= args.port <= 65535:
        raise ParameterError(f"--port {args.port}: must be from 1 to 65535")
    if not 1 <= args.workers <= 64:
        raise ParameterError(f"--workers {args.workers}: must be from 1 to 64")
    if not MIN_CAP_S <= args.cap <= MAX_CAP_S:
        raise ParameterError(
            f"--cap {args.cap:g}: must be from {MIN_CAP_S:g} to {MAX_CAP_S:g} seconds"
        )
    if not 0 < args.read_timeout <= MAX_CAP_S:
        raise ParameterError(
            f"--read-timeout {args.read_timeout:g}: must be above 0 and at most "
            f"{MAX_CAP_S:g} seconds"
        )
    if args.db is not None and not args.db.strip():
        raise ParameterError(f"--db {quote(args.db)}: an empty file name; name the SQLite file")
    check_host(args.host, args.public)
    bound = _check_free(args.host, args.port)
    db = database(args.db)
    app = create_app(Settings(db=db, workers=args.workers, cap=args.cap, report=say))
    print(
        f"perfectplay: serving on {where(args.host, bound, args.port)} (saved games in {db}, "
        f"{args.workers} engine worker{'' if args.workers == 1 else 's'}, {args.cap:g} s cap); "
        "the pages answer now, the "
        "engines warm up meanwhile (a few seconds; the first start after an install compiles "
        "them: four to eight minutes, progress below); Ctrl-C stops",
        flush=True,
    )

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        http=deadline.protocol(args.read_timeout),
        timeout_keep_alive=deadline.KEEP_ALIVE_S,
    )
    return 0


def say(line: str) -> None:
    """Print one of the server's progress lines (the engines' warm-up, worker restarts)."""
    print(f"perfectplay: {line}", flush=True)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and the addresses of 127.0.0.0/8 and ``::1``: only this machine
    reaches them. A host name other than ``localhost`` is not trusted to resolve to one."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str, public: bool) -> None:
    """Refuse, with :class:`ParameterError` naming ``--host`` and ``--public``, a host other
    machines can reach (every interface, or anything but a loopback address) unless
    ``public``."""
    if public or is_loopback(host):
        return
    if host in EVERY_INTERFACE:
        reason = "means every interface, which other machines can reach"
    else:
        reason = f"is not {LOOPBACK}, so other machines can reach it"
    raise ParameterError(
        f"--host {quote(host)} {reason}, and the app has no login; add --public to serve it anyway"
    )


def where(host: str, bound: str, port: int) -> str:
    """The address(es) a server on ``host`` listens on, as its startup line says them:
    ``bound`` is the address the socket was bound to (``0.0.0.0`` for ``''``, ``127.0.0.1``
    for ``localhost``)."""
    if host in EVERY_INTERFACE:
        return f"every interface ({bound} port {port}), reachable from other machines"
    url = _url(host, port) if host == bound else f"{_url(host, port)} ({bound})"
    reach = "this machine only" if is_loopback(host) else "reachable from other machines"
    return f"{url}, {reach}"


def _url(host: str, port: int) -> str:
    """``http://host:port``, an IPv6 address in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _check_free(host: str, port: int) -> str:
    """The address ``host`` binds to, after checking that it can be listened on, before
    starting the workers; uvicorn binds the same way (IPv6 when the host has a colon)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.create_server((host, port), family=family) as probe:
            bound: str = probe.getsockname()[0]
            return bound
    except OSError as exc:
        raise ParameterError(
            f"--host {quote(host)} --port {port}: cannot listen there ({exc.strerror or exc})"
        ) from None
