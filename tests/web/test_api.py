"""The web API through FastAPI's test client: every endpoint, every error class, known
answers, the saved-games round trip, the engine pool's cap, queue and health, and games the
web app learns only from the registry (the plug-in test games of ``plugin/pairs_game.py``)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from perfectplay import api, contract
from perfectplay.web import jobs
from perfectplay.web.app import Settings, create_app

DATA = Path(__file__).parent.parent / "data" / "connect4_sets"
CAP = 2.0
LONG_HISTORY = {"position": "xoxo_x/oxox_o/xoxo__/______", "k": 4, "notion": "outcome"}
"""A 6x4 board whose history needs far more than the cap (the worker is stopped), yet is
within the reach policy (every sub-board is solvable; there are very many)."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("api") / "games.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=2, cap=CAP))) as test_client:
        yield test_client


def error_of(response: Any, status: int, kind: str) -> str:
    """The message of a JSON error answer, after checking its status and type."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["type"] == kind, body
    message: str = body["error"]["message"]
    assert message and "Traceback" not in message
    return message


# -- known answers ------------------------------------------------------------------------------
def test_article_board_best_move_is_row_2_col_2(client: TestClient) -> None:
    answer = client.post("/api/tictactoe/move", json={"position": "xox/oox/___"}).json()
    assert answer["best_move"] == {"row": 3, "col": 3}
    assert (answer["outcome"], answer["score"], answer["exact"]) == ("win", 10, True)
    assert answer["after"]["outcome"]["winner_name"] == "x"
    assert answer["after"]["outcome"]["line"] == [[0, 2], [1, 2], [2, 2]]


def test_article_board_move_values(client: TestClient) -> None:
    answer = client.post("/api/tictactoe/analyze", json={"position": "xox/oox/___"}).json()
    values = {(m["row"], m["col"]): (m["value"], m["score"]) for m in answer["moves"]}
    assert values == {(3, 1): ("loss in 2", -9), (3, 2): ("draw", 0), (3, 3): ("win in 1", 10)}
    assert answer["exact"] is True and answer["to_move"] == "x"


@pytest.mark.parametrize("set_name", ["end-easy", "middle-easy"])
def test_connect4_shared_set_positions_score_as_listed(client: TestClient, set_name: str) -> None:
    lines = (DATA / f"{set_name}.txt").read_text().splitlines()[:3]
    for line in lines:
        moves, score = line.split()
        answer = client.post("/api/connect4/move", json={"position": moves}).json()
        assert answer["exact"] is True, answer
        assert answer["score"] == int(score), line
        moves_answer = client.post("/api/connect4/analyze", json={"position": moves}).json()
        assert max(m["score"] for m in moves_answer["moves"]) == int(score)


def test_simplexity_engine_move_respects_quotas(client: TestClient) -> None:
    # On 4x4 each player has 4 pieces of each shape; player 1 has used its 4 X.
    moves = "1X 1O 2X 2O 1X 2O 3X 4O"
    state = client.post("/api/simplexity/state", json={"position": moves, "size": "4x4"}).json()
    assert state["quotas"]["1"]["X"] == 0
    answer = client.post(
        "/api/simplexity/move", json={"position": moves, "size": "4x4", "depth": 3}
    ).json()
    assert answer["best_move"]["shape"] == "O"
    assert answer["after"]["quotas"]["1"]["O"] == state["quotas"]["1"]["O"] - 1
    refused = client.post(
        "/api/simplexity/play",
        json={"position": moves, "size": "4x4", "move": {"column": 1, "shape": "X"}},
    )
    assert "X" in error_of(refused, 400, "IllegalMoveError")


# -- positions ----------------------------------------------------------------------------------
def test_state_draws_every_game(client: TestClient) -> None:
    c4 = client.post("/api/connect4/state", json={"position": "4455667"}).json()
    assert c4["outcome"]["line"] == [[5, 3], [5, 4], [5, 5], [5, 6]]
    assert c4["legal"] == [] and c4["position"] == "4455667"
    ttt = client.post("/api/ttt/state", json={"position": "x__/___/___"}).json()
    assert ttt["to_move"] == "o" and len(ttt["legal"]) == 8 and ttt["cells"][0][0]["mark"] == "x"
    wide = client.post("/api/connect4/state", json={"position": "10,3", "size": "10x5"}).json()
    assert wide["cols"] == 10 and wide["cells"][4][9] == {"player": 1, "mark": "x"}


def test_play_extends_the_position_text(client: TestClient) -> None:
    c4 = client.post("/api/connect4/play", json={"position": "4453", "move": {"column": 2}})
    assert c4.json()["position"] == "44532"
    sc = client.post(
        "/api/simplexity/play", json={"position": "4O", "move": {"column": 3, "shape": "X"}}
    )
    assert sc.json()["position"] == "4O 3X"
    ttt = client.post(
        "/api/tictactoe/play", json={"position": "___/___/___", "move": {"row": 2, "col": 2}}
    )
    assert ttt.json()["position"] == "___/_x_/___"


def test_history_and_tree(client: TestClient) -> None:
    found = client.post("/api/tictactoe/history", json={"position": "xox/oox/x__"}).json()
    assert found["reachable_optimally"] is False and found["mistakes"]
    assert [s["ply"] for s in found["steps"]] == list(range(8))
    assert found["steps"][-1]["state"]["position"] == "xox/oox/x__"
    tree = client.post(
        "/api/tictactoe/tree", json={"position": "xox/oox/___", "alphabeta": True}
    ).json()
    assert tree["root"]["value"] == "10" and tree["principal"] == [{"row": 3, "col": 3}]
    assert tree["visited"] <= tree["minimax_nodes"]
    plain = client.post("/api/tictactoe/tree", json={"position": "xox/oox/___"}).json()
    assert [c["value"] for c in plain["root"]["children"]] == ["-9", "0", "10"]


def test_limited_searches_say_they_are_heuristic(client: TestClient) -> None:
    answer = client.post("/api/connect4/move", json={"position": "", "depth": 4}).json()
    assert answer["exact"] is False and answer["outcome"] is None
    assert answer["depth"] == 4 and answer["best_move"]["column"] in range(1, 8)


# -- errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body", "status", "kind", "named"),
    [
        ("/api/connect4/analyze", {"position": "44x5"}, 400, "NotationError", "'x'"),
        ("/api/connect4/analyze", {"position": "4444444"}, 400, "IllegalMoveError", "move 7"),
        ("/api/tictactoe/analyze", {"position": "ooo/___/___"}, 400, "IllegalPositionError", "ooo"),
        (
            "/api/connect4/play",
            {"position": "4455667", "move": {"column": 1}},
            400,
            "GameOverError",
            "over",
        ),
        (
            "/api/tictactoe/play",
            {"position": "x__/___/___", "move": {"row": 1, "col": 1}},
            400,
            "IllegalMoveError",
            "",
        ),
        (
            "/api/tictactoe/play",
            {"position": "___/___/___", "move": {"column": 1}},
            400,
            "NotationError",
            "row and col",
        ),
        ("/api/connect4/analyze", {"position": "4", "time": 60}, 400, "ParameterError", "cap"),
        (
            "/api/tictactoe/analyze",
            {"position": "/".join(["_" * 21] * 21)},
            400,
            "ParameterError",
            "21x21 is too large",
        ),
        ("/api/connect4/analyze", {"position": "", "size": "3x3"}, 400, "ParameterError", "3"),
        (
            "/api/tictactoe/tree",
            {"position": "___/___/___", "depth": 9},
            400,
            "ParameterError",
            "nodes",
        ),
        (
            "/api/tictactoe/history",
            {"position": "___/___/___", "notion": "fast"},
            422,
            "RequestValidationError",
            "notion",
        ),
        ("/api/chess/analyze", {"position": "e4"}, 404, "UnknownGameError", "chess"),
        ("/api/connect4/analyze", {"position": 44}, 422, "RequestValidationError", "position"),
        (
            "/api/connect4/analyze",
            {"position": "4", "depth": -1},
            422,
            "RequestValidationError",
            "depth",
        ),
        (
            "/api/connect4/analyze",
            {"position": "4", "colour": "red"},
            422,
            "RequestValidationError",
            "colour",
        ),
        ("/api/connect4/analyze", {}, 422, "RequestValidationError", "position"),
    ],
)
def test_bad_input_gets_a_precise_json_error(
    client: TestClient, path: str, body: dict[str, Any], status: int, kind: str, named: str
) -> None:
    assert named in error_of(client.post(path, json=body), status, kind)


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    broken = client.post(
        "/api/connect4/analyze",
        content=b'{"position": ',
        headers={"content-type": "application/json"},
    )
    assert "not valid JSON" in error_of(broken, 422, "RequestValidationError")
    huge = client.post("/api/connect4/analyze", json={"position": "4" * 300_000})
    assert "bytes" in error_of(huge, 413, "RequestTooLarge")


def test_unknown_routes_and_methods(client: TestClient) -> None:
    error_of(client.get("/api/nothing"), 404, "NotFound")
    error_of(client.get("/api/connect4/analyze"), 405, "MethodNotAllowed")
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert client.get("/play/chess").status_code == 404


# -- saved games --------------------------------------------------------------------------------
def test_saved_game_lifecycle(client: TestClient) -> None:
    body = {
        "game": "connect4",
        "moves": [{"column": 4}],
        "status": "playing",
        "settings": {"strength": "depth", "depth": 6},
    }
    created = client.post("/api/games", json=body)
    assert created.status_code == 201
    game_id = created.json()["id"]
    moves = [{"column": c} for c in (4, 4, 5, 5, 6, 6, 7)]
    updated = client.post("/api/games", json={**body, "id": game_id, "moves": moves})
    record = updated.json()
    assert updated.status_code == 200
    assert (record["status"], record["result"], record["position"]) == ("finished", "1", "4455667")
    assert record["reason"] == "player 1 connects 4"
    assert client.get(f"/api/games/{game_id}").json() == record
    listed = client.get("/api/games", params={"game": "c4", "result": "1"}).json()
    assert game_id in [g["id"] for g in listed["games"]] and listed["total"] >= 1
    back = client.post("/api/games", json={**body, "id": game_id, "moves": moves[:2]})
    assert "finished" in error_of(back, 409, "ConflictError")
    # issue 15, item 1: a finished game was rewritten as "abandoned with 4 moves"
    rewrite = {**body, "id": game_id, "moves": moves[:4], "status": "abandoned"}
    error_of(client.post("/api/games", json=rewrite), 409, "ConflictError")
    same = {**body, "id": game_id, "moves": moves, "status": "finished"}
    again = client.post("/api/games", json=same)  # the same finished game
    assert again.status_code == 200 and again.json() == record
    assert client.delete(f"/api/games/{game_id}").json() == {"deleted": game_id}
    error_of(client.get(f"/api/games/{game_id}"), 404, "NotFound")
    error_of(client.delete(f"/api/games/{game_id}"), 404, "NotFound")
    gone = client.post("/api/games", json={**body, "id": game_id, "moves": moves})  # was a 400
    assert "no such saved game" in error_of(gone, 404, "NotFoundError")


def test_saved_games_are_checked_by_replaying_them(client: TestClient) -> None:
    illegal = {"game": "tictactoe", "moves": [{"row": 1, "col": 1}, {"row": 1, "col": 1}]}
    assert "moves item 2" in error_of(
        client.post("/api/games", json=illegal), 400, "IllegalMoveError"
    )
    running = {"game": "tictactoe", "moves": [{"row": 1, "col": 1}], "status": "finished"}
    assert "still running" in error_of(
        client.post("/api/games", json=running), 400, "ParameterError"
    )
    players = {"game": "tictactoe", "moves": [], "players": {"1": "robot", "2": "human"}}
    assert "players" in error_of(client.post("/api/games", json=players), 400, "ParameterError")
    settings = {
        "game": "tictactoe",
        "moves": [],
        "status": "abandoned",
        "settings": {"strength": "godlike"},
    }
    assert "settings" in error_of(client.post("/api/games", json=settings), 400, "ParameterError")
    error_of(client.get("/api/games", params={"limit": 0}), 422, "RequestValidationError")
    error_of(client.get("/api/games", params={"status": "won"}), 400, "ParameterError")


def test_export_and_import_round_trip(client: TestClient) -> None:
    cells = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # x wins along the top row
    moves = [{"row": r + 1, "col": c + 1} for r, c in cells]
    stored = client.post("/api/games", json={"game": "tictactoe", "moves": moves}).json()
    exported = client.get("/api/games/export", params={"game": "tictactoe"})
    assert "attachment" in exported.headers["content-disposition"]
    document = exported.json()
    assert document["format"] == "perfectplay-games"
    assert stored["id"] in [g["id"] for g in document["games"]]
    imported = client.post("/api/games/import", json=document).json()  # into the same store
    assert (imported["imported"], imported["skipped"]) == (0, len(document["games"]))
    assert stored["id"] in imported["skipped_ids"]  # issue 15, item 6: it duplicated them
    older = {**document["games"][-1], "created_at": "2025-01-01T00:00:00.000Z"}
    imported = client.post("/api/games/import", json={"games": [older]}).json()
    assert (imported["imported"], imported["skipped"]) == (1, 0)
    copy = client.get(f"/api/games/{imported['ids'][-1]}").json()
    assert copy["created_at"] == older["created_at"]
    broken = {
        "games": [document["games"][0], {**document["games"][0], "moves": [{"row": 9, "col": 9}]}]
    }
    before = client.get("/api/games").json()["total"]
    assert "games item 2" in error_of(
        client.post("/api/games/import", json=broken), 400, "IllegalMoveError"
    )
    assert client.get("/api/games").json()["total"] == before


# -- the engine pool -----------------------------------------------------------------------------
def test_a_job_past_the_cap_is_stopped_and_the_pool_recovers(client: TestClient) -> None:
    answer = client.post("/api/tictactoe/history", json=LONG_HISTORY)
    assert "cap" in error_of(answer, 503, "EngineTimeout")
    for _ in range(3):  # both workers (the replaced one included) answer again
        assert client.post("/api/tictactoe/move", json={"position": "x________"}).status_code == 200
    health = client.get("/api/health").json()
    assert health["engine"]["stopped_for_time"] >= 1


def test_health_answers_while_every_worker_searches(client: TestClient) -> None:
    results: list[int] = []

    def search() -> None:
        body = {"position": "", "time": 1.5}
        results.append(client.post("/api/connect4/move", json=body).status_code)

    threads = [threading.Thread(target=search) for _ in range(2)]
    for thread in threads:
        thread.start()
    seen_busy = 0
    while any(thread.is_alive() for thread in threads):
        health = client.get("/api/health").json()
        assert health["status"] == "ok"
        seen_busy = max(seen_busy, health["engine"]["busy"])
    for thread in threads:
        thread.join()
    assert results == [200, 200]
    assert seen_busy >= 1  # health was answered while searches ran


def test_a_full_waiting_line_is_refused(tmp_path: Path) -> None:
    # A cap far above the searches' second: on a busy machine (CI at load 9) a worker's first
    # search, loading its engine, overran a 2 s cap and every request got 503, for a timeout.
    settings = Settings(
        db=tmp_path / "busy.sqlite3", workers=1, cap=30.0, queue_limit=1, warm=False
    )
    statuses: list[int] = []
    with TestClient(create_app(settings)) as busy:
        # The pool starts in the background: on a busy machine a request sent before the
        # worker is up is refused as warming, which is not the refusal this test is about.
        deadline = time.monotonic() + 60
        while busy.get("/api/health").json()["engines"]["workers_ready"] < 1:
            assert time.monotonic() < deadline, "the worker did not start within 60 s"
            time.sleep(0.05)

        def search() -> None:
            body = {"position": "", "time": 1.0}
            statuses.append(busy.post("/api/connect4/move", json=body).status_code)

        threads = [threading.Thread(target=search) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        refused = busy.post("/api/connect4/move", json={"position": "", "time": 1.0})
        assert refused.status_code in (200, 503)
    assert 503 in statuses and 200 in statuses


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/{game}/analyze",
        "/api/{game}/move",
        "/api/{game}/history",
        "/api/{game}/tree",
        "/api/{game}/state",
        "/api/{game}/play",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/export",
        "/api/games/import",
        "/api/health",
    ):
        assert path in paths
    assert client.get("/docs").status_code == 200


def test_games_left_playing_are_abandoned_when_a_server_starts(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from perfectplay.web.app import abandon_stale
    from perfectplay.web.store import GameRecord, GameStore

    now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    moments = iter([now - timedelta(hours=3), now - timedelta(minutes=5)])
    store = GameStore(tmp_path / "stale.sqlite3", clock=lambda: next(moments))
    playing = GameRecord(
        "connect4",
        "7x6",
        None,
        ({"column": 4},),
        "4",
        {"1": "human", "2": "engine"},
        {},
        "playing",
        None,
        None,
    )
    old, recent = store.save(playing), store.save(playing)
    assert abandon_stale(GameStore(tmp_path / "stale.sqlite3"), now) == 1
    reopened = GameStore(tmp_path / "stale.sqlite3")
    assert reopened.get(old.id or 0).status == "abandoned"  # type: ignore[union-attr]
    assert reopened.get(recent.id or 0).status == "playing"  # type: ignore[union-attr]


# -- games from the registry ------------------------------------------------------------------
def test_meta_lists_every_registered_game_from_its_kit(client: TestClient) -> None:
    games = client.get("/api/meta/games").json()["games"]
    kits = api.games()
    assert [game["name"] for game in games] == [game_kit.name for game_kit in kits]
    for game, game_kit in zip(games, kits, strict=True):
        assert game == contract.game_json(game_kit.name)
        assert game["capabilities"] == sorted(c.value for c in game_kit.capabilities)
        assert (game["title"], game["takes_k"]) == (game_kit.title, game_kit.takes_k)
    ttt = next(game for game in games if game["name"] == "tictactoe")
    assert ttt["size"] == {"text": "WIDTHxHEIGHT", "names": ["width", "height"], "default": "3x3"}
    assert ttt["board"] == {"rows": 3, "cols": 3, "gravity": False}
    assert ttt["players"] == {"1": "x", "2": "o"}
    assert ttt["pieces"]["1"] == {"player": 1, "mark": "x"}
    c4 = next(game for game in games if game["name"] == "connect4")
    assert c4["size"]["default"] == "7x6" and c4["board"]["gravity"] is True
    sc = next(game for game in games if game["name"] == "simplexity")
    assert sc["size"] == {"text": "WIDTHxHEIGHT", "names": ["width", "height"], "default": "7x6"}
    assert sc["board"] == {"rows": 6, "cols": 7, "gravity": True}
    saved = client.get("/api/games").json()  # the saved games keep their own address
    assert set(saved) == {"games", "total", "limit", "offset"}


def test_pages_offer_the_games_their_capabilities_allow(client: TestClient) -> None:
    board_games = [k.name for k in api.games() if k.has(api.Capability.BOARD)]
    index = client.get("/").text
    for name in board_games:
        assert f'href="/play/{name}"' in index
    history = client.get("/tools/history").text
    for game_kit in api.games():
        offered = f'<option value="{game_kit.name}"' in history
        wanted = game_kit.has(api.Capability.BOARD) and game_kit.has(api.Capability.HISTORY)
        assert offered == wanted, game_kit.name
    assert '<option value="simplexity"' in client.get("/tools/tree").text
    refused = client.post("/api/simplexity/history", json={"position": "4O"})
    assert "'history'" in error_of(refused, 400, "ParameterError")


def test_a_plugin_game_is_served_through_its_kit(
    client: TestClient, plugin_games: ModuleType
) -> None:
    names = [game["name"] for game in client.get("/api/meta/games").json()["games"]]
    assert {"pairs", "blindpairs"} <= set(names)
    state = client.post("/api/pairs/state", json={"position": "a1 a2"}).json()
    assert (state["rows"], state["cols"], state["gravity"], state["size"]) == (2, 3, False, None)
    assert state["cells"][1][0] == {"player": 2, "mark": "o"} and state["to_move"] == "1"
    after = client.post("/api/pairs/play", json={"position": "a1 a2", "move": {"row": 1, "col": 2}})
    assert after.json()["position"] == "a1 a2 b1"
    moves = [{"row": 1, "col": 1}, {"row": 2, "col": 1}]
    assert client.post("/api/pairs/replay", json={"moves": moves}).json()["position"] == "a1 a2"
    index = client.get("/").text
    assert 'href="/play/pairs"' in index
    play_page = client.get("/play/pairs")
    assert play_page.status_code == 200 and "Pairs (a test plug-in)" in play_page.text
    won = [{"row": 1, "col": 1}, {"row": 2, "col": 2}, {"row": 2, "col": 1}]
    record = client.post("/api/games", json={"game": "pairs", "moves": won}).json()
    assert (record["size"], record["k"], record["position"]) == (None, None, "a1 b2 a2")
    assert (record["result"], record["reason"]) == ("1", "player 1 owns column a")
    assert client.get(f"/api/games/{record['id']}").json() == record
    assert record["id"] in [g["id"] for g in client.get("/api/games?game=pairs").json()["games"]]


def test_a_game_without_a_board_view_is_served_as_a_move_list(
    client: TestClient, plugin_games: ModuleType
) -> None:
    """Issue 30: a game without a board view is played, analysed and drawn as a tree by its
    list of legal moves (its state's cells are null); only history still needs a board."""
    state = client.post("/api/blindpairs/state", json={"position": "a1"}).json()
    assert (state["rows"], state["cols"], state["cells"]) == (None, None, None)
    assert state["position"] == "a1" and {"row": 2, "col": 1} in state["legal"]
    after = client.post("/api/blindpairs/play", json={"position": "", "move": {"row": 1, "col": 1}})
    assert after.json()["position"] == "a1"
    assert client.post("/api/blindpairs/replay", json={"moves": []}).json()["position"] == ""
    message = error_of(
        client.post("/api/blindpairs/history", json={"position": "a1"}), 400, "ParameterError"
    )
    assert "blindpairs" in message
    page = client.get("/play/blindpairs")
    assert page.status_code == 200 and 'id="board"' in page.text
    assert 'href="/play/blindpairs"' in client.get("/").text  # in the list of move-list games
    for tool in ("/tools/analyze", "/tools/tree"):  # a position typed, its moves as buttons
        assert '<option value="blindpairs"' in client.get(tool).text
    assert '<option value="blindpairs"' not in client.get("/tools/history").text


def test_jobs_run_a_plugin_game_they_never_heard_of(plugin_games: ModuleType) -> None:
    blocked = jobs.move(game="pairs", position="a1", cap=2.0)
    assert blocked["best_move"] == {"row": 2, "col": 1} and blocked["exact"] is True
    assert blocked["after"]["position"] == "a1 a2" and blocked["outcome"] == "draw"
    values = jobs.analyze(game="pairs", position="a1 b2", cap=2.0)
    assert {(m["row"], m["col"]): m["outcome"] for m in values["moves"]}[(2, 1)] == "win"
    tree = jobs.tree(game="pairs", position="a1 a2 b1", cap=2.0)
    assert len(tree["root"]["children"]) == 3 and tree["root"]["cells"][0][0]["mark"] == "x"
    assert jobs.analyze(game="blindpairs", position="a1", cap=2.0)["to_move"] == "2"


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("GET", "/api/games/9223372036854775808", None),
        ("DELETE", "/api/games/9223372036854775808", None),
        ("GET", "/api/games?offset=9223372036854775808", None),
        (
            "POST",
            "/api/games",
            {"id": 2**63, "game": "tictactoe", "moves": [], "status": "playing"},
        ),
    ],
)
def test_ids_and_offsets_past_sqlite_integers_are_422(
    client: TestClient, method: str, url: str, body: dict[str, Any] | None
) -> None:
    answer = client.request(method, url, json=body)
    assert answer.status_code == 422, answer.text
    assert "9223372036854775807" in answer.json()["error"]["message"]
    assert client.get("/api/games/9223372036854775807").status_code == 404  # the largest id


def test_every_answer_has_the_security_headers_and_405_says_allow(client: TestClient) -> None:
    for answer in (
        client.get("/"),
        client.get("/api/health"),
        client.get("/api/no-such-route"),
        client.post("/api/games", content=b"x" * 300_000),
    ):
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    wrong = client.put("/api/health")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "GET"
    assert wrong.json()["error"]["type"] == "MethodNotAllowed"


def test_a_board_past_the_kits_limit_is_refused_saying_why(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, item 8: the web refused 15x15 without saying why or where to play it; since
    issue 17 a kit declares the boards the web serves (tic-tac-toe: up to 19x19)."""
    from perfectplay.games.mnk.kit import KIT

    monkeypatch.setattr(KIT, "policy", dataclasses.replace(KIT.policy, web_cells=64))
    empty = "/".join(["_" * 15] * 15)
    answer = client.post("/api/tictactoe/state", json={"position": empty})
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert "225 cells" in message and "at most 64 cells" in message and "command line" in message


def test_gomoku_boards_are_played_and_analysed_near_the_stones(client: TestClient) -> None:
    """Issue 17, item 6: 15x15 in the web, the analysis overlay on the cells near the stones."""
    rows = ["_" * 15] * 15
    rows[7] = "_" * 6 + "xo" + "_" * 7
    rows[8] = "_" * 7 + "x" + "_" * 7
    board = "/".join(rows)
    assert client.post("/api/tictactoe/state", json={"position": board}).status_code == 200
    move = client.post("/api/tictactoe/move", json={"position": board, "time": 0.5}).json()
    assert 6 <= move["best_move"]["row"] <= 12 and 5 <= move["best_move"]["col"] <= 12
    analysed = client.post("/api/tictactoe/analyze", json={"position": board, "time": 1}).json()
    cells = {(m["row"], m["col"]) for m in analysed["moves"]}
    stones = {(8, 7), (8, 8), (9, 8)}  # 1-based (row, column)
    near = {
        (r, c)
        for r in range(1, 16)
        for c in range(1, 16)
        if any(abs(r - sr) <= 2 and abs(c - sc) <= 2 for sr, sc in stones)
    }
    assert cells == near - stones


@pytest.mark.parametrize("path", ["state", "analyze", "move", "history", "tree", "steps"])
def test_a_deeply_nested_json_board_is_a_400_not_a_500(client: TestClient, path: str) -> None:
    """Issue 16, item 1: about 1,000 '[' answered 500 with a logged RecursionError."""
    answer = client.post(f"/api/tictactoe/{path}", json={"position": "[" * 1000 + "]" * 1000})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["type"] == "NotationError" and "nested too deeply" in error["message"]


@pytest.mark.parametrize(
    "game_id", ["999999", "0", "-3", "9223372036854775807", "9223372036854775808", "9" * 40]
)
def test_the_replay_page_of_a_game_not_saved_is_a_404(client: TestClient, game_id: str) -> None:
    """Issue 15, item 6: ``/games/999`` answered 200 and only then showed not-found."""
    answer = client.get(f"/games/{game_id}")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert "no such saved game" in answer.text


def test_perfect_play_first_on_the_empty_7x6_board_answers_exactly(client: TestClient) -> None:
    """Issue 15, item 2: the engine moving first on the empty board with "Perfect" timed
    out with 503 (the opening book answered at once, then the rest of the cap went on
    proving the whole line); it answers the book's exact move now."""
    answer = client.post("/api/connect4/move", json={"position": ""})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["exact"] is True and data["best_move"] == {"column": 4}
    assert data["outcome"] == "win"


def test_a_version_1_export_imports_with_its_cells_counted_from_1(client: TestClient) -> None:
    """Issue 15, item 5: tic-tac-toe moves counted from 0 in version 1 exports."""
    game = {
        "game": "tictactoe",
        "size": "3x3",
        "moves": [{"row": 1, "col": 1}, {"row": 0, "col": 0}],  # b2, then a1
        "position": "",
        "players": {"1": "human", "2": "engine"},
        "status": "abandoned",
        "created_at": "2024-03-01T00:00:00.000Z",
    }
    document = {"format": "perfectplay-games", "version": 1, "games": [game]}
    answer = client.post("/api/games/import", json=document).json()
    stored = client.get(f"/api/games/{answer['ids'][0]}").json()
    assert stored["moves"] == [{"row": 2, "col": 2}, {"row": 1, "col": 1}]
    assert stored["position"] == "o__/_x_/___"


@pytest.mark.parametrize("game", ["connect4", "simplexity", "tictactoe", "gomoku"])
def test_a_size_is_width_x_height_in_every_game(client: TestClient, game: str) -> None:
    """Issue 15, item 5: ``7x6`` is 7 columns wide and 6 rows high in every game, and every
    game writes its size back the same way."""
    state = client.post(f"/api/{game}/state", json={"position": "", "size": "7x6"}).json()
    assert (state["cols"], state["rows"], state["size"]) == (7, 6, "7x6")
    assert len(state["cells"]) == 6 and {len(row) for row in state["cells"]} == {7}
    info = next(g for g in client.get("/api/meta/games").json()["games"] if g["name"] == game)
    assert (info["size"]["text"], info["size"]["names"]) == ("WIDTHxHEIGHT", ["width", "height"])


def test_a_version_2_export_imports_with_its_sizes_width_first(client: TestClient) -> None:
    """Issue 15, item 5: version 2 exports gave tic-tac-toe and shape-and-color sizes as rows
    x columns; they import as width x height (Connect Four's were width x height already)."""
    games = [
        ("simplexity", "4x5", [{"column": 5, "shape": "O"}], "5x4"),  # 4 rows of 5 columns
        ("tictactoe", "2x3", [{"row": 1, "col": 3}], "3x2"),  # 2 rows of 3 columns
        ("connect4", "6x5", [{"column": 6}], "6x5"),
    ]
    document = {
        "format": "perfectplay-games",
        "version": 2,
        "games": [
            {
                "game": game,
                "size": size,
                "moves": moves,
                "position": "",
                "players": {"1": "human", "2": "engine"},
                "status": "abandoned",
                "created_at": f"2024-04-0{number}T00:00:00.000Z",
            }
            for number, (game, size, moves, _) in enumerate(games, start=1)
        ],
    }
    answer = client.post("/api/games/import", json=document)
    assert answer.status_code == 201, answer.text
    sizes = [client.get(f"/api/games/{i}").json()["size"] for i in answer.json()["ids"]]
    assert sizes == [now for *_, now in games]
    exported = client.get("/api/games/export", params={"game": "simplexity"})
    assert exported.json()["version"] == 3, exported.text


def test_the_engine_moves_at_a_level_a_person_can_beat(client: TestClient) -> None:
    """Issue 15, item 12: ``level`` instead of a limit; bad levels are 400s naming them."""
    answer = client.post("/api/connect4/move", json={"position": "4453", "level": "casual"})
    assert answer.status_code == 200, answer.text
    reply = answer.json()
    assert reply["level"] == "casual" and isinstance(reply["slipped"], bool)
    assert reply["exact"] is False and reply["depth"] == 2 and reply["after"]["ply"] == 5
    unknown = client.post("/api/connect4/move", json={"position": "4453", "level": "master"})
    assert "expected one of beginner, casual, club, strong" in error_of(
        unknown, 400, "ParameterError"
    )
    both = client.post("/api/connect4/move", json={"position": "", "level": "club", "time": 1})
    assert "not with depth or time" in error_of(both, 400, "ParameterError")
    analysed = client.post("/api/connect4/analyze", json={"position": "", "level": "club"})
    assert analysed.status_code == 422  # analysing is exact or limited, never at a level
    body = {"game": "connect4", "moves": [{"column": 4}], "status": "playing"}
    stored = client.post(
        "/api/games", json={**body, "settings": {"strength": "level", "level": "club"}}
    )
    assert stored.status_code == 201 and stored.json()["settings"]["level"] == "club"
    bad = client.post("/api/games", json={**body, "settings": {"strength": "level", "level": 3}})
    assert "level is a name" in error_of(bad, 400, "ParameterError")


def test_games_of_a_plugin_no_longer_installed_still_list_and_export(
    client: TestClient, plugin_games: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backup must hold every saved game: one saved with a plug-in that is gone since
    lists and exports as it was stored (importing it back needs the plug-in again)."""
    moves = [{"row": 1, "col": 1}, {"row": 2, "col": 2}, {"row": 2, "col": 1}]
    answer = client.post("/api/games", json={"game": "pairs", "moves": moves})
    assert answer.status_code == 201, answer.text
    saved = answer.json()
    monkeypatch.undo()  # the plug-in is uninstalled
    listed = client.get("/api/games").json()["games"]
    assert saved["id"] in [game["id"] for game in listed]
    exported = client.get("/api/games/export")
    assert exported.status_code == 200, exported.text
    assert saved in exported.json()["games"]
    document = {"format": "perfectplay-games", "games": [saved]}
    refused = client.post("/api/games/import", json=document)
    assert refused.status_code == 404 and "pairs" in refused.text  # an unknown game
