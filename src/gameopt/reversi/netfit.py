"""Fitting the residual network (:mod:`gameopt.reversi.network`) to labelled positions.

The network learns what a fixed pattern evaluation (the *base*) misses: its target for a
position is the label minus the base's value there (the kernel's integer evaluation, so
the sum the engine plays is the sum that was fitted). Stochastic gradient descent on the
squared error, each step's error clipped (the labels are noisy: game results mixed in),
the embeddings decayed (L2) as they are read, the step size ``lr / (1 + epoch)``. Whole
games are held out to measure it (:class:`NetReport`).

Measured (README, "The network in the evaluation"): on 2.6 and 3.6 million positions of
the shipped weights' self-play, labelled half by 4-ply backed-up values and half by the
results, the held-out error falls 0.09 and 0.12 discs below the shipped weights'. The
3.6 M network scores 50.9 % against Zebra at depth 8 and 50.5 % at depth 6 (1,200 games
each; the shipped weights 49.1 and 49.9 %) but, at 1.7 times the cost a node, 29.2 %
against their 36.2 % at 0.1 s a move: not shipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.core.progress import Progress, ProgressCallback
from gameopt.errors import InvalidInputError
from gameopt.reversi import _netfit
from gameopt.reversi._eval import NET_K, PATTERN
from gameopt.reversi.network import MAX_HIDDEN, Network
from gameopt.reversi.patterns import DEFAULT_SET, N_STAGES
from gameopt.reversi.train import TrainData, check_labelled, features, split_games

__all__ = ["NetReport", "fit_network", "reference_sgd_epoch"]


@dataclass(frozen=True)
class NetReport:
    """Mean absolute errors (discs) of a network fit.

    ``train_mae[e]`` was met on the way through epoch e (before each step); ``val_mae[e]``
    is the base plus the network after epoch e on the held-out games, ``base_val_mae`` the
    base alone on them; per stage (``stage_val_mae``: (base, with the network) after the
    last epoch, NaN for a stage without held-out positions). No held-out games: NaN.
    """

    train_mae: tuple[float, ...]
    val_mae: tuple[float, ...]
    base_val_mae: float
    stage_val_mae: tuple[tuple[float, float], ...]
    n_train: int
    n_val: int


def fit_network(data: TrainData, base: npt.NDArray[np.int32], *, hidden: int = 32,
                epochs: int = 3, lr: float = 3e-4, l2: float = 1e-3, clip: float = 20.0,
                holdout: float = 0.1, seed: int = 0,
                progress: ProgressCallback | None = None) -> tuple[Network, NetReport]:
    """A residual network fitted on ``data`` over the base evaluation ``base`` (a pattern
    kernel table without a network, :meth:`PatternSet.expand`).

    Parameters
    ----------
    hidden : int
        H, the hidden units (1..MAX_HIDDEN).
    epochs, lr, l2, clip
        Passes over the training positions (each in a fresh random order), the first
        step size, the embeddings' decay, the clip of each step's error (discs).
    holdout : float
        Share of the games held out for :class:`NetReport` (0: train on all).
    seed : int
        The initial parameters, the orders and the split: same seed, same network.
    progress : callable, optional
        Gets ``Progress("network", epochs done, epochs)`` after each epoch.

    Notes
    -----
    An epoch costs N · (instances · K · 2 + H · K · 3) multiply-adds: 3.6 million
    positions, H = 32, three epochs and the held-out checks took 47 CPU s in all (reading
    the files, the features and the base values included).

    References
    ----------
    Y. Nasu, "Efficiently updatable neural-network-based evaluation functions for computer
    shogi" (NNUE), 2018; M. Buro, "From simple features to sophisticated evaluation
    functions", Computers and Games 1998.
    """
    if (len(data) == 0 or not 1 <= hidden <= MAX_HIDDEN or epochs < 1 or not lr > 0
            or not l2 >= 0 or not clip > 0 or not 0 <= holdout < 1):
        raise InvalidInputError(
            f"fit_network: {len(data)} positions, hidden={hidden} (1..{MAX_HIDDEN}), "
            f"epochs={epochs}, lr={lr}, l2={l2}, clip={clip}, holdout={holdout}")
    expected = N_STAGES * DEFAULT_SET.kernel_stage_size
    if base.shape != (expected,):
        raise InvalidInputError(f"fit_network: base table of shape {base.shape}, expected "
                                f"({expected},): a pattern table without a network")
    check_labelled("fit_network", data)
    F, _, ply = features(data)
    stage = np.minimum(ply // 4, N_STAGES - 1).astype(np.int64)
    r = data.target.astype(np.float64) - _netfit.base_values(data.player, data.opponent,
                                                             PATTERN, base)
    val = split_games(data, holdout, seed)
    tr = np.flatnonzero(~val)
    te = np.flatnonzero(val)
    rng = np.random.default_rng(seed)
    E = rng.normal(0.0, 0.05, (DEFAULT_SET.n_features, NET_K))
    S = rng.normal(0.0, 0.05, (N_STAGES, NET_K))
    W = rng.normal(0.0, 1.0 / np.sqrt(NET_K), (hidden, NET_K))
    b = np.full(hidden, 0.1)
    v = rng.normal(0.0, 0.1, hidden)
    c = np.zeros(N_STAGES)
    out = np.zeros(len(data))
    train_mae: list[float] = []
    val_mae: list[float] = []
    for ep in range(epochs):
        order = rng.permutation(tr)
        train_mae.append(_netfit.sgd_epoch(F, stage, r, E, S, W, b, v, c, order,
                                           lr / (1 + ep), l2, clip))
        _netfit.forward(F, stage, E, S, W, b, v, c, te, out)
        val_mae.append(float(np.abs(out[te] - r[te]).mean()) if len(te) else float("nan"))
        if progress is not None:
            progress(Progress("network", ep + 1, epochs))
    per_stage = []
    for s in range(N_STAGES):
        rows = te[stage[te] == s]
        per_stage.append((float(np.abs(r[rows]).mean()), float(np.abs(out[rows] - r[rows])
                                                               .mean()))
                         if len(rows) else (float("nan"), float("nan")))
    net = Network(E.astype(np.float32), S.astype(np.float32), W.astype(np.float32),
                  b.astype(np.float32), v.astype(np.float32), c.astype(np.float32))
    base_val = float(np.abs(r[te]).mean()) if len(te) else float("nan")
    return net, NetReport(tuple(train_mae), tuple(val_mae), base_val, tuple(per_stage),
                          len(tr), len(te))


def reference_sgd_epoch(F: npt.NDArray[np.integer], stage: npt.NDArray[np.integer],
                        r: npt.NDArray[np.float64], params: list[npt.NDArray[np.float64]],
                        idx: npt.NDArray[np.integer], lr: float, l2: float, clip: float
                        ) -> float:
    """:func:`_netfit.sgd_epoch` in NumPy, one position at a time (its reference):
    ``params`` = [E, S, W, b, v, c], updated in place."""
    E, S, W, b, v, c = params
    loss = 0.0
    for t in idx:
        a = S[stage[t]] + E[F[t]].sum(axis=0)
        pre = W @ a + b
        z = np.maximum(pre, 0.0)
        err = c[stage[t]] + v @ z - r[t]
        loss += abs(err)
        ge = float(np.clip(err, -clip, clip))
        on = z > 0
        gu = np.where(on, ge * v, 0.0)
        g = gu @ W  # d(out)/d(a), before W moves
        c[stage[t]] -= lr * ge
        v -= lr * ge * z
        b -= lr * gu
        W -= lr * np.outer(gu, a)
        S[stage[t]] -= lr * g
        for f in F[t]:  # one step per instance, as the kernel (a repeated feature twice)
            E[f] -= lr * (g + l2 * E[f])
    return loss / max(1, len(idx))
