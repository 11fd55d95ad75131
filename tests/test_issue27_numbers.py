"""Issue 27, item 8: numbers in options take ASCII digits only, as the notation does
(Python's int() and float() also take other scripts' digits and underscores)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest
from cli_support import run

from perfectplay.cli.gomocup import whole as protocol_whole
from perfectplay.cli.main import build_parser
from perfectplay.errors import NotationError

NOT_ASCII = ["٤", "1_0", "٤.5", "\uff11", "1e٣", " 4 "]


def numeric_options() -> Iterator[tuple[str, str, argparse.Action]]:
    """Every option of every verb whose type makes a number of '4'."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for verb, sub in commands.choices.items():
        for action in sub._actions:
            if action.type is None or not action.option_strings:
                continue
            try:
                value = action.type("4")
            except (ValueError, TypeError, argparse.ArgumentTypeError):
                continue
            if isinstance(value, int | float) and not isinstance(value, bool):
                yield verb, action.option_strings[0], action


OPTIONS = list(numeric_options())


def test_every_verb_has_its_numeric_options_found() -> None:
    found = {(verb, option) for verb, option, _ in OPTIONS}
    expected = {
        ("best", "--depth"),
        ("best", "--time"),
        ("best", "--k"),
        ("perft", "--depth"),
        ("serve", "--port"),
        ("serve", "--workers"),
        ("serve", "--cap"),
        ("serve", "--read-timeout"),
        ("tournament", "--rounds"),
        ("batch", "--workers"),
        ("tree", "--depth"),
    }
    assert expected <= found, expected - found


def option_id(value: object) -> str:
    """A test id from the verb and the option, not the action, whose text holds memory
    addresses that differ between processes (pytest-xdist needs the same ids in each)."""
    return value if isinstance(value, str) else "action"


@pytest.mark.parametrize("text", NOT_ASCII)
@pytest.mark.parametrize(("verb", "option", "action"), OPTIONS, ids=option_id)
def test_numeric_option_refuses_other_digits(
    verb: str, option: str, action: argparse.Action, text: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="digits 0-9"):
        action.type(text)  # type: ignore[misc,operator]


@pytest.mark.parametrize(("verb", "option", "action"), OPTIONS, ids=option_id)
def test_numeric_option_takes_ascii_digits(verb: str, option: str, action: argparse.Action) -> None:
    assert action.type("12") == 12  # type: ignore[misc,operator]


@pytest.mark.parametrize(
    "argv",
    [
        ["best", "tictactoe", "", "--k", "٤"],
        ["best", "tictactoe", "", "--depth", "٤"],
        ["best", "tictactoe", "", "--time", "٤"],
        ["best", "tictactoe", "", "--time", "1_0"],
        ["perft", "tictactoe", "--depth", "1_0"],
    ],
)
def test_command_line_refuses_other_digits(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert f"{argv[-2]}: {argv[-1]!r}: expected" in err and "digits 0-9" in err


def test_command_line_refuses_a_number_too_long(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "perft", "tictactoe", "--depth", "9" * 4301)
    assert code == 2 and "too long" in err and len(err) < 300


@pytest.mark.parametrize("text", ["٤", "1_0"])
def test_gomocup_protocol_numbers_are_ascii(text: str) -> None:
    with pytest.raises(NotationError, match="expected a whole number"):
        protocol_whole(text, "timeout_turn")
