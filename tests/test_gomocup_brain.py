"""Issue 26, item 3: a Gomocup brain a tournament manager can trust. Each behaviour is driven
over the protocol (lines in, lines out: :meth:`Brain.serve`, or the ``perfectplay gomocup``
process on standard input and output); none asserts an elapsed time: the engine's loading
and its clock are injected (a loader that has not finished, a deadline already past)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import ClassVar

import pytest

from perfectplay import api
from perfectplay.cli.gomocup import (
    LATE_MEMORY,
    MIN_SECONDS,
    READY,
    SAFE_SHARE,
    TIME_SHARE,
    Brain,
    Lateness,
    Loader,
)
from perfectplay.games.mnk.rules import MNKGame, MNKPosition

COMMAND = [sys.executable, "-c", "from perfectplay.cli.main import main; raise SystemExit(main())"]


def replies(brain: Brain, *lines: str) -> list[str]:
    return list(brain.serve(iter(lines)))


def cell(answer: str) -> tuple[int, int]:
    x, y = answer.split(",")
    return int(x), int(y)


def said(loader: Loader) -> None:
    """Wait until the loading thread has said its notice (its first thing)."""
    for _ in range(1000):
        if loader.notice is not None:
            return
        time.sleep(0.01)


class Stalled:
    """A loader's work that does not finish until released: the engine still loading."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, say: Callable[[str], None]) -> None:
        say("compiling the engine: first run after install")
        self.release.wait(60)


def test_start_answers_at_once_while_the_engine_loads() -> None:
    """START does not wait for the engine; a move that cannot wait for it (its time is up)
    answers without it, on an empty cell: the centre on an empty board, the win when
    there is one, else the block of the opponent's; the compile is said once as a MESSAGE."""
    stalled = Stalled()
    brain = Brain(loader=Loader(stalled))
    try:
        assert replies(brain, "START 15")[0] == "OK"
        said(brain.loader)
        got = replies(brain, "INFO timeout_turn 1", "BEGIN")
        assert got == ["MESSAGE compiling the engine: first run after install", "7,7"]
        board = ["BOARD", *(f"{x},3,1" for x in range(4)), *(f"{x},9,2" for x in (0, 2, 4, 6))]
        assert replies(brain, *board, "DONE") == ["4,3"]  # five in a row now
        board = ["BOARD", *(f"{x},3,2" for x in range(4)), *(f"{x},9,1" for x in (0, 2, 4, 6))]
        assert replies(brain, *board, "DONE") == ["4,3"]  # the opponent's five blocked
    finally:
        stalled.release.set()


class Patience(Loader):
    """A loader that records how long each move was ready to wait for it."""

    def __init__(self, warm: Callable[[Callable[[str], None]], None]) -> None:
        super().__init__(warm)
        self.waits: list[float] = []

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        return super().wait(seconds)


def test_a_move_does_not_wait_for_a_compile() -> None:
    """A compile takes a minute: with a minute a move, the brain still answers at once
    (a load from numba's cache, a matter of seconds, is waited for within the move's time)."""
    stalled = Stalled()
    loader = Patience(stalled)
    brain = Brain(loader=loader)
    try:
        assert replies(brain, "START 15", "INFO timeout_turn 60000")[0] == "OK"
        said(loader)
        assert replies(brain, "BEGIN")[-1] == "7,7" and loader.waits == [0.0]
    finally:
        stalled.release.set()


def test_late_moves_shorten_the_next_searches_until_the_machine_is_quiet_again() -> None:
    """On time, a move's search gets TIME_SHARE of the turn; after a move that answered
    0.3 s past its search's time (a busy machine), the next ones get what brings the answer
    by SAFE_SHARE of the turn, until LATE_MEMORY moves on time have passed."""
    lateness = Lateness()
    assert lateness.budget(1.0) == pytest.approx(TIME_SHARE)
    lateness.record(planned=0.87, took=1.17)
    assert lateness.budget(1.0) == pytest.approx(SAFE_SHARE - 0.3)
    assert lateness.budget(10.0) == pytest.approx(10 * TIME_SHARE)  # long turns: room enough
    for _ in range(LATE_MEMORY - 1):
        lateness.record(planned=0.87, took=0.86)
        assert lateness.budget(1.0) == pytest.approx(SAFE_SHARE - 0.3)
    lateness.record(planned=0.87, took=0.86)
    assert lateness.budget(1.0) == pytest.approx(TIME_SHARE)


def test_the_brain_times_its_moves_and_gives_less_after_late_ones() -> None:
    """Each move's time from its command to its answer is recorded; the search time of the
    next move (``seconds``) comes down after a late one, never below the least a move
    searches."""
    stalled = Stalled()
    brain = Brain(loader=Loader(stalled))
    try:
        assert replies(brain, "START 15", "INFO timeout_turn 1000", "BEGIN")[-1] == "7,7"
        assert list(brain.lateness.recent) == [0.0]  # answered at once, within its time
        assert brain.seconds() == pytest.approx(TIME_SHARE)
        brain.lateness.record(planned=0.87, took=1.37)
        assert brain.seconds() == pytest.approx(SAFE_SHARE - 0.5)
        brain.lateness.record(planned=0.87, took=3.0)
        assert brain.seconds() == MIN_SECONDS
    finally:
        stalled.release.set()


def test_the_engine_is_loaded_once_and_said_ready() -> None:
    calls: list[str] = []
    loader = Loader(lambda say: calls.append("load"), on_ready=lambda: calls.append("ready"))
    brain = Brain(loader=loader)
    assert replies(brain, "START 15", "START 15", "RECTSTART 15,17", "RESTART") == ["OK"] * 4
    assert brain.loader.wait(30)
    assert calls == ["load", "ready"]


def test_the_brain_says_when_its_engine_is_loaded() -> None:
    """``MESSAGE perfectplay: engine loaded`` comes once, whenever the load ends (a manager
    may wait for it before its first game); every command is still answered once."""
    got = run_brain("START 15", "INFO timeout_turn 2000", "BEGIN", args=("tictactoe",))
    assert got.count(READY) <= 1
    assert [line for line in got if line != READY] == ["OK", "7,7"]


def test_a_search_whose_deadline_has_passed_still_answers_the_forced_move() -> None:
    """The whole search keeps the deadline, its first iteration and the threat searches
    included: with the time already spent it stops at its first clock reading (its first
    iteration used to run to its end, proofs and all) and answers the forced move, the
    block of the opponent's four."""
    o_four = {(7, c) for c in range(3, 7)}  # row 7, columns 3 to 6: a four, closed at (7, 7)
    x_stones = {(7, 7), (9, 3), (9, 5), (9, 9)}
    text = "/".join(
        "".join("o" if (r, c) in o_four else "x" if (r, c) in x_stones else "_" for c in range(15))
        for r in range(15)
    )
    game, position = api.load("tictactoe", text, k=5)
    assert isinstance(game, MNKGame) and isinstance(position, MNKPosition)
    long_ago = time.perf_counter() - 60
    result = api.best(game, position, api.limit(time=1.0, started=long_ago))
    assert tuple(result.best_move) == (7, 2)
    assert result.depth == 0 and result.nodes < 10  # no iteration finished: it stopped at once


def test_board_errors_keep_the_replies_in_step() -> None:
    """A bad line inside BOARD: one ERROR naming it when DONE comes, nothing for the lines
    after it; the next command is answered as usual."""
    brain = Brain(loader=Loader(lambda say: None))
    got = replies(brain, "START 15", "BOARD", "7,7,1", "seven", "8,8,2", "99,99,1", "DONE", "ABOUT")
    assert got[0] == "OK"
    assert got[1] == "ERROR board line 'seven': expected x,y,field"
    assert got[2].startswith('name="perfectplay"') and len(got) == 3
    got = replies(brain, "BOARD", "7,7,1", "7,7,2", "8,8,4", "DONE", "RESTART")
    assert got == ["ERROR 7,7 is taken", "OK"]


def test_continuous_game_stones_are_never_answered() -> None:
    """Field 3 (a continuous game's stones) are taken cells: the brain's four is blocked at
    both ends by them, so its answer is elsewhere (it used to complete five on one)."""
    brain = Brain(loader=Loader(lambda say: None))
    neutral = [(0, 0), (5, 0), (14, 14)]
    got = replies(
        brain,
        "START 15",
        "INFO rule 2",
        "INFO timeout_turn 300",
        "BOARD",
        *(f"{x},0,1" for x in range(1, 5)),
        *(f"{x},{y},2" for x, y in ((7, 7), (9, 9), (11, 7), (7, 11))),
        *(f"{x},{y},3" for x, y in neutral),
        "DONE",
    )
    stones = {(x, 0) for x in range(1, 5)} | {(7, 7), (9, 9), (11, 7), (7, 11)} | set(neutral)
    assert cell(got[1]) not in stones


@pytest.mark.parametrize(
    ("rule", "name"), [("4", "renju"), ("8", "caro"), ("5", "renju"), ("16", "unknown bit 16")]
)
def test_rules_it_cannot_play_are_refused_by_name(rule: str, name: str) -> None:
    brain = Brain(loader=Loader(lambda say: None))
    got = replies(brain, "START 15", f"INFO rule {rule}")
    assert got[1].startswith(f"ERROR rule {rule} ({name}): not played")


@pytest.mark.parametrize(("rule", "exact"), [("0", False), ("1", True), ("2", False), ("3", True)])
def test_the_rules_it_plays(rule: str, exact: bool) -> None:
    brain = Brain(loader=Loader(lambda say: None))
    assert replies(brain, "START 15", f"INFO rule {rule}") == ["OK"]
    assert brain.exact_rule is exact


@pytest.mark.parametrize("rule", ["0", "1"])
@pytest.mark.parametrize("start", ["START 20", "RECTSTART 20,15", "RECTSTART 12,20"])
def test_boards_up_to_20x20(start: str, rule: str) -> None:
    brain = Brain(loader=Loader(lambda say: None))
    got = replies(brain, start, f"INFO rule {rule}", "INFO timeout_turn 300", "BEGIN", "TURN 0,0")
    assert got[0] == "OK"
    first, second = cell(got[1]), cell(got[2])
    assert first != second and (0, 0) not in (first, second)
    assert all(0 <= x < brain.cols and 0 <= y < brain.rows for x, y in (first, second))
    assert replies(brain, "START 21") == ["ERROR unsupported size 21x21: 5 to 20 a side"]


def run_brain(*lines: str, args: tuple[str, ...] = ("gomoku",)) -> list[str]:
    done = subprocess.run(
        [*COMMAND, "gomocup", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.splitlines()


def test_the_protocol_in_one_session() -> None:
    """Through the process: START, a refused rule, a BOARD with a bad line, a 20x20 game
    with a continuous game's stone, and END (status 0); every command answered once."""
    got = run_brain(
        "START 15",
        "INFO rule 4",
        "BOARD",
        "1,1,1",
        "1,1,1",
        "2,2,2",
        "DONE",
        "START 20",
        "INFO rule 3",
        "INFO timeout_turn 500",
        "BOARD",
        "10,10,2",
        "19,19,3",
        "DONE",
        "END",
    )
    got = [line for line in got if not line.startswith("MESSAGE")]
    assert got[:4] == [
        "OK",
        "ERROR rule 4 (renju): not played; the brain plays freestyle (0) and exact five (1), "
        "in continuous games too (2, 3)",
        "ERROR 1,1 is taken",
        "OK",
    ]
    assert len(got) == 5 and cell(got[4]) not in {(10, 10), (19, 19)}


def test_help_names_the_games_it_plays() -> None:
    done = subprocess.run(
        [*COMMAND, "gomocup", "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    assert "gomoku" in done.stdout and "tictactoe" in done.stdout
    assert "connect4" not in done.stdout and "simplexity" not in done.stdout


class Recording(api.Engine[object, object]):
    """An engine that notes what the brain asks of it."""

    made: ClassVar[list[str]] = []
    cleared: ClassVar[list[str]] = []
    limits: ClassVar[list[api.Limit]] = []

    def __init__(self, game: api.RegisteredGame) -> None:
        super().__init__(game)
        Recording.made.append(game.name)

    def clear(self) -> None:
        Recording.cleared.append(self.game.name)
        super().clear()

    def solve(self, position: object, search_limit: api.Limit = api.EXACT, **kw: object) -> object:  # type: ignore[override]
        Recording.limits.append(search_limit)
        return super().solve(position, search_limit, **kw)  # type: ignore[arg-type]


def test_one_engine_for_the_rule_and_board_its_table_kept_until_a_new_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: the brain keeps the engine (and its transposition table) of the rule and
    board in force across its moves, BOARD blocks included (they continue a game); START and
    RESTART empty its table; another rule or board replaces it (one table at a time).
    ``INFO max_node`` is the search's node budget a move."""
    for notes in (Recording.made, Recording.cleared, Recording.limits):
        notes.clear()
    monkeypatch.setattr(api, "Engine", Recording)
    brain = Brain(loader=Loader(lambda say: None))
    got = replies(
        brain,
        "START 15",
        "INFO timeout_turn 5000",
        "INFO max_node 300",
        "BEGIN",
        "TURN 8,8",
        "BOARD",
        "7,7,1",
        "8,8,2",
        "6,6,1",
        "9,9,2",
        "DONE",
    )
    assert len(got) == 4 and got[0] == "OK"
    assert Recording.made == ["tictactoe"] and Recording.cleared == []
    assert [limit.nodes for limit in Recording.limits] == [300, 300, 300]
    assert replies(brain, "RESTART", "INFO rule 1", "INFO max_node 0", "BEGIN")[0] == "OK"
    assert Recording.cleared == ["tictactoe"]
    assert Recording.made == ["tictactoe", "gomoku"] and Recording.limits[-1].nodes is None
    assert [key[0] for key in brain.engines] == ["gomoku"]
    assert replies(brain, "START 15") == ["OK"]
    assert Recording.cleared == ["tictactoe", "gomoku"]
    assert replies(brain, "INFO max_node many")[0].startswith("ERROR max_node")
