"""Plain games (issue 30, :mod:`perfectplay.games.simple`): the examples of
``examples/simple`` against the built-in game and Bouton's rule, their size in lines, the
command line on them as installed, the notebook, and the guard around a plain game's slips
(the conformance test runs over the examples too)."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from functools import reduce
from operator import xor
from pathlib import Path
from typing import Any

import pytest
from cli_support import COMMAND, run
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from simple_support import (
    EXAMPLES,
    GAMES,
    example_module,
    example_site,
    examples_registered,
)

import perfectplay
from perfectplay import api, contract, errors
from perfectplay.analysis.table import value_table
from perfectplay.games import registry
from perfectplay.games.registry import get_kit
from perfectplay.games.simple import SimpleGame
from perfectplay.web.app import Settings, create_app

PLAIN = Path(__file__).parent / "plain"
MOST_LINES = 100
"""The most lines of code (not comments, docstrings or blank lines) of the Nim and
tic-tac-toe examples."""
LEGAL_TICTACTOE = 5_478
"""The legal positions of tic-tac-toe, the empty board included."""
RESULT_KEYS = {"finished", "winner", "to_move", "to_move_number", "outcome", "plies", "score"}
"""Keys of ``solve --json`` every game has (the conformance test checks them all)."""


@pytest.fixture(scope="module", autouse=True)
def examples() -> Iterator[None]:
    """The example games, and every game this module registers, for its length only."""
    with examples_registered():
        yield


def code_lines(path: Path) -> int:
    """The lines of ``path`` holding code: not blank, not comments, not docstrings."""
    source = path.read_text()
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, (body[0].end_lineno or 0) + 1))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


@pytest.mark.parametrize("module", ["nim", "tictactoe"])
def test_the_examples_are_at_most_a_hundred_lines_of_code(module: str) -> None:
    lines = code_lines(EXAMPLES / f"{module}.py")
    assert 10 < lines <= MOST_LINES, lines


def test_code_lines_leave_out_docstrings_and_comments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Doc\n\nstring."""\n\n# comment\nx = 1  # note\n\n\n'
        'def f():\n    """Doc."""\n    return (\n        x)\n'
    )
    assert code_lines(sample) == 4


# -- the examples against the built-in game and the theory ----------------------------------
def tictactoe_pairs() -> Iterator[tuple[Any, Any]]:
    """Every legal tic-tac-toe position of the built-in game with the plain game's position
    reached by the same moves (one of them per built-in key)."""
    builtin, start = api.new_game("tictactoe")
    plain, plain_start = api.new_game("simpletictactoe")
    seen, frontier = {builtin.key(start)}, [(start, plain_start)]
    while frontier:
        position, twin = frontier.pop()
        yield position, twin
        for move in builtin.legal_moves(position):
            child = builtin.play(position, move)
            if builtin.key(child) not in seen:
                seen.add(builtin.key(child))
                text = api.kit("tictactoe").move_text(builtin, move)
                frontier.append((child, plain.play(twin, text)))


def test_plain_tictactoe_has_the_built_in_value_on_all_legal_positions() -> None:
    builtin, _ = api.new_game("tictactoe")
    plain, _ = api.new_game("simpletictactoe")
    builtin_values = value_table(builtin, engine="python")
    pairs = list(tictactoe_pairs())
    assert len(pairs) == LEGAL_TICTACTOE
    for position, twin in pairs:
        assert plain.to_move(twin) == builtin.to_move(position)
        assert (plain.outcome(twin) is None) == (builtin.outcome(position) is None)
        assert value_of(plain, twin) == builtin_values[builtin.key(position)], twin


def value_of(game: Any, position: Any) -> float:
    """The exact value the solver gives ``position`` (a finished one: its table value)."""
    if game.outcome(position) is not None:
        return value_table(game, position)[game.key(position)]
    return api.solve(game, position).score.value


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(lambda h: 0 < sum(h) <= 10))
def test_plain_nim_follows_the_xor_rule(heaps: list[int]) -> None:
    loaded = api.load_with_moves("simplenim", ",".join(map(str, heaps)))  # the rules' parse
    assert loaded.moves is None and api.position_text(loaded) == ",".join(map(str, heaps))
    wins = api.solve(loaded.game, loaded.position).score.value > 0
    assert wins == (reduce(xor, heaps, 0) != 0), heaps
    nim = SimpleGame("simplenim", example_module("nim").Nim(tuple(heaps)))
    assert (value_table(nim)[nim.key(nim.initial())] > 0) == wins


def test_a_parsed_position_says_who_moves_and_reads_back() -> None:
    loaded = api.load_with_moves("simplenim", "1,2,3/2")
    assert loaded.game.to_move(loaded.position) == perfectplay.Player.SECOND
    assert api.position_text(loaded) == "1,2,3/2"
    with pytest.raises(errors.NotationError, match="'3,99': neither moves nor a position"):
        api.load_with_moves("simplenim", "3,99")


def test_the_solver_follows_the_xor_rule_on_registered_nim() -> None:
    loaded = api.load_with_moves("simplenim", "1-1 3-2")  # heaps 2,4,3: xor 5, a win
    result = api.solve(loaded.game, loaded.position)
    assert result.score.value > 0
    after = api.play(loaded, result.best_move)
    heaps, _ = after.position.state
    assert reduce(xor, heaps, 0) == 0


# -- the command line, as installed ---------------------------------------------------------
@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has ``examples/simple`` installed."""
    return example_site(tmp_path_factory.mktemp("simple-site") / "site")


def perfectplay_cli(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """``perfectplay ARGV`` in a process of its own with ``env``."""
    return subprocess.run([*COMMAND, *argv], env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    ("name", "position"),
    [("simplenim", "1-3 2-2"), ("simpletictactoe", "b2 a1 c3"), ("dropthree", "2 3 2 3 1")],
)
def test_the_command_line_solves_draws_steps_and_counts_each_installed_game(
    installed: dict[str, str], tmp_path: Path, name: str, position: str
) -> None:
    solved = perfectplay_cli(installed, "solve", name, position, "--json")
    assert solved.returncode == 0, solved.stderr
    builtin = perfectplay_cli(installed, "solve", "tictactoe", "x________", "--json")
    assert set(json.loads(solved.stdout)) == set(json.loads(builtin.stdout)) >= RESULT_KEYS
    picture = tmp_path / "tree.svg"
    drawn = perfectplay_cli(installed, "tree", name, position, "--svg", str(picture), "--alphabeta")
    assert drawn.returncode == 0, drawn.stderr
    assert "<svg" in picture.read_text() and "cut off" in picture.read_text()
    stepped = perfectplay_cli(installed, "tree", name, position, "--steps")
    assert stepped.returncode == 0 and "Start at the root" in stepped.stdout, stepped.stderr
    counted = perfectplay_cli(installed, "perft", name, "--depth", "3", "--json")
    built_in = perfectplay_cli(installed, "perft", "tictactoe", "--depth", "3", "--json")
    assert set(json.loads(counted.stdout)) == set(json.loads(built_in.stdout)), counted.stderr


def test_batch_solves_an_installed_games_positions_on_worker_processes(
    installed: dict[str, str], tmp_path: Path
) -> None:
    positions = tmp_path / "positions.txt"
    positions.write_text("1-3 2-2\n1-1\n3-5 2-4\n")
    out = tmp_path / "answers.jsonl"
    done = perfectplay_cli(
        installed, "batch", "simplenim", str(positions), "--out", str(out), "--workers", "1"
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(answers) == 3 and all("score" in json.dumps(a) for a in answers)


# -- in-process: every verb through the api and the command line -----------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_verb_runs_on_the_registered_games(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    position = {"simplenim": "1-1 2-2", "simpletictactoe": "b2 a1", "dropthree": "2 3 2"}[name]
    for argv in (
        ("best", name, position, "--time", "0.2"),
        ("analyze", name, position),
        ("tree", name, position, "--alphabeta", "--depth", "2", "--heuristic"),
        ("arena", name, "--p1", "engine", "--p2", "random", "--games", "2", "--time", "0.05"),
    ):
        code, out, err = run(capsys, *argv)
        assert code == 0 and out, (argv, err)
    code, _, err = run(capsys, "history", name, position)
    assert code == 2 and err.count("\n") == 1 and f"history {name}: {name} does not offer it" in err


def test_register_refuses_a_taken_name_a_bad_name_and_a_class_without_rules() -> None:
    good = example_module("nim").Nim
    with pytest.raises(errors.ParameterError, match="built-in or installed"):
        perfectplay.register(good, name="tictactoe")
    with pytest.raises(errors.ParameterError, match="lower-case"):
        perfectplay.register(good, name="Not A Name")
    with pytest.raises(errors.ParameterError, match="lacks moves, play, result"):
        perfectplay.register(type("Empty", (), {"start": lambda self: 0}), name="empty")
    first = perfectplay.register(good, name="againnim")
    again = perfectplay.register(good, name="againnim")  # a notebook cell run twice
    assert first is not again and registry.REGISTERED.registry().kits["againnim"] is again
    assert get_kit("againnim") is again


# -- the guard --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def broken() -> dict[str, tuple[Any, str, str]]:
    """The broken plain games of ``plain/broken_games.py``, registered in this process."""
    sys.path.insert(0, str(PLAIN))
    import broken_games

    for name, (rules, _, _) in broken_games.BROKEN.items():
        perfectplay.register(rules, name=f"broken-{name}")
    return dict(broken_games.BROKEN)


def named(message: str, name: str, method: str, words: str) -> None:
    """Checks that ``message`` is one line naming the broken game, its method and why."""
    assert f"game 'broken-{name}': " in message, message
    assert method in message and words in message, message
    assert "\n" not in message.strip() and "Traceback" not in message


BROKEN_NAMES = ("raises", "repeats", "nomoves", "notalist", "badresult", "mutates", "unhashable")


@pytest.mark.parametrize("name", BROKEN_NAMES)
def test_a_broken_game_is_a_plugin_error_naming_game_and_method(
    broken: dict[str, tuple[Any, str, str]], name: str
) -> None:
    _, method, words = broken[name]
    with pytest.raises(errors.PluginError) as caught:
        loaded = api.load_with_moves(f"broken-{name}", "1")
        api.solve(loaded.game, loaded.position)
    named(str(caught.value), name, method, words)


@pytest.mark.parametrize("name", BROKEN_NAMES)
def test_the_command_line_prints_one_line_and_exits_2(
    broken: dict[str, tuple[Any, str, str]], capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _, method, words = broken[name]
    code, out, err = run(capsys, "solve", f"broken-{name}", "1")
    assert code == 2 and out == "", err
    named(err.removeprefix("perfectplay: error: "), name, method, words)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("plain-errors") / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, cap=1.0, warm=False))) as test_client:
        yield test_client


@pytest.mark.parametrize("name", BROKEN_NAMES)
def test_the_web_answers_400(
    broken: dict[str, tuple[Any, str, str]], client: TestClient, name: str
) -> None:
    _, method, words = broken[name]
    answer = client.post(f"/api/broken-{name}/state", json={"position": "1 1"})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["type"] == "PluginError"
    named(error["message"], name, method, words)


# -- the notebook ------------------------------------------------------------------------------
def test_the_notebook_registers_solves_draws_and_steps_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Runs the code cells of ``examples/simple/notebook.ipynb`` in order, in one namespace,
    with plain Python (no Jupyter needed)."""
    notebook = json.loads((EXAMPLES / "notebook.ipynb").read_text())
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert cells
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, cell in enumerate(cells, start=1):
        exec(compile("".join(cell["source"]), f"notebook cell {number}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "3 win in 3" in out and "Cut at" in out
    assert "<svg" in (tmp_path / "takeaway-tree.svg").read_text()
    assert namespace["steps"].cuts > 0


def test_plain_games_json_is_the_contracts(capsys: pytest.CaptureFixture[str]) -> None:
    loaded = api.load_with_moves("dropthree", "2 3 2")
    state = contract.state_json(loaded)
    assert (state["rows"], state["cols"], state["gravity"]) == (3, 4, True)
    assert state["moves"] == [{"column": 2}, {"column": 3}, {"column": 2}]
    nim: dict[str, Any] = contract.state_json(api.load_with_moves("simplenim", "1-1"))
    assert nim["cells"] is None and {"move": "3-5"} in nim["legal"]


def test_a_plain_game_without_a_move_str_that_is_one_word_is_refused() -> None:
    rules = type("Spaced", (example_module("nim").Nim,), {"moves": lambda self, p: ["take one"]})
    perfectplay.register(rules, name="spaced")
    game, position = api.new_game("spaced")
    with pytest.raises(errors.PluginError, match="'spaced': moves returned a move written"):
        game.legal_moves(position)
