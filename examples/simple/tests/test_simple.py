"""The plain example games as installed (``pip install ./examples/simple``): the entry
points register them, and the command line solves each one (perfectplay's own tests hold
the rest: ``tests/test_simple_games.py`` and the conformance test)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from perfectplay import api
from perfectplay.games.registry import game_names, problems

GAMES = ("simplenim", "simpletictactoe", "dropthree")
COMMAND = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]


def test_the_entry_points_register_the_games() -> None:
    assert set(GAMES) <= set(game_names())
    assert not [problem for problem in problems() if "simple_games" in problem]


@pytest.mark.parametrize("name", GAMES)
def test_the_command_line_solves_each_game(name: str) -> None:
    done = subprocess.run([*COMMAND, "solve", name, "", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["exact"] is True


def test_the_values_are_the_theorys() -> None:
    game, position = api.load("simplenim", "")  # heaps 3,4,5: xor 2, a first-player win
    assert api.solve(game, position).score.value > 0
    game, position = api.load("simpletictactoe", "")
    assert api.solve(game, position).score.value == 0  # a draw
