"""Issue 26's tactics set: 24 positions of 15x15 Gomoku (freestyle) from random games, each
with a forced win by continuous fours that the brute-force VCF of
:mod:`reference.vcf_reference` found (no engine code), from 5 to 13 plies
(``tests/reference/vcf_positions.py`` made the set). The engine, given 1 s a move as the
Gomocup brain gives it, proves each win (the answer is asserted, not the time taken)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from reference.vcf_reference import Board

from perfectplay import api
from perfectplay.games.mnk.notation import parse_mnk_move
from perfectplay.games.mnk.rules import game

SET = json.loads((Path(__file__).parent / "data" / "gomoku_vcf_set.json").read_text())


def loaded(entry: dict[str, Any]) -> tuple[Any, Any, frozenset[Any], frozenset[Any]]:
    """The entry's game and position, and the stones of the side to move and of the other."""
    g = game(15, 15, 5)
    xs = frozenset(tuple(parse_mnk_move(g, c)) for c in entry["x"])
    os_ = frozenset(tuple(parse_mnk_move(g, c)) for c in entry["o"])
    rows = [
        "".join("x" if (r, c) in xs else "o" if (r, c) in os_ else "_" for c in range(15))
        for r in range(15)
    ]
    loaded_game, position = api.load("tictactoe", "/".join(rows), k=5)
    mover = (xs, os_) if len(xs) == len(os_) else (os_, xs)
    return loaded_game, position, *mover


def test_the_set_is_large_and_varied() -> None:
    assert len(SET) >= 20
    assert {entry["vcf_plies"] for entry in SET} >= {5, 7, 9, 11, 13}


@pytest.mark.parametrize("entry", SET, ids=[entry["name"] for entry in SET])
def test_the_oracle_finds_the_win_and_the_engine_proves_it(entry: dict[str, Any]) -> None:
    g, position, mine, theirs = loaded(entry)
    board = Board(15, 15, 5)
    plies = entry["vcf_plies"]
    assert not board.win_cells(mine, theirs) and not board.win_cells(theirs, mine)
    assert board.shortest_vcf(mine, theirs, (plies - 1) // 2) == plies  # the data is right
    result = api.best(g, position, api.limit(time=1.0))
    assert result.best_move in g.legal_moves(position)
    assert result.score.outcome == "win", (entry["name"], str(result.score))
