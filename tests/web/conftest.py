"""Fixtures of the web tests: real servers in a subprocess, for the browser tests, and a
plug-in game the web app has never heard of.

``live_server`` runs ``perfectplay serve`` on a free port with a fresh database, waits for
``/api/health`` (the engine workers load their compiled kernels first, which takes a while
on a cold cache; see ``live.py``) and stops the server when the session ends.
``plugin_server`` does the same with the test games of ``plugin/pairs_game.py`` installed as
plug-ins: an entry-point declaration (a ``.dist-info`` folder) on the ``PYTHONPATH`` of the
server and of its engine workers, which find them through the registry as they would an
installed package.
``plugin_games`` registers the same games in this process only, for the length of a test.
``simple_server`` serves the plain games of ``examples/simple`` as installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from simple_support import example_site

from perfectplay.games import registry
from web import live

PLUGIN = Path(__file__).parent / "plugin"
"""The folder of the plug-in test games (module ``pairs_game``)."""
PATIENT_CAP = 60
"""Seconds of engine work per request on ``patient_server``."""
ENTRY_POINTS = """[perfectplay.games]
pairs = pairs_game:PAIRS
blindpairs = pairs_game:BLIND
"""


def _serve(folder: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run a server with a fresh database in ``folder`` until the generator is closed;
    yields its base URL."""
    port = live.free_port()
    log = folder / "server.log"
    process = live.start(folder / "games.sqlite3", port, log, *options, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        live.wait_healthy(url, process, log)
        yield url
    finally:
        live.stop(process)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server with an empty saved-games database."""
    yield from _serve(tmp_path_factory.mktemp("live-server"))


@pytest.fixture(scope="session")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server whose requests may take a minute of engine work
    (``--cap 60``): a test that must see every value proven gets its proof on a busy machine
    too, where the default 5 s cap would turn a slow proof into an honest estimate."""
    yield from _serve(
        tmp_path_factory.mktemp("patient-server"), "--workers", "1", "--cap", str(PATIENT_CAP)
    )


@pytest.fixture(scope="session")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server (one engine worker) that has the plug-in games
    ``pairs`` (with a board) and ``blindpairs`` (without) installed."""
    folder = tmp_path_factory.mktemp("plugin-server")
    declared = folder / "site" / "perfectplay_test_pairs-0.1.dist-info"
    declared.mkdir(parents=True)
    metadata = "Metadata-Version: 2.1\nName: perfectplay-test-pairs\nVersion: 0.1\n"
    (declared / "METADATA").write_text(metadata)
    (declared / "entry_points.txt").write_text(ENTRY_POINTS)
    paths = [str(PLUGIN), str(folder / "site"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
    yield from _serve(folder, "--workers", "1", env=env)


@pytest.fixture(scope="session")
def simple_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server (one engine worker) with the plain games of
    ``examples/simple`` installed (their entry points, as ``pip install ./examples/simple``
    declares them; see ``tests/simple_support.py``)."""
    folder = tmp_path_factory.mktemp("simple-server")
    yield from _serve(folder, "--workers", "1", env=example_site(folder / "site"))


@pytest.fixture
def plugin_games(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The module of the plug-in test games, with ``pairs`` and ``blindpairs`` registered
    beside the installed games in this process until the test ends (the registry function
    is stood in for, its cache left alone; engine workers, other processes, do not see
    them)."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    if TYPE_CHECKING:  # the same file, which mypy knows by its place in tests/
        from web.plugin import pairs_game
    else:  # imported by name from the plug-in folder on sys.path, as the registry finds it
        import pairs_game

    known = registry.registry()
    kits = {**known.kits, "pairs": pairs_game.PAIRS, "blindpairs": pairs_game.BLIND}
    patched = registry.Registry(kits, known.aliases, known.problems)
    monkeypatch.setattr(registry, "registry", lambda: patched)
    return pairs_game
