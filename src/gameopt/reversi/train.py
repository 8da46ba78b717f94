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
(int32, N), and a JSON ``meta`` string (format ``gameopt-train-1``, the generation
parameters and, for relabelled data, ``labels: "backed-up"`` and the backup depth, or
``labels: "line"`` and its settings).

Backed-up labels (:func:`backup_labels`). Game results of weak self-play are noisy labels
for the early positions (a 20-disc error is common). So, as the issue asks, positions are
labelled exactly where the solver can (the perfect endings) and by backed-up values
earlier: from the last stage back to the first, each stage's positions get the value of
a 4-ply search whose leaves lie in the next stage, evaluated by the weights already
fitted there; then that stage is fitted. Values stay in discs all the way back. With
``mix``, each label above the exact endings ends as that share of its game result plus the
rest of its backed-up value.

Line labels (:func:`line_labels`): the same stage-by-stage scheme without search, each
position labelled by the fitted values of the positions 4..7 plies later in its own game
(n-step temporal-difference targets); static evaluations only, so it labels a few hundred
thousand positions in about a CPU minute.

Fitting (:func:`fit`). Per stage, damped sparse least squares (LSQR) from all-zero
weights; the damping pulls toward 0, so configurations never seen stay at 0. Besides the
pattern tables, each stage weighs the heuristic's terms (:data:`patterns.TERMS`). A
position with ``ply = 60 - empties`` trains stage ``ply // 4`` and, at the edge of it, the
neighbouring stage (6 plies per stage in all, so values change smoothly). Games are split
into training and validation sets; per-stage errors of both are returned.

Weights (:func:`write_weights` / :func:`read_weights`): ``.npz`` with ``weights``
(float32, 15 × stage_size, discs), and ``meta`` (format ``gameopt-patterns-2``, the
terms, the pattern set's names and squares, training facts). Reading checks both.

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", 1997 (patterns, stages, least squares on game results); C. C. Paige and
M. A. Saunders, "LSQR", ACM TOMS 8 (1982).
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from gameopt.core import Limit
from gameopt.core.files import atomic_write_bytes
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.errors import InvalidInputError
from gameopt.reversi._bitboard import flips as _flips
from gameopt.reversi._bitboard import get_moves as _get_moves
from gameopt.reversi._bitboard import popcount as _popc
from gameopt.reversi._eval import config_index, terms
from gameopt.reversi.board import PASS, Board
from gameopt.reversi.patterns import (
    DEFAULT_SET,
    N_SCALARS,
    N_STAGES,
    PatternSet,
)
from gameopt.reversi.search import EvalKind, SearchParams, search, solve
from gameopt.reversi.weights import kernel_weights, load_npz, read_weights, write_weights

__all__ = ["TrainData", "generate", "write_data", "read_data", "backup_labels", "fit",
           "FitReport", "write_weights", "read_weights", "features", "line_labels", "blend",
           "branch", "split_games", "check_labelled", "selfplay_params"]

DATA_FORMAT = "gameopt-train-1"
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

    @classmethod
    def concat(cls, parts: Sequence[TrainData]) -> TrainData:
        """The positions of ``parts`` in order, game ids kept distinct across parts, and
        ``meta = {"sources": [each part's meta]}``."""
        offset = 0
        games = []
        for d in parts:
            games.append(d.game + offset)
            offset += int(d.game.max(initial=-1)) + 1
        return cls(np.concatenate([d.player for d in parts]),
                   np.concatenate([d.opponent for d in parts]),
                   np.concatenate([d.target for d in parts]), np.concatenate(games),
                   {"sources": [d.meta for d in parts]})

    @property
    def empties(self) -> npt.NDArray[np.int64]:
        occ = self.player | self.opponent
        return 64 - np.array([int(x).bit_count() for x in occ], dtype=np.int64)


@functools.lru_cache(maxsize=2)
def selfplay_params(eval_source: str, tt_bits: int) -> SearchParams:
    """Search parameters of self-play: the default evaluation (``""``), the hand-set
    heuristic (``"heuristic"``) or the pattern weights of a file (cached per process)."""
    if eval_source == "":
        return SearchParams(tt_bits=tt_bits)
    if eval_source == "heuristic":
        return SearchParams(tt_bits=tt_bits, eval_kind=EvalKind.HEURISTIC)
    return SearchParams(tt_bits=tt_bits, eval_kind=EvalKind.PATTERN,
                        weights=kernel_weights(eval_source))


def _one_game(job: tuple[int, int, int, int, float, int, str]
              ) -> list[tuple[int, int, int]]:
    """(player, opponent, label) of every position of one game (labels: side to move)."""
    seed, random_plies, depth, exact_empties, epsilon, params_bits, eval_source = job
    rng = np.random.default_rng(seed)
    params = selfplay_params(eval_source, params_bits)
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
            r = search(board, Limit(depth=depth), params=params)
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


def generate(games: int, *, seed: int = 0, random_plies: int | tuple[int, int] = 8,
             depth: int = 2,
             exact_empties: int = 14, epsilon: float = 0.05, eval_source: str = "",
             scheduler: str | None = None, workers: int | None = None,
             progress: ProgressCallback | None = None) -> TrainData:
    """Self-play games labelled by exact endings (see the module notes).

    The games are played with the engine's default evaluation (``eval_source`` ``""``),
    the hand-set heuristic (``"heuristic"``) or the pattern weights of the file
    ``eval_source``: naming the evaluation makes a data set reproducible after the
    default weights change.

    ``random_plies`` is the number of random moves opening each game, or a range
    ``(lo, hi)``: each game draws its own number uniformly from it (Buro's training games
    opened with random moves, so that the positions cover more of the game tree).

    Raises
    ------
    InvalidInputError
        Bad counts, depths or random plies.
    """
    lo, hi = (random_plies, random_plies) if isinstance(random_plies, int) else random_plies
    if (games < 1 or depth < 1 or not 0 <= exact_empties <= 24 or not 0 <= epsilon <= 1
            or not 0 <= lo <= hi <= 60):
        raise InvalidInputError(f"generate: games={games}, depth={depth}, exact_empties="
                                f"{exact_empties}, epsilon={epsilon}, random_plies="
                                f"{random_plies}: out of range")
    if eval_source not in ("", "heuristic"):
        kernel_weights(eval_source)  # a bad file fails here, in the caller, once
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    counts = (np.full(games, lo) if lo == hi else
              np.random.default_rng(seed).integers(lo, hi + 1, size=games))
    jobs = [(int(s), int(r), depth, exact_empties, epsilon, 14, eval_source)
            for s, r in zip(seeds, counts, strict=True)]
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
    meta = {"format": DATA_FORMAT, "games": games, "seed": seed,
            "random_plies": lo if lo == hi else [lo, hi],
            "depth": depth, "exact_empties": exact_empties, "epsilon": epsilon,
            "eval": eval_source or "default"}
    return TrainData(P, O, y, g, meta)


def write_data(path: str | Path, data: TrainData) -> None:
    buf = io.BytesIO()
    np.savez_compressed(buf, player=data.player, opponent=data.opponent, target=data.target,
                        game=data.game, meta=np.array(json.dumps(data.meta)))
    atomic_write_bytes(path, buf.getvalue())


def read_data(path: str | Path) -> TrainData:
    """Load :func:`write_data`'s file (checked)."""
    a, meta = load_npz(path, DATA_FORMAT, "training data file")
    names = ("player", "opponent", "target", "game")
    for name in names:
        if name not in a:
            raise InvalidInputError(f"{path}: missing array '{name}'")
        kinds = "iuf" if name == "target" else "iu"
        if a[name].ndim != 1 or a[name].dtype.kind not in kinds:
            raise InvalidInputError(f"{path}: {name}: {str(a[name].dtype)[:40]} of shape "
                                    f"{str(a[name].shape)[:40]}, expected a list of "
                                    f"{'numbers' if name == 'target' else 'integers'}")
    n = a["player"].shape[0]
    if any(a[name].shape != (n,) for name in names):
        raise InvalidInputError(f"{path}: arrays of different lengths")
    with np.errstate(over="ignore", invalid="ignore"):  # beyond float32: inf, refused
        target = a["target"].astype(np.float32)
    if not np.isfinite(target).all():
        raise InvalidInputError(f"{path}: target: values that are not finite numbers")
    return TrainData(a["player"].astype(np.uint64), a["opponent"].astype(np.uint64),
                     target, a["game"].astype(np.int32), meta)


# -- positions off the game lines ---------------------------------------------------------

@njit(cache=True)
def _branch(P, O, u):  # pragma: no cover - numba
    """The position after the legal move of index floor(u * count) in square order, for
    each (P, O): (player, opponent, ok); ok is False where P has no legal move."""
    n = P.shape[0]
    P2 = np.zeros(n, dtype=np.uint64)
    O2 = np.zeros(n, dtype=np.uint64)
    ok = np.zeros(n, dtype=np.bool_)
    for t in range(n):
        p = P[t]
        o = O[t]
        mv = _get_moves(p, o)
        c = _popc(mv)
        if c == 0:
            continue
        k = min(int(u[t] * c), c - 1)
        for _ in range(k):
            mv &= mv - np.uint64(1)
        bit = mv & (~mv + np.uint64(1))
        s = _popc(bit - np.uint64(1))
        f = _flips(p, o, s)
        P2[t] = o ^ f
        O2[t] = p | f | bit
        ok[t] = True
    return P2, O2, ok


def branch(data: TrainData, *, seed: int = 0, share: float = 1.0) -> TrainData:
    """Positions off the game lines, for :func:`backup_labels` to label.

    Self-play positions lie on lines the engine chose; the leaves of a search mostly
    follow moves it would not play. So, for a ``share`` of the positions (drawn with
    ``seed``) with more than ``data.meta["exact_empties"] + 1`` empties whose side to move
    has a legal move, this gives the position after one uniformly random legal move: the
    opponent to move, one empty fewer, so every new position lies before the exact
    endings and :func:`backup_labels` relabels all of them. Targets are 0 until then
    (``meta["labels"] = "none"``; :func:`fit` refuses such data). Each new position keeps
    the game id of its parent, so a validation split holds out whole games with their
    branches.

    Raises
    ------
    InvalidInputError
        Data without its exact-ending depth, or a share outside (0, 1].
    """
    exact = data.meta.get("exact_empties")
    if not isinstance(exact, int) or not 0 < share <= 1:
        raise InvalidInputError(f"branch: share={share}, exact_empties={exact!r} "
                                "(data from generate() records it; share in (0, 1])")
    rng = np.random.default_rng(seed)
    pick = np.flatnonzero((data.empties > exact + 1) & (rng.random(len(data)) < share))
    P2, O2, ok = _branch(data.player[pick], data.opponent[pick], rng.random(len(pick)))
    meta = {**data.meta, "format": DATA_FORMAT, "labels": "none",
            "branch": {"seed": seed, "share": share}}
    return TrainData(P2[ok], O2[ok], np.zeros(int(ok.sum()), np.float32),
                     data.game[pick][ok], meta)


# -- features and fitting ----------------------------------------------------------------

@njit(cache=True)
def _features(P, O, squares, kind, canon, base):  # pragma: no cover - numba
    """Canonical feature of each instance (n, instances), the TERMS (n, 7), the ply."""
    n = P.shape[0]
    m = squares.shape[0]
    F = np.empty((n, m), dtype=np.int32)
    T = np.empty((n, 7), dtype=np.float32)
    ply = np.empty(n, dtype=np.int64)
    for t in range(n):
        p = P[t]
        o = O[t]
        for i in range(m):
            F[t, i] = canon[base[kind[i]] + config_index(p, o, squares, i)]
        T[t, :] = terms(p, o)
        ply[t] = _popc(p | o) - 4  # 60 - empties
    return F, T, ply


def features(data: TrainData, ps: PatternSet = DEFAULT_SET
             ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """(features (N, instances), terms (N, 7), ply (N,)) of every position."""
    return _features(data.player, data.opponent, ps.squares, ps.kind, ps.canon, ps.base)


#: the terms' columns are scaled up by this much in the least-squares system, so the
#: damping (meant for the sparse pattern weights) barely touches them
_TERM_SCALE = 10.0


def _design(F: np.ndarray, T: np.ndarray, rows: np.ndarray, n_cols: int) -> Any:
    """Sparse rows [1, terms·scale, one-hot features] of the positions ``rows``."""
    import scipy.sparse as sp

    m = len(rows)
    k = F.shape[1]
    cols = np.concatenate([np.zeros((m, 1), np.int64),
                           np.broadcast_to(np.arange(1, N_SCALARS, dtype=np.int64),
                                           (m, N_SCALARS - 1)),
                           N_SCALARS + F[rows].astype(np.int64)], axis=1)
    vals = np.concatenate([np.ones((m, 1)), T[rows].astype(np.float64) * _TERM_SCALE,
                           np.ones((m, k))], axis=1)
    indptr = np.arange(0, m * cols.shape[1] + 1, cols.shape[1])
    return sp.csr_matrix((vals.ravel(), cols.ravel(), indptr), shape=(m, n_cols))


def _fit_stage(F: np.ndarray, T: np.ndarray, y: np.ndarray, rows: np.ndarray, n_cols: int,
               damp: float, iters: int, prior: np.ndarray | None = None
               ) -> npt.NDArray[np.float64]:
    """Damped least squares (LSQR) of one stage; unscaled weights (discs).

    With ``prior`` (unscaled weights, e.g. the neighbouring stage's), the damping pulls
    toward it instead of toward 0: min |A w - y|^2 + damp^2 |w - prior|^2, solved as
    w = prior + d with d the damped solution for the residual y - A prior.
    """
    from scipy.sparse.linalg import lsqr

    w = np.zeros(n_cols) if prior is None else prior.astype(np.float64).copy()
    if len(rows) == 0:
        return w
    A = _design(F, T, rows, n_cols)
    start = w.copy()
    start[1:N_SCALARS] /= _TERM_SCALE  # the design's scaled term columns
    d = lsqr(A, y[rows] - A @ start, damp=damp, iter_lim=iters)[0]
    w = start + d
    w[1:N_SCALARS] *= _TERM_SCALE
    return w


def _predict(F: np.ndarray, T: np.ndarray, ply: np.ndarray, w: np.ndarray
             ) -> npt.NDArray[np.float64]:
    st = np.minimum(ply // 4, N_STAGES - 1)
    out = w[st, 0] + np.einsum("nk,nk->n", T.astype(np.float64), w[st, 1:N_SCALARS])
    out += w[st[:, None], N_SCALARS + F.astype(np.int64)].sum(axis=1)
    return out


def _stage_rows(ply: np.ndarray, s: int, neighbours: bool) -> np.ndarray:
    """Positions that train stage s: its 4 plies, and with ``neighbours`` one ply of each
    neighbouring stage (6 plies: values change smoothly across stages)."""
    lo, hi = 4 * s, 4 * s + 3
    if s == N_STAGES - 1:
        hi = 60
    if neighbours:
        lo, hi = lo - 1, hi + 1
    return np.flatnonzero((ply >= lo) & (ply <= hi))


@dataclass(frozen=True)
class FitReport:
    """Per-stage mean absolute error (discs) on the training and validation positions;
    with start weights, theirs on the same validation positions (``start_val_mae``: did
    the fit generalise better than where it started?)."""

    stages: tuple[int, ...]
    train_mae: tuple[float, ...]
    val_mae: tuple[float, ...]
    n_train: int
    n_val: int
    start_val_mae: tuple[float, ...] | None = None


def split_games(data: TrainData, val_fraction: float, seed: int) -> npt.NDArray[np.bool_]:
    """Validation mask holding out whole games (a ``val_fraction`` share, drawn by
    ``seed``)."""
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    val = rng.choice(games, int(round(val_fraction * len(games))), replace=False)
    return np.isin(data.game, val)


def _label_kinds(meta: dict[str, Any]) -> set[str]:
    """What the targets of data of this meta are, over its parts: ``"results"`` (game
    results, as :func:`generate` wrote them), ``"none"`` (:func:`branch` positions not
    labelled since) or a relabelling's ``labels`` (which covers the sources it relabelled)."""
    if "labels" in meta:
        return {str(meta["labels"])}
    sources = meta.get("sources", [])
    return set().union(*map(_label_kinds, sources)) if sources else {"results"}


def check_labelled(what: str, data: TrainData) -> None:
    """Refuse unlabelled positions (:func:`branch`'s, not labelled since) for ``what``."""
    if "none" in _label_kinds(data.meta):
        raise InvalidInputError(f"{what}: unlabelled positions (from branch); label them "
                                "first (train label)")


def _check_mix(what: str, data: TrainData, mix: float) -> None:
    """A ``mix`` of game results needs them: refuse relabelled or branch positions."""
    if mix > 0 and _label_kinds(data.meta) != {"results"}:
        raise InvalidInputError(f"{what}: mix={mix} mixes in game results, but the data "
                                "holds relabelled or branch positions (their targets are "
                                "not game results): label data from generate() only")


def fit(data: TrainData, *, damp: float = 1.0, iters: int = 300, val_fraction: float = 0.1,
        seed: int = 0, smooth: bool = False, ps: PatternSet = DEFAULT_SET,
        start: npt.ArrayLike | None = None, progress: ProgressCallback | None = None
        ) -> tuple[npt.NDArray[np.float32], FitReport]:
    """Least-squares weights (15 × stage_size, discs) and the per-stage errors.

    Each stage is fitted by damped sparse least squares (LSQR) on its plies and one ply
    of each neighbour. Without ``smooth`` every stage is fitted alone and the damping pulls
    weights toward 0, so configurations never seen stay at 0. With ``smooth`` the stages
    are fitted from the last back to the first and the damping of stage s pulls toward
    the weights of stage s + 1 (a ridge toward the neighbour: a configuration not seen in
    stage s keeps its value of the next stage, and weights change smoothly from stage to
    stage). Validation holds out whole games. ``progress`` gets
    ``Progress("fit", stages done, stages)`` after each stage.

    Notes
    -----
    One LSQR iteration costs two passes over the stage's nonzeros (positions × (46 + 8)).

    References
    ----------
    C. C. Paige and M. A. Saunders, "LSQR: An algorithm for sparse linear equations and
    sparse least squares", ACM TOMS 8 (1982) (through :func:`scipy.sparse.linalg.lsqr`).
    """
    if len(data) == 0 or damp < 0 or iters < 1 or not 0 <= val_fraction < 1:
        raise InvalidInputError(f"fit: {len(data)} positions, damp={damp}, iters={iters}, "
                                f"val_fraction={val_fraction}")
    w0 = None
    if start is not None:
        w0 = np.asarray(start, dtype=np.float64)
        if w0.shape != (N_STAGES, ps.stage_size):
            raise InvalidInputError(f"fit: start weights of shape {w0.shape}, expected "
                                    f"{(N_STAGES, ps.stage_size)}")
        if smooth:
            raise InvalidInputError("fit: start weights and smooth exclude each other "
                                    "(each says what the damping pulls toward)")
    check_labelled("fit", data)
    F, T, ply = features(data, ps)
    is_val = split_games(data, val_fraction, seed)
    y = data.target.astype(np.float64)
    w = np.zeros((N_STAGES, ps.stage_size))
    order = range(N_STAGES - 1, -1, -1) if smooth else range(N_STAGES)
    for i, s in enumerate(order):
        rows = _stage_rows(ply, s, neighbours=True)
        prior = (w0[s] if w0 is not None
                 else w[s + 1] if smooth and s + 1 < N_STAGES else None)
        w[s] = _fit_stage(F, T, y, rows[~is_val[rows]], ps.stage_size, damp, iters, prior)
        if progress is not None:
            progress(Progress("fit", i + 1, N_STAGES))
    st = np.minimum(ply // 4, N_STAGES - 1)

    def stage_mae(err: np.ndarray, mask: np.ndarray) -> tuple[float, ...]:
        return tuple(float(err[(st == s) & mask].mean()) if ((st == s) & mask).any()
                     else float("nan") for s in range(N_STAGES))

    err = np.abs(_predict(F, T, ply, w) - y)
    start_err = None if w0 is None else np.abs(_predict(F, T, ply, w0) - y)
    return (w.astype(np.float32),
            FitReport(tuple(range(N_STAGES)), stage_mae(err, ~is_val), stage_mae(err, is_val),
                      int((~is_val).sum()), int(is_val.sum()),
                      None if start_err is None else stage_mae(start_err, is_val)))


def _label_chunk(job: tuple[np.ndarray, np.ndarray, np.ndarray, int]) -> list[int]:
    """Search values (discs, side to move) of positions by the pattern evaluation."""
    P, O, kernel_w, depth = job
    params = SearchParams(eval_kind=EvalKind.PATTERN, weights=kernel_w, tt_bits=12)
    out = []
    for p, o in zip(P.tolist(), O.tolist(), strict=True):
        b = Board(p, o)
        if b.is_game_over():
            out.append(b.score())
        else:
            out.append(round(search(b, Limit(depth=depth), params=params).score))
    return out


def backup_labels(data: TrainData, *, depth: int = 4, mix: float = 0.0, damp: float = 1.0,
                  iters: int = 300, chunk: int = 2000, scheduler: str | None = None,
                  workers: int | None = None,
                  progress: ProgressCallback | None = None) -> TrainData:
    """Backed-up labels, stage by stage from the end of the game (see the module notes).

    Positions with at most ``data.meta["exact_empties"]`` empties keep their exact label.
    Going back from the last stage, every other position of stage s gets the value of a
    ``depth``-ply search whose evaluation is the one fitted so far (its leaves, ``depth``
    = 4 plies on, lie in stage s + 1, already fitted; a search that reaches the end is
    exact); then stage s is fitted on its plies (and the first ply of s + 1) before going
    on. The searches of a stage run as jobs of :func:`gameopt.core.parallel.parallel_map`.

    With ``mix`` > 0 each label above the exact endings is, at the end, ``mix`` times the
    position's game result (its target in ``data``: the exact value of the game's perfect
    ending, for its side to move) plus ``1 - mix`` times its backed-up value, as
    :func:`line_labels` mixes results into its labels. The searches and the stage fits
    while labelling use the backed-up values alone, so the backed-up part is the same for
    every ``mix``.

    Raises
    ------
    InvalidInputError
        Data without its exact-ending depth, a bad depth, ``mix`` outside [0, 1], or
        ``mix`` > 0 on data whose targets are not all game results (relabelled or branch
        positions).
    """
    exact = data.meta.get("exact_empties")
    if not isinstance(exact, int) or not 1 <= depth <= 12 or not 0 <= mix <= 1:
        raise InvalidInputError(f"backup_labels: depth={depth}, mix={mix}, exact_empties="
                                f"{exact!r} (data from generate() records it; mix in [0, 1])")
    _check_mix("backup_labels", data, mix)
    ps = DEFAULT_SET
    F, T, ply = features(data, ps)
    empties = 60 - ply
    y = data.target.astype(np.float64).copy()
    w = np.zeros((N_STAGES, ps.stage_size))
    for s in range(N_STAGES - 1, -1, -1):
        rows = _stage_rows(ply, s, neighbours=False)
        todo = rows[empties[rows] > exact]
        if len(todo):
            kernel_w = ps.expand(w)
            jobs = [(data.player[todo[i:i + chunk]], data.opponent[todo[i:i + chunk]],
                     kernel_w, depth) for i in range(0, len(todo), chunk)]
            vals = parallel_map(_label_chunk, jobs, scheduler=scheduler, workers=workers,
                                progress=progress)
            y[todo] = np.concatenate([np.asarray(v, dtype=np.float64) for v in vals])
        fit_rows = np.flatnonzero((ply >= 4 * s) & (ply <= 4 * s + 4))
        if s == N_STAGES - 1:
            fit_rows = rows
        w[s] = _fit_stage(F, T, y, fit_rows, ps.stage_size, damp, iters)
    if mix > 0:
        above = empties > exact
        y[above] = mix * data.target[above].astype(np.float64) + (1 - mix) * y[above]
    meta = {**data.meta, "format": DATA_FORMAT, "labels": "backed-up", "backup_depth": depth,
            **({"backup_mix": mix} if mix > 0 else {})}
    return TrainData(data.player, data.opponent, y.astype(np.float32), data.game, meta)


def line_labels(data: TrainData, *, ahead: int = 4, span: int = 4, mix: float = 0.0,
                damp: float = 1.0, iters: int = 300,
                progress: ProgressCallback | None = None) -> TrainData:
    """Labels bootstrapped along each game's own line, stage by stage from the end back.

    A cheap relative of :func:`backup_labels` (no search: static evaluations only, so it
    labels millions of positions in minutes). Positions with at most
    ``data.meta["exact_empties"]`` empties keep their exact label. Going back from the last
    stage, every other position t of stage s gets ``mix`` times its game result plus
    ``1 - mix`` times the mean, over k = ``ahead`` .. ``ahead + span - 1``, of the value of
    the position k plies later in the same game (its exact label, or the evaluation
    fitted for its stage, already done; negated for odd k: the other side to move); then
    stage s is fitted on its plies and the first of s + 1. A position with no later
    position in a fitted stage keeps its game result. This is the n-step temporal
    difference target averaged over n (Sutton's TD(lambda) in its forward view), with the
    self-play line in place of a search: its moves came from ``data.meta["depth"]``-ply
    searches, so the values lie on a near-principal line.

    Raises
    ------
    InvalidInputError
        Data without its exact-ending depth, branch positions (any ``mix``), relabelled
        data with ``mix > 0``, or arguments out of range.

    References
    ----------
    R. S. Sutton, "Learning to predict by the methods of temporal differences", Machine
    Learning 3 (1988); M. Buro, "Experiments with Multi-ProbCut and a New High-Quality
    Evaluation Function for Othello", 1997 (stages fitted from the end of the game back).
    """
    exact = data.meta.get("exact_empties")
    if (not isinstance(exact, int) or ahead < 1 or span < 1 or not 0 <= mix <= 1
            or iters < 1 or damp < 0):
        raise InvalidInputError(f"line_labels: ahead={ahead}, span={span}, mix={mix}, "
                                f"exact_empties={exact!r} (data from generate() records it)")
    _check_mix("line_labels", data, mix)
    if "none" in _label_kinds(data.meta):
        raise InvalidInputError("line_labels: the data holds branch positions (off the game "
                                "lines, targets 0 even at the exact endings): label data "
                                "from generate() only")
    ps = DEFAULT_SET
    F, T, ply = features(data, ps)
    n = len(data)
    empties = 60 - ply
    stage = np.minimum(ply // 4, N_STAGES - 1)
    is_exact = empties <= exact
    result = data.target.astype(np.float64)
    y = result.copy()
    w = np.zeros((N_STAGES, ps.stage_size))
    ks = np.arange(ahead, ahead + span)
    signs = np.where(ks % 2 == 0, 1.0, -1.0)
    for i, s in enumerate(range(N_STAGES - 1, -1, -1)):
        rows = np.flatnonzero((stage == s) & ~is_exact)
        if len(rows):
            idx = rows[:, None] + ks[None, :]
            ok = idx < n
            idx = np.where(ok, idx, rows[:, None])
            ok &= (data.game[idx] == data.game[rows][:, None]) & (stage[idx] > s)
            flat = np.unique(idx[ok])
            val = np.zeros(n)
            val[flat] = np.where(is_exact[flat], result[flat],
                                 _predict(F[flat], T[flat], ply[flat], w))
            cnt = ok.sum(axis=1)
            boot = (np.where(ok, val[idx], 0.0) * signs[None, :]).sum(axis=1)
            has = cnt > 0
            y[rows[has]] = (mix * result[rows[has]]
                            + (1 - mix) * boot[has] / cnt[has])
        fit_rows = np.flatnonzero((ply >= 4 * s) & (ply <= 4 * s + 4))
        if s == N_STAGES - 1:
            fit_rows = np.flatnonzero(stage == s)
        w[s] = _fit_stage(F, T, y, fit_rows, ps.stage_size, damp, iters)
        if progress is not None:
            progress(Progress("label", i + 1, N_STAGES))
    meta = {**data.meta, "format": DATA_FORMAT, "labels": "line", "line_ahead": ahead,
            "line_span": span, "line_mix": mix}
    return TrainData(data.player, data.opponent, y.astype(np.float32), data.game, meta)


def blend(first: npt.NDArray[np.float32], second: npt.NDArray[np.float32], share: float
          ) -> npt.NDArray[np.float32]:
    """``share`` times ``first`` plus ``1 - share`` times ``second``: weights of one pattern
    set, so the blend's evaluation is the same mix of the two evaluations (an ensemble of
    two fits, each stage's value averaged).

    Raises
    ------
    InvalidInputError
        Shapes that differ, or a share outside [0, 1].
    """
    if first.shape != second.shape or not 0 <= share <= 1:
        raise InvalidInputError(f"blend: weights of shapes {first.shape} and "
                                f"{second.shape}, share {share} (expected one shape, 0..1)")
    return (share * first.astype(np.float64)
            + (1 - share) * second.astype(np.float64)).astype(np.float32)
