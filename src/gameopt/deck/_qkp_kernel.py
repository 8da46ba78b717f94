"""numba kernels of the quadratic-knapsack bound of a deck under a tight cost cap.

Arrays and scalars only (STYLE.md, convention 8): costs are *excess* costs
``e[i] = cost[i] - c_min`` (int64), scores float64. The plain-Python twins are
:func:`gameopt.deck.reduce._rows_reference`, :func:`~gameopt.deck.reduce._outer_reference`
and :func:`~gameopt.deck.reduce._forced_reference` (the tests compare them).

The pair scores are held once per ordered pair ``(i, j)`` with ``R⁺_ij > 0`` in
compressed rows (``indptr``, ``nbr``); ``A[e]`` is row i's share of the pair, and
``A[e] + A[twin[e]] == R⁺_ij`` (see :mod:`gameopt.deck.reduce`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["rows", "outer", "forced_in"]


@njit(cache=True)
def rows(indptr, nbr, A, e, alive, k, B, val, pick, table):
    """Row values and their partner sets.

    ``val[i]``: the most ``Σ_{j∈P} A_ij`` over partner sets P of at most ``k - 1`` alive
    partners with ``A_ij > 0`` and ``Σ_{j∈P} e[j] ≤ B - e[i]`` (``-inf`` for a dead
    piece or ``e[i] > B``); ``pick[t] = 1`` for the entries of one such best set, else 0.
    ``table`` float64 scratch of shape ≥ (max row length + 1, k, B + 1). A 0/1 knapsack
    with a cardinality limit by dynamic programming: O(Σ_i row length · k · B).
    """
    n = e.shape[0]
    for t in range(A.shape[0]):
        pick[t] = 0
    for i in range(n):
        val[i] = -np.inf
        if alive[i] == 0 or e[i] > B:
            continue
        b = B - e[i]
        lo = indptr[i]
        m = indptr[i + 1] - lo
        for c in range(k):
            for w in range(b + 1):
                table[0, c, w] = -np.inf
        table[0, 0, 0] = 0.0
        for t in range(m):
            j = nbr[lo + t]
            a = A[lo + t]
            ej = e[j]
            usable = alive[j] != 0 and a > 0.0 and ej <= b
            for c in range(k):
                for w in range(b + 1):
                    v = table[t, c, w]
                    if usable and c > 0 and w >= ej:
                        u = table[t, c - 1, w - ej] + a
                        if u > v:
                            v = u
                    table[t + 1, c, w] = v
        bv = -np.inf
        bc = 0
        bw = 0
        for c in range(k):
            for w in range(b + 1):
                if table[m, c, w] > bv:
                    bv = table[m, c, w]
                    bc = c
                    bw = w
        val[i] = bv
        c = bc
        w = bw
        for t in range(m - 1, -1, -1):
            if table[t + 1, c, w] != table[t, c, w]:
                pick[lo + t] = 1
                c -= 1
                w -= e[nbr[lo + t]]


@njit(cache=True)
def _forward(v, e, k, B):
    """``F[i, c, w]``: the most ``Σ v`` over c of the pieces < i with ``v > -inf`` and
    excess cost exactly w (``-inf``: none); float64 (n + 1, k + 1, B + 1)."""
    n = v.shape[0]
    F = np.full((n + 1, k + 1, B + 1), -np.inf)
    F[0, 0, 0] = 0.0
    for i in range(n):
        ei = e[i]
        ok = v[i] > -np.inf and ei <= B
        for c in range(k + 1):
            for w in range(B + 1):
                x = F[i, c, w]
                if ok and c > 0 and w >= ei:
                    y = F[i, c - 1, w - ei] + v[i]
                    if y > x:
                        x = y
                F[i + 1, c, w] = x
    return F


@njit(cache=True)
def outer(v, e, k, B, X):
    """The most ``Σ_{i∈D} v[i]`` over sets D of ``k`` pieces with ``v > -inf`` and
    ``Σ_D e ≤ B`` (``-inf`` when there is none); ``X`` (int64) set to one such D's
    indicator. O(n · k · B) time and memory."""
    n = v.shape[0]
    F = _forward(v, e, k, B)
    bv = -np.inf
    bw = 0
    for w in range(B + 1):
        if F[n, k, w] > bv:
            bv = F[n, k, w]
            bw = w
    for i in range(n):
        X[i] = 0
    if bv == -np.inf:
        return bv
    c = k
    w = bw
    for i in range(n - 1, -1, -1):
        if F[i + 1, c, w] != F[i, c, w]:
            X[i] = 1
            c -= 1
            w -= e[i]
    return bv


@njit(cache=True)
def forced_in(v, e, k, B, out):
    """``out[i]``: the most ``Σ_{j∈D} v[j]`` over the sets D of :func:`outer` that hold
    i (``-inf`` when none), for every i at once: a forward and a backward table,
    O(n · k · B) memory and O(n · k · B) time (the backward one maximised over the
    spare cost)."""
    n = v.shape[0]
    F = _forward(v, e, k, B)  # pieces < i
    G = np.full((n + 1, k + 1, B + 1), -np.inf)  # pieces ≥ i, cost ≤ w (max over it)
    for w in range(B + 1):
        G[n, 0, w] = 0.0
    for i in range(n - 1, -1, -1):
        ei = e[i]
        ok = v[i] > -np.inf and ei <= B
        for c in range(k + 1):
            for w in range(B + 1):
                x = G[i + 1, c, w]
                if ok and c > 0 and w >= ei:
                    y = G[i + 1, c - 1, w - ei] + v[i]
                    if y > x:
                        x = y
                G[i, c, w] = x
    for i in range(n):
        out[i] = -np.inf
        ei = e[i]
        if v[i] == -np.inf or ei > B:
            continue
        best = -np.inf
        for c in range(k):
            for w in range(B - ei + 1):
                f = F[i, c, w]
                if f == -np.inf:
                    continue
                g = G[i + 1, k - 1 - c, B - ei - w]
                if f + g > best:
                    best = f + g
        out[i] = best + v[i]
