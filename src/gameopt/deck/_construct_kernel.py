"""numba kernel of the deck construction: add pieces best first, keeping a completion.

The fast twin of :func:`gameopt.deck.build._construct` (the reference the tests compare it
with): from the chosen pieces, repeatedly take the best piece by priority (its gain
``leader[c] + Σ_{j chosen} R[c, j]``, or a given random rank) whose addition still has a
rule-keeping completion; after ``tries`` refusals in one step, complete with the
certificate itself.

The certificate (:func:`_completion`) is the cheap greedy completion: the cheapest pieces
with the attribute up to the minimum, then the cheapest of any kind, each under its
character's limit. Found, it proves the partial deck can be completed; not found, it is
no proof, which is why the construction only uses it to refuse a candidate.

Rules: ``rules``, a :class:`~gameopt.deck._rule_arrays.RuleArrays` (its ``order``: pieces
by cost, cheapest first, the completion's order).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.deck._rule_arrays import RuleArrays
from gameopt.deck._vds_kernel import _listed

__all__ = ["construct", "shared_prefix"]


@njit(cache=True)
def _completion(left, budget, need, inset, cc, rules, extra, out):
    """Fill ``out[:left]`` with the cheap completion; True when it keeps every rule.

    ``inset`` int64 (n,) 1 for chosen pieces, ``cc`` their count per character,
    ``extra`` int64 (n_char,) all zero on entry and on return (scratch).
    """
    order, cost, char, climit, attr = (rules.order, rules.cost, rules.char, rules.climit,
                                       rules.attr)
    count = 0
    spend = 0
    for attr_pass in range(2):
        for t in range(order.shape[0]):
            if count == left or (attr_pass == 0 and need <= 0):
                break
            i = order[t]
            if inset[i] != 0 or (attr_pass == 0 and attr[i] == 0):
                continue
            ch = char[i]
            if cc[ch] + extra[ch] >= climit[ch]:
                continue
            if attr_pass == 1 and count > 0 and _listed(out, count, i):
                continue
            extra[ch] += 1
            out[count] = i
            count += 1
            need -= attr[i]
            spend += cost[i]
    for t in range(count):
        extra[char[out[t]]] -= 1
    return count == left and need <= 0 and spend <= budget


@njit(cache=True)
def construct(R: np.ndarray, leader: np.ndarray, start: np.ndarray, size: int,
              rules: RuleArrays, rank: np.ndarray, tries: int, n_quiet: int = 0
              ) -> tuple[np.ndarray, bool]:
    """Build a deck from ``start`` (chosen pieces, rules kept so far).

    Parameters
    ----------
    R : ndarray of float32, shape (n, n)
        Symmetric pair scores.
    leader : ndarray of float32, shape (n,)
    start : ndarray of int64, shape (s,)
        The pieces chosen first (must-include, then a seed piece if any).
    size : int
        Pieces in the deck.
    rules : RuleArrays
    rank : ndarray of float64, shape (n,) or (0,)
        Priority of each piece (higher first); empty: the gain (greedy).
    tries : int
        Candidates refused in one step before completing by the certificate.
    n_quiet : int
        The first ``n_quiet`` start pieces keep the rules but add nothing to the gains
        (a seeded deck grows around its seed, not around the must-include pieces).

    Returns
    -------
    deck : ndarray of int64, shape (size,)
    ok : bool
        False when no completion was found for ``start`` itself (the caller falls back).

    Notes
    -----
    O(size·(n + tries·n)) worst case; typically O(size·n).
    """
    n = R.shape[0]
    char, climit, cost, cap, attr, amin = (rules.char, rules.climit, rules.cost, rules.cap,
                                           rules.attr, rules.amin)
    deck = np.empty(size, dtype=np.int64)
    inset = np.zeros(n, dtype=np.int64)
    cc = np.zeros(rules.n_char, dtype=np.int64)
    extra = np.zeros(rules.n_char, dtype=np.int64)
    g = leader.astype(np.float64).copy()
    out = np.empty(size, dtype=np.int64)
    k = 0
    spent = 0
    have = 0
    for t in range(start.shape[0]):
        i = start[t]
        deck[k] = i
        k += 1
        inset[i] += 1
        cc[char[i]] += 1
        spent += cost[i]
        have += attr[i]
        if t >= n_quiet:
            for c in range(n):
                g[c] += R[i, c]  # R symmetric: the contiguous row
        if cc[char[i]] > climit[char[i]] or inset[i] > 1:
            return deck, False
    if not _completion(size - k, cap - spent, amin - have, inset, cc, rules, extra, out):
        return deck, False
    greedy = rank.shape[0] == 0
    top = np.empty(max(tries, 1), dtype=np.int64)
    topv = np.empty(max(tries, 1), dtype=np.float64)
    while k < size:
        # The `tries` best candidates by priority, ties by index: the order in which
        # they are offered (a refused one is not offered again in this step)
        m = 0
        for c in range(n):
            if inset[c] != 0 or cc[char[c]] >= climit[char[c]]:
                continue
            m = _push_pair(topv, top, m, tries, g[c] if greedy else rank[c], c)
        placed = False
        for t in range(m):
            bi = top[t]
            inset[bi] = 1
            cc[char[bi]] += 1
            if _completion(size - k - 1, cap - spent - cost[bi], amin - have - attr[bi],
                           inset, cc, rules, extra, out):
                deck[k] = bi
                k += 1
                spent += cost[bi]
                have += attr[bi]
                for c in range(n):
                    g[c] += R[bi, c]
                placed = True
                break
            inset[bi] = 0
            cc[char[bi]] -= 1
        if not placed:  # complete with the certificate of the current partial deck
            _completion(size - k, cap - spent, amin - have, inset, cc, rules, extra, out)
            for t in range(size - k):
                deck[k + t] = out[t]
            k = size
    return deck, True


@njit(cache=True)
def shared_prefix(R: np.ndarray, leader: np.ndarray, start: np.ndarray, size: int,
                  rules: RuleArrays) -> tuple[np.ndarray, bool]:
    """The first picks of the greedy :func:`construct` that every looser rule set shares.

    From ``start`` (kept by the rules), each step takes the piece of largest gain among
    *all* pieces not chosen (ties: the lower index), those of a character at its limit
    included, and keeps it while it is not at that limit and has a rule-keeping
    completion; the first step where either fails ends the prefix. Every pick is then
    the first candidate the greedy construction offers under these rules and under any
    looser ones (no cost cap, no character limit, no attribute minimum: the same
    candidate order with more candidates behind, and a completion under the rules is
    one under the looser rules, the cheap completion being the cheapest), so each
    construction under looser rules starts with this prefix. Returns ``start`` plus
    the picks, int64 (s + t,), in pick order, and False when ``start`` itself has no
    completion.

    O(t·n) for t picks.
    """
    n = R.shape[0]
    char, climit, cost, cap, attr, amin = (rules.char, rules.climit, rules.cost, rules.cap,
                                           rules.attr, rules.amin)
    deck = np.empty(size, dtype=np.int64)
    inset = np.zeros(n, dtype=np.int64)
    cc = np.zeros(rules.n_char, dtype=np.int64)
    extra = np.zeros(rules.n_char, dtype=np.int64)
    out = np.empty(size, dtype=np.int64)
    g = leader.astype(np.float64).copy()
    k = 0
    spent = 0
    have = 0
    for t in range(start.shape[0]):
        i = start[t]
        deck[k] = i
        k += 1
        inset[i] = 1
        cc[char[i]] += 1
        spent += cost[i]
        have += attr[i]
        for c in range(n):
            g[c] += R[i, c]
    if not _completion(size - k, cap - spent, amin - have, inset, cc, rules, extra, out):
        return deck[:k].copy(), False
    while k < size:
        best = -1
        for c in range(n):
            if inset[c] == 0 and (best < 0 or g[c] > g[best]):
                best = c
        if cc[char[best]] >= climit[char[best]]:
            break
        inset[best] = 1
        cc[char[best]] += 1
        if not _completion(size - k - 1, cap - spent - cost[best], amin - have - attr[best],
                           inset, cc, rules, extra, out):
            break
        deck[k] = best
        k += 1
        spent += cost[best]
        have += attr[best]
        for c in range(n):
            g[c] += R[best, c]
    return deck[:k].copy(), True


_BLOCK = 16  # columns per block of the all-columns path of top_row_sums


@njit(cache=True, inline="always")
def _push(buf, m, k, v):
    """Insert ``v`` into the descending buffer ``buf[:m]`` (at most ``k`` kept); new m."""
    u = m if m < k else k - 1
    while u > 0 and buf[u - 1] < v:
        buf[u] = buf[u - 1]
        u -= 1
    buf[u] = v
    return m + 1 if m < k else m


@njit(cache=True, inline="always")
def _push_pair(buf, aux, m, k, v, a):
    """Offer ``v`` (with ``a`` beside it in ``aux``) to the descending buffer ``buf[:m]``
    of at most ``k`` (ties: the earlier first; not kept if ``k`` are kept and none is
    smaller); new m."""
    if m == k and v <= buf[k - 1]:
        return m
    u = m if m < k else k - 1
    while u > 0 and buf[u - 1] < v:
        buf[u] = buf[u - 1]
        aux[u] = aux[u - 1]
        u -= 1
    buf[u] = v
    aux[u] = a
    return m + 1 if m < k else m


@njit(cache=True)
def _top_row_blocks(R, i, k, bm, buf):
    """Sum of the ``k`` largest ``R[i, j]``, j ≠ i, by blocks of columns.

    With ``nb = n // _BLOCK``, block b holds the columns ``b, b + nb, ..., b + 15·nb``
    (strided, so the block maxima are ``_BLOCK`` element-wise maxima of contiguous
    slices, which numba vectorises); the last ``n mod _BLOCK`` columns are read one by
    one. The block maxima off the diagonal are k distinct entries, so the k-th largest,
    ``thr``, is at most the k-th largest entry: only blocks whose maximum reaches ``thr``
    are read entry by entry. Needs ``nb ≥ k``.
    """
    n = R.shape[0]
    nb = n // _BLOCK
    for b in range(nb):
        bm[b] = R[i, b]
    for s in range(1, _BLOCK):
        for b in range(nb):
            bm[b] = max(bm[b], R[i, s * nb + b])
    if i < nb * _BLOCK:  # the diagonal's block, without the diagonal
        b = i % nb
        mx = -np.inf
        for s in range(_BLOCK):
            if s * nb + b != i:
                mx = max(mx, R[i, s * nb + b])
        bm[b] = mx
    m = 0
    for b in range(nb):  # the k largest block maxima
        if m < k or bm[b] > buf[k - 1]:
            m = _push(buf, m, k, bm[b])
    thr = buf[k - 1]
    m = 0
    for b in range(nb):
        if bm[b] < thr:
            continue
        for s in range(_BLOCK):
            j = s * nb + b
            if j != i and R[i, j] >= thr and (m < k or R[i, j] > buf[k - 1]):
                m = _push(buf, m, k, R[i, j])
    for j in range(nb * _BLOCK, n):
        if j != i and (m < k or R[i, j] > buf[k - 1]):
            m = _push(buf, m, k, R[i, j])
    s = 0.0
    for u in range(m):
        s += np.float64(buf[u])
    return s


@njit(cache=True)
def top_row_sums(R, k, cols):
    """Sum of the ``k`` largest entries ``R[i, j]``, j in ``cols``, j ≠ i; float64 (n,).

    ``cols`` int64, ascending: the columns allowed (all of them for the plain bound).
    O(n·|cols|) compares with a k-entry sorted buffer per row (k ≪ n); with every column
    it equals :func:`gameopt.deck.exact._top_row_sums` (the numpy partition version) and
    reads most of each row only once, as block maxima (:func:`_top_row_blocks`).
    """
    n = R.shape[0]
    out = np.zeros(n, dtype=np.float64)
    if k <= 0:
        return out
    ncol = cols.shape[0]
    buf = np.empty(k, dtype=R.dtype)  # descending
    if ncol == n and n // _BLOCK >= k and cols[0] == 0 and cols[n - 1] == n - 1:
        bm = np.empty(n // _BLOCK, dtype=R.dtype)
        for i in range(n):
            out[i] = _top_row_blocks(R, i, k, bm, buf)
        return out
    for i in range(n):
        m = 0
        for t in range(ncol):
            j = cols[t]
            if j != i and (m < k or R[i, j] > buf[k - 1]):
                m = _push(buf, m, k, R[i, j])
        s = 0.0
        for u in range(m):
            s += np.float64(buf[u])
        out[i] = s
    return out
