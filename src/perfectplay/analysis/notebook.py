"""An analysis that shows itself in a notebook: the board, and every move's value in a table.

:func:`perfectplay.api.analysis_of` answers an :class:`Analysis`. It is a sequence of the moves'
values (iterate it, index it, take its length, as the list :func:`perfectplay.api.analyze`
answers) that Jupyter draws as HTML: the position's picture (from the game kit's
``picture``, where the game has a board) beside a table of the moves, as a person reads them,
and their values in words, the best ones marked. Positions and game trees draw themselves
(``_repr_svg_``); this is the third kind of result a notebook shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from typing import Any, Generic, TypeVar

from perfectplay.games.registry import kit_of
from perfectplay.search.result import MoveValue

M = TypeVar("M")

BEST_MARK = "★"
"""How the table marks the best moves."""


@dataclass(frozen=True, slots=True)
class Analysis(Generic[M]):
    """The value of every legal move of ``position``, from the mover's point of view."""

    game: Any
    position: Any
    values: tuple[MoveValue[M], ...]

    def __iter__(self) -> Iterator[MoveValue[M]]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: int) -> MoveValue[M]:
        return self.values[index]

    @property
    def best(self) -> tuple[MoveValue[M], ...]:
        """The moves of the highest value (none when no move is legal)."""
        if not self.values:
            return ()
        top = max(value.score.value for value in self.values)
        return tuple(value for value in self.values if value.score.value == top)

    def _repr_html_(self) -> str:
        """The board and the table of values, for notebooks."""
        game_kit = kit_of(self.game)
        picture = game_kit.picture(self.game, self.position)
        board = picture if picture is not None else f"<pre>{escape(str(self.position))}</pre>"
        best = {id(value) for value in self.best}
        rows = "".join(
            f"<tr><td>{escape(game_kit.move_text(self.game, value.move))}</td>"
            f"<td>{escape(str(value.score))}</td>"
            f"<td>{BEST_MARK if id(value) in best else ''}</td></tr>"
            for value in self.values
        )
        table = (
            "<table><thead><tr><th>move</th><th>value</th><th>best</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )
        return (
            '<div style="display:flex;gap:1.5em;align-items:flex-start">'
            f"<div>{board}</div><div>{table}</div></div>"
        )
