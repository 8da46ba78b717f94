"""Exact minimum-cost perfect matching on a sparse candidate graph, priced by LP duals.

The ``"exact"`` method of :mod:`gameopt.pairing.matching` (:func:`sparse_exact`): our
blossom kernel (:mod:`gameopt.pairing._blossom_kernel`) solves a candidate graph and
returns optimal duals of Edmonds' LP with the matching; every other allowed pair is
priced by them, and the graph grows until none prices below 0, which proves the
matching optimal on the whole graph by LP duality. Ties of the exact order are solved
level by level on the graph of pairs tight under the proven duals. Arrays: int64 cost
matrices ``(n, n)``, a boolean ``allowed`` matrix, edges as int64 arrays ``eu < ev``.

References
----------
.. [1] J. Edmonds, "Maximum matching and a polyhedron with 0,1-vertices", J. Res. NBS
   69B:125-130, 1965 (the LP and its duals).
.. [2] D. Applegate, W. Cook, "Solving large-scale matching problems", in Network Flows
   and Matching, DIMACS Series 12, 1993 (sparse graphs and pricing with LP duals).
.. [3] W. Cook, A. Rohe, "Computing minimum-weight perfect matchings", INFORMS J. on
   Computing 11(2):138-148, 1999 (Blossom IV: candidate graphs, pricing, jump starts).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

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

__all__ = ["CANDIDATES", "TIE_CANDIDATES", "TIE_WHOLE", "sparse_exact"]

log = logging.getLogger(__name__)

Pairs = list[tuple[int, int]]
IntMatrix = npt.NDArray[np.int64]
BoolMatrix = npt.NDArray[np.bool_]


#: Cheapest allowed partners per player in the first candidate graph of the sparse path,
#: and the most violated edges per player a pricing round adds.
CANDIDATES = 10
#: Best tight pairs per player in the first candidate graph of the tie phase.
TIE_CANDIDATES = 60
#: Largest tight graph (edges, per connected component) the first tie level solves whole
#: in one blossom run, without a candidate graph and pricing rounds: on its costs (colour
#: keys, nearly sums of per-player terms) the kernel's greedy start leaves little to do,
#: and one run is cheaper than re-solving growing candidate graphs whose pricing finds
#: many tied pairs. The lower levels (squared rank distances in the exact order of
#: :func:`~gameopt.pairing.pair_round`, growing with distance) cost the blossom many
#: dual changes on the whole graph: they are solved on candidates.
TIE_WHOLE = 3_000_000
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
    with costs ``tie(e) − 2Q·d(e)``, ``Q`` above any matching's tie total: its least
    is an optimal matching of least tie. On the first tie level a tight component of up
    to :data:`TIE_WHOLE` pairs is solved whole (one cold blossom run); other ones by
    the same loop
    (candidates: ``M`` and each player's best tight pairs; pricing over the tight
    graph).

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
        return sorted(zip(eu[matched].tolist(), ev[matched].tolist(), strict=True))
    ti, tj, td = tight
    stats["tight_edges"] = int(ti.size)
    mu, mv = eu[matched], ev[matched]
    edges = rounds2 = 0
    for k, level in enumerate((tie,) if tiers is None else tiers):
        got2 = _tie_level(n, ti, tj, td, level[ti, tj], mu, mv, k == 0)
        if got2 is None:
            stats["fallback"] = "tie costs beyond the kernel's integers"
            return None
        mu, mv, ti, tj, td, m, r = got2
        edges, rounds2 = edges + int(m), max(rounds2, int(r))
    stats.update(tie_edges=edges, tie_rounds=rounds2)
    return sorted(zip(mu.tolist(), mv.tolist(), strict=True))


def _tie_level(n: int, ti: npt.NDArray[np.int64], tj: npt.NDArray[np.int64],
               td: npt.NDArray[np.int64], t: npt.NDArray[np.int64],
               mu: npt.NDArray[np.int64], mv: npt.NDArray[np.int64], first: bool = True,
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
                         local[mu[mine]], local[mv[mine]], first)
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
               mv: npt.NDArray[np.int64], first: bool = True) -> tuple[Any, ...] | None:
    """The tie phase of :func:`sparse_exact` on one tight graph ``(ti, tj)`` (pairs in
    increasing ``ti·n + tj``) with costs ``c2`` and the pairs ``(mu, mv)`` of the level
    above (``first``: the first tie level, :data:`TIE_WHOLE`): the
    pairs (``pu, pv``), the indices of the pairs tight under its proven dual with their
    blossom counts, the last candidate graph's size and the pricing rounds."""
    lo2 = int(c2.min(initial=0))
    tkeys = ti * n + tj

    whole = first and ti.size <= TIE_WHOLE  # the whole tight graph (holds the matching above)

    def ec2(eu: npt.NDArray[np.int64], ev: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if whole:
            return 2 * (c2 - lo2)
        return 2 * (c2[np.searchsorted(tkeys, eu * n + ev)] - lo2)

    def price2(sol: tuple[Any, ...], scale: int) -> tuple[npt.NDArray[np.int64], ...]:
        if whole:  # every pair is a candidate: nothing left to price
            return none, none, none
        _, _, y, w, parent, _, _ = sol
        cpar, cumw, cumpos, _ = laminar_sums(n, w, parent)
        r = edge_reduced_costs(ti, tj, 2 * scale * (c2 - lo2), y, cpar, cumw, cumpos)
        bad = np.flatnonzero(r < 0)
        return ti[bad], tj[bad], r[bad]

    def widen2(stuck: npt.NDArray[np.bool_]) -> None:
        return None  # the candidates hold the phase-1 matching: never stuck

    none = np.empty(0, dtype=np.int64)
    if whole:
        cand = (ti, tj)
    else:
        pick = few_per_vertex(n, ti, tj, c2, TIE_CANDIDATES)
        key = np.union1d(ti[pick] * n + tj[pick], np.minimum(mu, mv) * n + np.maximum(mu, mv))
        cand = (key // n, key % n)
    got = _solve_priced(n, cand, ec2, price2, widen2)
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
