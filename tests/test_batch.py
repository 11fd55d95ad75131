"""``perfectplay batch`` (issue 14): the same scores as the published ones and as the
sequential solver, from one worker or two, locally or on Ray; a run killed with ``kill -9``
and resumed ends with every index once and the earlier lines untouched; bad lines get an
``error`` line and the run goes on; bad arguments are one line and status 2.

The local executor runs here in full (its workers are real processes); the Ray executor
starts a local Ray instance of two workers on loopback (tests marked ``ray``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_support import on_a_terminal, run

from perfectplay import api
from perfectplay.jobs.tasks import chunks

DATA = Path(__file__).resolve().parent / "data" / "connect4_sets"
SETS = ("end-easy.txt", "middle-easy.txt", "middle-medium.txt")


def published(*names: str) -> list[tuple[str, int]]:
    """The (moves, score) lines of the test copies of Pons' sets."""
    lines = []
    for name in names:
        for line in (DATA / name).read_text().splitlines():
            moves, score = line.split()
            lines.append((moves, int(score)))
    return lines


def write_input(path: Path, lines: list[tuple[str, int]]) -> Path:
    path.write_text("".join(f"{moves} {score}\n" for moves, score in lines))
    return path


def answers(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_index(path: Path) -> dict[int, dict[str, Any]]:
    found = answers(path)
    indices = [line["index"] for line in found]
    assert len(indices) == len(set(indices)), "an index was written twice"
    return {line["index"]: line for line in found}


# -- results ----------------------------------------------------------------------------------
@pytest.mark.parametrize("workers", ["1", "2"])
def test_local_scores_equal_the_published_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, workers: str
) -> None:
    lines = published(*SETS)
    source = write_input(tmp_path / "in.txt", lines)
    out = tmp_path / "out.jsonl"
    code, stdout, err = run(
        capsys, "batch", "connect4", str(source), "--out", str(out), "--workers", workers
    )
    assert code == 0, err
    assert stdout == ""
    found = by_index(out)
    assert sorted(found) == list(range(len(lines)))
    for index, (moves, score) in enumerate(lines):
        assert found[index]["position"] == moves
        assert found[index]["score"] == score == found[index]["expected"]
        assert found[index]["exact"] is True
    assert f"{len(lines)} positions" in err
    assert f"0 mismatches in {len(lines)} expected scores" in err


def test_answers_equal_the_sequential_solver(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = published("middle-easy.txt")[:12]
    source = write_input(tmp_path / "in.txt", lines)
    out = tmp_path / "out.jsonl"
    code, _, err = run(
        capsys, "batch", "c4", str(source), "--out", str(out), "--workers", "2", "--analyze"
    )
    assert code == 0, err
    found = by_index(out)
    for index, (moves, _) in enumerate(lines):
        game, position = api.load("connect4", moves)
        alone = api.solve(game, position)
        assert found[index]["score"] == moves_score(game, position, alone)
        values = api.analyze(game, position)
        assert [m["score"] for m in found[index]["moves"]] == [
            moves_score(game, position, value) for value in values
        ]
        best = max(m["score"] for m in found[index]["moves"])
        chosen = [
            m for m in found[index]["moves"] if m["column"] == found[index]["best_move"]["column"]
        ]
        assert chosen[0]["score"] == best


def moves_score(game: Any, position: Any, found: Any) -> int:
    """The conventional score of a result or a move's value, as the JSON gives it."""
    from perfectplay import contract

    score = found.score
    data = contract.score_json(game, position, score)
    value = data["score"]
    assert isinstance(value, int)
    return value


def test_weak_and_other_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = published("end-easy.txt")[:10]
    source = write_input(tmp_path / "in.txt", lines)
    out = tmp_path / "weak.jsonl"
    code, _, err = run(capsys, "batch", "connect4", str(source), "--out", str(out), "--weak")
    assert code == 0, err
    for index, (_, score) in enumerate(lines):
        line = by_index(out)[index]
        assert line["weak"] is True and line["score"] == (score > 0) - (score < 0)
    boards = tmp_path / "boards.txt"
    boards.write_text("xox/oox/___\n___/___/___\nx__/_o_/__x\n")
    out = tmp_path / "ttt.jsonl"
    code, _, err = run(capsys, "batch", "tictactoe", str(boards), "--out", str(out))
    assert code == 0, err
    found = by_index(out)
    assert found[0]["score"] == 10 and found[0]["best_move"] == {"row": 3, "col": 3}
    assert found[1]["outcome"] == "draw" and found[1]["score"] == 0


def test_a_dash_or_an_empty_line_is_the_initial_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "in.txt"
    source.write_text("-\n\n- 0\n1\n")
    out = tmp_path / "out.jsonl"
    argv = ("batch", "connect4", str(source), "--out", str(out), "--size", "4x4", "--workers", "8")
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert "(local, 4 workers;" in err  # no more workers than positions, and it says so
    found = by_index(out)
    solved = ("score", "outcome", "plies", "best_move")
    for index in (0, 2):
        assert [found[index][key] for key in solved] == [found[1][key] for key in solved]
    assert found[1]["outcome"] == "draw" and found[2]["expected"] == 0
    assert found[0]["position"] == "-" and found[1]["position"] == ""
    assert found[3]["position"] == "1" and "error" not in found[3]


def test_a_terminal_shows_a_progress_bar_with_rate_and_eta_then_the_summary(
    tmp_path: Path,
) -> None:
    """Issue 14, item 4: on a terminal, a bar with the positions answered of all, the rate
    and the time left, gone at the end (it is transient), then the one-line summary."""
    lines = published(*SETS)
    source = write_input(tmp_path / "in.txt", lines)
    out = tmp_path / "out.jsonl"
    argv = ("batch", "connect4", str(source), "--out", str(out), "--workers", "1")
    code, shown, stdout = on_a_terminal(*argv)
    assert code == 0, shown[-500:]
    assert stdout == ""
    bar, summary = shown.rsplit("perfectplay: ", 1)
    assert f"/{len(lines)}" in bar and "positions/s" in bar, bar[-800:]
    assert re.search(r"\d+:\d\d:\d\d|-:--:--", bar), bar[-800:]  # the time left
    summary = "perfectplay: " + summary.strip()
    assert f"perfectplay: {len(lines)} positions in " in summary and "nodes/s" in summary
    assert len(by_index(out)) == len(lines)


@pytest.mark.parametrize("out", ["", ".", "sub/"])
def test_an_output_that_names_a_folder_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "in.txt").write_text("4453\n")
    for extra in ([], ["--resume"]):
        code, _, err = run(capsys, "batch", "connect4", "in.txt", "--out", out, *extra)
        assert code == 2 and err.count("\n") == 1
        assert err.startswith(f"perfectplay: error: --out '{out}': needs the name of a file")


# -- bad input ----------------------------------------------------------------------------------
def test_an_unreadable_line_gets_an_error_line_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "in.txt"
    source.write_text("4453\n44444444\nhello\n4455 18\n4455 1.5\n")
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "batch", "connect4", str(source), "--out", str(out))
    assert code == 0, err
    found = by_index(out)
    assert sorted(found) == [0, 1, 2, 3, 4]
    assert found[1]["error"].startswith("line 2: ") and "column 4" in found[1]["error"]
    assert found[2]["error"].startswith("line 3: ")
    assert found[4]["error"].startswith("line 5: score '1.5'")
    assert found[3]["score"] == 18 and "error" not in found[0]
    assert "3 error lines" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.txt"], "INFILE 'missing.txt': cannot be read (No such file or directory)"),
        (["in.txt", "--executor", "slurm"], "--executor 'slurm': expected one of local, ray"),
        (["in.txt", "--workers", "0"], "--workers 0: must be from 1 to 1024"),
        (["in.txt", "--address", "127.0.0.1:1"], "--address: only with --executor ray"),
        (
            ["in.txt", "--executor", "ray", "--address", "127.0.0.1:1"],
            "--address '127.0.0.1:1': no Ray cluster there",
        ),
        (["in.txt", "--eval", "x"], "--eval x: connect4 does not offer it"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("4453\n")
    code, _, err = run(capsys, "batch", "connect4", *argv, "--out", "out.jsonl")
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"perfectplay: error: {message}")
    assert not (tmp_path / "out.jsonl").exists() or (tmp_path / "out.jsonl").read_text() == ""


def test_an_output_of_answers_is_never_overwritten_or_mixed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write_input(tmp_path / "in.txt", published("end-easy.txt")[:5])
    out = tmp_path / "out.jsonl"
    assert run(capsys, "batch", "connect4", str(source), "--out", str(out))[0] == 0
    before = out.read_bytes()
    code, _, err = run(capsys, "batch", "connect4", str(source), "--out", str(out))
    assert code == 2 and "already exists; pass --resume" in err
    other = write_input(tmp_path / "other.txt", published("middle-easy.txt")[:5])
    code, _, err = run(capsys, "batch", "connect4", str(other), "--out", str(out), "--resume")
    assert code == 2 and "not the same input" in err
    code, _, err = run(capsys, "batch", "connect4", str(source), "--out", str(out), "--resume")
    assert code == 0 and "0 positions" in err and "5 already in" in err
    assert out.read_bytes() == before


# -- resume after kill -9 ----------------------------------------------------------------------
def test_a_run_killed_with_kill_9_resumes_with_every_index_once(tmp_path: Path) -> None:
    lines = published("end-easy.txt", "middle-easy.txt") + published("begin-medium.txt")
    source = write_input(tmp_path / "in.txt", lines)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "perfectplay.cli", "batch", "connect4", str(source)]
    command += ["--out", str(out), "--workers", "1", "--order", "input"]
    child = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(lines_of(out)) < 100 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(child.pid, signal.SIGKILL)  # the command and its worker, as a machine would
    child.wait()
    assert child.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    written = out.read_bytes()
    complete = written[: written.rfind(b"\n") + 1]
    assert 100 <= len(complete.splitlines()) < len(lines)
    with out.open("ab") as handle:
        handle.write(b'{"index": 101, "position": "25')  # a line torn by the kill
    resumed = subprocess.run(
        [*command, "--resume"], capture_output=True, text=True, timeout=120, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes().startswith(complete)
    found = by_index(out)
    assert sorted(found) == list(range(len(lines)))
    for index, (_, score) in enumerate(lines):
        assert found[index]["score"] == score
    assert f"{len(complete.splitlines())} already in" in resumed.stderr


def lines_of(path: Path) -> list[bytes]:
    """The complete lines written so far."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return data[: data.rfind(b"\n") + 1].splitlines()


# -- books ----------------------------------------------------------------------------------------
def test_a_book_built_by_workers_and_resumed_equals_the_sequential_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import numpy as np

    alone = tmp_path / "alone.npz"
    game, _ = api.new_game("connect4", size="5x4")
    api.build_book(game, 3, str(alone))
    pooled = tmp_path / "pooled.npz"
    code, _, err = run(
        capsys,
        "book",
        "connect4",
        "--size",
        "5x4",
        "--depth",
        "3",
        "--out",
        str(pooled),
        "--workers",
        "2",
    )
    assert code == 0, err
    expected, built = np.load(alone), np.load(pooled)
    assert list(built["keys"]) == list(expected["keys"])
    assert list(built["scores"]) == list(expected["scores"])
    # a build killed after some positions: its checkpoint holds them, --resume does the rest
    checkpoint = tmp_path / "resumed.npz.partial"
    keys, scores = expected["keys"], expected["scores"]
    checkpoint.write_text(
        "".join(
            json.dumps({"index": i, "position": str(int(keys[i])), "score": int(scores[i])}) + "\n"
            for i in range(0, len(keys), 2)
        )
        + '{"index": 1, "pos'
    )
    resumed = tmp_path / "resumed.npz"
    argv = ["book", "connect4", "--size", "5x4", "--depth", "3", "--out", str(resumed)]
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--resume" in err
    code, out, err = run(capsys, *argv, "--resume", "--workers", "1")
    assert code == 0, err
    from_checkpoint = (len(keys) + 1) // 2
    assert (
        f"({len(keys) - from_checkpoint} solved now, {from_checkpoint} from the checkpoint)" in out
    )
    again = np.load(resumed)
    assert list(again["keys"]) == list(keys) and list(again["scores"]) == list(scores)
    assert not checkpoint.exists()


# -- Ray ------------------------------------------------------------------------------------------
@pytest.mark.ray
def test_ray_gives_the_same_scores_as_the_local_pool(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("ray", reason="the Ray extra: pip install 'perfectplay[ray]'")
    lines = published("end-easy.txt", "middle-medium.txt")
    source = write_input(tmp_path / "in.txt", lines)
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    argv = ["batch", "connect4", str(source), "--workers", "2"]
    assert run(capsys, *argv, "--out", str(local))[0] == 0
    code, _, err = run(capsys, *argv, "--out", str(remote), "--executor", "ray")
    assert code == 0, err
    assert "ray, 2 workers" in err
    on_ray, here = by_index(remote), by_index(local)
    assert sorted(on_ray) == list(range(len(lines)))
    for index, (_, score) in enumerate(lines):
        assert on_ray[index]["score"] == here[index]["score"] == score


@pytest.mark.ray
def test_a_book_built_on_ray_from_a_checkpoint_equals_the_sequential_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 14, item 3: ``book ... --executor ray --resume`` goes on from the checkpoint a
    killed build left, and ends with the book one process builds."""
    pytest.importorskip("ray", reason="the Ray extra: pip install 'perfectplay[ray]'")
    import numpy as np

    alone = tmp_path / "alone.npz"
    game, _ = api.new_game("connect4", size="5x4")
    api.build_book(game, 3, str(alone))
    expected = np.load(alone)
    keys, scores = expected["keys"], expected["scores"]
    (tmp_path / "ray.npz.partial").write_text(
        "".join(
            json.dumps({"index": i, "position": str(int(keys[i])), "score": int(scores[i])}) + "\n"
            for i in range(1, len(keys), 3)
        )
    )
    argv = ["book", "connect4", "--size", "5x4", "--depth", "3", "--out", str(tmp_path / "ray.npz")]
    code, out, err = run(capsys, *argv, "--executor", "ray", "--workers", "2", "--resume")
    assert code == 0, err
    kept = len(range(1, len(keys), 3))
    assert f"({len(keys) - kept} solved now, {kept} from the checkpoint)" in out
    built = np.load(tmp_path / "ray.npz")
    assert list(built["keys"]) == list(keys) and list(built["scores"]) == list(scores)


def test_chunks_shrink_to_single_tasks_and_keep_the_order() -> None:
    tasks = [api.Task(i, None) for i in range(150)]
    cut = chunks(tasks, 2)
    sizes = [len(chunk) for chunk in cut]
    assert [task for chunk in cut for task in chunk] == tasks
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 1 and max(sizes) <= 32
    assert sizes[0] == 150 // 8  # a quarter of what is left per worker
    assert [len(chunk) for chunk in chunks(tasks[:3], 8)] == [1, 1, 1]
