"""The engine pool on its own: jobs, errors carried across, cancelled and overrunning jobs."""

from __future__ import annotations

import asyncio

import pytest

from perfectplay.errors import NotationError
from perfectplay.web.pool import EngineBusy, EnginePool, EngineTimeout

SLOW = {"game": "tictactoe", "position": "xoxo_x/oxox_o/xoxo__/______", "k": 4}
"""A history job far longer than any cap used here (over a minute), yet within the reach
policy (a 6x4 board: every sub-board is solvable, there are just very many of them)."""


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


async def with_pool(workers: int, cap: float, body: object, queue_limit: int = 4) -> object:
    pool = EnginePool(workers=workers, cap=cap, queue_limit=queue_limit, warm=False)
    await pool.start()
    try:
        return await body(pool)  # type: ignore[operator]
    finally:
        await pool.stop()


def test_jobs_answer_and_input_errors_keep_their_class() -> None:
    async def body(pool: EnginePool) -> None:
        answer = await pool.run("move", {"game": "tictactoe", "position": "xox/oox/___"})
        assert answer["best_move"] == {"row": 3, "col": 3}
        with pytest.raises(NotationError, match="unexpected character"):
            await pool.run("analyze", {"game": "connect4", "position": "4x"})
        assert pool.status()["completed"] == 2

    run(with_pool(1, 5.0, body))


def test_a_cancelled_job_does_not_cost_a_worker() -> None:
    async def body(pool: EnginePool) -> None:
        slow = asyncio.ensure_future(pool.run("history", SLOW))
        await asyncio.sleep(0.5)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        answer = await pool.run("move", {"game": "tictactoe", "position": "x________"})
        assert answer["exact"] is True  # the one worker was replaced, not lost

    run(with_pool(1, 30.0, body))


async def until(pool: EnginePool, key: str, value: int) -> None:
    """Wait until the pool's status shows ``key`` at ``value`` (no fixed sleeps: on a busy
    machine a job may take a while to reach its worker)."""
    for _ in range(2000):
        if pool.status()[key] == value:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the pool never showed {key}={value}: {pool.status()}")


def test_an_overrunning_job_is_stopped_and_a_full_line_refused() -> None:
    """Issue 15, item 9: the queue is observed, not guessed with sleeps (it was flaky)."""

    async def body(pool: EnginePool) -> None:
        first = asyncio.ensure_future(pool.run("history", SLOW))
        await until(pool, "busy", 1)
        waiting = asyncio.ensure_future(pool.run("history", SLOW))
        await until(pool, "waiting", 1)
        with pytest.raises(EngineBusy, match="busy"):
            await pool.run("history", SLOW)
        for job in (first, waiting):
            with pytest.raises(EngineTimeout, match=r"cap of 2 s"):
                await job
        assert pool.status()["stopped_for_time"] == 2

    run(with_pool(1, 2.0, body, queue_limit=1))
