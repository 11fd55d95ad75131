"""Strength levels a person can beat (issue 15, item 12): a shallow search and now and then a
worse move, repeatable with a seed, weaker at the low end, named in the CLI."""

from __future__ import annotations

import pytest
from cli_support import with_stdin

from perfectplay import api
from perfectplay.errors import ParameterError

WIN_NOW = "xx_/oo_/___"  # x to move: c1 wins at once, anything else lets o win
SEEDS = range(200)


def test_levels_are_named_weakest_first_and_unknown_names_are_refused() -> None:
    assert [level.name for level in api.LEVELS] == ["beginner", "casual", "club", "strong"]
    depths = [level.depth for level in api.LEVELS]
    slips = [level.slip_rate for level in api.LEVELS]
    assert depths == sorted(depths) and slips == sorted(slips, reverse=True)
    game, position = api.load("tictactoe", WIN_NOW)
    with pytest.raises(ParameterError, match=r"^level 'perfect': expected one of beginner, "):
        api.level_move(game, position, "perfect")


def test_a_seed_repeats_the_choice() -> None:
    game, position = api.load("connect4", "4453")
    first = [api.level_move(game, position, "casual", seed=seed).move for seed in range(20)]
    again = [api.level_move(game, position, "casual", seed=seed).move for seed in range(20)]
    assert first == again and len(set(first)) > 1  # and the seeds do not all agree


@pytest.mark.parametrize(
    ("level", "low", "high"), [("beginner", 0.25, 0.45), ("strong", 0.0, 0.06)]
)
def test_a_level_slips_at_its_rate_and_only_to_the_better_half(
    level: str, low: float, high: float
) -> None:
    game, position = api.load("tictactoe", WIN_NOW)
    chosen = [api.level_move(game, position, level, seed=seed) for seed in SEEDS]
    winning = (0, 2)
    slips = [c for c in chosen if c.slipped]
    assert all((c.move == winning) != c.slipped for c in chosen)  # the best is the win
    assert low <= len(slips) / len(chosen) <= high
    ranked = sorted(chosen[0].values, key=lambda v: -v.score.value)
    worse = ranked[1:]
    allowed = {v.move for v in worse[: (len(worse) + 1) // 2]}
    assert {c.move for c in slips} <= allowed  # never a move from the worse half


def test_play_at_a_level_in_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("play", "connect4", "--level", "casual", "--seed", "4")
    code, out, _ = with_stdin(capsys, monkeypatch, "4\n4\nquit\n", *argv)
    assert code == 0 and "the engine is player 2 (o) (level casual)" in out
    assert out.count("engine plays ") == 2 and "(casual)" in out
    again = with_stdin(capsys, monkeypatch, "4\n4\nquit\n", *argv)[1]
    assert again == out  # the seed repeats the game


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--level", "grandmaster"], "perfectplay: error: level 'grandmaster': expected one of"),
        (["--level", "club", "--time", "2"], "argument --time: not allowed with argument --level"),
    ],
)
def test_a_bad_level_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    message: str,
) -> None:
    code, _, err = with_stdin(capsys, monkeypatch, "", "play", "connect4", *extra)
    assert code == 2 and message in err
