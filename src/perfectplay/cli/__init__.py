"""The ``perfectplay`` command line: one module per verb over shared helpers.

Contracts shared by every verb:

* ``--json`` prints exactly one JSON document on stdout (the shapes of
  :mod:`perfectplay.contract`) and nothing else; text goes through rich (plain when stdout is
  not a terminal).
* Exit status: 0 on success, 2 on bad input (any :class:`~perfectplay.errors.PerfectplayError`
  or an argparse usage error, the message on stderr as ``perfectplay: error: ...``), 130 on
  Ctrl-C, 1 on an unexpected internal error (no traceback unless ``PERFECTPLAY_DEBUG=1``).
* Starting is cheap: only the verb named is imported (see :mod:`perfectplay.cli.main`); the
  verb modules import only the standard library and these helpers at top level; the api and
  rich are imported inside handlers, numpy and numba only by a search that needs them.
* Nothing here knows a game by name: what a game offers (weak solves, books, named
  heuristics, history, a drawable board) is read from its kit through :mod:`perfectplay.api`.
"""

from __future__ import annotations

from perfectplay.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
