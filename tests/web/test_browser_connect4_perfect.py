"""A whole 7x6 Connect Four game at Perfect strength in a real browser (issue 13): the engine
moves first and the person plays the overlay's best value each time (the slowest loss), so
the game runs its full length through the opening (answered from the 12-stone book) and the
middle game (exact searches). Every engine move comes without a timeout and every overlay
value is proven: a win, a draw or a loss, never an estimate. The server allows 60 s a request
(``patient_server``): with the default 5 s cap a busy machine (load 11 on two cores) once
turned one slow proof into an honest estimate, which this test would take for a defect.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from web.test_browser import PATIENT_TIMEOUT_MS, READY, moves_played, screenshot
from web.test_browser import browser as browser  # the module's Chromium (a fixture)
from web.test_browser import patient_page as patient_page  # a page on a 60 s cap server

RANK = {"win": 2, "draw": 1, "loss": 0}


def value_order(outcome: str, text: str) -> tuple[int, int]:
    """Best first for the mover: faster wins, then draws, then slower losses."""
    found = re.search(r"\d+", text)
    plies = int(found.group()) if found else 0
    return (RANK[outcome], -plies if outcome == "win" else plies)


def overlay_values(page: Page) -> dict[int, tuple[str, str]]:
    """Column -> (outcome, text) of every chip on the column heads, once every legal
    column has its chip (the analysis has arrived). Each chip must be exact (its
    ``data-kind``): a weak chip has no distance, and the slowest loss would be misread."""
    legal = page.locator("#board .col-head[data-legal]").count()
    expect(page.locator("#board .col-head .val")).to_have_count(legal, timeout=PATIENT_TIMEOUT_MS)
    values = {}
    for head in page.locator("#board .col-head[data-legal]").all():
        chip = head.locator(".val")
        column = int(head.get_attribute("data-column") or 0)
        values[column] = (chip.get_attribute("data-outcome") or "", chip.inner_text())
        kind = chip.get_attribute("data-kind")
        assert kind == "exact", (column, kind, values[column])
    return values


def test_a_full_game_at_perfect_strength_with_the_engine_first(patient_page: Page) -> None:
    page = patient_page
    page.goto("/play/connect4")
    page.select_option("#strength-kind", "perfect")
    page.check("#overlay")
    page.wait_for_function(READY)
    page.click("#swap")  # the engine opens
    while True:
        page.wait_for_function(READY)
        expect(page.locator("#error-area")).to_be_hidden()
        if page.locator("#result").is_visible():
            break
        played = moves_played(page)
        values = overlay_values(page)
        assert values and all(outcome in RANK for outcome, _ in values.values()), (
            played,
            sorted(values.items()),
        )
        if played == 1:  # the first player's centre opening: every reply loses
            assert {outcome for outcome, _ in values.values()} == {"loss"}
        column = max(values, key=lambda c: value_order(*values[c]))
        page.click(f'#board button.col-head[data-column="{column}"]')
        page.wait_for_function(f"document.querySelectorAll('#move-list li').length >= {played + 1}")
    assert page.locator("#result").get_attribute("data-result") == "engine"
    assert page.locator("#move-list li").first.get_attribute("data-move") == "4"
    assert moves_played(page) == 41  # perfect play: the first player wins with its 21st stone
    screenshot(page, "play-connect4-perfect")
