"""A long run of the fuzz suite's properties: every public parser and the command line.

The same targets as ``tests/test_fuzz.py`` (strategies in ``tests/fuzz_strategies.py``,
properties in ``tests/fuzz_properties.py``), run for many more inputs, each counted: tried,
rejected with the project's error, accepted (and round-tripped), failures (any other
exception, or a broken property), with the first few failing inputs shown. Exit status 1
when anything failed.

    python3 benchmarks/fuzz.py --examples 6000 --cli-examples 400 --seed 1
    python3 benchmarks/fuzz.py --examples 200 --only api.load       # targets by name prefix
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import common
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

TESTS = Path(__file__).resolve().parent.parent / "tests"
SHOWN = 5
"""Failing inputs shown per target (one of each kind)."""


def properties() -> ModuleType:
    """``tests/fuzz_properties.py``, imported with ``tests/`` on the path (as in the tests)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    return importlib.import_module("fuzz_properties")


@dataclass
class Tally:
    """What one target's run counted."""

    name: str
    tried: int = 0
    rejected: int = 0
    accepted: int = 0
    failures: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)

    def row(self) -> str:
        """A Markdown table row."""
        return (
            f"| `{self.name}` | {self.tried:,} | {self.rejected:,} | {self.accepted:,} | "
            f"{self.failures} | {self.seconds:.0f} s |"
        )


def signature(exc: Exception) -> str:
    """What tells failures apart: the exception's type and the start of its message (for
    a command line, of its stderr), numbers left out."""
    text = str(exc)
    text = text[text.find("stderr:") :] if "stderr:" in text else text
    return type(exc).__name__ + re.sub(r"[0-9]+", "N", text)[:80]


def run_target(target: Any, examples: int, seed: int, fuzz: ModuleType) -> Tally:
    """Draw ``examples`` inputs of ``target`` (hypothesis, seeded, no shrinking) and count
    what each did; failures are recorded, never raised."""
    tally = Tally(target.name)

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data: st.DataObject) -> None:
        value = data.draw(target.strategy)
        tally.tried += 1
        try:
            outcome = fuzz.verdict(target, value)
        except Exception as exc:
            tally.failures += 1
            kind = signature(exc)
            if len(tally.examples) < SHOWN and kind not in tally.kinds:
                tally.kinds.add(kind)
                where = traceback.extract_tb(exc.__traceback__)[-1]
                tally.examples.append(
                    f"{fuzz.shown(value)}\n    -> {type(exc).__name__}: {fuzz.shown(str(exc), 600)}"
                    f"\n    at {Path(where.filename).name}:{where.lineno}"
                )
            return
        if outcome == "accepted":
            tally.accepted += 1
        else:
            tally.rejected += 1

    started = time.perf_counter()
    one()
    tally.seconds = time.perf_counter() - started
    return tally


def report(tallies: list[Tally]) -> str:
    """The Markdown table of every target, the totals, and the failing inputs."""
    lines = [
        "| parser | inputs tried | rejected (project error) | accepted | failures | time |",
        "|---|---:|---:|---:|---:|---:|",
        *(tally.row() for tally in tallies),
    ]
    total = Tally("total")
    for tally in tallies:
        total.tried += tally.tried
        total.rejected += tally.rejected
        total.accepted += tally.accepted
        total.failures += tally.failures
        total.seconds += tally.seconds
    lines.append(total.row().replace("`total`", "**total**"))
    for tally in tallies:
        for example in tally.examples:
            lines.append(f"\nFAILURE {tally.name}: {example}")
    return "\n".join(lines)


def main() -> int:
    """Run the targets and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=6000, help="inputs per parser")
    parser.add_argument("--cli-examples", type=int, default=400, help="command lines")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed")
    parser.add_argument("--only", default="", help="only targets whose name starts so")
    args = parser.parse_args()
    fuzz = properties()
    print(f"# fuzz: seed {args.seed}; {common.machine()}", flush=True)
    tallies = []
    targets = [*((t, args.examples) for t in fuzz.PARSERS), (fuzz.COMMAND_LINE, args.cli_examples)]
    for target, examples in targets:
        if not target.name.startswith(args.only) or examples < 1:
            continue
        tally = run_target(target, examples, args.seed, fuzz)
        print(tally.row(), flush=True)
        tallies.append(tally)
    print(report(tallies), flush=True)
    return 1 if any(tally.failures for tally in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
