"""Progress on stderr: a transient status line for exact solves, shown only on a terminal.

The line appears once a solve has run :data:`PROGRESS_DELAY` seconds (quick solves show
nothing) and leaves nothing behind when it stops.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from perfectplay.cli.output import console, stderr

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live
    from rich.spinner import Spinner

PROGRESS_DELAY = 0.25
"""Seconds a solve runs before its status line appears."""

Progress = Callable[[int, int, int, float], None]
"""An exact solve's progress: (low, high, nodes, seconds) as the value's bounds narrow."""


class StatusLine:
    """A transient status line showing a solve's progress: the score window, nodes and nodes
    per second. Set ``label`` to name the current task."""

    def __init__(self, out: Console) -> None:
        self.console = out
        self.label = "solving"
        self._live: Live | None = None
        self._spinner: Spinner | None = None

    def update(self, low: int, high: int, nodes: int, seconds: float) -> None:
        """The solver's progress callback."""
        text = f"{self.label}: score {low}..{high}, {nodes:,} nodes{rate(nodes, seconds)}"
        self.show(text, seconds)

    def show(self, text: str, seconds: float) -> None:
        """Show ``text`` once the work has run :data:`PROGRESS_DELAY` seconds."""
        if self._live is None and seconds < PROGRESS_DELAY:
            return
        if self._spinner is not None:
            self._spinner.update(text=text)
            return
        from rich.live import Live
        from rich.spinner import Spinner

        self._spinner = Spinner("dots", text)
        self._live = Live(
            self._spinner,
            console=self.console,
            transient=True,
            refresh_per_second=8,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._live.start()

    def print(self, message: str) -> None:
        """A line on the status line's console, above the status."""
        self.console.print(message, markup=False, highlight=False)

    def stop(self) -> None:
        """Remove the status line."""
        if self._live is not None:
            self._live.stop()
            self._live = self._spinner = None


def rate(nodes: int, seconds: float) -> str:
    """``, 9.1 M nodes/s`` (empty before any time has passed)."""
    if seconds <= 0:
        return ""
    per_second = nodes / seconds
    if per_second >= 1e6:
        return f", {per_second / 1e6:.1f} M nodes/s"
    return f", {per_second / 1e3:.0f} k nodes/s"


def figure(value: float) -> str:
    """A rate with about three significant digits and no exponent: 1234, 12.3, 0.0321."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.3g}"


@contextmanager
def status_line(show: bool) -> Iterator[StatusLine | None]:
    """A :class:`StatusLine` on stderr when ``show`` (else ``None``), removed at the end."""
    if not show:
        yield None
        return
    line = StatusLine(console(on_stderr=True))
    try:
        yield line
    finally:
        line.stop()


class Elapsed:
    """A spinner and ``label: N s``, the seconds counted when drawn: the status line of
    work that reports nothing while it runs (a compile), redrawn by rich's own thread."""

    def __init__(self, label: str) -> None:
        from rich.spinner import Spinner

        self.label = label
        self.started = time.perf_counter()
        self.spinner = Spinner("dots", label)

    def __rich__(self) -> Spinner:
        self.spinner.update(text=f"{self.label}: {time.perf_counter() - self.started:.0f} s")
        return self.spinner


@contextmanager
def elapsed_line(label: str, show: bool) -> Iterator[None]:
    """While the block runs, a transient status line on stderr with the seconds elapsed
    (:class:`Elapsed`) when ``show`` (a terminal); nothing otherwise."""
    if not show:
        yield
        return
    from rich.live import Live

    with Live(
        Elapsed(label),
        console=console(on_stderr=True),
        transient=True,
        refresh_per_second=4,
        redirect_stdout=False,
        redirect_stderr=False,
    ):
        yield


def callback(status: StatusLine | None) -> Progress | None:
    """The progress callback of a status line (``None``: the solver runs fully compiled)."""
    return None if status is None else status.update


def note(status: StatusLine | None, message: str) -> None:
    """A line on stderr that does not tear the status line."""
    if status is None:
        stderr(message)
    else:
        status.print(message)
