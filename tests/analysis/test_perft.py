"""Perft of the m,n,k-game against known counts and against a brute-force reference count."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from reference import mnk_reference as ref

from perfectplay.analysis.perft import PerftCounts, perft
from perfectplay.errors import ParameterError
from perfectplay.games.mnk.rules import Cell, game

DATA = Path(__file__).resolve().parent.parent / "data" / "perft_mnk.json"
ENTRIES: list[dict[str, Any]] = json.loads(DATA.read_text())["entries"]
COUNT_FIELDS = (
    "games",
    "first_wins",
    "second_wins",
    "draws",
    "games_by_length",
    "nodes",
    "nodes_by_depth",
    "positions",
    "positions_by_depth",
    "canonical_positions",
    "terminal_positions",
)


# -- the brute-force reference count ---------------------------------------------------------
def reference_perft(board: ref.Board) -> dict[str, Any]:
    """Counts of the full game tree below ``board``, by plain recursion over the reference game.

    Every path (game) is counted by recursing into every legal move; the recursion is
    memoised per board only to keep it fast, which does not change what is counted. Depths
    and game lengths are measured in plies from ``board``.
    """
    start = board.count(ref.X) + board.count(ref.O)
    memo: dict[ref.Grid, tuple[Counter[int], Counter[tuple[str | None, int]]]] = {}

    def below(current: ref.Board) -> tuple[Counter[int], Counter[tuple[str | None, int]]]:
        """(tree nodes by depth, finished games by (winner, length)) below ``current``."""
        key = current.key()
        if key in memo:
            return memo[key]
        depth = current.count(ref.X) + current.count(ref.O) - start
        nodes: Counter[int] = Counter({depth: 1})
        games: Counter[tuple[str | None, int]] = Counter()
        moves = ref.legal_moves(current)
        if not moves:
            games[(ref.winner(current), depth)] += 1
        for move in moves:
            child_nodes, child_games = below(ref.play(current, move))
            nodes.update(child_nodes)
            games.update(child_games)
        memo[key] = (nodes, games)
        return nodes, games

    nodes, games = below(board)
    positions_by_depth = Counter(
        sum(row.count(ref.X) + row.count(ref.O) for row in grid) - start for grid in memo
    )
    terminal = [grid for grid in memo if not ref.legal_moves(_board(grid, board.k))]
    by_length: Counter[int] = Counter()
    for (_, length), count in games.items():
        by_length[length] += count
    return {
        "games": sum(games.values()),
        "first_wins": sum(n for (who, _), n in games.items() if who == ref.X),
        "second_wins": sum(n for (who, _), n in games.items() if who == ref.O),
        "draws": sum(n for (who, _), n in games.items() if who is None),
        "games_by_length": {str(length): by_length[length] for length in sorted(by_length)},
        "nodes": sum(nodes.values()),
        "nodes_by_depth": [nodes[d] for d in range(max(nodes) + 1)],
        "positions": len(memo),
        "positions_by_depth": [positions_by_depth[d] for d in range(max(positions_by_depth) + 1)],
        "canonical_positions": len({ref.canonical_grid(grid) for grid in memo}),
        "terminal_positions": len(terminal),
    }


def _board(grid: ref.Grid, k: int) -> ref.Board:
    return ref.board_from_rows(["".join(row) for row in grid], k)


def perft_dict(counts: PerftCounts) -> dict[str, Any]:
    data = counts.as_dict()
    return {name: data[name] for name in COUNT_FIELDS}


# -- the data file -----------------------------------------------------------------------------
def test_data_file_is_consistent() -> None:
    assert {(e["rows"], e["cols"], e["k"]) for e in ENTRIES} >= {(3, 3, 3), (2, 2, 2), (3, 3, 2)}
    for entry in ENTRIES:
        assert set(COUNT_FIELDS) <= set(entry), entry
        assert entry["games"] == entry["first_wins"] + entry["second_wins"] + entry["draws"]
        assert entry["games"] == sum(entry["games_by_length"].values())
        assert entry["nodes"] == sum(entry["nodes_by_depth"])
        assert entry["positions"] == sum(entry["positions_by_depth"])
        assert entry["canonical_positions"] <= entry["positions"]
        assert entry["terminal_positions"] <= entry["positions"]


def test_tictactoe_has_the_well_known_counts() -> None:
    (entry,) = [e for e in ENTRIES if (e["rows"], e["cols"], e["k"]) == (3, 3, 3)]
    assert entry["games"] == 255_168
    assert (entry["first_wins"], entry["second_wins"], entry["draws"]) == (131_184, 77_904, 46_080)
    assert entry["games_by_length"] == {
        "5": 1440,
        "6": 5328,
        "7": 47952,
        "8": 72576,
        "9": 127872,
    }
    assert entry["nodes"] == 549_946
    assert entry["positions"] == 5478
    assert entry["canonical_positions"] == 765
    assert entry["terminal_positions"] == 958


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['cols']}x{e['rows']}k{e['k']}")
def test_perft_matches_data_file(entry: dict[str, Any]) -> None:
    counts = perft(game(entry["rows"], entry["cols"], entry["k"]))
    assert counts.complete
    assert perft_dict(counts) == {name: entry[name] for name in COUNT_FIELDS}


@pytest.mark.parametrize(
    "entry",
    [e for e in ENTRIES if e["rows"] * e["cols"] <= 9],
    ids=lambda e: f"{e['cols']}x{e['rows']}k{e['k']}",
)
def test_data_file_matches_reference_brute_force(entry: dict[str, Any]) -> None:
    board = ref.new_board(entry["rows"], entry["cols"], entry["k"])
    assert reference_perft(board) == {name: entry[name] for name in COUNT_FIELDS}


# -- perft against the reference directly ------------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "cols", "k"),
    [
        (1, 1, 1),
        (1, 2, 1),
        (1, 2, 2),
        (1, 3, 2),
        (1, 6, 3),
        (2, 1, 2),
        (2, 2, 1),
        (2, 2, 2),
        (2, 3, 2),
        (3, 2, 2),
        (2, 3, 3),
        (2, 4, 2),
        (2, 4, 3),
        (4, 2, 2),
        (3, 3, 1),
        (3, 3, 2),
        (3, 3, 3),
        (1, 8, 4),
    ],
)
def test_perft_matches_reference_brute_force(rows: int, cols: int, k: int) -> None:
    counts = perft(game(rows, cols, k))
    assert perft_dict(counts) == reference_perft(ref.new_board(rows, cols, k))


def test_perft_from_a_position_counts_plies_from_there() -> None:
    g = game(3, 3, 3)
    position = g.initial()
    moves = [(1, 1), (0, 0), (0, 2)]
    for move in moves:
        position = g.play(position, Cell(*move))
    board = ref.new_board(3, 3, 3)
    for move in moves:
        board = ref.play(board, move)
    counts = perft(g, position)
    assert perft_dict(counts) == reference_perft(board)
    assert min(counts.games_by_length) >= 1  # nobody has won yet after three moves


def test_perft_of_a_finished_position_is_one_game() -> None:
    g = game(3, 3, 3)
    won = g.from_bits(0b000_000_111, 0b000_011_000)
    counts = perft(g, won)
    assert (counts.games, counts.first_wins, counts.second_wins, counts.draws) == (1, 1, 0, 0)
    assert counts.games_by_length == {0: 1}
    assert (counts.nodes, counts.positions, counts.terminal_positions) == (1, 1, 1)
    assert counts.complete


def test_perft_with_max_depth_stops_early() -> None:
    g = game(3, 3, 3)
    full = perft(g)
    for depth in range(10):
        partial = perft(g, max_depth=depth)
        assert partial.nodes_by_depth == full.nodes_by_depth[: depth + 1]
        assert partial.positions_by_depth == full.positions_by_depth[: depth + 1]
        assert partial.nodes == sum(full.nodes_by_depth[: depth + 1])
        assert partial.complete is (depth >= 9)
        assert partial.games_by_length == {
            n: full.games_by_length[n] for n in full.games_by_length if n <= depth
        }
    # on a board where every game has ended by depth 1, stopping there is complete
    tiny = perft(game(1, 2, 1), max_depth=1)
    assert tiny.complete and tiny.games == 2


def test_perft_reports_progress_per_level() -> None:
    calls: list[tuple[int, int, int]] = []
    counts = perft(game(2, 2, 2), progress=lambda *args: calls.append(args))
    assert [depth for depth, _, _ in calls] == list(range(len(counts.nodes_by_depth)))
    assert [positions for _, positions, _ in calls] == list(counts.positions_by_depth)
    assert calls[-1][2] == counts.nodes


def test_a_level_past_the_position_bound_is_refused_naming_the_depth() -> None:
    """Each level is held whole in memory: past the bound the count stops with a
    ParameterError naming the deepest --depth that fits (3x3: 252 positions at ply 3, 756
    at ply 4)."""
    with pytest.raises(ParameterError, match=r"ply 4 has more than 300 distinct .* --depth 3"):
        perft(game(3, 3, 3), max_positions=300)
    counted = perft(game(3, 3, 3), max_depth=3, max_positions=300)
    assert counted.positions == 1 + 9 + 72 + 252
