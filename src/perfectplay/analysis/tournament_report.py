"""A tournament's Markdown report: standings, crosstable, timing and forfeits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perfectplay.analysis.referee import REASONS

if TYPE_CHECKING:
    from perfectplay.analysis.tournament import Standing, Tally, TournamentResult


def markdown(result: TournamentResult) -> str:
    """The report: a title line with the settings, then the three tables."""
    settings = result.settings
    kind = "gauntlet" if settings.gauntlet else "round robin"
    lines = [
        f"# Tournament: {settings.game}, {kind}",
        "",
        f"{len(result.records)} games, {settings.rounds} round(s), {settings.time:g} s a move "
        f"(+ {settings.margin:g} s margin), seed {settings.seed}.",
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
    lines += ["", "## Crosstable (points of the row's player against the column's)", ""]
    names = [s.name for s in result.standings]
    lines.append("| | " + " | ".join(names) + " |")
    lines.append("|---" * (len(names) + 1) + "|")
    for me in names:
        cells = []
        for other in names:
            cell = result.crosstable.get(me, {}).get(other)
            cells.append("·" if cell is None else f"{cell[0]:g}/{cell[1]:g}")
        lines.append(f"| {me} | " + " | ".join(cells) + " |")
    lines += ["", "## Time per move", "", "| player | moves | mean ms | max ms |"]
    lines.append("|---|---|---|---|")
    for standing in result.standings:
        data = standing.as_dict()
        lines.append(
            f"| {standing.name} | {data['moves']} | {data['mean_move_ms']} | "
            f"{data['max_move_ms']} |"
        )
    if result.sandbox is not None:
        box = result.sandbox
        limits = settings.limits
        lines += [
            "",
            "## Sandbox of the outside bots",
            "",
            f"network {box.network}, filesystem {box.filesystem}, processes {box.processes}, "
            f"user {box.user}, {limits.memory_mb} MB of address space, process limit "
            f"{'enforced' if box.nproc else 'not enforced (root)'}"
            + (f"; not read-only: {', '.join(box.unprotected)}" if box.unprotected else "")
            + (f"; {'; '.join(box.notes)}" if box.notes else ""),
        ]
    return "\n".join(lines) + "\n"


def wdl(tally: Tally) -> str:
    """``3-1-0``: wins, draws, losses."""
    return f"{tally.wins}-{tally.draws}-{tally.losses}"


def forfeit_text(standing: Standing) -> str:
    """``time 2, crash 1`` (``-`` for none)."""
    parts = [f"{reason} {standing.forfeits[reason]}" for reason in REASONS]
    shown = [part for part in parts if not part.endswith(" 0")]
    return ", ".join(shown) or "-"
