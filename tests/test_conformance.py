"""Conformance: every registered game keeps the contract of the game protocol
(:mod:`perfectplay.games.protocol`) and of its kit (:mod:`perfectplay.games.kit`).

The test runs over every game the registry knows, the built-ins and the installed plug-ins
(the example ``examples/nim``, once installed: ``python3 -m pip install ./examples/nim``) and
the plain games of ``examples/simple`` (registered in this process when not installed), so
a new game is checked by running ``python3 -m pytest tests/test_conformance.py``; add
``-k NAME`` for one game. Nothing here branches on a game's name (but for the bugs listed in
:data:`KNOWN_BUGS`): the games are played on small boards chosen from their kits
(:func:`small_params`), along seeded random playouts.

Checked on every position of the playouts: legal moves (present exactly while the game runs,
each playable without changing the old position, every other move refused), the end of the
game (outcome, ``plies_left_bound``, ``ply``, ``finished_score``), immutability and hashing,
the notation round trips (positions, moves, JSON moves), symmetry (positions sharing a
canonical key have moves that correspond and the same value), the kit's declarations, the
JSON contract of ``solve`` and ``analyze``; and, on positions small enough for it, that the
exact solver (the game's kernel and the generic alpha-beta) equals plain minimax, position by
position and move by move.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import zlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from simple_support import GAMES as SIMPLE_GAMES
from simple_support import examples_registered

from perfectplay import api, contract
from perfectplay.errors import (
    GameOverError,
    IllegalMoveError,
    NotationError,
    ParameterError,
)
from perfectplay.games.kit import BoardView, Capability, GameKit, GameParams, Loaded
from perfectplay.games.protocol import Outcome, Player
from perfectplay.games.registry import game_names, get_kit, kit_of, problems
from perfectplay.search.minimax import minimax
from perfectplay.search.result import Score, finished_value, score_of_move
from perfectplay.search.solver import SearchOptions
from perfectplay.search.solver import solve as search_solve
from perfectplay.values import HEURISTIC_BOUND, WIN

EXAMPLE = "nim"
"""The plug-in of ``examples/nim``: checked whenever it is installed."""
SMALL_PLIES = 16
"""A game is played on a board whose game lasts at most this many plies (see below)."""
SOLVED_PLIES = SMALL_PLIES - 2
"""Positions sharing a canonical key are solved when at most this many plies are left."""
SMALL_SIZES = ((4, 4), (3, 4), (4, 3), (3, 3), (2, 2))
"""Sizes (width, height) tried, in this order, when a game's default board is larger than that."""
PLAYOUTS = 24
"""Random games played per game."""
MINIMAX_NODES = 3_000
"""Plain minimax runs only on positions whose whole tree has at most this many nodes."""
EXACT_POSITIONS = 8
"""Positions per game on which the exact solver is compared with plain minimax."""
PYTHON_ENGINE = SearchOptions(engine="python")
RESULT_KEYS = frozenset(
    {
        "finished",
        "winner",
        "to_move",
        "to_move_number",
        "outcome",
        "plies",
        "score",
        "weak",
        "best_move",
        "exact",
        "nodes",
        "time_ms",
        "depth",
        "pv",
        "value",
    }
)
"""The keys of ``contract.result_json`` (its module docstring), the same in every game."""
KNOWN_BUGS: dict[tuple[str, str], str] = {}
"""Checks that reveal a bug in a built-in game, by game and check, until it is fixed."""
ANALYSIS_KEYS = frozenset({"outcome", "plies", "score", "value", "exact", "weak"})
"""The keys ``contract.analysis_json`` adds to each move's JSON object."""


# -- the games and their playouts ------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One random game: ``positions[i]`` is the position after ``moves[:i]``."""

    moves: tuple[Any, ...]
    positions: tuple[Any, ...]

    def prefixes(self) -> Iterator[tuple[tuple[Any, ...], Any]]:
        """Each position with the moves that reached it."""
        for index, position in enumerate(self.positions):
            yield self.moves[:index], position


@dataclass(frozen=True)
class Case:
    """A game on small parameters, its random playouts, and the positions small enough for
    plain minimax (with the moves that reached them)."""

    name: str
    kit: GameKit
    params: GameParams
    game: Any
    lines: tuple[Line, ...]
    exact: tuple[tuple[tuple[Any, ...], Any], ...]

    def prefixes(self) -> Iterator[tuple[tuple[Any, ...], Any]]:
        """Every position of every playout with the moves that reached it."""
        for line in self.lines:
            yield from line.prefixes()

    def positions(self) -> Iterator[Any]:
        """Every position of every playout."""
        for line in self.lines:
            yield from line.positions

    def running(self) -> Iterator[Any]:
        """The positions of the playouts where the game still runs."""
        return (p for p in self.positions() if self.game.outcome(p) is None)

    def finished(self) -> Iterator[Any]:
        """The last position of every playout."""
        return (line.positions[-1] for line in self.lines)


def small_params(kit: GameKit) -> GameParams:
    """The kit's defaults when a game with them lasts at most :data:`SMALL_PLIES` plies;
    else the first of :data:`SMALL_SIZES` (width x height; ``k`` its default) that
    the kit accepts and that lasts that long."""
    candidates = [GameParams()]
    if kit.size is not None:
        candidates += [GameParams(size) for size in SMALL_SIZES]
    for params in candidates:
        try:
            game = kit.make(params)
        except ParameterError:
            continue
        if game.plies_left_bound(game.initial()) <= SMALL_PLIES:
            return params
    pytest.fail(f"{kit.name}: no small parameters; add a smaller size to SMALL_SIZES")


def playout(game: Any, rng: random.Random) -> Line:
    """A random game from the initial position to its end (which must come within
    ``plies_left_bound`` of the initial position)."""
    position, positions = game.initial(), [game.initial()]
    moves: list[Any] = []
    bound = game.plies_left_bound(position)
    while game.outcome(position) is None:
        assert len(moves) < bound, f"{game!r}: the game goes on past plies_left_bound"
        move = rng.choice(list(game.legal_moves(position)))
        position = game.play(position, move)
        moves.append(move)
        positions.append(position)
    return Line(tuple(moves), tuple(positions))


def tree_size(game: Any, position: Any, cap: int) -> int | None:
    """The nodes plain minimax visits below ``position`` (itself included), or ``None``
    when they are more than ``cap``."""
    count, stack = 0, [position]
    while stack:
        node = stack.pop()
        count += 1
        if count > cap:
            return None
        if game.outcome(node) is None:
            stack.extend(game.play(node, move) for move in game.legal_moves(node))
    return count


def exact_positions(game: Any, lines: Sequence[Line]) -> tuple[tuple[tuple[Any, ...], Any], ...]:
    """Up to :data:`EXACT_POSITIONS` running positions of the playouts, the largest whose
    tree has at most :data:`MINIMAX_NODES` nodes, one per playout and distinct."""
    found: dict[Hashable, tuple[int, tuple[Any, ...], Any]] = {}
    for line in lines:
        best = None
        for moves, position in reversed(list(line.prefixes())[:-1]):
            size = tree_size(game, position, MINIMAX_NODES)
            if size is None:
                break
            best = (size, moves, position)
        if best is not None:
            found.setdefault((game.key(best[2]), game.ply(best[2])), best)
    largest = sorted(found.values(), key=lambda item: -item[0])[:EXACT_POSITIONS]
    return tuple((moves, position) for _, moves, position in largest)


def make_case(name: str) -> Case:
    """The game ``name`` on small parameters with its seeded playouts."""
    kit = get_kit(name)
    params = small_params(kit)
    game = kit.make(params)
    rng = random.Random(zlib.crc32(name.encode()))
    lines = tuple(playout(game, rng) for _ in range(PLAYOUTS))
    return Case(name, kit, params, game, lines, exact_positions(game, lines))


@pytest.fixture(scope="module", params=sorted({*game_names(), EXAMPLE, *SIMPLE_GAMES}))
def case(request: pytest.FixtureRequest) -> Case:
    """Each registered game (and the example plug-in, skipped when not installed; the plain
    games of ``examples/simple``, registered in this process when not installed)."""
    name = str(request.param)
    if name not in game_names():
        pytest.skip(f"{name}: the example plug-in is not installed (pip install ./examples/{name})")
    return make_case(name)


@pytest.fixture(scope="module", autouse=True)
def plain_examples() -> Iterator[None]:
    """The plain example games registered for this module's length (unless installed)."""
    with examples_registered():
        yield


# -- helpers ---------------------------------------------------------------------------------
def move_id(game: Any, move: Any) -> str:
    """A move's JSON object as text with sorted keys: equal moves, equal text."""
    return json.dumps(game.move_to_json(move), sort_keys=True)


def snapshot(game: Any, position: Any) -> tuple[Any, ...]:
    """What ``play`` must leave unchanged in the position it starts from."""
    return (
        game.key(position),
        hash(position),
        game.ply(position),
        game.to_move(position),
        game.outcome(position),
        [move_id(game, m) for m in game.legal_moves(position)],
    )


def replay(game: Any, moves: Sequence[Any]) -> Any:
    """The position after ``moves`` from the initial position."""
    position = game.initial()
    for move in moves:
        position = game.play(position, move)
    return position


def reference_value(game: Any, position: Any) -> float:
    """Plain minimax's value of ``position`` for its side to move (a finished position: its
    value ``plies`` 0 from now, as the searches give it)."""
    outcome = game.outcome(position)
    if outcome is not None:
        return finished_value(game, position, outcome.winner)
    return float(minimax(game, position).score.value)


def reference_move_value(game: Any, position: Any, move: Any) -> float:
    """Plain minimax's value of ``move`` for the side playing it."""
    child = game.play(position, move)
    return score_of_move(Score(reference_value(game, child), True)).value


def expected_outcome(game: Any, position: Any, outcome: Outcome) -> str:
    """``win``, ``draw`` or ``loss`` of a finished position for the side that would move."""
    if outcome.winner is None:
        return "draw"
    return "win" if outcome.winner == game.to_move(position) else "loss"


def known_bug(request: pytest.FixtureRequest, case: Case, check: str) -> None:
    """Mark the running test as a strict expected failure when :data:`KNOWN_BUGS` lists
    ``check`` for the game."""
    reason = KNOWN_BUGS.get((case.name, check))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))


def raises(error: type[Exception], action: Callable[[], object]) -> Exception:
    """The exception of class ``error`` that ``action`` raises (failing when none does)."""
    with pytest.raises(error) as caught:
        action()
    return caught.value


# -- the kit's declarations ------------------------------------------------------------------
def test_the_registry_loaded_every_plug_in() -> None:
    assert problems() == ()


def test_the_kit_names_its_game(case: Case) -> None:
    kit, game = case.kit, case.game
    assert kit.name == kit.name.lower() and " " not in kit.name and kit.title and kit.summary
    assert game.name == kit.name and kit_of(game) is kit
    assert all(get_kit(alias) is kit for alias in kit.aliases)
    assert set(kit.capabilities) <= set(Capability)
    assert bool(kit.evaluations) == kit.has(Capability.EVALUATIONS)
    start = kit.start(game)
    assert start.position == game.initial()
    assert start.moves == (None if kit.board_notation else ())


def test_size_and_k_are_declared_as_taken(case: Case) -> None:
    kit, game = case.kit, case.game
    if kit.size is None:
        assert kit.size_of(game) is None
        raises(ParameterError, lambda: api.params(case.name, size="3x3"))
    else:
        assert kit.size_of(game) == (case.params.size or kit.size.default)
        assert (kit.size.names, kit.size.text) == (("width", "height"), "WIDTHxHEIGHT")
        view = kit.board(game, game.initial())
        if view is not None:  # the size is width x height: columns x rows
            assert (view.cols, view.rows) == kit.size_of(game)
            assert kit.size_text(game) == f"{view.cols}x{view.rows}"
    if kit.takes_k:
        assert isinstance(kit.k_of(game), int)
    else:
        assert kit.k_of(game) is None
        raises(ParameterError, lambda: api.params(case.name, k=3))


def test_a_board_exactly_when_declared(case: Case) -> None:
    game, kit = case.game, case.kit
    for position in case.finished():
        view = kit.board(game, position)
        if not kit.has(Capability.BOARD):
            assert view is None
            continue
        assert isinstance(view, BoardView)
        assert len(view.cells) == view.rows and all(len(r) == view.cols for r in view.cells)
        players = {cell["player"] for row in view.cells for cell in row if cell is not None}
        assert players <= {1, 2}
        outcome = game.outcome(position)
        for cell in outcome.line:
            row, col = kit.display_cell(game, cell)
            assert 0 <= row < view.rows and 0 <= col < view.cols
            assert view.cells[row][col] is not None


def test_a_weak_solve_only_when_declared(case: Case) -> None:
    game, position = case.game, case.game.initial()
    if not case.kit.has(Capability.WEAK):
        raises(ParameterError, lambda: api.solve(game, position, weak=True))
        return
    for _, exact in case.exact:
        weak = api.solve(game, exact, weak=True).score
        value = reference_value(game, exact)
        assert weak.weak and weak.value == (value > 0) - (value < 0)


# -- legal moves -----------------------------------------------------------------------------
def test_legal_moves_exactly_while_the_game_runs(case: Case) -> None:
    game = case.game
    for position in case.positions():
        moves = list(game.legal_moves(position))
        assert (game.outcome(position) is None) == bool(moves)
        assert [move_id(game, m) for m in game.legal_moves(position)] == [
            move_id(game, m) for m in moves
        ], "legal_moves is deterministic"
        ids = [move_id(game, m) for m in moves]
        assert len(set(ids)) == len(ids), "no move twice"
        ordered = [move_id(game, m) for m in game.ordered_moves(position)]
        assert sorted(ordered) == sorted(ids), "ordered_moves is a permutation of legal_moves"


def test_play_makes_a_new_position_and_leaves_the_old_one(case: Case) -> None:
    game = case.game
    for position in case.running():
        before = snapshot(game, position)
        for move in game.legal_moves(position):
            child = game.play(position, move)
            assert game.ply(child) == game.ply(position) + 1
            assert game.to_move(child) == game.to_move(position).other
            assert child != position
        assert snapshot(game, position) == before


def test_play_refuses_every_other_move(case: Case) -> None:
    game = case.game
    seen = {move_id(game, m): m for p in case.positions() for m in game.legal_moves(p)}
    for position in case.positions():
        legal = {move_id(game, m) for m in game.legal_moves(position)}
        finished = game.outcome(position) is not None
        for text, move in seen.items():
            if text in legal:
                continue
            error = raises(IllegalMoveError, partial(game.play, position, move))
            assert isinstance(error, GameOverError) == finished, (position, move, error)
            assert str(error), "the error says why"


# -- the end of the game ---------------------------------------------------------------------
def test_outcome_ply_and_plies_left_along_each_game(case: Case) -> None:
    game = case.game
    assert game.ply(game.initial()) == 0 and game.to_move(game.initial()) is Player.FIRST
    for line in case.lines:
        total = len(line.moves)
        for index, position in enumerate(line.positions):
            assert game.ply(position) == index
            assert game.plies_left_bound(position) >= total - index >= 0
            outcome = game.outcome(position)
            assert (outcome is None) == (index < total)
        outcome = game.outcome(line.positions[-1])
        assert isinstance(outcome, Outcome) and outcome.reason
        assert outcome.winner in (None, Player.FIRST, Player.SECOND)


def test_finished_score_has_the_sign_of_the_outcome(case: Case) -> None:
    game = case.game
    for position in case.finished():
        expected = expected_outcome(game, position, game.outcome(position))
        score = game.finished_score(position)
        assert {"win": score > 0, "draw": score == 0, "loss": score < 0}[expected]


def test_evaluate_stays_heuristic(case: Case) -> None:
    game = case.game
    for position in case.running():
        value = game.evaluate(position)
        assert isinstance(value, int | float) and abs(value) < HEURISTIC_BOUND


# -- immutability and hashing ----------------------------------------------------------------
def test_positions_are_immutable_values(case: Case) -> None:
    game = case.game
    for line in case.lines:
        again = [game.initial()]
        for move in line.moves:
            again.append(game.play(again[-1], move))
        for original, copy in zip(line.positions, again, strict=True):
            assert copy == original and hash(copy) == hash(original)
            assert game.key(copy) == game.key(original)
            assert hash(game.key(copy)) == hash(game.key(original))
    position = case.lines[0].positions[-1]
    if dataclasses.is_dataclass(position):
        field = dataclasses.fields(position)[0].name
        raises(AttributeError, lambda: setattr(position, field, getattr(position, field)))


def test_equal_positions_share_hash_and_key(case: Case) -> None:
    game = case.game
    by_key: dict[Hashable, list[Any]] = defaultdict(list)
    for position in case.positions():
        by_key[game.key(position)].append(position)
    equal_pairs = 0
    for same_key in by_key.values():
        for p, q in itertools.combinations(same_key, 2):
            if p == q:
                equal_pairs += 1
                assert hash(p) == hash(q)
    assert equal_pairs, "every playout starts from one initial position"
    keys = {position: game.key(position) for position in case.positions()}
    assert all(keys[position] == game.key(position) for position in case.positions())


# -- notation --------------------------------------------------------------------------------
def test_position_text_reads_back_to_the_same_position(case: Case) -> None:
    kit, game = case.kit, case.game
    for moves, position in case.prefixes():
        loaded = Loaded(game, position, None if kit.board_notation else moves)
        text = kit.position_text(loaded)
        again = kit.load(text, case.params)
        assert again.position == position, text
        assert game.key(again.position) == game.key(position)
        assert again.game.ply(again.position) == game.ply(position)
        assert again.game.to_move(again.position) == game.to_move(position)
        assert again.game.spec == game.spec
        if not kit.board_notation:
            assert again.moves == moves


def test_moves_text_reads_back_with_parse_moves(case: Case, request: pytest.FixtureRequest) -> None:
    known_bug(request, case, "moves_text")
    kit, game = case.kit, case.game
    if kit.board_notation:
        pytest.skip(f"{case.name}: positions are boards, not move lists")
    for moves, position in case.prefixes():
        text = kit.moves_text(game, moves)
        assert kit.parse_moves(game, text) == (position, list(moves)), text


def test_moves_read_back_from_text_and_json(case: Case) -> None:
    kit, game = case.kit, case.game
    for position in case.running():
        for move in game.legal_moves(position):
            data = game.move_to_json(move)
            assert json.loads(json.dumps(data)) == data
            assert kit.move_from_json(game, data) == move
            assert kit.parse_move(game, position, kit.move_text(game, move)) == move
            assert game.format_move(move)


def test_bad_text_is_a_notation_error_naming_it(case: Case) -> None:
    kit, game = case.kit, case.game
    attempts: list[tuple[str, Callable[[], object]]] = [
        ("?!", lambda: kit.load("?!", case.params)),
        ("?!", lambda: kit.parse_move(game, game.initial(), "?!")),
        ("?!", lambda: kit.move_from_json(game, "?!")),
        ("?!", lambda: kit.move_from_json(game, {"?!": 1})),
        ("1, 2", lambda: kit.move_from_json(game, [1, 2])),
    ]
    for named, attempt in attempts:
        error = raises(NotationError, attempt)
        assert named in str(error), error


# -- symmetry --------------------------------------------------------------------------------
def symmetries(case: Case) -> list[int]:
    """The symmetry numbers ``canonical_form`` gives on the playouts (0 among them)."""
    return sorted({0} | {case.game.canonical_form(p)[1] for p in case.positions()})


def corresponding(game: Any, p: Any, q: Any) -> Callable[[Any], Any]:
    """The move of ``q`` that the table takes for a move of ``p`` (the two positions
    sharing a canonical key): mapped with ``p``'s symmetry, unmapped with ``q``'s."""
    p_symmetry, q_symmetry = game.canonical_form(p)[1], game.canonical_form(q)[1]
    return lambda move: game.unmap_move(game.map_move(move, p_symmetry), q_symmetry)


def check_correspondence(game: Any, p: Any, q: Any) -> None:
    """Two positions with one canonical key: their moves correspond one to one, and lead
    to positions with one canonical key (what the search's table relies on)."""
    assert game.canonical_form(p)[0] == game.canonical_form(q)[0] == game.canonical_key(q)
    to_q = corresponding(game, p, q)
    mapped = [move_id(game, to_q(m)) for m in game.legal_moves(p)]
    assert sorted(mapped) == sorted(move_id(game, m) for m in game.legal_moves(q))
    for move in game.legal_moves(p):
        after_p, after_q = game.play(p, move), game.play(q, to_q(move))
        assert game.canonical_key(after_p) == game.canonical_key(after_q), move


def test_symmetric_games_have_corresponding_moves(case: Case) -> None:
    game, found = case.game, symmetries(case)
    assert (len(found) > 1) == case.kit.has(Capability.SYMMETRY), found
    for line in case.lines:
        for symmetry in found:
            images = [game.map_move(move, symmetry) for move in line.moves]
            assert [game.unmap_move(m, symmetry) for m in images] == list(line.moves)
            for moves, position in line.prefixes():
                image = replay(game, images[: len(moves)])
                assert game.canonical_key(image) == game.canonical_key(position)
                check_correspondence(game, position, image)


def test_symmetric_positions_have_one_value(case: Case) -> None:
    game = case.game
    for moves, position in case.exact:
        value = reference_value(game, position)
        for symmetry in symmetries(case):
            image = replay(game, [game.map_move(m, symmetry) for m in moves])
            assert api.solve(game, image).score.value == value, (moves, symmetry)


def by_canonical_key(case: Case) -> list[list[Any]]:
    """The distinct positions of the playouts, grouped by canonical key (groups of two or
    more: transpositions and symmetric positions)."""
    game = case.game
    groups: dict[Hashable, dict[Any, None]] = defaultdict(dict)
    for position in case.positions():
        groups[game.canonical_key(position)][position] = None
    return [list(group) for group in groups.values() if len(group) > 1]


def test_positions_sharing_a_canonical_key_have_corresponding_moves(case: Case) -> None:
    game = case.game
    for positions in by_canonical_key(case):
        for other in positions[1:]:
            check_correspondence(game, positions[0], other)


def test_positions_sharing_a_canonical_key_share_the_value(case: Case) -> None:
    game = case.game
    groups = [
        positions
        for positions in by_canonical_key(case)
        if game.plies_left_bound(positions[0]) <= SOLVED_PLIES
    ]
    if not groups:
        pytest.skip(f"{case.name}: no transpositions or symmetric positions in the playouts")
    for positions in groups:
        values = {api.solve(game, position).score.value for position in positions}
        assert len(values) == 1, positions


# -- the exact solver against plain minimax --------------------------------------------------
def test_the_exact_solver_equals_plain_minimax(case: Case) -> None:
    game = case.game
    assert case.exact, "some positions are small enough for plain minimax"
    for _, position in case.exact:
        reference = minimax(game, position)
        assert reference.exact
        for result in (
            api.solve(game, position),
            search_solve(game, position, search=PYTHON_ENGINE),
        ):
            assert result.exact and result.score.value == reference.score.value, position
            best = reference_move_value(game, position, result.best_move)
            assert best == reference.score.value, "the best move keeps the value"


def test_analyze_equals_plain_minimax_move_by_move(case: Case) -> None:
    game = case.game
    for _, position in case.exact:
        values = api.analyze(game, position)
        assert [move_id(game, v.move) for v in values] == [
            move_id(game, m) for m in game.legal_moves(position)
        ]
        for entry in values:
            assert entry.score.exact
            assert entry.score.value == reference_move_value(game, position, entry.move)


# -- the JSON contract -----------------------------------------------------------------------
def test_solve_json_has_the_contract_keys(case: Case) -> None:
    game, kit = case.game, case.kit
    for _, position in case.exact:
        data: dict[str, Any] = contract.result_json(game, position, api.solve(game, position))
        json.dumps(data)
        assert set(data) == RESULT_KEYS
        assert data["to_move"] == game.player_name(game.to_move(position))
        value = reference_value(game, position)
        assert data["outcome"] == ("win" if value > 0 else "loss" if value < 0 else "draw")
        if value:
            assert data["plies"] == WIN - abs(value)
        assert data["exact"] is True and data["weak"] is False
        line = [kit.move_from_json(game, m) for m in data["pv"]]
        assert line and move_id(game, line[0]) == json.dumps(data["best_move"], sort_keys=True)
        replay_from = position
        for move in line:
            replay_from = game.play(replay_from, move)


def test_solve_json_of_a_finished_game(case: Case) -> None:
    game = case.game
    for position in case.finished():
        data = contract.result_json(game, position, api.solve(game, position))
        assert set(data) == RESULT_KEYS
        assert data["outcome"] == expected_outcome(game, position, game.outcome(position))
        assert data["plies"] == 0 and data["best_move"] is None and data["pv"] == []
        assert data["score"] == game.finished_score(position)


def test_perft_json_has_one_shape_in_every_game(case: Case) -> None:
    """Issue 15, item 5: tic-tac-toe said ``x_wins``, Connect Four ``first_wins``."""
    game = case.game
    data = contract.perft_json(game, api.perft(game, 2))
    json.dumps(data)
    assert {"first_wins", "second_wins", "draws"} <= set(data)
    assert [key for key in data if key.endswith("_wins")] == ["first_wins", "second_wins"]
    assert data["players"] == {
        "1": game.player_name(Player.FIRST),
        "2": game.player_name(Player.SECOND),
    }


def test_analyze_json_has_the_contract_keys(case: Case) -> None:
    game = case.game
    for _, position in case.exact:
        data: dict[str, Any] = contract.analysis_json(game, position, api.analyze(game, position))
        json.dumps(data)
        assert set(data) == {"to_move", "to_move_number", "finished", "moves"}
        assert data["to_move_number"] == int(game.to_move(position))
        for item, move in zip(data["moves"], game.legal_moves(position), strict=True):
            assert isinstance(item, dict)
            move_keys = set(game.move_to_json(move))
            assert set(item) == move_keys | ANALYSIS_KEYS
            assert {k: item[k] for k in move_keys} == game.move_to_json(move)
            assert item["outcome"] in ("win", "draw", "loss") and item["exact"] is True


def test_heuristic_scores_are_whole_numbers(case: Case) -> None:
    """Issue 15, item 5: a heuristic score read ``-72.0`` in one game and ``48`` in another."""
    game = case.game
    position = game.initial()
    result = api.best(game, position, api.limit(depth=1))
    data = contract.result_json(game, position, result)
    assert isinstance(data["score"], int) and not isinstance(data["score"], bool)
