"""Time limits that count the whole answer, progress a person sees, and trials of every move
(issue 15, items 3 and 4; issue 16, item 7)."""

from __future__ import annotations

import subprocess
import time

import pytest
from cli_support import COMMAND, STOPPED_SOON, interrupt, on_a_terminal, run

from perfectplay import api
from perfectplay.analysis.reach import TRIAL_SECONDS
from perfectplay.errors import ParameterError
from perfectplay.search.limits import make_limit


def test_a_limit_counts_the_time_spent_before_the_search() -> None:
    """``started`` in the past: the time is already spent, so only depth 1 (always
    completed) is searched, and the reported time counts from ``started``."""
    game, position = api.load("tictactoe", "", size="8x8", k=5)
    spent = 5.0
    result = api.best(game, position, api.limit(time=1.0, started=time.perf_counter() - spent))
    assert result.depth == 1 and result.best_move is not None
    assert result.time >= spent


def test_a_limit_without_a_start_counts_from_the_search() -> None:
    game, position = api.load("tictactoe", "", size="8x8", k=5)
    result = api.best(game, position, api.limit(depth=3, time=60.0))
    assert result.depth == 3


def test_started_must_be_a_clock_reading() -> None:
    with pytest.raises(api.PerfectplayError, match="started="):
        api.limit(time=1.0, started="now")  # type: ignore[arg-type]


def test_a_search_over_its_time_says_why() -> None:
    """A fresh process loads the compiled engine (hundreds of milliseconds) inside a
    millisecond's limit: the answer comes after depth 1, with a note saying so."""
    done = subprocess.run(
        [*COMMAND, "best", "connect4", "44", "--time", "0.001"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "depth 1" in done.stdout
    assert "note: answered after" in done.stderr and "over --time 0.001" in done.stderr


def test_best_shows_its_progress_on_a_terminal() -> None:
    """stderr a terminal: a status line with the depth, the move so far, nodes and the time
    left; stdout keeps the answer alone."""
    code, shown, out = on_a_terminal(
        "best", "tictactoe", "", "--size", "8x8", "--k", "5", "--time", "2"
    )
    assert code == 0
    assert "so far" in shown and "nodes" in shown and "s left" in shown, shown[-500:]
    assert "so far" not in out


def test_best_says_up_front_when_it_will_think_for_the_default_time() -> None:
    code, shown, _ = on_a_terminal("best", "simplexity", "", "--eval", "neighbors")
    assert code == 0
    assert "too far from the end to solve exactly" in shown and "thinking for 3 s" in shown


def test_analyze_tries_every_move_within_reach_or_refuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The empty 8x7 board has no book, and 55 plies is beyond the exact search's reach:
    analyze gets a trial, which does not end exact, and is refused (7x6 positions of the
    opening, such as ``44``, which took 559 s before, are now answered from the books)."""
    code, _, err = run(capsys, "analyze", "connect4", "", "--size", "8x7")
    assert code == 2
    assert "on the moves of a position 56 plies from the end" in err
    assert "--time S" in err
    code, out, _ = run(capsys, "analyze", "connect4", "44")
    assert code == 0 and "W39" in out  # column 4 wins with the 20th stone


def test_ctrl_c_stops_an_analysis_with_the_moves_valued_so_far() -> None:
    """Issue 15, item 3: SIGINT during ``analyze``: exit 130 soon (:data:`STOPPED_SOON`), with the
    moves valued so far on stderr (the analysis went on silently before)."""
    code, text, waited = interrupt(
        [*COMMAND, "analyze", "connect4", "", "--size", "8x7", "--time", "14"],
        after=0.5,
        when="1 valued",  # once the first move is valued, however long the start took
    )
    assert code == 130, text
    assert "interrupted; moves valued so far: " in text and "Traceback" not in text
    assert waited < STOPPED_SOON, f"stopped {waited:.2f} s after SIGINT"


def test_ctrl_c_stops_a_history_soon() -> None:
    """Issue 15, item 3: SIGINT during a ``history`` of many sub-boards (about 5 s here):
    exit 130 soon (:data:`STOPPED_SOON`), with a one-line note, no traceback."""
    code, text, waited = interrupt(
        [*COMMAND, "history", "connect4", "....../....../..ox../.xoxo./xoxoxo"],
        after=0.3,
        when="history: boards of",  # once it values sub-boards
    )
    assert code == 130, text
    assert "perfectplay: interrupted" in text and "Traceback" not in text
    assert waited < STOPPED_SOON, f"stopped {waited:.2f} s after SIGINT"


# -- issue 27, item 9: what the library proves, the command line proves ------------------------
def test_the_trial_proves_the_5_5_4_draw(capsys: pytest.CaptureFixture[str]) -> None:
    """The empty 5x5 board of (5,5,4) is 25 plies from the end, one past tic-tac-toe's reach:
    its trial goes to the exact solver alone (2 to 4 s), which proves the draw."""
    code, out, err = run(capsys, "solve", "tictactoe", "", "--size", "5x5", "--k", "4")
    assert code == 0, err
    assert "draw (score 0)" in out and "depth 25, exact" in out


def test_a_timed_search_hands_over_to_the_exact_solver(capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``--time 60`` the exact solver gets the time it needs, and the draw comes back
    proved, not '+0 (not proven)': the empty (5,5,4) board is one ply beyond the reach, so
    the exact solver goes first (it took 3 s; iterative deepening had searched 17 plies in
    20 s before it handed over, and a loaded machine pushed that past the minute)."""
    argv = ("solve", "tictactoe", "", "--size", "5x5", "--k", "4", "--time", "60", "--json")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert '"exact": true' in out and '"outcome": "draw"' in out


def test_a_timed_search_just_beyond_the_reach_tries_the_exact_solver_first() -> None:
    """The empty (5,5,4) board under a time limit: the exact solver first (its nodes, plus
    the first iteration's), not 17 plies of iterative deepening before it (21 M nodes)."""
    game, position = api.load("tictactoe", "", size="5x5", k=4)
    alone = api.solve(game, position)
    timed = api.solve(game, position, make_limit(time=60))
    assert alone.exact and timed.exact and timed.score == alone.score
    assert timed.nodes < 2 * alone.nodes


def test_a_trial_is_the_exact_solver_alone() -> None:
    trial = api.trial_limit(*api.load("tictactoe", "", size="5x5", k=4))
    assert trial is not None and trial.trial and trial.time == TRIAL_SECONDS
    with pytest.raises(ParameterError, match="a trial has a time limit alone"):
        make_limit(depth=3, trial=True)
