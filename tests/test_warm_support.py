"""The suite's warm-up before its test processes start (tests/warm_support.py): the engines
numba's cache lacks are dealt to one process a core, the longest compile first, and every
process's end, good or bad, is said."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from warm_support import shares, warm_engines

from perfectplay import api


def test_the_longest_compile_gets_a_process_of_its_own() -> None:
    assert shares([20, 140, 15, 15], 2) == [[1], [0, 2, 3]]


def test_one_process_takes_everything_and_no_process_is_idle() -> None:
    assert shares([20, 140, 15], 1) == [[1, 0, 2]]
    assert shares([20, 140], 8) == [[1], [0]]
    assert shares([], 2) == []


def test_the_shares_balance_the_expected_seconds() -> None:
    dealt = shares([50, 40, 30, 30, 20, 10], 2)
    loads = sorted(sum([50, 40, 30, 30, 20, 10][i] for i in share) for share in dealt)
    assert loads == [90, 90]


@dataclass(frozen=True)
class FakeEngine:
    label: str
    compile_seconds: int


@dataclass(frozen=True)
class FakeStep:
    engine: FakeEngine
    compiling: bool


def test_a_failing_warm_process_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    # Positions past the real plan's end: each warming process fails at once (no compile).
    fake = [FakeStep(FakeEngine(f"engine {i}", 10), compiling=i >= 90) for i in range(92)]
    monkeypatch.setattr(api, "warm_plan", lambda: fake)
    said: list[str] = []
    warm_engines(said.append)
    assert said[0].startswith("compiling 2 engine(s) once before the tests, in ")
    failures = [line for line in said[1:] if " failed after " in line]
    assert failures == said[1:]  # each process's end, and nothing still running meanwhile
    assert all("IndexError" in line for line in failures)
    named = " ".join(failures)
    assert "engine 90" in named and "engine 91" in named


def test_nothing_is_said_when_the_cache_holds_every_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = [FakeStep(FakeEngine("engine", 10), compiling=False)]
    monkeypatch.setattr(api, "warm_plan", lambda: fake)
    said: list[str] = []
    warm_engines(said.append)
    assert said == []
