"""Nim: its rules, its notation, and the game through perfectplay's api, JSON contract and
command line (the generic checks every game passes are in perfectplay's
``tests/test_conformance.py``)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from perfectplay import api, contract
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
)
from perfectplay.games.kit import Capability, GameParams
from perfectplay.games.protocol import Player
from perfectplay.games.registry import game_names, get_kit, problems
from perfectplay.values import HEURISTIC_BOUND

from nim_game.kit import KIT, NimKit
from nim_game.notation import move_from_json, parse_move
from nim_game.rules import MAX_HEAP, MAX_HEAPS, NimMove, NimPosition, game, nim_sum


def solved(text: str) -> dict[str, Any]:
    """``contract.result_json`` of the exact solve of the Nim position ``text``."""
    loaded_game, position = api.load("nim", text)
    return contract.result_json(loaded_game, position, api.solve(loaded_game, position))


# -- registration ------------------------------------------------------------------------------
def test_the_entry_point_registers_the_kit() -> None:
    assert "nim" in game_names()
    assert get_kit("NIM") is KIT
    assert isinstance(KIT, NimKit)
    assert not [p for p in problems() if "nim" in p]


def test_the_kit_declares_no_board_size_k_or_capability() -> None:
    assert KIT.size is None and not KIT.takes_k and not KIT.board_notation
    assert KIT.capabilities == frozenset()
    assert not KIT.has(Capability.BOARD)
    nim, position = api.new_game("nim")
    assert KIT.board(nim, position) is None
    assert nim.kernel() is None
    assert KIT.size_of(nim) is None and KIT.k_of(nim) is None


@pytest.mark.parametrize(("size", "k"), [("3x3", None), (None, 3)], ids=["size", "k"])
def test_size_and_k_are_refused(size: str | None, k: int | None) -> None:
    with pytest.raises(ParameterError, match="nim takes no"):
        api.load("nim", "3,4,5", size=size, k=k)
    with pytest.raises(ParameterError, match="nim takes no"):
        KIT.make(GameParams((3, 3) if size else None, k))


# -- rules -------------------------------------------------------------------------------------
def test_a_move_takes_from_one_heap_and_passes_the_turn() -> None:
    nim = game((3, 4, 5))
    start = nim.initial()
    after = nim.play(start, NimMove(1, 3))
    assert after == NimPosition((3, 1, 5), 1)
    assert start == NimPosition((3, 4, 5), 0)  # not mutated
    assert nim.to_move(start) is Player.FIRST and nim.to_move(after) is Player.SECOND
    assert nim.ply(after) == 1 and nim.plies_left_bound(after) == 9


def test_taking_the_last_object_wins() -> None:
    nim = game((0, 2))
    last = nim.play(nim.initial(), NimMove(1, 2))
    outcome = nim.outcome(last)
    assert outcome is not None and outcome.winner is Player.FIRST
    assert "took the last" in outcome.reason
    assert nim.legal_moves(last) == ()
    assert nim.finished_score(last) == -1  # lost for the side that would move
    with pytest.raises(GameOverError, match="already over"):
        nim.play(last, NimMove(0, 1))


def test_empty_heaps_at_the_start_are_lost_for_player_1() -> None:
    loaded = api.load_with_moves("nim", "0,0,0")
    outcome = loaded.game.outcome(loaded.position)
    assert outcome is not None and outcome.winner is Player.SECOND


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (NimMove(3, 1), "no heap 4; the heaps are numbered 1 to 3"),
        (NimMove(-1, 1), "no heap 0"),
        (NimMove(0, 4), "heap 1 holds 3; take from 1 to 3"),
        (NimMove(0, 0), "take from 1 to 3"),
        ((0, True), "whole numbers"),
        ("2:3", "a move is"),
    ],
)
def test_illegal_moves_are_refused_naming_the_move(move: Any, message: str) -> None:
    nim = game((3, 4, 5))
    with pytest.raises(IllegalMoveError, match=message):
        nim.play(nim.initial(), move)


def test_moves_are_listed_by_heap_and_ordered_winning_first() -> None:
    nim = game((1, 2))
    position = nim.initial()
    assert nim.legal_moves(position) == (NimMove(0, 1), NimMove(1, 1), NimMove(1, 2))
    ordered = nim.ordered_moves(position)
    assert ordered[0] == NimMove(1, 1)  # leaves 1,1: nim-sum 0
    assert sorted(ordered) == sorted(nim.legal_moves(position))


def test_the_key_is_the_heaps_and_positions_hash_by_value() -> None:
    nim = game((2, 2))
    one = nim.play(nim.initial(), NimMove(0, 2))
    two = nim.play(nim.play(nim.initial(), NimMove(0, 1)), NimMove(0, 1))
    assert nim.key(one) == nim.key(two) == (0, 2)
    assert one != two  # another side to move
    again = nim.play(nim.initial(), NimMove(0, 2))
    assert again == one and hash(again) == hash(one)


def test_evaluate_is_a_heuristic_within_the_heuristic_range() -> None:
    nim = game((3, 4, 5))
    assert 0 < abs(nim.evaluate(nim.initial())) < HEURISTIC_BOUND
    result = api.solve(nim, nim.initial(), api.limit(depth=1))
    assert not result.exact
    assert contract.result_json(nim, nim.initial(), result)["outcome"] is None


# -- notation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "heaps", "plies"),
    [
        ("3,4,5", (3, 4, 5), 0),
        (" 3 , 4 ,5 ", (3, 4, 5), 0),
        ("7", (7,), 0),
        ("3,4,5 2:3 1-1", (2, 1, 5), 2),
        ("3,4,5\n2:3", (3, 1, 5), 1),
    ],
)
def test_positions_are_heaps_then_moves(text: str, heaps: tuple[int, ...], plies: int) -> None:
    loaded = api.load_with_moves("nim", text)
    assert loaded.position == NimPosition(heaps, plies)
    assert loaded.moves is not None and len(loaded.moves) == plies
    again = api.load_with_moves("nim", api.position_text(loaded))
    assert again.position == loaded.position and again.moves == loaded.moves


def test_position_text_after_moves_reads_back() -> None:
    loaded = api.play(api.load_with_moves("nim", "3,4,5"), NimMove(2, 5))
    assert api.position_text(loaded) == "3,4,5 3:5"
    assert api.load_with_moves("nim", "3,4,5 3:5").position == loaded.position


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("", NotationError, "position '': empty"),
        ("   ", NotationError, "position '   ': empty"),
        ("3,-4", NotationError, "'3,-4': expected heap sizes"),
        ("3,,4", NotationError, "'3,,4': expected heap sizes"),
        ("a,b", NotationError, "'a,b': expected heap sizes"),
        ("3,4,", NotationError, "'3,4,': expected heap sizes"),
        # issue 27, item 4: Unicode spaces and digits that int() refuses were let through
        ("3,\x1c4", NotationError, "expected heap sizes"),
        ("3,\u0664", NotationError, "expected heap sizes"),
        ("3\u2003,4", NotationError, "expected heap sizes"),
        (",".join(["1"] * (MAX_HEAPS + 1)), ParameterError, f"{MAX_HEAPS + 1} heaps"),
        (f"3,{MAX_HEAP + 1}", ParameterError, f"heap 2 is {MAX_HEAP + 1}"),
        ("3,4,5 2:x", NotationError, r"move 1 \('2:x'\)"),
        ("3,4,5 1:1 9:1", IllegalMoveError, r"move 2 \('9:1'\): move 9:1: no heap 9"),
        ("1 1:1 1:1", GameOverError, "already over"),
    ],
)
def test_bad_positions_name_the_input_and_the_reason(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        api.load("nim", text)


@pytest.mark.parametrize("text", ["2:3", "2-3", " 2 : 3 ", "2 - 3"])
def test_moves_are_heap_and_take(text: str) -> None:
    assert parse_move(text) == NimMove(1, 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("23", "expected a heap and the objects to take"),
        ("x:1", "expected a heap"),
        ("", "expected a heap"),
        ("0:1", "heaps are numbered from 1"),
        ("1:0", "take at least one"),
        ("1:\u0661", "expected a heap"),
        ("1\x1c:1", "expected a heap"),
    ],
)
def test_bad_moves_name_the_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(f"move {text!r}: ") + message):
        parse_move(text)


def test_json_moves_count_heaps_from_1() -> None:
    nim = game((3, 4, 5))
    assert nim.move_to_json(NimMove(1, 3)) == {"heap": 2, "take": 3}
    assert move_from_json({"heap": 2, "take": 3}) == NimMove(1, 3)
    loaded = api.play_json(api.load_with_moves("nim", "3,4,5"), {"heap": 3, "take": 5})
    assert loaded.position == NimPosition((3, 4, 0), 1)


@pytest.mark.parametrize(
    "data",
    [
        [2, 3],
        "2:3",
        {"heap": 2},
        {"heap": 2, "take": 3, "shape": "O"},
        {"heap": True, "take": 1},
        {"heap": 2, "take": 1.5},
        {"heap": 0, "take": 1},
        {"heap": 1, "take": 0},
    ],
)
def test_bad_json_moves_are_notation_errors(data: Any) -> None:
    with pytest.raises(NotationError, match="move "):
        move_from_json(data)


def test_render_draws_one_line_per_heap() -> None:
    nim, position = api.load("nim", "1,3")
    assert api.render(nim, position).splitlines() == ["heap 1  |    1", "heap 2  |||  3"]
    assert KIT.notes(nim, position) == ["objects left: 4"]


# -- search through the api and the JSON contract ----------------------------------------------
def builtin_result_keys() -> set[str]:
    """The keys of ``contract.result_json`` for a built-in game (the conformance test pins
    them for every game)."""
    ttt, board = api.load("tictactoe", "xox/oox/___")
    return set(contract.result_json(ttt, board, api.solve(ttt, board)))


def test_solve_3_4_5_is_a_win_with_the_contract_keys() -> None:
    data = solved("3,4,5")
    assert set(data) == builtin_result_keys()
    assert data["outcome"] == "win" and data["exact"] is True and data["to_move"] == "1"
    assert data["score"] == 1  # BaseGame's conventional score
    nim, position = api.load("nim", "3,4,5")
    best = KIT.move_from_json(nim, data["best_move"])
    assert nim_sum(nim.play(position, best).heaps) == 0  # Bouton's winning move
    json.dumps(data)


def test_the_contract_keys_are_those_of_the_built_in_games() -> None:
    assert builtin_result_keys() == set(solved("1,2"))


def test_a_zero_nim_sum_is_lost_and_a_finished_game_too() -> None:
    assert solved("1,2,3")["outcome"] == "loss"
    finished = solved("0,0")
    assert finished["outcome"] == "loss" and finished["plies"] == 0
    assert finished["best_move"] is None and finished["score"] == -1


def test_the_exact_solver_agrees_with_boutons_theorem() -> None:
    for heaps in itertools.product(range(4), repeat=3):
        if any(heaps):
            outcome = solved(",".join(map(str, heaps)))["outcome"]
            assert outcome == ("win" if nim_sum(heaps) else "loss"), heaps


def test_analyze_wins_exactly_with_the_moves_leaving_nim_sum_0() -> None:
    nim, position = api.load("nim", "3,4,5")
    values = api.analyze(nim, position)
    assert [v.move for v in values] == list(nim.legal_moves(position))
    for entry in values:
        leaves_zero = nim_sum(nim.play(position, entry.move).heaps) == 0
        assert entry.score.outcome == ("win" if leaves_zero else "loss"), entry.move
    moves = contract.analysis_json(nim, position, values)["moves"]
    assert isinstance(moves, list) and len(moves) == len(values)


def test_the_tree_of_1_2_through_the_api() -> None:
    nim, position = api.load("nim", "1,2")
    tree = api.tree(nim, position)
    assert tree.node_count() == 12
    assert [child.move for child in tree.root.children] == list(nim.legal_moves(position))
    data = contract.tree_json(tree, nim)
    assert data["principal"] == [
        {"heap": 2, "take": 1},
        {"heap": 1, "take": 1},
        {"heap": 2, "take": 1},
    ]
    root = data["root"]
    assert isinstance(root, dict) and root["cells"] is None  # no board view
    assert "<svg" in api.to_svg(tree)


# -- the command line (game-generic once the new CLI lands) ------------------------------------
def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``perfectplay ARGV`` in-process: the exit status, stdout and stderr."""
    from perfectplay.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_nim_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "solve", "nim", "3,4,5", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == builtin_result_keys()
    assert data["outcome"] == "win" and data["to_move"] == "1"


def test_cli_tree_nim_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "tree.svg"
    code, _, err = run_cli(capsys, "tree", "nim", "1,2", "--svg", str(svg))
    assert code == 0, err
    assert "<svg" in svg.read_text()
