"""Where perfectplay's lost Gomoku games were lost, by an outside engine as the judge (issue 26).

    python benchmarks/gomoku_blunders.py --engine /tmp/i26_rapfi/build/pbrain-rapfi \\
        --match "vs 24000 nodes" --colour white --nodes 300000
    python benchmarks/gomoku_blunders.py --engine ENGINE --match "vs 24000 nodes" --probe 1.0
    python benchmarks/gomoku_blunders.py --engine ENGINE --match s13-main- --attacker 4000000

Reads the games of ``--records`` (``bench_gomoku_peers.py``'s lines) that contain ``--match``
and that perfectplay lost with ``--colour``; for every position from the opening on, the judge
(a Gomocup brain that prints Rapfi's ``MESSAGE ... Eval E ...`` line before its move: Rapfi)
searches ``--nodes`` nodes (``INFO max_node``) and gives its value for the side to move
(centipawn-like; ``+M19``/``-M19``: a win or loss in 19 plies, here +/-20000). A move of
perfectplay's is a **blunder** when the judge's value for perfectplay falls from above
-3000 before it to a proved loss after it and the judge preferred another move; a
**slide** when it falls by ``--drop`` or more without a proof. Prints each game's blunders
and slides, then a summary. With ``--probe SECONDS`` perfectplay's engine of this checkout
(``api.best`` with that time) searches each blunder's position again, and the judge says
whether its move now is still lost: how many of the old blunders the engine avoids now.
With ``--attacker NODES`` the engine plays the other side instead: it searches the position
after each blunder, the opponent to move, that many nodes (a budget that does not move with
the load; about 1.3 M a second) and says whether it proves the opponent's win: a refutation
our own search finds is one a deeper root search could have seen, one it does not find is a
blind spot.
``--trajectory N`` judges instead every game of ``--colour`` (won or lost) before each of
perfectplay's first N moves after the opening and prints the judge's value for perfectplay
there, a game a line, then each move's median over the games (a proved result counts
+/-20000): where, on the whole, the games drift away.
The judge's budgets are nodes, so its verdicts do not move with the load; ``--probe`` is
timed.
``--param NAME=VALUE`` and ``--values NAME`` set the probed engine's runtime parameters and
pattern values, as ``bench_gomoku_peers.py`` does (:mod:`gomoku_params`).
"""

from __future__ import annotations

import argparse
import itertools
import re
import shutil
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_gomoku_peers import ONE_CORE, RECORDS, Brain, board_block, load
from gomoku_params import add_settings, with_params

from perfectplay import api

MATE = 20000
"""The judge's proved win (its ``+M<n>``), in its value's units."""
LOST = -3000
"""A value for perfectplay at or below this is a proved loss (the judge's ``-M<n>``)."""
ANSWER_SECONDS = 600.0
OPENING_STONES = 3
"""The stones of each match opening (``bench_gomoku_peers.py``'s openings files)."""


@dataclass(frozen=True)
class Verdict:
    """The judge's value of a position for the side to move, and its move. ``known`` is
    False when the judge gave no value (Rapfi's ``Eval VAL_NONE``, a move without a search):
    ``value`` is then 0, never a proved loss, so such a move is never counted a blunder."""

    value: int
    raw: str
    move: tuple[int, int]
    known: bool = True


def parse_game(line: str) -> tuple[str, list[tuple[int, int]]]:
    """``(label, stones)`` of a record line (the harness's, or one with a run's name put
    first): the opening and the moves, ``x,y`` each; the label is the other fields."""
    fields = [part.strip() for part in line.split("|")]
    stones = []
    for name in ("opening", "moves"):
        (part,) = (f for f in fields if f.startswith(name + " "))
        stones += [tuple(int(v) for v in m.split(",")) for m in part.split()[1:]]
    label = " ".join(f for f in fields if not f.startswith(("opening ", "moves ")))
    return label, stones  # type: ignore[return-value]


def value_of(raw: str) -> int:
    """The judge's ``Eval`` field as a number (mates as +/-:data:`MATE`)."""
    if "M" in raw:
        return -MATE if raw.startswith("-") else MATE
    return int(raw)


def start_judge(engine: str) -> Brain:
    """The judge's brain, started on 15x15 with one core and no clock worth the name."""
    brain = Brain([engine], "judge")
    brain.send("START 15", *ONE_CORE, "INFO timeout_match 100000000", "INFO timeout_turn 600000")
    return brain


def judge(brain: Brain, stones: list[tuple[int, int]], nodes: int) -> Verdict:
    """The judge's verdict on the position after ``stones`` (its side: the one to move)."""
    brain.send(f"INFO max_node {nodes}", *board_block(stones))
    raw = "VAL_NONE"
    while True:
        line = brain.lines.get(timeout=ANSWER_SECONDS)
        if line is None:
            raise SystemExit(f"{brain.name} exited")
        found = re.search(r"\bEval (\S+)", line)
        if line.startswith("MESSAGE") and found:
            raw = found.group(1)
        elif re.fullmatch(r"\d+,\d+", line):
            x, y = (int(v) for v in line.split(","))
            known = re.fullmatch(r"[-+]?M?\d+", raw) is not None
            return Verdict(value_of(raw) if known else 0, raw, (x, y), known)


@dataclass
class Blunder:
    """A move of perfectplay's after which the judge proves a loss it did not before."""

    stones: list[tuple[int, int]]
    played: tuple[int, int]
    better: tuple[int, int]
    before: str
    after: str


def blunders_of(
    brain: Brain, stones: list[tuple[int, int]], ours_first: int, args: argparse.Namespace
) -> list[Blunder]:
    """Each of perfectplay's moves judged; prints the blunders and slides."""
    verdicts = [judge(brain, stones[:j], args.nodes) for j in range(3, len(stones))]
    found = []
    for j, (now, nxt) in enumerate(itertools.pairwise(verdicts), start=3):
        if (j - ours_first) % 2:
            continue
        after = -nxt.value
        if now.value > LOST >= after and now.move != stones[j]:
            found.append(Blunder(stones[:j], stones[j], now.move, now.raw, nxt.raw))
            kind = "blunder"
        elif now.value - after >= args.drop:
            kind = "slide"
        else:
            continue
        print(
            f"  ply {j + 1:3} {kind:7}: {now.raw:>6} -> {-nxt.value:6}, played {stones[j]}, "
            f"the judge's {now.move}",
            flush=True,
        )
    return found


def board_after(stones: list[tuple[int, int]]) -> tuple[Any, Any]:
    """``(game, position)``: 15x15 freestyle after ``stones`` (``(x, y)`` each, black first)."""
    game, position = api.new_game("tictactoe", size="15x15", k=5)
    for x, y in stones:
        position = game.play(position, (y, x))
    return game, position


def probe(brain: Brain, blunder: Blunder, seconds: float, args: argparse.Namespace) -> bool:
    """Whether this checkout's engine, ``seconds`` on the blunder's position, plays a move
    the judge does not prove lost."""
    game, position = board_after(blunder.stones)
    move = api.best(game, position, api.limit(time=seconds)).best_move
    assert isinstance(move, tuple), f"a running game has a move, not {move!r}"
    row, col = move
    verdict = judge(brain, [*blunder.stones, (col, row)], args.nodes)
    safe = -verdict.value > LOST
    print(f"  probe: now {(col, row)} ({'safe' if safe else 'lost'}: {verdict.raw})", flush=True)
    return safe


def attack(blunder: Blunder, nodes: int) -> bool:
    """Whether this checkout's engine, searching ``nodes`` nodes as the opponent after the
    blunder, proves the opponent's win (the judge's proved loss seen from the winner's side);
    prints the engine's value, depth, nodes and time."""
    game, position = board_after([*blunder.stones, blunder.played])
    result = api.best(game, position, api.limit(nodes=nodes))
    proved = result.score.outcome == "win"
    print(
        f"  attacker: {result.score} at depth {result.depth}, {result.nodes} nodes in "
        f"{result.time:.2f} s (the judge: {blunder.after})",
        flush=True,
    )
    return proved


def ours_first(colour: str) -> int:
    """The index of perfectplay's first stone in a game's stones (the opening's first) when it
    plays ``colour``: white moves right after the opening, black one move later."""
    return OPENING_STONES + (colour == "black")


def trajectory(brain: Brain, lines: list[str], moves: int, args: argparse.Namespace) -> None:
    """The judge's value for perfectplay before each of its first ``moves`` moves after the
    opening (:func:`parse_game`'s stones: the opening's three first), a game a line, then
    the medians of each move over the games that reached it."""
    first = ours_first(args.colour)
    columns: list[list[int]] = [[] for _ in range(moves)]
    for line in lines:
        label, stones = parse_game(line)
        values = []
        for number, ply in enumerate(range(first, min(len(stones), first + 2 * moves), 2)):
            values.append(judge(brain, stones[:ply], args.nodes).value)
            columns[number].append(values[-1])
        print(" ".join(f"{value:6}" for value in values), label, flush=True)
    medians = ", ".join(
        f"ply {first + 1 + 2 * number}: {statistics.median(column):g} ({len(column)} games)"
        for number, column in enumerate(columns)
        if column
    )
    print(f"the judge's medians for perfectplay as {args.colour}: {medians}")


def main(argv: list[str] | None = None) -> None:
    """Parse the options, judge, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the judge: Rapfi's Gomocup brain")
    parser.add_argument("--records", default=str(RECORDS))
    parser.add_argument("--match", default="", help="only record lines containing this")
    parser.add_argument("--colour", choices=("black", "white"), default="white")
    parser.add_argument("--nodes", type=int, default=300_000, help="the judge's nodes a look")
    parser.add_argument("--drop", type=int, default=150, help="a slide's least fall")
    parser.add_argument("--games", type=int, default=0, help="the first N games only (0: all)")
    parser.add_argument("--probe", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument(
        "--attacker",
        type=int,
        default=0,
        metavar="NODES",
        help="our engine, as the opponent after each blunder, looks for its win in NODES nodes",
    )
    parser.add_argument(
        "--trajectory", type=int, default=0, metavar="N", help="judge our first N moves instead"
    )
    add_settings(parser, "", "the probed engine")
    args = parser.parse_args(argv)
    if args.param or args.values:
        with_params(args.param, args.values)
    if args.attacker < 0:
        parser.error(f"--attacker {args.attacker}: a number of nodes, 0 or more")
    if args.probe < 0:
        parser.error(f"--probe {args.probe}: a number of seconds, 0 or more")
    if args.trajectory < 0:
        parser.error(f"--trajectory {args.trajectory}: a number of moves, 0 or more")
    if not Path(args.records).is_file():
        parser.error(f"--records {args.records}: no such file")
    if not shutil.which(args.engine):
        parser.error(f"--engine {args.engine}: not an executable program")
    games = "" if args.trajectory else " | loss"
    lines = [
        line
        for line in Path(args.records).read_text().splitlines()
        if args.match in line and f"perfectplay {args.colour}{games}" in line
    ][: args.games or None]
    print(f"load before: {load()}", flush=True)
    brain = start_judge(args.engine)
    try:
        if args.trajectory:
            trajectory(brain, lines, args.trajectory, args)
        else:
            blunders(brain, lines, args)
    finally:
        brain.close()
    print(f"load after: {load()}")


def blunders(brain: Brain, lines: list[str], args: argparse.Namespace) -> None:
    """The lost games' blunders and slides (:func:`blunders_of`), each blunder probed with
    ``--probe`` and searched from the winner's side with ``--attacker`` when given, and the
    summary."""
    found: list[Blunder] = []
    for line in lines:
        label, stones = parse_game(line)
        print(f"{label}: {len(stones)} stones", flush=True)
        found += blunders_of(brain, stones, ours_first(args.colour), args)
    safe = sum(probe(brain, b, args.probe, args) for b in found) if args.probe else None
    seen = sum(attack(b, args.attacker) for b in found) if args.attacker else None
    print(f"{len(lines)} lost games as {args.colour}, {len(found)} blunders into a proved loss")
    if safe is not None:
        print(f"probe at {args.probe} s: the engine now avoids {safe} of the {len(found)}")
    if seen is not None:
        print(
            f"attacker at {args.attacker} nodes: the engine proves the opponent's win after "
            f"{seen} of the {len(found)}"
        )


if __name__ == "__main__":
    main()
