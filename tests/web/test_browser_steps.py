"""The tree page's alpha-beta step-through (issue 15, item 10) in a real browser, at 1280 and
390 px: Playwright drives Debian's Chromium against a live server (``live_server``, see
conftest.py), under the pages' Content Security Policy.

On the article's board ``xox/oox/___`` best first (see ``tests/test_cli_steps.py`` for the
counts by hand), step 9 is the first cut: at b3, o's c3 has held x to 0 while x is sure of 10
by c3 at the root, so o's a3 is skipped; alpha-beta visits 7 nodes of minimax's 11, and 11 in
the game's own order.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web.test_browser import SHOTS, TIMEOUT_MS
from web.test_browser import browser as browser  # the module's Chromium (a fixture)

expect.set_options(timeout=TIMEOUT_MS)

REASON = "beta 0 ≤ alpha 10: the rest of this node's moves cannot change the choice above"


@pytest.fixture(params=[1280, 390], ids=["1280px", "390px"])
def page(browser: Browser, live_server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The tree page on the article's board at the parametrised width, with its security
    policy on; any JavaScript error fails the test."""
    width: int = request.param
    context = browser.new_context(base_url=live_server, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto("/tools/tree?position=xox%2Foox%2F___")
    opened.wait_for_load_state("networkidle")
    expect(opened.locator("#position")).to_have_value("xox/oox/___")
    yield opened
    fits = opened.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert fits <= width, f"the page is {fits} px wide at {width} px"


def step(page: Page, button: str, times: int = 1) -> None:
    """Press a stepper button (first, prev, next, last) ``times`` times."""
    for _ in range(times):
        page.click(f"#step-stepper [data-step={button}]")


def test_stepping_shows_a_cut_with_its_reason_and_back(page: Page) -> None:
    page.select_option("#step-order", "best")
    page.click("#steps-start")
    expect(page.locator("#step-total")).to_have_attribute("data-visited", "7")
    expect(page.locator("#step-total b")).to_have_text("7 of 11")
    expect(page.locator("#step-number")).to_have_text("step 1 of 16")
    expect(page.locator("#step-text")).to_contain_text("Start at the root")
    expect(page.locator("#step-path")).to_have_text("the root")
    expect(page.locator("#step-alpha")).to_have_text("alpha -inf")
    expect(page.locator("#step-reason")).to_be_hidden()

    step(page, "next", 7)
    page.keyboard.press("ArrowRight")  # the focus is on a stepper button: keys step too
    expect(page.locator("#step-number")).to_have_text("step 9 of 16")
    expect(page.locator("#step-kind")).to_have_attribute("data-kind", "cut")
    expect(page.locator("#step-reason")).to_be_visible()
    expect(page.locator("#step-reason")).to_have_text(f"Why: {REASON}")
    expect(page.locator("#step-text")).to_contain_text("1 move skipped: a3")
    expect(page.locator("#step-path")).to_have_text("b3")
    expect(page.locator("#step-alpha")).to_have_text("alpha 10")
    expect(page.locator("#step-beta")).to_have_text("beta 0")
    expect(page.locator("#step-visited b")).to_have_text("5 of 11")
    expect(page.locator("#step-board .piece")).to_have_count(7)  # the six, and x's b3
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(SHOTS / f"tree-steps-{width}.png"), full_page=True)

    step(page, "prev")
    expect(page.locator("#step-number")).to_have_text("step 8 of 16")
    expect(page.locator("#step-kind")).to_have_attribute("data-kind", "return")
    expect(page.locator("#step-text")).to_have_text(
        "c3 returns 0 to b3: best so far 0; beta +inf → 0."
    )
    expect(page.locator("#step-reason")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-number")).to_have_text("step 7 of 16")
    expect(page.locator("#step-board .piece")).to_have_count(8)  # at b3, c3: o's c3 too

    step(page, "last")
    expect(page.locator("#step-kind")).to_have_attribute("data-kind", "done")
    expect(page.locator("#step-text")).to_contain_text("the root's value is 10, best move c3")


def test_the_move_order_changes_the_nodes_visited(page: Page) -> None:
    page.click("#steps-start")
    expect(page.locator("#step-total")).to_have_attribute("data-visited", "11")
    expect(page.locator("#step-total span")).to_contain_text("(0 cuts)")
    page.select_option("#step-order", "best")  # asks again at once
    expect(page.locator("#step-total")).to_have_attribute("data-visited", "7")
    expect(page.locator("#step-total span")).to_contain_text("(2 cuts)")
    page.select_option("#step-order", "reversed")
    expect(page.locator("#step-total b")).to_have_text("8 of 11")
    step(page, "last")
    expect(page.locator("#step-visited b")).to_have_text("8 of 11")
    page.fill("#position", "xo_/_x_/o__")  # another board: the old steps go
    expect(page.locator("#steps-view")).to_be_hidden()
