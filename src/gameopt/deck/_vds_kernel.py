"""numba kernels of the deck local searches: incremental gains, 1-swap and VDS moves.

Arrays and scalars only (STYLE.md, convention 8). Every integer array is int64 and every
score float64 (R itself stays float32), so no signed/unsigned mix reaches numba.

State of one search (all owned by the caller, updated in place):

``deck`` int64 (size,)
    The pieces in the deck, in slot order.
``pos`` int64 (n,)
    ``pos[c]`` is the slot of ``c`` in ``deck``, or -1 when ``c`` is out.
``g`` float64 (n,)
    Invariant: ``g[c] == leader[c] + Σ_{j ∈ deck} R[c, j]`` for *every* c. The gain of
    swapping ``a`` (in) for ``b`` (out) is then ``g[b] - g[a] - R[a, b]`` in O(1).
``cc`` int64 (n_characters,)
    Pieces of each character in the deck.
``st`` int64 (2,)
    ``st[COST]`` total cost, ``st[ATTR]`` pieces with the attribute.

Rules: ``rules``, a :class:`~gameopt.deck._rule_arrays.RuleArrays` (costs and cap,
characters and their limits, attribute and its minimum, must-include locks).

References
----------
B. W. Kernighan and S. Lin, "An efficient heuristic procedure for partitioning graphs",
Bell System Technical Journal 49(2), 1970 (variable depth search).
I. Nagasawa, "Deck building as combinatorial optimisation" (DeNA engineering blog, 2020):
hill climbing whose move is a depth-3 search relaxing the cost cap by +10.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.deck._rule_arrays import ATTR, COST, RuleArrays

__all__ = ["init_state", "apply_swap", "kick", "local_search"]


@njit(cache=True, inline="always")
def _listed(arr, count, x):
    """True when ``x`` is among the first ``count`` entries of ``arr``."""
    for t in range(count):
        if arr[t] == x:
            return True
    return False


@njit(cache=True)
def init_state(R: np.ndarray, leader: np.ndarray, deck: np.ndarray, rules: RuleArrays
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return ``(pos, g, cc, st)`` for ``deck`` (O(n·size)).

    ``R`` float32 (n, n) symmetric, ``leader`` float32 (n,), ``deck`` int64 (size,).
    """
    n = R.shape[0]
    pos = np.full(n, -1, dtype=np.int64)
    g = leader.astype(np.float64).copy()
    cc = np.zeros(rules.n_char, dtype=np.int64)
    st = np.zeros(2, dtype=np.int64)
    for k in range(deck.shape[0]):
        j = deck[k]
        pos[j] = k
        cc[rules.char[j]] += 1
        st[COST] += rules.cost[j]
        st[ATTR] += rules.attr[j]
        for c in range(n):
            g[c] += R[j, c]  # R symmetric: read the contiguous row
    return pos, g, cc, st


@njit(cache=True)
def apply_swap(R: np.ndarray, a: int, b: int, deck: np.ndarray, pos: np.ndarray,
               g: np.ndarray, cc: np.ndarray, st: np.ndarray, rules: RuleArrays) -> None:
    """Swap ``a`` (in the deck) out and ``b`` in; O(n) for the gains. Undo: swap b, a."""
    k = pos[a]
    deck[k] = b
    pos[b] = k
    pos[a] = -1
    cc[rules.char[a]] -= 1
    cc[rules.char[b]] += 1
    st[COST] += rules.cost[b] - rules.cost[a]
    st[ATTR] += rules.attr[b] - rules.attr[a]
    for c in range(R.shape[0]):
        g[c] += np.float64(R[b, c]) - np.float64(R[a, c])  # rows, not columns


@njit(cache=True)
def _rules_ok(a: int, b: int, cap: int, cc: np.ndarray, st: np.ndarray,
              rules: RuleArrays) -> bool:
    """Swapping ``a`` out for ``b`` keeps every rule, with ``cap`` as the cost cap."""
    if rules.locked[a] != 0:
        return False
    if st[COST] - rules.cost[a] + rules.cost[b] > cap:
        return False
    char = rules.char
    if char[a] != char[b] and cc[char[b]] >= rules.climit[char[b]]:
        return False
    return st[ATTR] - rules.attr[a] + rules.attr[b] >= rules.amin


@njit(cache=True)
def _promising(need, rmin, slack, na, aa, pos, g, cost, ban_out, nban, cand):
    """Pieces out of the deck that can enter by a swap with gain > ``need``, into ``cand``.

    ``aa[:na]`` are the pieces that may leave, by ascending ``g``. A swap of ``a`` for
    ``b`` gains ``g[b] - g[a] - R[a, b] ≤ g[b] - g[aa[0]] - rmin`` with ``rmin ≤ min R``,
    so only ``b`` with ``g[b] > g[aa[0]] + need + rmin`` can qualify; and it keeps the
    cap only when ``cost[b] - cost[a] ≤ slack`` (cap minus the deck's cost) for some
    leaver a. Returns their count (in ascending index order). O(n + size).
    """
    if na == 0:
        return 0
    cmax = cost[aa[0]]
    for u in range(1, na):
        cmax = max(cmax, cost[aa[u]])
    cmax += slack
    thr = g[aa[0]] + need + rmin
    cnt = 0
    for b in range(g.shape[0]):
        if pos[b] < 0 and g[b] > thr and cost[b] <= cmax and not _listed(ban_out, nban, b):
            cand[cnt] = b
            cnt += 1
    return cnt


@njit(cache=True)
def _leavers(deck, g, locked, ban_in, nban, aa):
    """Pieces that may leave the deck (not locked, not banned) into ``aa``, by ascending
    ``g``; returns their count. O(size²) insertion sort (size ≤ a few dozen)."""
    na = 0
    for k in range(deck.shape[0]):
        a = deck[k]
        if locked[a] != 0 or _listed(ban_in, nban, a):
            continue
        u = na
        while u > 0 and g[aa[u - 1]] > g[a]:
            aa[u] = aa[u - 1]
            u -= 1
        aa[u] = a
        na += 1
    return na


@njit(cache=True)
def _scan(R, rmin, cap, need, deck, pos, g, cc, st, rules, ban_in, ban_out, nban, cand, aa):
    """Best swap with gain > ``need`` whose result keeps the rules with cost ≤ ``cap``.

    ``ban_in[:nban]`` may not leave, ``ban_out[:nban]`` may not come back (KL locking).
    Returns (gain, a, b); a = -1 when there is none. For each promising ``b`` the
    leaving pieces are tried by ascending ``g[a]`` and the loop stops once
    ``g[b] - g[a] - rmin`` (a bound on the gain) is no more than the best so far, so a
    weak ``b`` costs O(1). O(n + size·|promising|) at worst.
    """
    best = need
    ba = -1
    bb = -1
    na = _leavers(deck, g, rules.locked, ban_in, nban, aa)
    nc = _promising(need, rmin, cap - st[COST], na, aa, pos, g, rules.cost, ban_out, nban,
                    cand)
    for t in range(nc):
        b = cand[t]
        gb = g[b]
        for u in range(na):
            a = aa[u]
            if gb - g[a] - rmin <= best:
                break
            d = gb - g[a] - np.float64(R[a, b])
            if d <= best:
                continue
            if not _rules_ok(a, b, cap, cc, st, rules):
                continue
            best = d
            ba = a
            bb = b
    return best, ba, bb


@njit(cache=True)
def _collect(R, rmin, cap, need, width, ca, cb, cd, deck, pos, g, cc, st, rules, ban_in,
             ban_out, nban, cand, aa):
    """The ``width`` best swaps with gain > ``need`` under cost ≤ ``cap`` into ca/cb/cd
    (leaving pieces by ascending ``g`` with the early stop of :func:`_scan`)."""
    cnt = 0
    na = _leavers(deck, g, rules.locked, ban_in, nban, aa)
    nc = _promising(need, rmin, cap - st[COST], na, aa, pos, g, rules.cost, ban_out, nban,
                    cand)
    for t in range(nc):
        b = cand[t]
        gb = g[b]
        for u in range(na):
            a = aa[u]
            lim = need if cnt < width else max(need, cd[width - 1])
            if gb - g[a] - rmin <= lim:
                break
            d = gb - g[a] - np.float64(R[a, b])
            if d <= lim:
                continue
            if not _rules_ok(a, b, cap, cc, st, rules):
                continue
            i = cnt if cnt < width else width - 1  # insertion sort, best first
            while i > 0 and cd[i - 1] < d:
                ca[i] = ca[i - 1]
                cb[i] = cb[i - 1]
                cd[i] = cd[i - 1]
                i -= 1
            ca[i] = a
            cb[i] = b
            cd[i] = d
            if cnt < width:
                cnt += 1
    return cnt


@njit(cache=True)
def _vds_move(R, rmin, depth, relax, width, eps, deck, pos, g, cc, st, rules, cand, aa):
    """One VDS move; returns the number of swaps applied (0: local optimum).

    Level k is the state after k tentative swaps, whose score is ``acc[k]`` above the
    start. At each level the best swap that ends feasible and above the start is taken
    and the move ends. Otherwise, below ``depth``, the ``width`` best swaps that stay
    above the start with cost ≤ cap + relax are tried in turn (depth first), each
    undone on backtracking. Moved pieces are locked for the rest of the move.
    """
    ca = np.empty((depth, width), dtype=np.int64)
    cb = np.empty((depth, width), dtype=np.int64)
    cd = np.empty((depth, width), dtype=np.float64)
    cnt = np.zeros(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    ban_in = np.empty(depth, dtype=np.int64)
    ban_out = np.empty(depth, dtype=np.int64)
    acc = np.zeros(depth + 1, dtype=np.float64)
    level = 0
    expand = True
    while level >= 0:
        if expand:
            d, a, b = _scan(R, rmin, rules.cap, eps - acc[level], deck, pos, g, cc, st, rules,
                            ban_in, ban_out, level, cand, aa)
            if a >= 0:
                apply_swap(R, a, b, deck, pos, g, cc, st, rules)
                return level + 1
            cnt[level] = 0
            idx[level] = 0
            if level + 1 < depth:
                cnt[level] = _collect(R, rmin, rules.cap + relax, eps - acc[level], width,
                                      ca[level], cb[level], cd[level], deck, pos, g, cc, st,
                                      rules, ban_in, ban_out, level, cand, aa)
            expand = False
        if idx[level] < cnt[level]:
            i = idx[level]
            idx[level] += 1
            a = ca[level, i]
            b = cb[level, i]
            d = g[b] - g[a] - np.float64(R[a, b])
            apply_swap(R, a, b, deck, pos, g, cc, st, rules)
            ban_in[level] = b
            ban_out[level] = a
            acc[level + 1] = acc[level] + d
            level += 1
            expand = True
        else:
            level -= 1
            if level >= 0:  # undo the swap that led from this level
                apply_swap(R, ban_in[level], ban_out[level], deck, pos, g, cc, st, rules)
    return 0


@njit(cache=True)
def kick(R: np.ndarray, kick_a: np.ndarray, kick_b: np.ndarray, n_kick: int,
         deck: np.ndarray, pos: np.ndarray, g: np.ndarray, cc: np.ndarray, st: np.ndarray,
         rules: RuleArrays) -> None:
    """Random perturbation: for t in order, swap out ``deck[kick_a[t] % size]`` for
    ``kick_b[t]`` when that keeps every rule, until ``n_kick`` swaps were applied."""
    size = deck.shape[0]
    done = 0
    for t in range(kick_a.shape[0]):
        if done >= n_kick:
            break
        a = deck[kick_a[t] % size]
        b = kick_b[t]
        if pos[b] < 0 and _rules_ok(a, b, rules.cap, cc, st, rules):
            apply_swap(R, a, b, deck, pos, g, cc, st, rules)
            done += 1


@njit(cache=True)
def local_search(R: np.ndarray, rmin: float, leader: np.ndarray, deck0: np.ndarray,
                 rules: RuleArrays, depth: int, relax: int, width: int, eps: float,
                 kick_a: np.ndarray, kick_b: np.ndarray, n_kick: int, max_moves: int
                 ) -> tuple[np.ndarray, int, int]:
    """Hill climbing from ``deck0`` (feasible); returns ``(deck, moves, swaps)``.

    Optional kick first: for t in order, swap out ``deck[kick_a[t] % size]`` for
    ``kick_b[t]`` when that keeps every rule, until ``n_kick`` swaps were applied
    (iterated local search). Then each move is the *best-improvement* 1-swap, or, when
    none improves and ``depth > 1``, a VDS move (:func:`_vds_move`). ``depth == 1`` is
    plain 1-swap hill climbing. Each swap evaluation is O(1), a scan O(size·n), an
    applied swap O(n).
    """
    deck = deck0.copy()
    pos, g, cc, st = init_state(R, leader, deck, rules)
    kick(R, kick_a, kick_b, n_kick, deck, pos, g, cc, st, rules)
    moves = 0
    swaps = 0
    cand = np.empty(R.shape[0], dtype=np.int64)
    aa = np.empty(deck.shape[0], dtype=np.int64)
    while moves < max_moves:
        k = _vds_move(R, rmin, depth, relax, width, eps, deck, pos, g, cc, st, rules, cand, aa)
        if k == 0:
            break
        moves += 1
        swaps += k
    return deck, moves, swaps
