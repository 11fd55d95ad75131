"""A plug-in game whose own code raises (issue 27, item 4): whatever it raises while parsing or
playing is a clean error naming the game, a one-line exit 2 in the command line and a 400 from
the web, never an internal error; a plug-in's own perfectplay errors pass as they are."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from cli_support import run
from fastapi.testclient import TestClient

from perfectplay import api, errors
from perfectplay.games import registry
from perfectplay.web.app import Settings, create_app

PLUGIN = Path(__file__).parent / "plugin"
"""The folder of the plug-in test games (module ``pairs_game``)."""
RAISED = (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError, RuntimeError)
"""What a broken plug-in raises: the usual slips and anything else."""
METHODS = ("parse_move", "legal_moves", "play", "outcome")
"""Where it raises: the kit's parser and the rules the search calls."""


def _broken(method: str, raised: type[Exception]) -> Any:
    """A kit of the Pairs test game, named ``broken``, whose ``method`` raises ``raised``
    from the second move on (the empty board loads)."""
    if TYPE_CHECKING:  # the same file, which mypy knows by its place in tests/
        from web.plugin import pairs_game
    else:  # imported by name from the plug-in folder on sys.path, as the registry finds it
        import pairs_game

    def fail(*args: Any) -> Any:
        raise raised("the plug-in slipped")

    def faulty(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(self: Any, *args: Any) -> Any:
            position = args[1] if method == "parse_move" else args[0]
            return fail() if position.plies >= 1 else original(self, *args)

        return call

    game_class = type(
        "BrokenGame",
        (pairs_game.PairsGame,),
        {} if method == "parse_move" else {method: faulty(getattr(pairs_game.PairsGame, method))},
    )
    kit_attributes: dict[str, Any] = {
        "name": "broken",
        "make": lambda self, params: game_class(self.name),
    }
    if method == "parse_move":
        kit_attributes[method] = faulty(pairs_game.PairsKit.parse_move)
    return type("BrokenKit", (pairs_game.PairsKit,), kit_attributes)()


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, type[Exception]], None]:
    """Registers a broken kit (see :func:`_broken`) beside the installed games for the test."""
    monkeypatch.syspath_prepend(str(PLUGIN))

    def register(method: str, raised: type[Exception]) -> None:
        known = registry.registry()
        patched = registry.Registry(
            {**known.kits, "broken": _broken(method, raised)}, known.aliases, known.problems
        )
        monkeypatch.setattr(registry, "registry", lambda: patched)

    return register


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("plugin-errors") / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1, cap=1.0, warm=False))) as test_client:
        yield test_client


def _named(message: str, raised: type[Exception]) -> None:
    """Checks that ``message`` names the game, what it raised and the plug-in's own words
    (the method named is the one perfectplay called: ``load`` for a move list the kit
    parses, the rules' own method in a search)."""
    assert message.startswith(f"game 'broken': its rules raised {raised.__name__} in "), message
    assert "slipped" in message
    assert "\n" not in message and "Traceback" not in message


@pytest.mark.parametrize("raised", RAISED)
@pytest.mark.parametrize("method", METHODS)
def test_the_api_names_the_game_whatever_it_raises(
    install: Callable[[str, type[Exception]], None], method: str, raised: type[Exception]
) -> None:
    install(method, raised)
    with pytest.raises(errors.PluginError) as caught:
        loaded = api.load_with_moves("broken", "a1 b1")
        api.solve(loaded.game, loaded.position)
    _named(str(caught.value), raised)


@pytest.mark.parametrize("method", METHODS)
def test_the_command_line_prints_one_line_and_exits_2(
    install: Callable[[str, type[Exception]], None],
    capsys: pytest.CaptureFixture[str],
    method: str,
) -> None:
    install(method, KeyError)
    code, out, err = run(capsys, "solve", "broken", "a1 b1")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "internal error" not in err
    _named(err.removeprefix("perfectplay: error: ").strip(), KeyError)


@pytest.mark.parametrize("method", METHODS)
def test_the_web_answers_400(
    install: Callable[[str, type[Exception]], None], client: TestClient, method: str
) -> None:
    install(method, IndexError)
    answer = client.post("/api/broken/state", json={"position": "a1 b1"})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["type"] == "PluginError"
    _named(error["message"], IndexError)


def test_a_plugins_own_errors_and_its_sound_positions_pass_as_they_are(
    install: Callable[[str, type[Exception]], None],
) -> None:
    install("play", ValueError)
    with pytest.raises(errors.NotationError, match="expected a cell"):
        api.load_with_moves("broken", "zz")
    loaded = api.load_with_moves("broken", "a1")
    assert api.position_text(loaded) == "a1" and api.render(loaded.game, loaded.position)


def test_built_in_games_are_not_wrapped() -> None:
    assert api.kit("tictactoe") is registry.builtin_registry().kits["tictactoe"]
