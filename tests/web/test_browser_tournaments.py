"""Issue 29, item 3: the Tournaments pages in a real browser at 1280 and 390 px (Playwright
drives Debian's Chromium, as tests/web/test_browser.py does) against a server whose
database holds a tournament run by ``perfectplay tournament --db``: the run listed, its
standings and crosstable (scrolling sideways on a phone, with a hint; whole on a desktop),
and a game opened in its replay page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from perfectplay.cli.tournament import main
from web.conftest import _serve
from web.test_browser import TIMEOUT_MS
from web.test_browser import browser as browser  # the module's Chromium (a fixture)
from web.test_browser_screens import page as page  # at 1280 and 390 px, fitting
from web.test_browser_screens import shot

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
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose database holds one tic-tac-toe round robin of six of our players (for
    this module, in place of conftest's empty one: the ``page`` fixture asks for it)."""
    folder = tmp_path_factory.mktemp("tournament-server")
    argv = ["tictactoe", *PLAYERS, "--time", "1", "--workers", "2"]
    assert main([*argv, "--db", str(folder / "games.sqlite3")]) == 0
    yield from _serve(folder, "--workers", "1")


def fits(page: Page) -> None:
    """The page is no wider than the screen."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width


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
