"""The README's two set-up commands (issue 15, item 9): they must run as written on a fresh
machine, and CI (``.ci/run``) installs the same way.

pip 23 resolves every requirement of one ``install`` command against the index before it
installs any of them, so ``pip install -e . ./examples/nim`` looks for the example's
dependency ``perfectplay`` on PyPI and fails on a fresh machine. The example goes in with a
second pip command, once the editable package is installed.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_commands() -> list[str]:
    """The README's first code block: one command per line, comments dropped."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.DOTALL)
    assert block is not None, "the README starts with a bash block of its set-up commands"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line]


def pip_installs(command: str) -> list[list[str]]:
    """The arguments of every ``python3 -m pip install`` in a shell line of ``&&`` steps."""
    found = []
    for step in command.split("&&"):
        if "pip install" not in step or step.lstrip().startswith("#"):
            continue
        words = shlex.split(step)
        if words[:4] == ["python3", "-m", "pip", "install"]:
            found.append([word for word in words[4:] if not word.startswith("--quiet")])
    return found


def test_the_readme_has_two_commands_serve_then_test() -> None:
    serve, test = setup_commands()
    assert serve.endswith("&& perfectplay serve")
    assert pip_installs(serve) == [["-e", "."]]
    assert test.startswith("apt-get update && apt-get install -y graphviz chromium && ")
    assert test.endswith("&& python3 -m pytest")


def test_the_example_is_installed_after_the_package_not_with_it() -> None:
    """One pip command for the editable package, then one for the example."""
    _, test = setup_commands()
    assert pip_installs(test) == [["-e", ".[test]"], ["./examples/nim"]]


def test_ci_installs_as_the_readme_says() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    installs = [found for line in script.splitlines() for found in pip_installs(line)]
    assert installs == [["-e", ".[test]"], ["./examples/nim"]]
    assert "python3 -m pytest\n" in script
