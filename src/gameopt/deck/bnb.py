"""Exact deck building by branch and bound (numba), seeded with the VDS incumbent.

Depth-first include/exclude search over the pieces ranked by their per-piece bound,
pruning a node when the Martí-Gallego-Duarte bound, tightened by a Lagrangian relaxation
of the cost cap, cannot beat the incumbent (see :mod:`gameopt.deck._bnb_kernel`). Every
rule is kept at the leaves; the bound relaxes the character limits and the attribute
minimum (a count check only), so it stays valid.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", European Journal of Operational Research 200(1), 2010.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.deck import _bnb_kernel as K
from gameopt.deck.build import build_deck
from gameopt.deck.exact import ExactDeck, upper_bound
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import deck_problems
from gameopt.errors import InvalidInputError, SolverError

__all__ = ["solve_bnb", "MAX_PIECES"]

MAX_PIECES = 4000  # the partner lists take 4·n² bytes
_BIG = 2**62
_CHUNK = 200_000  # nodes between time checks


@dataclass
class _Data:
    """The problem re-indexed in branching order (must-include pieces first)."""

    order: npt.NDArray[np.int64]
    R: npt.NDArray[np.float64]
    P: npt.NDArray[np.int32]
    leader: npt.NDArray[np.float64]
    cost: npt.NDArray[np.int64]
    cap: int
    char: npt.NDArray[np.int64]
    climit: npt.NDArray[np.int64]
    attr: npt.NDArray[np.int64]
    amin: int
    n_must: int


def _data(p: DeckProblem) -> _Data:
    n, k = p.n, p.size
    R = p.R.astype(np.float64)
    L = np.zeros(n) if p.leader_scores is None else p.leader_scores.astype(np.float64)
    A = R.copy()
    np.fill_diagonal(A, -np.inf)
    top = (np.zeros(n) if k <= 1
           else np.partition(A, n - (k - 1), axis=1)[:, n - (k - 1):].sum(axis=1))
    strength = L + 0.5 * top
    must = np.zeros(n, dtype=bool)
    must[list(p.must)] = True
    rest = np.flatnonzero(~must)
    order = np.concatenate([np.asarray(p.must, dtype=np.int64),
                            rest[np.argsort(-strength[rest], kind="stable")]]).astype(np.int64)
    Ro = np.ascontiguousarray(R[np.ix_(order, order)])
    if p.character is None:
        char = np.arange(n, dtype=np.int64)
        climit = np.full(n, _BIG, dtype=np.int64)
    else:
        used, inv = np.unique(p.character[order], return_inverse=True)
        char = inv.astype(np.int64)
        climit = p.char_limits()[used]
    return _Data(order, Ro, np.argsort(-Ro, axis=1, kind="stable").astype(np.int32),
                 L[order], np.zeros(n, np.int64) if p.cost is None
                 else p.cost[order].astype(np.int64),
                 _BIG if p.cost_cap is None else int(p.cost_cap), char, climit,
                 np.zeros(n, np.int64) if p.attribute is None
                 else (p.attribute[order] != 0).astype(np.int64),
                 int(p.attribute_min), len(p.must))


def _incumbent(p: DeckProblem, hint: Sequence[int] | None, seed: int | None) -> list[int]:
    if hint is not None:
        deck = [int(i) for i in hint]
        bad = deck_problems(p, deck)
        if bad:
            raise InvalidInputError("solve_bnb: hint breaks the rules: " + "; ".join(bad))
        return deck
    return list(build_deck(p, "vds", seed=seed).deck)


def solve_bnb(problem: DeckProblem, *, time_limit: float = 60.0,
              hint: Sequence[int] | None = None, seed: int | None = 0) -> ExactDeck:
    """Best deck by branch and bound, with a proof of optimality or a valid gap.

    Parameters
    ----------
    problem : DeckProblem
    time_limit : float
        CPU seconds for the search (checked every 200,000 nodes), VDS hint excluded.
    hint : sequence of int, optional
        A feasible deck, the first incumbent; default: a VDS deck.
    seed : int or None
        Seed of the VDS run that gives the default incumbent.

    Returns
    -------
    ExactDeck
        ``proven`` when the search finished: no deck scores more than ``score`` plus
        ``1e-9·max(1, |score|)`` (float64 arithmetic). Otherwise ``upper_bound`` is the
        largest bound among the open nodes (capped by
        :func:`~gameopt.deck.exact.upper_bound`).

    Raises
    ------
    InfeasibleError
        When no deck keeps the rules (from the VDS checks).
    InvalidInputError
        A hint that breaks the rules, a bad time limit, or more than ``MAX_PIECES``
        pieces.

    Notes
    -----
    A node costs O(|U|·(r + skipped partners)) for the bound, plus an O(n) update when a
    piece is added; the tree is exponential in the worst case. Memory O(n²).
    """
    if not time_limit > 0:
        raise InvalidInputError(f"solve_bnb: time_limit must be > 0, got {time_limit!r}")
    if problem.n > MAX_PIECES:
        raise InvalidInputError(f"solve_bnb: {problem.n} pieces, at most {MAX_PIECES}")
    t0 = time.process_time()
    deck0 = _incumbent(problem, hint, seed)
    t1 = time.process_time()
    d = _data(problem)
    n, k = problem.n, problem.size
    where = np.empty(n, dtype=np.int64)
    where[d.order] = np.arange(n)
    best = np.sort(where[deck0]).astype(np.int64)
    score0 = deck_score(problem, deck0)
    nodes, st, fs, fb = _run(d, k, best, score0, t1, time_limit)
    deck = sorted(int(i) for i in d.order[best])
    bad = deck_problems(problem, deck)
    if bad:
        raise SolverError("solve_bnb: deck breaks the rules: " + "; ".join(bad))
    score = deck_score(problem, deck)
    proven = st[3] == -1
    if proven:
        ub = score + float(fs[2])
    else:  # frame 0's node holds every open node; frame j < top covers frame j + 1
        top = int(st[3])
        ub = min(upper_bound(problem), max(score, float(fb[0] if top == 0 else fb[:top].max())))
    return ExactDeck(tuple(deck), score, bool(proven), ub,
                     (ub - score) / max(abs(score), 1e-9), time.process_time() - t0,
                     nodes=nodes)


def _run(d: _Data, k: int, best: npt.NDArray[np.int64], score0: float, t1: float,
         time_limit: float) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float64],
                                     npt.NDArray[np.float64]]:
    """Set up the root (the must-include pieces chosen) and search in chunks."""
    g = d.leader.copy()
    cc = np.zeros(int(d.char.max(initial=0)) + 1, dtype=np.int64)
    st = np.zeros(5, dtype=np.int64)
    fs = np.array([0.0, score0, 1e-9 * max(1.0, abs(score0))])
    chosen = np.zeros(k, dtype=np.int64)
    for t in range(d.n_must):
        K._add(d.R, t, g, cc, st, fs, chosen, d.cost, d.char, d.attr)
    fp = np.zeros(k + 2, dtype=np.int64)
    fph = np.zeros(k + 2, dtype=np.int64)
    fb = np.full(k + 2, -np.inf)
    fz = np.zeros(k + 2)
    fk = np.zeros(k + 2, dtype=np.int64)
    dead = np.full(len(g), -1, dtype=np.int64)
    kst = np.zeros(len(g), dtype=np.int64)
    fp[0] = d.n_must
    st[3] = 0
    nodes = 0
    while st[3] >= 0:
        nodes += int(K.search(d.R, d.P, k, d.cost, d.cap, d.char, d.climit, d.attr, d.amin,
                              g, cc, st, fs, chosen, best, fp, fph, fb, fz, fk, dead, kst,
                              _CHUNK))
        if time.process_time() - t1 >= time_limit:
            break
    return nodes, st, fs, fb


def _bound_reference(d: _Data, p: int, k: int, g: list[float], cc: dict[int, int],
                     size: int, used: int, have: int, z: float, best: float,
                     tol: float, dead: set[int], killed: list[int]) -> float:
    """Plain-Python :func:`gameopt.deck._bnb_kernel.bound` (same arithmetic order): adds
    the pieces it fixes out to ``dead`` and ``killed``."""
    n = d.R.shape[0]
    r = k - size
    if r == 0:
        return z
    budget = d.cap - used
    thr = best + tol

    def blocked(u: int) -> bool:
        ch = int(d.char[u])
        return (u in dead or int(d.cost[u]) > budget
                or cc.get(ch, 0) >= int(d.climit[ch]))

    def top(vals: list[float], costs: list[int], r: int) -> tuple[float, int]:
        chosen = sorted(range(len(vals)), key=lambda t: -vals[t])[:r]  # stable: ties first
        tot = 0.0
        for t in chosen:
            tot += vals[t]
        return tot, sum(costs[t] for t in chosen)

    bnd = -np.inf
    for rnd in range(K._FIX_ROUNDS + 1):
        hs: list[float] = []
        costs: list[int] = []
        pieces: list[int] = []
        n_attr = 0
        for t in range(p, n):
            if blocked(t):
                continue
            vals = sorted((float(d.R[t, u]) for u in range(p, n)
                           if u != t and not blocked(u)), reverse=True)[: r - 1]
            if len(vals) < r - 1:
                return -np.inf
            s = 0.0
            for v in vals:
                s += v
            hs.append(g[t] + 0.5 * s)
            costs.append(int(d.cost[t]))
            pieces.append(t)
            n_attr += int(d.attr[t])
        if len(hs) < r or d.amin - have > min(r, n_attr):
            return -np.inf
        tot, c0 = top(hs, costs, r)
        bnd, lam_best = z + tot, 0.0
        if c0 > budget and bnd > thr:  # Lagrangian relaxation of the cost cap
            lo, hi = 0.0, max(hs) - min(hs) + 1.0
            for _ in range(K._LAMBDA_STEPS):
                lam = 0.5 * (lo + hi)
                tot, c = top([hs[t] - lam * costs[t] for t in range(len(hs))], costs, r)
                if z + lam * budget + tot < bnd:
                    bnd, lam_best = z + lam * budget + tot, lam
                if bnd <= thr:
                    break
                if c > budget:
                    lo = lam
                else:
                    hi = lam
        if bnd <= thr or rnd == K._FIX_ROUNDS:
            return bnd
        w = [hs[t] - lam_best * costs[t] for t in range(len(hs))]
        rest = top(w, costs, r - 1)[0] if r > 1 else 0.0
        base = z + lam_best * budget + rest
        out = [pieces[t] for t in range(len(hs)) if base + w[t] <= thr]
        if not out:
            return bnd
        dead.update(out)
        killed.extend(out)
    return bnd


def _search_reference(d: _Data, k: int, score0: float) -> tuple[float, list[int], int]:
    """Plain-Python, recursive twin of :func:`gameopt.deck._bnb_kernel.search` for the
    tests: (best score, best deck in branching indices or [] if none beats ``score0``,
    nodes)."""
    n = d.R.shape[0]
    tol = 1e-9 * max(1.0, abs(score0))
    best, best_deck, nodes = score0, list[int](), 0
    g = [float(x) for x in d.leader]
    cc: dict[int, int] = {}
    chosen: list[int] = []
    dead: set[int] = set()

    def add(t: int, sign: int) -> None:
        ch = int(d.char[t])
        cc[ch] = cc.get(ch, 0) + sign
        for c in range(t + 1, n):
            g[c] += sign * float(d.R[t, c])

    def rec(p: int, z: float, used: int, have: int) -> None:
        """The node (chosen, p); pieces it fixes out stay dead in its subtree."""
        nonlocal best, best_deck, nodes
        nodes += 1
        if len(chosen) == k:
            if z > best and have >= d.amin:
                best, best_deck = z, list(chosen)
            return
        if n - p < k - len(chosen):
            return
        killed: list[int] = []
        bnd = _bound_reference(d, p, k, g, cc, len(chosen), used, have, z, best, tol,
                               dead, killed)
        if bnd > best + tol:
            ch = int(d.char[p])
            if (p not in dead and int(d.cost[p]) <= d.cap - used
                    and cc.get(ch, 0) < int(d.climit[ch])):
                zt = z + g[p]
                chosen.append(p)
                add(p, 1)
                rec(p + 1, zt, used + int(d.cost[p]), have + int(d.attr[p]))
                add(p, -1)
                chosen.pop()
            rec(p + 1, z, used, have)
        dead.difference_update(killed)

    z0 = 0.0
    for t in range(d.n_must):
        z0 += g[t]
        chosen.append(t)
        add(t, 1)
    rec(d.n_must, z0, int(d.cost[: d.n_must].sum()), int(d.attr[: d.n_must].sum()))
    return best, best_deck, nodes
