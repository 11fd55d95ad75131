"""Fitting the Gomoku evaluation's threat table to Rapfi's values (issue 26).

    python benchmarks/fit_gomoku_threats.py benchmarks/data/gomoku_rapfi_labels.txt.gz \\
        benchmarks/data/gomoku_rapfi_labels_odd.txt.gz \\
        benchmarks/data/gomoku_rapfi_labels_new.txt.gz --seed 26

The cells' values are additive: a side's cells summed, the side to move's weighted by the
attack share. Who holds the initiative is not: the same open three is worth much more to the
side to move than to the side that just moved, and a four to answer it with changes that
again. The threat table adds to the evaluation a value per *threat mask* of the position
(:func:`perfectplay.games.mnk.patterns.threat_mask`: eleven bits, whether some empty cell
lets the side to move, or the opponent, make a five, a flex four, a four with more, a four, a
three with more, a three), the structure of Rapfi's classical evaluation (its threat table,
``eval/eval.cpp``; read for the idea, its values not used).

Reads ``label_gomoku_rapfi.py``'s files (quiet positions, Rapfi's value of each and the
game's result), replays each position on the compiled board with the played values, and
fits ``sigmoid(a * eval + T[mask])`` to Rapfi's values as probabilities
(``fit_gomoku_eval.rapfi_probabilities``) by Newton's method on a seeded 80 % of the games
(a mask seen fewer than :data:`MIN_SEEN` times keeps 0). Prints the held-out losses without
and with the table, against Rapfi's probabilities and against the results, then the table in
the evaluation's units (``T / a``) as a ``pattern_values.ThreatValues`` literal.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from fit_gomoku_eval import (
    label_states,
    logistic_fit,
    losses,
    rapfi_probabilities,
    scale_fit,
)
from gomoku_blunders import value_of

from perfectplay.games.mnk.pattern_values import EIGHTHS, PLAYED_VALUES

MIN_SEEN = 100
"""Training positions a mask needs for a value of its own."""
COLUMNS = ("game", "ply", "result", "rapfi", "eval", "mask")


def position_rows(path: str) -> np.ndarray[Any, Any]:
    """One row per position of a labels file: :data:`COLUMNS` (the played evaluation for the
    side to move, unscaled; its threat mask, as the compiled board keeps it)."""
    from perfectplay.games.mnk import board_compiled

    rows = []
    for found, st in label_states(path):
        ply = int(found[2])
        side = ply % 2
        value = st[3][4 + side] * PLAYED_VALUES.attack // EIGHTHS - st[3][5 - side]
        mask = int(board_compiled.threat_mask(side, st[3]))
        rows.append((int(found[1]), ply, float(found[3]), value_of(found[4]), value, mask))
    return np.array(rows, dtype=np.float64)


def design(data: np.ndarray[Any, Any], kept: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The fit's columns: the evaluation (in hundreds), then one indicator per kept mask."""
    x = np.zeros((len(data), len(kept) + 1))
    x[:, 0] = data[:, COLUMNS.index("eval")] / 100
    masks = data[:, COLUMNS.index("mask")].astype(np.int64)
    column = np.searchsorted(kept, masks)
    found = (column < len(kept)) & (kept[np.minimum(column, len(kept) - 1)] == masks)
    x[np.nonzero(found)[0], column[found] + 1] = 1.0
    return x


def fit(data: np.ndarray[Any, Any], seed: int) -> list[tuple[int, int]]:
    """The held-out losses printed, and the table's entries ``(mask, value)`` fitted."""
    games = data[:, COLUMNS.index("game")]
    rng = np.random.default_rng(seed)
    unique = np.unique(games)
    test = np.isin(games, rng.choice(unique, size=len(unique) // 5, replace=False))
    train = ~test
    results, values = data[:, COLUMNS.index("result")], data[:, COLUMNS.index("rapfi")]
    targets = {"Rapfi": rapfi_probabilities(values, results, train), "results": results}
    masks = data[:, COLUMNS.index("mask")].astype(np.int64)
    seen, count = np.unique(masks[train], return_counts=True)
    kept = seen[count >= MIN_SEEN]
    print(f"{len(data)} positions, {test.sum()} held out; {len(seen)} masks, {len(kept)} kept")
    evaluation = data[:, COLUMNS.index("eval")]
    x = design(data, kept)
    entries: list[tuple[int, int]] = []
    for name, y in targets.items():
        k = scale_fit(evaluation[train], y[train])
        print(f"target {name}: the evaluation alone, {losses(k * evaluation, y, train, test)}")
        w = logistic_fit(x[train], y[train])
        print(f"  with the threat table, {losses(x @ w, y, train, test)}")
        if name == "Rapfi":
            scale = w[0] / 100
            entries = [(int(m), round(v / scale)) for m, v in zip(kept, w[1:], strict=True)]
    return entries


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="+", help="label_gomoku_rapfi.py's files")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args(argv)
    parts = []
    for path in args.labels:
        try:
            rows = position_rows(path)
        except OSError as error:
            parser.error(f"labels file {path}: {error.strerror or error}")
        if len(rows) == 0:
            parser.error(f"labels file {path}: no labelled position (label_gomoku_rapfi.py lines)")
        parts.append(rows)
    # the files number their games alike (label_gomoku_rapfi.py numbers them so)
    entries = fit(np.concatenate(parts), args.seed)
    print("ThreatValues((")
    for mask, value in entries:
        print(f"    ({mask:#013b}, {value}),")
    print("))")


if __name__ == "__main__":
    main()
