"""The arena library: player specs through the checked boundary, limits, and matches."""

from __future__ import annotations

from typing import Any

import pytest

from perfectplay.analysis.arena import (
    DEFAULT_TIME,
    PlayerSpec,
    engine_limit,
    parse_player,
    random_opening,
    run_arena,
)
from perfectplay.errors import ParameterError
from perfectplay.games.simplexity.board import EVALUATIONS
from perfectplay.games.simplexity.kit import KIT
from perfectplay.games.simplexity.rules import game
from perfectplay.search.limits import Limit


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("engine", PlayerSpec("engine")),
        ("engine:eval=neighbors,depth=3", PlayerSpec("engine", "neighbors", 3)),
        ("engine:time=0.5", PlayerSpec("engine", time=0.5)),
        ("random", PlayerSpec("random")),
        ("random:seed=3", PlayerSpec("random", seed=3)),
        (" Engine : EVAL=Windows , time=2 ", PlayerSpec("engine", "windows", time=2.0)),
        ("engine:depth=4,time=1,eval=neighbors", PlayerSpec("engine", "neighbors", 4, 1.0)),
        ("random:seed=-7", PlayerSpec("random", seed=-7)),
    ],
)
def test_parse_player(text: str, spec: PlayerSpec) -> None:
    assert parse_player(text, EVALUATIONS) == spec
    assert parse_player(str(spec), EVALUATIONS) == spec  # the label parses back


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bot", "player 'bot': unknown kind 'bot'; known are engine, random"),
        ("", "unknown kind ''"),
        ("engine:", "setting '' is not name=value"),
        ("engine:depth", "setting 'depth' is not name=value"),
        ("engine:=3", "setting '=3' is not name=value"),
        ("engine:depth=", "setting 'depth=' is not name=value"),
        ("engine:foo=1", "engine takes no setting 'foo'; it takes eval, depth, time"),
        ("random:depth=3", "random takes no setting 'depth'; it takes seed"),
        ("engine:depth=2,depth=3", "setting 'depth' is given twice"),
        ("engine:depth=0", "depth '0' must be a whole number 1-10000"),
        ("engine:depth=10001", "depth '10001' must be a whole number 1-10000"),
        ("engine:depth=2.5", "depth '2.5' must be a whole number"),
        ("engine:eval=smart", "eval 'smart' is unknown; known are windows, neighbors"),
        ("engine:time=0", "time '0' must be a number of seconds above 0"),
        ("engine:time=inf", "time 'inf' must be"),
        ("engine:time=x", "time 'x' must be"),
        ("random:seed=1.5", "seed '1.5' must be a whole number"),
    ],
)
def test_parse_player_rejects(text: str, message: str) -> None:
    with pytest.raises(ParameterError) as info:
        parse_player(text, EVALUATIONS)
    assert message in str(info.value), str(info.value)
    assert str(info.value).startswith(f"player {text!r}: ")


def test_parse_player_rejects_non_text() -> None:
    with pytest.raises(ParameterError, match="expected text"):
        parse_player(3, EVALUATIONS)  # type: ignore[arg-type]


def test_engine_limits() -> None:
    assert engine_limit(PlayerSpec("engine"), None) == Limit(time=DEFAULT_TIME)
    assert engine_limit(PlayerSpec("engine"), 1.5) == Limit(time=1.5)
    assert engine_limit(PlayerSpec("engine", time=0.5), 2.0) == Limit(time=0.5)
    assert engine_limit(PlayerSpec("engine", time=2.0), 0.5) == Limit(time=0.5)
    assert engine_limit(PlayerSpec("engine", depth=3), None) == Limit(depth=3)
    assert engine_limit(PlayerSpec("engine", depth=3), 3.0) == Limit(depth=3, time=3.0)


def test_matches_alternate_sides_and_count_results() -> None:
    g = game(4, 4)
    seen: list[int] = []
    result = run_arena(
        g,
        parse_player("engine:depth=2", EVALUATIONS),
        parse_player("random", EVALUATIONS),
        5,
        seed=7,
        progress=lambda done, total, record: seen.append(done),
    )
    assert seen == [1, 2, 3, 4, 5] and len(result.games) == 5
    assert [r.first for r in result.games] == ["p1", "p2", "p1", "p2", "p1"]
    p1, p2 = result.players
    assert (p1.first.games, p1.second.games, p2.first.games) == (3, 2, 2)
    assert p1.total.wins == p2.total.losses and p1.total.draws == p2.total.draws == result.draws
    assert p1.total.games == 5 == p1.total.wins + p1.total.losses + p1.total.draws
    for record in result.games:  # every recorded game replays legally to its end
        position = g.initial()
        for text in record.moves:
            position = g.play(position, (int(text[:-1]) - 1, text[-1]))
        outcome = g.outcome(position)
        assert outcome is not None and outcome.reason == record.reason
    assert p1.mean_depth == 2.0 and p2.mean_depth is None
    # Random players are reproducible from the match seed. (Engines need not be: the kernel
    # keeps its move-ordering history between searches, and ties may then break otherwise.)
    pair = parse_player("random", EVALUATIONS), parse_player("random", EVALUATIONS)
    once, twice = (run_arena(g, *pair, 3, seed=7) for _ in range(2))
    assert [r.moves for r in once.games] == [r.moves for r in twice.games]


def test_random_openings_are_shared_by_pairs_and_do_not_end_games() -> None:
    g = game(4, 4)
    import random

    def natural(position: Any, move: Any) -> bool:
        return KIT.natural_move(g, position, move)

    for seed in range(20):
        opening = random_opening(g, 6, random.Random(seed), natural)
        assert len(opening) == 6
        position = g.initial()
        for move in opening:
            assert move.shape == "OX"[g.to_move(position) - 1]  # the mover's own shape
            position = g.play(position, move)
            assert g.outcome(position) is None
            for reply in g.legal_moves(position):  # and no reply wins at once
                assert g.outcome(g.play(position, reply)) is None
    result = run_arena(
        g,
        parse_player("random:seed=1", EVALUATIONS),
        parse_player("random:seed=2", EVALUATIONS),
        4,
        opening_plies=3,
    )
    pairs = [r.moves[:3] for r in result.games]
    assert pairs[0] == pairs[1] and pairs[2] == pairs[3]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games=0"),
        ({"games": True}, "games=True"),
        ({"games": 2, "time_limit": 0.0}, "time=0.0"),
        ({"games": 2, "opening_plies": 16}, "opening plies 16: must be from 0 to 15"),
        ({"games": 2, "opening_plies": -1}, "opening plies -1"),
    ],
)
def test_match_parameters_are_checked(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        run_arena(
            game(4, 4),
            parse_player("random", EVALUATIONS),
            parse_player("random", EVALUATIONS),
            **kwargs,  # type: ignore[arg-type]  # bad values on purpose
        )
