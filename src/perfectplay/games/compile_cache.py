"""Whether a compiled engine's code is in numba's on-disk cache, told without importing numba.

numba (``cache=True``) keeps each compiled function in an index file,
``<module>.<function>-<line>.py<version>.nbi``, and data files beside it. The index starts with
numba's version (a pickled string) and then holds the SHA-256 digest of the module's source as
it was compiled; numba loads the cached code only when both still match (otherwise it compiles
again, which takes seconds to a minute an engine). The folder is the first of (as numba's
cache locators choose it):

* ``$NUMBA_CACHE_DIR/<folder>_<sha1 of the module's folder>`` when ``NUMBA_CACHE_DIR`` is set;
* ``__pycache__`` beside the module when that folder can be written;
* ``$XDG_CACHE_HOME/numba/<folder>_<sha1 ...>`` (``~/.cache/numba/...``) otherwise.

An engine is cached when every one of its declared entry points
(:class:`~perfectplay.games.kernel.CompiledEngine`) has a fresh index there, and the stamp
below does not condemn it. The line of a function is that of its first decorator (what numba
names the file by), read from the source.

numba's digest covers the module's own source only, yet a compiled function's cached code
holds the code of the compiled functions of other modules it calls (inlined or linked) and
the values of the other modules' globals it reads (frozen as constants). After a change to
``board_compiled.py`` alone (a developer's edit, or ``pip install --upgrade``, which leaves
the cache files behind), numba would still load ``big_compiled``'s old code: old moves, old
values, or a crash on a changed tuple layout. :func:`keep_coherent` guards against it, once
per process before the first compiled module is imported (:mod:`.compile_guard` runs it;
every module that imports numba imports that first, directly or through
:mod:`.common.compiled_bits`, which a test holds every such module to):

* the compiled modules are the modules under ``games/`` (:data:`COMPILED_HOME`) that import
  numba at their top level (no list kept by hand; a test holds every numba module of the
  package to ``games/``);
* each one's *digest* is the SHA-256 over the sources (path and content) of the compiled
  modules it imports, transitively, and of the modules any of them imports names from
  (their constants), itself included; numba's version is left out, since numba already
  refuses every index a different version wrote;
* each cache folder holds a stamp, ``compiled-sources.stamp``, with the digest of each of
  its modules as its cache files were written; a module whose digest differs (or is
  missing) has its ``*.nbi`` and ``*.nbc`` files removed (only those of our modules: the
  stamp's folder is shared with ``.pyc`` files), then the stamp is rewritten: removal first,
  so a process stopped in between leaves a stale stamp, never a fresh stamp on stale files.

Several processes may start at once (pytest-xdist, batch workers, the web's pool): each
removal and each stamp (written aside, then renamed) is atomic, and numba reads an index
and then its data file, recompiling when either is gone, so a race costs at worst a
recompile. A folder that cannot be written (a read-only install, where numba caches under
``~/.cache/numba`` anyway) is reported, never raised. Importing ``perfectplay``, ``--help``
and every error before a search compute none of this; the check itself reads the ~50
sources under ``games/`` and the stamps (a few milliseconds, against half a second to import
numba; BENCHMARKS.md). One case is left open: a process that started before an upgrade and
still runs the old code can write old code into the cache after a new process's check.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from perfectplay.games.kernel import CompiledEngine

NUMBA = "numba"
"""The compiler's distribution name (its version is the first thing in every index)."""
CACHE_DIR_VARIABLE = "NUMBA_CACHE_DIR"
"""The environment variable that moves numba's cache."""
INDEX_SUFFIX = ".nbi"
DATA_SUFFIX = ".nbc"
"""numba's data files (the compiled code an index points to)."""
STAMP_NAME = "compiled-sources.stamp"
"""The stamp in each cache folder: the digest of each module as its cache was written."""
STAMP_HEADER = "perfectplay compiled sources 1"
"""The stamp's first line (a stamp without it is read as empty: every module stale)."""
PACKAGE = Path(__file__).resolve().parents[1]
"""The package's folder (``src/perfectplay``): digests name sources relative to it."""
COMPILED_HOME = Path(__file__).resolve().parent
"""Where the package's compiled modules live (``games/``): the folder the guard scans."""
NUMBA_IMPORT = re.compile(rb"\n(?:from|import)[ \t]+numba\b")
"""A top-level import of numba (searched in the source after a newline): what makes a
module compiled. Lines are found by their newline, not ``^`` and ``re.MULTILINE``, which
made the whole check several times slower."""
IMPORT = re.compile(
    rb"[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([\w.]+))"
)
"""An import statement at any depth, matched from its line's start (a function's import
only adds a source to a digest)."""


def cached(engine: CompiledEngine) -> bool:
    """Whether numba would load every entry point of ``engine`` from its cache (``False``
    when numba is missing, a module or function is not found, an index is stale, or the
    stamp of one of the package's modules is, since :func:`keep_coherent` would remove its
    files before loading)."""
    from importlib.metadata import PackageNotFoundError, version  # tens of ms: when asked

    try:
        compiler = version(NUMBA)
    except PackageNotFoundError:
        return False
    for module, names in engine.entry_points:
        source = module_source(module)
        if source is None:
            return False
        digest = hashlib.sha256(source.read_bytes()).digest()
        lines = decorator_lines(source.read_text(encoding="utf-8"))
        for name in names:
            line = lines.get(name)
            if line is None or not fresh(index_path(source, name, line), compiler, digest):
                return False
    return stamped(engine)


def module_source(module: str) -> Path | None:
    """The source file of ``module``, found without importing it (``None`` when there is
    none)."""
    spec = find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def decorator_lines(text: str) -> dict[str, int]:
    """The line (from 1) of the first decorator of each decorated top-level function in a
    module's source: the line numba names its cache files by."""
    found: dict[str, int] = {}
    first: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("@"):
            first = number if first is None else first
        elif line.startswith("def "):
            if first is not None:
                found[line[4:].split("(", 1)[0].strip()] = first
            first = None
        elif first is not None and line and not line[0].isspace() and line[0] not in ")]":
            first = None  # a decorator's arguments end on their own line: still decorating
    return found


def cache_folder(source: Path) -> Path:
    """The folder numba keeps the cache of functions of ``source`` in (see the module
    docstring)."""
    folder = source.resolve().parent
    subpath = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    user_dir = os.environ.get(CACHE_DIR_VARIABLE)
    if user_dir:
        return Path(user_dir) / subpath
    in_tree = folder / "__pycache__"
    if os.access(in_tree if in_tree.is_dir() else folder, os.W_OK):
        return in_tree
    home_cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home_cache) / NUMBA / subpath


def index_path(source: Path, name: str, line: int) -> Path:
    """The index file of function ``name``, decorated from ``line``, of ``source``."""
    python = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return cache_folder(source) / f"{source.stem}.{name}-{line}.{python}{INDEX_SUFFIX}"


def fresh(index: Path, compiler: str, digest: bytes) -> bool:
    """Whether the index at ``index`` was written by numba ``compiler`` for the source whose
    SHA-256 is ``digest`` (the digest is stored as raw bytes in the pickled rest, which is
    not unpickled here: that would import numba)."""
    try:
        with index.open("rb") as handle:
            written_by = pickle.load(handle)
            rest = handle.read()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return False
    return written_by == compiler and digest in rest


@dataclass(frozen=True, slots=True)
class Coherence:
    """What :func:`keep_coherent` did: the stale cache files it ``removed``, and the cache
    folders it could not bring up to date (``unwritten``: a file it could not remove, a
    stamp it could not write; the next process checks them again)."""

    removed: tuple[Path, ...]
    unwritten: tuple[Path, ...]


def keep_coherent(root: Path = PACKAGE, home: Path = COMPILED_HOME) -> Coherence:
    """Remove the cache files of every compiled module under ``home`` (sources of the
    package at ``root``) whose digest differs from its folder's stamp, then stamp the folder
    with the current digests (see the module docstring). Never raises for a folder that
    cannot be read or written: it is reported in :attr:`Coherence.unwritten`."""
    digests = source_digests(root, home)
    removed: list[Path] = []
    unwritten: list[Path] = []
    for folder, modules in by_cache_folder(digests).items():
        stamp = read_stamp(folder)
        stale = {source.stem for source in modules if stamp.get(source.stem) != digests[source]}
        if not stale:
            continue
        gone, failed = remove_cache_files(folder, stale)
        removed.extend(gone)
        entries = {m.stem: digests[m] for m in modules if m.stem not in failed}  # failed: stale
        if not write_stamp(folder, entries) or failed:
            unwritten.append(folder)
    return Coherence(tuple(removed), tuple(unwritten))


def stamped(engine: CompiledEngine) -> bool:
    """Whether :func:`keep_coherent` would leave the cache of every module of ``engine``'s
    entry points in place: its folder's stamp holds its current digest (a module that is
    not one of the package's compiled modules, a plug-in's, has no stamp to check)."""
    digests = source_digests()
    for module, _ in engine.entry_points:
        source = module_source(module)
        current = None if source is None else digests.get(source.resolve())
        if source is None or current is None:  # not one of ours
            continue
        if read_stamp(cache_folder(source)).get(source.stem) != current:
            return False
    return True


def source_digests(root: Path = PACKAGE, home: Path = COMPILED_HOME) -> dict[Path, str]:
    """The digest of each compiled module under ``home`` (its path, resolved, to the
    hexadecimal SHA-256 of what its cached code depends on: see the module docstring)."""
    root = root.resolve()  # as the sources' paths are
    contents = compiled_sources(home)
    located: dict[tuple[str, ...], Path | None] = {}  # the same modules recur: looked up once
    imports = {path: imported_files(root, path, text, located) for path, text in contents.items()}
    entries = {path: entry(root, path, text) for path, text in contents.items()}
    return {path: digest(root, covered(path, imports), entries) for path in imports}


def compiled_sources(home: Path) -> dict[Path, bytes]:
    """Every module under ``home`` (``__pycache__`` aside) that imports numba at its top
    level, with its source."""
    found: dict[Path, bytes] = {}
    for folder, subfolders, names in os.walk(home.resolve()):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as handle:
                    text = b"\n" + handle.read()  # the first line starts after a newline too
                if b"numba" in text and NUMBA_IMPORT.search(text):
                    found[Path(folder, name)] = text
    return found


def imported_files(
    root: Path, source: Path, text: bytes, located: dict[tuple[str, ...], Path | None]
) -> set[Path]:
    """The sources of the modules of the package at ``root`` that ``source`` imports (or
    imports names from), absolutely or relatively, at any depth (``located``: the modules
    looked up so far, see :func:`module_file`)."""
    package = source.parent.relative_to(root).parts
    found: set[Path] = set()
    for match in import_statements(text):
        base, names, plain = (group.decode() if group else "" for group in match.groups())
        parts = target_parts(root.name, package, plain or base)
        module = None if parts is None else module_file(root, parts, located)
        if module is None or parts is None:
            continue
        submodules = []
        if not plain and module.name == "__init__.py":  # names of a package: its modules?
            names_found = imported_names(names)
            submodules = [module_file(root, (*parts, name), located) for name in names_found]
        found.update(sub for sub in submodules if sub is not None)
        if not submodules or not all(submodules):
            found.add(module)  # names read from the module: compiled code freezes them
    return found


def import_statements(text: bytes) -> Iterator[re.Match[bytes]]:
    """The import statements of ``text``: each word ``import`` found, then a statement
    matched from its line's start (several times faster than a match tried at every line)."""
    at = text.find(b"import")
    while at != -1:
        match = IMPORT.match(text, text.rfind(b"\n", 0, at) + 1)
        if match is not None:
            yield match
        at = text.find(b"import", max(at + 1, match.end() if match is not None else 0))


def imported_names(names: str) -> list[str]:
    """The names of a ``from ... import`` statement's tail (aliases, comments and
    parentheses dropped)."""
    bare = re.sub(r"#[^\n]*", "", names).replace("(", " ").replace(")", " ")
    return [entry.split()[0] for entry in bare.split(",") if entry.split()]


def target_parts(top: str, package: tuple[str, ...], dotted: str) -> tuple[str, ...] | None:
    """The path (parts below the package ``top``) of module ``dotted`` imported from a
    module of ``package`` (its parts below ``top``); ``None`` when it is not ``top``'s."""
    rest = dotted.lstrip(".")
    level = len(dotted) - len(rest)
    names = tuple(rest.split(".")) if rest else ()
    if level == 0:
        return names[1:] if names and names[0] == top else None
    if level - 1 > len(package):
        return None
    return package[: len(package) - (level - 1)] + names


def module_file(
    root: Path, parts: tuple[str, ...], located: dict[tuple[str, ...], Path | None]
) -> Path | None:
    """The source of the module at ``parts`` below ``root`` (a package's ``__init__.py``),
    or ``None`` when there is none; remembered in ``located`` (plain strings and one
    ``Path`` a module: pathlib's parsing was most of the check's time)."""
    if parts not in located:
        base = os.path.join(root, *parts)
        found = None
        if os.path.isfile(os.path.join(base, "__init__.py")):
            found = Path(base, "__init__.py")
        elif parts and os.path.isfile(base + ".py"):
            found = Path(base + ".py")
        located[parts] = found
    return located[parts]


def covered(source: Path, imports: Mapping[Path, set[Path]]) -> set[Path]:
    """``source``, the compiled modules it imports transitively (their code is linked into
    its own), and every module any of them imports (their globals are frozen into it)."""
    seen = {source}
    files = {source}
    todo = [source]
    while todo:
        for module in imports[todo.pop()]:
            files.add(module)
            if module in imports and module not in seen:
                seen.add(module)
                todo.append(module)
    return files


def digest(root: Path, files: Iterable[Path], entries: dict[Path, bytes]) -> str:
    """The SHA-256 over the :func:`entry` of each of ``files`` in a stable order (each file
    read and hashed once, kept in ``entries``)."""
    hasher = hashlib.sha256()
    for path in sorted(files):
        if path not in entries:
            entries[path] = entry(root, path, b"\n" + path.read_bytes())  # as read above
        hasher.update(entries[path])
    return hasher.hexdigest()


def entry(root: Path, path: Path, text: bytes) -> bytes:
    """What a digest holds of the source ``text`` at ``path``: its path below ``root`` and
    the SHA-256 of the text."""
    return path.relative_to(root).as_posix().encode() + b"\0" + hashlib.sha256(text).digest()


def by_cache_folder(digests: Mapping[Path, str]) -> dict[Path, list[Path]]:
    """The compiled modules of ``digests`` grouped by the folder numba caches them in."""
    folders: dict[Path, Path] = {}
    grouped: dict[Path, list[Path]] = {}
    for source in sorted(digests):
        if source.parent not in folders:
            folders[source.parent] = cache_folder(source)
        grouped.setdefault(folders[source.parent], []).append(source)
    return grouped


def read_stamp(folder: Path) -> dict[str, str]:
    """The digests ``folder``'s stamp holds, by module name (none when it is missing or not
    a stamp)."""
    try:
        lines = (folder / STAMP_NAME).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    if not lines or lines[0] != STAMP_HEADER:
        return {}
    return {stem: value for stem, _, value in (line.partition(" ") for line in lines[1:])}


def write_stamp(folder: Path, entries: Mapping[str, str]) -> bool:
    """Stamp ``folder`` with ``entries`` (module name to digest): written aside, then
    renamed over the old stamp (a reader sees the old stamp or the new one, whole). Whether
    it could be written (the folder is made when missing)."""
    lines = [STAMP_HEADER, *(f"{stem} {value}" for stem, value in sorted(entries.items()))]
    aside = folder / f"{STAMP_NAME}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        aside.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(aside, folder / STAMP_NAME)
    except OSError:
        with suppress(OSError):
            aside.unlink(missing_ok=True)
        return False
    return True


def remove_cache_files(folder: Path, stems: set[str]) -> tuple[list[Path], set[str]]:
    """Remove numba's index and data files of the modules named ``stems`` from ``folder``:
    the files removed, and the modules whose files could not all be (every one when the
    folder cannot be read; a file another process removed first counts as removed)."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return [], set()
    except OSError:
        return [], set(stems)
    removed: list[Path] = []
    failed: set[str] = set()
    for name in names:
        stem = name.split(".", 1)[0]
        if stem not in stems or not name.endswith((INDEX_SUFFIX, DATA_SUFFIX)):
            continue
        try:
            os.unlink(folder / name)
        except FileNotFoundError:
            continue
        except OSError:
            failed.add(stem)
            continue
        removed.append(folder / name)
    return removed, failed
