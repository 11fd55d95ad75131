"""Issue 29: standings and Elo against a hand-computed example; bad specs exit 2."""

from __future__ import annotations

from typing import Any

import pytest
from tournament_support import bot

from perfectplay import api
from perfectplay.analysis.rating import elo
from perfectplay.analysis.tournament import Entrant, crosstable, standings
from perfectplay.cli.tournament import main


def record(
    game: int, first: str, second: str, result: str, forfeit: str | None = None
) -> dict[str, Any]:
    loser = {"1-0": second, "0-1": first}.get(result)
    return {
        "game": game,
        "first": first,
        "second": second,
        "result": result,
        "winner": {"1-0": first, "0-1": second}.get(result),
        "forfeit": None if forfeit is None else {"player": loser, "reason": forfeit},
        "move_ms": {first: [10.0, 30.0], second: [20.0]},
    }


RECORDS = [
    record(0, "A", "B", "1-0"),
    record(1, "B", "A", "1/2-1/2"),
    record(2, "A", "C", "0-1", forfeit="time"),
    record(3, "C", "A", "0-1"),
    record(4, "B", "C", "1-0"),
    record(5, "C", "B", "1/2-1/2"),
]


def players() -> list[Entrant]:
    settings = api.tournament_settings("simplexity")
    return api.tournament_players(settings, ["engine@A", "random@B", "level:casual@C"])


def test_standings_by_hand() -> None:
    table = {s.name: s for s in standings(players(), RECORDS)}
    assert [s.name for s in standings(players(), RECORDS)] == ["A", "B", "C"]
    a, b, c = table["A"], table["B"], table["C"]
    assert (a.points, b.points, c.points) == (2.5, 2.0, 1.5)
    assert (a.total.wins, a.total.draws, a.total.losses) == (2, 1, 1)
    assert (a.first.wins, a.first.draws, a.first.losses) == (1, 0, 1)
    assert (a.second.wins, a.second.draws, a.second.losses) == (1, 1, 0)
    assert (b.first.wins, b.first.draws, b.first.losses) == (1, 1, 0)
    assert (b.second.wins, b.second.draws, b.second.losses) == (0, 1, 1)
    assert a.forfeits["time"] == 1 and sum(b.forfeits.values()) == 0
    data = a.as_dict()
    assert (data["moves"], data["mean_move_ms"], data["max_move_ms"]) == (6, 20.0, 30.0)
    # A: 2.5 of 4 = 0.625; Elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.74; the
    # per-game variance (2 * 0.375^2 + 0.125^2 + 0.625^2) / 4 = 0.171875, se = 0.2073,
    # p + 1.96 se = 1.03 > 1: no finite error bar
    assert a.rating.value == pytest.approx(88.74, abs=0.01)
    assert a.rating.error is None
    cross = crosstable(players(), RECORDS)
    assert cross["A"]["B"] == [1.5, 2] and cross["C"]["A"] == [1.0, 2]


def test_elo_by_hand() -> None:
    # 6 wins, 2 draws, 2 losses: p = 0.7, Elo = -400 log10(3/7) = 147.19; variance
    # (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10 = 0.16, se = 0.4 / sqrt(10) = 0.12649;
    # p -+ 1.96 se = 0.45208, 0.94792 -> -33.40 and 504.02 Elo: +-268.7
    rating = elo(6, 2, 2)
    assert rating.value == pytest.approx(147.19, abs=0.01)
    assert rating.error == pytest.approx(268.71, abs=0.05)
    assert str(rating) == "+147 ± 269"
    assert elo(3, 0, 0).bound == "+inf" and elo(0, 0, 2).bound == "-inf"
    assert elo(5, 10, 5).value == 0


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simplexity", "engine", "nobody:1"], "unknown kind 'nobody'"),
        (["simplexity", "engine", "course:/no/such/bot.py"], "is no Python file"),
        (["simplexity", "engine", "engine"], "given twice"),
        (["simplexity", "engine"], "at least two"),
        (["connect4", "engine", f"course:{bot('random_bot.py')}"], "plays simplexity"),
        (["simplexity", "engine", f"gomocup:{bot('gomocup_engine.py')}"], "plays tictactoe"),
        (["simplexity", "engine", "random", "--rounds", "0"], "--rounds 0"),
        (["simplexity", "engine", "random", "--openings", "/no/such/file"], "cannot be read"),
        (["simplexity", "engine", "random", "--resume"], "--resume needs --out"),
        (["simplexity", "engine", "level:grandmaster"], "level 'grandmaster' is unknown"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err
