"""The Connect Four, shape-and-color and small m,n,k engines compiled without numba's
reference counts (``compiled_bits.lean``): a lean function that lost an array (freed while
its search still used it) would give answers that change from one run to the next, or
between the code just compiled and the code loaded from numba's cache. The same searches,
run twice in this process, in a fresh one loading the cache, and (slow) in one compiling
into an empty cache then in one loading that, must agree; and agree with Pons' scores
(Connect Four) and the Python alpha-beta (m,n,k), the slow oracles."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from perfectplay import api, contract
from perfectplay.search.alphabeta import alphabeta

CONNECT4 = {"274552224131661": 0, "5455174361263362": -1, "2531276566711153": 2}
"""Positions of Pons' middle-medium set and their scores (``shared/connect4/Test_L2_R2``)."""
SIMPLEXITY = ("2O 5X", "2O 5X 6O 6X 6O 7X 6O 6X")
SIMPLEXITY_DEPTH = 5
MNK_BOARDS = (("4x3", 3), ("3x4", 3), ("4x3", 4))
"""``(width x height, k)`` of the m,n,k boards solved from empty: over ``GENERIC_CELLS``, so
the compiled engine searches them."""


def answers() -> dict[str, Any]:
    """Score, nodes, best move and principal variation of each search, as text."""
    out: dict[str, Any] = {}
    for moves in CONNECT4:
        result = api.solve(*api.load("connect4", moves))
        out[f"connect4 {moves}"] = [result.score.value, result.nodes, str(result.pv)]
    for moves in SIMPLEXITY:
        game, position = api.load("simplexity", moves)
        result = api.best(game, position, api.limit(depth=SIMPLEXITY_DEPTH))
        out[f"simplexity {moves}"] = [result.score.value, result.nodes, str(result.best_move)]
    for size, k in MNK_BOARDS:
        game, position = api.new_game("tictactoe", size=size, k=k)
        result = api.solve(game, position)
        out[f"mnk {size} k={k}"] = [result.score.value, result.nodes, str(result.pv)]
    return out


SCRIPT = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); "
    "from test_lean_engines import answers; print(json.dumps(answers()))"
)


def fresh_answers(cache: Path | None) -> Any:
    """:func:`answers` in a new process, whose numba cache is ``cache`` (None: the default)."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, here], capture_output=True, text=True, env=env, timeout=900
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_lean_searches_agree_in_process_across_runs_and_from_the_cache() -> None:
    first = json.loads(json.dumps(answers()))
    assert json.loads(json.dumps(answers())) == first
    assert fresh_answers(None) == first


@pytest.mark.slow
def test_lean_searches_compiled_afresh_agree_with_the_cached_code(tmp_path: Path) -> None:
    """The engines compiled in a new process with an empty cache, then loaded from that cache
    by another: both give this process's answers (a minute or two of compiling)."""
    first = json.loads(json.dumps(answers()))
    assert fresh_answers(tmp_path) == first  # compiled now
    assert fresh_answers(tmp_path) == first  # loaded from the cache just written


def test_lean_connect4_scores_are_pons() -> None:
    for moves, score in CONNECT4.items():
        game, position = api.load("connect4", moves)
        result = api.solve(game, position, line=False)
        assert result.score.value == api.solve(game, position).score.value
        assert contract.score_json(game, position, result.score)["score"] == score


def test_lean_mnk_values_are_the_python_search() -> None:
    for size, k in MNK_BOARDS:
        game, position = api.new_game("tictactoe", size=size, k=k)
        exact = api.solve(game, position)
        assert exact.score.value == alphabeta(game, position).score.value
