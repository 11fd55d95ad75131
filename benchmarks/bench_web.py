"""Load check of the web app on loopback: is ``/api/health`` responsive while the engine
works, and how fast are analysis requests?

    python benchmarks/bench_web.py [--searches 4] [--search-time 4] [--requests 200]

1. Starts ``perfectplay serve`` on a free loopback port with a fresh database (2 engine
   workers, the default 5 s cap) and waits until it answers.
2. Sends ``--searches`` concurrent long searches (Connect Four engine moves from early
   positions, ``--search-time`` seconds each) while another thread polls ``/api/health``
   back to back; prints the health latencies (p50, p99, max) and every search's answer.
3. Times ``--requests`` analysis requests one after another: tic-tac-toe 3x3 boards and
   Connect Four positions with 20 or more stones from the shared benchmark sets (exact
   analysis); prints p50, p95 and max per kind and checks the best score against the set's.

Nothing leaves the machine; the server is stopped at the end. Targets of the issue: health
p99 under 50 ms during the searches, analysis p95 under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "data" / "connect4_sets"
EARLY = ["", "4", "44", "43", "3", "45", "5", "444"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-c", "from perfectplay.cli import main; raise SystemExit(main())"]
    command += ["serve", "--port", str(port), "--db", str(db)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return server, base
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"n={len(ms)} p50={percentile(ms, 0.5):.1f} ms p95={percentile(ms, 0.95):.1f} ms "
        f"p99={percentile(ms, 0.99):.1f} ms max={max(ms):.1f} ms"
    )


def load_phase(base: str, searches: int, seconds: float) -> None:
    latencies: list[float] = []
    answers: list[dict[str, Any]] = []
    done = threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=base, timeout=10) as client:
            while not done.is_set():
                started = time.perf_counter()
                client.get("/api/health").raise_for_status()
                latencies.append(time.perf_counter() - started)
                time.sleep(0.005)

    def search(position: str) -> None:
        with httpx.Client(base_url=base, timeout=60) as client:
            started = time.perf_counter()
            body = {"position": position, "time": seconds}
            reply = client.post("/api/connect4/move", json=body)
            took = time.perf_counter() - started
            data = reply.json()
            answers.append(
                {"position": position, "status": reply.status_code, "wall_s": took, **data}
            )

    poller = threading.Thread(target=poll)
    poller.start()
    workers = [
        threading.Thread(target=search, args=(EARLY[i % len(EARLY)],)) for i in range(searches)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    done.set()
    poller.join()
    print(f"== {searches} concurrent Connect Four searches of {seconds:g} s, health polled")
    print(f"health: {summary(latencies)}")
    for answer in sorted(answers, key=lambda a: a["wall_s"]):
        best = answer.get("best_move") or {}
        print(
            f"  search {answer['position'] or '(empty)':>5}: HTTP {answer['status']}, column "
            f"{best.get('column')}, {answer.get('value')}, depth {answer.get('depth')}, "
            f"{answer.get('nodes', 0):,} nodes, engine {answer.get('time_ms', 0):.0f} ms, "
            f"wall {answer['wall_s']:.2f} s"
        )


def tictactoe_boards(count: int, rng: random.Random) -> list[str]:
    boards: list[str] = []
    while len(boards) < count:
        cells = ["_"] * 9
        for ply in range(rng.randrange(0, 8)):
            free = [i for i, c in enumerate(cells) if c == "_"]
            cells[rng.choice(free)] = "xo"[ply % 2]
        board = "/".join("".join(cells[r * 3 : r * 3 + 3]) for r in range(3))
        boards.append(board)
    return boards


def connect4_positions(count: int) -> list[tuple[str, int]]:
    found = []
    for name in ("middle-easy", "end-easy", "middle-medium"):
        for line in (SETS / f"{name}.txt").read_text().splitlines():
            moves, score = line.split()
            if len(moves) >= 20:
                found.append((moves, int(score)))
    return found[:count]


def analysis_phase(base: str, requests: int) -> None:
    rng = random.Random(1)
    print(f"== analysis requests, one at a time ({requests} per kind)")
    with httpx.Client(base_url=base, timeout=60) as client:
        times: list[float] = []
        for board in tictactoe_boards(requests, rng):
            started = time.perf_counter()
            reply = client.post("/api/tictactoe/analyze", json={"position": board})
            times.append(time.perf_counter() - started)
            if reply.status_code != 200:  # a random board may be finished or illegal
                continue
        print(f"tic-tac-toe 3x3: {summary(times)}")
        times, wrong, stones = [], 0, []
        for moves, score in connect4_positions(requests):
            started = time.perf_counter()
            reply = client.post("/api/connect4/analyze", json={"position": moves}).json()
            times.append(time.perf_counter() - started)
            stones.append(len(moves))
            wrong += max(m["score"] for m in reply["moves"]) != score
        print(
            f"Connect Four, {min(stones)}-{max(stones)} stones: {summary(times)}; "
            f"{wrong} best scores differ from the set's"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=4)
    parser.add_argument("--search-time", type=float, default=4.0)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, base = start_server(Path(folder) / "bench.sqlite3")
        try:
            load_phase(base, args.searches, args.search_time)
            analysis_phase(base, args.requests)
            print("engine:", json.dumps(httpx.get(f"{base}/api/health").json()["engine"]))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
