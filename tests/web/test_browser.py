"""The web pages in a real browser: Playwright drives Debian's Chromium (headless) against a
live server (``live_server``, see conftest.py), clicking and typing as a person would.

Every page leaves a screenshot in ``tests/artifacts/screenshots/``; the Connect Four play
page with the analysis overlay is copied to ``docs/screenshots/`` for the README when that
file is missing or ``UPDATE_README_SCREENSHOT=1`` is set (so that test runs leave the
committed picture alone).
Searches stay small (the perfect engine on small boards, a depth limit on Connect Four) so
that the module runs in about a minute. Without ``/usr/bin/chromium`` the module fails to
load (``PERFECTPLAY_NO_BROWSER=1`` skips it instead).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():  # a loud failure: a silent skip hid the browser tests (issue 15)
    message = (
        f"{CHROMIUM} is not installed: the browser tests need Debian's chromium package "
        "(apt-get install chromium; PERFECTPLAY_NO_BROWSER=1 skips them knowingly)"
    )
    if os.environ.get("PERFECTPLAY_NO_BROWSER") == "1":
        pytest.skip(message, allow_module_level=True)
    pytest.fail(message, pytrace=False)

from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright  # noqa: E402

from perfectplay import api  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "tests" / "artifacts" / "screenshots"
README_SHOT = ROOT / "docs" / "screenshots" / "play-connect4.png"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 20_000
"""Longest wait for anything on a page (an engine move is at most the server's 5 s cap)."""

expect.set_options(timeout=TIMEOUT_MS)

PATIENT_TIMEOUT_MS = 120_000
"""Longest wait on ``patient_page`` (its server allows 60 s of engine work a request)."""

READY = "['human', 'over'].includes(document.querySelector('#status').dataset.state)"
"""The play page waits for the human (or the game is over): the engine is not thinking."""

STATUS_IS = """async ([id, status]) => {
  const answer = await fetch(`/api/games/${id}`);
  return (await answer.json()).status === status;
}"""
"""Has the saved game this status yet? (saves land in the background)"""

# x a1, o b1 (a mistake: draw -> loss), x b2, o c3, x a3, o a2, x c1: x wins on the diagonal
REPLAYED = [(0, 0), (0, 1), (1, 1), (2, 2), (2, 0), (1, 0), (0, 2)]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def _open(browser: Browser, server: str, bypass_csp: bool = True) -> Iterator[Page]:
    """A fresh page on ``server``; any JavaScript error fails the test. The pages' Content
    Security Policy is bypassed by default, since Playwright's waits on string expressions
    are evaluated as strings in the page; :func:`test_pages_run_under_their_security_policy`
    checks the pages under it."""
    context = browser.new_context(
        base_url=server, viewport={"width": 1280, "height": 900}, bypass_csp=bypass_csp
    )
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser, live_server: str) -> Iterator[Page]:
    """A fresh page on the live server; any JavaScript error fails the test."""
    yield from _open(browser, live_server)


@pytest.fixture
def plugin_page(browser: Browser, plugin_server: str) -> Iterator[Page]:
    """A fresh page on the server with the plug-in test games (see conftest.py)."""
    yield from _open(browser, plugin_server)


@pytest.fixture
def patient_page(browser: Browser, patient_server: str) -> Iterator[Page]:
    """A fresh page on the server with a long cap (see conftest.py), waiting as long."""
    for opened in _open(browser, patient_server):
        opened.set_default_timeout(PATIENT_TIMEOUT_MS)
        yield opened


def screenshot(page: Page, name: str) -> Path:
    """Save the whole page as tests/artifacts/screenshots/<name>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def save_game(page: Page, **fields: Any) -> dict[str, Any]:
    """Store a game through the API, as the play page does."""
    answer = page.request.post("/api/games", data=fields)
    assert answer.ok, answer.text()
    record: dict[str, Any] = answer.json()
    return record


def saved_total(page: Page, query: str) -> int:
    answer = page.request.get(f"/api/games?{query}")
    assert answer.ok, answer.text()
    return int(answer.json()["total"])


def moves_played(page: Page) -> int:
    return page.locator("#move-list li").count()


def wait_for_moves(page: Page, count: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#move-list li').length >= {count}")
    page.wait_for_function(READY)


def play_out(page: Page) -> None:
    """Click the first free cell whenever it is the human's turn, until the game ends."""
    for _ in range(10):
        page.wait_for_function(READY)
        if page.locator("#result").is_visible():
            return
        played = moves_played(page)
        page.locator("#board button.cell:not([disabled])").first.click()
        wait_for_moves(page, played + 1)
    expect(page.locator("#result")).to_be_visible()


def drop(page: Page, column: int) -> None:
    """Drop a piece in a column of a connect game and wait for the engine's reply."""
    page.wait_for_function(READY)
    played = moves_played(page)
    page.click(f'#board button.col-head[data-column="{column}"]')
    wait_for_moves(page, played + 2)


def finished_record(page: Page) -> dict[str, Any]:
    """The saved game the play page links to, once its last save has landed."""
    expect(page.locator("#saved")).to_contain_text("(finished)")
    game_id = page.locator("#saved-link").get_attribute("data-game-id")
    record: dict[str, Any] = page.request.get(f"/api/games/{game_id}").json()
    return record


# -- start page, not found ------------------------------------------------------------------------
def test_index_lists_games_and_tools_and_unknown_pages_are_404(page: Page) -> None:
    page.goto("/")
    # a card for each game with a board (the built-in four and the installed examples'),
    # one for each of the five tools
    boards = sum(game_kit.has(api.Capability.BOARD) for game_kit in api.games())
    expect(page.locator(".cards .card")).to_have_count(boards + 5)
    links = ("/play/tictactoe", "/play/gomoku", "/play/connect4", "/play/simplexity")
    for link in (*links, "/tools/analyze"):
        expect(page.locator(f'.site-nav a[href="{link}"]')).to_have_count(1)
    expect(page.locator('.site-nav a[href="/docs"]')).to_have_text("API docs")
    screenshot(page, "index")

    answer = page.goto("/no/such/page")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("Page not found")
    expect(page.locator("main")).to_contain_text("/no/such/page")
    screenshot(page, "not_found")


def test_api_docs_are_drawn_from_the_schema_without_the_network(page: Page) -> None:
    outside: list[str] = []
    page.on("request", lambda r: None if "127.0.0.1" in r.url else outside.append(r.url))
    page.goto("/docs")
    analyze = page.locator("section.docs-endpoint", has_text="/api/{game}/analyze")
    expect(analyze).to_have_count(1)
    expect(analyze.locator(".docs-fields").last).to_contain_text("position")
    expect(page.locator("section.docs-endpoint", has_text="/api/health")).to_have_count(1)
    assert page.locator("section.docs-endpoint").count() >= 12
    assert outside == [], f"the docs page asked another host: {outside}"
    screenshot(page, "docs")


# -- play -----------------------------------------------------------------------------------------
def test_tictactoe_full_game_as_x_never_beats_the_perfect_engine(page: Page) -> None:
    page.goto("/play/tictactoe")
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    expect(page.locator("#board button.cell")).to_have_count(9)
    play_out(page)

    banner = page.locator("#result")
    verdict = banner.get_attribute("data-result")
    assert verdict in ("draw", "engine")
    expect(banner).to_contain_text("Draw" if verdict == "draw" else "The engine wins")
    if verdict == "engine":
        expect(page.locator("#board .cell.win")).to_have_count(3)
    record = finished_record(page)
    assert record["players"] == {"1": "human", "2": "engine"}
    assert record["settings"] == {"strength": "perfect"}
    assert record["result"] in ("draw", "2")
    assert len(record["moves"]) == moves_played(page)
    screenshot(page, "play-tictactoe")


def test_tictactoe_as_o_with_undo_against_the_engine_moving_first(page: Page) -> None:
    page.goto("/play/tictactoe")
    page.wait_for_function(READY)
    page.click("#swap")
    wait_for_moves(page, 1)  # the engine opens as x
    expect(page.locator("#board .piece")).to_have_count(1)
    page.locator("#board button.cell:not([disabled])").first.click()
    wait_for_moves(page, 3)
    page.click("#undo")  # takes back the human's move and the engine's reply
    expect(page.locator("#move-list li")).to_have_count(1)
    expect(page.locator("#board .piece")).to_have_count(1)
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#hint")  # the engine's choice for the human, marked on the board
    expect(page.locator("#hint-text strong")).to_have_attribute("data-move", re.compile(r"r\dc\d"))
    expect(page.locator("#board .cell.hint")).to_have_count(1)

    play_out(page)
    verdict = page.locator("#result").get_attribute("data-result")
    assert verdict in ("draw", "engine")
    record = finished_record(page)
    assert record["players"] == {"1": "engine", "2": "human"}
    assert record["result"] in ("draw", "1")


def test_connect4_overlay_values_preview_keys_and_abandon(page: Page) -> None:
    page.goto("/play/connect4")
    page.select_option("#strength-kind", "depth")
    page.fill("#strength-amount", "6")
    page.check("#overlay")
    for column in (2, 5, 3):  # the engine's replies leave it threats: proven losses for red
        drop(page, column)

    chips = page.locator("#board .col-head .val")
    expect(chips).to_have_count(7)
    kinds = {"win in": "val-win", "loss in": "val-loss", "draw": "val-draw"}
    seen = set()
    for chip in chips.all():
        text, classes = chip.inner_text(), chip.get_attribute("class") or ""
        expected = next((css for start, css in kinds.items() if text.startswith(start)), None)
        if expected is None:
            assert re.fullmatch(r"≈[+-]?\d+", text), text  # a heuristic estimate, never "0"
            expected = "val-heur"
        assert expected in classes.split(), (text, classes)
        seen.add(expected)
    assert "val-loss" in seen

    page.hover('#board .slots .cell[data-column="7"]')
    expect(page.locator("#board .piece.ghost")).to_have_count(1)
    expect(page.locator("#pv")).to_contain_text("Expected line")
    shot = screenshot(page, "play-connect4")
    if os.environ.get("UPDATE_README_SCREENSHOT") or not README_SHOT.exists():
        README_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, README_SHOT)

    page.keyboard.press("7")  # digits drop in a column
    wait_for_moves(page, 8)
    expect(page.locator("#move-list li").nth(6)).to_have_attribute("data-move", "7")
    expect(page.locator("#saved")).to_have_attribute("data-moves", "8")  # saves have landed
    game_id = page.locator("#saved-link").get_attribute("data-game-id")

    # exact values on a small board: grey draws, red losses
    page.goto("/play/connect4?size=5x4")  # leaving the page abandons the running game
    page.select_option("#strength-kind", "perfect")
    page.check("#overlay")
    expect(page.locator("#board .col-head .val")).to_have_count(5)
    expect(page.locator("#board .col-head .val.val-draw")).to_have_count(3)
    expect(page.locator("#board .col-head .val.val-loss").first).to_contain_text("loss in")
    record = page.request.get(f"/api/games/{game_id}").json()
    assert record["status"] == "abandoned"
    assert len(record["moves"]) == 8


@pytest.mark.parametrize("width", [1280, 390])
def test_play_at_a_level_a_person_can_beat(browser: Browser, live_server: str, width: int) -> None:
    """Issue 15, item 12: named levels in the strength menu; the engine's moves come from
    the level (the saved game says which), hints and the overlay stay exact."""
    viewport: ViewportSize = {"width": width, "height": 900}
    context = browser.new_context(base_url=live_server, viewport=viewport, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/play/connect4")
        names = page.locator("#strength-kind optgroup option")
        assert names.all_inner_texts() == ["Beginner", "Casual", "Club", "Strong"]
        page.select_option("#strength-kind", "casual")
        expect(page.locator("#strength-amount")).to_be_hidden()  # a level has no number
        page.check("#overlay")
        for column in (4, 3):
            drop(page, column)
        expect(page.locator("#board .col-head .val")).to_have_count(7)  # exact overlay: no 422
        expect(page.locator("#pv")).to_contain_text("at level casual")
        page.click("#hint")
        expect(page.locator("#hint-text")).to_contain_text("Hint:")
        expect(page.locator("#saved")).to_have_attribute("data-moves", "4")
        game_id = page.locator("#saved-link").get_attribute("data-game-id")
        record = page.request.get(f"/api/games/{game_id}").json()
        assert record["settings"] == {"strength": "level", "level": "casual"}
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"play-level-{width}")
        assert not errors, errors
    finally:
        context.close()


def test_simplexity_shape_choice_follows_the_quotas(page: Page) -> None:
    page.goto("/play/simplexity?size=4x4")
    page.select_option("#strength-kind", "depth")
    page.fill("#strength-amount", "1")
    shape_o = page.locator('.shape-choice[data-shape="O"]')
    shape_x = page.locator('.shape-choice[data-shape="X"]')
    expect(shape_o).to_have_attribute("aria-checked", "true")
    expect(shape_o).to_contain_text("4 left")
    for column in (1, 1, 1, 2):  # four O: red's quota of its own shape on 4x4
        drop(page, column)

    bottom = page.locator('#board .slots .cell[data-row="3"][data-column="1"] svg.piece')
    assert {"p1", "shape-O"} <= set((bottom.get_attribute("class") or "").split())
    expect(shape_o).to_be_disabled()
    expect(shape_o).to_contain_text("0 left")
    expect(shape_x).to_have_attribute("aria-checked", "true")
    page.keyboard.press("o")  # a spent shape cannot be chosen
    expect(shape_x).to_have_attribute("aria-checked", "true")
    screenshot(page, "play-simplexity")
    played = moves_played(page)
    page.click('#board button.col-head[data-column="3"]')
    expect(page.locator("#move-list li").nth(played)).to_have_attribute("data-move", "3X")
    wait_for_moves(page, played + 2)
    expect(page.locator("#saved")).to_have_attribute("data-moves", str(played + 2))
    game_id = page.locator("#saved-link").get_attribute("data-game-id")
    page.click("#new-game")  # a new game abandons the running one
    expect(page.locator("#move-list li")).to_have_count(0)
    page.wait_for_function(STATUS_IS, arg=[game_id, "abandoned"])


# -- analyse --------------------------------------------------------------------------------------
def test_analyze_finds_the_winning_move_of_the_article_board(page: Page) -> None:
    page.goto("/tools/analyze")
    page.wait_for_load_state("networkidle")  # the page has loaded its example
    page.fill("#position", "xox/oox/___")
    page.click("#analyse-button")
    best = page.locator("#best-move")
    expect(best).to_have_attribute("data-row", "3")  # the move's JSON, counted from 1
    expect(best).to_have_attribute("data-col", "3")
    expect(best).to_contain_text("c3")
    expect(best).to_contain_text("win in 1")
    rows = page.locator("#moves-table tbody tr")
    expect(rows).to_have_count(3)
    assert [row.get_attribute("data-move") for row in rows.all()] == ["r3c3", "r3c2", "r3c1"]
    for index, css in enumerate(("val-win", "val-draw", "val-loss")):
        expect(rows.nth(index).locator(".val")).to_have_class(re.compile(rf"\b{css}\b"))
    expect(page.locator('#board .cell[data-row="2"][data-col="2"]')).to_have_class(
        re.compile(r"\bhint\b")
    )
    screenshot(page, "analyze")

    page.click("[data-editor=clear]")  # then edit the board by clicking: empty -> x -> o
    expect(page.locator("#position")).to_have_value("___/___/___")
    page.click('#board .cell[data-row="0"][data-col="0"]')
    expect(page.locator("#position")).to_have_value("x__/___/___")
    page.click('#board .cell[data-row="0"][data-col="0"]')
    expect(page.locator("#position")).to_have_value("o__/___/___")
    expect(page.locator("#results-body")).to_be_hidden()  # the old analysis is gone


@pytest.mark.parametrize("width", [1280, 390])
def test_analyze_names_the_tables_best_move_and_says_when_it_is_heuristic(
    browser: Browser, live_server: str, width: int
) -> None:
    """Issue 15, item 2: on 4453 a timed-out "Perfect" showed a heuristic "column 4 +1" as
    the best move while its own table ranked column 6 first, with bare numbers. (4453 is now
    answered from the opening books at once: a 13-stone position of Pons' begin-hard set is
    still beyond half a second.)"""
    context = browser.new_context(base_url=live_server, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto("/tools/analyze?game=connect4")
        page.wait_for_load_state("networkidle")
        page.fill("#position", "2147756677465")
        page.select_option("#strength-kind", "time")
        page.fill("#strength-amount", "0.5")
        page.click("#analyse-button")
        best = page.locator("#best-move")
        expect(best).to_have_attribute("data-exact", "false")
        top = page.locator("#moves-table tbody tr").first
        assert best.get_attribute("data-move-key") == top.get_attribute("data-move")
        expect(top).to_have_class(re.compile(r"\bis-best\b"))
        expect(page.locator("#best-facts")).to_contain_text("heuristic: estimates")
        for chip in page.locator("#moves-table .val-heur").all():
            assert chip.inner_text().startswith("≈"), chip.inner_text()  # never a bare "0"
    finally:
        context.close()


def test_analyze_shows_the_servers_message_for_bad_input(page: Page) -> None:
    page.goto("/tools/analyze")
    page.wait_for_load_state("networkidle")  # the page has loaded its example
    page.select_option("#game", "connect4")
    expect(page.locator("#board .col-head")).to_have_count(7)
    page.fill("#position", "44x")
    page.click("#analyse-button")
    area = page.locator("#error-area")
    expect(area).to_be_visible()
    expect(area).to_contain_text("unexpected character 'x'")
    expect(area.locator(".error-kind")).to_have_text("Notation error:")
    assert "{" not in area.inner_text()  # the message, not a JSON dump
    screenshot(page, "analyze-error")
    page.click(".error-close")
    expect(area).to_be_hidden()


# -- history --------------------------------------------------------------------------------------
def test_history_verdict_and_step_through(page: Page) -> None:
    page.goto("/tools/history?position=xox%2Foox%2Fx__")
    page.wait_for_load_state("networkidle")  # the page has loaded its example
    expect(page.locator("#position")).to_have_value("xox/oox/x__")
    page.click("#reconstruct")
    expect(page.locator("#verdict")).to_have_attribute("data-reachable", "false")
    expect(page.locator("#mistakes li")).to_have_count(1)
    expect(page.locator("#mistakes li")).to_have_attribute("data-ply", "7")

    board = page.locator("#step-board")
    label = page.locator("#stepper .step-label")
    expect(label).to_have_text("0 / 7")
    expect(board.locator(".piece")).to_have_count(0)
    page.click("#stepper [data-step=next]")
    expect(board.locator(".piece")).to_have_count(1)
    page.click("#stepper [data-step=last]")
    expect(board.locator(".piece")).to_have_count(7)
    expect(board.locator(".cell.last.mistake")).to_have_count(1)
    expect(page.locator("#step-caption")).to_contain_text("mistake")
    expect(page.locator('#step-list button[data-index="7"]')).to_have_class(
        re.compile(r"\bmistake\b")
    )
    screenshot(page, "history")
    page.locator("#stepper input[type=range]").fill("3")
    expect(label).to_have_text("3 / 7")
    expect(board.locator(".piece")).to_have_count(3)
    page.keyboard.press("ArrowLeft")
    expect(label).to_have_text("2 / 7")
    page.click("#stepper [data-step=first]")
    expect(board.locator(".piece")).to_have_count(0)


TIMEOUT = {
    "status": 503,
    "content_type": "application/json",
    "body": json.dumps({"error": {"type": "EngineTimeout", "message": "over the 5 s cap"}}),
}
"""An engine timeout as the server answers it, for ``page.route`` (the tests of stale errors
on the tool pages, at 1280 and 390 px, are in test_browser_screens.py)."""


# -- tree -----------------------------------------------------------------------------------------
def test_tree_expands_collapses_and_shows_alphabeta_cuts(page: Page) -> None:
    page.goto("/tools/tree?position=xo_%2F_x_%2Fo__")
    page.wait_for_load_state("networkidle")  # the page has loaded its example
    expect(page.locator("#position")).to_have_value("xo_/_x_/o__")
    page.click("#build")
    level = '#tree .node[data-depth="{}"]'
    expect(page.locator(level.format(0))).to_have_count(1)
    expect(page.locator(level.format(1))).to_have_count(5)  # the root's children, closed
    expect(page.locator(level.format(2))).to_have_count(0)
    child = page.locator(level.format(1)).nth(1)
    child.click()
    expect(page.locator(level.format(2) + ":visible")).to_have_count(4)
    expect(page.locator("#tree .node.pv")).to_have_count(2)  # the root and the winning c3
    screenshot(page, "tree")
    child.click()
    expect(page.locator(level.format(2) + ":visible")).to_have_count(0)

    pruned = int(page.locator('[data-count="pruned"] b').inner_text())
    assert pruned > 0
    page.click("#expand-all")
    cuts = page.locator("#tree .node.pruned")
    expect(cuts).to_have_count(pruned)
    expect(cuts.first).to_contain_text("cut")
    expect(page.locator("#tree .node .window").first).to_contain_text("[-inf, +inf]")

    page.check("input[name=algorithm][value=minimax]")
    page.click("#build")
    expect(page.locator('[data-count="pruned"] b')).to_have_text("0")
    expect(page.locator("#tree .node.pruned")).to_have_count(0)
    expect(page.locator("#tree .node .window")).to_have_count(0)


# -- saved games ----------------------------------------------------------------------------------
def test_games_list_filters_pages_exports_imports_and_deletes(page: Page) -> None:
    filters = "game=tictactoe&status=abandoned&human_side=2"
    for _ in range(21):
        save_game(
            page,
            game="tictactoe",
            size="3x3",
            moves=[{"row": 1, "col": 1}],
            players={"1": "engine", "2": "human"},
            settings={"strength": "depth", "depth": 2},
            status="abandoned",
        )
    total = saved_total(page, filters)
    assert total >= 21

    page.goto(f"/games?{filters}")
    expect(page.locator("#f-game")).to_have_value("tictactoe")
    expect(page.locator("#summary")).to_have_attribute("data-total", str(total))
    rows = page.locator("#games-table tbody tr")
    expect(rows).to_have_count(20)
    expect(rows.first).to_contain_text("depth 2")
    expect(rows.first).to_contain_text("Abandoned")
    screenshot(page, "games")
    page.click("#older")
    expect(rows).to_have_count(total - 20)
    expect(page.locator("#page-label")).to_have_text("page 2 of 2")
    page.click("#newer")
    expect(rows).to_have_count(20)

    href = page.locator("#export").get_attribute("href") or ""
    assert "game=tictactoe" in href and "status=abandoned" in href
    exported = page.request.get(href).json()
    assert exported["format"] == "perfectplay-games" and len(exported["games"]) == total

    delete = rows.first.locator("[data-delete]")
    delete.click()
    expect(delete).to_have_text("Really delete?")
    delete.click()
    expect(page.locator("#summary")).to_have_attribute("data-total", str(total - 1))

    one = {"format": "perfectplay-games", "version": 1, "games": exported["games"][:1]}
    page.set_input_files("#import-file", files=[_file("one.json", json.dumps(one))])
    expect(page.locator("#import-result")).to_have_text("Imported 1 game from one.json.")
    expect(page.locator("#summary")).to_have_attribute("data-total", str(total))

    page.set_input_files("#import-file", files=[_file("notes.json", "not json")])
    expect(page.locator("#error-area")).to_contain_text("notes.json: not a JSON file")
    bad = {"games": [{**exported["games"][0], "moves": [{"row": 7, "col": 7}]}]}
    page.set_input_files("#import-file", files=[_file("bad.json", json.dumps(bad))])
    expect(page.locator("#error-area")).to_contain_text("games item 1")


def _file(name: str, text: str) -> Any:
    return {"name": name, "mimeType": "application/json", "buffer": text.encode()}


def test_replay_steps_through_a_saved_game_with_the_engines_verdict(page: Page) -> None:
    record = save_game(
        page,
        game="tictactoe",
        size="3x3",
        moves=[{"row": row + 1, "col": col + 1} for row, col in REPLAYED],
        players={"1": "engine", "2": "human"},
        settings={"strength": "perfect"},
        status="finished",
    )
    assert record["result"] == "1"
    page.goto("/games")
    page.click(f'#games-table tr[data-id="{record["id"]}"] a.replay-link')
    expect(page).to_have_url(re.compile(rf"/games/{record['id']}$"))

    panel = page.locator("#analysis")
    expect(page.locator("#stepper .step-label")).to_have_text("0 / 7")
    expect(panel).to_have_attribute("data-ready", "true")
    page.click("#stepper [data-step=next]")
    page.click("#stepper [data-step=next]")
    expect(panel).to_have_attribute("data-step", "2")
    expect(panel.locator('[data-verdict="mistake"]')).to_be_visible()
    expect(panel.locator('[data-role="played"]')).to_contain_text("b1")
    expect(panel.locator('[data-role="played"] .val')).to_have_class(re.compile(r"\bval-loss\b"))
    expect(panel.locator('[data-role="best"] .val')).to_have_class(re.compile(r"\bval-draw\b"))
    expect(page.locator('#step-list button[data-index="2"]')).to_have_class(
        re.compile(r"\bmistake\b")
    )
    screenshot(page, "replay")

    page.keyboard.press("End")
    expect(page.locator("#step-caption")).to_contain_text("3 in a row")
    expect(page.locator("#board .cell.win")).to_have_count(3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#stepper .step-label")).to_have_text("6 / 7")
    page.locator("#stepper input[type=range]").fill("1")
    expect(panel).to_have_attribute("data-ready", "true")
    expect(panel.locator('[data-verdict="ok"]')).to_be_visible()

    page.click("#open-analyse")
    expect(page).to_have_url(re.compile(r"/tools/analyze\?.*position=x__%2F___%2F___"))
    expect(page.locator("#best-move")).to_have_attribute("data-move-key", re.compile(r"r\dc\d"))


# -- a plug-in game -------------------------------------------------------------------------------
def test_a_plugin_game_with_a_board_is_listed_and_playable(plugin_page: Page) -> None:
    page = plugin_page
    page.goto("/")
    expect(page.locator('.site-nav a[href="/play/pairs"]')).to_have_count(1)
    expect(page.locator('.site-nav a[href="/play/blindpairs"]')).to_have_count(0)
    expect(page.locator('.card-art[data-thumb="pairs"] .piece')).to_have_count(3)  # a1 a2 b1

    page.goto("/play/pairs")
    expect(page.locator("#status")).to_have_attribute("data-state", "human")
    expect(page.locator("#board button.cell")).to_have_count(6)
    expect(page.locator("#shape-picker")).to_be_hidden()
    play_out(page)  # a1, b1, c1 each met by the perfect engine's block below: a draw
    banner = page.locator("#result")
    assert banner.get_attribute("data-result") == "draw"
    expect(page.locator("#board .piece")).to_have_count(6)
    record = finished_record(page)
    assert (record["game"], record["size"], record["result"]) == ("pairs", None, "draw")
    assert record["settings"] == {"strength": "perfect"} and len(record["moves"]) == 6
    screenshot(page, "play-plugin")

    page.goto("/tools/analyze?game=pairs&position=a1")

    page.wait_for_load_state("networkidle")  # the page has loaded its example
    expect(page.locator("#best-move")).to_have_attribute("data-move-key", "r2c1")
    page.click("[data-editor=clear]")
    page.click('#board .cell[data-row="1"][data-col="2"]')  # a click plays a move of a list
    expect(page.locator("#position")).to_have_value("c2")
    page.click("[data-editor=back]")
    expect(page.locator("#position")).to_have_value("")

    page.goto("/play/blindpairs")  # no board view: its legal moves as buttons (issue 30)
    expect(page.locator("#board button.move-choice")).to_have_count(6)
    page.locator("#board button.move-choice").first.click()
    wait_for_moves(page, 2)


@pytest.mark.parametrize("path", ["/", "/play/connect4", "/tools/analyze", "/games", "/docs"])
def test_pages_run_under_their_security_policy(
    browser: Browser, live_server: str, path: str
) -> None:
    """Every page loads and runs its scripts under the policy the server sends (no inline
    script, no eval): no JavaScript error, and the page's script has drawn its content."""
    for opened in _open(browser, live_server, bypass_csp=False):
        answer = opened.goto(path)
        assert (
            answer is not None and "script-src 'self'" in answer.headers["content-security-policy"]
        )
        opened.wait_for_load_state("networkidle")
        assert opened.locator("main").inner_text().strip()


NARROW_PAGES = (
    "/",
    "/play/tictactoe",
    "/play/tictactoe?size=6x6",
    "/play/tictactoe?size=8x8",
    "/play/connect4",
    "/play/connect4?size=8x7",
    "/play/simplexity",
    "/tools/analyze",
    "/tools/tree",
    "/tools/history",
    "/games",
    "/docs",
)


@pytest.mark.parametrize("path", NARROW_PAGES)
def test_every_page_fits_a_390_px_screen(browser: Browser, live_server: str, path: str) -> None:
    """Issue 15, item 7: at 390 px the 6x6 board was cut off at column f and /games scrolled
    sideways. No page may be wider than the screen, and every board cell must be on it."""
    context = browser.new_context(base_url=live_server, viewport={"width": 390, "height": 844})
    context.set_default_timeout(TIMEOUT_MS)
    narrow = context.new_page()
    try:
        narrow.goto(path)
        narrow.wait_for_load_state("networkidle")
        width = narrow.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path}: the page is {width} px wide"
        right = narrow.evaluate(
            "Math.max(0, ...[...document.querySelectorAll('#board .cell, #board .slot')]"
            ".map((cell) => cell.getBoundingClientRect().right))"
        )
        assert right <= 390, f"{path}: a board cell ends at {right:.0f} px"
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = path.strip("/").replace("/", "-").replace("?", "-").replace("=", "") or "index"
        narrow.screenshot(path=str(SHOTS / f"narrow-{name}.png"), full_page=True)
    finally:
        context.close()
