"""The end-of-run leak check (tests/conftest.py) sees the processes this run starts, and only
those: a CI harness's own processes in the same terminal session once failed a green run."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from conftest import RUN_MARK, started_by_this_run


def test_a_process_the_tests_start_is_seen_until_it_ends() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        deadline = time.monotonic() + 5
        while child.pid not in started_by_this_run() and time.monotonic() < deadline:
            time.sleep(0.05)  # the child's environment is readable once it has exec'd
        assert "time.sleep(60)" in started_by_this_run()[child.pid]
    finally:
        child.kill()
        child.wait()
    assert child.pid not in started_by_this_run()


def test_a_process_without_this_runs_mark_is_not_counted() -> None:
    stranger_env = {key: value for key, value in os.environ.items() if key != RUN_MARK}
    stranger = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], env=stranger_env
    )
    try:
        time.sleep(0.3)
        assert stranger.pid not in started_by_this_run()
    finally:
        stranger.kill()
        stranger.wait()
