"""The Connect Four solver's compiled engine as the game declares it (no numba imported
here): what :mod:`.kernel` loads and what ``perfectplay warm`` compiles ahead of time."""

from __future__ import annotations

from perfectplay.games.kernel import CompiledEngine

ENGINE = CompiledEngine(
    label="the Connect Four engine",
    compile_seconds=20,
    entry_points=(
        (
            "perfectplay.games.connect4.compiled",
            (
                "solve_call",
                "solve_best_call",
                "best_move",
                "line_from",
                "solve_many",
                "best_many",
                "negamax",
                "negamax_depth",
                "can_win_next",
                "next_probe",
                "score_bounds",
            ),
        ),
        ("perfectplay.games.common.compiled_bits", ("now",)),
    ),
)
"""The exact solver's entry points (those of its progress reports and depth-limited search
too), and the clock compiled code reads."""
