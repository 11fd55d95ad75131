"""Batch workers out of the way (issue 28, item 3): workers start once, before the input is
read, and take many chunks; two give the answers of one; what is fewer tasks than workers
lets the others go; Ctrl-C and errors after the workers started still end in one line, with
no process left behind, and a run interrupted with Ctrl-C resumes exactly.

No assertion here is about time: speed is measured by ``benchmarks/bench_batch.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from cli_support import hear_ctrl_c

from perfectplay import api, contract
from perfectplay.jobs.tasks import chunks

DATA = Path(__file__).resolve().parent / "data" / "connect4_sets"
COMMAND = [sys.executable, "-m", "perfectplay.cli", "batch", "connect4"]
PATIENCE = 120.0
"""How long a test waits for a worker to appear or load its kernel (a busy machine is slow;
nothing here asserts how long it took)."""
NUMBA_LIBRARY = "llvmlite"
"""In a process's memory map once numba is imported: the kernel is being loaded."""


def published(name: str, count: int | None = None) -> list[tuple[str, int]]:
    """The first ``count`` (moves, score) lines of a test copy of one of Pons' sets."""
    lines = (DATA / name).read_text().splitlines()[:count]
    return [(line.split()[0], int(line.split()[1])) for line in lines]


def tasks_of(lines: list[tuple[str, int]]) -> list[api.Task]:
    return [api.Task(i, api.load("connect4", moves)[1]) for i, (moves, _) in enumerate(lines)]


def solved(found: list[api.Answer]) -> dict[int, tuple[float, Any]]:
    """Each task's value and best move."""
    assert all(answer.result is not None for answer in found)
    return {a.index: (a.result.score.value, a.result.best_move) for a in found if a.result}


JOB = api.batch_job("connect4", options=api.kernel_options(book=False))


# -- the library: BatchWorkers -------------------------------------------------------------------
def test_one_worker_takes_every_chunk_and_two_give_the_same_answers() -> None:
    lines = published("middle-easy.txt") + published("end-easy.txt")
    tasks = tasks_of(lines)
    assert len(chunks(tasks, 1)) > 2 and len(chunks(tasks, 2)) > 4  # many chunks per worker
    with api.BatchWorkers(JOB, workers=1) as one:
        alone = list(one.answers(tasks))
    with api.BatchWorkers(JOB, workers=2) as two:
        shared = list(two.answers(api.hardest_first(JOB.make_game(), tasks)))
    assert len({answer.worker for answer in alone}) == 1  # one process, kept for every chunk
    assert len({answer.worker for answer in shared}) <= 2
    assert sorted(a.index for a in alone) == sorted(a.index for a in shared) == list(range(100))
    assert solved(alone) == solved(shared)
    for answer in alone:
        moves, score = lines[answer.index]
        game, position = api.load("connect4", moves)
        assert answer.result is not None
        assert contract.score_json(game, position, answer.result.score)["score"] == score


def test_workers_start_when_made_before_any_task_is_known() -> None:
    import multiprocessing

    heard: list[float] = []
    with api.BatchWorkers(JOB, workers=2) as workers:
        assert workers.count == 2
        started = {p.pid for p in multiprocessing.active_children() if p.pid is not None}
        assert len(started) >= 2  # running now, with no task given yet
        until_loaded(started)  # and loading the kernel
        found = list(workers.answers(tasks_of(published("end-easy.txt", 6)), heard.append))
    assert len(heard) == 1 and heard[0] > 0
    assert {answer.worker for answer in found} <= started


def test_fewer_tasks_than_workers_let_the_others_go() -> None:
    with api.BatchWorkers(JOB, workers=2) as workers:
        found = list(workers.answers(tasks_of(published("end-easy.txt", 1))))
    assert [answer.index for answer in found] == [0] and found[0].error is None
    with api.BatchWorkers(JOB, workers=2, at_most=1) as capped:
        assert capped.count == 1
    with api.BatchWorkers(JOB, workers=2, at_most=0) as none:
        assert none.count == 0 and list(none.answers([])) == []


def test_batch_answers_starts_its_workers_on_the_first_answer_asked_for() -> None:
    import multiprocessing

    before = set(multiprocessing.active_children())
    found = api.batch_answers(JOB, tasks_of(published("end-easy.txt", 3)), workers=1)
    assert set(multiprocessing.active_children()) == before  # nothing runs yet
    assert next(found).error is None
    found.close()  # and closing it stops them
    assert set(multiprocessing.active_children()) == before


def test_a_worker_that_cannot_start_is_worker_lost() -> None:
    unknown = api.BatchJob("no-such-game")  # unchecked: api.batch_job would refuse it
    lost = pytest.raises(api.WorkerLost, match=r"a worker could not start: .*no-such-game")
    with api.BatchWorkers(unknown, workers=1) as workers, lost:
        list(workers.answers(tasks_of(published("end-easy.txt", 2))))


# -- the command -----------------------------------------------------------------------------------
@contextmanager
def started(argv: list[str], **extra: Any) -> Iterator[subprocess.Popen[bytes]]:
    """``perfectplay batch connect4 ARGV`` in a session of its own, its stdin a pipe;
    killed (with its workers) on the way out."""
    process = subprocess.Popen(
        [*COMMAND, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=hear_ctrl_c,
        **extra,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def workers_of(pid: int) -> set[int]:
    """The spawned worker processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and b"spawn_main" in command:
            found.add(int(entry.name))
    return found


def loaded_numba(pid: int) -> bool:
    try:
        return NUMBA_LIBRARY in (Path("/proc") / str(pid) / "maps").read_text()
    except OSError:
        return False


def until_loaded(pids: set[int]) -> None:
    """Wait until one of ``pids`` has imported numba (it is loading the kernel)."""
    deadline = time.monotonic() + PATIENCE
    while not any(loaded_numba(pid) for pid in pids):
        assert time.monotonic() < deadline, "no worker loaded numba"
        time.sleep(0.05)


def until_workers(process: subprocess.Popen[bytes], count: int) -> set[int]:
    """Wait until ``process`` has ``count`` workers running."""
    deadline = time.monotonic() + PATIENCE
    while len(found := workers_of(process.pid)) < count:
        assert process.poll() is None, process.communicate()[1].decode()
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    return found


def test_workers_load_the_kernel_while_stdin_is_still_open(tmp_path: Path) -> None:
    lines = published("middle-easy.txt", 20)
    out = tmp_path / "out.jsonl"
    with started(["-", "--out", str(out), "--workers", "2", "--no-book"]) as process:
        workers = until_workers(process, 2)
        until_loaded(workers)  # the kernel loads before the input has ended
        assert not loaded_numba(process.pid)  # the command itself needs no numba
        given = "".join(f"{moves} {score}\n" for moves, score in lines).encode()
        _, err = process.communicate(given, timeout=PATIENCE)
    assert process.returncode == 0, err.decode()
    found = {json.loads(line)["index"]: json.loads(line) for line in out.read_text().splitlines()}
    assert sorted(found) == list(range(len(lines)))
    assert all(found[i]["score"] == score for i, (_, score) in enumerate(lines))
    assert "0 mismatches in 20 expected scores" in err.decode()


def test_ctrl_c_while_the_workers_start_is_one_line_and_status_130(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    with started(["-", "--out", str(out), "--workers", "2"]) as process:
        workers = until_workers(process, 2)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole group
        _, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 130, err.decode()
    assert err.decode() == "\nperfectplay: interrupted\n"
    assert not any(Path(f"/proc/{pid}").exists() and not zombie(pid) for pid in workers)


def test_ctrl_c_reaching_workers_as_they_start_leaves_them_working(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches the workers too; one that arrives while a worker's
    interpreter starts must neither stop it nor print its traceback."""
    lines = published("end-easy.txt", 10)
    out = tmp_path / "out.jsonl"
    with started(["-", "--out", str(out), "--workers", "2"]) as process:
        workers = until_workers(process, 2)
        deadline = time.monotonic() + PATIENCE
        while not all(loaded_numba(pid) for pid in workers):  # again and again as they start
            assert time.monotonic() < deadline, "the workers did not load numba"
            assert not any(zombie(pid) for pid in workers), "Ctrl-C ended a worker"
            for pid in workers:
                os.kill(pid, signal.SIGINT)
            time.sleep(0.005)
        given = "".join(f"{moves} {score}\n" for moves, score in lines).encode()
        _, err = process.communicate(given, timeout=PATIENCE)
    assert process.returncode == 0, err.decode()
    assert "Traceback" not in err.decode() and "0 mismatches in 10" in err.decode()


def zombie(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_ctrl_c_while_solving_keeps_the_answers_and_resume_ends_exactly(tmp_path: Path) -> None:
    lines = published("middle-easy.txt") + published("begin-medium.txt") * 3
    source = tmp_path / "in.txt"
    source.write_text("".join(f"{moves} {score}\n" for moves, score in lines))
    out = tmp_path / "out.jsonl"
    argv = [str(source), "--out", str(out), "--workers", "2", "--order", "input", "--no-book"]
    with started(argv) as process:
        deadline = time.monotonic() + PATIENCE
        while len(complete_lines(out)) < 50:
            assert process.poll() is None and time.monotonic() < deadline, "ended too soon"
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=PATIENCE)
    text = err.decode()
    assert process.returncode == 130, text
    assert "perfectplay: interrupted: " in text and "--resume goes on" in text
    assert "Traceback" not in text
    written = out.read_bytes()
    assert written.endswith(b"\n")  # whole lines only
    kept = len(written.splitlines())
    assert 50 <= kept < len(lines)
    resumed = subprocess.run(
        [*COMMAND, *argv, "--resume"], capture_output=True, text=True, timeout=300, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes().startswith(written)
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["index"] for line in found) == list(range(len(lines)))
    assert all(line["score"] == lines[line["index"]][1] for line in found)
    assert f"{kept} already in" in resumed.stderr


def complete_lines(path: Path) -> list[bytes]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return data[: data.rfind(b"\n") + 1].splitlines()


def test_an_output_of_another_input_is_one_line_after_the_workers_started(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.txt"
    source.write_text("4453\n4455\n")
    out = tmp_path / "out.jsonl"
    out.write_text('{"index": 0, "position": "1234"}\n')
    done = subprocess.run(
        [*COMMAND, str(source), "--out", str(out), "--resume", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("perfectplay: error: ") and "not the same input" in done.stderr
