"""Minimum-cost perfect matching, exact: Edmonds' blossom with edge pruning, and references.

A round's pairing is a minimum-weight perfect matching of the field (plus the dummy
:data:`~gameopt.pairing.model.BYE` for an odd field) under the penalties of
:mod:`gameopt.pairing.penalties`; :mod:`gameopt.pairing.pairer` builds the matrices and
calls :func:`min_weight_perfect_matching`. Methods:

``"exact"``
    Our Edmonds blossom (numba, :mod:`gameopt.pairing._blossom_kernel`), which returns
    the optimal LP duals with the matching, on a sparse candidate graph; every other
    pair is priced by those duals and the graph grows until none prices below 0, which
    proves the matching optimal on the whole graph (:func:`sparse_exact`). When the
    costs do not fit its integers, the ``"rustworkx"`` path runs instead.
``"rustworkx"``
    Edmonds' blossom algorithm, as rustworkx's compiled ``max_weight_matching``, on
    integer weights; preceded by an exact edge pruning (reduced-cost fixing, below): the
    previous exact path, kept as a reference.
``"networkx"``
    networkx's ``min_weight_matching``: the same algorithm in pure Python, the slow
    reference.
``"brute"``
    Every perfect matching enumerated (n ≤ 12): the obviously correct reference.

The heuristics (SLIM's swaps, the naive top-down rule) are in
:mod:`gameopt.pairing.heuristics`. Forbidden pairs are missing edges; when no perfect
matching exists, every method raises :class:`~gameopt.errors.InfeasibleError` naming the
players a maximum matching leaves unpaired.

**From maximum weight to minimum cost.** rustworkx and networkx maximise weight. With
``max_cardinality=True`` they return, among the matchings of maximum cardinality, one of
maximum weight. When the graph has a perfect matching, every maximum-cardinality matching
is perfect and has n/2 edges, so with ``w(e) = K − c(e)`` the weight of a perfect matching
``M`` is ``(n/2)·K − c(M)``: maximum weight is minimum cost. ``K`` = max ``c`` + 1 keeps
every weight positive, so when no perfect matching exists the same call is a
maximum-cardinality matching whose unmatched players are the witness. Any vertex
potential ``π`` may be subtracted first, ``c'(u, v) = c(u, v) − π_u − π_v``: it changes
every perfect matching's cost by the same ``Σπ``. Weights are Python integers (float
weights can make blossom codes return a slightly suboptimal matching).

**Exact pruning.** The blossom costs O(n³) on a complete graph, so ``"rustworkx"`` first
removes edges no optimal matching can use. A dual-feasible solution of Edmonds' matching
LP — vertex duals ``y`` and odd-set duals ``z ≥ 0`` with reduced costs
``r(e) = c(e) − y_u − y_v − Σ_{S: e ∈ δ(S)} z_S ≥ 0`` — is built by greedy dual ascent
(vertices, then the classes of ``groups`` and their upper unions when odd: the score
groups, which an odd size forces to float). Since every perfect matching crosses each odd
set, ``c(M) ≥ LB + Σ_{e∈M} r(e)`` with ``LB = Σy + Σz``. An upper bound ``UB`` comes from
a heuristic perfect matching (SLIM's greedy, 2- and 3-swaps, from
:mod:`gameopt.pairing._slim_kernels`); an edge with ``r(e) > UB − LB`` lies in no matching
of cost ≤ ``UB``, so in no optimal one, and is dropped. The kept graph contains the
heuristic matching, hence a perfect matching, and every optimal one: the blossom on it,
one connected component at a time, is exact. When the heuristic cannot avoid a forbidden
pair the full graph is used.

References
----------
.. [1] J. Edmonds, "Paths, trees, and flowers", Canad. J. Math. 17:449-467, 1965; and
   "Maximum matching and a polyhedron with 0,1-vertices", J. Res. NBS 69B:125-130, 1965.
.. [2] Z. Galil, "Efficient algorithms for finding maximum matching in graphs", ACM
   Computing Surveys 18(1):23-38, 1986 (the O(n³) version rustworkx and networkx follow).
.. [3] T. Nakajima, "Pairing Algorithm", 2002 (SLIM's heuristic, the upper bound).
.. [4] D. Applegate, W. Cook, "Solving large-scale matching problems", in Network Flows
   and Matching, DIMACS Series 12, 1993 (sparse graphs and pricing with LP duals).
.. [5] W. Cook, A. Rohe, "Computing minimum-weight perfect matchings", INFORMS J. on
   Computing 11(2):138-148, 1999 (Blossom IV: candidate graphs, pricing, jump starts).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import rustworkx as rx
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from gameopt.errors import InfeasibleError, InvalidInputError, SolverError
from gameopt.pairing._blossom_kernel import (
    NO_PERFECT,
    OVERFLOW,
    blossom_min_cost,
    edge_holders,
    edge_reduced_costs,
    few_per_vertex,
    laminar_sums,
    price_edges,
)
from gameopt.pairing._slim_kernels import SLIM_WINDOW, local_search

__all__ = [
    "BRUTE_MAX",
    "EXACT_METHODS",
    "MAX_COST",
    "brute_force_matching",
    "is_perfect_matching",
    "matching_cost",
    "min_weight_perfect_matching",
    "warm_kernels",
]

log = logging.getLogger(__name__)

#: The methods of :func:`min_weight_perfect_matching` (all of them optimal).
EXACT_METHODS = ("exact", "rustworkx", "networkx", "brute")
#: Largest field the brute force accepts (10,395 perfect matchings at 12).
BRUTE_MAX = 12
#: Largest absolute edge cost (doubled costs, duals and sums stay well inside int64).
MAX_COST = 2**50

Pairs = list[tuple[int, int]]
IntMatrix = npt.NDArray[np.int64]
BoolMatrix = npt.NDArray[np.bool_]


# --------------------------------------------------------------------------------------
# Input guards, checks and witnesses
# --------------------------------------------------------------------------------------


def check_matrices(cost: npt.ArrayLike, allowed: npt.ArrayLike | None,
                   tiebreak: npt.ArrayLike | None, labels: Sequence[str] | None,
                   ) -> tuple[IntMatrix, BoolMatrix, IntMatrix | None, list[str]]:
    """Validated ``(cost, allowed, tiebreak, labels)``; raises InvalidInputError.

    The input guard of every matching method, here and in
    :mod:`gameopt.pairing.heuristics` (as are :func:`sorted_pairs`,
    :func:`infeasible_error` and :func:`solve_exact`, which are not in ``__all__``).
    """
    c = np.asarray(cost)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise InvalidInputError(f"matching: cost must be a square matrix, got shape {c.shape}")
    if not np.issubdtype(c.dtype, np.integer):
        raise InvalidInputError(f"matching: cost must have an integer dtype, got {c.dtype} "
                                f"(float weights can give a suboptimal matching)")
    n = c.shape[0]
    a = np.ones((n, n), dtype=np.bool_) if allowed is None else np.asarray(allowed)
    if a.shape != (n, n) or a.dtype != np.bool_:
        raise InvalidInputError(f"matching: allowed must be a boolean {n}x{n} matrix, got "
                                f"{a.dtype} {a.shape}")
    a = a & ~np.eye(n, dtype=np.bool_)
    if not np.array_equal(a, a.T):
        i, j = np.argwhere(a != a.T)[0]
        raise InvalidInputError(f"matching: allowed is not symmetric at ({i}, {j})")
    if c.size and int(np.abs(c[a]).max(initial=0)) > MAX_COST:
        raise InvalidInputError(f"matching: costs must lie within ±2**50, got "
                                f"{int(np.abs(c[a]).max())}")
    c = c.astype(np.int64)
    if not np.array_equal(np.where(a, c, 0), np.where(a, c, 0).T):
        i, j = np.argwhere(np.where(a, c, 0) != np.where(a, c, 0).T)[0]
        raise InvalidInputError(f"matching: cost is not symmetric at ({i}, {j}): "
                                f"{c[i, j]} != {c[j, i]}")
    t = None
    if tiebreak is not None:
        t = np.asarray(tiebreak)
        if t.shape != (n, n) or not np.issubdtype(t.dtype, np.integer) or (t < 0).any():
            raise InvalidInputError(f"matching: tiebreak must be a non-negative integer "
                                    f"{n}x{n} matrix, got {t.dtype} {t.shape}")
        t = t.astype(np.int64)
    names = [str(k) for k in range(n)] if labels is None else [str(x) for x in labels]
    if len(names) != n:
        raise InvalidInputError(f"matching: {len(names)} labels for {n} vertices")
    return c, a, t, names


def is_perfect_matching(pairs: Sequence[tuple[int, int]], n: int,
                        allowed: npt.ArrayLike | None = None) -> bool:
    """True when ``pairs`` covers each of ``0..n-1`` exactly once with allowed pairs."""
    seen = [v for p in pairs for v in p]
    if sorted(seen) != list(range(n)):
        return False
    if allowed is None:
        return all(u != v for u, v in pairs)
    a = np.asarray(allowed)
    return all(u != v and bool(a[u, v]) for u, v in pairs)


def matching_cost(cost: npt.ArrayLike, pairs: Sequence[tuple[int, int]]) -> int:
    """Total cost of ``pairs``."""
    c = np.asarray(cost)
    return int(sum(int(c[u, v]) for u, v in pairs))


def sorted_pairs(pairs: Iterable[Sequence[int]]) -> Pairs:
    """Pairs as ``(low, high)`` tuples of Python ints, sorted."""
    return sorted((min(int(u), int(v)), max(int(u), int(v))) for u, v in pairs)


def infeasible_error(allowed: BoolMatrix, names: Sequence[str]) -> InfeasibleError:
    """The error for a graph without a perfect matching, naming the unpaired players.

    A maximum-cardinality matching (the blossom with unit weights) of fewer than n/2
    pairs proves that no perfect pairing exists; the players it leaves unmatched are
    named (they lie in the deficient part of the Gallai-Edmonds decomposition: each is
    missed by some maximum matching). Players without any allowed opponent come first.
    """
    n = len(names)
    if n % 2:
        return InfeasibleError(f"no perfect pairing: odd number of players ({n})")
    g = rx.PyGraph(multigraph=True)
    g.add_nodes_from(range(n))
    iu, ju = np.nonzero(np.triu(allowed, 1))
    g.add_edges_from_no_data(list(zip(iu.tolist(), ju.tolist(), strict=True)))
    mate = rx.max_weight_matching(g, max_cardinality=True)
    covered = {v for p in mate for v in p}
    alone = [names[v] for v in range(n) if not allowed[v].any()]
    left = [names[v] for v in range(n) if v not in covered and names[v] not in alone]
    parts = []
    if alone:
        parts.append(f"no allowed opponent for {', '.join(alone)}")
    if left:
        parts.append(f"left unpaired by a maximum pairing: {', '.join(left)}")
    return InfeasibleError(f"no perfect pairing avoids the forbidden pairs: at most "
                           f"{2 * len(mate)} of {n} players can be paired; "
                           + "; ".join(parts))


# --------------------------------------------------------------------------------------
# Exact: rustworkx blossom with reduced-cost pruning
# --------------------------------------------------------------------------------------


def _blossom(n: int, iu: npt.NDArray[np.intp], ju: npt.NDArray[np.intp],
             cost: Sequence[int]) -> Pairs | None:
    """Min-cost perfect matching of the edges ``(iu[k], ju[k])`` (None if none exists).

    Each connected component is solved on its own (the blossom's cost grows faster than
    linearly with the size).
    """
    if n == 0:
        return []
    k_max = max(cost, default=0) + 1
    g = rx.PyGraph(multigraph=True)  # no parallel edges are given; skips the checks
    g.add_nodes_from(range(n))
    g.add_edges_from(list(zip(iu.tolist(), ju.tolist(), [k_max - c for c in cost],
                              strict=True)))
    parts = rx.connected_components(g)
    if len(parts) == 1:
        mate = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
        return sorted_pairs(mate) if 2 * len(mate) == n else None
    pairs: Pairs = []
    for part in sorted(sorted(p) for p in parts):
        if len(part) % 2:
            return None
        sub = g.subgraph(part)  # node payloads are the original indices
        mate = rx.max_weight_matching(sub, max_cardinality=True, weight_fn=int)
        if 2 * len(mate) != len(part):
            return None
        pairs += [(sub[u], sub[v]) for u, v in mate]
    return sorted_pairs(pairs)


def _lex(cost: npt.NDArray[np.int64], tie: npt.NDArray[np.int64] | None,
         n: int) -> list[int]:
    """Edge costs ``cost·Q + tie`` as Python ints, Q above any matching's tie total."""
    if tie is None:
        return [int(x) for x in cost]
    q = int(tie.max(initial=0)) * (n // 2) + 1
    return [int(x) * q + int(t) for x, t in zip(cost.tolist(), tie.tolist(), strict=True)]


def _dual_ascent(cost: IntMatrix, allowed: BoolMatrix, groups: npt.NDArray[np.int64] | None,
                 ) -> tuple[IntMatrix, npt.NDArray[np.int64], int]:
    """A feasible dual of Edmonds' LP on doubled costs, greedily raised.

    Returns ``(r2, y2, lb2)``: reduced costs ``r2 ≥ 0`` of ``2·cost`` (huge where not
    allowed), the vertex duals and ``lb2 = Σy2 + Σz2 ≤ 2·OPT``. Odd sets tried: each class
    of ``groups`` and each union of the classes above a class, when of odd size.

    Notes
    -----
    O(n²) per vertex sweep and per odd set (blocks of the matrix sorted by group).
    """
    n = cost.shape[0]
    big = np.int64(1) << np.int64(60)
    order = np.arange(n) if groups is None else np.argsort(-groups, kind="stable")
    r2 = np.where(allowed, 2 * cost, big)[np.ix_(order, order)]
    y2 = np.zeros(n, dtype=np.int64)
    half = r2.min(axis=1) // 2  # y = half the cheapest edge: feasible for all pairs
    y2 += half
    r2 -= half[:, None]
    r2 -= half[None, :]
    for v in range(n):  # coordinate ascent: raise y_v to its cheapest reduced edge
        d = r2[v].min()
        if 0 < d < big // 2:
            y2[v] += d
            r2[v] -= d
            r2[:, v] -= d
    lb2 = int(y2.sum())
    if groups is not None:
        g = groups[order]
        ends = np.flatnonzero(np.diff(g)) + 1
        starts = np.concatenate(([0], ends))
        stops = np.concatenate((ends, [n]))
        sets = [(a, b) for a, b in zip(starts, stops, strict=True)]
        sets += [(0, b) for b in stops[:-1]]
        for a, b in sets:
            if (b - a) % 2 == 0 or b - a < 3:
                continue
            z = min(r2[a:b, :a].min(initial=big), r2[a:b, b:].min(initial=big))
            if 0 < z < big // 2:
                for blk in (r2[a:b, :a], r2[a:b, b:], r2[:a, a:b], r2[b:, a:b]):
                    blk -= z
                lb2 += int(z)
    inverse = np.empty(n, dtype=np.intp)
    inverse[order] = np.arange(n)
    y_out = np.empty(n, dtype=np.int64)
    y_out[order] = y2
    return r2[np.ix_(inverse, inverse)], y_out, lb2


# --------------------------------------------------------------------------------------
# Exact: our blossom on a sparse candidate graph, priced by its LP duals
# --------------------------------------------------------------------------------------

#: Cheapest allowed partners per player in the first candidate graph of the sparse path,
#: and the most violated edges per player a pricing round adds.
CANDIDATES = 10
#: Best tight pairs per player in the first candidate graph of the tie phase.
TIE_CANDIDATES = 30
#: Largest absolute doubled, shifted edge cost the sparse path hands to its kernel.
_FIT = 2**58


def _cheapest(cost: IntMatrix, allowed: BoolMatrix, rows: npt.NDArray[np.int64], k: int,
              block: int = 256) -> npt.NDArray[np.int64]:
    """Keys ``i·n + j`` (``i < j``) of the allowed pairs joining each of ``rows`` to its
    ``k`` cheapest allowed partners (a block of rows of the matrix at a time)."""
    n = cost.shape[0]
    k = min(k, n - 1)
    big = np.iinfo(np.int64).max
    keys = [np.empty(0, dtype=np.int64)]
    for a in range(0, rows.size, block):
        r = rows[a:a + block]
        blk = np.where(allowed[r], cost[r], big)
        idx = np.argpartition(blk, k - 1, axis=1)[:, :k]
        rr = np.repeat(r, k)
        cols = idx.ravel()
        ok = allowed[rr, cols]
        lo, hi = np.minimum(rr[ok], cols[ok]), np.maximum(rr[ok], cols[ok])
        keys.append(lo.astype(np.int64) * n + hi)
    return np.unique(np.concatenate(keys))


def _allowed_range(cost: IntMatrix, allowed: BoolMatrix, block: int = 256,
                   ) -> tuple[int, int]:
    """The least and largest allowed cost ((0, 0) without any), a block of rows at a
    time (no copy of the matrix)."""
    big = np.iinfo(np.int64).max
    lo, hi = big, -big
    for a in range(0, cost.shape[0], block):
        ok = allowed[a:a + block]
        if ok.any():
            lo = min(lo, int(np.where(ok, cost[a:a + block], big).min()))
            hi = max(hi, int(np.where(ok, cost[a:a + block], -big).max()))
    return (0, 0) if lo == big else (lo, hi)


def _neighbours(allowed: BoolMatrix, reach: int) -> npt.NDArray[np.int64]:
    """Keys of the allowed pairs ``(i, i + d)``, ``d ≤ reach``: neighbours in the
    players' order (rank order in a round), which hold a perfect matching unless
    forbidden pairs break it."""
    n = allowed.shape[0]
    keys = [np.empty(0, dtype=np.int64)]
    for d in range(1, min(reach, n - 1) + 1):
        i = np.arange(n - d, dtype=np.int64)
        i = i[allowed[i, i + d]]
        keys.append(i * n + i + d)
    return np.unique(np.concatenate(keys))


def _certified(eu: npt.NDArray[np.int64], ev: npt.NDArray[np.int64],
               ec: npt.NDArray[np.int64], sol: tuple[Any, ...]) -> bool:
    """True when the kernel's matching and duals prove each other optimal on the graph
    ``(eu, ev, ec)``: ``w ≥ 0``, every reduced cost ``≥ 0``, and the matching's cost
    equal to the dual objective ``Σy − Σ w_B (|B| − 1)/2`` (LP duality), in exact
    integers."""
    _, mate, y, w, parent, base, _ = sol
    n = y.shape[0]
    cpar, cumw, cumpos, size = laminar_sums(n, w, parent)
    used = np.flatnonzero(base[n:] >= 0) + n
    if (w[used] < 0).any() or (size[used] % 2 == 0).any():
        return False
    if edge_reduced_costs(eu, ev, ec, y, cpar, cumw, cumpos).min(initial=0) < 0:
        return False
    matched = np.unique(mate)
    primal = sum(int(x) for x in ec[matched])
    dual = sum(int(x) for x in y) - sum(int(w[b]) * (int(size[b]) - 1) // 2 for b in used)
    return matched.size * 2 == n and primal == dual


Edges = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]


def _warm(n: int, sol: tuple[Any, ...], old: Edges, new: Edges,
          ec: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """A warm start for the candidate edges ``new`` (costs ``ec``, twice the scale of
    ``sol``'s) from ``sol`` on ``old``: vertex duals ``y − Σ_{B ∋ v} w_B / 2`` (no
    blossoms; every old edge keeps ``r ≥ 0``), doubled, lowered at one end of each new
    edge priced below 0; the old pairs still tight stay matched."""
    _, mate, y, w, parent, _, _ = sol
    _, cumw, _, _ = laminar_sums(n, w, parent)
    inside = np.where(parent[:n] >= 0, cumw[np.maximum(parent[:n], 0)], 0)
    y1 = 2 * (y - inside // 2)
    eu, ev = new
    r = ec - y1[eu] - y1[ev]
    neg = r < 0
    low = np.zeros(n, dtype=np.int64)
    np.minimum.at(low, eu[neg], r[neg])
    y1 += low
    keys = eu * n + ev
    pairs = np.unique(mate)
    pk = old[0][pairs] * n + old[1][pairs]
    idx = np.searchsorted(keys, pk)
    idx = idx[ec[idx] - y1[eu[idx]] - y1[ev[idx]] == 0]
    mate1 = np.full(n, -1, dtype=np.int64)
    mate1[eu[idx]] = idx
    mate1[ev[idx]] = idx
    return y1, mate1


def _solve_priced(n: int, cand: Edges, ec_of: Any, price: Any, widen: Any,
                  ) -> tuple[tuple[Any, ...], Edges, int, int] | None:
    """The pricing loop shared by both phases: solve the candidate edges, price the
    rest, add the most violated edges (at most :data:`CANDIDATES` per vertex), until
    none is violated; each round starts warm from the last (:func:`_warm`, at twice
    the cost scale while that fits). ``ec_of(eu, ev)`` gives doubled shifted costs,
    ``price(sol, scale)`` the violated edges ``(vi, vj, vr)``, ``widen(stuck)`` more
    edges at the stuck vertices (None: no more). Returns the kernel's answer, the last
    candidate edges, the number of rounds and the scale; None when the kernel cannot
    be used."""
    eu, ev = cand
    none = np.empty(0, dtype=np.int64)
    y0, mate0 = none, none
    scale = 1
    rounds = 0
    prev: tuple[tuple[Any, ...], Edges] | None = None
    while True:
        rounds += 1
        base = ec_of(eu, ev)
        if prev is not None and int(base.max(initial=0)) * scale * 2 <= _FIT:
            scale *= 2
            y0, mate0 = _warm(n, prev[0], prev[1], (eu, ev), base * scale)
        else:
            scale, y0, mate0 = 1, none, none
        ec = base * scale
        t0 = time.process_time()
        sol = blossom_min_cost(n, eu, ev, ec, y0, mate0)
        t_kernel = time.process_time() - t0
        if sol[0] == OVERFLOW:
            return None
        if sol[0] == NO_PERFECT:
            more = widen(sol[6])
            if more is None:
                return None
            key = np.union1d(eu * n + ev, more)
            eu, ev = key // n, key % n
            prev = None
            continue
        if not _certified(eu, ev, ec, sol):
            log.warning("sparse blossom: no certificate on the candidate graph")
            return None
        vi, vj, vr = price(sol, scale)
        log.debug("sparse blossom round %d: %d candidate edges, %d priced below 0 "
                  "(%s start, %d free, kernel %.3f s CPU)", rounds, eu.size, vi.size,
                  "warm" if y0.size else "cold",
                  n - 2 * int((mate0 >= 0).sum()) // 2 if y0.size else -1, t_kernel)
        if vi.size == 0:
            return sol, (eu, ev), rounds, scale
        few = few_per_vertex(n, vi, vj, vr, CANDIDATES)
        prev = (sol, (eu, ev))
        key = np.union1d(eu * n + ev, vi[few] * n + vj[few])
        if key.size == eu.size:  # priced below 0 yet already in: never (a bug)
            log.warning("sparse blossom: pricing found no new edge")
            return None
        eu, ev = key // n, key % n


def sparse_exact(cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | None,
                 stats: dict[str, Any],
                 tiers: Sequence[IntMatrix] | None = None) -> Pairs | None:
    """Least ``(cost, tie)`` perfect matching (lexicographic) by our blossom on a sparse
    candidate graph, proven optimal on the whole graph by LP duality; None when it does
    not apply (costs beyond the kernel's integers) or no perfect matching exists.

    **Phase 1 (cost).** The candidate graph starts with each player's
    :data:`CANDIDATES` cheapest allowed partners and the pairs of neighbours in the
    players' order. The kernel (:mod:`gameopt.pairing._blossom_kernel`) returns a
    minimum-cost perfect matching ``M`` of it with an optimal dual ``(y, w)`` of
    Edmonds' LP: reduced costs ``r(i, j) = c(i, j) − y_i − y_j + Σ_{B ∋ i, j} w_B ≥ 0``
    on the candidate edges, ``w ≥ 0`` on its blossoms (odd sets), and
    ``c(M) = Σy − Σ_B w_B (|B| − 1)/2`` (checked in exact integers, :func:`_certified`).
    Every allowed pair is then priced (one pass over the matrix). If none has
    ``r < 0``, ``(y, w)`` is feasible for the LP of the *whole* graph, so its value
    bounds every perfect matching from below (weak duality); ``M`` reaches it, so ``M``
    is optimal on the whole graph. Otherwise the most violated pairs join the candidate
    graph and it is solved again; each round adds edges, so the loop ends, at worst
    with the whole graph. A candidate graph without a perfect matching gets more
    partners (twice as many) for the players the kernel was stuck on.

    **Phase 2 (tie).** By complementary slackness every optimal matching uses only
    tight pairs (``r = 0`` under the proven dual) and meets each blossom with
    ``w_B > 0`` in ``(|B| − 1)/2`` pairs, the most any perfect matching can; a perfect
    matching of tight pairs doing so costs ``c(M)``. So the optimal matchings are the
    perfect matchings of the tight graph maximising ``Σ_{e ∈ M} d(e)``, ``d(e)`` the
    number of such blossoms holding both ends. The same loop solves the tight graph
    with costs ``tie(e) − 2Q·d(e)``, ``Q`` above any matching's tie total (candidates:
    ``M`` and each player's best tight pairs; pricing over the tight graph): its least
    is an optimal matching of least tie.

    ``tiers``, when given, replace ``tie`` by levels ordered lexicographically, solved
    one after the other the same way (each on the tight graph of the level above).

    ``stats`` gets ``kept_edges`` (the last candidate graph), ``pricing_rounds`` and,
    with ``tie``, ``tight_edges``, ``tie_edges`` and ``tie_rounds``; or ``fallback``
    (why it does not apply).

    Notes
    -----
    Per round: the O(n²) pricing pass and the blossom on the candidate graph (at most
    n/2 stages of O(m) scanning and O(n) per dual change, m candidate edges).
    """
    n = cost.shape[0]
    lo, hi = _allowed_range(cost, allowed)
    if 2 * (hi - lo) > _FIT:
        stats["fallback"] = "cost range beyond the kernel's integers"
        return None
    kv = np.full(n, CANDIDATES, dtype=np.int64)
    tight: list[npt.NDArray[np.int64]] = []

    def ec1(eu: npt.NDArray[np.int64], ev: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return 2 * (cost[eu, ev] - lo)

    def price1(sol: tuple[Any, ...], scale: int) -> tuple[npt.NDArray[np.int64], ...]:
        _, _, y, w, parent, _, _ = sol
        cpar, cumw, cumpos, _ = laminar_sums(n, w, parent)
        vi, vj, vr, ti, tj, td = price_edges(cost, allowed, lo, scale, y, cpar, cumw, cumpos,
                                             tie is not None)
        tight[:] = [ti, tj, td]
        return vi, vj, vr

    def widen1(stuck: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64] | None:
        rows = np.flatnonzero(stuck & (kv < n - 1))
        if rows.size == 0:
            return None  # every partner of the stuck players is in: no perfect matching
        kv[rows] *= 2
        parts = [_cheapest(cost, allowed, rows[kv[rows] == k], int(k))
                 for k in np.unique(kv[rows])]
        return np.unique(np.concatenate(parts))

    key = np.union1d(_cheapest(cost, allowed, np.arange(n), CANDIDATES),
                     _neighbours(allowed, 3))
    got = _solve_priced(n, (key // n, key % n), ec1, price1, widen1)
    if got is None:
        stats["fallback"] = "no perfect matching, or the kernel overflowed"
        return None
    sol, (eu, ev), rounds, _ = got
    stats.update(kept_edges=int(eu.size), pricing_rounds=rounds)
    matched = np.unique(sol[1])
    if tie is None:
        return sorted_pairs(zip(eu[matched].tolist(), ev[matched].tolist(), strict=True))
    ti, tj, td = tight
    stats["tight_edges"] = int(ti.size)
    mu, mv = eu[matched], ev[matched]
    edges = rounds2 = 0
    for level in (tie,) if tiers is None else tiers:
        got2 = _tie_level(n, ti, tj, td, level[ti, tj], mu, mv)
        if got2 is None:
            stats["fallback"] = "tie costs beyond the kernel's integers"
            return None
        mu, mv, ti, tj, td, m, r = got2
        edges, rounds2 = edges + int(m), max(rounds2, int(r))
    stats.update(tie_edges=edges, tie_rounds=rounds2)
    return sorted_pairs(zip(mu.tolist(), mv.tolist(), strict=True))


def _tie_level(n: int, ti: npt.NDArray[np.int64], tj: npt.NDArray[np.int64],
               td: npt.NDArray[np.int64], t: npt.NDArray[np.int64],
               mu: npt.NDArray[np.int64], mv: npt.NDArray[np.int64],
               ) -> tuple[Any, ...] | None:
    """One tie level of :func:`sparse_exact`: on the tight graph ``(ti, tj)`` of the
    level above (``td`` its blossom counts ``d``, ``(mu, mv)`` its matching), costs
    ``t − 2Q·d``, one problem per connected component (each holds its part of the
    matching above, so each has a perfect matching). Returns the new matching, the
    tight graph of this level with its counts, the candidate edges and the rounds; None
    when the costs do not fit the kernel."""
    q = int(t.max(initial=0)) * (n // 2) + 1
    if 2 * q * int(td.max(initial=0)) + int(t.max(initial=0)) > _FIT // 4:
        return None
    c2 = t - 2 * q * td
    parts, comp = connected_components(
        coo_matrix((np.ones(ti.size, dtype=np.int8), (ti, tj)), shape=(n, n)),
        directed=False)
    out_u, out_v, tight_u, tight_v, tight_d = [], [], [], [], []
    edges = rounds = 0
    for part in range(parts):
        verts = np.flatnonzero(comp == part)
        if verts.size == 2:
            one = np.array([verts[0]], dtype=np.int64)
            two = np.array([verts[1]], dtype=np.int64)
            out_u.append(one)
            out_v.append(two)
            tight_u.append(one)
            tight_v.append(two)
            tight_d.append(np.zeros(1, dtype=np.int64))
            continue
        inside = np.flatnonzero(comp[ti] == part)
        local = np.full(n, -1, dtype=np.int64)
        local[verts] = np.arange(verts.size)
        mine = np.flatnonzero(comp[mu] == part)
        got = _tie_phase(verts.size, local[ti[inside]], local[tj[inside]], c2[inside],
                         local[mu[mine]], local[mv[mine]])
        if got is None:
            return None
        pu, pv, tight, d, m, r = got
        out_u.append(verts[pu])
        out_v.append(verts[pv])
        tight_u.append(ti[inside][tight])
        tight_v.append(tj[inside][tight])
        tight_d.append(d)
        edges, rounds = edges + m, max(rounds, r)
    lo_u = np.concatenate(out_u)
    lo_v = np.concatenate(out_v)
    order = np.argsort(np.concatenate(tight_u) * n + np.concatenate(tight_v))
    return (np.minimum(lo_u, lo_v), np.maximum(lo_u, lo_v),
            np.concatenate(tight_u)[order], np.concatenate(tight_v)[order],
            np.concatenate(tight_d)[order], edges, rounds)


def _tie_phase(n: int, ti: npt.NDArray[np.int64], tj: npt.NDArray[np.int64],
               c2: npt.NDArray[np.int64], mu: npt.NDArray[np.int64],
               mv: npt.NDArray[np.int64]) -> tuple[Any, ...] | None:
    """The tie phase of :func:`sparse_exact` on one tight graph ``(ti, tj)`` (pairs in
    increasing ``ti·n + tj``) with costs ``c2`` and the pairs ``(mu, mv)`` of the level
    above: the pairs (``pu, pv``), the indices of the pairs tight under its proven dual
    with their blossom counts, the last candidate graph's size and the pricing rounds."""
    lo2 = int(c2.min(initial=0))
    tkeys = ti * n + tj

    def ec2(eu: npt.NDArray[np.int64], ev: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return 2 * (c2[np.searchsorted(tkeys, eu * n + ev)] - lo2)

    def price2(sol: tuple[Any, ...], scale: int) -> tuple[npt.NDArray[np.int64], ...]:
        _, _, y, w, parent, _, _ = sol
        cpar, cumw, cumpos, _ = laminar_sums(n, w, parent)
        r = edge_reduced_costs(ti, tj, 2 * scale * (c2 - lo2), y, cpar, cumw, cumpos)
        bad = np.flatnonzero(r < 0)
        return ti[bad], tj[bad], r[bad]

    def widen2(stuck: npt.NDArray[np.bool_]) -> None:
        return None  # the candidates hold the phase-1 matching: never stuck

    few = few_per_vertex(n, ti, tj, c2, TIE_CANDIDATES)
    key = np.union1d(ti[few] * n + tj[few], np.minimum(mu, mv) * n + np.maximum(mu, mv))
    got = _solve_priced(n, (key // n, key % n), ec2, price2, widen2)
    if got is None:
        return None
    sol2, (eu2, ev2), rounds2, scale = got
    m2 = np.unique(sol2[1])
    _, _, y, w, parent, _, _ = sol2
    cpar, cumw, cumpos, _ = laminar_sums(n, w, parent)
    r = edge_reduced_costs(ti, tj, 2 * scale * (c2 - lo2), y, cpar, cumw, cumpos)
    tight = np.flatnonzero(r == 0)
    d = edge_holders(ti[tight], tj[tight], cpar, cumpos)
    return eu2[m2], ev2[m2], tight, d, int(eu2.size), rounds2


def warm_kernels() -> None:
    """Compile (or load from the cache) every numba kernel of the exact path, on a small
    instance with ties, so that timings exclude it."""
    rng = np.random.default_rng(0)
    c = np.triu(rng.integers(0, 3, (40, 40)), 1)
    t = np.triu(rng.integers(0, 9, (40, 40)), 1)
    a = ~np.eye(40, dtype=np.bool_)
    sparse_exact((c + c.T).astype(np.int64), a, (t + t.T).astype(np.int64), {})


def solve_exact(cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | None, names: list[str],
                groups: npt.NDArray[np.int64] | None, prune: bool,
                stats: dict[str, Any] | None = None, kernel: str = "sparse",
                tiers: Sequence[IntMatrix] | None = None) -> Pairs:
    """The exact method on checked input (:func:`check_matrices`).

    ``kernel="sparse"``: :func:`sparse_exact` (our blossom on a candidate graph priced
    by its LP duals); when it does not apply (costs beyond its integers) or finds no
    perfect matching, the rustworkx path below runs (and names the unpairable players).
    ``kernel="rustworkx"``: the pruning, then rustworkx's blossom. ``tiers``, when
    given, is ``tie`` as levels (their lexicographic order is ``tie``'s): the sparse
    path then solves one level at a time, each within its integers.

    ``stats``, when given, receives ``edges`` (allowed pairs), ``solver``,
    ``kept_edges`` (the candidate graph, or the edges kept by the pruning), and when
    the pruning ran ``upper_bound`` (the heuristic matching's cost) and ``lower_bound``
    (the dual bound ``LB``). For the sibling modules; the public entry is
    :func:`min_weight_perfect_matching`.
    """
    n = cost.shape[0]
    if n % 2:
        raise infeasible_error(allowed, names)
    info: dict[str, Any] = {} if stats is None else stats
    info["edges"] = int(np.count_nonzero(np.triu(allowed, 1)))
    if kernel == "sparse" and n >= 2:
        got = sparse_exact(cost, allowed, tie, info, tiers)
        if got is not None:
            info["solver"] = "sparse"
            return got
    info["solver"] = "rustworkx"
    if prune and n >= 4:
        ub_pairs = sorted_pairs(local_search(cost, allowed, ks=(2, 3),
                                             window=SLIM_WINDOW).tolist())
        if all(allowed[u, v] for u, v in ub_pairs):
            r2, y2, lb2 = _dual_ascent(cost, allowed, groups)
            ub = matching_cost(cost, ub_pairs)
            gap2 = 2 * ub - lb2
            keep = np.triu(allowed & (r2 <= gap2), 1)
            iu, ju = np.nonzero(keep)
            info.update(kept_edges=int(iu.size), lower_bound=lb2 / 2, upper_bound=ub)
            shifted = 2 * cost[iu, ju] - y2[iu] - y2[ju]  # vertex potentials only
            pairs = _blossom(n, iu, ju, _lex(shifted, None if tie is None
                                             else tie[iu, ju], n))
            if pairs is not None:
                return pairs
            log.warning("pruned graph lost its perfect matching; solving the full graph")
    iu, ju = np.nonzero(np.triu(allowed, 1))
    info["kept_edges"] = int(iu.size)
    pairs = _blossom(n, iu, ju, _lex(cost[iu, ju], None if tie is None else tie[iu, ju], n))
    if pairs is None:
        raise infeasible_error(allowed, names)
    return pairs



# --------------------------------------------------------------------------------------
# References: networkx and brute force
# --------------------------------------------------------------------------------------


def _networkx(cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | None,
              names: list[str]) -> Pairs:
    import networkx as nx  # the slow reference only: not needed by the other methods

    n = cost.shape[0]
    iu, ju = np.nonzero(np.triu(allowed, 1))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    w = _lex(cost[iu, ju], None if tie is None else tie[iu, ju], n)
    g.add_weighted_edges_from(zip(iu.tolist(), ju.tolist(), w, strict=True))
    pairs = sorted_pairs(nx.min_weight_matching(g))
    if 2 * len(pairs) != n:
        raise infeasible_error(allowed, names)
    return pairs


def brute_force_matching(cost: npt.ArrayLike, allowed: npt.ArrayLike | None = None, *,
                         tiebreak: npt.ArrayLike | None = None,
                         labels: Sequence[str] | None = None) -> Pairs:
    """Least-cost perfect matching by enumerating every one (n ≤ :data:`BRUTE_MAX`).

    The lowest unmatched vertex is paired with each allowed partner in turn; the best
    ``(cost, tiebreak)`` total wins, the first found on a tie.

    Raises
    ------
    InvalidInputError
        More than :data:`BRUTE_MAX` vertices, or bad matrices.
    InfeasibleError
        No perfect matching.

    Notes
    -----
    (n − 1)!! perfect matchings of K_n: 10,395 at n = 12.
    """
    c, a, t, names = check_matrices(cost, allowed, tiebreak, labels)
    n = c.shape[0]
    if n > BRUTE_MAX:
        raise InvalidInputError(f"brute_force_matching: n = {n} > {BRUTE_MAX}")
    tt = np.zeros_like(c) if t is None else t
    cl, al, tl = c.tolist(), a.tolist(), tt.tolist()
    best_key: list[tuple[int, int]] = []
    best: list[Pairs] = []
    free = list(range(n))
    chosen: Pairs = []

    def rec(cost_so_far: int, tie_so_far: int) -> None:
        if not free:
            key = (cost_so_far, tie_so_far)
            if not best_key or key < best_key[0]:
                best_key[:] = [key]
                best[:] = [list(chosen)]
            return
        u = free.pop(0)
        for k in range(len(free)):
            v = free[k]
            if al[u][v]:
                del free[k]
                chosen.append((u, v))
                rec(cost_so_far + cl[u][v], tie_so_far + tl[u][v])
                chosen.pop()
                free.insert(k, v)
        free.insert(0, u)

    rec(0, 0)
    if not best:
        raise infeasible_error(a, names)
    return sorted(best[0])



def min_weight_perfect_matching(cost: npt.ArrayLike, allowed: npt.ArrayLike | None = None,
                                *, method: str = "exact",
                                tiebreak: npt.ArrayLike | None = None,
                                labels: Sequence[str] | None = None,
                                groups: npt.ArrayLike | None = None,
                                prune: bool = True) -> Pairs:
    """Perfect matching of least total integer cost.

    Parameters
    ----------
    cost : array_like of int, shape (n, n)
        Symmetric edge costs (the diagonal and forbidden entries are ignored); any
        integers, negative ones included.
    allowed : array_like of bool, shape (n, n), optional
        Symmetric; False entries are missing edges (forbidden pairs). Default: all.
    method : {"exact", "rustworkx", "networkx", "brute"}
        Our blossom on a priced sparse graph, rustworkx's blossom (with exact pruning),
        networkx's, or enumeration (n ≤ 12).
        SLIM's heuristic is :func:`gameopt.pairing.heuristics.slim_matching`.
    tiebreak : array_like of int, shape (n, n), optional
        Non-negative secondary cost: among the least-cost matchings, one of least
        tiebreak total (exact methods; the blossom gets ``cost·Q + tiebreak`` with ``Q``
        above any matching's tiebreak total).
    labels : sequence of str, optional
        Vertex names for error messages.
    groups : array_like of int, shape (n,), optional
        Vertex classes (scores) tried as odd sets by the pruning's lower bound; they
        change the speed, never the answer.
    prune : bool
        Exact method only: prune edges by reduced costs first (default) or not.

    Returns
    -------
    list of (int, int)
        The pairs ``(u, v)``, ``u < v``, sorted.

    Raises
    ------
    InvalidInputError
        Bad matrices or method.
    InfeasibleError
        No perfect matching exists (odd n, or the forbidden pairs); the message names the
        vertices a maximum matching leaves unmatched.
    SolverError
        The solver's answer failed the final perfect-matching check (a bug, never seen).

    Notes
    -----
    Exact: O(n²) pricing passes and the blossom (Edmonds 1965; Galil 1986) on the
    candidate graph, its answer certified by LP duality; rustworkx: O(n³) blossom on
    the pruned graph, after O(n²) bounds; networkx: the same algorithm in Python, O(n³)
    with a much larger constant; brute: (n − 1)!!. The result is checked to be a
    perfect matching of allowed pairs.

    Examples
    --------
    >>> c = [[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]]
    >>> min_weight_perfect_matching(c)
    [(0, 1), (2, 3)]
    """
    if method not in EXACT_METHODS:
        raise InvalidInputError(f"matching: unknown method {method!r} "
                                f"({', '.join(EXACT_METHODS)})")
    c, a, t, names = check_matrices(cost, allowed, tiebreak, labels)
    n = c.shape[0]
    g = None
    if groups is not None:
        g = np.asarray(groups, dtype=np.int64)
        if g.shape != (n,):
            raise InvalidInputError(f"matching: groups must have shape ({n},), got {g.shape}")
    if method == "brute":
        pairs = brute_force_matching(c, a, tiebreak=t, labels=names)
    elif method == "networkx":
        pairs = _networkx(c, a, t, names)
    else:
        pairs = solve_exact(c, a, t, names, g, prune,
                            kernel="sparse" if method == "exact" else "rustworkx")
    if not is_perfect_matching(pairs, n, a):  # the claim, checked
        raise SolverError(f"matching ({method}): the result is not a perfect matching of "
                          f"allowed pairs")
    return pairs

