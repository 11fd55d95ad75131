"""Tournaments in the web app's store: ``perfectplay tournament`` saves its run and every
game here (:class:`StoreSink`, an :class:`perfectplay.api.TournamentSink`), and the
Tournaments page reads them back (:func:`crosstable_rows`).

Each tournament game becomes a saved game like one played on the pages, with its moves from
the empty board (a board-picture opening taken back stone by stone through the api), so
that the replay page shows it and analyses every move. A game that ended by the rules is
``finished`` with its result; a forfeit (time, crash, illegal, memory, sandbox) is
``abandoned``, since the rules did not end it: its result and reason are in the
tournament's record. Both players are ``engine`` (programs) and the engine settings empty,
so that exporting and importing the saved games checks them as any other.
"""

from __future__ import annotations

from typing import Any

from perfectplay import api, contract, errors
from perfectplay.web.store import GameRecord, GameStore, TournamentRow

PROGRAMS = {"1": "engine", "2": "engine"}
"""The players of a saved tournament game: two programs."""


class StoreSink:
    """Saves a tournament's run, its games as they end, and its standings in ``store``."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.tournament = 0
        self.settings: api.Settings | None = None

    def begin(
        self, run: str, settings: api.Settings, entrants: list[api.Entrant], games: int
    ) -> None:
        """Record the run (a resumed run finds its row)."""
        game, _ = api.new_game(settings.game, size=settings.size, k=settings.k)
        game_kit = api.kit_of(game)
        header = {"game": game_kit.name, "size": game_kit.size_text(game), "k": game_kit.k_of(game)}
        players = [{"name": entrant.name, "spec": entrant.spec} for entrant in entrants]
        self.settings = settings
        self.tournament = self.store.begin_tournament(
            run, header, players, settings.as_dict(), games
        )

    def game(self, record: dict[str, Any]) -> None:
        """Save one ended game (nothing when it is saved already)."""
        self.store.save_tournament_game(self.tournament, record, self.saved_game(record))

    def end(self, result: api.TournamentResult) -> None:
        """Save the games a killed run ended but did not save, then the standings."""
        stored = self.store.tournament_numbers(self.tournament)
        for record in result.records:
            if int(record["game"]) not in stored:
                self.game(record)
        self.store.finish_tournament(self.tournament, result.standings_json())

    def saved_game(self, record: dict[str, Any]) -> GameRecord | None:
        """The saved-game form of a tournament game; ``None`` for one that cannot be replayed
        from the empty board (its tournament record is kept all the same)."""
        if self.settings is None:
            return None
        try:
            loaded = api.tournament_game(self.settings, record)
        except errors.PerfectplayError:
            return None
        game = loaded.game
        game_kit = api.kit_of(game)
        outcome = game.outcome(loaded.position)
        status, result, reason = "abandoned", None, None
        if outcome is not None:
            status = "finished"
            result = "draw" if outcome.winner is None else str(int(outcome.winner))
            reason = outcome.reason
        return GameRecord(
            game=game_kit.name,
            size=game_kit.size_text(game),
            k=game_kit.k_of(game),
            moves=tuple(contract.move_json(game, move) for move in loaded.moves or ()),
            position=api.position_text(loaded),
            players=dict(PROGRAMS),
            settings={},
            status=status,
            result=result,
            reason=reason,
        )


def crosstable_rows(tournament: TournamentRow) -> list[dict[str, Any]]:
    """The crosstable of a finished tournament, its players in standing order: for each,
    its name, points, games, Elo text, and a cell per opponent (``None`` on the diagonal
    and for a pair that did not meet, else ``[points, games]``)."""
    standings = tournament.standings or {}
    players: dict[str, Any] = standings.get("players", {})
    table: dict[str, dict[str, list[float]]] = standings.get("crosstable", {})
    names = list(players)
    return [
        {
            "name": name,
            "points": players[name]["points"],
            "games": players[name]["games"],
            "elo": players[name]["elo"].get("text", ""),
            "cells": [None if other == name else table[name].get(other) for other in names],
        }
        for name in names
    ]
