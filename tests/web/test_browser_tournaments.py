"""Issue 29, item 3: the Tournaments pages in a real browser at 1280 and 390 px (Playwright
drives Debian's Chromium, as tests/web/test_browser.py does) against a server whose
database holds a tournament run by ``perfectplay tournament --db``: the run listed, its
standings and crosstable (scrolling sideways on a phone, with a hint; whole on a desktop),
and a game opened in its replay page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from perfectplay.cli.tournament import main
from tests.web import live
from tests.web.test_browser import SHOTS, TIMEOUT_MS
from tests.web.test_browser import browser as browser  # the module's Chromium (a fixture)

expect.set_options(timeout=TIMEOUT_MS)

PLAYERS = [
    "engine@perfect-engine",
    "engine:depth=1@shallow-engine",
    "level:beginner@beginner-level",
    "random:seed=1@random-one",
    "random:seed=2@random-two",
    "random:seed=3@random-three",
]
GAMES = 30  # 6 players, each pair twice


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose database holds one tic-tac-toe round robin of six of our players."""
    folder = tmp_path_factory.mktemp("tournament-server")
    db = folder / "games.sqlite3"
    argv = ["tictactoe", *PLAYERS, "--time", "1", "--workers", "2", "--db", str(db)]
    assert main(argv) == 0
    port = live.free_port()
    log = folder / "server.log"
    process = live.start(db, port, log, "--workers", "1")
    url = f"http://127.0.0.1:{port}"
    try:
        live.wait_healthy(url, process, log)
        yield url
    finally:
        live.stop(process)


@pytest.fixture(params=[1280, 390], ids=["1280px", "390px"])
def page(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page at the parametrised width; any JavaScript error fails the test."""
    width: int = request.param
    viewport = {"width": width, "height": 900}
    context = browser.new_context(base_url=server, viewport=viewport, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def fits(page: Page) -> None:
    """The page is no wider than the screen."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def shot(page: Page, name: str) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


def test_the_crosstable_and_a_replay(page: Page) -> None:
    narrow = page.viewport_size is not None and page.viewport_size["width"] < 700
    page.goto("/tournaments")
    card = page.locator("#runs .run-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(f"{GAMES} of {GAMES} games · finished")
    fits(page)
    shot(page, "tournaments")
    page.click("#runs .run-card h2 a")
    expect(page).to_have_url(re.compile(r"/tournaments/[0-9]+$"))
    expect(page.locator("#standings tbody tr")).to_have_count(len(PLAYERS))
    expect(page.locator("#standings tbody tr").first).to_contain_text("perfect-engine")
    crosstable = page.locator("#crosstable")
    expect(crosstable.locator("tbody tr")).to_have_count(len(PLAYERS))
    expect(crosstable.locator("tbody tr").first.locator("td").first).to_have_text("·")
    wrap = page.locator(".crosstable-wrap")
    scrolls = wrap.evaluate("element => element.scrollWidth > element.clientWidth")
    assert scrolls == narrow  # sideways on a phone, whole on a desktop
    expect(page.locator("#crosstable-hint")).to_be_visible(visible=narrow)
    expect(page.locator("#tournament-games tbody tr")).to_have_count(GAMES)
    fits(page)
    shot(page, "tournament")
    link = page.locator("#tournament-games tbody tr").first.locator("a", has_text="Replay")
    saved = page.request.get(f"/api{link.get_attribute('href')}").json()
    moves = len(saved["moves"])  # the opening's stones and the moves played
    assert moves >= 5 and saved["status"] == "finished"
    link.click()
    expect(page).to_have_url(re.compile(r"/games/[0-9]+$"))
    expect(page.locator("#step-list li")).to_have_count(moves + 1)  # the start and each move
    expect(page.locator("#analysis")).to_have_attribute("data-ready", "true")
    fits(page)
    shot(page, "tournament-replay")
