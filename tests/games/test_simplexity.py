"""The bitboard shape-and-color game against the plain reference: the rules file's examples,
quotas, shape beats color, draws, random games with illegal proposals, every small state,
``from_bits``, the mirror, and both heuristics."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from game_support import random_position
from reference import simplexity_reference as ref

from perfectplay.errors import GameOverError, IllegalMoveError, IllegalPositionError
from perfectplay.games.protocol import Player
from perfectplay.games.registry import get_game
from perfectplay.games.simplexity.heuristics import (
    COLOR_WEIGHTS,
    EVALUATION_BOUND,
    SHAPE_WEIGHTS,
    evaluate,
)
from perfectplay.games.simplexity.rules import (
    SimplexityGame,
    SimplexityMove,
    SimplexityPosition,
    SimplexitySpec,
    game,
)

PLAYER = {1: Player.FIRST, 2: Player.SECOND}


# -- conversions between the two representations (bit = column * (rows + 1) + row) ----------
def bit(rows: int, column: int, row: int) -> int:
    """The bit of a cell, from the layout drawn in the module docstring."""
    return 1 << (column * (rows + 1) + row)


def grid_of(position: SimplexityPosition) -> ref.Grid:
    """The bitboard position as a reference grid (bottom row first)."""
    rows, cols = position.spec.rows, position.spec.cols
    grid = []
    for r in range(rows):
        row: list[ref.Cell] = []
        for c in range(cols):
            b = bit(rows, c, r)
            if not position.mask & b:
                row.append(None)
                continue
            shape = ref.O if position.circles & b else ref.X
            color = ref.RED if position.red & b else ref.BLUE
            row.append(ref.Piece(shape, color))
        grid.append(tuple(row))
    return tuple(grid)


def bits_of(grid: ref.Grid) -> tuple[int, int, int]:
    """The ``(red, blue, circles)`` bitboards of a reference grid."""
    rows = len(grid)
    red = blue = circles = 0
    for r, row in enumerate(grid):
        for c, piece in enumerate(row):
            if piece is None:
                continue
            b = bit(rows, c, r)
            if piece.color == ref.RED:
                red |= b
            else:
                blue |= b
            if piece.shape == ref.O:
                circles |= b
    return red, blue, circles


def mirrored(grid: ref.Grid) -> ref.Grid:
    """The grid reflected left to right."""
    return tuple(tuple(reversed(row)) for row in grid)


def picture(rows: int, cols: int, *columns: str) -> ref.Grid:
    """A grid from columns written bottom-up as two-letter pieces: ``"rO bX"`` is a red O
    with a blue X on top of it (columns not given are empty)."""
    cells: list[list[ref.Cell]] = [[None] * cols for _ in range(rows)]
    for c, text in enumerate(columns):
        for r, piece in enumerate(text.split()):
            color = ref.RED if piece[0] == "r" else ref.BLUE
            cells[r][c] = ref.Piece(piece[1], color)
    return tuple(tuple(row) for row in cells)


def moves_of(text: str) -> list[SimplexityMove]:
    """``"1O 7X"`` as moves (1-based columns in the text)."""
    return [SimplexityMove(int(m[:-1]) - 1, m[-1]) for m in text.split()]


def play_all(g: SimplexityGame, text: str) -> SimplexityPosition:
    position = g.initial()
    for move in moves_of(text):
        position = g.play(position, move)
    return position


def reference_after(rows: int, cols: int, text: str) -> ref.Game:
    board = ref.Game(rows, cols)
    for move in moves_of(text):
        board.play(move.column, move.shape)
    return board


# -- comparison with the reference -----------------------------------------------------------
def assert_same_state(
    g: SimplexityGame,
    board: ref.Game,
    position: SimplexityPosition,
    last: tuple[int, int] | None = None,
) -> list[tuple[int, str]]:
    """Every observable of the position agrees with the reference game; ``last`` is the
    (column, row) of the last piece. Returns the reference's legal moves."""
    assert grid_of(position) == board.grid()
    assert g.to_move(position) is PLAYER[board.to_move]
    moves = board.legal_moves()
    assert [tuple(m) for m in g.legal_moves(position)] == moves
    assert sorted(tuple(m) for m in g.ordered_moves(position)) == sorted(moves)
    assert g.ply(position) == position.plies == board.pieces_played
    for player in (1, 2):
        for shape in ref.SHAPES:
            left = g.quota_left(position, PLAYER[player], shape)
            assert left == board.quotas[player][shape]
    assert g.shapes_left(position) == tuple(
        s for s in ref.SHAPES if board.quotas[board.to_move][s] > 0
    )
    outcome = g.outcome(position)
    assert (outcome is not None) == board.over
    assert g.plies_left_bound(position) == (
        0 if board.winner else board.rows * board.cols - board.pieces_played
    )
    if outcome is None:
        assert position.win_mask == 0
    elif board.winner is None:
        assert outcome.winner is None and outcome.line == () and position.win_mask == 0
        assert outcome.reason == "the board is full"
    else:
        assert outcome.winner is PLAYER[board.winner]
        assert_deciding_line(board, outcome.line, outcome.reason, last)
    return moves


def assert_deciding_line(
    board: ref.Game, line: tuple[tuple[int, int], ...], reason: str, last: tuple[int, int] | None
) -> None:
    """The outcome's cells are a run of 4 or more through the last piece, all of one shape
    (when a shape four exists) or one color, and the reason names it."""
    shape_fours, color_fours = ref.fours(board.cells, board.rows, board.cols)
    cells = set(line)
    assert len(cells) >= 4
    if last is not None:
        assert last in cells
    pieces = [board.cells[r][c] for c, r in cells]
    assert all(p is not None for p in pieces)
    if shape_fours:
        shapes = {p.shape for p in pieces if p is not None}
        assert len(shapes) == 1
        assert reason == f"four {shapes.pop()} shapes: player {board.winner} wins"
        assert any(set(w) <= cells for w in shape_fours)
    else:
        colors = {p.color for p in pieces if p is not None}
        assert len(colors) == 1
        assert reason == f"four {colors.pop()} pieces: player {board.winner} wins"
        assert any(set(w) <= cells for w in color_fours)


# -- the rules file's examples and the surprising rules --------------------------------------
def test_worked_example_one_shape_four_of_o() -> None:
    g = game()
    before = play_all(g, "1O 7X 2O 7X 3O 6X")
    assert g.outcome(before) is None
    won = g.play(before, SimplexityMove(3, "O"))
    outcome = g.outcome(won)
    assert outcome is not None and outcome.winner is Player.FIRST
    assert outcome.reason == "four O shapes: player 1 wins"  # shape first; also a red four
    assert set(outcome.line) == {(0, 0), (1, 0), (2, 0), (3, 0)}
    assert reference_after(6, 7, "1O 7X 2O 7X 3O 6X 4O").winner == 1
    assert g.legal_moves(won) == ()


def test_worked_example_two_red_crosses_win_for_player_2() -> None:
    g = game()
    before = play_all(g, "1X 7O 2X 7O 3X 7O")
    assert g.outcome(before) is None
    won = g.play(before, SimplexityMove(3, "X"))
    outcome = g.outcome(won)
    assert outcome is not None and outcome.winner is Player.SECOND  # a red four, yet X's
    assert outcome.reason == "four X shapes: player 2 wins"
    assert g.to_move(won) is Player.SECOND  # the side to move has won
    assert reference_after(6, 7, "1X 7O 2X 7O 3X 7O 4X").winner == 2
    assert g.finished_score(won) > 0


def test_opponent_shape_four_beats_own_color_four_on_another_line() -> None:
    # Red to move. Row 4 (index 3) holds red O X O in columns 1-3; column 4 holds three X
    # below it. A red X in column 4 lands on row 4: it completes red's color four across the
    # row and an X shape four up column 4. The shape decides: player 2 wins.
    grid = picture(
        6,
        7,
        "bX rX bO rO",
        "bX rO rX rX",
        "rO bX bO rO",
        "bX rX bX",
        "bX",
    )
    g = game()
    red, blue, circles = bits_of(grid)
    before = g.from_bits(red, blue, circles)
    assert g.outcome(before) is None and g.to_move(before) is Player.FIRST
    after = g.play(before, SimplexityMove(3, "X"))
    board = ref.Game(6, 7)
    board.cells = [list(row) for row in grid]
    assert ref.fours(board.cells, 6, 7) == ([], [])
    board.pieces_played, board.quotas = before.plies, reference_quotas(g, before)
    board.play(3, "X")
    shape_fours, color_fours = ref.fours(board.cells, 6, 7)
    assert shape_fours == [((3, 0), (3, 1), (3, 2), (3, 3))]
    assert color_fours == [((0, 3), (1, 3), (2, 3), (3, 3))]
    assert board.winner == 2
    outcome = g.outcome(after)
    assert outcome is not None and outcome.winner is Player.SECOND
    assert outcome.reason == "four X shapes: player 2 wins"
    assert set(outcome.line) == {(3, 0), (3, 1), (3, 2), (3, 3)}
    # The same red piece as an O completes only red's color four: player 1 wins.
    own = g.outcome(g.play(before, SimplexityMove(3, "O")))
    assert own is not None and own.winner is Player.FIRST
    assert own.reason == "four red pieces: player 1 wins"


def reference_quotas(g: SimplexityGame, position: SimplexityPosition) -> dict[int, dict[str, int]]:
    return {p: {s: g.quota_left(position, PLAYER[p], s) for s in ref.SHAPES} for p in (1, 2)}


def find_game(
    rows: int, cols: int, seed: int, wanted: str, tries: int = 20_000
) -> list[tuple[int, str]]:
    """A random game of the reference that ends as ``wanted``: ``draw`` (full board, no
    four) or ``last`` (won by the piece that fills the board)."""
    rng = random.Random(seed)
    for _ in range(tries):
        board = ref.Game(rows, cols)
        moves = []
        while not board.over:
            move = rng.choice(board.legal_moves())
            moves.append(move)
            board.play(*move)
        full = board.pieces_played == rows * cols
        if full and (board.winner is None) == (wanted == "draw"):
            return moves
    raise AssertionError(f"no {wanted} game found")


DRAWN_6X7 = (
    "6O 3X 5X 5X 6X 4O 5O 5X 2O 7X 4O 2X 2X 4X 4X 5X 2O 2O 3O 3O 1O 5O 4O 2O 6X 1O 4X 7O 7X "
    "6O 3O 3X 3O 7O 7X 1X 7O 1O 1X 6X 1X 6X"
)
"""A 7x6 game that fills the board without a four (found by a local search; random play
almost never draws on 7x6)."""


def assert_drawn(g: SimplexityGame, moves: list[SimplexityMove]) -> None:
    position = g.initial()
    for move in moves:
        assert g.outcome(position) is None
        position = g.play(position, move)
    outcome = g.outcome(position)
    assert outcome is not None and outcome.winner is None and outcome.is_draw
    assert outcome.reason == "the board is full" and position.plies == g.spec.cells
    assert g.legal_moves(position) == () and g.plies_left_bound(position) == 0
    assert g.finished_score(position) == 0
    rebuilt = g.from_bits(position.red, position.blue, position.circles)
    assert rebuilt == position and g.outcome(rebuilt) == outcome


def test_full_7x6_board_without_four_is_a_draw() -> None:
    assert_drawn(game(), moves_of(DRAWN_6X7))
    assert reference_after(6, 7, DRAWN_6X7).winner is None


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (2, 4), (3, 6), (4, 5)])
def test_full_board_without_four_is_a_draw(rows: int, cols: int) -> None:
    moves = [SimplexityMove(*m) for m in find_game(rows, cols, rows * cols, "draw")]
    assert_drawn(game(rows, cols), moves)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 4), (4, 5), (4, 6)])
def test_the_last_piece_can_still_win(rows: int, cols: int) -> None:
    g = game(rows, cols)
    moves = find_game(rows, cols, 7, "last")
    position = g.initial()
    for move in moves[:-1]:
        position = g.play(position, move)
    assert g.outcome(position) is None and position.plies == rows * cols - 1
    last = g.play(position, moves[-1])
    outcome = g.outcome(last)
    assert outcome is not None and outcome.winner is not None
    assert last.plies == rows * cols


# -- quotas ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "cols", "own", "other"),
    [(6, 7, 11, 10), (4, 4, 4, 4), (2, 3, 2, 1), (5, 6, 8, 7), (6, 6, 9, 9), (1, 2, 1, 0)],
)
def test_quotas_at_the_start(rows: int, cols: int, own: int, other: int) -> None:
    g = game(rows, cols)
    start = g.initial()
    assert ref.quotas_at_start(rows, cols) == {1: {"O": own, "X": other}, 2: {"O": other, "X": own}}
    assert g.quota_left(start, Player.FIRST, "O") == own
    assert g.quota_left(start, Player.FIRST, "X") == other
    assert g.quota_left(start, Player.SECOND, "X") == own
    assert g.quota_left(start, Player.SECOND, "O") == other
    assert (g.spec.own_quota, g.spec.other_quota) == (own, other)
    assert g.shapes_left(start) == (("O", "X") if other else ("O",))


def test_an_exhausted_shape_is_rejected_by_name() -> None:
    g = game(2, 3)  # each player: 2 of its own shape, 1 of the other
    position = play_all(g, "1X 1O")
    assert g.shapes_left(position) == ("O",)
    assert [str(m) for m in g.legal_moves(position)] == ["2O", "3O"]
    with pytest.raises(IllegalMoveError) as info:
        g.play(position, SimplexityMove(1, "X"))
    assert type(info.value) is IllegalMoveError
    assert str(info.value) == "move 2X: player 1 (red) has no X pieces left (quota 1)"
    position = g.play(position, SimplexityMove(1, "O"))
    with pytest.raises(IllegalMoveError, match=r"move 3O: player 2 \(blue\) has no O pieces"):
        g.play(position, SimplexityMove(2, "O"))


def test_ten_crosses_then_no_more() -> None:
    g = game()
    # Player 1 plays its 10 X pieces spread so that no four forms, player 2 its O pieces.
    text = "1X 1O 2X 2O 3X 3O 5X 5O 6X 6O 7X 7O 1X 1O 2X 2O 3X 3O 5X 5O"
    position = play_all(g, text)
    assert g.outcome(position) is None
    assert g.quota_left(position, Player.FIRST, "X") == 0
    assert g.shapes_left(position) == ("O",)
    assert all(m.shape == "O" for m in g.legal_moves(position))
    with pytest.raises(IllegalMoveError, match="has no X pieces left"):
        g.play(position, SimplexityMove(3, "X"))


# -- random games against the reference ------------------------------------------------------
RANDOM_BOARDS = [
    # rows, cols, games, seed
    (6, 7, 1200, 67),
    (4, 4, 1000, 44),
    (5, 4, 300, 54),
    (4, 6, 300, 46),
    (6, 6, 200, 66),
    (2, 5, 200, 25),
    (7, 8, 100, 78),  # 8 * (7 + 1) = 64 bits: the largest layout
    (6, 1, 100, 61),  # one column: only vertical fours
]


def propose(rng: random.Random, cols: int) -> tuple[int, str]:
    """A proposal that is often illegal: columns from -1 to cols, shapes O, X and Z."""
    return rng.randint(-1, cols), rng.choice(("O", "X", "O", "X", "Z"))


def check_proposal(
    g: SimplexityGame, board: ref.Game, position: SimplexityPosition, move: tuple[int, str]
) -> SimplexityPosition | None:
    """Both implementations accept ``move`` or both reject it (with the same reason).
    Returns the position after an accepted move (the reference has played it too)."""
    try:
        board.check(*move)
    except ref.IllegalMove as refused:
        with pytest.raises(IllegalMoveError) as info:
            g.play(position, move)
        message = str(info.value)
        expected = {
            "over": "the game is already over",
            "shape": "the shape is 'O' or 'X'",
            "column": "no such column",
            "full": "is full",
            "quota": f"no {move[1]} pieces left",
        }[refused.kind]
        assert expected in message, (refused.kind, message)
        assert (type(info.value) is GameOverError) == (refused.kind == "over")
        return None
    after = g.play(position, move)
    board.play(*move)
    return after


@pytest.mark.parametrize(("rows", "cols", "games", "seed"), RANDOM_BOARDS)
def test_random_games_with_illegal_proposals_match_reference(
    rows: int, cols: int, games: int, seed: int
) -> None:
    rng = random.Random(seed)
    g = game(rows, cols)
    endings: Counter[int | None] = Counter()
    rejected = 0
    for _ in range(games):
        board = ref.Game(rows, cols)
        position = g.initial()
        moves = assert_same_state(g, board, position)
        while moves:
            if rng.random() < 0.3:
                proposal = propose(rng, cols)
                after = check_proposal(g, board, position, proposal)
                if after is None:
                    rejected += 1
                    continue
            else:
                proposal = rng.choice(moves)
                after = check_proposal(g, board, position, proposal)
                assert after is not None
            column = proposal[0]
            last = (column, max(r for r in range(rows) if board.cells[r][column] is not None))
            position = after
            moves = assert_same_state(g, board, position, last)
        for _ in range(3):  # after the end: everything is refused
            assert check_proposal(g, board, position, propose(rng, cols)) is None
        endings[board.winner] += 1
    assert sum(endings.values()) == games and rejected > games
    if rows * cols >= 16:
        assert endings[1] and endings[2]


def test_random_games_cover_shape_beats_color() -> None:
    """In random 7x6 games, moves completing an opponent-shape four and an own-color four at
    once do happen; each is decided for the opponent, as the reference says."""
    rng = random.Random(2024)
    g = game()
    seen = 0
    for _ in range(3000):
        board, position = ref.Game(6, 7), g.initial()
        while not board.over:
            move = rng.choice(board.legal_moves())
            mover = board.to_move
            board.play(*move)
            position = g.play(position, move)
            shape_fours, color_fours = ref.fours(board.cells, 6, 7)
            if shape_fours and color_fours and board.winner != mover:
                seen += 1
                outcome = g.outcome(position)
                assert board.winner is not None  # four shapes and four colors: a winner
                assert outcome is not None and outcome.winner is PLAYER[board.winner]
                assert outcome.reason.startswith("four " + move[1])
        if seen >= 3:
            break
    assert seen >= 3


# -- every reachable state of tiny boards ----------------------------------------------------
def walk_states(rows: int, cols: int, max_depth: int | None = None) -> int:
    """Walk the game graph with both implementations side by side; every distinct state is
    compared in full and rebuilt by ``from_bits``; every edge must land on the same position
    value as the other paths to its state. Returns the number of states."""
    g = game(rows, cols)
    start = ref.Game(rows, cols)
    seen: dict[ref.Grid, tuple[int, int, int, int]] = {start.grid(): (0, 0, 0, 0)}
    level = [(start, g.initial(), assert_same_state(g, start, g.initial()))]
    depth = 0
    while level and (max_depth is None or depth < max_depth):
        following = []
        for board, position, moves in level:
            for move in moves:
                child = g.play(position, move)
                child_board = board.copy()
                landed = child_board.play(*move)
                fields = (child.red, child.blue, child.circles, child.win_mask)
                grid = child_board.grid()
                if grid not in seen:
                    child_moves = assert_same_state(g, child_board, child, landed)
                    rebuilt = g.from_bits(child.red, child.blue, child.circles)
                    assert (rebuilt.red, rebuilt.blue, rebuilt.circles, rebuilt.win_mask) == fields
                    seen[grid] = fields
                    following.append((child_board, child, child_moves))
                assert fields == seen[grid]
        level = following
        depth += 1
    return len(seen)


def test_every_state_of_2x4() -> None:
    assert walk_states(2, 4) > 1000


def test_every_state_of_4x4_up_to_4_pieces() -> None:
    assert walk_states(4, 4, max_depth=4) > 1000


# -- from_bits -------------------------------------------------------------------------------
def gravity_grid(rng: random.Random, rows: int, cols: int, fill: float) -> ref.Grid:
    """A random board obeying gravity, with any pieces (colors drawn to keep counts close)."""
    heights = [min(rows, int(rng.random() * (rows + 1) * fill * 2)) for _ in range(cols)]
    cells = [
        [None if r >= heights[c] else random_piece(rng) for c in range(cols)] for r in range(rows)
    ]
    return tuple(tuple(row) for row in cells)


def random_piece(rng: random.Random) -> ref.Piece:
    return ref.Piece(rng.choice(ref.SHAPES), rng.choice((ref.RED, ref.BLUE)))


def plausible(rows: int, cols: int, grid: ref.Grid) -> bool:
    """``from_bits``'s documented checks on a gravity board, in the plainest terms: red has as
    many pieces as blue or one more, no quota exceeded, and either no four at all or a top
    piece of the last mover's color whose removal leaves no four."""
    pieces = [p for row in grid for p in row if p is not None]
    n_red = sum(p.color == ref.RED for p in pieces)
    n_blue = len(pieces) - n_red
    if n_red not in (n_blue, n_blue + 1):
        return False
    start = ref.quotas_at_start(rows, cols)
    for player, color in ref.COLOR_OF_PLAYER.items():
        for shape in ref.SHAPES:
            used = sum(p.color == color and p.shape == shape for p in pieces)
            if used > start[player][shape]:
                return False
    cells = [list(row) for row in grid]
    if ref.fours(cells, rows, cols) == ([], []):
        return True
    last = ref.RED if n_red > n_blue else ref.BLUE
    for c in range(cols):
        filled = [r for r in range(rows) if cells[r][c] is not None]
        if not filled:
            continue
        top = filled[-1]
        piece = cells[top][c]
        if piece is not None and piece.color == last:
            cells[top][c] = None
            clean = ref.fours(cells, rows, cols) == ([], [])
            cells[top][c] = piece
            if clean:
                return True
    return False


@pytest.mark.parametrize(("rows", "cols", "seed"), [(4, 4, 1), (6, 7, 2), (4, 5, 3), (2, 6, 4)])
def test_from_bits_applies_its_documented_checks(rows: int, cols: int, seed: int) -> None:
    rng = random.Random(seed)
    g = game(rows, cols)
    accepted = rejected = 0
    for _ in range(2500):
        grid = gravity_grid(rng, rows, cols, rng.random())
        red, blue, circles = bits_of(grid)
        if plausible(rows, cols, grid):
            accepted += 1
            position = g.from_bits(red, blue, circles)
            assert grid_of(position) == grid
            winner = ref.decide([list(r) for r in grid], rows, cols)
            outcome = g.outcome(position)
            if winner is not None:
                assert outcome is not None and outcome.winner is PLAYER[winner]
            else:
                assert position.win_mask == 0
        else:
            rejected += 1
            with pytest.raises(IllegalPositionError):
                g.from_bits(red, blue, circles)
    assert accepted > 30 and rejected > 30


def test_from_bits_messages() -> None:
    g = game(4, 4)
    h = 4

    def rejects(red: int, blue: int, circles: int, *reasons: str) -> None:
        with pytest.raises(IllegalPositionError) as info:
            g.from_bits(red, blue, circles)
        for reason in reasons:
            assert reason in str(info.value), str(info.value)

    b00, b10, b20, b30 = (bit(h, c, 0) for c in range(4))
    rejects(b00, b00, 0, "both colors")
    rejects(bit(h, 0, 4), 0, 0, "outside the board")  # the sentinel row
    rejects(b00, 0, b10, "outside the board")  # a circle on an empty cell
    rejects(-1, 0, 0, "whole number")
    rejects(True, 0, 0, "whole number")
    rejects(bit(h, 1, 1), 0, 0, "floats", "column 2")
    rejects(b00 | b10, 0, 0, "impossible piece counts", "red (player 1) has 2", "has 0")
    rejects(0, b00, 0, "impossible piece counts")
    # 2x2 quotas: each player has 1 O and 1 X
    small = game(2, 2)
    s00, s10, s01, s11 = bit(2, 0, 0), bit(2, 1, 0), bit(2, 0, 1), bit(2, 1, 1)
    with pytest.raises(IllegalPositionError, match=r"player 1 \(red\) has 2 O pieces but only 1"):
        small.from_bits(s00 | s01, s10 | s11, s00 | s01)
    # Red's O four on the bottom row lies under blue pieces: the game ended before those.
    row = b00 | b10 | b20 | b30
    covers = bit(h, 0, 1) | bit(h, 1, 1) | bit(h, 2, 1) | bit(h, 3, 1)
    rejects(row | bit(h, 0, 2), covers, row | bit(h, 0, 1), "no legal game", "player 1")
    # Red's O four with blue to have moved last (as many blue pieces as red).
    blue = bit(h, 0, 1) | bit(h, 1, 1) | bit(h, 2, 1) | bit(h, 0, 2)
    rejects(row, blue, row | bit(h, 0, 1), "no legal game", "player 2's last piece")


def test_from_bits_handed_over_win() -> None:
    # A finished board where red's last piece made an X four: player 2 has won.
    g = game()
    won = play_all(g, "1X 7O 2X 7O 3X 7O 4X")
    rebuilt = g.from_bits(won.red, won.blue, won.circles)
    assert rebuilt == won and rebuilt.win_mask == won.win_mask
    assert g.outcome(rebuilt) == g.outcome(won)


# -- protocol facts --------------------------------------------------------------------------
def test_registry_spec_and_moves() -> None:
    g = get_game("simplexity", (5, 4))  # width x height
    assert isinstance(g, SimplexityGame) and g.spec == SimplexitySpec(4, 5)
    for alias in ("shapecolor", "shape-color", "sc"):
        assert get_game(alias) == game()
    assert g.move_to_json(SimplexityMove(0, "X")) == {"column": 1, "shape": "X"}
    assert g.format_move(SimplexityMove(3, "O")) == "4O" == str(SimplexityMove(3, "O"))
    assert g.player_name(Player.FIRST) == "1"
    start = g.initial()
    assert [str(m) for m in g.ordered_moves(start)][:2] == ["3O", "3X"]
    second = g.play(start, SimplexityMove(2, "o"))  # the shape letter in either case
    assert g.ordered_moves(second)[0] == SimplexityMove(2, "X")  # player 2's own shape first


def test_play_rejects_malformed_moves() -> None:
    g = game()
    start = g.initial()
    bad: object  # malformed moves of every kind
    for bad in (3, (3,), (3, "O", 1), None):
        with pytest.raises(IllegalMoveError, match="a move is"):
            g.play(start, bad)
    for bad in ((True, "O"), (1.0, "O"), ("3", "O")):
        with pytest.raises(IllegalMoveError, match="whole number"):
            g.play(start, bad)
    for bad in ((3, "Z"), (3, 1), (3, "")):
        with pytest.raises(IllegalMoveError, match="'O' or 'X'"):
            g.play(start, bad)
    for column in (-1, 7, 99):
        with pytest.raises(IllegalMoveError, match="no such column, the board has columns 1-7"):
            g.play(start, (column, "O"))
    full = play_all(g, "1O 1X 1O 1X 1O 1X")
    with pytest.raises(IllegalMoveError, match="move 1O: column 1 is full"):
        g.play(full, (0, "O"))
    won = play_all(g, "1X 7O 2X 7O 3X 7O 4X")
    with pytest.raises(GameOverError, match="move 5O: the game is already over"):
        g.play(won, (4, "O"))


# -- symmetry --------------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), [(6, 7), (4, 4), (4, 5), (7, 8)])
def test_mirror_canonical_form_and_map_move(rows: int, cols: int) -> None:
    rng = random.Random(rows * 10 + cols)
    g = game(rows, cols)
    for _ in range(60):
        position = random_position(g, rng)
        grid = grid_of(position)
        image_bits = bits_of(mirrored(grid))
        image = g.from_bits(*image_bits)
        assert (g.outcome(image) is None) == (g.outcome(position) is None)
        key, symmetry = g.canonical_form(position)
        assert key == g.canonical_key(position) == g.canonical_key(image)
        assert key == min(bits_of(grid), image_bits)
        assert key == (bits_of(grid) if symmetry == 0 else image_bits)
        canonical = g.from_bits(*key)
        for move in g.legal_moves(position):
            mapped = g.map_move(move, symmetry)
            assert g.unmap_move(mapped, symmetry) == move
            assert mapped.shape == move.shape
            child = g.play(position, move)
            expected = child if symmetry == 0 else g.from_bits(*bits_of(mirrored(grid_of(child))))
            assert g.play(canonical, mapped) == expected


# -- heuristics ------------------------------------------------------------------------------
def clamp(value: int) -> float:
    return float(max(-EVALUATION_BOUND, min(EVALUATION_BOUND, value)))


@pytest.mark.parametrize(("rows", "cols", "seed"), [(6, 7, 1), (4, 4, 2), (5, 6, 3), (7, 8, 4)])
def test_heuristics_match_the_plain_computation(rows: int, cols: int, seed: int) -> None:
    rng = random.Random(seed)
    g = game(rows, cols)
    for _ in range(150):
        board, position = ref.Game(rows, cols), g.initial()
        for _ in range(rng.randint(0, rows * cols)):
            moves = board.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            board.play(*move)
            position = g.play(position, move)
        neighbors = clamp(ref.neighbors_value(board))
        windows = clamp(ref.windows_value(board, SHAPE_WEIGHTS, COLOR_WEIGHTS))
        assert evaluate(g, position, "neighbors") == neighbors
        assert g.with_evaluation("neighbors").evaluate(position) == neighbors
        assert evaluate(g, position, "windows") == windows
        assert g.evaluate(position) == windows  # the default


def test_neighbors_counts_the_notes_grid() -> None:
    # The note's grid: red X pieces in columns 3 and 5 of the bottom row; another red X
    # dropped in column 1 meets both along the row: 2 for each (color and shape), 4 in all.
    board = ref.Game(6, 7)
    for move in [(2, "X"), (6, "O"), (4, "X")]:
        board.play(*move)
    before = sum_for_red(board)
    board.cells[0][0] = ref.Piece("X", ref.RED)
    after = sum_for_red(board)
    # the new piece counts 4 and each of the two red X it meets gains 2 (the new piece)
    assert after - before == 4 + 2 + 2


def sum_for_red(board: ref.Game) -> int:
    """Red's total in the neighbour heuristic (blue is to move after red's second piece)."""
    saved = board.to_move
    board.to_move = 1
    try:
        value = ref.neighbors_value(board)
    finally:
        board.to_move = saved
    # neighbors_value is red's total minus blue's; blue's total does not change here
    return value
