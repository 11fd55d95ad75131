"""``perfectplay perft``: count the game tree (games, wins, draws, positions)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from perfectplay.cli import options
from perfectplay.cli.options import whole
from perfectplay.cli.output import EXIT_OK, console, print_json

if TYPE_CHECKING:
    from perfectplay.api import RegisteredGame
    from perfectplay.contract import JSONObject

EPILOG = """\
examples:
  perfectplay perft tictactoe                         the whole 3x3 game tree
  perfectplay perft tictactoe --json
  perfectplay perft tictactoe --size 4x4 --depth 5    the first 5 plies only
  perfectplay perft tictactoe --size 3x4 --k 3
  perfectplay perft connect4 --depth 8                7x6: 5,673,234 nodes at ply 8
  perfectplay perft connect4 --size 4x4               the whole 4x4 game tree

Games whose whole tree is far too large (connect4 beyond 4x4) need --depth."""


def add(commands: Any) -> None:
    """Declare the verb."""
    summary = "count the game tree (games, wins, draws, positions)"
    sub = options.add_verb(commands, "perft", summary, EPILOG, run)
    options.add_size(sub)
    sub.add_argument("--depth", type=whole, metavar="D", help="expand only the first D plies")
    sub.add_argument("--json", action="store_true", help="print the counts as JSON")


def run(args: argparse.Namespace) -> int:
    """Game-tree counts (``contract.perft_json`` with ``--json``)."""
    from perfectplay import api, contract

    game = options.new_game(args)
    with progress_bar(game, args.depth) as progress:
        counts = api.perft(game, args.depth, progress)
    data = contract.perft_json(game, counts)
    if args.json:
        print_json(data)
        return EXIT_OK
    console().print(table(game, data))
    return EXIT_OK


@contextmanager
def progress_bar(
    game: RegisteredGame, depth: int | None
) -> Iterator[Callable[[int, int, int], None] | None]:
    """A perft progress callback drawing a rich progress bar on stderr, when it is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    levels = game.plies_left_bound(game.initial()) + 1
    if depth is not None:
        levels = min(levels, depth + 1)
    columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console(on_stderr=True), transient=True) as bar:
        task = bar.add_task("perft", total=levels)

        def update(level: int, positions: int, nodes: int) -> None:
            description = f"perft ply {level}: {positions:,} positions, {nodes:,} nodes"
            bar.update(task, completed=level + 1, description=description)

        yield update


def table(game: RegisteredGame, data: JSONObject) -> Any:
    """The counts as a two-column rich table."""
    from rich.table import Table

    from perfectplay import api

    game_kit = api.kit_of(game)
    title = f"perft {game_kit.name} {game_kit.label(game)}".rstrip()
    if not data["complete"]:
        title += " (depth-limited: unfinished positions remain)"
    grid = Table(title=title, title_justify="left")
    grid.add_column("count")
    grid.add_column("value", justify="right")
    wins = [key for key in data if key.endswith("_wins")]
    labels = (game_kit.side_label(game, 1), game_kit.side_label(game, 2))
    by_length = data["games_by_length"]
    by_depth = data["nodes_by_depth"]
    assert isinstance(by_length, dict) and isinstance(by_depth, list)
    rows: list[tuple[str, object]] = [
        ("games", data["games"]),
        (f"{labels[0]} wins", data[wins[0]]),
        (f"{labels[1]} wins", data[wins[1]]),
        ("draws", data["draws"]),
        ("games by length", None),
    ]
    rows += [(f"  {n} plies", v) for n, v in by_length.items()]
    rows += [
        ("nodes", data["nodes"]),
        (f"nodes at ply {len(by_depth) - 1}", by_depth[-1]),
        ("positions", data["positions"]),
        ("canonical positions", data["canonical_positions"]),
        ("terminal positions", data["terminal_positions"]),
    ]
    for name, value in rows:
        grid.add_row(name, "" if value is None else f"{value:,}")
    return grid
