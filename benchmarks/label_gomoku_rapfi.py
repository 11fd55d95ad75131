"""Rapfi's values of the quiet positions of finished Gomoku games (issue 26): labels for
``fit_gomoku_eval.py --labels`` less noisy than the games' results.

    python benchmarks/label_gomoku_rapfi.py --engine /tmp/i26_rapfi/build/pbrain-rapfi \\
        --games benchmarks/data/gomoku_rapfi_selfplay.txt.gz benchmarks/data/gomoku_*records.txt \\
        --nodes 3000 --out /tmp/labels.txt && gzip -9 /tmp/labels.txt

The quiet positions are the fit's (``fit_gomoku_eval.quiet_positions``: no four on the board,
no VCF for the side to move, from ply 5 on). Rapfi (one thread) searches each ``--nodes``
nodes (``INFO max_node``) and its ``MESSAGE ... Eval E`` line gives its value for the side
to move (centipawn-like; a proved win or loss in ``n`` plies ``+Mn``/``-Mn``). One line per
position: ``game G | ply P | result R | eval E | stones x,y ...`` (``G`` the game's number
among the files' games, ``R`` the game's result for the side to move: 1, 0, 0.5), so the
fit repeats without Rapfi (a position Rapfi answers without a value, ``Eval VAL_NONE``,
is left out). ``--every N`` keeps every N-th game only (the first 0, N, 2N ...; with
``--offset F`` the games F, F + N, F + 2N ...: ``--every 2 --offset 1`` the other half), and
``--first G`` leaves out the games numbered below G (games of files labelled before, listed
first so that the numbers stay the same).
Budgets are nodes: the labels do not move with the load.
"""

from __future__ import annotations

import argparse
import shutil
import time

from bench_gomoku_peers import load
from fit_gomoku_eval import Game, quiet_positions, read_games
from gomoku_blunders import judge, start_judge


def kept_game(game: Game, number: int, args: argparse.Namespace) -> Game | None:
    """``game`` if its number is one ``--every``, ``--offset`` and ``--first`` keep."""
    chosen = number >= args.first and number % args.every == args.offset
    return game if chosen else None


def main(argv: list[str] | None = None) -> None:
    """Parse the options, label, write."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="Rapfi's Gomocup brain")
    parser.add_argument("--games", nargs="+", required=True, help="files of finished games")
    parser.add_argument("--nodes", type=int, default=3000, help="Rapfi's nodes a position")
    parser.add_argument("--every", type=int, default=1, help="every N-th game only")
    parser.add_argument("--offset", type=int, default=0, help="with --every: the first game")
    parser.add_argument("--first", type=int, default=0, help="leave out games numbered below")
    parser.add_argument("--out", required=True, help="the labels' text file (appended to)")
    args = parser.parse_args(argv)
    if not shutil.which(args.engine):
        parser.error(f"--engine {args.engine}: not an executable program")
    games = read_games(args.games)
    kept = [kept_game(g, i, args) for i, g in enumerate(games)]
    print(
        f"load before: {load()}; {len(games)} games, every {args.every} from {args.offset}, "
        f"{sum(g is not None for g in kept)} kept",
        flush=True,
    )
    brain = start_judge(args.engine)
    started, count, skipped = time.perf_counter(), 0, 0
    try:
        with open(args.out, "a") as out:
            for number, ply, result, _, _ in quiet_positions(kept):
                stones = list(kept[number].stones[:ply])  # type: ignore[union-attr]
                verdict = judge(brain, stones, args.nodes)
                if not verdict.known:  # Rapfi's "Eval VAL_NONE": a move without a search
                    skipped += 1
                    continue
                moves = " ".join(f"{x},{y}" for x, y in stones)
                out.write(
                    f"game {number} | ply {ply} | result {result:g} | eval {verdict.raw} | "
                    f"stones {moves}\n"
                )
                count += 1
                if count % 1000 == 0:
                    out.flush()
                    print(f"{count} positions, {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        brain.close()
    seconds = time.perf_counter() - started
    print(f"{count} positions in {seconds:.0f} s ({skipped} without a value); load: {load()}")


if __name__ == "__main__":
    main()
