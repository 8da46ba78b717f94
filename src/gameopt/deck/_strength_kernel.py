"""numba kernels of the rules-aware seed strength: partner lists and a cost price.

A piece's plain strength ``leader_i + ½·(sum of its size-1 largest R[i, ·])`` ignores the
cost cap, so under a tight cap it ranks first the archetypes of expensive pieces and
leaves the cheap ones unseeded. Pricing the cap with a Lagrange multiplier λ fixes that:
for every deck D of size k,

    score(D) - λ·(cost(D) - cap) = λ·cap + Σ_{i∈D} [leader_i + ½·Σ_{j∈D, j≠i}
                                   (R_ij - λ·(c_i + c_j)/(k-1))],

so the strength at price λ is ``b_i(λ) = leader_i + ½·(top_{k-1}(R_ij - λ·c_j/(k-1))
- λ·c_i)`` and ``λ·cap + Σ_{must} b + (top k-|must| of the other b)`` is an upper bound
for every λ ≥ 0 (the Martí-Gallego-Duarte bound with the cap relaxed). The price used
is the one where the relaxed solution's cost (each chosen piece counting ½ of its own
cost and ½ of its partners' mean cost) meets the cap, the bound's minimiser.

Here the partners are taken from each row's ``L`` largest entries (``top_partners``),
which makes one evaluation O(n·L) instead of O(n²): exact for every row whose top
partners at price λ are among them, an under-estimate otherwise, so these strengths
order seeds but are no bound (:func:`gameopt.deck.exact.upper_bound` evaluates the bound
on full rows).

Arrays: ``V`` float64 (n, L) partner values, descending; ``J`` int64 (n, L) their
columns; ``cost`` int64 (n,); ``leader`` float32/float64 (n,); ``is_must`` int64 (n,) 0/1.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", EJOR 200(1), 2010; M. L. Fisher, "The Lagrangian relaxation method for
solving integer programming problems", Management Science 27(1), 1981.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.deck._construct_kernel import _BLOCK, _push, _push_pair

__all__ = ["top_partners", "strengths", "cap_price"]

_GROW = 60  # doublings of the price bracket before giving up (the cap stays relaxed)


@njit(cache=True, inline="always")
def _insert(V, J, i, m, L, v, j):
    """Insert ``(v, j)`` into row i's descending buffer ``V[i, :m]`` (at most L kept)."""
    u = m if m < L else L - 1
    while u > 0 and V[i, u - 1] < v:
        V[i, u] = V[i, u - 1]
        J[i, u] = J[i, u - 1]
        u -= 1
    V[i, u] = v
    J[i, u] = j
    return m + 1 if m < L else m


@njit(cache=True)
def top_partners(R, L):
    """Each row's ``L`` largest off-diagonal entries, descending, and their columns.

    Returns ``(V, J)``: float64 (n, L) and int64 (n, L). Needs ``1 ≤ L ≤ n - 1``. With
    ``n // 16 ≥ L`` a row is first read as block maxima (as in
    :func:`gameopt.deck._construct_kernel._top_row_blocks`): the L-th largest block
    maximum off the diagonal is at most the L-th largest entry, so only the blocks whose
    maximum reaches it are read entry by entry. Ties may order columns differently from
    a sort, never values. O(n²) compares with an L-entry sorted buffer per row.
    """
    n = R.shape[0]
    V = np.empty((n, L), dtype=np.float64)
    J = np.empty((n, L), dtype=np.int64)
    nb = n // _BLOCK
    blocks = nb >= L
    bm = np.empty(max(nb, 1), dtype=R.dtype)
    buf = np.empty(L, dtype=R.dtype)
    for i in range(n):
        thr = -np.inf
        if blocks:
            _block_maxima(R, i, nb, bm)
            m = 0
            for b in range(nb):
                if m < L or bm[b] > buf[L - 1]:
                    m = _push(buf, m, L, bm[b])
            thr = np.float64(buf[L - 1])
        m = 0
        for b in range(nb if blocks else 0):
            if bm[b] < thr:
                continue
            for s in range(_BLOCK):
                j = s * nb + b
                v = np.float64(R[i, j])
                if j != i and v >= thr and (m < L or v > V[i, L - 1]):
                    m = _insert(V, J, i, m, L, v, j)
        for j in range(nb * _BLOCK if blocks else 0, n):
            v = np.float64(R[i, j])
            if j != i and (m < L or v > V[i, L - 1]):
                m = _insert(V, J, i, m, L, v, j)
    return V, J


@njit(cache=True)
def _block_maxima(R, i, nb, bm):
    """``bm[b]`` = max of row i over columns ``b, b + nb, …, b + 15·nb``, diagonal out."""
    for b in range(nb):
        bm[b] = R[i, b]
    for s in range(1, _BLOCK):
        for b in range(nb):
            bm[b] = max(bm[b], R[i, s * nb + b])
    if i < nb * _BLOCK:
        b = i % nb
        mx = -np.inf
        for s in range(_BLOCK):
            if s * nb + b != i:
                mx = max(mx, R[i, s * nb + b])
        bm[b] = mx


@njit(cache=True)
def _row(V, J, cost, cmin, i, kk, mu, buf, bufc):
    """Sum of the ``kk`` largest ``V[i, t] - mu·cost[J[i, t]]`` and of their costs
    (``V[i]`` descending and ``cost ≥ cmin``: stops when no later entry can enter)."""
    m = 0
    for t in range(V.shape[1]):
        if m == kk and V[i, t] - mu * cmin <= buf[kk - 1]:
            break
        c = cost[J[i, t]]
        m = _push_pair(buf, bufc, m, kk, V[i, t] - mu * c, c)
    s = 0.0
    sc = 0.0
    for u in range(m):
        s += buf[u]
        sc += bufc[u]
    return s, sc


@njit(cache=True)
def strengths(V, J, cost, leader, kk, lam, k):
    """``b_i(λ) = leader_i + ½·(top_kk(V[i] - λ·c/(k-1)) - λ·c_i·kk/(k-1))`` (float64 (n,))
    and each piece's relaxed cost ``½·(c_i + Σ partner costs/(k-1))`` (float64 (n,))."""
    n = V.shape[0]
    b = np.empty(n, dtype=np.float64)
    rc = np.empty(n, dtype=np.float64)
    buf = np.empty(max(kk, 1), dtype=np.float64)
    bufc = np.empty(max(kk, 1), dtype=np.float64)
    mu = lam / max(k - 1, 1)
    cmin = cost.min()
    for i in range(n):
        s, sc = (0.0, 0.0) if kk <= 0 else _row(V, J, cost, cmin, i, kk, mu, buf, bufc)
        b[i] = leader[i] + 0.5 * (s - mu * kk * cost[i])
        rc[i] = 0.5 * (cost[i] * kk / max(k - 1, 1) + sc / max(k - 1, 1))
    return b, rc


@njit(cache=True)
def _relaxed_cost(V, J, cost, leader, k, lam, is_must, b0, buf, bufc, best, bestc):
    """Cost of the relaxed solution at price ``lam``: the must-include pieces and the
    ``k - |must|`` strongest others (by ``b(λ)``), each counting its relaxed cost.

    ``b0`` is ``b(0)``; ``b_i(λ) ≤ b0_i - ½·λ·(c_i + min cost)``, so the others are
    visited by that bound, descending, until it cannot beat the (k - |must|)-th best
    found. ``buf``/``bufc`` (k-1,), ``best``/``bestc`` (k,) are scratch.
    """
    n = V.shape[0]
    mu = lam / max(k - 1, 1)
    cmin = cost.min()
    total = 0.0
    n_must = 0
    for i in range(n):
        if is_must[i] != 0:
            s, sc = _row(V, J, cost, cmin, i, k - 1, mu, buf, bufc)
            total += 0.5 * (cost[i] + sc / max(k - 1, 1))
            n_must += 1
    want = min(k - n_must, n - n_must)
    if want <= 0:
        return total
    ub = b0 - 0.5 * lam * (cost + cmin)
    m = 0
    for i in np.argsort(-ub):
        if is_must[i] != 0:
            continue
        if m == want and ub[i] <= best[want - 1]:
            break
        s, sc = _row(V, J, cost, cmin, i, k - 1, mu, buf, bufc)
        m = _push_pair(best, bestc, m, want, leader[i] + 0.5 * (s - lam * cost[i]),
                       0.5 * (cost[i] + sc / max(k - 1, 1)))
    for u in range(m):
        total += bestc[u]
    return total


@njit(cache=True)
def cap_price(V, J, cost, leader, k, cap, is_must, steps):
    """The price λ ≥ 0 at which the relaxed solution's cost meets ``cap`` (bisection).

    0 when the relaxed solution at λ = 0 already keeps the cap. Otherwise the bracket
    ``[0, hi]`` doubles ``hi`` from ``spread·(k-1)/max cost`` until the relaxed cost keeps
    the cap, then ``steps`` bisections; returns the bracket's upper end (a price at which
    the relaxed solution keeps the cap). O((steps + doublings)·n·(L·k + log n)).
    """
    if k <= 1:
        return 0.0
    b0, _ = strengths(V, J, cost, leader, k - 1, 0.0, k)
    buf = np.empty(k - 1, dtype=np.float64)
    bufc = np.empty(k - 1, dtype=np.float64)
    best = np.empty(k, dtype=np.float64)
    bestc = np.empty(k, dtype=np.float64)
    args = (is_must, b0, buf, bufc, best, bestc)
    if _relaxed_cost(V, J, cost, leader, k, 0.0, *args) <= cap:
        return 0.0
    spread = V.max() - V.min() + 1e-12
    hi = spread * (k - 1) / max(cost.max(), 1)
    lo = 0.0
    for _ in range(_GROW):
        if _relaxed_cost(V, J, cost, leader, k, hi, *args) <= cap:
            break
        lo = hi
        hi *= 2.0
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        if _relaxed_cost(V, J, cost, leader, k, mid, *args) <= cap:
            hi = mid
        else:
            lo = mid
    return hi
