"""An engine worker process: ``python -m perfectplay.web.worker FD [--cold]``.

It reads ``(job, args)`` pairs from the connection on file descriptor ``FD`` (one end of a
socket pair made by :class:`perfectplay.web.pool.EnginePool`), runs
``perfectplay.web.jobs.JOBS[job](**args)`` and sends back ``("ok", result)``,
``("error", (class name, message))`` for input the library rejects, or ``("bug", text)``.
It first loads the compiled kernels (unless ``--cold``) and sends ``("ready", None)``; it
exits when the server closes the connection.
"""

from __future__ import annotations

import sys
from multiprocessing.connection import Connection
from typing import Any

from perfectplay import errors


def serve(conn: Connection, warm: bool) -> None:
    """Run jobs from ``conn`` until it closes."""
    from perfectplay.web.jobs import JOBS, warm_up

    if warm:
        warm_up()
    conn.send(("ready", None))
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", JOBS[name](**args))
        except errors.PerfectplayError as exc:
            reply = ("error", (type(exc).__name__, str(exc)))
        except Exception as exc:  # a bug: reported without a traceback reaching the client
            reply = ("bug", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


def main(argv: list[str]) -> None:
    """Serve on the descriptor named by ``argv[0]``."""
    serve(Connection(int(argv[0])), warm="--cold" not in argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
