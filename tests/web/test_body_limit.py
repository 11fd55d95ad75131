"""The request size limit on a real server (uvicorn in a subprocess, ``live_server``), where
a body can stream in chunks without ``Content-Length``: the test client always sends one,
so only a real socket shows how a chunked body over the limit is answered.

A 10 MB chunked body to each POST route is answered 413 ``RequestTooLarge`` (it was once a
400 "There was an error parsing the body": FastAPI's answer when reading a body fails), and
a small chunked body is still read whole and answered as usual.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

TEN_MB = 10 * 1024 * 1024
CHUNK = 64 * 1024
ANSWER_S = 60.0
"""Longest wait for the whole answer (the server discards the rest of the body first)."""


class Answer:
    """The HTTP answer read from a socket by a thread, while the request is still sent."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._data = b""
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while not self._complete():
                data = self._sock.recv(65536)
                if not data:
                    break
                self._data += data
        except OSError:  # the server closed the connection: keep what came
            pass
        self.done.set()

    def _complete(self) -> bool:
        head, separator, body = self._data.partition(b"\r\n\r\n")
        if not separator:
            return False
        return len(body) >= int(_headers(head).get("content-length", "0"))

    def result(self) -> tuple[int, dict[str, str], Any]:
        """The status, the headers (lower-case names) and the JSON body."""
        assert self.done.wait(ANSWER_S), f"no complete answer within {ANSWER_S:g} s"
        head, _, body = self._data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        return status, _headers(head), json.loads(body) if body else None


def _headers(head: bytes) -> dict[str, str]:
    fields = (line.partition(":") for line in head.decode("latin-1").split("\r\n")[1:])
    return {name.strip().lower(): value.strip() for name, _, value in fields}


def post_chunked(url: str, path: str, chunks: Iterator[bytes]) -> tuple[int, dict[str, str], Any]:
    """POST ``chunks`` to ``url + path`` with ``Transfer-Encoding: chunked`` (no
    ``Content-Length``) and return the answer; sending stops early once the server has
    answered, or closed the connection."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=ANSWER_S) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        sock.sendall(head.encode())
        answer = Answer(sock)
        try:
            for chunk in chunks:
                if answer.done.is_set():
                    break
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            else:
                sock.sendall(b"0\r\n\r\n")
        except OSError:  # the server stopped reading: its answer is what counts
            pass
        return answer.result()


def ten_megabytes() -> Iterator[bytes]:
    """A JSON body's first 10 MB: a position string that never ends."""
    yield b'{"position": "'
    for _ in range(TEN_MB // CHUNK):
        yield b"4" * CHUNK


@pytest.mark.parametrize(
    "path", ["/api/connect4/analyze", "/api/tictactoe/state", "/api/games", "/api/games/import"]
)
def test_a_chunked_body_over_the_limit_is_413(live_server: str, path: str) -> None:
    status, headers, body = post_chunked(live_server, path, ten_megabytes())
    assert status == 413, body
    assert headers["content-type"] == "application/json"
    assert body["error"]["type"] == "RequestTooLarge"
    assert "bytes" in body["error"]["message"]


def test_a_small_chunked_body_is_read_whole(live_server: str) -> None:
    game = json.dumps({"game": "tictactoe", "moves": [{"row": 1, "col": 1}], "status": "playing"})
    pieces = iter([game[:10].encode(), game[10:].encode()])
    status, _, body = post_chunked(live_server, "/api/games", pieces)
    assert status == 201, body
    assert body["moves"] == [{"row": 1, "col": 1}] and body["status"] == "playing"
