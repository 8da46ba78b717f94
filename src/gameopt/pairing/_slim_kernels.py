"""SLIM's local search on cost arrays: greedy construction and numba k-swap kernels.

SLIM (T. Nakajima's Swiss pairing program, described in "Pairing Algorithm", 2002, §4)
pairs a round greedily — the best-ranked free player takes his cheapest free opponent,
then the worst-ranked free player takes his, alternately — and then improves the pairing
by re-pairing 2, 3 and then 4 tables at a time while that lowers the total. This module
holds that search on plain arrays (int64 costs, bool allowed pairs, an int64 ``(T, 2)``
table of pairs); :mod:`gameopt.pairing.heuristics` puts guards and the exact fallback
around it, and :mod:`gameopt.pairing.matching` uses it for the upper bound of its edge
pruning. The numba kernels take and return arrays and scalars only; the tests check their
answer against a plain-Python enumeration of every re-pairing of up to four tables.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["PATTERNS", "SLIM_WINDOW", "forbidden_cost", "greedy", "local_search",
           "swap_pass", "warm"]

#: Default window (in tables, rank order) of SLIM's 3- and 4-player swaps.
SLIM_WINDOW = 24

IntMatrix = npt.NDArray[np.int64]
BoolMatrix = npt.NDArray[np.bool_]


def _patterns(k: int) -> npt.NDArray[np.int64]:
    """Every pairing of 2k local players that changes each of the k tables.

    Local players ``2m, 2m+1`` are table ``m``; a row lists the new pairs flat. k = 2: 2
    rows (the 2-player swaps), k = 3: 8, k = 4: 60 (every 3- and 4-player swap of
    opponents; the rest of the 105 pairings of 8 players keep a table and are
    combinations of smaller swaps).
    """
    def pairings(items: list[int]) -> list[list[tuple[int, int]]]:
        if not items:
            return [[]]
        first, rest = items[0], items[1:]
        out = []
        for m, other in enumerate(rest):
            for tail in pairings(rest[:m] + rest[m + 1:]):
                out.append([(first, other), *tail])
        return out

    rows = [[x for p in pr for x in p] for pr in pairings(list(range(2 * k)))
            if not any(b == a + 1 and a % 2 == 0 for a, b in pr)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), 2 * k)


#: The re-pairings of k = 2, 3, 4 tables (:func:`_patterns`).
PATTERNS = {k: _patterns(k) for k in (2, 3, 4)}


@njit(cache=True, inline="always")
def _reslack(slack: npt.NDArray[np.int64], cost: IntMatrix, tab: IntMatrix,
             ts: npt.NDArray[np.int64], rowmin: npt.NDArray[np.int64]) -> None:
    """Recompute the slack of the tables ``ts`` after a swap changed them."""
    for m in range(ts.shape[0]):
        t = ts[m]
        slack[t] = 2 * cost[tab[t, 0], tab[t, 1]] - rowmin[tab[t, 0]] - rowmin[tab[t, 1]]


@njit(cache=True)
def _try_subset(cost: IntMatrix, tab: IntMatrix, ts: npt.NDArray[np.int64],
                pats: IntMatrix, slack: npt.NDArray[np.int64]) -> bool:
    """Re-pair tables ``ts`` by the best pattern if it lowers their cost; True if so."""
    k = ts.shape[0]
    s = 0
    for m in range(k):
        s += slack[ts[m]]
    if s == 0:  # every table at its players' cheapest edges: nothing to gain
        return False
    pl = np.empty(2 * k, dtype=np.int64)
    cur = 0
    for m in range(k):
        pl[2 * m] = tab[ts[m], 0]
        pl[2 * m + 1] = tab[ts[m], 1]
        cur += cost[pl[2 * m], pl[2 * m + 1]]
    best = cur
    best_p = -1
    for p in range(pats.shape[0]):
        v = 0
        for m in range(k):
            v += cost[pl[pats[p, 2 * m]], pl[pats[p, 2 * m + 1]]]
        if v < best:
            best = v
            best_p = p
    if best_p < 0:
        return False
    for m in range(k):
        tab[ts[m], 0] = pl[pats[best_p, 2 * m]]
        tab[ts[m], 1] = pl[pats[best_p, 2 * m + 1]]
    return True


@njit(cache=True)
def swap_pass(cost: IntMatrix, tab: IntMatrix, k: int, window: int, pats: IntMatrix,
              rowmin: npt.NDArray[np.int64]) -> int:
    """One pass of k-table swaps over ``tab`` (tables within ``window``); improvements made.

    Parameters
    ----------
    cost : int64 array, shape (n, n)
        Symmetric costs, forbidden pairs priced high (:func:`forbidden_cost`).
    tab : int64 array, shape (n // 2, 2)
        The pairing, one table a row; changed in place.
    k : int
        Tables re-paired at once (2, 3 or 4).
    window : int
        Tables ``a < b < ...`` tried together lie within ``window`` rows; ``<= 0``: all.
    pats : int64 array, shape (p, 2k)
        ``PATTERNS[k]``.
    rowmin : int64 array, shape (n,)
        ``rowmin[v]`` is the cheapest cost of ``v`` to anyone.

    Notes
    -----
    A table's slack ``2·c(a, b) − rowmin[a] − rowmin[b]`` is ≥ 0, and tables whose slacks
    are all 0 are already as cheap as their players allow, so that set is skipped.
    """
    t_count = tab.shape[0]
    slack = np.empty(t_count, dtype=np.int64)
    for t in range(t_count):
        slack[t] = 2 * cost[tab[t, 0], tab[t, 1]] - rowmin[tab[t, 0]] - rowmin[tab[t, 1]]
    ts = np.empty(k, dtype=np.int64)
    improved = 0
    for a in range(t_count):
        hi = t_count if window <= 0 else min(t_count, a + window)
        ts[0] = a
        for b in range(a + 1, hi):
            ts[1] = b
            if k == 2:
                if _try_subset(cost, tab, ts, pats, slack):
                    improved += 1
                    _reslack(slack, cost, tab, ts, rowmin)
                continue
            for c in range(b + 1, hi):
                ts[2] = c
                if k == 3:
                    if _try_subset(cost, tab, ts, pats, slack):
                        improved += 1
                        _reslack(slack, cost, tab, ts, rowmin)
                    continue
                for d in range(c + 1, hi):
                    ts[3] = d
                    if _try_subset(cost, tab, ts, pats, slack):
                        improved += 1
                        _reslack(slack, cost, tab, ts, rowmin)
    return improved


def forbidden_cost(cost: IntMatrix, allowed: BoolMatrix) -> IntMatrix:
    """``cost`` with forbidden pairs (and the diagonal) priced above any allowed matching."""
    n = cost.shape[0]
    vals = cost[allowed]
    span = int(vals.max() - vals.min()) + 1 if vals.size else 1
    big = int(vals.max(initial=0)) + span * (n // 2 + 1)
    return np.where(allowed, cost, np.int64(big))


def greedy(ck: IntMatrix) -> npt.NDArray[np.int64]:
    """SLIM's construction: the best-ranked free player takes his cheapest free opponent,
    then the worst-ranked free player takes his; repeated (ties: nearest in rank)."""
    n = ck.shape[0]
    free = np.ones(n, dtype=np.bool_)
    top, bottom = 0, n - 1
    tab = np.empty((n // 2, 2), dtype=np.int64)
    never = np.iinfo(np.int64).max
    for t in range(n // 2):
        if t % 2 == 0:
            while not free[top]:
                top += 1
            x = top
        else:
            while not free[bottom]:
                bottom -= 1
            x = bottom
        free[x] = False
        row = np.where(free, ck[x], never)
        y = int(np.argmin(row)) if t % 2 == 0 else n - 1 - int(np.argmin(row[::-1]))
        free[y] = False
        tab[t] = (min(x, y), max(x, y))
    return tab


def local_search(cost: IntMatrix, allowed: BoolMatrix, ks: Sequence[int] = (2, 3, 4),
                 window: int | None = None) -> IntMatrix:
    """Greedy construction, then k-swaps for each k in ``ks`` until none improves.

    Each k runs passes until a pass finds nothing; an improvement by a larger k sends the
    search back to the first k, so the result admits no improving swap of any k in
    ``ks`` (within ``window`` tables for k ≥ 3). Forbidden pairs cost more than any
    allowed matching, so swaps remove them whenever they can (the result may still hold
    one: the callers check).

    Returns
    -------
    int64 array, shape (n // 2, 2)
        The tables, each row ``(low, high)`` (callers sort the rows).
    """
    n = cost.shape[0]
    if n == 0:
        return np.empty((0, 2), dtype=np.int64)
    ck = forbidden_cost(cost, allowed)
    tab = greedy(ck)
    rowmin = np.where(np.eye(n, dtype=np.bool_), np.iinfo(np.int64).max, ck).min(axis=1)
    level = 0
    while level < len(ks):
        k = ks[level]
        w = 0 if k == 2 or window is None else window
        if tab.shape[0] >= k and swap_pass(ck, tab, k, w, PATTERNS[k], rowmin) > 0:
            tab.sort(axis=1)
            tab = tab[np.argsort(tab[:, 0], kind="stable")]
            level = 0 if level > 0 else level
        else:
            level += 1
    return tab


@functools.cache
def warm() -> None:
    """Load (or compile) the kernels once per process, so that timed runs exclude it."""
    cost = np.array([[0, 3, 1, 2], [3, 0, 2, 1], [1, 2, 0, 3], [2, 1, 3, 0]], dtype=np.int64)
    local_search(cost, ~np.eye(4, dtype=np.bool_), ks=(2, 3, 4), window=SLIM_WINDOW)
