"""The plain example games of ``examples/simple`` for the tests: registered in this process
(:func:`register_examples`) when they are not installed, and declared as installed for a
process of its own (:func:`site_with`: an entry-point declaration on its ``PYTHONPATH``)."""

from __future__ import annotations

import importlib.util
import os
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

import perfectplay
from perfectplay.games import registry
from perfectplay.games.registry import game_names

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "simple"
"""The folder of the plain example games (the package ``simple_games`` once installed)."""
GAMES = {
    "simplenim": ("nim", "Nim"),
    "simpletictactoe": ("tictactoe", "TicTacToe"),
    "dropthree": ("drop", "DropThree"),
}
"""The example games by registered name: their module in ``examples/simple`` and class."""


def example_module(module: str) -> ModuleType:
    """The example module ``module`` of ``examples/simple``, imported from its file (under
    a name of its own: ``nim`` alone could be another package's)."""
    spec = importlib.util.spec_from_file_location(
        f"simple_example_{module}", EXAMPLES / f"{module}.py"
    )
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def register_examples() -> None:
    """Registers the example games in this process, unless they are installed."""
    for name, (module, cls) in GAMES.items():
        if name not in game_names():
            perfectplay.register(getattr(example_module(module), cls), name=name)


@contextmanager
def examples_registered() -> Iterator[None]:
    """The example games registered (unless installed) in a registry of in-process games of
    their own, which is dropped afterwards: games a test registers do not outlive it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "REGISTERED", registry.Registrations())
        register_examples()
        yield


def site_with(folder: Path, entry_points: str, modules: dict[str, Path]) -> dict[str, str]:
    """An environment whose Python sees ``entry_points`` (the text of an
    ``entry_points.txt``) as an installed package's, and the ``modules`` (name to folder or
    file) as importable: a ``.dist-info`` folder and links in ``folder``."""
    declared = folder / "perfectplay_plain_test-0.1.dist-info"
    declared.mkdir(parents=True)
    (declared / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: perfectplay-plain-test\nVersion: 0.1\n"
    )
    (declared / "entry_points.txt").write_text(entry_points)
    for name, target in modules.items():
        (folder / name).symlink_to(target)
    paths = [str(folder), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}


def example_site(folder: Path) -> dict[str, str]:
    """An environment in which the example package is installed as ``pip install
    ./examples/simple`` installs it (its entry points read from its ``pyproject.toml``)."""
    project = tomllib.loads((EXAMPLES / "pyproject.toml").read_text())
    declared = project["project"]["entry-points"]["perfectplay.games"]
    lines = "".join(f"{name} = {value}\n" for name, value in declared.items())
    return site_with(folder, f"[perfectplay.games]\n{lines}", {"simple_games": EXAMPLES})
