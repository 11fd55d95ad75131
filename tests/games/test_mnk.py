"""The bitboard m,n,k-game against the plain reference, plus the protocol and registry facts."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random

import pytest
from game_support import random_position
from reference import mnk_reference as ref

from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    IllegalPositionError,
    ParameterError,
    PerfectplayError,
    UnknownGameError,
)
from perfectplay.games.mnk.rules import Cell, MNKGame, MNKPosition, MNKSpec, game, make_spec
from perfectplay.games.protocol import Player
from perfectplay.games.registry import game_names, get_game

PLAYER_OF = {ref.X: Player.FIRST, ref.O: Player.SECOND}


# -- conversions between the two representations (bit index = row * cols + col) -------------
def grid_of(position: MNKPosition) -> ref.Grid:
    """The bitboard position as a reference grid."""
    spec = position.spec
    rows = []
    for r in range(spec.rows):
        row = []
        for c in range(spec.cols):
            bit = 1 << (r * spec.cols + c)
            row.append(ref.X if position.x & bit else ref.O if position.o & bit else ref.EMPTY)
        rows.append(tuple(row))
    return tuple(rows)


def bits_of(grid: ref.Grid) -> tuple[int, int]:
    """The ``(x, o)`` bitboards of a reference grid."""
    cols = len(grid[0])
    x = o = 0
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell == ref.X:
                x |= 1 << (r * cols + c)
            elif cell == ref.O:
                o |= 1 << (r * cols + c)
    return x, o


def with_stone(grid: ref.Grid, move: tuple[int, int], stone: str) -> ref.Grid:
    r, c = move
    return (*grid[:r], (*grid[r][:c], stone, *grid[r][c + 1 :]), *grid[r + 1 :])


def assert_same_state(g: MNKGame, board: ref.Board, position: MNKPosition) -> list[tuple[int, int]]:
    """Every observable of the bitboard position agrees with the reference board.

    Returns the reference's legal moves (so callers need not ask for them again).
    """
    assert grid_of(position) == board.key()
    assert g.to_move(position) is PLAYER_OF[ref.side_to_move(board)]
    moves = ref.legal_moves(board)
    legal = g.legal_moves(position)
    assert [tuple(m) for m in legal] == moves
    assert all(isinstance(m, Cell) for m in legal)
    assert sorted(g.ordered_moves(position)) == sorted(legal)
    assert g.ply(position) == board.count(ref.X) + board.count(ref.O)
    over = assert_same_outcome(g, board, position)
    assert over == (not moves)
    assert g.plies_left_bound(position) == (0 if over else board.count(ref.EMPTY))
    return moves


@functools.cache
def reference_lines(rows: int, cols: int, k: int) -> frozenset[tuple[tuple[int, int], ...]]:
    """The reference's lines, each as a sorted tuple of cells."""
    return frozenset(tuple(sorted(line)) for line in ref.all_lines(rows, cols, k))


def assert_same_outcome(g: MNKGame, board: ref.Board, position: MNKPosition) -> bool:
    """The bitboard outcome agrees with the reference; returns whether the game is over."""
    outcome = g.outcome(position)
    winner = ref.winner(board)
    if winner is not None:
        assert outcome is not None
        assert outcome.winner is PLAYER_OF[winner]
        assert not outcome.is_draw
        line = tuple(sorted(tuple(cell) for cell in outcome.line))
        assert line in reference_lines(board.rows, board.cols, board.k)
        assert all(board.cells[r][c] == winner for r, c in line)
        return True
    if ref.is_full(board):  # full and nobody has a line: the reference's draw
        assert outcome is not None
        assert outcome.winner is None
        assert outcome.is_draw
        assert outcome.line == ()
        return True
    assert outcome is None
    return False


# -- every reachable state -----------------------------------------------------------------
def walk_all_states(rows: int, cols: int, k: int) -> dict[ref.Grid, tuple[int, int, int]]:
    """Walk the whole game graph with both implementations side by side.

    Every distinct state is compared in full once; every move (edge) of the graph is played on
    the bitboard position too and must land on the state the reference reaches, as the very
    same position value (boards and winning line), so with the same outcome. Returns the
    reachable grids with the ``(x, o, win_mask)`` of their bitboard positions.
    """
    g = game(rows, cols, k)
    start = ref.new_board(rows, cols, k)
    seen: dict[ref.Grid, tuple[int, int, int]] = {start.key(): (0, 0, 0)}
    stack = [(start, start.key(), g.initial(), assert_same_state(g, start, g.initial()))]
    while stack:
        board, grid, position, moves = stack.pop()
        stone = ref.side_to_move(board)
        for move in moves:
            child_position = g.play(position, move)
            child_grid = with_stone(grid, move, stone)
            if child_grid not in seen:
                child = ref.play(board, move)
                assert child.key() == child_grid
                child_moves = assert_same_state(g, child, child_position)
                seen[child_grid] = (child_position.x, child_position.o, child_position.win_mask)
                stack.append((child, child_grid, child_position, child_moves))
            # the outcome is a function of these three fields (all checked when first seen)
            assert (child_position.x, child_position.o, child_position.win_mask) == seen[child_grid]
    return seen


@pytest.mark.parametrize(
    ("rows", "cols", "k", "states"),
    [
        (3, 3, 3, 5478),
        (1, 1, 1, 2),
        (2, 2, 1, 5),
        (2, 2, 2, 29),  # 1 + 4 + 12 + 12: any two x stones on 2x2 form a line
        (1, 5, 3, None),
        (3, 3, 2, None),
        (2, 3, 2, None),
        (3, 2, 2, None),
    ],
)
def test_every_reachable_state_matches_reference(
    rows: int, cols: int, k: int, states: int | None
) -> None:
    seen = walk_all_states(rows, cols, k)
    if states is not None:
        assert len(seen) == states


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3)])
def test_every_reachable_state_matches_reference_rectangles(rows: int, cols: int) -> None:
    seen = walk_all_states(rows, cols, 3)
    assert len(seen) == 111_973  # the same for both orientations: they are transposes


@pytest.mark.parametrize(
    ("rows", "cols", "k"),
    [(1, 1, 1), (2, 2, 1), (2, 2, 2), (1, 5, 3), (3, 3, 2), (3, 3, 3), (2, 3, 2), (1, 4, 4)],
)
def test_from_bits_accepts_exactly_the_reachable_boards(rows: int, cols: int, k: int) -> None:
    """Over every way of filling the board with x, o and empty, ``from_bits`` accepts exactly
    the boards that legal play reaches, as the same position with the same winning line."""
    g = game(rows, cols, k)
    reachable = walk_all_states(rows, cols, k)
    accepted = 0
    for cells in itertools.product((ref.X, ref.O, ref.EMPTY), repeat=rows * cols):
        grid = tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows))
        x, o = bits_of(grid)
        if grid in reachable:
            position = g.from_bits(x, o)
            accepted += 1
            assert (position.x, position.o, position.win_mask) == reachable[grid]
            assert_same_state(g, ref.board_from_rows(["".join(row) for row in grid], k), position)
        else:
            with pytest.raises(IllegalPositionError):
                g.from_bits(x, o)
    assert accepted == len(reachable)


def test_from_bits_rejects_overlap_and_stones_off_the_board() -> None:
    g = game(3, 3, 3)
    with pytest.raises(IllegalPositionError, match="both x and o"):
        g.from_bits(0b1, 0b1)
    with pytest.raises(IllegalPositionError, match="outside the board"):
        g.from_bits(1 << 9, 0)
    with pytest.raises(IllegalPositionError, match="outside the board"):
        g.from_bits(0b1, 1 << 12)


# -- random games on larger boards ---------------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "cols", "k", "games", "seed"),
    [(4, 4, 4, 2000, 44), (5, 5, 4, 1000, 554), (7, 6, 4, 500, 764), (15, 15, 5, 30, 15155)],
)
def test_random_games_match_reference(rows: int, cols: int, k: int, games: int, seed: int) -> None:
    rng = random.Random(seed)
    g = game(rows, cols, k)
    endings = {Player.FIRST: 0, Player.SECOND: 0, None: 0}
    for _ in range(games):
        board = ref.new_board(rows, cols, k)
        position = g.initial()
        while True:
            moves = ref.legal_moves(board)
            assert [tuple(m) for m in g.legal_moves(position)] == moves
            assert g.to_move(position) is PLAYER_OF[ref.side_to_move(board)]
            if not moves:
                break
            move = rng.choice(moves)
            board = ref.play(board, move)
            position = g.play(position, Cell(*move))
            assert grid_of(position) == board.key()
            assert_same_outcome(g, board, position)
        outcome = g.outcome(position)
        assert outcome is not None
        endings[outcome.winner] += 1
    assert sum(endings.values()) == games
    assert endings[Player.FIRST] > 0 and endings[Player.SECOND] > 0


# -- protocol facts --------------------------------------------------------------------------
def test_positions_are_frozen_hashable_values() -> None:
    g = game(3, 3, 3)
    a = g.play(g.play(g.play(g.initial(), (0, 0)), (1, 1)), (2, 2))
    b = g.play(g.play(g.play(g.initial(), (2, 2)), (1, 1)), (0, 0))
    assert a is not b
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert {a: "value"}[b] == "value"
    assert g.key(a) == g.key(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.win_mask = 7  # type: ignore[misc]
    # playing never changes the position played from
    before = (a.x, a.o, a.win_mask)
    g.play(a, (0, 1))
    assert (a.x, a.o, a.win_mask) == before


def test_equality_and_hash_ignore_win_mask_but_not_the_spec() -> None:
    g = game(3, 3, 3)
    won = g.from_bits(0b000_000_111, 0b000_011_000)
    assert won.win_mask == 0b111
    bare = MNKPosition(g.spec, won.x, won.o)
    odd = MNKPosition(g.spec, won.x, won.o, win_mask=0b100_100_100)
    assert won == bare == odd
    assert hash(won) == hash(bare) == hash(odd)
    assert len({won, bare, odd}) == 1
    assert game(3, 3, 2).initial() != game(3, 3, 3).initial()
    assert game(3, 4, 3).initial() != game(4, 3, 3).initial()


def test_play_after_the_end_raises_game_over() -> None:
    g = game(3, 3, 3)
    won = g.initial()
    for move in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        won = g.play(won, move)
    assert g.outcome(won) is not None and g.outcome(won).winner is Player.FIRST  # type: ignore[union-attr]
    assert g.legal_moves(won) == ()
    assert g.ordered_moves(won) == ()
    for move in [(2, 2), (0, 0), (5, 5)]:
        with pytest.raises(GameOverError, match="already over") as info:
            g.play(won, move)
        assert f"row {move[0] + 1}, column {move[1] + 1}" in str(info.value)
        assert "x has 3 in a row" in str(info.value)
        assert isinstance(info.value, IllegalMoveError)

    drawn = g.initial()
    for move in [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]:
        drawn = g.play(drawn, move)
    outcome = g.outcome(drawn)
    assert outcome is not None and outcome.is_draw
    with pytest.raises(GameOverError, match="board is full"):
        g.play(drawn, (0, 0))


def test_play_rejects_occupied_and_off_board_cells() -> None:
    g = game(3, 4, 3)
    position = g.play(g.initial(), (1, 2))
    with pytest.raises(IllegalMoveError, match="occupied") as occupied:
        g.play(position, (1, 2))
    assert type(occupied.value) is IllegalMoveError
    assert "row 2, column 3" in str(occupied.value)
    for move in [(-1, 0), (0, -1), (3, 0), (0, 4), (3, 4), (10, 10)]:
        with pytest.raises(IllegalMoveError, match="off the 4x3 board") as off:
            g.play(position, move)
        assert type(off.value) is IllegalMoveError
        assert f"row {move[0] + 1}, column {move[1] + 1}" in str(off.value)
    # a 1x1 board: the only cell is taken by the first move, which also wins for k = 1
    tiny = game(1, 1, 1)
    after = tiny.play(tiny.initial(), (0, 0))
    assert tiny.outcome(after) is not None
    with pytest.raises(GameOverError):
        tiny.play(after, (0, 0))


def test_cell_index_round_trip() -> None:
    g = game(4, 6, 3)
    for index in range(24):
        cell = g.cell(index)
        assert cell == Cell(index // 6, index % 6)
        assert g.index(cell) == index


# -- symmetry --------------------------------------------------------------------------------


def my_cell_permutations(rows: int, cols: int) -> set[tuple[int, ...]]:
    """The board's symmetries as cell permutations (``perm[cell]`` is where it goes), from the
    reference's grid transforms applied to a grid of cell labels."""
    labels = tuple(tuple(str(r * cols + c) for c in range(cols)) for r in range(rows))
    perms = set()
    for variant in ref.symmetric_grids(labels):
        assert (len(variant), len(variant[0])) == (rows, cols)
        perm = [0] * (rows * cols)
        for r, row in enumerate(variant):
            for c, label in enumerate(row):
                perm[int(label)] = r * cols + c
        perms.add(tuple(perm))
    return perms


SYMMETRY_BOARDS = [
    (3, 3, 3),
    (4, 4, 3),
    (5, 5, 4),
    (15, 15, 5),
    (3, 4, 3),
    (4, 3, 3),
    (2, 5, 2),
    (1, 4, 2),
    (7, 6, 4),
    (1, 1, 1),
    (2, 2, 2),
]


@pytest.mark.parametrize(("rows", "cols", "k"), SYMMETRY_BOARDS)
def test_canonical_key_is_invariant_under_every_symmetry(rows: int, cols: int, k: int) -> None:
    rng = random.Random(rows * 100 + cols * 10 + k)
    g = game(rows, cols, k)
    for _ in range(40):
        position = random_position(g, rng)
        grid = grid_of(position)
        variants = ref.symmetric_grids(grid)
        assert len(variants) == (8 if rows == cols else 4)
        keys = set()
        for variant in variants:
            x, o = bits_of(variant)
            image = g.from_bits(x, o)  # a symmetric image of a reachable board is reachable
            assert (g.outcome(image) is None) == (g.outcome(position) is None)
            keys.add(g.canonical_key(image))
        assert keys == {g.canonical_key(position)}
        # and the key is precisely the smallest (x, o) over the images
        assert g.canonical_key(position) == min(bits_of(v) for v in variants)


def test_canonical_key_separates_inequivalent_positions() -> None:
    g = game(3, 3, 3)
    corner, edge, centre = (g.play(g.initial(), m) for m in [(0, 0), (0, 1), (1, 1)])
    assert len({g.canonical_key(p) for p in (corner, edge, centre)}) == 3
    corners = [g.play(g.initial(), m) for m in [(0, 0), (0, 2), (2, 0), (2, 2)]]
    assert len({g.canonical_key(p) for p in corners}) == 1
    # a rectangle has no quarter turns: on 3x4 the cells (0, 1) and (1, 0) are not equivalent
    r = game(3, 4, 3)
    assert r.canonical_key(r.play(r.initial(), (0, 1))) != r.canonical_key(
        r.play(r.initial(), (1, 0))
    )
    assert r.canonical_key(r.play(r.initial(), (0, 1))) == r.canonical_key(
        r.play(r.initial(), (2, 2))
    )


def symmetry_count(g: MNKGame) -> int:
    """How many symmetry numbers ``map_move`` accepts (found by probing)."""
    count = 0
    while True:
        try:
            g.map_move(Cell(0, 0), count)
        except IndexError:
            return count
        count += 1


def image_bits(g: MNKGame, position: MNKPosition, symmetry: int) -> tuple[int, int]:
    """``(x, o)`` of the position with every stone moved by ``map_move``."""
    x = o = 0
    cols = g.spec.cols
    for index in range(g.spec.cells):
        target = g.map_move(g.cell(index), symmetry)
        bit = 1 << (target.row * cols + target.col)
        if position.x >> index & 1:
            x |= bit
        if position.o >> index & 1:
            o |= bit
    return x, o


@pytest.mark.parametrize(("rows", "cols", "k"), SYMMETRY_BOARDS)
def test_map_move_is_the_symmetry_group_and_unmap_inverts_it(rows: int, cols: int, k: int) -> None:
    g = game(rows, cols, k)
    count = symmetry_count(g)
    perms = set()
    for symmetry in range(count):
        perm = []
        for index in range(rows * cols):
            cell = g.cell(index)
            mapped = g.map_move(cell, symmetry)
            assert isinstance(mapped, Cell)
            assert 0 <= mapped.row < rows and 0 <= mapped.col < cols
            assert g.unmap_move(mapped, symmetry) == cell
            assert g.map_move(g.unmap_move(cell, symmetry), symmetry) == cell
            perm.append(g.index(mapped))
        assert sorted(perm) == list(range(rows * cols))
        perms.add(tuple(perm))
    assert len(perms) == count  # no symmetry listed twice
    assert perms == my_cell_permutations(rows, cols)
    assert g.map_move(Cell(0, 0), 0) == Cell(0, 0)  # identity first


@pytest.mark.parametrize(("rows", "cols", "k"), SYMMETRY_BOARDS)
def test_canonical_form_and_move_mapping_are_consistent(rows: int, cols: int, k: int) -> None:
    rng = random.Random(7 * rows + 11 * cols + k)
    g = game(rows, cols, k)
    for _ in range(15):
        position = random_position(g, rng)
        key, symmetry = g.canonical_form(position)
        assert key == g.canonical_key(position)
        assert image_bits(g, position, symmetry) == key
        canonical = g.from_bits(*key)
        assert g.canonical_key(canonical) == key
        assert g.to_move(canonical) is g.to_move(position)
        assert (g.outcome(canonical) is None) == (g.outcome(position) is None)
        moves = g.legal_moves(position)
        assert sorted(g.map_move(m, symmetry) for m in moves) == sorted(g.legal_moves(canonical))
        for move in moves[:6]:
            child = g.play(position, move)
            mapped = g.map_move(move, symmetry)
            assert g.unmap_move(mapped, symmetry) == move
            canonical_child = g.play(canonical, mapped)
            assert g.key(canonical_child) == image_bits(g, child, symmetry)
            assert g.canonical_key(canonical_child) == g.canonical_key(child)
            assert g.canonical_form(canonical_child)[0] == g.canonical_form(child)[0]
            assert (g.outcome(canonical_child) is None) == (g.outcome(child) is None)
        for canonical_move in g.legal_moves(canonical)[:6]:
            move = g.unmap_move(canonical_move, symmetry)
            assert move in moves
            assert g.key(g.play(canonical, canonical_move)) == image_bits(
                g, g.play(position, move), symmetry
            )


# -- spec and registry -----------------------------------------------------------------------
def test_make_spec_defaults() -> None:
    assert make_spec() == MNKSpec(3, 3, 3)
    assert make_spec(4) == MNKSpec(4, 4, 4)
    assert make_spec(3, 5) == MNKSpec(3, 5, 3)
    assert make_spec(6, 2) == MNKSpec(6, 2, 2)
    assert make_spec(7, 6, 4) == MNKSpec(7, 6, 4)
    assert make_spec(3, 4, 4) == MNKSpec(3, 4, 4)  # k may reach the longer side
    assert make_spec(15, 15, 15) == MNKSpec(15, 15, 15)
    assert make_spec(1) == MNKSpec(1, 1, 1)
    spec = make_spec(4, 5, 3)
    assert spec.cells == 20
    assert spec.label == "5x4, k=3"  # width x height: 5 columns, 4 rows
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.k = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"rows": 0}, "rows=0"),
        ({"rows": 21}, "rows=21"),
        ({"rows": -3}, "rows=-3"),
        ({"rows": 3, "cols": 0}, "cols=0"),
        ({"rows": 3, "cols": 21}, "cols=21"),
        ({"rows": 3, "k": 0}, "k=0"),
        ({"rows": 3, "k": 4}, "k=4"),
        ({"rows": 3, "cols": 4, "k": 5}, "k=5"),
        ({"rows": 15, "k": 16}, "k=16"),
        ({"rows": True}, "rows=True"),
        ({"rows": 3, "cols": True}, "cols=True"),
        ({"rows": 3, "k": True}, "k=True"),
        ({"rows": 3, "k": False}, "k=False"),
        ({"rows": 3.0}, "rows=3.0"),
        ({"rows": "3"}, "rows='3'"),
        ({"rows": 3, "k": 2.5}, "k=2.5"),
    ],
)
def test_make_spec_rejects_out_of_range_parameters(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(ParameterError) as info:
        make_spec(**kwargs)  # type: ignore[arg-type]
    message = str(info.value)
    assert named in message
    assert "must be a whole number" in message
    assert isinstance(info.value, PerfectplayError) and isinstance(info.value, ValueError)


def test_registry_builds_tictactoe() -> None:
    four = get_game("tictactoe", (4, 4), k=4)
    assert isinstance(four, MNKGame)
    assert four.spec == MNKSpec(4, 4, 4)
    assert four == game(4, 4, 4) and hash(four) == hash(game(4, 4, 4))
    assert get_game("tictactoe").spec == MNKSpec(3, 3, 3)
    assert get_game("tictactoe", (5, 3)).spec == MNKSpec(3, 5, 3)  # width x height
    for alias in ["mnk", "ttt", "tic-tac-toe", "TicTacToe", "  TTT ", "MNK"]:
        assert get_game(alias, (4, 4), k=4) == four
    assert "tictactoe" in game_names()
    assert four.name == "tictactoe"
    with pytest.raises(ParameterError, match="rows=0"):
        get_game("ttt", (0, 0))
    with pytest.raises(ParameterError, match="k=9"):
        get_game("mnk", (4, 4), k=9)


@pytest.mark.parametrize("name", ["chess", "", "tic tac toe", "connect4x"])
def test_unknown_game_names_the_known_games(name: str) -> None:
    with pytest.raises(UnknownGameError) as info:
        get_game(name)
    message = str(info.value)
    assert repr(name) in message
    assert "unknown" in message
    for known in game_names():
        assert known in message
    assert isinstance(info.value, PerfectplayError)


def test_game_names_and_players() -> None:
    g = game(3, 3, 3)
    assert g.player_name(Player.FIRST) == "x" and g.player_name(Player.SECOND) == "o"
    assert Player.FIRST.other is Player.SECOND and Player.SECOND.other is Player.FIRST
    assert g.move_to_json(Cell(1, 2)) == {"row": 2, "col": 3}  # from 1
    assert g.format_move(Cell(2, 0)) == "a3"
    assert repr(g) == "MNKGame(3x3, k=3)"


@pytest.mark.parametrize(
    ("rows", "cols", "k"), [(3, 3, 3), (4, 3, 3), (8, 8, 8), (14, 14, 14), (15, 15, 5), (10, 15, 5)]
)
def test_the_default_k_is_the_shorter_side_and_five_on_gomoku_boards(
    rows: int, cols: int, k: int
) -> None:
    """Issue 15, item 8: a 15x15 board defaulted to k=15."""
    assert make_spec(rows, cols).k == k
