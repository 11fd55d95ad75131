"""Issue 25, item 1, in a real browser (Chromium as in test_browser.py, which checks first
that it is installed): while the engines warm up, every page shows "the
engine is warming up" with a spinner (it asks ``/api/health``), and an engine request
refused with 503 ``EngineWarming`` is asked again after its ``Retry-After``. The server is
a real ``perfectplay serve`` whose warm-up is the test-only stand-in
(:data:`perfectplay.web.worker.TEST_WARM_STUB`): a few seconds, compiling nothing.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

import pytest

from web.test_browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, _open  # isort: skip
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright  # isort: skip

from perfectplay.web.worker import TEST_WARM_STUB
from web import live


class Fulfilment(TypedDict):
    """What ``Route.fulfill`` is given to answer a request itself."""

    status: int
    headers: dict[str, str]
    content_type: str
    body: str


WARMING: Fulfilment = {
    "status": 503,
    "headers": {"Retry-After": "2"},
    "content_type": "application/json",
    "body": json.dumps({"error": {"type": "EngineWarming", "message": "warming up"}}),
}
"""The refusal of an engine request while no worker is ready, as the server answers it."""
STUB_S = "1.5"
"""The stand-in warm-up's seconds per game: a warm-up of several seconds."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


@pytest.fixture
def warming_page(browser: Browser, tmp_path: Path) -> Iterator[Page]:
    """A page on a fresh ``perfectplay serve`` (one worker) whose engines are warming up."""
    port = live.free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, TEST_WARM_STUB: STUB_S}
    process = live.start(tmp_path / "games.sqlite3", port, log, "--workers", "1", env=env)
    try:
        live.wait_healthy(f"http://127.0.0.1:{port}", process, log, engines=False)
        yield from _open(browser, f"http://127.0.0.1:{port}")
    finally:
        live.stop(process)


def test_the_page_says_the_engine_warms_up_and_asks_again_after_retry_after(
    warming_page: Page,
) -> None:
    page = warming_page
    asked: list[float] = []

    def refuse_once(route: Route) -> None:
        asked.append(time.monotonic())
        if len(asked) == 1:
            route.fulfill(**WARMING)
        else:
            route.continue_()

    page.route("**/api/tictactoe/analyze", refuse_once)
    page.goto("/tools/analyze?game=tictactoe&position=xo_%2F_x_%2Fo__")
    notice = page.locator("#warming-area")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("The engine is warming up")
    expect(notice.locator(".spinner")).to_have_count(1)
    expect(page.locator("#results-body")).to_be_visible(timeout=TIMEOUT_MS * 2)
    expect(notice).to_be_hidden(timeout=TIMEOUT_MS * 2)
    expect(page.locator("#error-area")).to_be_hidden()
    assert len(asked) == 2, asked
    assert asked[1] - asked[0] >= 1.9  # Retry-After: 2 was honoured
