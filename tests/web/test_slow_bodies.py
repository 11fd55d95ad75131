"""Requests that never arrive whole are not held: a real ``perfectplay serve`` (subprocess,
``--read-timeout``) and 50 raw sockets that each start a request and stall: a
``Content-Length`` never met, a chunk announced as 2^64-1 bytes, headers never finished, or
nothing sent at all. Each is closed within the read timeout (the ones whose headers came,
with a 408 ``RequestTimeout``), while ``/api/health`` keeps answering at once. Once the
server held all of them open for good (90 s and counting).
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from web import live

READ_TIMEOUT_S = 4.0
"""The server's ``--read-timeout`` here: short, to keep the test short."""
SLACK_S = 3.0
"""How long after the read timeout a stalled connection may still be open (a busy machine)."""
HEALTH_S = 1.0
"""Longest answer of ``/api/health`` while the stalled connections are held."""
CONNECTIONS = 50
STALLS = (
    b"POST /api/tictactoe/state HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    b'Content-Length: 1000\r\n\r\n{"position": "',
    b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{",
    b"GET /api/health HTTP/1.1\r\nHost: t\r\nX-Slow: ",
    b"",
)
"""What each kind of stalled client sends before it stops: a body short of its
Content-Length, a chunk of 2^64-1 bytes just begun, headers never ended, nothing."""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with a short ``--read-timeout``; its pages suffice (no engine is asked)."""
    folder: Path = tmp_path_factory.mktemp("slow")
    port = live.free_port()
    log = folder / "serve.log"
    options = ("--workers", "1", "--read-timeout", f"{READ_TIMEOUT_S:g}")
    process = live.start(folder / "games.sqlite3", port, log, *options)
    url = f"http://127.0.0.1:{port}"
    try:
        live.wait_healthy(url, process, log, engines=False)
        yield url
    finally:
        live.stop(process)


def stall(port: int, count: int) -> list[socket.socket]:
    """``count`` connections, each sending the start of one of :data:`STALLS`."""
    sockets = []
    for index in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(STALLS[index % len(STALLS)])
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def wait_closed(sockets: list[socket.socket], within: float) -> dict[socket.socket, bytes]:
    """What each socket received until the server closed it; fails naming how many were
    still open after ``within`` seconds."""
    received = {sock: b"" for sock in sockets}
    selector = selectors.DefaultSelector()
    sock: object  # a socket, then what the selector hands back (checked to be one)
    for sock in sockets:
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + within
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            received[sock] += data
            if not data:
                selector.unregister(sock)
    still_open = len(selector.get_map())
    selector.close()
    assert still_open == 0, f"{still_open} of {len(sockets)} connections open after {within:g} s"
    return received


def health_latency(url: str) -> float:
    """Seconds ``/api/health`` takes to answer ok."""
    began = time.monotonic()
    with urllib.request.urlopen(f"{url}/api/health", timeout=10) as answer:
        assert json.load(answer)["status"] == "ok"
    return time.monotonic() - began


def test_stalled_requests_are_closed_while_others_are_served(slow_server: str) -> None:
    port = int(slow_server.rsplit(":", 1)[1])
    began = time.monotonic()
    sockets = stall(port, CONNECTIONS)
    try:
        latencies = [health_latency(slow_server) for _ in range(5)]
        assert max(latencies) < HEALTH_S, latencies
        received = wait_closed(sockets, READ_TIMEOUT_S + SLACK_S)
        assert time.monotonic() - began >= READ_TIMEOUT_S * 0.9  # not closed early
    finally:
        for sock in sockets:
            sock.close()
    for sock, data in received.items():
        if sockets.index(sock) % len(STALLS) < 3:  # it sent something: told why
            assert data.startswith(b"HTTP/1.1 408 "), data[:200]
            assert b'"RequestTimeout"' in data and b"connection: close" in data.lower()
    assert health_latency(slow_server) < HEALTH_S


def test_a_request_sent_whole_is_answered(slow_server: str) -> None:
    """A request that arrives in time is served, and its connection kept alive."""
    port = int(slow_server.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        for _ in range(2):  # twice on the same connection, the second after a pause
            connection.request(
                "POST",
                "/api/tictactoe/state",
                body=b'{"position": "xo_/___/___"}',
                headers={"Content-Type": "application/json"},
            )
            answer = connection.getresponse()
            assert answer.status == 200 and json.load(answer)["ply"] == 2
            time.sleep(1)
    finally:
        connection.close()
