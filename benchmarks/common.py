"""What the benchmark scripts share: the machine line, the time format and where Pons'
benchmark sets are."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import numba

PONS_SETS = Path(__file__).resolve().parents[2] / "shared" / "connect4"
"""The folder of Pons' Connect Four benchmark sets (``Test_L3_R1`` ...), beside the checkout."""


def machine() -> str:
    """CPU model, cores and software versions."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores; Python {platform.python_version()}, "
        f"numba {numba.__version__}, {platform.system()} {platform.release()}"
    )


def fmt(seconds: float, micro_digits: int = 1) -> str:
    """A duration in µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.{micro_digits}f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"
