"""Importing this module keeps numba's on-disk cache coherent across modules, once per
process (Python runs a module's body once): the package's cache files that a change to
another module made stale are removed before any compiled code is loaded (see
:func:`perfectplay.games.compile_cache.keep_coherent`).

Every module that imports numba imports this one first, directly or through
:mod:`perfectplay.games.common.compiled_bits` (a test holds every such module to it), so
that the check runs before the first compiled function is compiled or loaded, and never for
``import perfectplay``, ``--help`` or an error before a search.
"""

from __future__ import annotations

from perfectplay.games.compile_cache import Coherence, keep_coherent

CHECKED: Coherence = keep_coherent()
"""What this process's check removed (and which cache folders it could not bring up to
date)."""
