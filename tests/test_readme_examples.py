"""The README's examples are true to what the commands print (issue 25, item 6).

Every ``$ perfectplay ...`` line of the README's ``text`` and ``bash`` blocks is run, unless
:data:`NOT_RUN` says why not, and checked against what the README shows:

- the lines printed under a command (up to the next ``$`` line) must be its output (standard
  output, or standard error for an error), whitespace-insensitive within a line's words; a line
  that is exactly ``...`` stands for any number of lines;
- ``--json`` commands whose comment shows ``"key": value`` pairs must print those pairs
  (anywhere in the JSON);
- every command must exit 0, or 2 where the README says ``exit 2``.

The ``python`` blocks are run in order, statement by statement: a statement whose comment is
``# -> VALUE`` must evaluate to a value whose ``repr`` (``str`` for a string) is ``VALUE``
(``...`` inside it matches anything), and ``# prints:`` comment lines must appear in what the
block printed.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
NOT_RUN = {
    "perfectplay play": "interactive: a game against the engine",
    "perfectplay serve": "a server (CI's smoke test starts it)",
    "perfectplay gomocup": "a protocol session on stdin",
    "perfectplay batch": "needs Pons' test set file (tests/test_batch.py runs batch)",
    "perfectplay book": "minutes of work (tests/test_books.py builds small books)",
    "perfectplay arena": "a 40-game match (tests/test_arena.py plays short ones)",
    "perfectplay solve connect4 - <": "reads positions.txt, a file of the reader's",
    "echo | perfectplay solve connect4 - --no-book": "the empty board without a book: 45 s",
    "perfectplay best tictactoe '' --size 15x15": "a timed move: its output varies",
    "perfectplay best gomoku BOARD": "BOARD stands for the reader's board",
    "perfectplay solve connect4 '' --size 8x7 --book": "needs the 8x7 book built above",
}
"""Command prefixes not run here, and why."""
BLOCK = re.compile(r"```(text|bash|python)\n(.*?)```", re.DOTALL)
COMMENT = re.compile(r"\s{2,}#(?!\S*')")
PAIR = re.compile(r'"(\w+)": ("[^"]*"|-?\d+(?:\.\d+)?|true|false|null|\{[^{}]*\})')


@dataclass
class Example:
    """One ``$`` command of the README, what it shows below it and its comment."""

    command: str
    shown: list[str] = field(default_factory=list)
    comment: str = ""

    @property
    def expects_error(self) -> bool:
        return "exit 2" in self.comment


def examples() -> list[Example]:
    """Every ``$`` command of the README's text and bash blocks."""
    found: list[Example] = []
    for kind, body in BLOCK.findall(README.read_text()):
        if kind == "python":
            continue
        current: Example | None = None
        for line in body.splitlines():
            if line.startswith("$ "):
                parts = COMMENT.split(line[2:], maxsplit=1)
                command, comment = parts[0], (parts[1] if len(parts) > 1 else "")
                current = Example(command.strip(), comment=comment.strip())
                found.append(current)
            elif current is not None and line.strip().startswith("#"):
                current.comment += " " + line.strip().lstrip("#").strip()
            elif current is not None and line.strip():
                current.shown.append(line.rstrip())
    return found


def skip_reason(command: str) -> str | None:
    """Why ``command`` is not run, or ``None``."""
    for prefix, reason in NOT_RUN.items():
        if command.startswith(prefix):
            return reason
    if not command.startswith(("perfectplay ", "echo | perfectplay")):
        return "not a perfectplay command"
    return None


def runnable() -> list[Example]:
    return [example for example in examples() if skip_reason(example.command) is None]


def run(example: Example, folder: Path) -> subprocess.CompletedProcess[str]:
    """The command, run by this interpreter's perfectplay in ``folder``."""
    command = example.command.replace(
        "perfectplay ", f"{shlex.quote(sys.executable)} -m perfectplay.cli ", 1
    )
    return subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "COLUMNS": "100", "TERM": "dumb"},
    )


def words(line: str) -> str:
    return " ".join(line.split())


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown``, word by word (the README may wrap an error message
    over several lines), where ``...`` stands for anything: any lines when it is a line of
    its own, any text within a line."""
    if not any("..." in line for line in shown):
        return words(" ".join(shown)) == words(" ".join(printed))
    pattern = r"\s*".join(
        ".*?".join(re.escape(part).replace(r"\ ", r"\s+") for part in words(line).split("..."))
        for line in shown
    )
    return re.fullmatch(pattern, words(" ".join(printed)), re.DOTALL) is not None


def json_pairs(value: Any) -> list[tuple[str, Any]]:
    """Every (key, value) pair at any depth of a JSON value."""
    if isinstance(value, dict):
        return [pair for key, item in value.items() for pair in [(key, item), *json_pairs(item)]]
    if isinstance(value, list):
        return [pair for item in value for pair in json_pairs(item)]
    return []


def shown_pairs(comment: str) -> list[tuple[str, Any]]:
    """The ``"key": value`` pairs a comment shows (those that parse as JSON)."""
    pairs = []
    for key, text in PAIR.findall(comment):
        with contextlib.suppress(json.JSONDecodeError):
            pairs.append((key, json.loads(text)))
    return pairs


def test_the_readme_has_examples_to_run() -> None:
    assert len(runnable()) >= 15
    assert any(example.shown for example in runnable())


@pytest.mark.parametrize("example", runnable(), ids=lambda example: example.command[:70])
def test_a_readme_command_prints_what_the_readme_shows(example: Example, tmp_path: Path) -> None:
    done = run(example, tmp_path)
    assert done.returncode == (2 if example.expects_error else 0), done.stderr
    printed = (done.stderr if example.expects_error else done.stdout).splitlines()
    if example.shown:
        assert matches(example.shown, printed), "\n".join(printed)
    if "--json" in example.command:
        answer = json_pairs(json.loads(done.stdout))
        for pair in shown_pairs(example.comment):
            assert pair in answer, f"{pair} not in {done.stdout[:500]}"


# -- the python blocks -------------------------------------------------------------------
def python_blocks() -> list[str]:
    return [body for kind, body in BLOCK.findall(README.read_text()) if kind == "python"]


def expected_value(source: str, statement: ast.stmt) -> str | None:
    """The ``# -> VALUE`` of a statement's last line, if it has one."""
    last = source.splitlines()[(statement.end_lineno or statement.lineno) - 1]
    found = re.search(r"#\s*->\s*(.*)$", last)
    return found.group(1).strip() if found else None


def printed_lines(source: str) -> list[str]:
    """The lines a block's ``# prints:`` comments show."""
    lines, inside = [], False
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("# prints:"):
            inside = True
            lines.append(text.removeprefix("# prints:").strip())
        elif inside and text.startswith("#"):
            lines.append(text.lstrip("#").strip())
        else:
            inside = False
    return lines


def like(value: Any, shown: str) -> bool:
    """Whether ``repr(value)`` (``str`` for a string) is ``shown``, ``...`` matching anything."""
    text = value if isinstance(value, str) else repr(value)
    pattern = ".*?".join(re.escape(part) for part in shown.split("..."))
    return re.fullmatch(pattern, text, re.DOTALL) is not None


def test_the_readme_python_blocks_give_what_their_comments_say() -> None:
    """The blocks run in order in one namespace, as a reader would run them in one session."""
    namespace: dict[str, Any] = {}
    for source in python_blocks():
        if "bot.find(state" in source:
            continue  # needs the course's game state (tests/adapters run the bot)
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            for statement in ast.parse(source).body:
                expected = expected_value(source, statement)
                if expected is not None and isinstance(statement, ast.Expr):
                    code = compile(ast.Expression(statement.value), "README", "eval")
                    value = eval(code, namespace)
                    assert like(value, expected), f"{ast.unparse(statement)} -> {value!r}"
                else:
                    exec(compile(ast.Module([statement], []), "README", "exec"), namespace)
        printed = output.getvalue().splitlines()
        for line in printed_lines(source):
            assert line in printed, f"{line!r} not printed; printed: {printed}"
