"""numba kernels of the residual network's training (:mod:`gameopt.reversi.netfit`).

Arrays (float64 unless said): ``F`` (N, instances) int32 the features of each position,
``stage`` (N,) int64, ``r`` (N,) the residual targets (discs); the parameters ``E``
(n_features, K), ``S`` (N_STAGES, K), ``W`` (H, K), ``b`` (H,), ``v`` (H,), ``c``
(N_STAGES,) as in :class:`gameopt.reversi.network.Network`; ``idx`` the positions to
visit, in order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._eval import evaluate

__all__ = ["base_values", "sgd_epoch", "forward"]


@njit(cache=True)
def base_values(P: np.ndarray, O: np.ndarray, kind: int, w: np.ndarray) -> np.ndarray:
    """The evaluation ``(kind, w)`` of each position (P, O uint64), in discs."""
    out = np.empty(P.shape[0])
    for t in range(P.shape[0]):
        out[t] = evaluate(P[t], O[t], kind, w) / 100.0
    return out


@njit(cache=True)
def _embedding(F: np.ndarray, stage: np.ndarray, t: int, E: np.ndarray, S: np.ndarray,
               a: np.ndarray) -> None:
    """``a`` = the stage's vector plus the embeddings of position t's features."""
    k = E.shape[1]
    for j in range(k):
        a[j] = S[stage[t], j]
    for i in range(F.shape[1]):
        f = F[t, i]
        for j in range(k):
            a[j] += E[f, j]


@njit(cache=True)
def forward(F: np.ndarray, stage: np.ndarray, E: np.ndarray, S: np.ndarray, W: np.ndarray,
            b: np.ndarray, v: np.ndarray, c: np.ndarray, idx: np.ndarray,
            out: np.ndarray) -> None:
    """``out[t]`` = the network's output (discs) for each position t of ``idx``."""
    a = np.empty(E.shape[1])
    for t in idx:
        _embedding(F, stage, t, E, S, a)
        o = c[stage[t]]
        for u in range(W.shape[0]):
            s = b[u]
            for j in range(E.shape[1]):
                s += W[u, j] * a[j]
            if s > 0:
                o += v[u] * s
        out[t] = o


@njit(cache=True)
def sgd_epoch(F: np.ndarray, stage: np.ndarray, r: np.ndarray, E: np.ndarray,
              S: np.ndarray, W: np.ndarray, b: np.ndarray, v: np.ndarray, c: np.ndarray,
              idx: np.ndarray, lr: float, l2: float, clip: float) -> float:
    """One pass of stochastic gradient descent on the squared error, the positions in the
    order of ``idx``, each step's error clipped to ±``clip`` discs (robust to noisy
    labels) and the embeddings it reads decayed by ``l2``; updates the parameters in place.
    Returns the mean absolute error met on the way (before each step)."""
    k = E.shape[1]
    h = W.shape[0]
    a = np.empty(k)
    z = np.empty(h)
    g = np.empty(k)
    loss = 0.0
    for t in idx:
        _embedding(F, stage, t, E, S, a)
        o = c[stage[t]]
        for u in range(h):
            s = b[u]
            for j in range(k):
                s += W[u, j] * a[j]
            z[u] = s if s > 0 else 0.0
            o += v[u] * z[u]
        err = o - r[t]
        loss += abs(err)
        ge = max(-clip, min(clip, err))
        c[stage[t]] -= lr * ge
        for j in range(k):
            g[j] = 0.0
        for u in range(h):
            if z[u] > 0:
                gu = ge * v[u]
                v[u] -= lr * ge * z[u]
                b[u] -= lr * gu
                for j in range(k):
                    g[j] += gu * W[u, j]
                    W[u, j] -= lr * gu * a[j]
        for j in range(k):
            S[stage[t], j] -= lr * g[j]
        for i in range(F.shape[1]):
            f = F[t, i]
            for j in range(k):
                E[f, j] -= lr * (g[j] + l2 * E[f, j])
    return loss / max(1, len(idx))
