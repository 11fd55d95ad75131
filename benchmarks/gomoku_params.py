"""The big-board engine's runtime parameters set from a benchmark's command line (issue 26).

``NAME=VALUE`` names a ``P_*`` index of :mod:`perfectplay.games.mnk.context_layout` (the
pruning switches, the threat searches' shares and budgets): :func:`parameter` checks it
(an argparse error naming the setting), :func:`with_params` makes every context of the
kernel in this process carry the values, and :func:`brain_command` is a ``perfectplay``
command whose brain does the same, so a match can pit two settings of one checkout against
each other or against an outside engine without a recompile or a copy of the source. A named
set of pattern values (``pattern_values.NAMED_VALUES``: ``--values NAME``) travels the same
way: :func:`values_name` checks the name, the contexts carry that set's cell table. So does
a named set ordering the moves apart from the evaluation's (``--order-values NAME``,
:func:`add_order_values`; ``big_kernel.with_patterns``'s ``order``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from perfectplay.games.mnk import big_kernel, context_layout
from perfectplay.games.mnk.pattern_values import NAMED_VALUES, PLAYED_VALUES
from perfectplay.games.mnk.patterns import PATTERNS_OFF

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


def setting_text(index: int, value: int) -> str:
    """``NAME=VALUE`` of a parameter as :func:`parameter` reads it (the inverse)."""
    names = [n for n in dir(context_layout) if n.startswith("P_")]
    (name,) = (n for n in names if getattr(context_layout, n) == index)
    return f"{name[2:]}={value}"


def values_name(name: str) -> str:
    """``name`` when it names a set of ``NAMED_VALUES``; an argparse error listing them."""
    if name not in NAMED_VALUES:
        raise argparse.ArgumentTypeError(
            f"{name!r}: no set of values of that name (one of {', '.join(NAMED_VALUES)})"
        )
    return name


def add_settings(parser: argparse.ArgumentParser, prefix: str, whose: str) -> None:
    """``--{prefix}param NAME=VALUE`` (repeatable: :func:`parameter`'s pairs, default none)
    and ``--{prefix}values NAME`` (a set of ``NAMED_VALUES``) for ``whose`` engine."""
    parser.add_argument(
        f"--{prefix}param",
        action="append",
        default=[],
        type=parameter,
        metavar="NAME=VALUE",
        help=f"a runtime parameter of {whose} (P_NAME of context_layout), repeatable",
    )
    parser.add_argument(
        f"--{prefix}values",
        type=values_name,
        metavar="NAME",
        help=f"the pattern values of {whose}: a set of pattern_values.NAMED_VALUES",
    )


def add_order_values(parser: argparse.ArgumentParser, prefix: str, whose: str) -> None:
    """``--{prefix}order-values NAME``: a set of ``NAMED_VALUES`` ordering ``whose`` engine's
    moves while ``--{prefix}values`` (or the default set) evaluates."""
    parser.add_argument(
        f"--{prefix}order-values",
        type=values_name,
        metavar="NAME",
        help=f"the pattern values ordering the moves of {whose} (NAMED_VALUES; default: "
        "the evaluation's set)",
    )


def with_params(
    settings: list[tuple[int, int]], values_set: str | None = None, order_set: str | None = None
) -> None:
    """Every context of the big-board kernel with these ``(index, value)`` parameters set,
    with the pattern values named ``values_set`` (``NAMED_VALUES``) evaluating when given
    (Gomoku's tables: their attack share comes with them) and those named ``order_set``
    ordering the moves (their defend share too; default: the evaluation's); then
    ``settings`` apply."""
    plain = big_kernel.BigMNKKernel.context
    values = dict(settings)
    chosen = None if values_set is None else NAMED_VALUES[values_set]
    order = None if order_set is None else NAMED_VALUES[order_set]

    def context(self: big_kernel.BigMNKKernel, symmetry: bool) -> tuple[Any, ...]:
        ctx = plain(self, symmetry)
        if (chosen is not None or order is not None) and self.patterns != PATTERNS_OFF:
            own = PLAYED_VALUES if self.values is None else self.values
            evaluation = own if chosen is None else chosen
            ctx = big_kernel.with_patterns(ctx, self.game.spec, self.patterns, evaluation, order)
        return big_kernel.with_params(ctx, values)

    big_kernel.BigMNKKernel.context = context  # type: ignore[method-assign]


def brain_command(
    settings: list[tuple[int, int]], values_set: str | None = None, order_set: str | None = None
) -> list[str]:
    """The command line of a ``perfectplay`` process (its CLI's ``main``; append the verb)
    whose kernels carry ``settings`` and the named ``values_set`` and ``order_set``: the plain
    CLI when there are none."""
    code = "from perfectplay.cli.main import main; raise SystemExit(main())"
    if settings or values_set is not None or order_set is not None:
        code = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); from gomoku_params import "
            f"with_params; with_params({settings!r}, {values_set!r}, {order_set!r}); {code}"
        )
    return [sys.executable, "-c", code]
