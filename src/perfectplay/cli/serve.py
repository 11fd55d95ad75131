"""The ``serve`` command: the web app under uvicorn (:mod:`perfectplay.web`).

``perfectplay serve [--host H] [--port P] [--db PATH] [--workers N] [--cap S]`` starts the app
on http://127.0.0.1:8000 by default, with its SQLite database in
``$XDG_DATA_HOME/perfectplay/games.sqlite3`` (``~/.local/share/...``) unless ``--db`` names
another file; it needs nothing else running. Bad options (a port out of range or in use, a
database that cannot be opened) are input errors: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import os
import socket
from pathlib import Path
from typing import Any

from perfectplay.errors import ParameterError

EPILOG = """examples:
  perfectplay serve                                  http://127.0.0.1:8000
  perfectplay serve --port 8080 --db ./games.sqlite3
  perfectplay serve --workers 4 --cap 10             4 engine processes, 10 s per request"""


def default_db() -> Path:
    """Where saved games live unless ``--db`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "perfectplay" / "games.sqlite3"


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
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    sub.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    sub.add_argument("--db", metavar="PATH", help=f"SQLite file of saved games ({default_db()})")
    sub.add_argument("--workers", type=int, default=2, help="engine processes (2)")
    sub.add_argument(
        "--cap", type=float, default=5.0, help="seconds of engine work per request, at most (5)"
    )


def run(args: argparse.Namespace) -> int:
    """Start the server and run until interrupted."""
    import uvicorn

    from perfectplay.web.app import Settings, create_app

    if not 1 <= args.port <= 65535:
        raise ParameterError(f"--port {args.port}: must be from 1 to 65535")
    if not 1 <= args.workers <= 64:
        raise ParameterError(f"--workers {args.workers}: must be from 1 to 64")
    if not 0 < args.cap <= 600:
        raise ParameterError(f"--cap {args.cap:g}: must be above 0 and at most 600 seconds")
    _check_free(args.host, args.port)
    db = Path(args.db) if args.db else default_db()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(
            f"--db {str(db)!r}: cannot create its folder ({exc.strerror})"
        ) from None
    app = create_app(Settings(db=db, workers=args.workers, cap=args.cap))
    print(
        f"perfectplay: serving on http://{args.host}:{args.port} (saved games in {db}, "
        f"{args.workers} engine workers, {args.cap:g} s cap); Ctrl-C stops",
        flush=True,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _check_free(host: str, port: int) -> None:
    """Refuse an address that cannot be listened on, before starting the workers."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise ParameterError(
            f"--host {host} --port {port}: cannot listen there ({exc.strerror or exc})"
        ) from None
