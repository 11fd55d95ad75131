"""Fitting the Gomoku evaluation's values to game results, Texel-style (issue 26).

    python benchmarks/fit_gomoku_eval.py --games /tmp/rapfi_games.txt \\
        benchmarks/data/gomoku_peers_records.txt ... --seed 26

Reads finished games (the lines of ``gomoku_rapfi_games.py`` and the match records of
``bench_gomoku_peers.py``), replays each on the big-board engine's compiled board and keeps
its *quiet* positions: no win cell for either side (no four on the board) and no VCF for
the side to move (the engine's own :func:`~perfectplay.games.mnk.threat_compiled.shortest_vcf`,
up to :data:`VCF_FOURS` fours within :data:`VCF_NODES` nodes), from ply :data:`FIRST_PLY` on.
Each gets the game's result from the side to move's view (1 win, 0 loss, 1/2 draw) and two
feature vectors, one per evaluation, in each of which the evaluation is linear:

* the pattern tables' (``patterns.py``): per side, the empty cells by their combined class
  (double four, four-three, double three) and, over the other cells, the four directions'
  codes counted (B1 ... B4); the evaluation is ``attack/8 * w . mine - w . theirs``;
* the window scan's (``lines.evaluation_weights``): per side, the open windows holding 1 to 5
  stones, and the side to move's lines holding a four-maker (the tempo bonus).

The fit minimises the logistic loss of ``sigmoid(eval)`` against the results by Newton's
method (numpy; a small ridge), the attack share by a grid, on the games of a seeded random
80 % (by game), and reports the loss on the other 20 % for the fitted values and for the
package's values (their scale alone fitted). The fitted pattern values are printed in the
hand-set values' units, the window weights in the default weights' units: scaled so that the
evaluation's spread over the positions (its standard deviation) is theirs. Everything repeats
from the seed and the games.

With ``--labels FILE ...`` (``label_gomoku_rapfi.py``'s files, their games numbered alike)
the targets are Rapfi's values of the positions as well as the results, and the structures
fitted are the plain one, the class one (``ClassValues``) and with ``--triples`` the class
one refined by the third code (``TripleValues``), each printed as a set of the package:

    python benchmarks/fit_gomoku_eval.py --labels benchmarks/data/gomoku_rapfi_labels.txt.gz \
        benchmarks/data/gomoku_rapfi_labels_odd.txt.gz \
        benchmarks/data/gomoku_rapfi_labels_new.txt.gz \
        --triples --fresh --attacks 9 [--unproved] --cache /tmp/fit_cache

``--fresh`` holds out games of the files after the first only (the played set was fitted to
the first), ``--unproved`` fits without the positions Rapfi proves won or lost, ``--attacks``
the attack shares tried, ``--cache`` a folder keeping each file's features (minutes each).
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from gomoku_blunders import MATE, value_of

from perfectplay import api
from perfectplay.games.interrupt import deadline_ns
from perfectplay.games.mnk import patterns as pt
from perfectplay.games.mnk.big_kernel import new_state, static_context, with_patterns
from perfectplay.games.mnk.lines import evaluation_weights
from perfectplay.games.mnk.pattern_values import (
    CODES,
    DEFAULT_VALUES,
    EIGHTHS,
    HAND_SET_VALUES,
    PAIRS,
    PLAYED_VALUES,
    TOPS,
    TRIPLE_CODES,
    TRIPLES,
    ClassValues,
    PatternValues,
    TripleValues,
    pair_index,
    triple_index,
)

SIZE = 15
K = 5
FIRST_PLY = 5
"""Positions before this many stones are left out (the opening's)."""
VCF_FOURS = 12
VCF_NODES = 20_000
LABEL_LINE = re.compile(
    r"game (\d+) \| ply (\d+) \| result ([\d.]+) \| eval (\S+) \| stones ([\d, ]*)"
)
"""A line of ``label_gomoku_rapfi.py``: a quiet position and Rapfi's value of it."""
GAME_LINE = re.compile(r"opening ([\d, ]+) \| moves ([\d, ]*) \| winner (black|white|draw)")
MATCH_LINE = re.compile(
    r"perfectplay (black|white) \| (win|loss|draw) .*\| opening ([\d, ]+) \| moves ([\d, ]*)"
)
OTHER_BOARD = re.compile(r"\| board (?!15x15 rule [01]$)")
"""A match record's board, when it names one (records before session 13 do not), that is not
the 15x15 one (either rule: the fits read positions, and the codes know the rule)."""
CLASSES = ("double four", "four-three", "double three")
PATTERN_FEATURES = (*CLASSES, *pt.CODE_NAMES[pt.B1 : pt.F4])
"""Per side: the three combined classes, then the codes B1 .. B4 counted over the other
cells' directions (an F4 or F5 is always a class: a five or a double four)."""
CLASS_FEATURES = (
    *(f"{pt.CODE_NAMES[a]}+{pt.CODE_NAMES[b]}" for a in range(TOPS) for b in range(a + 1)),
    *(f"rest {name}" for name in pt.CODE_NAMES[pt.B1 : pt.F5]),
)[1:]
"""Per side: the cells by class (the pair of their two strongest codes, NONE+NONE left
out: worth 0), then the codes of the other two directions counted, B1 .. F4
(:class:`~perfectplay.games.mnk.pattern_values.ClassValues`)."""
TRIPLE_FEATURES = tuple(
    f"{pt.CODE_NAMES[a]}+{pt.CODE_NAMES[b]}+{pt.CODE_NAMES[c]}" for a, b, c in TRIPLE_CODES
)[1:]
"""Per side, after :data:`CLASS_FEATURES`: the cells by their three strongest codes (NONE x3
left out), a correction of the pair's value by the third code (``--triples``)."""
WINDOW_FEATURES = ("w1", "w2", "w3", "w4", "w5")
ATTACKS = tuple(range(8, 17))
"""The attack shares tried (eighths)."""
RIDGE = 1e-3
RARE = 200
"""A class or score seen fewer times than this over the training positions' cells (both
sides) takes its value from the weaker ones (:func:`class_values`)."""


@dataclass(frozen=True)
class Game:
    """A finished game: every stone (``(x, y)``, black first) and the winner."""

    stones: tuple[tuple[int, int], ...]
    winner: str


def parse_stones(text: str) -> tuple[tuple[int, int], ...]:
    """``x,y x,y ...`` as pairs."""
    return tuple((int(a), int(b)) for a, b in (m.split(",") for m in text.split()))


def read_games(paths: list[str]) -> list[Game]:
    """The games of the files (gzipped when named ``.gz``), in order, each once (lines of
    neither format skipped; a game played again move for move, as an engine at a fixed node
    budget does from the same opening, counted once)."""
    games: dict[Game, None] = {}
    for path in paths:
        raw = Path(path).read_bytes()
        text = gzip.decompress(raw).decode() if path.endswith(".gz") else raw.decode()
        for line in text.splitlines():
            if found := GAME_LINE.search(line):
                stones = parse_stones(found[1]) + parse_stones(found[2])
                games[Game(stones, found[3])] = None
            elif (found := MATCH_LINE.search(line)) and not OTHER_BOARD.search(line):
                colour, result = found[1], found[2]
                winner = "draw" if result == "draw" else colour
                if result == "loss":
                    winner = "white" if colour == "black" else "black"
                games[Game(parse_stones(found[3]) + parse_stones(found[4]), winner)] = None
    return list(games)


def window_index() -> np.ndarray[Any, Any]:
    """Every window of ``K`` cells of the board along the four directions: cell indices."""
    rows = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(SIZE):
            for c in range(SIZE):
                cells = [(r + i * dr, c + i * dc) for i in range(K)]
                if all(0 <= a < SIZE and 0 <= b < SIZE for a, b in cells):
                    rows.append([a * SIZE + b for a, b in cells])
    return np.array(rows, dtype=np.int64)


def pattern_counts(codes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """One side's pattern features (:data:`PATTERN_FEATURES`) from its codes of the empty
    cells (``int[cells, 4]``), as :func:`~perfectplay.games.mnk.patterns.combined_value`
    classes them."""
    fours = ((codes == pt.B4) | (codes == pt.F4)).sum(1)
    threes = (codes == pt.F3).sum(1)
    five = (codes == pt.F5).any(1)
    double_four = ~five & ((codes == pt.F4).any(1) | (fours >= 2))
    four_three = ~five & ~double_four & (fours > 0) & (threes > 0)
    double_three = ~five & ~double_four & ~four_three & (threes >= 2)
    rest = codes[~(five | double_four | four_three | double_three)]
    counts = np.bincount(rest.ravel(), minlength=CODES)
    classes = [double_four.sum(), four_three.sum(), double_three.sum()]
    return np.array([*classes, *counts[pt.B1 : pt.F4]], dtype=np.float64)


def window_counts(board: np.ndarray[Any, Any], side: int, windows: np.ndarray[Any, Any]) -> Any:
    """Open windows of ``side`` (0 x, 1 o) holding 1 .. K stones."""
    cells = board[windows]
    own = (cells == side + 1).sum(1)
    other = (cells == 2 - side).sum(1)
    held = own[other == 0]
    return np.bincount(held, minlength=K + 1)[1:].astype(np.float64)


def quiet_positions(
    games: Sequence[Game | None],
) -> Iterator[tuple[int, int, float, Any, int]]:
    """``(game number, ply, result, state, side to move)`` of every quiet position of
    ``games`` (see the module docstring; a ``None`` game skipped, and a game of a larger
    board, a stone off the 15x15 one: older records do not name the board), the state the
    compiled board's (features read from it at once)."""
    from perfectplay.games.mnk import board_compiled, threat_compiled

    game, start, spec, ctx = board()
    for number, record in enumerate(games):
        if record is None or max(max(stone) for stone in record.stones) >= SIZE:
            continue
        position = start
        for ply, (x, y) in enumerate(record.stones):
            position = game.play(position, (y, x))
            if ply + 1 < FIRST_PLY or game.outcome(position) is not None:
                continue
            st = new_state(spec, position, ctx, board_compiled.load)
            side = (ply + 1) % 2
            if st[3][0] or st[3][1]:
                continue
            stats = np.array([0, 0, 1 << 40, 0, deadline_ns(None), 0, 0], dtype=np.int64)
            if threat_compiled.shortest_vcf(side, VCF_FOURS, 0, VCF_NODES, ctx, st, stats):
                continue
            mover = "black" if side == 0 else "white"
            result = 0.5 if record.winner == "draw" else float(record.winner == mover)
            yield number, ply + 1, result, st, side


def board() -> tuple[Any, Any, Any, tuple[Any, ...]]:
    """``(game, empty position, spec, context)`` of the 15x15 board, the tables evaluating."""
    game, start = api.new_game("tictactoe", size=f"{SIZE}x{SIZE}", k=K)
    spec = game.spec
    return game, start, spec, with_patterns(static_context(spec), spec, pt.PATTERNS_EVAL)


def features(st: Any, side: int, windows: np.ndarray[Any, Any]) -> dict[str, Any]:
    """The three feature vectors of a state, ``side`` to move: ``pat`` (the plain tables'),
    ``cls`` (a class set's, :func:`class_counts`) and ``win`` (the window scan's)."""
    empty = st[4] == 0
    codes = [st[11][s].reshape(-1, 4)[empty] for s in (side, 1 - side)]
    tempo = float(np.count_nonzero(st[2][side]))
    win = [window_counts(st[4], side, windows), window_counts(st[4], 1 - side, windows)]
    return {
        "pat": np.concatenate([pattern_counts(c) for c in codes]),
        "cls": np.concatenate([class_counts(c) for c in codes]),
        "tri": np.concatenate([triple_counts(c) for c in codes]),
        "win": np.concatenate([*win, [tempo]]),
    }


def positions(games: list[Game]) -> dict[str, np.ndarray[Any, Any]]:
    """The quiet positions of ``games`` with their features (see the module docstring)."""
    windows = window_index()
    keys = ("game", "ply", "result", "pat", "cls", "tri", "win")
    rows: dict[str, list[Any]] = {k: [] for k in keys}
    for number, ply, result, st, side in quiet_positions(games):
        rows["game"].append(number)
        rows["ply"].append(ply)
        rows["result"].append(result)
        for key, value in features(st, side, windows).items():
            rows[key].append(value)
    return {k: np.array(v) for k, v in rows.items()}


def class_counts(codes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """One side's class features (:data:`CLASS_FEATURES`) from its codes of the empty cells
    (``int[cells, 4]``), as :func:`~perfectplay.games.mnk.pattern_classes.class_value`
    values them: the cells by the pair of their two strongest codes, then the other two
    directions' codes counted (cells with a five left out: never in a quiet position)."""
    ordered = -np.sort(-codes.astype(np.int64), axis=1)
    kept = ordered[ordered[:, 0] != pt.F5]
    pairs = kept[:, 0] * (kept[:, 0] + 1) // 2 + kept[:, 1]
    by_pair = np.bincount(pairs, minlength=PAIRS)
    rest = np.bincount(kept[:, 2:].ravel(), minlength=CODES)
    return np.concatenate([by_pair[1:], rest[pt.B1 : pt.F5]]).astype(np.float64)


def triple_counts(codes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """One side's triple features (:data:`TRIPLE_FEATURES`) from its codes of the empty
    cells: the cells by their three strongest codes (cells with a five left out)."""
    ordered = -np.sort(-codes.astype(np.int64), axis=1)
    kept = ordered[ordered[:, 0] != pt.F5]
    index = triple_index(kept[:, 0], kept[:, 1], kept[:, 2])
    return np.bincount(index, minlength=TRIPLES)[1:].astype(np.float64)


def logistic_fit(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Weights minimising the mean logistic loss of ``sigmoid(x @ w)`` against ``y`` (Newton's
    method with a small ridge)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / len(y) + RIDGE * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + RIDGE * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def loss(z: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    """The mean logistic loss of ``sigmoid(z)`` against ``y``."""
    p = np.clip(1 / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def losses(z: np.ndarray[Any, Any], y: np.ndarray[Any, Any], train: Any, test: Any) -> str:
    """The losses of ``sigmoid(z)`` on the training and the held-out positions, as text."""
    return f"loss train {loss(z[train], y[train]):.4f} test {loss(z[test], y[test]):.4f}"


def scale_fit(e: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    """The ``1/K`` for which ``sigmoid(e / K)`` fits ``y`` best (the package's values)."""
    return float(logistic_fit(e[:, None], y)[0])


def pattern_weights(ours: PatternValues) -> np.ndarray[Any, Any]:
    """A set of pattern values in the layout of :data:`PATTERN_FEATURES`."""
    classes = [ours.double_four, ours.four_three, ours.double_three]
    return np.array([*classes, *ours.scores[pt.B1 : pt.F4]], dtype=np.float64)


def pattern_x(data: dict[str, Any], attack: int) -> np.ndarray[Any, Any]:
    """The pattern features combined as the evaluation does with ``attack`` eighths."""
    n = len(PATTERN_FEATURES)
    x: np.ndarray[Any, Any] = data["pat"][:, :n] * attack / EIGHTHS - data["pat"][:, n:]
    return x


def class_x(data: dict[str, Any], attack: int) -> np.ndarray[Any, Any]:
    """The class features combined as the evaluation does with ``attack`` eighths."""
    n = len(CLASS_FEATURES)
    x: np.ndarray[Any, Any] = data["cls"][:, :n] * attack / EIGHTHS - data["cls"][:, n:]
    return x


def triple_x(data: dict[str, Any], attack: int) -> np.ndarray[Any, Any]:
    """The class features and the triple corrections combined as the evaluation does."""
    n = len(TRIPLE_FEATURES)
    extra = data["tri"][:, :n] * attack / EIGHTHS - data["tri"][:, n:]
    x: np.ndarray[Any, Any] = np.concatenate([class_x(data, attack), extra], 1)
    return x


def labelled(path: str) -> dict[str, np.ndarray[Any, Any]]:
    """The positions of a labels file (``label_gomoku_rapfi.py``'s lines) with their
    features, the game's result and Rapfi's value (``rapfi``, mates as +/-``MATE``)."""
    windows = window_index()
    keys = ("game", "ply", "result", "rapfi", "pat", "cls", "tri", "win")
    rows: dict[str, list[Any]] = {k: [] for k in keys}
    for found, st in label_states(path):
        ply = int(found[2])
        for key, value in (("game", found[1]), ("ply", ply), ("result", found[3])):
            rows[key].append(float(value))
        rows["rapfi"].append(value_of(found[4]))
        for key, value in features(st, ply % 2, windows).items():
            rows[key].append(value)
    return {k: np.array(v) for k, v in rows.items()}


def label_states(path: str) -> Iterator[tuple[re.Match[str], Any]]:
    """Each position of a labels file (``label_gomoku_rapfi.py``'s lines, gzipped or not): its
    line's match of :data:`LABEL_LINE` and the compiled board's state, the tables evaluating
    by the played values (:func:`board`)."""
    from perfectplay.games.mnk import board_compiled

    game, start, spec, ctx = board()
    raw = Path(path).read_bytes()
    text = gzip.decompress(raw).decode() if path.endswith(".gz") else raw.decode()
    for line in text.splitlines():
        if not (found := LABEL_LINE.fullmatch(line.strip())):
            continue
        position = start
        for x, y in parse_stones(found[5]):
            position = game.play(position, (y, x))
        yield found, new_state(spec, position, ctx, board_compiled.load)


def labels_data(paths: list[str], cache: str | None) -> dict[str, np.ndarray[Any, Any]]:
    """The positions of labels files (:func:`labelled`; their games numbered alike, as
    ``label_gomoku_rapfi.py`` numbers them from the same files), each read from the folder
    ``cache`` when there (``NAME.npz``), else written there (the features take minutes)."""
    parts = []
    for path in paths:
        saved = Path(cache, Path(path).name + ".npz") if cache else None
        if saved and saved.exists():
            parts.append(dict(np.load(saved)))
            continue
        parts.append(labelled(path))
        if saved:
            np.savez_compressed(saved, **parts[-1])
    for number, part in enumerate(parts):
        part["part"] = np.full(len(part["game"]), number)
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def window_x(data: dict[str, Any]) -> np.ndarray[Any, Any]:
    """The window features as the window evaluation combines them (mine less theirs, tempo)."""
    w = data["win"]
    x: np.ndarray[Any, Any] = np.concatenate([w[:, :K] - w[:, K : 2 * K], w[:, 2 * K :]], 1)
    return x


def report(data: dict[str, Any], seed: int) -> None:
    """Fit both evaluations on 80 % of the games, print the losses and values."""
    rng = np.random.default_rng(seed)
    games = np.unique(data["game"])
    test_games = rng.choice(games, size=len(games) // 5, replace=False)
    test = np.isin(data["game"], test_games)
    train = ~test
    y = data["result"]
    print(f"{len(games)} games, {len(y)} quiet positions ({test.sum()} held out)")
    print(f"constant (side to move's mean score {y[train].mean():.3f}):", end=" ")
    base = np.log(y[train].mean() / (1 - y[train].mean()))
    print(f"test loss {loss(np.full(test.sum(), base), y[test]):.4f}")
    fit_patterns(data, train, test, y)
    fit_windows(data, train, test, y)


def fit_patterns(data: dict[str, Any], train: Any, test: Any, y: Any) -> None:
    """The pattern values: the package's sets (their scale fitted: the hand-set ones and the
    default) and a new fit, by attack share, in the hand-set values' units."""
    for name, values in (("hand-set", HAND_SET_VALUES), ("default", DEFAULT_VALUES)):
        x = pattern_x(data, values.attack)
        scale = scale_fit(x[train] @ pattern_weights(values), y[train])
        print(
            f"patterns, the package's {name} values, attack {values.attack}/8: "
            f"1/K {scale:.5f}, {losses(scale * x @ pattern_weights(values), y, train, test)}"
        )
    ours = pattern_weights(HAND_SET_VALUES)
    attack, w = best_attack(data, pattern_x, y, train, test, say=True)
    x = pattern_x(data, attack)
    train_loss, test_loss = loss(x[train] @ w, y[train]), loss(x[test] @ w, y[test])
    fitted = np.round(w * spread(x[train] @ ours, x[train] @ w)).astype(int)
    print(f"patterns fitted: attack {attack}/8, loss train {train_loss:.4f} test {test_loss:.4f}")
    for name, value, package in zip(PATTERN_FEATURES, fitted, ours, strict=True):
        print(f"  {name:13} {value:6d}  (hand-set {package:.0f})")


def fit_windows(data: dict[str, Any], train: Any, test: Any, y: Any) -> None:
    """The window weights: the package's (scale fitted) and fitted."""
    ours = np.array(evaluation_weights(K)[1:], dtype=np.float64)
    x = window_x(data)
    scale = scale_fit(x[train] @ ours, y[train])
    print(
        f"windows, package weights {tuple(int(v) for v in ours)}: 1/K {scale:.5f}, "
        f"{losses(scale * x @ ours, y, train, test)}"
    )
    w = logistic_fit(x[train], y[train])
    print(
        f"windows fitted: loss train {loss(x[train] @ w, y[train]):.4f} "
        f"test {loss(x[test] @ w, y[test]):.4f}; weights (package units) "
        f"{tuple(int(v) for v in np.round(w * spread(x[train] @ ours, x[train] @ w)))}"
    )


def report_labelled(data: dict[str, Any], args: argparse.Namespace) -> None:
    """Rapfi's values as labels (:func:`labelled_split`), then on held-out games the loss,
    against Rapfi's probabilities and against the results, of the package's played and
    default values (scale fitted) and of the plain and the class structures (with
    ``args.triples`` also the class structure corrected by the third code) fitted to each;
    the sets fitted to Rapfi's probabilities printed as the package's sets in the default
    values' units. Held-out losses on all held-out positions, then on the unproved ones."""
    train, test, masks, rapfi = labelled_split(data, args)
    results = data["result"]
    structures = [("plain", pattern_x), ("class", class_x)]
    structures += [("triple", triple_x)] if args.triples else []
    fitted = {}
    for target_name, y in (("Rapfi", rapfi), ("results", results)):
        for name, z in package_evaluations(data).items():
            k = scale_fit(z[train], y[train])
            print(f"target {target_name}: {name}, {held_out(k * z, y, masks)}")
        for structure, make_x in structures:
            attack, w = best_attack(data, make_x, y, train, test, attacks=args.attacks)
            z = make_x(data, attack) @ w
            print(f"  {structure} fitted (attack {attack}/8): {held_out(z, y, masks)}")
            other = results if target_name == "Rapfi" else rapfi
            print(f"    against the other target: {held_out(z, other, masks)}")
            fitted[target_name, structure] = (attack, w)
    print_fitted_set(data, fitted["Rapfi", "class"], train, (rapfi, results), masks)
    if args.triples:
        print_triple_set(data, fitted["Rapfi", "triple"], train, (rapfi, results), masks)


def labelled_split(data: dict[str, Any], args: argparse.Namespace) -> tuple[Any, ...]:
    """``(train, test, masks, rapfi)``: the 80/20 split by game (``args.seed``), the
    held-out masks (all, unproved) and Rapfi's values as probabilities (scale fitted to the
    results, :func:`rapfi_probabilities`), printed with Rapfi's own losses. With
    ``args.unproved`` training leaves out the positions Rapfi proves won or lost (``+Mn``,
    ``-Mn``); with ``args.fresh`` the held-out games are a fifth of those of the labels
    files after the first (``part`` 1 on): a set fitted to the first is judged on games it
    has not seen."""
    rng = np.random.default_rng(args.seed)
    games = np.unique(data["game"][data["part"] >= 1] if args.fresh else data["game"])
    test = np.isin(data["game"], rng.choice(games, size=len(games) // 5, replace=False))
    proved = np.abs(data["rapfi"]) >= MATE
    train = ~test & ~proved if args.unproved else ~test
    results = data["result"]
    rapfi = rapfi_probabilities(data["rapfi"], results, ~test)
    held = len(np.unique(data["game"][test]))
    print(
        f"{len(np.unique(data['game']))} games, {len(results)} labelled positions "
        f"({test.sum()} of {held} games held out, drawn from {len(games)})"
    )
    print(f"  fitted on {train.sum()} positions ({'unproved only' if args.unproved else 'all'})")
    masks = (test, test & ~proved)
    print(f"  Rapfi's probabilities against the results: {held_out(logit(rapfi), results, masks)}")
    floors = ", ".join(loss_floor(rapfi[mask]) for mask in masks)
    print(f"  floor against Rapfi's probabilities (their entropy; all, unproved): {floors}")
    return train, test, masks, rapfi


def package_evaluations(data: dict[str, Any]) -> dict[str, np.ndarray[Any, Any]]:
    """The evaluations of the package's played set and its default plain set (unscaled)."""
    evaluations = {"default plain values": default_evaluation(data)}
    if isinstance(PLAYED_VALUES, ClassValues):
        numbers = class_numbers(PLAYED_VALUES.pairs, PLAYED_VALUES.scores)
        evaluations["played class values"] = class_x(data, PLAYED_VALUES.attack) @ numbers
    if isinstance(PLAYED_VALUES, TripleValues):
        weights = triple_weights(PLAYED_VALUES)
        evaluations["played triple values"] = triple_x(data, PLAYED_VALUES.attack) @ weights
    return evaluations


def default_evaluation(data: dict[str, Any]) -> np.ndarray[Any, Any]:
    """The package's default plain values' evaluation of the positions (unscaled): the
    yardstick a printed set's spread is scaled to (:func:`spread`)."""
    z: np.ndarray[Any, Any] = pattern_x(data, DEFAULT_VALUES.attack) @ pattern_weights(
        DEFAULT_VALUES
    )
    return z


def seen(features: np.ndarray[Any, Any], train: Any) -> np.ndarray[Any, Any]:
    """How often each feature of a side-by-side block (the mover's columns, then the
    opponent's) occurs over the training positions, both sides counted."""
    half = features.shape[1] // 2
    counts: np.ndarray[Any, Any] = features[train][:, :half].sum(0) + features[train][:, half:].sum(
        0
    )
    return counts


def print_losses(name: str, z: np.ndarray[Any, Any], train: Any, targets: Any, masks: Any) -> None:
    """The held-out losses of a printed set's evaluation ``z`` against Rapfi's probabilities
    and the results (its scale refitted to each on the training positions)."""
    for target_name, y in zip(("Rapfi", "results"), targets, strict=True):
        k = scale_fit(z[train], y[train])
        print(f"{name}, target {target_name}: {held_out(k * z, y, masks)}")


def print_fitted_set(
    data: dict[str, Any], fit: tuple[int, Any], train: Any, targets: Any, masks: Any
) -> None:
    """The class fit ``(attack, weights)`` as a ``ClassValues`` set in the default values'
    units (:func:`print_class_values`), and its losses as printed (scale refitted)."""
    attack, w = fit
    x = class_x(data, attack)
    scaled = w * spread(default_evaluation(data)[train], x[train] @ w)
    pairs, scores = print_class_values(attack, scaled, seen(data["cls"], train))
    print_losses("the set as printed", x @ class_numbers(pairs, scores), train, targets, masks)


def print_triple_set(
    data: dict[str, Any], fit: tuple[int, Any], train: Any, targets: Any, masks: Any
) -> None:
    """The triple fit ``(attack, weights)`` as a ``TripleValues`` set in the default values'
    units: its class part made a class set (:func:`class_values`), each triple that pair's
    value plus the third code's score plus the triple's fitted correction (left out for a
    triple seen fewer than :data:`RARE` times), negative ones as 0; printed with its losses
    (scale refitted)."""
    attack, w = fit
    x = triple_x(data, attack)
    n = len(CLASS_FEATURES)
    scaled = w * spread(default_evaluation(data)[train], x[train] @ w)
    pairs, scores = class_values(scaled[:n], seen(data["cls"], train))
    seen_triple = seen(data["tri"], train)
    corrections = [
        0.0,
        *(v if c >= RARE else 0.0 for v, c in zip(scaled[n:], seen_triple, strict=True)),
    ]
    triples = [
        max(0, round(pairs[pair_index(a, b)] + scores[c] + corrections[index])) if index else 0
        for index, (a, b, c) in enumerate(TRIPLE_CODES)
    ]
    five = max(1_000, max(triples) + max(scores) + 1)
    print(f"triple values fitted to Rapfi (attack {attack}/8):")
    print(
        f"  TripleValues(triples={tuple(triples)}, scores={scores}, five={five}, attack={attack})"
    )
    z = x @ triple_weights(TripleValues(tuple(triples), scores, five, attack))
    print_losses("the triple set as printed", z, train, targets, masks)


def triple_weights(values: TripleValues) -> np.ndarray[Any, Any]:
    """A triple set in the layout of :func:`triple_x`'s columns: the class part's pairs 0
    and its scores the set's (they count the third and fourth codes), then each triple
    less its third code's score (counted by the class part already)."""
    n = len(CLASS_FEATURES) - (pt.F5 - pt.B1)
    weights = [0.0] * n + [float(v) for v in values.scores[pt.B1 : pt.F5]]
    corrected = [values.triples[i] - values.scores[c] for i, (_, _, c) in enumerate(TRIPLE_CODES)]
    weights += corrected[1:]  # NONE x3 has no column
    return np.array(weights, dtype=np.float64)


def held_out(z: np.ndarray[Any, Any], y: np.ndarray[Any, Any], masks: Any) -> str:
    """The losses of ``sigmoid(z)`` against ``y`` on each mask (all held-out positions, the
    unproved ones), as text."""
    return "test " + " / ".join(f"{loss(z[m], y[m]):.4f}" for m in masks)


def rapfi_probabilities(values: Any, results: Any, train: Any) -> np.ndarray[Any, Any]:
    """Rapfi's values as win probabilities for the side to move: ``sigmoid(value / K)``,
    ``K`` fitted to the results of the training positions without a mate; a proved win
    (``+Mn``, :data:`MATE`) the training positions' share of won games among those Rapfi
    proves won (a game's player need not find the win; a proved loss the complement)."""
    mates = np.abs(values) >= MATE
    scale = scale_fit(values[train & ~mates], results[train & ~mates])
    wins = np.concatenate(
        [results[train & (values >= MATE)], 1 - results[train & (values <= -MATE)]]
    )
    mate = float(wins.mean()) if len(wins) else 1.0
    print(
        f"Rapfi's value: K {1 / scale:.0f} (sigmoid(value / K)); {mates.mean():.1%} proved "
        f"(+M/-M), their player scoring {mate:.3f}"
    )
    probability = 1 / (1 + np.exp(-scale * values))
    probability[values >= MATE] = mate
    probability[values <= -MATE] = 1 - mate
    clipped: np.ndarray[Any, Any] = np.clip(probability, 1e-6, 1 - 1e-6)
    return clipped


def logit(p: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The log-odds of probabilities ``p``."""
    z: np.ndarray[Any, Any] = np.log(p / (1 - p))
    return z


def loss_floor(p: np.ndarray[Any, Any]) -> str:
    """The entropy of probabilities ``p``: the least loss against them, as text."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return f"{float(-np.mean(q * np.log(q) + (1 - q) * np.log(1 - q))):.4f}"


def best_attack(
    data: dict[str, Any], make_x: Any, y: Any, train: Any, test: Any, **options: Any
) -> Any:
    """``(attack, weights)``: the logistic fit of ``make_x``'s features with the attack
    share of ``options["attacks"]`` (default :data:`ATTACKS`) whose held-out loss is least
    (with ``options["say"]``, each share's losses printed)."""
    say, attacks = options.get("say", False), options.get("attacks", ATTACKS)
    best = None
    for attack in attacks:
        x = make_x(data, attack)
        w = logistic_fit(x[train], y[train])
        held = loss(x[test] @ w, y[test])
        if say:
            trained = loss(x[train] @ w, y[train])
            print(f"  attack {attack}/8: loss train {trained:.4f} test {held:.4f}")
        if best is None or held < best[0]:
            best = (held, attack, w)
    assert best is not None
    return best[1], best[2]


def class_values(
    w: np.ndarray[Any, Any], seen: np.ndarray[Any, Any]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(pairs, scores)`` of a ``ClassValues`` set from fitted class weights (``seen``: how
    often each feature occurs in the training positions): rounded, negative ones as 0; a
    class or score seen fewer than :data:`RARE` times (the fit cannot tell its value: F4+F4,
    say) worth the most of those one code weaker, so that it is not worth less than a weaker
    one in the move order; an open four with a second code worth at least a four with it
    (the fit sees an F4+F3 cell seldom: the side to move's is a VCF, not quiet); NONE+NONE
    and the NONE and F5 scores 0."""
    npairs = len(CLASS_FEATURES) - (pt.F5 - pt.B1)
    values = [0, *(max(0, round(float(v))) for v in w)]
    rare = [False, *(count < RARE for count in seen)]
    pairs, scores = values[: npairs + 1], [0, *values[npairs + 1 :], 0]
    for a in range(TOPS):
        for b in range(a + 1):
            if a == pt.F4 and b < pt.F4:  # an open four is worth at least a four
                pairs[pair_index(a, b)] = max(pairs[pair_index(a, b)], pairs[pair_index(pt.B4, b)])
            if rare[pair_index(a, b)]:
                weaker = [pairs[pair_index(a, b - 1)]] if b else []
                weaker += [pairs[pair_index(a - 1, b)]] if b < a else []
                pairs[pair_index(a, b)] = max(weaker, default=0)
    for code in range(pt.B1, pt.F5):
        if rare[npairs + code]:
            scores[code] = scores[code - 1]
    return tuple(pairs), tuple(scores)


def class_numbers(pairs: tuple[int, ...], scores: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """A class set's pairs and scores in the layout of :data:`CLASS_FEATURES`."""
    return np.array([*pairs[1:], *scores[pt.B1 : pt.F5]], dtype=np.float64)


def print_class_values(attack: int, w: Any, seen: Any) -> tuple[tuple[int, ...], ...]:
    """The fitted class weights as a ``ClassValues`` set (:func:`class_values`; the five
    above any other cell), printed; returns its pairs and scores."""
    pairs, scores = class_values(w, seen)
    five = max(1_000, max(pairs) + 2 * max(scores) + 1)
    print(f"class values fitted to Rapfi (attack {attack}/8):")
    print(f"  ClassValues(pairs={pairs}, scores={scores}, five={five}, attack={attack})")
    for name, value, count in zip(CLASS_FEATURES, class_numbers(pairs, scores), seen, strict=True):
        print(f"  {name:10} {value:6.0f}  (seen {count:.0f})")
    return pairs, scores


def spread(package: np.ndarray[Any, Any], fitted: np.ndarray[Any, Any]) -> float:
    """The factor that gives the fitted evaluation the package's spread over the positions
    (its standard deviation): the fitted values in the package's units, so that they weigh
    as much as before against the terms the fit cannot see (a five, the move order's)."""
    return float(package.std() / fitted.std())


def main(argv: list[str] | None = None) -> None:
    """Parse the options, read the games, fit, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=[], help="files of finished games")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--save", help="write the games' positions to this .npz (no fit)")
    parser.add_argument("--data", nargs="*", default=[], help=".npz files of positions to add")
    parser.add_argument(
        "--labels", nargs="*", default=[], help="labels files of label_gomoku_rapfi.py (own fit)"
    )
    parser.add_argument("--unproved", action="store_true", help="fit without Rapfi's proofs")
    parser.add_argument("--triples", action="store_true", help="fit the third code's correction")
    parser.add_argument("--attacks", type=int, nargs="+", default=ATTACKS, help="shares tried")
    parser.add_argument("--fresh", action="store_true", help="hold out games of files 2 on")
    parser.add_argument("--cache", help="a folder keeping the labels' features (.npz)")
    args = parser.parse_args(argv)
    if args.labels:
        data = labels_data(args.labels, args.cache)
        report_labelled(data, args)
        return
    parts = [dict(np.load(path)) for path in args.data]
    if args.games:
        parts.append(positions(read_games(args.games)))
        if args.save:
            np.savez_compressed(args.save, **parts[-1])
            return
    report(merged(parts), args.seed)


def merged(parts: list[dict[str, np.ndarray[Any, Any]]]) -> dict[str, np.ndarray[Any, Any]]:
    """The positions of several sets, their games numbered apart."""
    offset = 0
    for part in parts:
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


if __name__ == "__main__":
    main()
