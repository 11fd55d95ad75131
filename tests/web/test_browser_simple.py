"""The plain games of ``examples/simple`` (issue 30) played against the engine in a real
browser, at 1280 px and on a 390 px phone: Nim by its list of legal moves (it has no board
view), tic-tac-toe and Drop Three on their boards. Needs ``/usr/bin/chromium`` (see
``test_browser.py``; ``PERFECTPLAY_NO_BROWSER=1`` skips)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

# test_browser.py checks that Chromium is installed; its browser fixture serves here too.
from web import test_browser
from web.test_browser import READY, TIMEOUT_MS, screenshot

browser = test_browser.browser

WIDTHS = (1280, 390)
"""The screen widths every game is played at: a desktop and a phone."""
CLICKABLE = {
    "simplenim": "#board button.move-choice:not([disabled])",
    "simpletictactoe": "#board button.cell:not([disabled])",
    "dropthree": "#board button.col-head:not([disabled])",
}
"""What a person clicks to move in each game."""
MOST_MOVES = 12
"""More human moves than any of the games lasts."""


def opened(browser: Browser, server: str, width: int) -> Iterator[Page]:
    """A fresh page ``width`` px wide on ``server``; any JavaScript error fails the test."""
    page = browser.new_page(
        base_url=server, viewport={"width": width, "height": 900}, bypass_csp=True
    )
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def overflow(page: Page) -> int:
    """How far the page is wider than the screen (0: no sideways scrolling)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", sorted(CLICKABLE))
def test_each_plain_game_is_played_against_the_engine(
    browser: Browser, simple_server: str, name: str, width: int
) -> None:
    for page in opened(browser, simple_server, width):
        page.goto(f"/play/{name}")
        expect(page.locator("#status")).to_have_attribute("data-state", "human")
        for _ in range(MOST_MOVES):
            page.wait_for_function(READY)
            if page.locator("#result").is_visible():
                break
            played = page.locator("#move-list li").count()
            page.locator(CLICKABLE[name]).first.click()
            page.wait_for_function(f"document.querySelectorAll('#move-list li').length > {played}")
        page.wait_for_function(READY)
        expect(page.locator("#result")).to_be_visible()
        moves = page.locator("#move-list li")
        assert moves.count() >= 2
        engine = page.locator("#move-list li.mover-engine")
        assert engine.count() >= 1  # the engine answered
        assert overflow(page) <= 0, f"{name} at {width} px scrolls sideways"
        screenshot(page, f"play-{name}-{width}")


def test_the_start_page_links_the_game_without_a_board(
    browser: Browser, simple_server: str
) -> None:
    for page in opened(browser, simple_server, 1280):
        page.goto("/")
        expect(page.locator('.more-games a[href="/play/simplenim"]')).to_have_count(1)
        expect(page.locator('.site-nav a[href="/play/simpletictactoe"]')).to_have_count(1)
        expect(page.locator('.card-art[data-thumb="dropthree"]')).to_have_count(1)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_without_a_board_is_analysed_and_drawn_as_a_tree(
    browser: Browser, simple_server: str, width: int
) -> None:
    for page in opened(browser, simple_server, width):
        page.goto("/tools/analyze?game=simplenim&position=1-3%202-4")  # heaps 0,0,5: take 5
        page.wait_for_load_state("networkidle")
        expect(page.locator("#best-move")).to_have_attribute("data-move-key", "3-5")
        page.locator('#board button.move-choice[data-move="3-1"]').click()  # a click plays it
        expect(page.locator("#position")).to_have_value("1-3 2-4 3-1")
        page.goto("/tools/tree?game=simplenim&position=1-3%202-4%203-2")  # heaps 0,0,3
        page.wait_for_load_state("networkidle")
        page.click("#build")
        expect(page.locator('#tree .node[data-depth="0"]')).to_have_count(1)
        expect(page.locator('#tree .node[data-depth="1"]')).to_have_count(3)
        assert overflow(page) <= 0
        screenshot(page, f"tree-simplenim-{width}")
