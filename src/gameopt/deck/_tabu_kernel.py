"""numba kernel of the deck tabu search (swap neighbourhood, iterated by the caller).

Same state and rule arrays as :mod:`gameopt.deck._vds_kernel` (``deck``, ``pos``, ``g``,
``cc``, ``st``; ``g[c] == leader[c] + Σ_{j ∈ deck} R[c, j]`` for every c, so a swap of
``a`` out for ``b`` in gains ``g[b] - g[a] - R[a, b]`` in O(1)).

Tabu state: ``until`` int64 (n,). After ``a`` leaves and ``b`` enters at iteration ``it``,
``until[a] = it + t_out`` (``a`` may not come back before then) and
``until[b] = it + t_in`` (``b`` may not leave before then). A tabu swap is still taken
when it gives a deck better than the best of the run (aspiration; full scan only).

With no rule but the size (and must-include locks), the scan is restricted to the
*constrained neighbourhood* of Wang et al.: with ``lo`` the smallest gain in the deck and
``hi`` the largest outside (both over non-tabu pieces) and ``spread = max R - min R``,
any swap at least as good as the best one satisfies ``g[a] ≤ lo + spread`` and
``g[b] ≥ hi - spread``, so only those pairs are evaluated; the best move is unchanged.

References
----------
F. Glover, "Tabu search — part I", ORSA Journal on Computing 1(3), 1989.
G. Palubeckis, "Iterated tabu search for the maximum diversity problem", Applied
Mathematics and Computation 189(1), 2007.
Y. Wang, J.-K. Hao, F. Glover, Z. Lü, "A tabu search based memetic algorithm for the
maximum diversity problem", Engineering Applications of AI 27, 2014 (constrained swaps).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.deck._rule_arrays import RuleArrays
from gameopt.deck._vds_kernel import _rules_ok, apply_swap, init_state, kick

__all__ = ["tabu_search"]


@njit(cache=True)
def _constrained_move(R, spread, it, until, deck, pos, g, locked, rng, out_idx, in_idx):
    """Best non-tabu swap within the constrained neighbourhood (random tie-break).

    Returns (gain, a, b); a = -1 when no non-tabu swap exists.
    """
    n = R.shape[0]
    lo = np.inf
    for k in range(deck.shape[0]):
        a = deck[k]
        if locked[a] == 0 and until[a] <= it and g[a] < lo:
            lo = g[a]
    hi = -np.inf
    for b in range(n):
        if pos[b] < 0 and until[b] <= it and g[b] > hi:
            hi = g[b]
    if lo == np.inf or hi == -np.inf:
        return 0.0, -1, -1
    na = 0
    for k in range(deck.shape[0]):
        a = deck[k]
        if locked[a] == 0 and until[a] <= it and g[a] <= lo + spread:
            out_idx[na] = a
            na += 1
    nb = 0
    for b in range(n):
        if pos[b] < 0 and until[b] <= it and g[b] >= hi - spread:
            in_idx[nb] = b
            nb += 1
    best = -np.inf
    ba = -1
    bb = -1
    ties = 0
    for i in range(na):
        a = out_idx[i]
        ga = g[a]
        for j in range(nb):
            b = in_idx[j]
            d = g[b] - ga - np.float64(R[a, b])
            if d > best:
                best = d
                ba = a
                bb = b
                ties = 1
            elif d == best:
                ties += 1
                if rng.integers(0, ties) == 0:
                    ba = a
                    bb = b
    return best, ba, bb


@njit(cache=True)
def _full_move(R, it, until, cur, best_score, eps, deck, pos, g, cc, st, rules, rng):
    """Best swap keeping the rules, tabu unless it beats ``best_score`` (random tie-break)."""
    n = R.shape[0]
    best = -np.inf
    ba = -1
    bb = -1
    ties = 0
    for k in range(deck.shape[0]):
        a = deck[k]
        if rules.locked[a] != 0:
            continue
        ga = g[a]
        ta = until[a] > it
        for b in range(n):
            if pos[b] >= 0:
                continue
            d = g[b] - ga - np.float64(R[a, b])
            if d < best:
                continue
            if (ta or until[b] > it) and cur + d <= best_score + eps:
                continue
            if not _rules_ok(a, b, rules.cap, cc, st, rules):
                continue
            if d > best:
                best = d
                ba = a
                bb = b
                ties = 1
            else:
                ties += 1
                if rng.integers(0, ties) == 0:
                    ba = a
                    bb = b
    return best, ba, bb


@njit(cache=True)
def tabu_search(R: np.ndarray, leader: np.ndarray, deck0: np.ndarray, rules: RuleArrays,
                kick_a: np.ndarray, kick_b: np.ndarray, n_kick: int, free: bool,
                spread: float, max_stall: int, t_base: int, t_rand: int,
                rng: np.random.Generator, target: float, eps: float
                ) -> tuple[np.ndarray, float, int]:
    """Tabu search from ``deck0`` (feasible), after an optional kick (as in
    :func:`~gameopt.deck._vds_kernel.local_search`), until ``max_stall`` swaps bring no
    new best.

    Parameters (beyond ``R``, ``leader``, ``rules`` and the kick, as in ``local_search``)
    -----------------------------------------------------------------------------------
    free : bool
        True when only the size rule (and locks) apply: use the constrained neighbourhood.
    spread : float
        ``max R - min R`` over off-diagonal entries (for the constrained neighbourhood).
    max_stall : int
        Iterations without improving the best deck of this run before it ends.
    t_base, t_rand : int
        ``t_out = t_base + U{0..t_rand}`` and ``t_in = ⌈0.7·t_out⌉`` per move, capped
        at a third of the pieces out of the deck and of the movable pieces in it.
    rng : numpy.random.Generator
        Tie-breaks and tenures.
    target : float
        Stop once the best score reaches it (``-inf``: never).

    Returns
    -------
    best : ndarray of int64, shape (size,)
    best_score : float
        Tracked incrementally (the caller recomputes it exactly).
    iters : int
        Swaps made.

    Notes
    -----
    One iteration: O(n) for the constrained scan (plus the product of the two candidate
    lists) or O(size·n) for the full one, and O(n) to apply the swap.
    """
    deck = deck0.copy()
    pos, g, cc, st = init_state(R, leader, deck, rules)
    kick(R, kick_a, kick_b, n_kick, deck, pos, g, cc, st, rules)
    n = R.shape[0]
    cur = 0.0
    for k in range(deck.shape[0]):
        cur += 0.5 * (g[deck[k]] + np.float64(leader[deck[k]]))
    best_deck = deck.copy()
    best_score = cur
    until = np.zeros(n, dtype=np.int64)
    out_idx = np.empty(deck.shape[0], dtype=np.int64)
    in_idx = np.empty(n, dtype=np.int64)
    # Tenures stay below a third of the pieces out / movable in, so moves remain
    cap_out = max(1, (n - deck.shape[0]) // 3)
    movable = 0
    for k in range(deck.shape[0]):
        movable += rules.locked[deck[k]] == 0
    cap_in = max(1, movable // 3)
    it = 0
    stall = 0
    while stall < max_stall and best_score < target:
        it += 1
        a = -1
        if free:
            d, a, b = _constrained_move(R, spread, it, until, deck, pos, g, rules.locked,
                                        rng, out_idx, in_idx)
        if a < 0:  # rules, or every constrained swap tabu
            d, a, b = _full_move(R, it, until, cur, best_score, eps, deck, pos, g, cc, st,
                                 rules, rng)
        if a < 0:
            break
        apply_swap(R, a, b, deck, pos, g, cc, st, rules)
        cur += d
        t_out = min(t_base + rng.integers(0, t_rand + 1), cap_out)
        until[a] = it + t_out
        until[b] = it + min((7 * t_out + 9) // 10, cap_in)
        if cur > best_score + eps:
            best_score = cur
            best_deck[:] = deck
            stall = 0
        else:
            stall += 1
    return best_deck, best_score, it
