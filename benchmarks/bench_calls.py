"""The fixed cost of one library call, against an earlier revision, interleaved in one run.

Positions solved in microseconds are dominated by what a call costs around the search:
parsing, building the kernel, allocating its table, loading compiled code. This runs the same
calls through ``perfectplay.api`` of the working tree and of ``--against REV`` (checked out
into a temporary git worktree), alternating the two several times, and prints the medians
and their ratio. Both sides must expose ``api.load`` and ``api.solve(game, position, limit)``.

    python3 benchmarks/bench_calls.py --against b5acdc8 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = (
    ("tictactoe", "xo_/___/___", None, 200),
    ("connect4", "44455554221", None, 200),
    ("connect4", "4453", 0.2, 5),
    ("simplexity", "4O 4X", 0.2, 5),
)
"""(game, position, time limit or None for exact, calls per measurement)."""

PROBE = """
import json, sys, time
from perfectplay import api
cases = json.loads(sys.argv[1])
out = []
for name, text, seconds, calls in cases:
    game, position = api.load(name, text)
    limit = api.limit(time=seconds) if seconds else api.limit()
    api.solve(game, position, limit)  # load the compiled code first
    began = time.perf_counter()
    for _ in range(calls):
        api.solve(game, position, limit)
    out.append((time.perf_counter() - began) / calls)
print(json.dumps(out))
"""


def measure(src: Path) -> list[float]:
    """Seconds per call of every case, in a fresh interpreter on ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(CASES)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return [float(v) for v in json.loads(done.stdout)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), args.against],
            check=True,
            capture_output=True,
        )
        try:
            runs: dict[str, list[list[float]]] = {"new": [], "old": []}
            for _ in range(args.rounds):
                runs["old"].append(measure(old / "src"))
                runs["new"].append(measure(ROOT / "src"))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)])
    print(f"| call | {args.against} | working tree | ratio |")
    print("|---|---|---|---|")
    for i, (name, text, seconds, _) in enumerate(CASES):
        old_ms = statistics.median(r[i] for r in runs["old"]) * 1000
        new_ms = statistics.median(r[i] for r in runs["new"]) * 1000
        limit = "exact" if seconds is None else f"time {seconds}"
        print(
            f"| {name} {text!r} {limit} | {old_ms:.3f} ms | {new_ms:.3f} ms | "
            f"{new_ms / old_ms:.2f}x |"
        )


if __name__ == "__main__":
    main()
