"""numba kernel of the deck branch and bound: depth-first include/exclude over ranked pieces.

Arrays and scalars only (STYLE.md, convention 8); every integer array int64 (the partner
lists int32), every score float64. The plain-Python twin is
:func:`gameopt.deck.bnb._search_reference` (the tests compare the two node for node).

Pieces are re-indexed by the caller so that piece ``t`` is the t-th in branching order,
the must-include pieces first. A node is ``(S, p)``: the chosen pieces ``S`` (all < p)
and the pieces ``U = {p, p+1, ...}`` still open. Its children are ``(S + p, p + 1)``
(include, when the rules allow) and ``(S, p + 1)`` (exclude).

State (owned by the caller, so a search can pause after ``max_nodes`` and resume):

``g`` float64 (n,)
    Invariant: ``g[c] == leader[c] + Σ_{j ∈ S} R[c, j]`` for every ``c ≥ p``.
``cc`` int64 (n_char,)
    Pieces of each character in S.
``st`` int64 (5,)
    ``st[SIZE]`` = |S|, ``st[COST]`` cost of S, ``st[ATTR]`` attribute pieces in S,
    ``st[TOP]`` the depth of the top frame (``DONE`` = -1: search finished),
    ``st[KILLED]`` the height of ``kst``.
``fs`` float64 (3,)
    ``fs[SCORE]`` score of S, ``fs[BEST]`` best score found (the incumbent), ``fs[TOL]``
    tolerance of the pruning test ``bound ≤ best + tol``.
``chosen`` int64 (k,)
    S in the order added; ``best`` int64 (k,) the incumbent deck.
``fp``, ``fph`` int64 (k + 2,), ``fb``, ``fz`` float64 (k + 2,)
    The frames: the node's ``p``, its phase (0: not expanded, 1: the include child is
    being searched), its bound and the score of its S (restored exactly on the undo).
    A frame holds a chain of exclude children ``(S, p), (S, p + 1), ...``.
``fk`` int64 (k + 2,), ``dead`` int64 (n,), ``kst`` int64 (n,)
    Pieces fixed out (see :func:`bound`): ``dead[t]`` the frame that fixed t (-1: alive),
    ``kst`` the stack of fixed pieces, ``fk[d]`` its height when frame d began; they are
    revived when that frame ends, since the fixing holds in the whole chain's subtrees.

Bound of a node (Martí, Gallego & Duarte 2010, with the cost cap): with r = k - |S| pieces
to add and ``U'`` the open pieces that fit the budget and their character's limit,

    h[t] = g[t] + ½ · (sum of the r-1 largest R[t, u], u ∈ U', u ≠ t)

bounds what t adds (its tie to S plus half its pairs with the rest). Any r pieces T ⊆ U'
with cost ≤ B then add at most ``Σ_T h ≤ λB + Σ top_r(h - λ·cost)`` for every λ ≥ 0
(Lagrangian relaxation of the cost cap); λ is found by bisection on the subgradient.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", European Journal of Operational Research 200(1), 2010.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.deck._rule_arrays import RuleArrays

__all__ = ["search", "SIZE", "COST", "ATTR", "TOP", "KILLED", "DONE", "SCORE", "BEST", "TOL"]

# Indices into ``st`` (int64, shape (5,))
SIZE = 0  # |S|, the pieces chosen
COST = 1  # cost of S
ATTR = 2  # pieces of S with the attribute
TOP = 3  # depth of the top frame; DONE once the search has finished
KILLED = 4  # height of ``kst``, the stack of pieces fixed out
DONE = -1  # ``st[TOP]`` of a finished search

# Indices into ``fs`` (float64, shape (3,))
SCORE = 0  # score of S
BEST = 1  # best score found (the incumbent)
TOL = 2  # tolerance of the pruning test ``bound <= best + tol``


_LAMBDA_STEPS = 16  # bisection steps of the Lagrange multiplier of the cost cap
_FIX_ROUNDS = 2  # rounds of fixing pieces to 0 by their own bound, per node


@njit(cache=True, inline="always")
def _blocked(u, budget, cost, char, cc, climit):
    return cost[u] > budget or cc[char[u]] >= climit[char[u]]


@njit(cache=True)
def _top_r(vals, costs, m, r, idx):
    """Sum and cost of the ``r`` largest ``vals[:m]`` (ties: first seen); ``idx`` scratch."""
    cnt = 0
    for t in range(m):
        v = vals[t]
        if cnt == r and v <= vals[idx[r - 1]]:
            continue
        u = cnt if cnt < r else r - 1
        while u > 0 and vals[idx[u - 1]] < v:
            idx[u] = idx[u - 1]
            u -= 1
        idx[u] = t
        if cnt < r:
            cnt += 1
    s = 0.0
    c = 0
    for u in range(cnt):
        s += vals[idx[u]]
        c += costs[idx[u]]
    return s, c


@njit(cache=True)
def _scores(R, P, p, k, g, cc, st, rules, budget, dead, mu, h, hc, ht, gg):
    """Fill ``h``, ``hc`` (cost), ``ht`` (piece) and ``gg`` (``g + mu·cost``) for the open
    pieces that fit, as in the module docstring; returns (their count, attribute pieces
    among them), count -1 when some piece has fewer than r - 1 partners (no deck below).
    """
    n = R.shape[0]
    cost, char, climit, attr = rules.cost, rules.char, rules.climit, rules.attr
    r = k - st[SIZE]
    m = 0
    n_attr = 0
    for t in range(p, n):
        if dead[t] >= 0 or _blocked(t, budget, cost, char, cc, climit):
            continue
        s = 0.0
        got = 0
        for q in range(n):
            if got == r - 1:
                break
            u = P[t, q]
            if u < p or u == t or dead[u] >= 0 or _blocked(u, budget, cost, char, cc,
                                                           climit):
                continue
            s += R[t, u]
            got += 1
        if got < r - 1:
            return -1, 0
        h[m] = g[t] + 0.5 * s
        hc[m] = cost[t]
        ht[m] = t
        gg[m] = g[t] + mu * cost[t]
        n_attr += attr[t]
        m += 1
    return m, n_attr


@njit(cache=True)
def _lagrange(h, hc, m, r, budget, z, thr, w, idx):
    """``(bound, λ)``: the least of ``z + λ·budget + Σ top_r(h - λ·cost)`` over the λ
    tried (λ = 0, then bisection on the subgradient while the cap binds and the bound
    stays above ``thr``)."""
    top, c0 = _top_r(h, hc, m, r, idx)
    best = z + top
    lam_best = 0.0
    if c0 <= budget or best <= thr:
        return best, lam_best
    hmax = -np.inf
    hmin = np.inf
    for t in range(m):
        hmax = max(hmax, h[t])
        hmin = min(hmin, h[t])
    lo = 0.0
    hi = hmax - hmin + 1.0  # above it T_λ holds the r cheapest pieces
    for _ in range(_LAMBDA_STEPS):
        lam = 0.5 * (lo + hi)
        for t in range(m):
            w[t] = h[t] - lam * hc[t]
        top, c = _top_r(w, hc, m, r, idx)
        b = z + lam * budget + top
        if b < best:
            best = b
            lam_best = lam
        if best <= thr:
            break
        if c > budget:
            lo = lam
        else:
            hi = lam
    return best, lam_best


@njit(cache=True)
def _fix(h, hc, ht, m, r, z, lam, budget, thr, w, idx, dead, kst, st, d):
    """Fix out (at frame ``d``) every piece whose own bound ``z + λ·budget + (h[t] -
    λ·cost[t]) + Σ top_{r-1}(h - λ·cost)`` is ≤ ``thr``; returns how many."""
    for t in range(m):
        w[t] = h[t] - lam * hc[t]
    rest = 0.0
    if r > 1:
        rest, _ = _top_r(w, hc, m, r - 1, idx)
    base = z + lam * budget + rest  # a piece's own bound is base + w[t] or less
    killed = 0
    for t in range(m):
        if base + w[t] <= thr and dead[ht[t]] < 0:
            dead[ht[t]] = d
            kst[st[KILLED]] = ht[t]
            st[KILLED] += 1
            killed += 1
    return killed


@njit(cache=True)
def bound(R, P, V, mu, p, k, g, cc, st, fs, rules, dead, kst, d, h, hc, ht, gg, w, idx):
    """Upper bound on the score of every deck in the subtree of ``(S, p)``; -inf when the
    subtree holds no deck. Stops refining once the bound is ≤ ``best + tol``.

    The least of two bounds: the one of the module docstring, and (when ``V[p, r]`` is
    finite) the Russian-doll one ``z + V[p, r] + min_λ (λ·budget + Σ top_r(g + (μ - λ)·
    cost))``, where ``V[p, r]`` bounds ``pairs(T) - μ·cost(T)`` for any r pieces T of
    ``{p, p+1, ...}`` (μ ≥ 0: ``mu``). Valid since for such T within the budget
    ``Σ_T g + pairs(T) ≤ Σ_T (g + μ·cost) + V[p, r]`` and ``Σ_T x ≤ λ·budget +
    Σ top_r(x - λ·cost)``.

    Fixing: an open piece t whose own bound (the same sums with t in and the r - 1 best
    others) is ≤ ``best + tol`` is in no better deck of the subtree; it is marked dead at
    depth ``d`` (pushed on ``kst``, ``st[KILLED]`` its height) and the bound is recomputed
    without it, up to ``_FIX_ROUNDS`` times.

    O(rounds·(|U|·(r + skipped partners) + steps·|U|·r)).
    """
    r = k - st[SIZE]
    z = fs[SCORE]
    if r == 0:
        return z
    budget = rules.cap - st[COST]
    thr = fs[BEST] + fs[TOL]
    vr = V[p, r]
    b = -np.inf
    for rnd in range(_FIX_ROUNDS + 1):
        m, n_attr = _scores(R, P, p, k, g, cc, st, rules, budget, dead, mu, h, hc, ht, gg)
        if m < r or rules.amin - st[ATTR] > min(r, n_attr):
            return -np.inf
        b, lam = _lagrange(h, hc, m, r, budget, z, thr, w, idx)
        lam2 = 0.0
        if b > thr and vr < np.inf:
            b2, lam2 = _lagrange(gg, hc, m, r, budget, z + vr, thr, w, idx)
            b = min(b, b2)
        if b <= thr or rnd == _FIX_ROUNDS:
            return b
        killed = _fix(h, hc, ht, m, r, z, lam, budget, thr, w, idx, dead, kst, st, d)
        if vr < np.inf:
            killed += _fix(gg, hc, ht, m, r, z + vr, lam2, budget, thr, w, idx, dead, kst,
                           st, d)
        if killed == 0:
            return b
    return b


@njit(cache=True)
def _add(R: np.ndarray, t: int, g: np.ndarray, cc: np.ndarray, st: np.ndarray,
         fs: np.ndarray, chosen: np.ndarray, rules: RuleArrays) -> None:
    """Choose piece ``t``: S, its counts, its score and the gains ``g`` of later pieces."""
    chosen[st[SIZE]] = t
    st[SIZE] += 1
    st[COST] += rules.cost[t]
    st[ATTR] += rules.attr[t]
    cc[rules.char[t]] += 1
    fs[SCORE] += g[t]
    for c in range(t + 1, R.shape[0]):
        g[c] += R[t, c]


@njit(cache=True)
def _remove(R: np.ndarray, t: int, g: np.ndarray, cc: np.ndarray, st: np.ndarray,
            rules: RuleArrays) -> None:
    """Undo :func:`_add` except the score (the caller restores it from its frame)."""
    st[SIZE] -= 1
    st[COST] -= rules.cost[t]
    st[ATTR] -= rules.attr[t]
    cc[rules.char[t]] -= 1
    for c in range(t + 1, R.shape[0]):
        g[c] -= R[t, c]


@njit(cache=True)
def _pop(dead, kst, st, fk, d):
    """Revive the pieces fixed at frame ``d``, which ends."""
    while st[KILLED] > fk[d]:
        st[KILLED] -= 1
        dead[kst[st[KILLED]]] = -1


@njit(cache=True, nogil=True)  # the watchdog thread runs meanwhile
def search(R: np.ndarray, P: np.ndarray, V: np.ndarray, mu: float, k: int,
           rules: RuleArrays, g: np.ndarray, cc: np.ndarray, st: np.ndarray, fs: np.ndarray,
           chosen: np.ndarray, best: np.ndarray, fp: np.ndarray, fph: np.ndarray,
           fb: np.ndarray, fz: np.ndarray, fk: np.ndarray, dead: np.ndarray, kst: np.ndarray,
           max_nodes: int, flag: np.ndarray) -> int:
    """Run the depth-first search for at most ``max_nodes`` nodes, or until ``flag[0]``
    (uint8, polled before every node) is set; returns the count.

    ``R`` float64 (n, n) and ``P`` int32 (n, n) (each row's partners by descending score)
    in branching order; ``V`` float64 (n + 1, k + 1) the Russian-doll table (``inf``: none)
    priced at ``mu``; ``k`` the deck size; ``rules`` a
    :class:`~gameopt.deck._rule_arrays.RuleArrays` in branching order; the state arrays
    as in the module docstring.

    The search is finished when ``st[TOP] == DONE``; otherwise call again to resume.
    Improving leaves update ``fs[BEST]`` and ``best``.
    """
    n = R.shape[0]
    h = np.empty(n, dtype=np.float64)
    w = np.empty(n, dtype=np.float64)
    hc = np.empty(n, dtype=np.int64)
    ht = np.empty(n, dtype=np.int64)
    gg = np.empty(n, dtype=np.float64)
    idx = np.empty(k + 1, dtype=np.int64)
    nodes = 0
    d = st[TOP]
    while d >= 0 and nodes < max_nodes:
        if flag[0] != 0:
            break
        p = fp[d]
        if fph[d] == 1:  # back from the include child: undo, then the exclude child
            _remove(R, p, g, cc, st, rules)
            fs[SCORE] = fz[d]
            fp[d] = p + 1
            fph[d] = 0
            continue
        nodes += 1
        if st[SIZE] == k:
            if fs[SCORE] > fs[BEST] and st[ATTR] >= rules.amin:
                fs[BEST] = fs[SCORE]
                for t in range(k):
                    best[t] = chosen[t]
            _pop(dead, kst, st, fk, d)
            d -= 1
            continue
        if n - p < k - st[SIZE]:
            _pop(dead, kst, st, fk, d)
            d -= 1
            continue
        b = bound(R, P, V, mu, p, k, g, cc, st, fs, rules, dead, kst, d, h, hc, ht, gg, w, idx)
        fb[d] = b
        if b <= fs[BEST] + fs[TOL]:
            _pop(dead, kst, st, fk, d)
            d -= 1
            continue
        if dead[p] < 0 and not _blocked(p, rules.cap - st[COST], rules.cost, rules.char, cc,
                                        rules.climit):
            fz[d] = fs[SCORE]
            _add(R, p, g, cc, st, fs, chosen, rules)
            fph[d] = 1
            d += 1
            fp[d] = p + 1
            fph[d] = 0
            fk[d] = st[KILLED]
        else:
            fp[d] = p + 1
    st[TOP] = d
    return nodes
