"""The big-board engine's runtime parameters set from a benchmark's command line (issue 26).

``NAME=VALUE`` names a ``P_*`` index of :mod:`perfectplay.games.mnk.context_layout` (the
pruning switches, the threat searches' shares and budgets): :func:`parameter` checks it
(an argparse error naming the setting), :func:`with_params` makes every context of the
kernel in this process carry the values, and :func:`brain_command` is a ``perfectplay``
command whose brain does the same, so a match can pit two settings of one checkout against
each other or against an outside engine without a recompile or a copy of the source.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from perfectplay.games.mnk import big_kernel, context_layout

HERE = Path(__file__).resolve().parent


def parameter(setting: str) -> tuple[int, int]:
    """``NAME=VALUE`` as ``(index, value)`` of the context's parameters; an argparse error
    naming the setting when the name is not a ``P_*`` of the layout or the value not whole."""
    name, _, value = setting.partition("=")
    index = getattr(context_layout, f"P_{name.upper()}", None)
    if not isinstance(index, int):
        names = [n[2:] for n in dir(context_layout) if n.startswith("P_")]
        raise argparse.ArgumentTypeError(
            f"{setting!r}: no parameter {name!r} (one of {', '.join(sorted(names))})"
        )
    if not value.strip().lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"{setting!r}: give NAME=VALUE, VALUE a whole number")
    return index, int(value)


def with_params(settings: list[tuple[int, int]]) -> None:
    """Every context of the big-board kernel with these ``(index, value)`` parameters set."""
    plain = big_kernel.BigMNKKernel.context
    values = dict(settings)

    def context(self: big_kernel.BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        ctx = plain(self, symmetry)
        params = ctx[10].copy()
        for index, value in values.items():
            params[index] = value
        return (*ctx[:10], params, *ctx[11:])

    big_kernel.BigMNKKernel.context = context  # type: ignore[method-assign]


def brain_command(settings: list[tuple[int, int]]) -> list[str]:
    """The command line of a ``perfectplay`` process (its CLI's ``main``; append the verb)
    whose kernels carry ``settings``: the plain CLI when there are none."""
    code = "from perfectplay.cli.main import main; raise SystemExit(main())"
    if settings:
        code = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); "
            f"from gomoku_params import with_params; with_params({settings!r}); {code}"
        )
    return [sys.executable, "-c", code]
