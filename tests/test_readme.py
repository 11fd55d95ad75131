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
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ["-c", "requirements.lock"]
"""Every pip install of the README and CI goes through the lock (issue 25, item 4)."""


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
    assert pip_installs(serve) == [[*LOCK, "-e", "."]]
    assert test.startswith("apt-get update && apt-get install -y chromium && ")
    assert test.endswith("&& python3 -m pytest")


def test_the_example_is_installed_after_the_package_not_with_it() -> None:
    """One pip command for the editable package, then one for the examples."""
    _, test = setup_commands()
    assert pip_installs(test) == [[*LOCK, "-e", ".[test]"], [*LOCK, "./examples/nim", "./examples/simple"]]


def test_ci_installs_as_the_readme_says() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    installs = [found for line in script.splitlines() for found in pip_installs(line)]
    assert installs == [[*LOCK, "-e", ".[test]"], [*LOCK, "./examples/nim", "./examples/simple"]]
    assert re.search(r"^(PYTEST_ADDOPTS=\S+ )?python3 -m pytest$", script, re.MULTILINE)
    assert "python3 .ci/smoke.py" in script  # the README's commands in a fresh virtualenv


def locked() -> dict[str, str]:
    """The lock's pins: normalised package name -> version."""
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonical(name)] = version.strip()
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_lock_pins_every_dependency_exactly() -> None:
    """Every runtime and test dependency of pyproject.toml is pinned, each to one version."""
    pins = locked()
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*declared["dependencies"], *declared["optional-dependencies"]["test"]]
    for requirement in wanted:
        name = canonical(re.split(r"[<>=!~ \[]", requirement, maxsplit=1)[0])
        assert name in pins, f"{name} is not in requirements.lock"
    assert all(re.fullmatch(r"[\w.+!]+", version) for version in pins.values())


def test_what_is_installed_is_what_the_lock_says() -> None:
    """The environment running the tests got the lock's versions (a machine that kept older
    packages, or pip resolving differently, fails here rather than passing by luck)."""
    wrong = {}
    for name, version in locked().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong[name] = "missing"
            continue
        if installed != version:
            wrong[name] = f"{installed} installed, {version} locked"
    assert not wrong, wrong
