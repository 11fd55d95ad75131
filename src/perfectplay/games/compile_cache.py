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
(:class:`~perfectplay.games.kernel.CompiledEngine`) has a fresh index there. The line of a
function is that of its first decorator (what numba names the file by), read from the source.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from importlib.util import find_spec
from pathlib import Path

from perfectplay.games.kernel import CompiledEngine

NUMBA = "numba"
"""The compiler's distribution name (its version is the first thing in every index)."""
CACHE_DIR_VARIABLE = "NUMBA_CACHE_DIR"
"""The environment variable that moves numba's cache."""
INDEX_SUFFIX = ".nbi"


def cached(engine: CompiledEngine) -> bool:
    """Whether numba would load every entry point of ``engine`` from its cache (``False``
    when numba is missing, a module or function is not found, or an index is stale)."""
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
    return True


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
