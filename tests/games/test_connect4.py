"""The bitboard Connect Four against the plain reference, plus the protocol, perft and score
facts."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from game_support import random_position
from reference import connect4_reference as ref

from perfectplay.analysis.perft import perft
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    ParameterError,
    PerfectplayError,
)
from perfectplay.games.connect4.rules import (
    Connect4Game,
    Connect4Position,
    Connect4Spec,
    game,
    make_spec,
)
from perfectplay.games.protocol import Player
from perfectplay.games.registry import get_game

PLAYER_OF = {ref.X: Player.FIRST, ref.O: Player.SECOND}
PERFT_DATA = Path(__file__).resolve().parent.parent / "data" / "perft_connect4.json"


# -- conversions between the two representations (bit = column * (height + 1) + row) ----------
def bit(height: int, column: int, row: int) -> int:
    """The bit of a cell, computed from the layout drawn in the module docstring."""
    return 1 << (column * (height + 1) + row)


def grid_of(position: Connect4Position) -> ref.Grid:
    """The bitboard position as a reference grid (bottom row first)."""
    spec = position.spec
    rows = []
    for r in range(spec.height):
        row = []
        for c in range(spec.width):
            b = bit(spec.height, c, r)
            row.append(ref.X if position.first & b else ref.O if position.second & b else ref.EMPTY)
        rows.append(tuple(row))
    return tuple(rows)


def bits_of(grid: ref.Grid) -> tuple[int, int]:
    """The ``(first, second)`` bitboards of a reference grid."""
    height = len(grid)
    first = second = 0
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell == ref.X:
                first |= bit(height, c, r)
            elif cell == ref.O:
                second |= bit(height, c, r)
    return first, second


def cells_of(height: int, mask: int) -> set[tuple[int, int]]:
    """The (column, row) cells of the set bits of ``mask``."""
    return {divmod(i, height + 1) for i in range(mask.bit_length()) if mask >> i & 1}


# -- comparison with the reference -----------------------------------------------------------
def assert_same_outcome(
    g: Connect4Game, board: ref.Board, position: Connect4Position, last: tuple[int, int] | None
) -> bool:
    """The bitboard outcome agrees with the reference; ``last`` is the (column, row) of the
    last stone when known. Returns whether the game is over."""
    outcome = g.outcome(position)
    winner = ref.winner(board)
    if winner is not None:
        assert outcome is not None
        assert outcome.winner is PLAYER_OF[winner]
        assert outcome.reason == f"player {int(PLAYER_OF[winner])} connects {board.k}"
        line = set(outcome.line)
        assert line == cells_of(board.height, position.win_mask)
        # the winning cells are one whole unbroken run of the winner's stones, of k or more,
        # through the last stone, along one direction
        anchor = last if last is not None else min(line)
        assert anchor in line
        assert len(line) >= board.k
        assert frozenset(line) in ref.runs_through(board, *anchor)
        assert any(set(cells) <= line for cells in ref.lines_of(board, winner))
        return True
    assert position.win_mask == 0
    if ref.is_full(board):
        assert outcome is not None
        assert outcome.winner is None and outcome.is_draw
        assert outcome.line == ()
        assert outcome.reason == "the board is full"
        return True
    assert outcome is None
    return False


def assert_same_state(
    g: Connect4Game,
    board: ref.Board,
    position: Connect4Position,
    last: tuple[int, int] | None = None,
) -> list[int]:
    """Every observable of the bitboard position agrees with the reference board.

    Returns the reference's legal columns (so callers need not ask for them again).
    """
    assert grid_of(position) == board.key()
    assert g.to_move(position) is PLAYER_OF[ref.side_to_move(board)]
    columns = ref.legal_columns(board)
    assert list(g.legal_moves(position)) == columns
    assert sorted(g.ordered_moves(position)) == columns
    plies = board.count(ref.X) + board.count(ref.O)
    assert g.ply(position) == position.plies == plies
    over = assert_same_outcome(g, board, position, last)
    assert over == (not columns)
    assert g.plies_left_bound(position) == (0 if over else board.count(ref.EMPTY))
    for c in range(board.width):  # can_play ignores whether the game is over
        assert g.can_play(position, c) == (board.cells[board.height - 1][c] == ref.EMPTY)
    return columns


# -- random games ----------------------------------------------------------------------------
RANDOM_BOARDS = [
    # width, height, k, games, seed
    (7, 6, 4, 1000, 76),
    (4, 4, 4, 1500, 44),
    (5, 4, 4, 1000, 54),
    (6, 5, 4, 600, 65),
    (8, 7, 4, 250, 87),  # 8 * (7 + 1) = 64 bits: the largest layout
    (9, 6, 4, 250, 96),  # 9 * (6 + 1) = 63 bits
    (4, 15, 4, 200, 415),  # 4 * 16 = 64 bits, tall
    (12, 4, 4, 200, 124),  # the widest board, 60 bits
    (10, 5, 4, 200, 105),
    (5, 4, 3, 600, 543),
    (6, 5, 3, 500, 653),
    (7, 6, 5, 250, 765),
    (8, 7, 5, 200, 875),
    (7, 6, 2, 300, 762),
    (6, 4, 6, 200, 646),  # only horizontal lines fit
]


@pytest.mark.parametrize(("width", "height", "k", "games", "seed"), RANDOM_BOARDS)
def test_random_games_match_reference(
    width: int, height: int, k: int, games: int, seed: int
) -> None:
    rng = random.Random(seed)
    g = game(width, height, k)
    endings = {Player.FIRST: 0, Player.SECOND: 0, None: 0}
    for _ in range(games):
        board = ref.new_board(width, height, k)
        position = g.initial()
        columns = assert_same_state(g, board, position)
        while columns:
            column = rng.choice(columns)
            last = (column, ref.landing_row(board, column))
            board = ref.drop(board, column)
            position = g.play(position, column)
            columns = assert_same_state(g, board, position, last)
        outcome = g.outcome(position)
        assert outcome is not None
        endings[outcome.winner] += 1
    assert sum(endings.values()) == games
    assert endings[Player.FIRST] > 0 and endings[Player.SECOND] > 0


# -- every reachable state -----------------------------------------------------------------
def walk_states(
    width: int, height: int, k: int, max_depth: int | None = None
) -> dict[ref.Grid, tuple[int, int, int]]:
    """Walk the game graph (up to ``max_depth`` plies) with both implementations side by side.

    Every distinct state is compared in full once, and rebuilt by ``from_bits``; every move
    (edge) is played on the bitboard position too and must land on the very same position
    value (boards and winning stones) as the other paths to that state. Returns the reached
    grids with the ``(first, second, win_mask)`` of their positions.
    """
    g = game(width, height, k)
    start = ref.new_board(width, height, k)
    seen: dict[ref.Grid, tuple[int, int, int]] = {start.key(): (0, 0, 0)}
    level = [(start, g.initial(), assert_same_state(g, start, g.initial()))]
    depth = 0
    while level and (max_depth is None or depth < max_depth):
        following = []
        for board, position, columns in level:
            for column in columns:
                child_position = g.play(position, column)
                child_board = ref.drop(board, column)
                grid = child_board.key()
                fields = (child_position.first, child_position.second, child_position.win_mask)
                if grid not in seen:
                    last = (column, ref.landing_row(board, column))
                    child_columns = assert_same_state(g, child_board, child_position, last)
                    rebuilt = g.from_bits(child_position.first, child_position.second)
                    assert (rebuilt.first, rebuilt.second, rebuilt.win_mask) == fields
                    seen[grid] = fields
                    following.append((child_board, child_position, child_columns))
                assert fields == seen[grid]
        level = following
        depth += 1
    return seen


def test_every_state_of_4x4_up_to_8_plies_matches_reference() -> None:
    seen = walk_states(4, 4, 4, max_depth=8)
    by_depth = Counter(sum(cell != ref.EMPTY for row in grid for cell in row) for grid in seen)
    assert [by_depth[d] for d in range(1, 3)] == [4, 16]
    counts = perft(game(4, 4, 4), max_depth=8)
    assert [by_depth[d] for d in range(9)] == list(counts.positions_by_depth)


def test_every_state_of_4x4_k3_matches_reference() -> None:
    seen = walk_states(4, 4, 3)
    assert len(seen) > 1000
    wins = [fields for fields in seen.values() if fields[2]]
    assert wins  # k = 3 on 4x4 is decided often


# -- from_bits -------------------------------------------------------------------------------
def gravity_grid(rng: random.Random, width: int, height: int) -> ref.Grid:
    """A random board obeying gravity (every column filled from the bottom), any colours."""
    columns = []
    for _ in range(width):
        filled = rng.randint(0, height)
        columns.append(
            [rng.choice((ref.X, ref.O)) for _ in range(filled)] + [ref.EMPTY] * (height - filled)
        )
    return tuple(tuple(columns[c][r] for c in range(width)) for r in range(height))


def plausible(board: ref.Board) -> bool:
    """The checks ``from_bits`` documents, on a gravity board, in the plainest terms."""
    nx, no = board.count(ref.X), board.count(ref.O)
    if nx not in (no, no + 1):
        return False
    x_lines, o_lines = ref.lines_of(board, ref.X), ref.lines_of(board, ref.O)
    if x_lines and o_lines:
        return False
    if not (x_lines or o_lines):
        return True
    stone = ref.X if x_lines else ref.O
    if (stone == ref.X) != (nx == no + 1):
        return False
    for c in range(board.width):
        rows = [r for r in range(board.height) if board.cells[r][c] != ref.EMPTY]
        if rows and board.cells[rows[-1]][c] == stone:
            before = board.copy()
            before.cells[rows[-1]][c] = ref.EMPTY
            if not ref.lines_of(before, stone):
                return True
    return False


@pytest.mark.parametrize(
    ("width", "height", "k", "seed"), [(4, 4, 3, 1), (5, 4, 4, 2), (7, 6, 4, 3)]
)
def test_from_bits_applies_its_documented_checks(
    width: int, height: int, k: int, seed: int
) -> None:
    rng = random.Random(seed)
    g = game(width, height, k)
    accepted = rejected = 0
    for _ in range(3000):
        grid = gravity_grid(rng, width, height)
        board = ref.board_from_grid(grid, k)
        first, second = bits_of(grid)
        if plausible(board):
            position = g.from_bits(first, second)
            accepted += 1
            assert grid_of(position) == grid
            assert_same_outcome(g, board, position, None)
        else:
            rejected += 1
            with pytest.raises(IllegalPositionError):
                g.from_bits(first, second)
    assert accepted > 50 and rejected > 50


def test_from_bits_messages() -> None:
    g = game(4, 4, 4)
    h = 4

    def rejects(first: int, second: int, *reasons: str) -> None:
        with pytest.raises(IllegalPositionError) as info:
            g.from_bits(first, second)
        assert type(info.value) is IllegalPositionError
        for reason in reasons:
            assert reason in str(info.value), str(info.value)

    rejects(bit(h, 0, 0), bit(h, 0, 0), "both players")
    rejects(bit(h, 0, 4), 0, "outside the board")  # the sentinel row
    rejects(0, 1 << 20, "outside the board")  # a fifth column
    rejects(-1, 0, "outside the board")
    rejects(bit(h, 1, 1), 0, "floats", "column 2")
    rejects(bit(h, 0, 0) | bit(h, 2, 3), bit(h, 3, 2), "floats", "columns 3, 4")
    rejects(bit(h, 0, 0) | bit(h, 1, 0), 0, "impossible stone counts", "has 2", "has 0")
    rejects(0, bit(h, 0, 0), "impossible stone counts", "has 0", "has 1")
    x_row = sum(bit(h, c, 0) for c in range(4))
    o_row = sum(bit(h, c, 1) for c in range(4))
    rejects(x_row | bit(h, 0, 2), o_row, "both players have a line")
    x_column = sum(bit(h, 0, r) for r in range(4))
    o_stones = bit(h, 1, 0) | bit(h, 2, 0) | bit(h, 3, 0) | bit(h, 1, 1)
    rejects(x_column, o_stones, "player 1 (x) has a line but did not move last")
    o_column = sum(bit(h, 0, r) for r in range(4))
    x_stones = bit(h, 1, 0) | bit(h, 2, 0) | bit(h, 3, 0) | bit(h, 1, 1) | bit(h, 2, 1)
    rejects(x_stones, o_column, "player 2 (o) has a line but did not move last")
    # x's bottom row is covered by o stones: the game ended before those were played
    buried = x_row | bit(h, 2, 1)
    o_over = bit(h, 0, 1) | bit(h, 1, 1) | bit(h, 3, 1) | bit(h, 2, 2)
    rejects(buried, o_over, "no legal game reaches this board", "player 1")
    for bad in (True, 1.0, "1"):
        with pytest.raises(IllegalPositionError, match="whole number"):
            g.from_bits(bad, 0)  # type: ignore[arg-type]


def test_from_bits_win_mask_is_the_whole_run() -> None:
    g = game(7, 6, 4)
    # x: 1 2 _ 4 5 on the bottom row, then x drops in column 3: five in a row
    position = g.initial()
    for column in [0, 0, 1, 1, 3, 3, 4, 4, 2]:
        position = g.play(position, column)
    assert {c for c, _ in g.outcome(position).line} == {0, 1, 2, 3, 4}  # type: ignore[union-attr]
    rebuilt = g.from_bits(position.first, position.second)
    assert rebuilt.win_mask == position.win_mask and rebuilt == position


# -- play, equality, protocol facts ---------------------------------------------------------
def test_play_errors() -> None:
    g = game(7, 6, 4)
    position = g.initial()
    for _ in range(6):
        position = g.play(position, 2)
    with pytest.raises(IllegalMoveError, match="move column 3: the column is full") as full:
        g.play(position, 2)
    assert type(full.value) is IllegalMoveError
    for column in (-1, 7, 100):
        with pytest.raises(IllegalMoveError, match="no such column") as off:
            g.play(position, column)
        assert type(off.value) is IllegalMoveError
        assert "1-7" in str(off.value)
    for bad in (True, 1.5, "3", None):
        with pytest.raises(IllegalMoveError, match="whole number"):
            g.play(position, bad)  # type: ignore[arg-type]
    won = g.initial()
    for column in [0, 1, 0, 1, 0, 1, 0]:
        won = g.play(won, column)
    assert g.outcome(won).winner is Player.FIRST  # type: ignore[union-attr]
    assert g.legal_moves(won) == () and g.ordered_moves(won) == ()
    for column in (3, 0, 99):
        with pytest.raises(GameOverError, match="already over") as over:
            g.play(won, column)
        assert f"move column {column + 1}" in str(over.value)
        assert "player 1 connects 4" in str(over.value)
    with pytest.raises(IllegalMoveError, match="whole number"):
        g.play(won, "x")  # type: ignore[arg-type]


def test_positions_are_frozen_values() -> None:
    g = game()
    a = g.play(g.play(g.play(g.initial(), 0), 3), 6)
    b = g.play(g.play(g.play(g.initial(), 6), 3), 0)
    assert a is not b and a == b and hash(a) == hash(b)
    assert g.key(a) == g.key(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.first = 0  # type: ignore[misc]
    before = (a.first, a.second, a.win_mask)
    g.play(a, 1)
    assert (a.first, a.second, a.win_mask) == before
    odd = Connect4Position(g.spec, a.first, a.second, win_mask=5)
    assert odd == a and hash(odd) == hash(a)
    assert game(7, 6, 4).initial() != game(7, 6, 5).initial()
    assert game(6, 7).initial() != game(7, 6).initial()
    assert str(a) == ".......\n" * 5 + "x..o..x"


def test_spec_game_and_registry() -> None:
    spec = make_spec()
    assert spec == Connect4Spec(7, 6, 4)
    assert (spec.cells, spec.stride, spec.label, spec.max_score) == (42, 7, "7x6", 21)
    assert make_spec(8, 7, 5).label == "8x7, k=5"
    g = get_game("connect4", (6, 5))
    assert isinstance(g, Connect4Game) and g == game(6, 5) and hash(g) == hash(game(6, 5))
    for alias in ("connect-four", "ConnectFour", " C4 "):
        assert get_game(alias) == game()
    assert g.name == "connect4" and repr(g) == "Connect4Game(6x5)"
    assert g.player_name(Player.FIRST) == "1" and g.player_name(Player.SECOND) == "2"
    assert g.move_to_json(0) == {"column": 1} and g.format_move(4) == "5"
    assert g.cell_of(8) == (1, 2)  # 6 rows + sentinel: bit 8 is column 1, row 2


@pytest.mark.parametrize(
    ("width", "height", "k"),
    [(4, 4, 2), (4, 4, 4), (8, 7, 8), (4, 15, 15), (12, 4, 12), (9, 6, 4), (10, 5, 4)],
)
def test_make_spec_accepts_the_limits(width: int, height: int, k: int) -> None:
    assert make_spec(width, height, k) == Connect4Spec(width, height, k)


@pytest.mark.parametrize(
    ("kwargs", "named", "reason"),
    [
        ({"width": 3}, "size 3x6", "at least 4"),
        ({"height": 3}, "size 7x3", "at least 4"),
        ({"width": 0, "height": 0}, "size 0x0", "at least 4"),
        ({"width": -4}, "size -4x6", "at least 4"),
        ({"width": 10, "height": 6}, "size 10x6", "70 must be at most 64"),
        ({"width": 8, "height": 8}, "size 8x8", "72 must be at most 64"),
        ({"width": 4, "height": 16}, "size 4x16", "68 must be at most 64"),
        ({"width": 13, "height": 4}, "size 13x4", "65 must be at most 64"),
        ({"width": 9, "height": 7}, "size 9x7", "72 must be at most 64"),
        ({"k": 1}, "k=1", "from 2 to 7"),
        ({"k": 0}, "k=0", "from 2 to 7"),
        ({"k": 8}, "k=8", "from 2 to 7"),
        ({"width": 4, "height": 5, "k": 6}, "k=6", "from 2 to 5"),
        ({"width": True}, "width=True", "whole number"),
        ({"height": False}, "height=False", "whole number"),
        ({"k": True}, "k=True", "whole number"),
        ({"width": 7.0}, "width=7.0", "whole number"),
        ({"height": "6"}, "height='6'", "whole number"),
        ({"k": 4.5}, "k=4.5", "whole number"),
    ],
)
def test_make_spec_rejects(kwargs: dict[str, Any], named: str, reason: str) -> None:
    with pytest.raises(ParameterError) as info:
        make_spec(**kwargs)
    assert named in str(info.value) and reason in str(info.value)
    assert isinstance(info.value, PerfectplayError)
    with pytest.raises(ParameterError):
        game(**kwargs)


# -- symmetry --------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "k"), [(7, 6, 4), (4, 4, 3), (8, 7, 4), (12, 4, 4)])
def test_mirror_canonical_form_and_map_move(width: int, height: int, k: int) -> None:
    rng = random.Random(width * 100 + height * 10 + k)
    g = game(width, height, k)
    assert [g.map_move(c, 0) for c in range(width)] == list(range(width))
    assert [g.map_move(c, 1) for c in range(width)] == list(range(width))[::-1]
    for _ in range(60):
        position = random_position(g, rng)
        grid = grid_of(position)
        mirror_bits = bits_of(ref.mirrored(grid))
        assert (g.mirror(position.first), g.mirror(position.second)) == mirror_bits
        assert g.mirror(g.mirror(position.first)) == position.first
        image = g.from_bits(*mirror_bits)
        assert (g.outcome(image) is None) == (g.outcome(position) is None)
        if image.win_mask:
            assert image.win_mask == g.mirror(position.win_mask)
        key, symmetry = g.canonical_form(position)
        assert key == g.canonical_key(position) == g.canonical_key(image)
        assert key == min(bits_of(grid), mirror_bits)
        assert key == (bits_of(grid) if symmetry == 0 else mirror_bits)
        canonical = g.from_bits(*key)
        moves = g.legal_moves(position)
        assert sorted(g.map_move(m, symmetry) for m in moves) == list(g.legal_moves(canonical))
        for move in moves:
            mapped = g.map_move(move, symmetry)
            assert g.unmap_move(mapped, symmetry) == move
            child = g.play(position, move)
            canonical_child = g.play(canonical, mapped)
            assert g.canonical_key(canonical_child) == g.canonical_key(child)
            expected = (
                child if symmetry == 0 else g.from_bits(*bits_of(ref.mirrored(grid_of(child))))
            )
            assert canonical_child == expected
            assert canonical_child.win_mask == expected.win_mask


# -- perft -----------------------------------------------------------------------------------
PERFT_ENTRIES: list[dict[str, Any]] = json.loads(PERFT_DATA.read_text())["entries"]


@pytest.mark.parametrize("entry", PERFT_ENTRIES, ids=lambda e: f"{e['width']}x{e['height']}")
def test_perft_matches_known_counts(entry: dict[str, Any]) -> None:
    g = game(entry["width"], entry["height"], entry["k"])
    counts = perft(g, max_depth=entry["max_depth"])
    assert list(counts.nodes_by_depth) == entry["nodes_by_depth"]
    assert list(counts.positions_by_depth) == entry["positions_by_depth"]


# -- scores ----------------------------------------------------------------------------------
def play_text(g: Connect4Game, columns: str) -> Connect4Position:
    position = g.initial()
    for char in columns:
        position = g.play(position, int(char) - 1)
    return position


def test_score_examples() -> None:
    g = game()
    win = play_text(g, "4455")  # x to move, wins with its 4th stone: 22 - 4
    assert g.score_of(win, 3, True) == 18
    assert g.plies_of(win, 18) == 3
    loss = play_text(g, "44455554221")  # o to move, loses to x's 7th stone: -(22 - 7)
    assert g.to_move(loss) is Player.SECOND
    assert g.score_of(loss, 2, False) == -15
    assert g.plies_of(loss, -15) == 2
    assert g.score_of(g.initial(), 1, True) == g.spec.max_score == 21


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (5, 4), (8, 7), (4, 15)])
def test_score_round_trip(width: int, height: int) -> None:
    g = game(width, height)
    rng = random.Random(width * height)
    for _ in range(30):
        position = random_position(g, rng)
        if g.outcome(position) is not None:
            continue
        empty = g.spec.cells - position.plies
        for plies in range(1, empty + 1):
            win = plies % 2 == 1  # the side to move plays the odd plies
            score = g.score_of(position, plies, win)
            assert (score > 0) == win and score != 0
            assert g.plies_of(position, score) == plies
            # the winner's stone count at the end decides the score
            mover_stones = (position.plies + (0 if win else 1)) // 2 + (plies + 1) // 2
            assert abs(score) == (g.spec.cells + 1) // 2 + 1 - mover_stones
