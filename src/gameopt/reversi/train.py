"""Training the pattern evaluation from nothing: self-play, exact labels, least squares.

Data (:func:`generate`). Each game starts with ``random_plies`` uniformly random moves,
then the engine plays itself at ``depth`` plies (with probability ``epsilon`` a move is
random instead, for variety) until ``exact_empties`` empty squares remain. That position
is solved exactly, and the game ends along the solver's principal variation. Every
position of the game is labelled with the exact final disc difference of that perfect
ending, for its side to move: Buro's labelling by game result, with the last part of the
game played perfectly. Games are independent jobs for
:func:`gameopt.core.parallel.parallel_map` (local processes, or Dask with ``scheduler``).

Stored as ``.npz`` (:func:`write_data`): ``player``, ``opponent`` (uint64, N; the side to
move's discs first), ``target`` (float32, N; discs for the side to move), ``game``
(int32, N), and a JSON ``meta`` string (format ``gameopt-train-1`` and the generation
parameters).

Fitting (:func:`fit`). Per stage, least squares by stochastic gradient descent from
all-zero weights with L2 shrinkage toward 0 (so configurations never seen stay at 0). A
position with ``ply = 60 - empties`` trains stage ``ply // 4`` and, at the edge of it, the
neighbouring stage (6 plies per stage in all, as the seed does, so values change
smoothly). Games are split into training and validation sets; per-stage errors of both
are returned.

Weights (:func:`write_weights` / :func:`read_weights`): ``.npz`` with ``weights``
(float32, 15 × stage_size, discs), and ``meta`` (format ``gameopt-patterns-1``, the
pattern set's names and squares, training facts). Reading checks the pattern set.

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", 1997 (patterns, stages, least squares on game results).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from gameopt.core.files import atomic_write_bytes
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import ProgressCallback
from gameopt.errors import InvalidInputError
from gameopt.reversi._bitboard import get_moves as _moves
from gameopt.reversi._bitboard import popcount as _popc
from gameopt.reversi._eval import config_index
from gameopt.reversi.board import PASS, Board
from gameopt.reversi.patterns import DEFAULT_SET, N_STAGES, PATTERNS, PatternSet
from gameopt.reversi.search import SearchParams, search, solve

__all__ = ["TrainData", "generate", "write_data", "read_data", "fit", "FitReport",
           "write_weights", "read_weights", "features"]

DATA_FORMAT = "gameopt-train-1"
WEIGHTS_FORMAT = "gameopt-patterns-1"
_SMALL_TT = SearchParams(tt_bits=14)  # self-play searches are shallow: a small table


@dataclass(frozen=True, eq=False)
class TrainData:
    """Labelled positions (see the module notes)."""

    player: npt.NDArray[np.uint64]
    opponent: npt.NDArray[np.uint64]
    target: npt.NDArray[np.float32]
    game: npt.NDArray[np.int32]
    meta: dict[str, Any]

    def __len__(self) -> int:
        return int(self.player.shape[0])

    @property
    def empties(self) -> npt.NDArray[np.int64]:
        occ = self.player | self.opponent
        return 64 - np.array([int(x).bit_count() for x in occ], dtype=np.int64)


def _one_game(job: tuple[int, int, int, int, float, int]) -> list[tuple[int, int, int]]:
    """(player, opponent, label) of every position of one game (labels: side to move)."""
    seed, random_plies, depth, exact_empties, epsilon, params_bits = job
    rng = np.random.default_rng(seed)
    params = SearchParams(tt_bits=params_bits)
    board = Board.start()
    seq: list[Board] = []
    ply = 0
    while not board.is_game_over() and board.empties > exact_empties:
        seq.append(board)
        moves = board.legal_moves()
        if moves == [PASS]:
            board = board.play(PASS)
            continue
        if ply < random_plies or rng.random() < epsilon:
            move = moves[int(rng.integers(len(moves)))]
        else:
            r = search(board, depth=depth, params=params)
            assert r.move is not None
            move = r.move
        board = board.play(move)
        ply += 1
    # Perfect ending: solve, then follow the principal variation to the end
    if board.is_game_over():
        final, mover = board.score(), board.side
    else:
        r = solve(board, params=params)
        final, mover = int(r.score), board.side
        for m in r.pv:
            seq.append(board)
            board = board.play(m)
        while not board.is_game_over():  # the PV may stop short at a cut: finish exactly
            seq.append(board)
            nxt = solve(board, params=params)
            assert nxt.move is not None
            board = board.play(nxt.move)
    return [(b.player, b.opponent, final if b.side == mover else -final) for b in seq]


def generate(games: int, *, seed: int = 0, random_plies: int = 8, depth: int = 2,
             exact_empties: int = 14, epsilon: float = 0.05, scheduler: str | None = None,
             workers: int | None = None,
             progress: ProgressCallback | None = None) -> TrainData:
    """Self-play games labelled by exact endings (see the module notes).

    Raises
    ------
    InvalidInputError
        Bad counts or depths.
    """
    if games < 1 or depth < 1 or not 0 <= exact_empties <= 24 or not 0 <= epsilon <= 1:
        raise InvalidInputError(f"generate: games={games}, depth={depth}, exact_empties="
                                f"{exact_empties}, epsilon={epsilon}: out of range")
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    jobs = [(int(s), random_plies, depth, exact_empties, epsilon, 14) for s in seeds]
    rows = parallel_map(_one_game, jobs, scheduler=scheduler, workers=workers,
                        progress=progress)
    n = sum(len(r) for r in rows)
    P = np.empty(n, dtype=np.uint64)
    O = np.empty(n, dtype=np.uint64)  # noqa: E741
    y = np.empty(n, dtype=np.float32)
    g = np.empty(n, dtype=np.int32)
    i = 0
    for gi, r in enumerate(rows):
        for p, o, v in r:
            P[i], O[i], y[i], g[i] = p, o, v, gi
            i += 1
    meta = {"format": DATA_FORMAT, "games": games, "seed": seed, "random_plies": random_plies,
            "depth": depth, "exact_empties": exact_empties, "epsilon": epsilon}
    return TrainData(P, O, y, g, meta)


def write_data(path: str | Path, data: TrainData) -> None:
    buf = io.BytesIO()
    np.savez_compressed(buf, player=data.player, opponent=data.opponent, target=data.target,
                        game=data.game, meta=np.array(json.dumps(data.meta)))
    atomic_write_bytes(path, buf.getvalue())


def _load(path: str | Path, fmt: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    p = Path(path)
    if not p.is_file():
        raise InvalidInputError(f"{p}: no such file")
    try:
        with np.load(p, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if k != "meta"}
            meta = json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError) as e:
        raise InvalidInputError(f"{p}: not a {fmt} file ({e})") from None
    if meta.get("format") != fmt:
        raise InvalidInputError(f"{p}: format {meta.get('format')!r}, expected {fmt}")
    return arrays, meta


def read_data(path: str | Path) -> TrainData:
    """Load :func:`write_data`'s file (checked)."""
    a, meta = _load(path, DATA_FORMAT)
    try:
        data = TrainData(a["player"].astype(np.uint64), a["opponent"].astype(np.uint64),
                         a["target"].astype(np.float32), a["game"].astype(np.int32), meta)
    except KeyError as e:
        raise InvalidInputError(f"{path}: missing array {e}") from None
    n = len(data)
    if any(x.shape != (n,) for x in (data.opponent, data.target, data.game)):
        raise InvalidInputError(f"{path}: arrays of different lengths")
    return data


# -- features and fitting ----------------------------------------------------------------

@njit(cache=True)
def _features(P, O, squares, kind, canon, base):  # pragma: no cover - numba
    """Canonical feature of each instance (n, instances), mobility difference, stage."""
    n = P.shape[0]
    m = squares.shape[0]
    F = np.empty((n, m), dtype=np.int32)
    mob = np.empty(n, dtype=np.float32)
    stage = np.empty(n, dtype=np.int64)
    for t in range(n):
        p = P[t]
        o = O[t]
        for i in range(m):
            F[t, i] = canon[base[kind[i]] + config_index(p, o, squares, i)]
        mob[t] = _popc(_moves(p, o)) - _popc(_moves(o, p))
        empties = 64 - _popc(p | o)
        stage[t] = 60 - empties  # ply
    return F, mob, stage


def features(data: TrainData, ps: PatternSet = DEFAULT_SET
             ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """(features (N, instances), mobility difference (N,), ply (N,)) of every position."""
    return _features(data.player, data.opponent, ps.squares, ps.kind, ps.canon, ps.base)


@njit(cache=True)
def _sgd(F, mob, ply, y, idx, w, kind, epochs, lr, l2, seed):  # pragma: no cover - numba
    """Normalised least-mean-squares SGD (step ``lr / |x|²``, stable for 0 < lr < 2).

    Each sample trains its stage and, at the edge of it, the neighbouring one. The
    features of a sample are the bias, the mobility difference (scaled by 1/10 inside
    the step) and each instance's configuration; instances of one pattern may share a
    configuration, which then counts that many times in ``|x|²``.
    """
    np.random.seed(seed)  # noqa: NPY002 - numba's own generator, seeded per call
    m = F.shape[1]
    for ep in range(epochs):
        rate = lr / (1.0 + ep)
        order = idx.copy()
        np.random.shuffle(order)  # noqa: NPY002
        for t in order:
            # |x|² = 1 + (mob/10)² + Σ_config count²; equal configurations can only
            # come from instances of one pattern, which are contiguous in F
            norm2 = 1.0 + (mob[t] / 10.0) ** 2
            for i in range(m):
                c = 0
                for j in range(i, m):
                    if kind[j] != kind[i]:
                        break
                    if F[t, j] == F[t, i]:
                        c += 1
                # Σ count² = Σ over occurrences of (2·(later equal ones) + 1)
                norm2 += 2 * (c - 1) + 1
            p = ply[t]
            s0 = p // 4
            for s in (s0 - 1, s0, s0 + 1):
                if s < 0 or s >= w.shape[0]:
                    continue
                if s != s0 and not ((s == s0 - 1 and p % 4 == 0)
                                    or (s == s0 + 1 and p % 4 == 3)):
                    continue
                pred = w[s, 0] + w[s, 1] * mob[t]
                for i in range(m):
                    pred += w[s, 2 + F[t, i]]
                step = rate * (pred - y[t]) / norm2
                shrink = rate * l2 / norm2
                w[s, 0] -= step
                w[s, 1] -= step * mob[t] / 100.0
                for i in range(m):
                    j = 2 + F[t, i]
                    w[s, j] -= step + shrink * w[s, j]


@njit(cache=True)
def _predict(F, mob, ply, w):  # pragma: no cover - numba
    n = F.shape[0]
    out = np.empty(n, dtype=np.float64)
    for t in range(n):
        s = min(w.shape[0] - 1, ply[t] // 4)
        v = w[s, 0] + w[s, 1] * mob[t]
        for i in range(F.shape[1]):
            v += w[s, 2 + F[t, i]]
        out[t] = v
    return out


@dataclass(frozen=True)
class FitReport:
    """Per-stage mean absolute error (discs) on the training and validation positions."""

    stages: tuple[int, ...]
    train_mae: tuple[float, ...]
    val_mae: tuple[float, ...]
    n_train: int
    n_val: int


def fit(data: TrainData, *, epochs: int = 8, lr: float = 0.5, l2: float = 0.01,
        val_fraction: float = 0.1, seed: int = 0, ps: PatternSet = DEFAULT_SET
        ) -> tuple[npt.NDArray[np.float32], FitReport]:
    """Least-squares pattern weights (15 × stage_size, discs) and the per-stage errors.

    Validation holds out whole games (a ``val_fraction`` share, chosen by ``seed``).
    """
    if len(data) == 0 or epochs < 1 or not 0 < lr < 2 or l2 < 0 or not 0 <= val_fraction < 1:
        raise InvalidInputError(f"fit: {len(data)} positions, epochs={epochs}, lr={lr}, "
                                f"l2={l2}, val_fraction={val_fraction}")
    F, mob, ply = features(data, ps)
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    val_games = set(rng.choice(games, int(round(val_fraction * len(games))),
                               replace=False).tolist())
    is_val = np.array([g in val_games for g in data.game.tolist()], dtype=bool)
    tr = np.flatnonzero(~is_val).astype(np.int64)
    w = np.zeros((N_STAGES, ps.stage_size), dtype=np.float64)
    y = data.target.astype(np.float64)
    _sgd(F, mob, ply, y, tr, w, ps.kind, epochs, lr, l2, seed)
    pred = _predict(F, mob, ply, w)
    err = np.abs(pred - y)
    st = np.minimum(ply // 4, N_STAGES - 1)
    stages, tr_mae, va_mae = [], [], []
    for s in range(N_STAGES):
        a = (st == s) & ~is_val
        b = (st == s) & is_val
        stages.append(s)
        tr_mae.append(float(err[a].mean()) if a.any() else float("nan"))
        va_mae.append(float(err[b].mean()) if b.any() else float("nan"))
    return (w.astype(np.float32),
            FitReport(tuple(stages), tuple(tr_mae), tuple(va_mae), len(tr), int(is_val.sum())))


def write_weights(path: str | Path, weights: npt.NDArray[np.float32],
                  info: dict[str, Any] | None = None) -> None:
    """Save fitted weights with the pattern set they belong to (atomic)."""
    meta = {"format": WEIGHTS_FORMAT, "stages": N_STAGES,
            "patterns": {k: list(v) for k, v in PATTERNS.items()}, **(info or {})}
    buf = io.BytesIO()
    np.savez_compressed(buf, weights=np.asarray(weights, dtype=np.float32),
                        meta=np.array(json.dumps(meta)))
    atomic_write_bytes(path, buf.getvalue())


def read_weights(path: str | Path) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
    """Load weights; checks the format, the pattern set and the shape."""
    a, meta = _load(path, WEIGHTS_FORMAT)
    pats = {k: tuple(v) for k, v in meta.get("patterns", {}).items()}
    if pats != PATTERNS:
        raise InvalidInputError(f"{path}: weights for another pattern set")
    w = a.get("weights")
    if w is None or w.shape != (N_STAGES, DEFAULT_SET.stage_size):
        raise InvalidInputError(f"{path}: weights of shape "
                                f"{None if w is None else w.shape}, expected "
                                f"{(N_STAGES, DEFAULT_SET.stage_size)}")
    return w.astype(np.float32), meta
