"""Issue 15's page items in a real browser at 1280 and 390 px (Playwright drives Debian's
Chromium against ``live_server``, see conftest.py): a finished game's record is never
rewritten (item 1); an engine that fails leaves the game playable (item 2); no stale or
dead-end screen (item 6: a bad custom size, an old error, a refusal naming command-line
flags, a replay page of no game, a backup imported twice); the web's board limit said on
the pages (item 8). Engine failures are simulated with ``page.route``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from web.test_browser import (
    READY,
    SHOTS,
    TIMEOUT,
    TIMEOUT_MS,
    _file,
    finished_record,
    play_out,
    save_game,
    wait_for_moves,
)
from web.test_browser import browser as browser  # the module's Chromium (a fixture)

expect.set_options(timeout=TIMEOUT_MS)

LIMIT = "This server plays boards of up to {} cells; larger ones are played with the command line."
"""The web's board limit of a game, and where larger boards are played (issue 15, item 8)."""


@pytest.fixture(params=[1280, 390], ids=["1280px", "390px"])
def page(browser: Browser, live_server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page at the parametrised width; any JavaScript error fails the test, and so
    does a page wider than the screen when the test ends."""
    width: int = request.param
    context = browser.new_context(
        base_url=live_server, viewport={"width": width, "height": 900}, bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    fits = opened.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert fits <= width, f"the page is {fits} px wide at {width} px"


def shot(page: Page, name: str) -> None:
    """A screenshot named by the test and the page's width."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


# -- item 1 ---------------------------------------------------------------------------------------
def test_undo_after_the_end_plays_on_as_a_new_saved_game(page: Page) -> None:
    """Undo after the end used to rewrite the finished game's record (the page said "Saved
    as game #4 (finished)" and New game saved it as abandoned with 4 moves)."""
    page.goto("/play/tictactoe")
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    play_out(page)
    first = finished_record(page)
    page.click("#undo")
    expect(page.locator("#saved")).to_have_attribute("data-status", "playing")
    new_id = page.locator("#saved-link").get_attribute("data-game-id")
    assert new_id is not None and int(new_id) != first["id"]
    page.click("#new-game")
    expect(page.locator("#move-list li")).to_have_count(0)
    assert page.request.get(f"/api/games/{first['id']}").json() == first  # untouched
    rewrite = {**first, "moves": first["moves"][:2], "status": "abandoned"}
    rewrite = {key: rewrite[key] for key in ("id", "game", "size", "moves", "players", "status")}
    assert page.request.post("/api/games", data=rewrite).status == 409


# -- item 2 ---------------------------------------------------------------------------------------
def test_an_engine_that_times_out_leaves_the_game_playable(page: Page) -> None:
    """With the engine to move first, "Perfect" timed out with 503 and left the page with
    Undo disabled and no way on: now it says what to do, and Try again asks once more."""
    page.route("**/api/*/move", lambda route: route.fulfill(**TIMEOUT))
    page.goto("/play/tictactoe?side=2")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-state", "failed")
    expect(status).to_contain_text("try again, choose a lower strength, or Undo")
    expect(page.locator("#error-area")).to_contain_text("over the 5 s cap")
    expect(page.locator("#undo")).to_be_disabled()  # no move of the human's to take back
    retry = page.locator("#retry")
    expect(retry).to_be_visible()
    shot(page, "play-engine-failed")
    page.unroute("**/api/*/move")
    retry.click()
    wait_for_moves(page, 1)  # the engine has opened
    expect(status).to_have_attribute("data-state", "human")
    expect(retry).to_be_hidden()
    expect(page.locator("#error-area")).to_be_hidden()

    # a failure after the human's move: Undo takes the move back, and the game goes on
    page.route("**/api/*/move", lambda route: route.fulfill(**TIMEOUT))
    page.locator("#board button.cell:not([disabled])").first.click()
    expect(status).to_have_attribute("data-state", "failed")
    page.unroute("**/api/*/move")
    page.click("#undo")
    expect(page.locator("#move-list li")).to_have_count(1)
    expect(status).to_have_attribute("data-state", "human")
    expect(retry).to_be_hidden()


# -- item 6 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["20x20", "abc"])
def test_a_bad_custom_size_keeps_the_game_being_played(page: Page, bad: str) -> None:
    """A bad custom size left the bad value selected and the page with "No board"."""
    page.goto("/play/tictactoe?size=4x4")
    page.wait_for_function(READY)
    page.locator("#board button.cell").first.click()
    wait_for_moves(page, 2)
    page.select_option("#size", "custom")
    expect(page.locator("#size-limit")).to_have_text(LIMIT.format(361))  # item 8: 19x19
    page.fill("#custom-size-text", bad)
    page.click("#custom-apply")
    expect(page.locator("#error-area")).to_contain_text(re.compile(rf"size '?{bad}'?: "))
    expect(page.locator("#size")).to_have_value("4x4|")  # the board being played
    expect(page.locator("#board button.cell")).to_have_count(16)
    expect(page.locator("#move-list li")).to_have_count(2)  # the game goes on
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    assert "size=4x4" in page.url
    shot(page, f"play-bad-size-{bad}")

    page.fill("#custom-size-text", "5x5")  # a good size then starts a game on it
    page.click("#custom-apply")
    expect(page.locator("#board button.cell")).to_have_count(25)
    expect(page.locator("#size")).to_have_value("5x5|")
    expect(page.locator("#custom-size")).to_be_hidden()
    expect(page.locator("#error-area")).to_be_hidden()


def test_a_bad_size_in_the_address_starts_the_standard_board(page: Page) -> None:
    page.goto("/play/connect4?size=9x9")
    expect(page.locator("#error-area")).to_contain_text("size 9x9: too large")
    expect(page.locator("#board .slots .cell")).to_have_count(42)  # 7x6
    expect(page.locator("#size")).to_have_value("7x6|")
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    assert "size=7x6" in page.url


def test_tree_and_history_drop_an_old_error_and_name_no_command_line_flag(page: Page) -> None:
    """An old error stayed on top of a good tree (and named CLI flags); a timeout's error
    sat next to a board's verdict."""
    page.goto("/tools/tree?position=___%2F___%2F___")
    page.wait_for_load_state("networkidle")
    page.click("#build")
    area = page.locator("#error-area")
    expect(area).to_contain_text("cut the tree at a depth")
    assert "--" not in area.inner_text()
    page.route("**/api/*/tree", lambda route: route.fulfill(**TIMEOUT))
    page.fill("#position", "xo_/_x_/o__")
    page.click("#build")
    expect(area).to_contain_text("over the 5 s cap")
    page.unroute("**/api/*/tree")
    page.click("#build")
    expect(page.locator('#tree .node[data-depth="0"]')).to_have_count(1)
    expect(area).to_be_hidden()

    page.goto("/tools/history?position=xox%2Foox%2Fx__")
    page.wait_for_load_state("networkidle")
    page.click("#reconstruct")
    expect(page.locator("#verdict")).to_have_attribute("data-reachable", "false")
    page.route("**/api/*/history", lambda route: route.fulfill(**TIMEOUT))
    page.click("#reconstruct")
    expect(area).to_be_visible()
    expect(page.locator("#verdict-body")).to_be_hidden()  # no verdict beside the error
    page.unroute("**/api/*/history")
    page.click("#reconstruct")
    expect(page.locator("#verdict")).to_have_attribute("data-reachable", "false")
    expect(area).to_be_hidden()


def test_the_replay_page_of_no_saved_game_is_a_404(page: Page) -> None:
    answer = page.goto("/games/999999")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("Page not found")
    expect(page.locator("#not-found-detail")).to_contain_text("no such saved game")


def test_a_backup_imported_twice_adds_nothing_the_second_time(page: Page) -> None:
    """Importing the same backup twice duplicated every game."""
    stored = save_game(
        page,
        game="tictactoe",
        size="3x3",
        moves=[{"row": 1, "col": 1}, {"row": 2, "col": 2}, {"row": 1, "col": 2}],
        players={"1": "human", "2": "engine"},
        status="abandoned",
    )
    exported = page.request.get("/api/games/export?game=tictactoe").json()
    game = next(record for record in exported["games"] if record["id"] == stored["id"])
    backup = json.dumps({**exported, "games": [game]})
    assert page.request.delete(f"/api/games/{stored['id']}").ok
    page.goto("/games")
    page.wait_for_load_state("networkidle")
    total = page.locator("#summary")
    before = int(total.get_attribute("data-total") or 0)
    page.set_input_files("#import-file", files=[_file("backup.json", backup)])
    result = page.locator("#import-result")
    expect(result).to_have_text("Imported 1 game from backup.json.")
    expect(total).to_have_attribute("data-total", str(before + 1))
    page.set_input_files("#import-file", files=[_file("backup.json", backup)])
    expect(result).to_have_text("Imported 0 games from backup.json; skipped 1 game already saved.")
    expect(result).to_have_attribute("data-skipped", "1")
    expect(total).to_have_attribute("data-total", str(before + 1))


# -- item 8 ---------------------------------------------------------------------------------------
def test_the_pages_say_where_the_board_limit_is_and_why(page: Page) -> None:
    """The web refused boards over 64 cells without saying so; the home page's summaries
    are the games' own (it said Connect Four "7x6 or smaller" and offered 8x7)."""
    page.goto("/")
    expect(page.locator(".cards .card").first).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("or smaller")
    page.goto("/play/connect4?size=8x7")  # 56 cells: played here
    expect(page.locator("#board .slots .cell")).to_have_count(56)
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    page.select_option("#size", "custom")
    expect(page.locator("#size-limit")).to_have_text(LIMIT.format(64))
    shot(page, "play-board-limit")
