"""A tournament game as moves from the empty board: what a saved game (the web's replay, the
analysis of every move) needs from a ``games.jsonl`` record.

A record holds its opening in the game's notation and the moves played from it. Where the
notation is a move list (Connect Four, the shape-and-color game) the opening's moves are
read; where it is a board (tic-tac-toe, Gomoku) the stones are taken back one at a time
through the game's :class:`~perfectplay.games.kit.Retraction` (capability ``HISTORY``),
any order that passes only through running positions: stones need no particular order
for a replay, only a legal one.
"""

from __future__ import annotations

from typing import Any

from perfectplay.analysis.tournament import Settings, load_opening, make_game
from perfectplay.errors import IllegalPositionError, ParameterError
from perfectplay.games.kit import Capability, GameKit, Loaded, Retraction

MAX_TRIES = 100_000
"""Sub-boards tried while taking an opening back before giving up (a board that only an
odd order reaches); an opening of a few stones takes one try a stone."""


def game_line(settings: Settings, record: dict[str, Any]) -> Loaded:
    """The position after the record's opening and moves, with every move from the empty
    board. Raises :class:`ParameterError` naming the game for an opening no order of moves
    reaches, and the game's notation errors for a move the record does not play legally."""
    game_kit, _ = make_game(settings)
    opening = load_opening(game_kit, settings, str(record["opening"]))
    moves = list(opening_moves(game_kit, opening, f"game {record['game']}"))
    position = opening.position
    for text in record["moves"]:
        move = game_kit.parse_move(opening.game, position, str(text))
        position = opening.game.play(position, move)
        moves.append(move)
    return Loaded(opening.game, position, tuple(moves))


def opening_moves(game_kit: GameKit, opening: Loaded, name: str) -> tuple[Any, ...]:
    """The moves that reach ``opening`` from the empty board: its own, or for a board
    picture an order found by taking stones back (:class:`ParameterError` naming ``name``
    when none is found)."""
    game, position = opening.game, opening.position
    if opening.moves and opening.moves is not None:
        return tuple(opening.moves)
    if position == game.initial():
        return ()
    if not game_kit.has(Capability.HISTORY):
        raise ParameterError(f"{name}: its opening has no known moves")
    retraction = game_kit.retraction(game, position)
    stones = _taken_back(retraction, game, retraction.state_of(position), [MAX_TRIES])
    if stones is None:
        raise ParameterError(f"{name}: no order of moves reaches its opening")
    return tuple(retraction.move_of(stone) for stone in stones)


def _taken_back(
    retraction: Retraction, game: Any, state: tuple[int, int], tries: list[int]
) -> list[int] | None:
    """The stones of ``state`` in an order they can have been played (depth first, each
    sub-board a running position), or ``None`` when none is found within ``tries``."""
    if not state[0] | state[1]:
        return []
    removable = retraction.removable(state)
    while removable and tries[0] > 0:
        tries[0] -= 1
        stone = removable & -removable
        removable ^= stone
        before = (state[0] & ~stone, state[1] & ~stone)
        try:
            position = retraction.position(before)
        except IllegalPositionError:
            continue
        if game.outcome(position) is not None:
            continue
        earlier = _taken_back(retraction, game, before, tries)
        if earlier is not None:
            return [*earlier, stone]
    return None
