"""CI's fresh-virtualenv smoke test: the README's two set-up commands, as written, in a new
virtualenv, then a few checks that a missing install step would fail.

    python3 .ci/smoke.py [--readme PATH]

1. Reads the README's first ``bash`` block: the serve command, then the test command.
2. Makes a virtualenv in a temporary folder and puts its ``bin`` first on ``PATH``, so the
   commands' ``python3`` and ``perfectplay`` are the virtualenv's.
3. Runs the serve command's install steps (all but the final ``perfectplay serve``), then
   starts ``perfectplay serve`` on a free port with a database in the temporary folder: ``/``
   must answer 200 within :data:`PAGE_SECONDS`, ``/api/health`` must say whether the engines
   are ready, and a Connect Four move must be answered with 200 within
   :data:`MOVE_SECONDS`; the server must still be running then.
4. Runs one solve from the command line.
5. Runs the test command's install steps (its ``apt-get`` steps excepted: ``.ci/run``
   installs the same system packages first) and :data:`TEST_FILES` instead of the whole
   suite.

Exits 0 when all of it works, 1 (naming the step) when any step fails. Nothing is left
running: the server is stopped whatever happens. ``--readme`` reads another README (to show
that a README missing a step fails here).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE_SECONDS = 20.0
"""``/`` must answer within this many seconds of the server's start (issue 25)."""
MOVE_SECONDS = 180.0
"""A Connect Four move must be answered within this many seconds of the server's start."""
TEST_FILES = (
    "tests/test_readme.py",
    "examples/nim/tests/test_nim.py",
    "examples/simple/tests/test_simple.py",
)
"""The test files run in the fresh virtualenv (the whole suite runs in CI's own step): the
README's commands and the lock (the installed versions must be the locked ones), and the
example plug-in (which must have been installed)."""


class SmokeFailure(Exception):
    """A step of the smoke test failed; the message names it."""


def readme_commands(readme: Path) -> tuple[str, str]:
    """The serve command and the test command: the README's first bash block."""
    block = re.search(r"```bash\n(.*?)```", readme.read_text(), re.DOTALL)
    if block is None:
        raise SmokeFailure(f"{readme}: no bash block of set-up commands")
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines()]
    commands = [line for line in lines if line]
    if len(commands) != 2:
        raise SmokeFailure(f"{readme}: {len(commands)} set-up commands, expected 2")
    return commands[0], commands[1]


def steps(command: str) -> list[str]:
    """The ``&&`` steps of a shell line."""
    return [step.strip() for step in command.split("&&") if step.strip()]


def run(step: str, env: dict[str, str], timeout: float = 900.0) -> str:
    """Run one shell step from the repository's root; its output, or SmokeFailure."""
    print(f"-- {step}", flush=True)
    done = subprocess.run(
        step, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise SmokeFailure(f"'{step}' exited {done.returncode}:\n" + "\n".join(tail))
    return done.stdout


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str, body: dict[str, object] | None = None) -> tuple[int, str]:
    """The status and text of a GET (or a JSON POST when ``body`` is given)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=MOVE_SECONDS) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for(url: str, server: subprocess.Popen[str], seconds: float) -> float:
    """Seconds until ``url`` answers 200; SmokeFailure past ``seconds`` or if the server
    exits."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if server.poll() is not None:
            raise SmokeFailure(f"perfectplay serve exited ({server.returncode}) before {url}")
        try:
            if fetch(url)[0] == 200:
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.25)
    raise SmokeFailure(f"{url} did not answer 200 within {seconds:g} s")


def check_server(serve_step: str, env: dict[str, str], work: Path) -> None:
    """Start the README's server on a free port and check the page, health and a move."""
    port = free_port()
    words = [*shlex.split(serve_step), "--port", str(port), "--db", str(work / "games.sqlite3")]
    print(f"-- {shlex.join(words)}", flush=True)
    log = (work / "serve.log").open("w")
    server = subprocess.Popen(words, cwd=ROOT, env=env, stdout=log, stderr=log, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        print(f"   / answered 200 after {wait_for(base + '/', server, PAGE_SECONDS):.1f} s")
        status, text = fetch(base + "/api/health")
        if status != 200 or "engines" not in json.loads(text):
            raise SmokeFailure(f"/api/health: {status} {text[:200]} (no word on the engines)")
        start = time.monotonic()
        status, text = fetch(base + "/api/connect4/move", {"position": "4453"})
        if status != 200 or server.poll() is not None:
            raise SmokeFailure(f"POST /api/connect4/move: {status} {text[:300]}")
        print(f"   a Connect Four move answered 200 after {time.monotonic() - start:.1f} s")
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def smoke(readme: Path, work: Path) -> None:
    """Every step of the module's docstring; SmokeFailure at the first that fails."""
    serve_command, test_command = readme_commands(readme)
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
    env = {**os.environ, "PATH": f"{work / 'venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env["VIRTUAL_ENV"] = str(work / "venv")
    serve_steps = steps(serve_command)
    if not serve_steps[-1].startswith("perfectplay serve"):
        raise SmokeFailure(f"the first README command ends {serve_steps[-1]!r}, not serve")
    for step in serve_steps[:-1]:
        run(step, env)
    check_server(serve_steps[-1], env, work)
    solved = run("perfectplay solve tictactoe xox/oox/___", env, timeout=300)
    if "win in 1" not in solved:
        raise SmokeFailure(f"perfectplay solve printed {solved!r}, expected a win in 1")
    test_steps = steps(test_command)
    if test_steps[-1] != "python3 -m pytest":
        raise SmokeFailure(f"the second README command ends {test_steps[-1]!r}, not pytest")
    for step in test_steps[:-1]:
        if not step.startswith("apt-get"):
            run(step, env)
    run(f"python3 -m pytest -q -p no:cacheprovider {' '.join(TEST_FILES)}", env, timeout=600)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="perfectplay-smoke-") as folder:
        try:
            smoke(args.readme.resolve(), Path(folder))
        except (SmokeFailure, subprocess.TimeoutExpired) as failure:
            print(f"smoke test FAILED: {failure}", file=sys.stderr)
            return 1
    print(f"smoke test passed in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
