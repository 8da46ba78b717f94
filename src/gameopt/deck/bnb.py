"""Exact deck building by branch and bound (numba), seeded with the VDS incumbent.

Depth-first include/exclude search over the pieces ranked by their per-piece bound,
pruning a node when the Martí-Gallego-Duarte bound, tightened by a Lagrangian relaxation
of the cost cap, or a Russian-doll bound cannot beat the incumbent, and fixing out pieces
whose own bound cannot (see :mod:`gameopt.deck._bnb_kernel`). The Russian-doll table
holds, for every suffix of the branching order and every r up to ``k - 4``, the best
``pairs - μ·cost`` of r of its pieces, built from the last piece back by the same search
(Östergård's idea for cliques), with a cost price μ chosen by a Lagrangian-dual estimate.
Every rule is kept at the leaves; the bounds relax the character limits and the attribute
minimum (a count check only), so they stay valid.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", European Journal of Operational Research 200(1), 2010.
P. R. J. Östergård, "A fast algorithm for the maximum clique problem", Discrete Applied
Mathematics 120, 2002 (the Russian-doll table).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.progress import Progress, ProgressCallback, Throttle
from gameopt.core.stop import StopRule
from gameopt.deck import _bnb_kernel as bnb_kernel
from gameopt.deck._bnb_kernel import BEST, DONE, TOL, TOP
from gameopt.deck._rule_arrays import NO_CAP, RuleArrays
from gameopt.deck.build import build_deck, fitting_pieces, restrict, start_deck
from gameopt.deck.exact import _top_row_sums, upper_bound
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.reduce import reduce_pieces
from gameopt.deck.result import DeckResult
from gameopt.deck.verify import deck_problems
from gameopt.errors import InvalidInputError, SolverError

__all__ = ["solve_bnb", "MAX_PIECES"]

MAX_PIECES = 4000  # the partner lists take 4·n² bytes
_CHUNK = 200_000  # nodes between time checks at n = 100 (fewer for larger n: _chunk)
_QUICK = 0.01  # share of the time limit tried without the table (easy cases end there)
_QUICK_NO_LIMIT = 0.6  # seconds tried without the table when there is no time limit
_REDUCE_FROM = 8  # reduce (tight caps only) problems of more than this many pieces per slot
_REDUCE_SHARE = 0.25  # share of the time left after the hint that the reduction may use


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

    @property
    def rules(self) -> RuleArrays:
        """The rules in branching order, as the kernel takes them."""
        n = self.R.shape[0]
        zero = np.zeros(n, dtype=np.int64)
        return RuleArrays(self.cost, self.cap, self.char, int(self.char.max(initial=0)) + 1,
                          self.climit, self.attr, self.amin, zero, zero)


def _data(p: DeckProblem) -> _Data:
    n, k = p.n, p.size
    R = p.R.astype(np.float64)
    L = np.zeros(n) if p.leader_scores is None else p.leader_scores.astype(np.float64)
    top = np.zeros(n) if k <= 1 else _top_row_sums(R, k - 1)
    strength = L + 0.5 * top
    must = np.zeros(n, dtype=bool)
    must[list(p.must)] = True
    rest = np.flatnonzero(~must)
    order = np.concatenate([np.asarray(p.must, dtype=np.int64),
                            rest[np.argsort(-strength[rest], kind="stable")]]).astype(np.int64)
    Ro = np.ascontiguousarray(R[np.ix_(order, order)])
    if p.character is None:
        char = np.arange(n, dtype=np.int64)
        climit = np.full(n, NO_CAP, dtype=np.int64)
    else:
        used, inv = np.unique(p.character[order], return_inverse=True)
        char = inv.astype(np.int64)
        climit = p.char_limits()[used]
    return _Data(order, Ro, np.argsort(-Ro, axis=1, kind="stable").astype(np.int32),
                 L[order], np.zeros(n, np.int64) if p.cost is None
                 else p.cost[order].astype(np.int64),
                 NO_CAP if p.cost_cap is None else int(p.cost_cap), char, climit,
                 np.zeros(n, np.int64) if p.attribute is None
                 else (p.attribute[order] != 0).astype(np.int64),
                 int(p.attribute_min), len(p.must))


class _Clock:
    """The budget of one search: the run's stop rule (started before the incumbent) and
    the progress callback."""

    def __init__(self, rule: StopRule, progress: ProgressCallback | None) -> None:
        self.rule = rule
        self.progress = None if progress is None else Throttle(progress)

    def past(self, seconds: float) -> bool:
        """True once ``seconds`` are used (on the rule's clock), or a stop was requested."""
        return self.rule.stop_requested or self.rule.elapsed() >= seconds

    def over(self) -> bool:
        """True once the whole time limit is used, or a stop was requested."""
        return self.rule.stop_requested or self.rule.deadline.expired()

    def report(self, task: str, done: int, total: int | None, best: float | None,
               **info: object) -> None:
        if self.progress is not None:
            self.progress(Progress(task, done, total, best, dict(info)))


def solve_bnb(problem: DeckProblem, *, limit: Limit | None = None,
              hint: Sequence[int] | None = None, seed: int | None = 0,
              table: bool = True, reduce: bool = True,
              progress: ProgressCallback | None = None) -> DeckResult:
    """Best deck by branch and bound, with a proof of optimality or a valid gap.

    Parameters
    ----------
    problem : DeckProblem
    limit : Limit, optional
        ``time``: seconds on ``clock`` (CPU when no time is given) for the whole run, the
        VDS hint included; the search kernels poll a stop flag that a watchdog sets at
        the deadline (:meth:`~gameopt.core.stop.StopRule.watch`), so they stop within
        one node of it. ``stop``: an outside request, seen the same way. No time: until
        proven.
    hint : sequence of int, optional
        A feasible deck, the first incumbent; default: a VDS deck.
    seed : int or None
        Seed of the VDS run that gives the default incumbent.
    table : bool
        When the search without it has not finished within ``_QUICK`` of the time limit
        (``_QUICK_NO_LIMIT`` seconds without one), build the Russian-doll table
        (:func:`_table`, until half the time limit) and search again with both bounds,
        from the incumbent found.
    reduce : bool
        Under a tight cost cap (spare excess cost ≤
        :data:`~gameopt.deck.reduce.MAX_EXCESS`) and more than ``_REDUCE_FROM`` pieces per
        deck slot, first drop the pieces that the quadratic-knapsack bound shows to be in
        no deck better than the incumbent (:func:`~gameopt.deck.reduce.reduce_pieces`,
        until a quarter of the time left after the hint), and search the rest.
    progress : ProgressCallback, optional
        Told after each chunk of nodes: task ``"bnb table"`` (done/total: rows of the
        table) and ``"bnb"`` (done: nodes; best: the incumbent's score).

    Returns
    -------
    DeckResult
        ``seconds`` on the limit's clock, the VDS hint included
        (``stats["hint_seconds"]``); ``stats["nodes"]`` search nodes (the table's
        included); ``stats["fitting"]`` the pieces that fit some deck under the cost cap
        (:func:`~gameopt.deck.build.fitting_pieces`), ``stats["searched"]`` those left
        after the reduction (``stats["reduce_steps"]``, ``stats["reduce_bound"]``). ``proven`` when
        the search finished: no deck scores more than ``score`` plus
        ``1e-9·max(1, |score|)`` (float64 arithmetic). Otherwise ``bound`` is the largest
        bound among the open nodes (:func:`~gameopt.deck.exact.upper_bound` when stopped
        before the root's bound), or the reduction's bound when smaller.

    Raises
    ------
    InfeasibleError
        When no deck keeps the rules (from the VDS checks).
    InvalidInputError
        A hint that breaks the rules, or more than ``MAX_PIECES`` pieces.

    Notes
    -----
    A node costs O(|U|·(r + skipped partners)) for the bound, plus an O(n) update when a
    piece is added; the tree is exponential in the worst case. Memory O(n²).
    """
    if problem.n > MAX_PIECES:
        raise InvalidInputError(f"solve_bnb: {problem.n} pieces, at most {MAX_PIECES}")
    limit = limit if limit is not None else Limit(clock="cpu")
    if limit.time is None and limit.clock != "cpu":
        limit = dataclasses.replace(limit, clock="cpu")
    whole = limit.start()
    deck0 = start_deck(problem, hint, seed=seed, restarts=16, where="solve_bnb",
                       limit=dataclasses.replace(limit, stop=whole.flag))
    hint_seconds = whole.elapsed()
    # Pieces that fit no deck under the cost cap are left out (the same best deck)
    keep = fitting_pieces(problem)
    fitting = len(keep)
    full = problem
    if len(keep) < problem.n and set(deck0) <= set(keep.tolist()):
        problem = restrict(problem, keep)
        new = np.full(full.n, -1, dtype=np.int64)
        new[keep] = np.arange(len(keep))
        deck0 = [int(new[i]) for i in deck0]
    else:
        keep = np.arange(full.n, dtype=np.int64)
    clock = _Clock(whole, progress)
    total = np.inf if limit.time is None else limit.time
    score0 = deck_score(problem, deck0)
    red = None
    if reduce and problem.n > _REDUCE_FROM * problem.size:
        # a tight cap: the quadratic-knapsack bound rules pieces out first
        red_end = hint_seconds + _REDUCE_SHARE * (total - hint_seconds)
        red = reduce_pieces(problem, deck0, score0, stop=lambda: clock.past(red_end))
        if red is not None and len(red.keep) < problem.n:
            problem = restrict(problem, red.keep)
            new = np.full(len(keep), -1, dtype=np.int64)
            new[red.keep] = np.arange(len(red.keep))
            deck0 = [int(new[i]) for i in deck0]
            keep = keep[red.keep]
    d = _data(problem)
    n, k = problem.n, problem.size
    where = np.empty(n, dtype=np.int64)
    where[d.order] = np.arange(n)
    best = np.sort(where[deck0]).astype(np.int64)
    no_table = np.full((n + 1, k + 1), np.inf)
    # phases end on the run's clock, after the hint: the quick search (its first chunk
    # always runs, up to the whole limit), then the table until half the time left
    quick = (total if not table else hint_seconds + (_QUICK * total if limit.time is not None
                                                     else _QUICK_NO_LIMIT))
    table_end = hint_seconds + 0.5 * (total - hint_seconds)
    with whole.watch() as flag:  # the kernels poll it: stopped on time, not after a chunk
        nodes, st, fs, fb = _run(d, k, best, score0, clock, quick, no_table, flag.array,
                                 reported=0)
        if st[TOP] >= 0 and table and not clock.rule.stop_requested:
            # not easy: build the table, search again from the incumbent
            mu = _mu(problem, seed)
            V, table_nodes = _table(d, k, clock, table_end, flag.array, mu)
            more, st, fs, fb = _run(d, k, best, float(fs[BEST]), clock, total, V,
                                    flag.array, mu, reported=nodes + table_nodes)
            nodes += table_nodes + more
    deck = sorted(int(keep[i]) for i in d.order[best])
    bad = deck_problems(full, deck)
    if bad:
        raise SolverError("solve_bnb: deck breaks the rules: " + "; ".join(bad))
    score = deck_score(full, deck)
    proven = st[TOP] == DONE
    if proven:
        ub = score + float(fs[TOL])
    else:  # frame 0's node holds every open node; frame j < top covers frame j + 1
        top = int(st[TOP])
        open_bound = float(fb[0] if top == 0 else fb[:top].max())
        if top == 0 and open_bound == -np.inf:  # stopped before the root's bound:
            open_bound = upper_bound(problem)  # O(n²), so only then (past the limit)
        ub = max(score, open_bound)
        if red is not None:  # valid for the whole problem, the dropped pieces too
            ub = min(ub, red.bound)
        ub = max(ub, score)  # rounding only: both bounds are valid and the deck keeps the rules
    cost = 0 if full.cost is None else int(full.cost[deck].sum())
    stats: dict[str, Any] = {"nodes": nodes, "hint_seconds": hint_seconds,
                             "fitting": fitting, "searched": len(keep)}
    if red is not None:
        stats["reduce_steps"] = red.steps
        stats["reduce_bound"] = red.bound
    if not proven:
        stats["stop"] = clock.rule.reason() or "time"
    return DeckResult(tuple(deck), score, cost, "bnb", whole.elapsed(), whole.clock,
                      bool(proven), ub, stats)


def _chunk(n: int) -> int:
    """Nodes between two time checks: a node costs about O(n·k), so fewer for large n."""
    # (n = 1000: a 200,000-node chunk ran 30 CPU s past a table's deadline)
    return max(1, min(_CHUNK, _CHUNK * 100 // max(n, 1)))


def _table_r(k: int) -> int:
    """Largest r of the table: its last columns cost the most and tighten little."""
    # Measured on random dense scores, deck 15, table + search CPU s on a loaded machine:
    # n = 80, r <= 13: 31.7 + 26.2, r <= 12: 12.5 + 28.9, r <= 11: 4.8 + 31.2; n = 100,
    # r <= 12: 20.5 + 14.8, r <= 11: 9.2 + 25.6; n = 60, r <= 10 without the cost price:
    # 0.4 + 6.8.
    return max(1, k - 4)


def _mu(p: DeckProblem, seed: int | None) -> float:
    """A cost price μ for the table: the grid value whose estimate of the Lagrangian dual
    ``μ·cap + max_T (pairs(T) - μ·cost(T))`` (the max by VDS on the cardinality rule only)
    is least. Any μ ≥ 0 keeps the bounds valid; a good one tightens them."""
    if p.cost is None or p.cost_cap is None or p.n <= p.size:
        return 0.0
    cost = p.cost.astype(np.float64)
    scale = float(np.abs(p.R).mean()) * (p.size - 1) / max(float(cost.mean()), 1e-9)
    best_mu, best_d = 0.0, np.inf
    for f in (0.0, 0.05, 0.1, 0.2, 0.3, 0.5):
        mu = f * scale
        q = DeckProblem(p.R, p.size, leader_scores=(-mu * cost).astype(np.float32))
        deck = build_deck(q, "vds", seed=seed).deck
        est = mu * p.cost_cap + deck_score(q, deck)
        if est < best_d:
            best_mu, best_d = mu, est
    return best_mu


def _state(n: int, k: int, n_char: int, score0: float, tol: float
           ) -> tuple[npt.NDArray[Any], ...]:
    """Fresh search state: g, cc, st, fs, chosen, fp, fph, fb, fz, fk, dead, kst."""
    return (np.zeros(n), np.zeros(n_char, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.array([0.0, score0, tol]), np.zeros(k, dtype=np.int64),
            np.zeros(k + 2, dtype=np.int64), np.zeros(k + 2, dtype=np.int64),
            np.full(k + 2, -np.inf), np.zeros(k + 2), np.zeros(k + 2, dtype=np.int64),
            np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64))


def _table(d: _Data, k: int, clock: _Clock, seconds: float, flag: npt.NDArray[np.uint8],
           mu: float = 0.0, max_r: int | None = None) -> tuple[npt.NDArray[np.float64], int]:
    """Russian-doll table ``V[p, r]``: the largest ``pairs(T) - mu·cost(T)`` over r pieces
    T of ``{p, ..., n-1}`` (rules relaxed, leader scores left out) for r ≤ ``max_r``
    (default TABLE_R(k)), plus a 1e-12 relative margin for rounding; ``+inf`` where
    unknown (larger r, and rows not reached within ``seconds`` of ``clock``).

    Built from the last piece back, as Östergård's clique algorithm does: the row of p is
    the row of p + 1, improved where a set containing p beats it, found by the same
    branch and bound with the rows already built. Returns (V, nodes).
    """
    n = d.R.shape[0]
    V = np.full((n + 1, k + 1), np.inf)
    for p in range(n + 1):
        V[p, 0] = 0.0
        if p < n:
            V[p, 1] = -mu * float(d.cost[p:].min())
        V[p, n - p + 1:] = -np.inf
    zero = np.zeros(n, dtype=np.int64)
    if max_r is None:
        max_r = _table_r(k)
    char = np.arange(n, dtype=np.int64)
    climit = np.full(n, NO_CAP, dtype=np.int64)
    # The rules relaxed to the size: costs only priced (mu), the first piece added free
    relaxed = RuleArrays(d.cost, NO_CAP, char, n, climit, zero, 0, zero, zero)
    first = relaxed._replace(cost=zero)
    nodes = 0
    for i in range(n - 2, d.n_must - 1, -1):
        for j in range(2, min(max_r, n - i) + 1):
            inc = float(V[i + 1, j])
            g, cc, st, fs, chosen, fp, fph, fb, fz, fk, dead, kst = _state(n, j, n, inc, 0.0)
            g[:] = -mu * d.cost
            bnb_kernel._add(d.R, i, g, cc, st, fs, chosen, first)
            fp[0] = i + 1
            best = np.zeros(j, dtype=np.int64)
            while st[TOP] >= 0:
                nodes += int(bnb_kernel.search(d.R, d.P, V, mu, j, relaxed, g, cc, st, fs,
                                               chosen, best, fp, fph, fb, fz, fk, dead, kst,
                                               _chunk(n), flag))
                if st[TOP] >= 0 and clock.past(seconds):
                    V[i, j:max_r + 1] = np.inf
                    return V, nodes
            v = float(fs[BEST])
            V[i, j] = v + 1e-12 * (1.0 + abs(v))
        clock.report("bnb table", n - 1 - i, n - 1 - d.n_must, None, nodes=nodes)
    return V, nodes


def _run(d: _Data, k: int, best: npt.NDArray[np.int64], score0: float, clock: _Clock,
         seconds: float, V: npt.NDArray[np.float64], flag: npt.NDArray[np.uint8],
         mu: float = 0.0, *, reported: int = 0
         ) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float64],
                    npt.NDArray[np.float64]]:
    """Set up the root (the must-include pieces chosen) and search in chunks until done or
    ``seconds`` are used on ``clock``; progress counts nodes from ``reported``."""
    n = d.R.shape[0]
    g, cc, st, fs, chosen, fp, fph, fb, fz, fk, dead, kst = _state(
        n, k, int(d.char.max(initial=0)) + 1, score0, 1e-9 * max(1.0, abs(score0)))
    g[:] = d.leader
    rules = d.rules
    for t in range(d.n_must):
        bnb_kernel._add(d.R, t, g, cc, st, fs, chosen, rules)
    fp[0] = d.n_must
    nodes = 0
    while st[TOP] >= 0 and not clock.over():  # a phase's first chunk always runs
        nodes += int(bnb_kernel.search(d.R, d.P, V, mu, k, rules, g, cc, st, fs, chosen, best,
                                       fp, fph, fb, fz, fk, dead, kst, _chunk(n), flag))
        clock.report("bnb", reported + nodes, None, float(fs[BEST]))
        if clock.past(seconds):
            break
    return nodes, st, fs, fb


def _bound_reference(d: _Data, p: int, k: int, g: list[float], cc: dict[int, int],
                     size: int, used: int, have: int, z: float, best: float,
                     tol: float, dead: set[int], killed: list[int],
                     V: npt.NDArray[np.float64], mu: float) -> float:
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

    def lagrange(hs: list[float], costs: list[int], zz: float) -> tuple[float, float]:
        tot, c0 = top(hs, costs, r)
        bnd, lam_best = zz + tot, 0.0
        if c0 > budget and bnd > thr:  # Lagrangian relaxation of the cost cap
            lo, hi = 0.0, max(hs) - min(hs) + 1.0
            for _ in range(bnb_kernel._LAMBDA_STEPS):
                lam = 0.5 * (lo + hi)
                tot, c = top([hs[t] - lam * costs[t] for t in range(len(hs))], costs, r)
                if zz + lam * budget + tot < bnd:
                    bnd, lam_best = zz + lam * budget + tot, lam
                if bnd <= thr:
                    break
                if c > budget:
                    lo = lam
                else:
                    hi = lam
        return bnd, lam_best

    def fix(hs: list[float], costs: list[int], pieces: list[int], zz: float,
            lam: float) -> list[int]:
        w = [hs[t] - lam * costs[t] for t in range(len(hs))]
        rest = top(w, costs, r - 1)[0] if r > 1 else 0.0
        base = zz + lam * budget + rest
        return [pieces[t] for t in range(len(hs)) if base + w[t] <= thr and pieces[t] not in dead]

    vr = float(V[p, r])
    bnd = -np.inf
    for rnd in range(bnb_kernel._FIX_ROUNDS + 1):
        hs: list[float] = []
        gs: list[float] = []
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
            gs.append(g[t] + mu * int(d.cost[t]))
            costs.append(int(d.cost[t]))
            pieces.append(t)
            n_attr += int(d.attr[t])
        if len(hs) < r or d.amin - have > min(r, n_attr):
            return -np.inf
        bnd, lam = lagrange(hs, costs, z)
        lam2 = 0.0
        if bnd > thr and vr < np.inf:
            b2, lam2 = lagrange(gs, costs, z + vr)
            bnd = min(bnd, b2)
        if bnd <= thr or rnd == bnb_kernel._FIX_ROUNDS:
            return bnd
        out = fix(hs, costs, pieces, z, lam)
        dead.update(out)
        killed.extend(out)
        if vr < np.inf:
            out2 = fix(gs, costs, pieces, z + vr, lam2)
            dead.update(out2)
            killed.extend(out2)
            out += out2
        if not out:
            return bnd
    return bnd


def _search_reference(d: _Data, k: int, score0: float,
                      V: npt.NDArray[np.float64] | None = None, mu: float = 0.0
                      ) -> tuple[float, list[int], int]:
    """Plain-Python, recursive twin of :func:`gameopt.deck._bnb_kernel.search` for the
    tests (``V`` the Russian-doll table, default none): (best score, best deck in
    branching indices or [] if none beats ``score0``, nodes)."""
    n = d.R.shape[0]
    tol = 1e-9 * max(1.0, abs(score0))
    best, best_deck, nodes = score0, list[int](), 0
    g = [float(x) for x in d.leader]
    cc: dict[int, int] = {}
    chosen: list[int] = []
    dead: set[int] = set()
    if V is None:
        V = np.full((n + 1, k + 1), np.inf)

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
                               dead, killed, V, mu)
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
