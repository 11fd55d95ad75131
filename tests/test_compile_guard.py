"""numba's on-disk cache kept coherent across modules (compile_cache.keep_coherent).

numba keys a cached function on its own module's source only: a caller keeps the old code of
a compiled callee (or the old value of a constant) of another module when only that module
changed. The first test shows it on a package of our own; the guard's tests use the same
package, numba's cache in ``tmp_path`` (never the checkout's).
"""

from __future__ import annotations

import ast
import hashlib
import os
import pickle
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from perfectplay.games import compile_cache
from perfectplay.games.compile_cache import (
    COMPILED_HOME,
    PACKAGE,
    STAMP_NAME,
    cache_folder,
    cached,
    keep_coherent,
    read_stamp,
    source_digests,
    stamped,
    write_stamp,
)
from perfectplay.games.connect4.engine import ENGINE
from perfectplay.games.kernel import CompiledEngine

SRC = str(PACKAGE.parent)
"""The source folder of the perfectplay under test (what the child processes import)."""
CALLEE = "from numba import njit\n\n\n@njit(cache=True)\ndef value():\n    return {}\n"
CALLER = (
    "from numba import njit\n\nfrom stalepkg.callee import value\n"
    "from stalepkg.consts import FACTOR\n\n\n"
    "@njit(cache=True)\ndef run():\n    return value() * FACTOR\n"
)
OTHER = "from numba import njit\n\n\n@njit(cache=True)\ndef other():\n    return 5\n"
GUARD = "from perfectplay.games.compile_cache import keep_coherent; keep_coherent(ROOT, ROOT); "


def make_package(tmp_path: Path, value: int = 1, factor: int = 10) -> Path:
    """A package ``stalepkg`` of three compiled modules (``caller.run`` returns
    ``callee.value() * consts.FACTOR``; ``other`` stands alone) and a plain one."""
    root = tmp_path / "stalepkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "callee.py").write_text(CALLEE.format(value))
    (root / "consts.py").write_text(f"FACTOR = {factor}\n")
    (root / "caller.py").write_text(CALLER)
    (root / "other.py").write_text(OTHER)
    return root


def run_caller(root: Path, guard: bool) -> int:
    """``stalepkg.caller.run()`` in a fresh process (numba's cache beside the package), the
    guard run first when ``guard``."""
    script = (
        f"import sys; sys.path[:0] = [{str(root.parent)!r}, {SRC!r}]; ROOT = {str(root)!r}; "
        + "from pathlib import Path; ROOT = Path(ROOT); "
        + (GUARD if guard else "")
        + "from stalepkg.caller import run; print(run())"
    )
    environment = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(root.parent / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",  # Python's own .pyc check reads mtimes in seconds
    }
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_numba_alone_runs_a_changed_callees_old_code(tmp_path: Path) -> None:
    root = make_package(tmp_path)
    assert run_caller(root, guard=False) == 10
    (root / "callee.py").write_text(CALLEE.format(22))
    assert run_caller(root, guard=False) == 10  # stale: the new code returns 220


def test_the_guard_runs_the_new_code_of_a_callee_and_a_constant(tmp_path: Path) -> None:
    root = make_package(tmp_path)
    assert run_caller(root, guard=True) == 10
    (root / "callee.py").write_text(CALLEE.format(22))
    assert run_caller(root, guard=True) == 220
    (root / "consts.py").write_text("FACTOR = 100\n")
    assert run_caller(root, guard=True) == 2200


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small package, numba's cache (as the guard reads it) in ``tmp_path/cache``."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    return make_package(tmp_path)


def cache_files(folder: Path, stems: tuple[str, ...]) -> set[str]:
    """Write an index and a data file of a function of each module of ``stems`` in
    ``folder``; their names."""
    folder.mkdir(parents=True, exist_ok=True)
    names = {f"{stem}.f-4.py311{suffix}" for stem in stems for suffix in (".nbi", ".1.nbc")}
    for name in names:
        (folder / name).write_bytes(b"x")
    return names


def test_a_stale_stamp_removes_only_our_stale_files(package: Path) -> None:
    folder = cache_folder(package / "caller.py")
    others = {"callee.cpython-311.pyc", "callee.f-4.py311.nbi.tmp.5f3a", "alien.f-1.py311.nbi"}
    for name in others:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"x")
    ours = cache_files(folder, ("callee", "caller", "other"))
    assert {path.name for path in keep_coherent(package, package).removed} == ours  # no stamp
    assert set(os.listdir(folder)) == others | {STAMP_NAME}
    cache_files(folder, ("callee", "caller", "other"))
    assert keep_coherent(package, package).removed == ()  # the stamp is current
    (package / "consts.py").write_text("FACTOR = 3\n")  # only the caller reads it
    removed = keep_coherent(package, package).removed
    assert {path.name for path in removed} == {name for name in ours if "caller" in name}
    (package / "callee.py").write_text(CALLEE.format(7))  # the caller calls it
    removed = keep_coherent(package, package).removed
    assert {path.name.split(".")[0] for path in removed} == {"callee"}  # caller's gone already
    assert keep_coherent(package, package).removed == ()


def test_the_digests_cover_callees_and_constants_not_strangers(package: Path) -> None:
    before = source_digests(package, package)
    assert {path.name for path in before} == {"callee.py", "caller.py", "other.py"}
    (package / "consts.py").write_text("FACTOR = 3\n")
    after = source_digests(package, package)
    changed = {path.name for path in before if before[path] != after[path]}
    assert changed == {"caller.py"}


def test_the_guard_tolerates_a_folder_it_cannot_write(
    package: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))  # no folder can be made
    assert keep_coherent(package, package).unwritten == (cache_folder(package / "caller.py"),)


def test_a_file_it_cannot_remove_is_checked_again(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = cache_folder(package / "caller.py")
    ours = cache_files(folder, ("callee", "caller"))

    def refuse(path: str | os.PathLike[str], **_: object) -> None:
        raise PermissionError(13, "read-only", str(path))

    with monkeypatch.context() as patch:
        patch.setattr(os, "unlink", refuse)
        check = keep_coherent(package, package)
    assert check.removed == () and check.unwritten == (folder,)
    assert set(read_stamp(folder)) == {"other"}  # callee and caller stay stale
    assert {path.name for path in keep_coherent(package, package).removed} == ours


def test_processes_starting_at_once_all_check_safely(package: Path) -> None:
    folder = cache_folder(package / "caller.py")
    cache_files(folder, ("callee", "caller", "other"))
    script = (
        f"import sys; sys.path.insert(0, {SRC!r}); from pathlib import Path; "
        f"ROOT = Path({str(package)!r}); " + GUARD
    )
    started = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(4)]
    assert [process.wait(timeout=120) for process in started] == [0, 0, 0, 0]
    assert os.listdir(folder) == [STAMP_NAME]
    assert read_stamp(folder) == {
        path.stem: d for path, d in source_digests(package, package).items()
    }


def fresh_indexes(engine: CompiledEngine) -> None:
    """Fake a fresh index of every entry point of ``engine`` where numba would look."""
    compiler = version("numba")
    for module, names in engine.entry_points:
        source = compile_cache.module_source(module)
        assert source is not None
        digest = hashlib.sha256(source.read_bytes()).digest()
        lines = compile_cache.decorator_lines(source.read_text(encoding="utf-8"))
        for name in names:
            index = compile_cache.index_path(source, name, lines[name])
            index.parent.mkdir(parents=True, exist_ok=True)
            index.write_bytes(pickle.dumps(compiler) + pickle.dumps((digest, {})))


def test_cached_agrees_with_the_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    keep_coherent()
    fresh_indexes(ENGINE)
    assert cached(ENGINE)
    source = compile_cache.module_source(ENGINE.entry_points[0][0])
    assert source is not None
    folder = cache_folder(source)
    write_stamp(folder, {**read_stamp(folder), source.stem: "0" * 64})  # another version's
    assert not stamped(ENGINE) and not cached(ENGINE)
    assert keep_coherent().removed  # what cached() foresaw: the indexes are gone
    assert not cached(ENGINE)
    fresh_indexes(ENGINE)
    assert cached(ENGINE)
    assert stamped(CompiledEngine("json", 1, (("json", ("dumps",)),)))  # not ours: no stamp


def numba_modules() -> dict[Path, ast.Module]:
    """Every module of the package that imports numba anywhere, parsed."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            named = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                named = [node.module or ""]
            if any(name == "numba" or name.startswith("numba.") for name in named):
                found[path] = tree
    return found


def imports_at_top(tree: ast.Module) -> set[str]:
    """The modules (and ``module.name``) that ``tree`` imports at its top level."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_every_numba_module_is_found_and_goes_through_the_guard() -> None:
    modules = numba_modules()
    assert set(modules) == set(compile_cache.compiled_sources(COMPILED_HOME))
    guards = {"perfectplay.games.compile_guard", "perfectplay.games.common.compiled_bits"}
    for path, tree in modules.items():
        top = imports_at_top(tree)
        assert "numba" in top or any(name.startswith("numba.") for name in top), path
        assert top & guards, f"{path} compiles without importing compile_guard first"


def test_a_light_start_does_not_check() -> None:
    script = (
        "import sys; import perfectplay; from perfectplay import api; "
        "api.load('connect4', '4453'); "
        "print(sorted(m for m in sys.modules if m.endswith(('compile_guard', 'numba'))))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr
