"""Issue 25, item 1: a server that is up at once. The engine pool starts in the background:
``/api/health`` and the pages answer while one worker warms up (here the test-only stand-in
warm-up, :data:`perfectplay.web.worker.TEST_WARM_STUB`, which sleeps instead of compiling),
engine requests wait for a worker expected soon or get 503 with ``Retry-After``, a worker
that dies is restarted (with a backoff) and said in one line, and stopping the pool or the
server leaves no worker behind, warming or starting.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from perfectplay.web.app import Settings, create_app
from perfectplay.web.pool import EnginePool, EngineTimeout, EngineWarming
from perfectplay.web.pool import unpack as pool_reply
from perfectplay.web.worker import TEST_WARM_STUB
from web import live

MOVE = {"position": "x________"}
"""A tic-tac-toe request answered at once by any ready worker."""
SLOW = {"game": "tictactoe", "position": "xoxo_x/oxox_o/xoxo__/______", "k": 4}
"""A history job far longer than any cap used here (see test_pool.py)."""
STARTED_S = 3.0
"""How soon after it starts the app must answer ``/api/health`` (issue 25)."""


def worker_children(parent: int | None = None) -> list[int]:
    """The engine worker processes whose parent is ``parent`` (this process by default),
    zombies left out."""
    parent = os.getpid() if parent is None else parent
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[1]) == parent and b"perfectplay.web.worker" in command:
            found.append(int(entry.name))
    return found


def gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie counts: it runs no more)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True


def until(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``check`` until it holds; AssertionError naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        time.sleep(0.05)


def engines(client: TestClient) -> dict[str, Any]:
    """``/api/health``'s ``engines`` object."""
    answer: dict[str, Any] = client.get("/api/health").json()["engines"]
    return answer


@pytest.fixture
def slow_warm_up(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Give the workers started from now on the stand-in warm-up of that many seconds per
    game (they inherit this process's environment)."""
    return lambda seconds: monkeypatch.setenv(TEST_WARM_STUB, str(seconds))


def warming_app(tmp_path: Path, **options: Any) -> TestClient:
    """A test client of an app with warm workers (one, unless ``options`` say otherwise)."""
    settings = Settings(db=tmp_path / "games.sqlite3", **{"workers": 1, **options})
    return TestClient(create_app(settings))


# -- the app while the engines warm up -------------------------------------------------------
def test_health_answers_at_once_while_the_worker_warms_up(
    tmp_path: Path, slow_warm_up: Callable[[float], None]
) -> None:
    slow_warm_up(30)
    started = time.monotonic()
    with warming_app(tmp_path, workers=2) as client:
        health = client.get("/api/health").json()
        took = time.monotonic() - started
        assert health["status"] == "ok" and health["engine"]["workers"] == 2  # the old keys
        assert took < STARTED_S, f"/api/health answered {took:.1f} s after the start"
        assert client.get("/").status_code == 200
        assert health["engines"]["ready"] is False
        assert health["engines"]["workers_ready"] == 0
        until(lambda: engines(client)["warming"] is not None, 30, "the warm-up reported a game")
        state = engines(client)
        assert state["step"] == 1 and state["steps"] >= 4 and state["ready"] is False
        assert state["workers_starting"] == 1  # only the warming worker: the other waits
        assert state["retry_after_s"] >= 1 and state["elapsed_s"] >= 0


def test_an_engine_request_gets_503_and_retry_after_while_none_is_expected_soon(
    tmp_path: Path, slow_warm_up: Callable[[float], None]
) -> None:
    slow_warm_up(30)
    with warming_app(tmp_path, cap=0.5, first_wait=0.5) as client:
        answer = client.post("/api/tictactoe/move", json=MOVE)
        assert answer.status_code == 503
        assert answer.json()["error"]["type"] == "EngineWarming"
        assert "warming up" in answer.json()["error"]["message"]
        assert set(answer.json()) == {"error"} and set(answer.json()["error"]) == {
            "type",
            "message",
        }
        assert 1 <= int(answer.headers["retry-after"]) <= 10
        assert client.get("/api/health").json()["status"] == "ok"  # the server is still up


def test_the_estimate_refuses_at_once_what_would_wait_in_vain(
    tmp_path: Path, slow_warm_up: Callable[[float], None]
) -> None:
    """Once games have been warmed, the rest is estimated: a request that no worker would
    serve within its wait is refused at once, told when to come back."""
    slow_warm_up(1.5)
    with warming_app(tmp_path, cap=0.5, first_wait=0.5) as client:
        until(lambda: (engines(client)["remaining_s"] or 0) > 2, 30, "an estimate of the rest")
        asked = time.monotonic()
        answer = client.post("/api/tictactoe/move", json=MOVE)
        assert answer.status_code == 503 and answer.json()["error"]["type"] == "EngineWarming"
        assert time.monotonic() - asked < 0.5 + 1.0  # not waited for: the estimate said no
        assert "about" in answer.json()["error"]["message"]
        assert 1 <= int(answer.headers["retry-after"]) <= 10


def test_a_request_waits_for_a_worker_expected_soon(
    tmp_path: Path, slow_warm_up: Callable[[float], None]
) -> None:
    slow_warm_up(0.3)
    lines: list[str] = []
    with warming_app(tmp_path, workers=2, report=lines.append) as client:
        assert engines(client)["ready"] is False
        answer = client.post("/api/tictactoe/move", json=MOVE)
        assert answer.status_code == 200 and answer.json()["exact"] is True
        until(lambda: engines(client)["ready"] is True, 60, "the warm-up's end")
        until(lambda: engines(client)["workers_ready"] == 2, 60, "the second worker started")
    assert [line for line in lines if line.startswith("engines ready after")], lines


def test_the_other_workers_serve_once_the_first_engine_is_warm(
    tmp_path: Path, slow_warm_up: Callable[[float], None]
) -> None:
    """Issue 25: the engines compile one after the other in one worker, minutes on a busy
    machine; the others start once its first engine is in the cache and take jobs at once,
    while the warm-up goes on (and ``ready`` waits for its end)."""
    slow_warm_up(3)
    lines: list[str] = []
    with warming_app(tmp_path, workers=2, report=lines.append) as client:
        until(lambda: engines(client)["workers_ready"] == 1, 60, "the second worker's start")
        state = engines(client)
        assert state["ready"] is False and state["step"] >= 2  # the warm-up goes on
        answer = client.post("/api/tictactoe/move", json=MOVE)
        assert answer.status_code == 200 and answer.json()["exact"] is True
        assert not [line for line in lines if line.startswith("engines ready after")]
        until(lambda: engines(client)["ready"] is True, 60, "the warm-up's end")
        assert engines(client)["workers_ready"] == 2


def test_a_worker_that_loads_the_cache_only_refuses_a_job_whose_engine_compiles(
    tmp_path: Path,
) -> None:
    """A job that would compile an engine the warming worker has not reached is answered
    ``pending`` (503 EngineWarming with Retry-After), not compiled under the request's cap;
    one that needs no engine, or a cached one, runs."""
    script = (
        "from perfectplay.web.jobs import engine_pending\n"
        "print(engine_pending('move', {'game': 'tictactoe', 'position': '____/____/____/____'}))\n"
        "print(engine_pending('move', {'game': 'tictactoe', 'position': 'xox/oox/___'}))\n"
        "print(engine_pending('tree', {'game': 'nim', 'position': '1,2'}))\n"
        "print(engine_pending('move', {'game': 'tictactoe', 'position': 'xq'}))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: nothing compiled
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == ["the m,n,k engine (boards up to 64 cells)"] + ["None"] * 3
    with pytest.raises(EngineWarming, match="is still compiling") as refused:
        pool_reply(("pending", "the m,n,k engine (boards up to 64 cells)"))
    assert refused.value.retry_after >= 1


# -- workers that die ---------------------------------------------------------------------------
def test_a_killed_worker_is_restarted_and_said_in_one_line(tmp_path: Path) -> None:
    lines: list[str] = []
    with warming_app(tmp_path, warm=False, cap=5.0, report=lines.append) as client:
        until(lambda: engines(client)["ready"], 60, "the worker started")
        [pid] = client.app.state.pool.pids()  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGKILL)
        # noticed once its pipe closes (a zombie may still hold it while its threads exit)
        until(lambda: engines(client)["restarts"] == 1, 10, "the pool noticed the death")
        answer = client.post("/api/tictactoe/move", json=MOVE)
        assert answer.status_code == 200, (answer.text, lines)
        state = engines(client)
        assert state["restarts"] == 1 and state["ready"] is True
        assert client.app.state.pool.pids() != [pid]  # type: ignore[attr-defined]
    [said] = [line for line in lines if "engine worker" in line]
    assert f"pid {pid}" in said and "SIGKILL" in said and "\n" not in said


def test_a_worker_that_dies_at_once_is_restarted_with_a_backoff(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that cannot even start (here the interpreter is ``false``) is started again
    a few times a minute, not in a loop."""
    monkeypatch.setattr(sys, "executable", "/bin/false")
    lines: list[str] = []

    async def body() -> None:
        pool = EnginePool(workers=1, cap=1.0, warm=False, report=lines.append)
        await pool.start()
        try:
            await asyncio.sleep(4.0)
            assert pool.engines()["ready"] is False
        finally:
            await pool.stop()
        assert 3 <= pool.restarts <= 6, lines

    asyncio.run(body())
    assert all("exited with code 1 while starting" in line for line in lines), lines
    assert any("starting another in 2 s" in line for line in lines), lines


# -- stopping -------------------------------------------------------------------------------------
def run_pool(body: Callable[[EnginePool], Awaitable[None]], **options: Any) -> None:
    """Run ``body`` on a started pool of ``options``, then stop it and check that none of
    its workers is left."""

    async def main() -> None:
        pool = EnginePool(**options)
        await pool.start()
        try:
            await body(pool)
        finally:
            await pool.stop()
        assert pool.pids() == []
        assert worker_children() == []

    asyncio.run(main())


def test_stop_kills_the_warming_worker_and_starts_no_other(
    slow_warm_up: Callable[[float], None],
) -> None:
    slow_warm_up(30)

    async def body(pool: EnginePool) -> None:
        for _ in range(600):
            if pool.engines()["warming"] is not None:
                break
            await asyncio.sleep(0.05)
        assert len(pool.pids()) == 1 and pool.engines()["warming"] is not None

    run_pool(body, workers=3, cap=1.0, warm=True)


def test_stop_while_a_worker_is_replaced_leaves_none() -> None:
    """Issue 25, item 8: a worker started in the background to replace one stopped for time
    outlived a pool stopped meanwhile (it was registered only once ready, by a thread)."""

    async def body(pool: EnginePool) -> None:
        with pytest.raises(EngineTimeout):
            await pool.run("history", SLOW)
        for _ in range(200):  # the stopped worker is reaped, then its replacement starts
            if pool.engines()["workers_starting"] == 1:
                break
            await asyncio.sleep(0.01)
        assert pool.engines()["workers_starting"] == 1 and len(pool.pids()) == 1

    run_pool(body, workers=1, cap=0.5, warm=False)


# -- the real server ------------------------------------------------------------------------------
@pytest.fixture
def warming_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """``perfectplay serve`` on a free port whose engines take minutes to warm up (the
    stand-in warm-up): its URL, process and log; stopped (SIGTERM) at the end."""
    port = live.free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, TEST_WARM_STUB: "60"}
    process = live.start(tmp_path / "games.sqlite3", port, log, env=env)
    try:
        yield f"http://127.0.0.1:{port}", process, log
    finally:
        live.stop(process)


def test_serve_answers_its_pages_while_the_engines_warm_up(
    warming_server: tuple[str, subprocess.Popen[bytes], Path],
) -> None:
    url, process, log = warming_server
    started = time.monotonic()
    first = None
    while first is None:
        assert process.poll() is None, log.read_text()
        # 3 s on an idle machine; the warm-up stands in for minutes of compiling
        assert time.monotonic() - started < 10, f"no answer within 10 s:\n{log.read_text()}"
        try:
            first = httpx.get(f"{url}/", timeout=2)
        except httpx.HTTPError:
            time.sleep(0.05)
    took = time.monotonic() - started
    assert first.status_code == 200 and "perfectplay" in first.text
    health = httpx.get(f"{url}/api/health").json()
    assert health["engines"]["ready"] is False, f"{took:.1f} s: {health}"
    until(lambda: len(worker_children(process.pid)) == 1, 30, "the warming worker started")
    warming = worker_children(process.pid)
    live.stop(process)
    # uvicorn shuts down, then ends by the signal it caught, as the default handler would
    assert process.returncode in (0, -signal.SIGTERM), log.read_text()
    until(lambda: all(gone(pid) for pid in warming), 5, "the warming worker stopped")
    said = log.read_text()
    assert "Traceback" not in said and "the pages answer now" in said
    print(f"\nfirst 200 on / {took:.2f} s after `perfectplay serve` started")


def test_the_warm_up_loads_every_engine_of_every_game_each_once() -> None:
    """The default 3x3 board is searched without a compiled engine, so warming each game's
    default board left the m,n,k engines of other sizes to compile inside a request, under
    its time cap (killed at the cap, the worker would compile again and again)."""
    from perfectplay import api
    from perfectplay.web.jobs import warm_up

    heard: list[tuple[str, int, int]] = []
    shares: list[tuple[float, ...]] = []

    def hear(label: str, step: int, steps: int, _: bool, weights: tuple[float, ...]) -> None:
        heard.append((label, step, steps))
        shares.append(weights)

    warm_up(hear)
    engines = {step.engine.label for step in api.warm_plan()}
    assert all(len(weights) == len(heard) and min(weights) > 0 for weights in shares)
    assert {label for label, _, _ in heard} == engines
    assert len(heard) == len(engines) >= 4  # small and big m,n,k, Connect Four, simplexity
    assert [step for _, step, _ in heard] == list(range(1, len(heard) + 1))
    game, _ = api.new_game("tictactoe", size="4x4")
    assert api.engine_to_compile(game, every_position=True) is None  # loaded, cached


def test_the_estimate_weighs_each_engine_by_its_share_of_the_work() -> None:
    """Three quick engines took 10 s each; the fourth, declared four times their work, is
    expected to take 40 s, not the mean 10 s: 'about 1 s left' for half a minute was what
    the mean said while the Gomoku engine compiled. A step past its share is said to be
    longer than expected, and its estimate grows with it instead of sticking at a second."""
    from perfectplay.web.pool import OVERRUN_SHARE, WarmUp

    weights = (15.0, 15.0, 15.0, 60.0)
    warm = WarmUp(started=0.0)
    for step in range(1, 5):
        warm.begin("engine", step, 4, True, 10.0 * (step - 1), weights)
    assert warm.remaining(30.0) == pytest.approx(40.0)
    assert warm.remaining(50.0) == pytest.approx(20.0) and not warm.overrun(50.0)
    assert "about 20 s left" in warm.describe(50.0)
    assert warm.remaining(90.0) == pytest.approx(OVERRUN_SHARE * 60.0) and warm.overrun(90.0)
    assert warm.remaining(130.0) == pytest.approx(OVERRUN_SHARE * 100.0)
    assert "longer than expected, about 25 s left" in warm.describe(130.0)
    equal = WarmUp(started=0.0)  # an older worker's payload: no weights, equal shares
    for step in (1, 2):
        equal.begin("engine", step, 4, True, 10.0 * (step - 1))
    assert equal.remaining(10.0) == pytest.approx(30.0)
    assert WarmUp(started=0.0).remaining(5.0) is None  # nothing done: no estimate
