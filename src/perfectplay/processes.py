"""What every process perfectplay starts shares: ending with the process that started it."""

from __future__ import annotations

import ctypes
import signal

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (a parent killed with ``kill -9``
    cannot stop its workers; without this they would run on, a long search for hours).
    Elsewhere nothing happens: callers also watch their parent where they can."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
