"""A tournament's Markdown report: standings, crosstable, time per move, the sandbox."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay.analysis.referee import REASONS

if TYPE_CHECKING:
    from perfectplay.analysis.tournament import Standing, Tally, TournamentResult


def markdown(result: TournamentResult) -> str:
    """The report: a title and the settings, then the standings, the crosstable, the time
    per move and (with outside bots) what their sandbox enforced."""
    settings = result.settings
    kind = "gauntlet" if settings.gauntlet else "round robin"
    lines = [
        f"# Tournament: {settings.game}, {kind}",
        "",
        f"{len(result.records)} games, {settings.rounds} round(s), {settings.time:g} s a move "
        f"(+ {settings.margin:g} s margin), seed {settings.seed}.",
        *standings_table(result),
        *cross_table(result),
        *times_table(result),
        *sandbox_lines(result),
    ]
    return "\n".join(lines) + "\n"


def standings_table(result: TournamentResult) -> list[str]:
    """Rank, points, games, W-D-L in all and by colour, Elo, forfeits."""
    lines = [
        "",
        "## Standings",
        "",
        "| # | player | points | games | W-D-L | as first | as second | Elo (95 %) | forfeits |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for rank, standing in enumerate(result.standings, start=1):
        lines.append(
            f"| {rank} | {standing.name} | {standing.points:g} | {standing.games} | "
            f"{wdl(standing.total)} | {wdl(standing.first)} | {wdl(standing.second)} | "
            f"{standing.rating} | {forfeit_text(standing)} |"
        )
    return lines


def cross_table(result: TournamentResult) -> list[str]:
    """``points/games`` of each row's player against each column's (``·``: never met)."""
    names = [s.name for s in result.standings]
    lines = ["", "## Crosstable (points of the row's player against the column's)", ""]
    lines.append("| | " + " | ".join(names) + " |")
    lines.append("|---" * (len(names) + 1) + "|")
    for me in names:
        cells = []
        for other in names:
            cell = result.crosstable.get(me, {}).get(other)
            cells.append("·" if cell is None else f"{cell[0]:g}/{cell[1]:g}")
        lines.append(f"| {me} | " + " | ".join(cells) + " |")
    return lines


def times_table(result: TournamentResult) -> list[str]:
    """Moves, mean and maximum milliseconds a move, per player."""
    lines = [
        "",
        "## Time per move",
        "",
        "| player | moves | mean ms | max ms |",
        "|---|---|---|---|",
    ]
    for standing in result.standings:
        data = standing.as_dict()
        lines.append(
            f"| {standing.name} | {data['moves']} | {data['mean_move_ms']} | "
            f"{data['max_move_ms']} |"
        )
    return lines


def sandbox_lines(result: TournamentResult) -> list[str]:
    """What the sandbox enforced (nothing without outside bots)."""
    box = result.sandbox
    if box is None:
        return []
    limits = result.settings.limits
    text = (
        f"network {box.network}, filesystem {box.filesystem}, processes {box.processes}, "
        f"user {box.user}, {limits.memory_mb} MB of address space, process limit "
        f"{'enforced' if box.nproc else 'not enforced (root)'}"
    )
    if box.unprotected:
        text += f"; not read-only: {', '.join(box.unprotected)}"
    if box.notes:
        text += f"; {'; '.join(box.notes)}"
    return ["", "## Sandbox of the outside bots", "", text]


def wdl(tally: Tally) -> str:
    """``3-1-0``: wins, draws, losses."""
    return f"{tally.wins}-{tally.draws}-{tally.losses}"


def forfeit_text(standing: Standing) -> str:
    """``time 2, crash 1`` (``-`` for none)."""
    parts = [f"{reason} {standing.forfeits[reason]}" for reason in REASONS]
    shown = [part for part in parts if not part.endswith(" 0")]
    return ", ".join(shown) or "-"
