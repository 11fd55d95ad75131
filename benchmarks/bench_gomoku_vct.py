"""The win by threats (VCT) on the positions our lost white games were lost in (issue 26).

    python benchmarks/bench_gomoku_vct.py --build --engine /tmp/i26_rapfi/build/pbrain-rapfi \\
        --records benchmarks/data/gomoku_threat_depth_records.txt --match "main-4808bb2-v"
    python benchmarks/bench_gomoku_vct.py --nodes 200000 --threats 8 \\
        --setting old VCT_MOVES=0 VCT_TABLE=0 --setting new VCT_MOVES=1 VCT_TABLE=16

``--build``: for each game of ``--records`` that perfectplay lost as white (lines containing
``--match``), the first position after one of its moves (ply 6 on) in which the judge (Rapfi's
Gomocup brain, ``--judge-nodes`` a look) proves a win for black to move; written to
:data:`POSITIONS` (one a line: the label, the stones ``x,y``, the judge's value, ``+M<n>``).

Otherwise each ``--setting`` (a name, then ``NAME=VALUE`` runtime parameters of the engine's
context: ``P_NAME`` of ``context_layout``) runs the compiled VCT (one threat deeper at a time
up to ``--threats``, one table for the passes) for the side to move on every position of the
file with ``--nodes`` nodes and no clock; prints per position and setting the plies proved
(0: none), the nodes spent and the time, then the totals. Nodes are the figure that does not
move with the machine's load; times are wall times of one process.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from gomoku_blunders import MATE, judge, parse_game, start_judge
from gomoku_params import parameter

from perfectplay.games.common.compiled_bits import NO_DEADLINE
from perfectplay.games.kernel import KernelOptions
from perfectplay.games.mnk import big_kernel, threat_compiled
from perfectplay.games.mnk import context_layout as layout
from perfectplay.games.mnk.big_kernel import BigMNKKernel
from perfectplay.games.mnk.rules import game

POSITIONS = Path(__file__).parent / "data" / "gomoku_vct_positions.txt"
"""The fixed set of positions (``--build`` writes it)."""
FIRST_PLY = 6
"""The first of perfectplay's moves whose position is judged."""
SIZE = 15


def build(args: argparse.Namespace) -> None:
    """Judge the lost white games' positions, write the first proved win of each."""
    lines = [
        line
        for line in Path(args.records).read_text().splitlines()
        if args.match in line and "perfectplay white | loss" in line
    ][: args.games or None]
    brain = start_judge(args.engine)
    rows = []
    try:
        for line in lines:
            label, stones = parse_game(line)
            for ply in range(FIRST_PLY, len(stones), 2):
                verdict = judge(brain, stones[:ply], args.judge_nodes)
                if verdict.value >= MATE:
                    moves = " ".join(f"{x},{y}" for x, y in stones[:ply])
                    rows.append(f"{label} | ply {ply} | {moves} | {verdict.raw}")
                    print(rows[-1], flush=True)
                    break
    finally:
        brain.close()
    Path(args.out).write_text("\n".join(rows) + "\n")
    print(f"{len(rows)} positions of {len(lines)} games into {args.out}")


def load_positions(path: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """``(label, stones x,y)`` of each line of the positions file."""
    found = []
    for line in Path(path).read_text().splitlines():
        fields = [f.strip() for f in line.split("|")]
        stones = [tuple(int(v) for v in m.split(",")) for m in fields[-2].split()]
        found.append((f"{fields[0][:40]} {fields[-3]} {fields[-1]}", stones))
    return found  # type: ignore[return-value]


def run_vct(
    stones: list[tuple[int, int]], settings: list[tuple[int, int]], args: argparse.Namespace
) -> tuple[int, int, float]:
    """``(plies, nodes, seconds)`` of the compiled VCT for the side to move."""
    g = game(SIZE, SIZE, 5)
    position = g.initial()
    for x, y in stones:
        position = g.play(position, (y, x))
    kernel = BigMNKKernel(g, KernelOptions())
    ctx = big_kernel.with_params(big_kernel.static_context(g.spec), dict(settings))
    st = kernel.state(position, ctx)
    stats = np.zeros(layout.STATS_SIZE, dtype=np.int64)
    stats[layout.S_BUDGET], stats[layout.S_DEADLINE] = 1 << 40, NO_DEADLINE
    stats[layout.S_VCF_LEFT] = args.nodes
    start = time.perf_counter()
    plies = threat_compiled.vct_deepening(kernel.side(position), args.threats, 0, ctx, st, stats)
    return int(plies), int(stats[layout.S_NODES]), time.perf_counter() - start


def compare(args: argparse.Namespace) -> None:
    """Every setting on every position: a row each, then the totals."""
    settings = [(name, [parameter(s) for s in rest]) for name, *rest in args.setting]
    positions = load_positions(args.positions)
    run_vct(positions[0][1], settings[0][1], args)  # compiled before the clock starts
    names = [name for name, _ in settings]
    proved = dict.fromkeys(names, 0)
    spent = dict.fromkeys(names, 0)
    took = dict.fromkeys(names, 0.0)
    for label, stones in positions:
        cells = []
        for name, chosen in settings:
            plies, nodes, seconds = run_vct(stones, chosen, args)
            proved[name] += plies > 0
            spent[name] += nodes
            took[name] += seconds
            cells.append(f"{name} {plies:3} plies {nodes:8} nodes {seconds:6.2f} s")
        print(f"{label:58} | " + " | ".join(cells), flush=True)
    for name in names:
        print(
            f"{name}: {proved[name]} of {len(positions)} proved, {spent[name]} nodes, "
            f"{took[name]:.1f} s"
        )


def main(argv: list[str] | None = None) -> None:
    """Parse the options, build or compare."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--engine", help="the judge: Rapfi's Gomocup brain (--build)")
    parser.add_argument("--records", default="benchmarks/data/gomoku_threat_depth_records.txt")
    parser.add_argument("--match", default="", help="only record lines containing this")
    parser.add_argument("--games", type=int, default=0, help="the first N games only (0: all)")
    parser.add_argument("--judge-nodes", type=int, default=300_000)
    parser.add_argument("--out", default=str(POSITIONS))
    parser.add_argument("--positions", default=str(POSITIONS))
    parser.add_argument("--nodes", type=int, default=200_000, help="the VCT's node allowance")
    parser.add_argument("--threats", type=int, default=8, help="the VCT's deepest, in threats")
    parser.add_argument(
        "--setting", nargs="+", action="append", metavar="NAME_THEN_PARAMS", default=[]
    )
    args = parser.parse_args(argv)
    if args.build:
        if not args.engine:
            parser.error("--build needs --engine")
        build(args)
    elif not args.setting:
        parser.error("give --setting NAME [PARAM=VALUE ...] at least once")
    else:
        compare(args)


if __name__ == "__main__":
    main()
