"""How long a client may take to send a request: uvicorn's HTTP/1.1 protocol with a deadline.

uvicorn closes a connection left idle after an answer (``timeout_keep_alive``), but nothing
bounds the time to *send* a request: a client that opens a connection and says nothing, sends
its headers a byte at a time, or announces a body (a ``Content-Length`` never met, a chunk
of 2^64-1 bytes) and never sends it, was held open forever, and enough of them exhaust the
server's sockets. :func:`protocol` makes the protocol class ``perfectplay serve`` gives
uvicorn (``http=``): each request, its headers and its whole body, must arrive within
``read_timeout`` seconds of its first byte (of the connection's opening, for the first
request). Past the deadline the server answers ``408 RequestTimeout`` (the API's error body,
``Connection: close``) when it has not answered yet, and closes the connection either way;
the request's handler, if one is waiting for the body, reads a disconnect. Other
connections are served meanwhile: the deadline is a timer on the event loop.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from perfectplay.web.boundary import SECURITY_HEADERS

KEEP_ALIVE_S = 5
"""Seconds an idle connection stays open after an answer (uvicorn's ``timeout_keep_alive``)."""


def timeout_answer(read_timeout: float) -> bytes:
    """The raw HTTP/1.1 answer to a request not received within ``read_timeout`` seconds:
    408 with the API's error body, the security headers and ``Connection: close``."""
    message = f"the request did not arrive within {read_timeout:g} s"
    body = json.dumps({"error": {"type": "RequestTimeout", "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
    ]
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return b"HTTP/1.1 408 Request Timeout\r\n" + head + b"\r\n" + body


class DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request does not arrive whole
    within :attr:`read_timeout` seconds (see the module's docstring)."""

    read_timeout: float
    """Seconds a request has to arrive whole (set by :func:`protocol`)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the first request's clock: a client that connects and says nothing is
        closed at the deadline."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Start the clock on a request's first byte, stop it once the request is whole."""
        if self._deadline is None and self._receiving():
            self._arm()
        super().data_received(data)
        if not self._receiving():
            self._disarm()  # whole (DONE), or the connection is ending

    def _receiving(self) -> bool:
        """Whether a request is (or may be) on its way: h11 waits for its head or body."""
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock with the connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        """The deadline passed with the request incomplete: answer 408 unless the app has
        begun answering, tell a handler waiting for the body that the client is gone, and
        close the connection."""
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        answered = cycle is not None and (cycle.response_started or cycle.response_complete)
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the handler's later sends are dropped
            cycle.message_event.set()  # a handler waiting for the body reads a disconnect
        if not answered:
            self.transport.write(timeout_answer(self.read_timeout))
        self.transport.close()


def protocol(read_timeout: float) -> type[DeadlineProtocol]:
    """The protocol class for uvicorn's ``http=`` that gives each request ``read_timeout``
    seconds to arrive whole. Raises ValueError for a timeout that is not positive."""
    if not read_timeout > 0:
        raise ValueError(f"read timeout {read_timeout!r}: must be above 0 seconds")
    return type("DeadlineProtocol", (DeadlineProtocol,), {"read_timeout": read_timeout})
