"""perfectplay's Gomocup brain against an outside Gomocup engine (issue 26, item 1): a match
referee of our own, one game at a time, on 15x15 under the same rule for both.

    python benchmarks/bench_gomoku_peers.py --engine /tmp/rapfi/build/pbrain-rapfi --nodes 1500
    python benchmarks/bench_gomoku_peers.py --engine ENGINE --opponent-ms 1000    # 1 s a move
    python benchmarks/bench_gomoku_peers.py --engine ENGINE --ladder 1000 --rungs 4
    python benchmarks/bench_gomoku_peers.py --engine self --opponent-ms 300   # our own brain
    python benchmarks/bench_gomoku_peers.py --engine self --ms 500 --opponent-ms 500 \\
        --param FUTILITY_DEPTH=0 --opponent-param FUTILITY_DEPTH=4   # two settings, one checkout
    python benchmarks/bench_gomoku_peers.py --engine ENGINE --nodes 12000 --values classes
    python benchmarks/bench_gomoku_peers.py --engine ENGINE --nodes 25000 --order-values fitted

Every opening of ``--openings`` (default ``benchmarks/data/gomoku_openings.txt``: 12 openings
of three stones) is played twice, perfectplay with each colour; the engines get the opening
by ``BOARD`` on their first move and ``TURN`` after it. perfectplay has ``--ms`` a move
(1000; ``--perfectplay-nodes N`` adds a node budget a move, ``INFO max_node N``); the
opponent either a node budget a move (``--nodes N``: ``INFO max_node N``,
Rapfi's and Yixin-Board's extension, with a generous turn time) or a time (``--opponent-ms``).
The referee judges with perfectplay's own rules (five or more wins with ``--rule 0``, exactly
five with ``--rule 1``); a move that is not an empty cell, an answer that is not a move, a
crash or a move past ``timeout_turn + --grace-ms`` loses the game. It prints one line a game
and a summary: W-L-D for perfectplay by colour, the score, every move of perfectplay over
its turn time (strictly), its slowest move and START, and the load (``uptime``) before and
after. ``--ladder N`` plays the opponent at N, 2N, 4N, ... nodes (``--rungs``) and reports
the N at which perfectplay scores 50 % (log-linear between the rungs around it). The games
are appended to ``--records`` (one line each: opening, moves as ``x,y``, result, and last the
board and rule, ``board 15x15 rule 0``; the settings played, ``--values`` and ``--param``, in
its label; ``--name RUN`` first).
``--values NAME`` (and ``--opponent-values NAME`` with ``--engine self``) plays perfectplay
with a named set of pattern values (``pattern_values.NAMED_VALUES``), named in the records'
label; ``--order-values NAME`` (``--opponent-order-values``) a named set ordering the moves
while the evaluation keeps ``--values``' set (or the default), "order NAME" in the label.

Building Rapfi's classical engine (GPL-3.0: built for this benchmark only, never committed
nor imported; github.com/dhbloo/rapfi), on Linux with CMake and a C++20 compiler::

    git clone https://github.com/dhbloo/rapfi /tmp/rapfi-src     # or the mirror's Rapfi/ tree
    cmake -S /tmp/rapfi-src/Rapfi -B /tmp/rapfi-build -DCMAKE_BUILD_TYPE=Release \\
          -DNO_COMMAND_MODULES=ON
    cmake --build /tmp/rapfi-build -j2                           # about 15 min on 2 busy cores
    # /tmp/rapfi-build/pbrain-rapfi: without a config.toml beside it (or --config) Rapfi
    # runs its internal configuration, the classical evaluation (pattern tables, no network);
    # the classical weights of github.com/dhbloo/rapfi-networks (classical/*.bin with a
    # config-example/*.toml) are the alternative.

Run it one thread (Rapfi's default ``INFO thread_num`` is 1) on a machine as quiet as it
gets; the load is printed with the result. Record every run in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from gomoku_params import add_order_values, add_settings, brain_command, setting_text

from perfectplay import api

HERE = Path(__file__).resolve().parent
OPENINGS = HERE / "data" / "gomoku_openings.txt"
RECORDS = HERE / "data" / "gomoku_peers_records.txt"
SIZE = 15
START_SECONDS = 30.0
"""How long the referee waits for START's OK (a first compile takes longer: run
``perfectplay warm gomoku`` first)."""
READY = "MESSAGE perfectplay: engine loaded"
"""What perfectplay's brain says once its engine is loaded (the manager waits for it)."""
LOAD_SECONDS = 180.0
NODE_MODE_TURN_MS = 30_000
"""The opponent's turn time when it plays by nodes (the node budget ends its search)."""
RETRIES = 3
RETRY_SECONDS = 0.05
"""How often, and after how long, a command the opponent answered with ``ERROR`` is sent
again (see :func:`retried`)."""
ONE_CORE = ("INFO thread_num 1", "INFO pondering 0")
"""The opponent searches on one thread and not on our time (keys other brains ignore)."""
RESULT_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
"""perfectplay's points for a game's result (a record's ``win``, ``draw`` or ``loss``)."""


class Brain:
    """A Gomocup brain process and its answers (``MESSAGE``/``DEBUG`` lines set aside)."""

    def __init__(self, command: list[str], name: str) -> None:
        self.name = name
        pipe = subprocess.PIPE
        self.process = subprocess.Popen(
            command, stdin=pipe, stdout=pipe, stderr=subprocess.DEVNULL, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, out: IO[str]) -> None:
        for line in out:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        """Write ``lines`` to the brain."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def wait_for(self, line: str, timeout: float) -> bool:
        """Whether the brain said ``line`` within ``timeout`` (other lines dropped)."""
        ends = time.perf_counter() + timeout
        while (left := ends - time.perf_counter()) > 0:
            try:
                said = self.lines.get(timeout=left)
            except queue.Empty:
                return False
            if said is None or said == line:
                return said == line
        return False

    def answer(self, timeout: float) -> tuple[str | None, float]:
        """The brain's next answer (not a ``MESSAGE``, ``DEBUG`` or ``INFO`` line) and the
        seconds it took; ``None`` when it said nothing within ``timeout`` or exited."""
        started = time.perf_counter()
        while True:
            left = timeout - (time.perf_counter() - started)
            try:
                line = self.lines.get(timeout=max(0.001, left))
            except queue.Empty:
                return None, time.perf_counter() - started
            if line is None:
                return None, time.perf_counter() - started
            if line and line.split()[0].upper() not in ("MESSAGE", "DEBUG", "INFO"):
                return line, time.perf_counter() - started

    def close(self) -> None:
        """END, then the process is gone."""
        try:
            self.send("END")
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


@dataclass
class Side:
    """One player of the match: its brain, its clock and what it is told at START."""

    brain: Brain
    turn_ms: int
    infos: tuple[str, ...] = ()


@dataclass
class Game:
    """One game's record."""

    opening: tuple[tuple[int, int], ...]
    ours_black: bool
    moves: list[tuple[int, int]] = field(default_factory=list)
    result: str = ""
    """``win``, ``loss`` or ``draw`` for perfectplay."""
    reason: str = ""


@dataclass
class Tally:
    """Results for perfectplay by colour, and its clock."""

    games: list[Game] = field(default_factory=list)
    over_time: list[tuple[int, float]] = field(default_factory=list)
    slowest: float = 0.0
    slowest_start: float = 0.0

    def count(self, black: bool) -> tuple[int, int, int]:
        """W-L-D of perfectplay's games as black (or white)."""
        mine = [g.result for g in self.games if g.ours_black is black]
        return mine.count("win"), mine.count("loss"), mine.count("draw")

    def score(self) -> float:
        """perfectplay's share of the points (a draw half)."""
        points = sum(RESULT_POINTS[g.result] for g in self.games)
        return points / max(1, len(self.games))


def read_openings(path: Path) -> list[tuple[tuple[int, int], ...]]:
    """The openings of ``path``: one a line, moves ``x,y`` (0-based, black first) separated by
    spaces; ``#`` starts a comment."""
    found = []
    for raw in path.read_text().splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            found.append(tuple((int(x), int(y)) for x, y in (m.split(",") for m in text.split())))
    return found


def play(
    ours: Side,
    theirs: Side,
    opening: tuple[tuple[int, int], ...],
    ours_black: bool,
    rule: int,
    grace_ms: int,
    tally: Tally,
    size: int = SIZE,
) -> Game:
    """One game from ``opening`` on a ``size`` board; the referee's board is perfectplay's
    own rules."""
    record = Game(opening, ours_black)
    board = f"{size}x{size}"
    game, position = api.new_game("gomoku" if rule & 1 else "tictactoe", size=board, k=5)
    for side in (ours, theirs):
        side.brain.send(f"START {size}")
        ok, seconds = side.brain.answer(START_SECONDS)
        if side is theirs:
            ok, seconds = retried(side.brain, f"START {size}", ok, seconds, START_SECONDS)
        if side is ours:
            tally.slowest_start = max(tally.slowest_start, seconds)
        if ok != "OK":
            return finish(
                record, "loss" if side is ours else "win", f"{side.brain.name} START: {ok}"
            )
        side.brain.send(f"INFO rule {rule}", f"INFO timeout_turn {side.turn_ms}", *side.infos)
    stones: list[tuple[int, int]] = list(opening)
    for x, y in opening:
        position = game.play(position, (y, x))
    told = {id(ours): False, id(theirs): False}
    while game.outcome(position) is None and len(stones) < size * size:
        black_to_move = len(stones) % 2 == 0
        mover = ours if black_to_move == ours_black else theirs
        turn = told[id(mover)]
        if turn:
            mover.brain.send(f"TURN {stones[-1][0]},{stones[-1][1]}")
        else:
            mover.brain.send(*board_block(stones))
            told[id(mover)] = True
        limit = (mover.turn_ms + grace_ms) / 1000
        reply, seconds = mover.brain.answer(limit + 5)
        if mover is theirs and turn:
            command = f"TURN {stones[-1][0]},{stones[-1][1]}"
            reply, seconds = retried(mover.brain, command, reply, seconds, limit + 5)
        if mover is ours:
            tally.slowest = max(tally.slowest, seconds)
            if seconds * 1000 > mover.turn_ms:
                tally.over_time.append((len(stones) + 1, seconds))
        loser = "loss" if mover is ours else "win"
        if reply is None or seconds > limit:
            return finish(record, loser, f"{mover.brain.name}: no move within {limit:.1f} s")
        try:
            x, y = (int(part) for part in reply.split(","))
            position = game.play(position, (y, x))
        except (ValueError, api.PerfectplayError):
            return finish(record, loser, f"{mover.brain.name}: bad move {reply!r}")
        stones.append((x, y))
        record.moves.append((x, y))
    outcome = game.outcome(position)
    if outcome is None or outcome.winner is None:
        return finish(record, "draw", "board full")
    black_won = len(stones) % 2 == 1
    return finish(record, "win" if black_won == ours_black else "loss", "five")


def board_block(stones: list[tuple[int, int]]) -> list[str]:
    """The ``BOARD`` ... ``DONE`` lines that give a brain the game so far (``x,y`` stones from
    the first), the side to move's stones marked 1, the other's 2."""
    mine = len(stones) % 2
    marked = (f"{x},{y},{1 if i % 2 == mine else 2}" for i, (x, y) in enumerate(stones))
    return ["BOARD", *marked, "DONE"]


def retried(
    brain: Brain, command: str, reply: str | None, seconds: float, timeout: float
) -> tuple[str | None, float]:
    """The opponent's answer, ``command`` sent again (up to :data:`RETRIES` times) while it
    answers ``ERROR``: Rapfi drops a command that comes while it is still marked as thinking
    just after its move (its first word dropped, it then calls the rest an unknown command:
    ``ERROR Unknown command: 15`` for a ``START 15`` right after its winning move, the same
    for a ``TURN`` after a quick answer of ours); its state is unchanged then."""
    for _ in range(RETRIES):
        if reply is None or not reply.startswith("ERROR"):
            break
        time.sleep(RETRY_SECONDS)
        brain.send(command)
        reply, seconds = brain.answer(timeout)
    return reply, seconds


def finish(record: Game, result: str, reason: str) -> Game:
    """``record`` with its result."""
    record.result, record.reason = result, reason
    return record


def load() -> str:
    """The load averages (``uptime``'s last field)."""
    try:
        return subprocess.run(
            ["uptime"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        return "uptime unavailable"


def opponent_command(
    engine: str,
    settings: list[tuple[int, int]],
    values_set: str | None = None,
    order_set: str | None = None,
) -> list[str]:
    """The opponent's command: ``self`` is perfectplay's own brain (with ``settings`` and
    the named ``values_set`` and ``order_set``)."""
    if engine != "self":
        return [engine]
    return [*brain_command(settings, values_set, order_set), "gomocup", "tictactoe"]


def match(args: argparse.Namespace, nodes: int | None) -> Tally:
    """One match: every opening with both colours, one game at a time."""
    openings = read_openings(Path(args.openings))
    budget = args.perfectplay_nodes
    own_infos = () if budget is None else (f"INFO max_node {budget}",)
    command = [*brain_command(args.param, args.values, args.order_values), "gomocup", "tictactoe"]
    ours = Side(Brain(command, "perfectplay"), args.ms, own_infos)
    ready = ours.brain.wait_for(READY, LOAD_SECONDS)
    print(f"perfectplay's engine {'loaded' if ready else 'NOT loaded'} before the first game")
    opponent = Brain(
        opponent_command(
            args.engine, args.opponent_param, args.opponent_values, args.opponent_order_values
        ),
        "opponent",
    )
    if nodes is None:
        theirs = Side(opponent, args.opponent_ms, ONE_CORE)
    else:
        theirs = Side(opponent, NODE_MODE_TURN_MS, (*ONE_CORE, f"INFO max_node {nodes}"))
    if args.engine == "self" or args.perfectplay_opponent:
        # Another perfectplay brain (this one, or a wrapper of an older commit): its moves
        # before its engine loads would be the fallback's, not its search's.
        ready = theirs.brain.wait_for(READY, LOAD_SECONDS)
        print(f"the opponent's engine {'loaded' if ready else 'NOT loaded'} before the first game")
    tally = Tally()
    label = run_label(args, nodes)
    try:
        for number, opening in enumerate(openings[: args.count or None], 1):
            for ours_black in (True, False):
                record = play(
                    ours, theirs, opening, ours_black, args.rule, args.grace_ms, tally, args.size
                )
                tally.games.append(record)
                colour = "black" if ours_black else "white"
                print(
                    f"opening {number:2} perfectplay {colour}: {record.result:4} "
                    f"({record.reason}, {len(record.moves)} moves) vs {label}",
                    flush=True,
                )
                save(args.records, record, label, args.name, board=board_text(args))
    finally:
        ours.brain.close()
        theirs.brain.close()
    return tally


def run_label(args: argparse.Namespace, nodes: int | None) -> str:
    """What perfectplay played against, and with which settings, as the records name it:
    the opponent's nodes or time, then the values set and the ``--param`` settings given,
    then the opponent's (``--opponent-values``, ``--opponent-param``) after "against"."""
    label = f"{nodes} nodes" if nodes is not None else f"{args.opponent_ms} ms"
    label += settings_text(args.values, args.param, args.order_values)
    theirs = settings_text(args.opponent_values, args.opponent_param, args.opponent_order_values)
    return label + (f"; against{theirs[1:]}" if theirs else "")


def settings_text(
    values: str | None, params: list[tuple[int, int]], order: str | None = None
) -> str:
    """``, values NAME, order NAME, NAME=VALUE, ...`` of one side's settings ("" when
    none)."""
    text = "" if values is None else f", values {values}"
    text += "" if order is None else f", order {order}"
    return text + "".join(f", {setting_text(index, value)}" for index, value in params)


def board_text(args: argparse.Namespace) -> str:
    """The board and rule of a run as its records name them: ``15x15 rule 0``."""
    return f"{args.size}x{args.size} rule {args.rule}"


def save(path: str, record: Game, label: str, name: str | None = None, *, board: str) -> None:
    """Append the game to the records file (``name``, a run's, first when given; ``board``,
    :func:`board_text`, last)."""
    opening = " ".join(f"{x},{y}" for x, y in record.opening)
    moves = " ".join(f"{x},{y}" for x, y in record.moves)
    colour = "black" if record.ours_black else "white"
    with open(path, "a") as out:
        out.write(
            ("" if name is None else f"{name} | ")
            + f"{time.strftime('%Y-%m-%d %H:%M')} | vs {label} | perfectplay {colour} | "
            f"{record.result} ({record.reason}) | opening {opening} | moves {moves} | "
            f"board {board}\n"
        )


def report(tally: Tally, label: str) -> str:
    """The summary lines of a match."""
    bw, bl, bd = tally.count(True)
    ww, wl, wd = tally.count(False)
    over = ", ".join(f"ply {ply}: {s * 1000:.0f} ms" for ply, s in tally.over_time) or "none"
    return (
        f"vs {label}: perfectplay as black {bw}-{bl}-{bd}, as white {ww}-{wl}-{wd} (W-L-D), "
        f"score {tally.score():.0%} of {len(tally.games)} games\n"
        f"  moves over the turn time: {over}; slowest move {tally.slowest * 1000:.0f} ms, "
        f"slowest START {tally.slowest_start * 1000:.0f} ms"
    )


def half_point(rungs: list[tuple[int, float]]) -> str:
    """The node budget at which perfectplay scores 50 %, between the rungs around it."""
    for (n1, s1), (n2, s2) in itertools.pairwise(rungs):
        if s1 >= 0.5 >= s2 and s1 != s2:
            t = (s1 - 0.5) / (s1 - s2)
            return f"{math.exp(math.log(n1) + t * (math.log(n2) - math.log(n1))):,.0f}"
    if rungs and rungs[-1][1] >= 0.5:
        return f"above {rungs[-1][0]:,}"
    return f"below {rungs[0][0]:,}" if rungs else "no games"


def run_name(text: str) -> str:
    """``--name``: one word of letters, digits, ``-``, ``_`` and ``.`` (a record's field)."""
    if not text or any(not (c.isalnum() or c in "-_.") for c in text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a run's name is one word (letters, digits, -_.)"
        )
    return text


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the opponent's Gomocup brain, or self")
    parser.add_argument("--openings", default=str(OPENINGS))
    parser.add_argument("--count", type=int, default=0, help="first N openings only (0: all)")
    parser.add_argument("--ms", type=int, default=1000, help="perfectplay's turn time")
    parser.add_argument("--opponent-ms", type=int, default=1000)
    parser.add_argument("--nodes", type=int, help="the opponent's node budget a move")
    parser.add_argument(
        "--perfectplay-nodes",
        type=int,
        help="perfectplay's node budget a move (INFO max_node; its VCF nodes not counted): "
        "strength per node, whatever the load; give a --ms the budget fits in",
    )
    parser.add_argument("--ladder", type=int, help="the first rung's node budget")
    parser.add_argument("--rungs", type=int, default=4)
    parser.add_argument("--rule", type=int, default=0, choices=(0, 1))
    parser.add_argument("--size", type=int, default=SIZE, help="the board's side (15; 20)")
    parser.add_argument("--grace-ms", type=int, default=1000, help="lateness before a forfeit")
    parser.add_argument("--records", default=str(RECORDS))
    parser.add_argument(
        "--name", type=run_name, help="a run's name, put first on each of its record lines"
    )
    parser.add_argument(
        "--perfectplay-opponent",
        action="store_true",
        help="the engine is a perfectplay brain (an older commit's): wait for its engine too",
    )
    add_settings(parser, "", "perfectplay's engine")
    add_order_values(parser, "", "perfectplay's engine")
    opponent = "the opponent when it is perfectplay's brain (--engine self)"
    add_settings(parser, "opponent-", opponent)
    add_order_values(parser, "opponent-", opponent)
    args = parser.parse_args(argv)
    theirs = (args.opponent_param, args.opponent_values, args.opponent_order_values)
    if any(theirs) and args.engine != "self":
        parser.error(
            "--opponent-param, --opponent-values and --opponent-order-values need --engine self"
        )
    print(f"load before: {load()}", flush=True)
    if args.ladder:
        rungs: list[tuple[int, float]] = []
        for i in range(args.rungs):
            nodes = args.ladder << i
            tally = match(args, nodes)
            rungs.append((nodes, tally.score()))
            print(report(tally, f"{nodes} nodes"), flush=True)
        print(f"perfectplay at {args.ms} ms scores 50 % against {half_point(rungs)} nodes a move")
    else:
        tally = match(args, args.nodes)
        label = f"{args.nodes} nodes" if args.nodes else f"{args.opponent_ms} ms"
        print(report(tally, label))
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
