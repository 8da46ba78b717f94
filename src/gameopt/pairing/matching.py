"""Minimum-penalty pairing of a round: exact blossom matching, references and heuristics.

The round's pairing is a minimum-weight perfect matching of the field (plus the dummy
:data:`~gameopt.pairing.model.BYE` for an odd field) under the penalties of
:mod:`gameopt.pairing.penalties` (Nakajima 2002). Methods:

``"exact"``
    Edmonds' blossom algorithm, as rustworkx's compiled ``max_weight_matching``, on
    integer weights; preceded by an exact edge pruning (reduced-cost fixing, below).
``"networkx"``
    networkx's ``min_weight_matching``: the same algorithm in pure Python, the slow
    reference.
``"brute"``
    Every perfect matching enumerated (n ≤ 12): the obviously correct reference.
``"slim"``
    SLIM's heuristic: greedy top/bottom alternation, then 2-, 3- and 4-player swaps.
``"naive"``
    Top-down pairing in rank order (1-2, 3-4 ...) skipping rematches where it can.

Forbidden pairs are missing edges; when no perfect matching exists, the exact and
reference methods raise :class:`~gameopt.errors.InfeasibleError` naming the players a
maximum matching leaves unpaired.

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

**Exact pruning.** rustworkx's blossom costs O(n³) on a complete graph (about 3 s at
1,000 players on this machine), so ``"exact"`` first removes edges no optimal matching can
use. A dual-feasible solution of Edmonds' matching LP — vertex duals ``y`` and odd-set
duals ``z ≥ 0`` with reduced costs ``r(e) = c(e) − y_u − y_v − Σ_{S: e ∈ δ(S)} z_S ≥ 0`` —
is built by greedy dual ascent (vertices, then the classes of ``groups`` and their upper
unions when odd: the score groups, which an odd size forces to float). Since every perfect
matching crosses each odd set, ``c(M) ≥ LB + Σ_{e∈M} r(e)`` with ``LB = Σy + Σz``. An upper
bound ``UB`` comes from a heuristic perfect matching (SLIM's greedy, 2- and 3-swaps); an
edge with ``r(e) > UB − LB`` lies in no matching of cost ≤ ``UB``, so in no optimal one,
and is dropped. The kept graph contains the heuristic matching, hence a perfect matching,
and every optimal one: the blossom on it, one connected component at a time, is exact.
When the heuristic cannot avoid a forbidden pair the full graph is used.

References
----------
.. [1] J. Edmonds, "Paths, trees, and flowers", Canad. J. Math. 17:449-467, 1965; and
   "Maximum matching and a polyhedron with 0,1-vertices", J. Res. NBS 69B:125-130, 1965.
.. [2] Z. Galil, "Efficient algorithms for finding maximum matching in graphs", ACM
   Computing Surveys 18(1):23-38, 1986 (the O(n³) version rustworkx and networkx follow).
.. [3] T. Nakajima, "Pairing Algorithm", 2002 (PAPP's penalties; SLIM's heuristic).
.. [4] D. Applegate, W. Cook, "Solving large-scale matching problems", in Network Flows
   and Matching, DIMACS Series 12, 1993 (sparse graphs and pricing with LP duals).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt
import rustworkx as rx
from numba import njit

from gameopt.errors import InfeasibleError, InvalidInputError, SolverError
from gameopt.pairing.model import BYE, Pairing, RoundInput, Table
from gameopt.pairing.penalties import PairCosts, PenaltyParams, cost_matrix, group_positions
from gameopt.pairing.penalties import pair_cost as _pair_cost

__all__ = [
    "BRUTE_MAX",
    "MAX_COST",
    "METHODS",
    "SLIM_WINDOW",
    "brute_force_matching",
    "is_perfect_matching",
    "matching_cost",
    "min_weight_perfect_matching",
    "naive_matching",
    "pair_round",
    "slim_matching",
]

log = logging.getLogger(__name__)

#: The pairing methods of :func:`pair_round`.
METHODS = ("exact", "networkx", "slim", "naive", "brute")
#: Largest field the brute force accepts (10,395 perfect matchings at 12).
BRUTE_MAX = 12
#: Default window (in tables, rank order) of SLIM's 3- and 4-player swaps.
SLIM_WINDOW = 24
#: Largest absolute edge cost (doubled costs, duals and sums stay well inside int64).
MAX_COST = 2**50

Pairs = list[tuple[int, int]]
IntMatrix = npt.NDArray[np.int64]
BoolMatrix = npt.NDArray[np.bool_]


# --------------------------------------------------------------------------------------
# Input guards, checks and witnesses
# --------------------------------------------------------------------------------------


def _check_input(cost: npt.ArrayLike, allowed: npt.ArrayLike | None,
                 tiebreak: npt.ArrayLike | None, labels: Sequence[str] | None,
                 ) -> tuple[IntMatrix, BoolMatrix, IntMatrix | None, list[str]]:
    """Validated ``(cost, allowed, tiebreak, labels)``; raises InvalidInputError."""
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


def _sorted_pairs(pairs: Iterable[Sequence[int]]) -> Pairs:
    """Pairs as ``(low, high)`` tuples of Python ints, sorted."""
    return sorted((min(int(u), int(v)), max(int(u), int(v))) for u, v in pairs)


def _infeasible(allowed: BoolMatrix, names: Sequence[str]) -> InfeasibleError:
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
        return _sorted_pairs(mate) if 2 * len(mate) == n else None
    pairs: Pairs = []
    for part in sorted(sorted(p) for p in parts):
        if len(part) % 2:
            return None
        sub = g.subgraph(part)  # node payloads are the original indices
        mate = rx.max_weight_matching(sub, max_cardinality=True, weight_fn=int)
        if 2 * len(mate) != len(part):
            return None
        pairs += [(sub[u], sub[v]) for u, v in mate]
    return _sorted_pairs(pairs)


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


def _exact(cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | None, names: list[str],
           groups: npt.NDArray[np.int64] | None, prune: bool) -> Pairs:
    n = cost.shape[0]
    if n % 2:
        raise _infeasible(allowed, names)
    if prune and n >= 4:
        ub_pairs = _slim_search(cost, allowed, ks=(2, 3), window=SLIM_WINDOW)
        if all(allowed[u, v] for u, v in ub_pairs):
            r2, y2, lb2 = _dual_ascent(cost, allowed, groups)
            gap2 = 2 * matching_cost(cost, ub_pairs) - lb2
            keep = np.triu(allowed & (r2 <= gap2), 1)
            iu, ju = np.nonzero(keep)
            shifted = 2 * cost[iu, ju] - y2[iu] - y2[ju]  # vertex potentials only
            pairs = _blossom(n, iu, ju, _lex(shifted, None if tie is None
                                             else tie[iu, ju], n))
            if pairs is not None:
                return pairs
            log.warning("pruned graph lost its perfect matching; solving the full graph")
    iu, ju = np.nonzero(np.triu(allowed, 1))
    pairs = _blossom(n, iu, ju, _lex(cost[iu, ju], None if tie is None else tie[iu, ju], n))
    if pairs is None:
        raise _infeasible(allowed, names)
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
    pairs = _sorted_pairs(nx.min_weight_matching(g))
    if 2 * len(pairs) != n:
        raise _infeasible(allowed, names)
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
    c, a, t, names = _check_input(cost, allowed, tiebreak, labels)
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
        raise _infeasible(a, names)
    return sorted(best[0])


# --------------------------------------------------------------------------------------
# SLIM: greedy top/bottom alternation, then 2-, 3- and 4-player swaps
# --------------------------------------------------------------------------------------


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


_PATTERNS = {k: _patterns(k) for k in (2, 3, 4)}


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
def _swap_pass(cost: IntMatrix, tab: IntMatrix, k: int, window: int, pats: IntMatrix,
               rowmin: npt.NDArray[np.int64]) -> int:
    """One pass of k-table swaps over ``tab`` (tables within ``window``); improvements made.

    ``rowmin[v]`` is the cheapest cost of ``v`` to anyone; a table's slack
    ``2·c(a, b) − rowmin[a] − rowmin[b]`` is ≥ 0, and tables whose slacks are all 0 are
    already as cheap as their players allow, so that set is skipped.
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


def _forbidden_cost(cost: IntMatrix, allowed: BoolMatrix) -> IntMatrix:
    """``cost`` with forbidden pairs (and the diagonal) priced above any allowed matching."""
    n = cost.shape[0]
    vals = cost[allowed]
    span = int(vals.max() - vals.min()) + 1 if vals.size else 1
    big = int(vals.max(initial=0)) + span * (n // 2 + 1)
    return np.where(allowed, cost, np.int64(big))


def _slim_greedy(ck: IntMatrix) -> npt.NDArray[np.int64]:
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


def _slim_search(cost: IntMatrix, allowed: BoolMatrix, ks: Sequence[int] = (2, 3, 4),
                 window: int | None = None) -> Pairs:
    """Greedy construction, then k-swaps for each k in ``ks`` until none improves.

    Each k runs passes until a pass finds nothing; an improvement by a larger k sends the
    search back to the first k, so the result admits no improving swap of any k in
    ``ks`` (within ``window`` tables for k ≥ 3). Forbidden pairs cost more than any
    allowed matching, so swaps remove them whenever they can.
    """
    n = cost.shape[0]
    if n == 0:
        return []
    ck = _forbidden_cost(cost, allowed)
    tab = _slim_greedy(ck)
    rowmin = np.where(np.eye(n, dtype=np.bool_), np.iinfo(np.int64).max, ck).min(axis=1)
    level = 0
    while level < len(ks):
        k = ks[level]
        w = 0 if k == 2 or window is None else window
        if tab.shape[0] >= k and _swap_pass(ck, tab, k, w, _PATTERNS[k], rowmin) > 0:
            tab.sort(axis=1)
            tab = tab[np.argsort(tab[:, 0], kind="stable")]
            level = 0 if level > 0 else level
        else:
            level += 1
    return _sorted_pairs(tab.tolist())


def slim_matching(cost: npt.ArrayLike, allowed: npt.ArrayLike | None = None, *,
                  window: int | None = SLIM_WINDOW,
                  labels: Sequence[str] | None = None) -> Pairs:
    """SLIM's heuristic (Nakajima 2002, §4): greedy pairing improved by swaps.

    Vertices are taken in index order as the ranking. Construction: the best-ranked
    unpaired player is paired with the unpaired player he costs least against, then the
    worst-ranked unpaired one likewise, alternately. Improvement: while swapping the
    opponents of 2 players lowers the total, swap; then 3 players, then 4; an
    improvement by 3 or 4 restarts from 2. The result is a local optimum: no set of up to
    4 tables can be re-paired more cheaply.

    Parameters
    ----------
    cost : array_like of int, shape (n, n)
    allowed : array_like of bool, shape (n, n), optional
    window : int or None
        3- and 4-player swaps only among tables within ``window`` consecutive tables of
        the rank order (2-player swaps are always over all pairs of tables). ``None``
        gives the seed's full neighbourhoods, O(n⁴) per pass.
    labels : sequence of str, optional
        Names for the error message.

    Raises
    ------
    InfeasibleError
        No perfect matching avoids the forbidden pairs.

    Notes
    -----
    Construction O(n²); a pass of k-swaps O(T·window^(k−1)) with T = n/2 tables, in a
    numba kernel. If the swaps cannot remove a forbidden pair although a perfect
    matching exists (seen only when most pairs are forbidden: about 1 field in 60 of
    random fields with 80 % of pairs forbidden), the exact solver's matching is returned
    and a warning logged.
    """
    c, a, _, names = _check_input(cost, allowed, None, labels)
    if c.shape[0] % 2:
        raise _infeasible(a, names)
    pairs = _slim_search(c, a, window=window)
    if not all(a[u, v] for u, v in pairs):
        exact = _exact(c, a, None, names, None, prune=False)  # raises if infeasible
        log.warning("SLIM's swaps left a forbidden pair; using the exact matching")
        return exact
    return pairs


# --------------------------------------------------------------------------------------
# Naive top-down pairing
# --------------------------------------------------------------------------------------


def naive_matching(allowed: npt.ArrayLike, avoid: npt.ArrayLike | None = None, *,
                   labels: Sequence[str] | None = None) -> Pairs:
    """Top-down pairing in index (rank) order: 1-2, 3-4 ..., skipping avoided pairs.

    The best-ranked unpaired player meets the next unpaired one he is allowed to meet and
    does not ``avoid`` (a rematch), or failing that the next one he is allowed to meet. If
    the greedy pass is left with players that may not meet, the pairing with fewest
    avoided pairs and then least rank distance is computed exactly instead.

    Raises
    ------
    InvalidInputError
        Matrices of the wrong shape.
    InfeasibleError
        No perfect matching avoids the forbidden pairs.

    Notes
    -----
    O(n²) in the worst case, O(n) typically.
    """
    a = np.asarray(allowed, dtype=np.bool_)
    n = a.shape[0] if a.ndim == 2 else -1
    av = np.zeros_like(a) if avoid is None else np.asarray(avoid, np.bool_)
    if a.shape != (n, n) or av.shape != (n, n):
        raise InvalidInputError(f"naive_matching: allowed and avoid must be square and of "
                                f"one shape, got {a.shape} and {av.shape}")
    names = [str(k) for k in range(n)] if labels is None else list(labels)
    free = list(range(n))
    pairs: Pairs = []
    while len(free) >= 2:
        u = free[0]
        ok = [v for v in free[1:] if a[u, v]]
        if not ok:
            break
        v = next((w for w in ok if not av[u, w]), ok[0])
        free.remove(u)
        free.remove(v)
        pairs.append((u, v))
    if not free:
        return sorted(pairs)
    idx = np.arange(n)
    fallback = av.astype(np.int64) * (n * n) + np.abs(idx[:, None] - idx[None, :])
    return _exact(fallback, a & ~np.eye(n, dtype=np.bool_), None, names, None, prune=True)


# --------------------------------------------------------------------------------------
# Public entries
# --------------------------------------------------------------------------------------


def min_weight_perfect_matching(cost: npt.ArrayLike, allowed: npt.ArrayLike | None = None,
                                *, method: str = "exact",
                                tiebreak: npt.ArrayLike | None = None,
                                labels: Sequence[str] | None = None,
                                groups: npt.ArrayLike | None = None,
                                prune: bool = True,
                                window: int | None = SLIM_WINDOW) -> Pairs:
    """Perfect matching of least total integer cost.

    Parameters
    ----------
    cost : array_like of int, shape (n, n)
        Symmetric edge costs (the diagonal and forbidden entries are ignored); any
        integers, negative ones included.
    allowed : array_like of bool, shape (n, n), optional
        Symmetric; False entries are missing edges (forbidden pairs). Default: all.
    method : {"exact", "networkx", "brute", "slim"}
        rustworkx's blossom (with exact pruning), networkx's, enumeration (n ≤ 12), or
        SLIM's heuristic (not optimal in general).
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
    window : int or None
        SLIM only: see :func:`slim_matching`.

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
    Exact: O(n³) blossom (Edmonds 1965; Galil 1986) on the pruned graph, after O(n²)
    bounds; networkx: the same algorithm in Python, O(n³) with a much larger constant;
    brute: (n − 1)!!. The result is checked to be a perfect matching of allowed pairs.

    Examples
    --------
    >>> c = [[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]]
    >>> min_weight_perfect_matching(c)
    [(0, 1), (2, 3)]
    """
    if method not in ("exact", "networkx", "brute", "slim"):
        raise InvalidInputError(f"matching: unknown method {method!r} (exact, networkx, "
                                f"brute, slim)")
    c, a, t, names = _check_input(cost, allowed, tiebreak, labels)
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
    elif method == "slim":
        pairs = slim_matching(c, a, window=window, labels=names)
    else:
        pairs = _exact(c, a, t, names, g, prune)
    if not is_perfect_matching(pairs, n, a):  # the claim, checked
        raise SolverError(f"matching ({method}): the result is not a perfect matching of "
                          f"allowed pairs")
    return pairs


def _field_matrices(pc: PairCosts) -> tuple[IntMatrix, BoolMatrix, IntMatrix,
                                            npt.NDArray[np.int64]]:
    """Cost, allowed, tiebreak and groups with the bye as an extra vertex if n is odd."""
    n = len(pc.players)
    m = n + n % 2
    cost = np.zeros((m, m), dtype=np.int64)
    allowed = np.zeros((m, m), dtype=np.bool_)
    cost[:n, :n] = pc.cost
    allowed[:n, :n] = pc.allowed
    scores = np.array([p.score for p in pc.players], dtype=np.int64)
    if m > n:
        cost[:n, n] = cost[n, :n] = pc.bye
        allowed[:n, n] = allowed[n, :n] = pc.bye_allowed
        scores = np.append(scores, scores.min() - 1)
    idx = np.arange(m)
    tie = (idx[:, None] - idx[None, :]) ** 2
    return cost, allowed, tie, scores


def pair_round(round_input: RoundInput, params: PenaltyParams | None = None,
               method: str = "exact") -> Pairing:
    """Pair one round: the least-penalty pairing (PAPP's objective) or a comparison rule.

    Parameters
    ----------
    round_input : RoundInput
        The active players with their history, and the forbidden pairs.
    params : PenaltyParams, optional
        Penalties and the terms switched on (default: PAPP's set with default values).
    method : {"exact", "networkx", "slim", "naive", "brute"}
        ``"exact"``: optimal by rustworkx's blossom; ``"networkx"``: optimal, slow
        reference; ``"slim"``: SLIM's greedy + swaps; ``"naive"``: top-down in rank order
        skipping rematches (the bye to the player :func:`~gameopt.pairing.penalties.pen_bye`
        prices lowest); ``"brute"``: enumeration, at most 12 players with the bye.

    Returns
    -------
    Pairing
        Tables numbered by their better-ranked player (the bye, if any, last), each with
        the cheaper colour assignment, its cost and its terms ("why this pairing");
        ``total_cost`` is their sum.

    Raises
    ------
    InvalidInputError
        Unknown method, duplicate or reserved player ids.
    InfeasibleError
        The forbidden pairs leave no pairing; the message names players left unpaired.

    Notes
    -----
    Deterministic: among pairings of least total penalty, the exact methods return one
    with the least sum of squared rank distances (players meet the nearest in the
    standings: 1-2, 3-4 when all else is equal), and the solver sees players in
    (rank, id) order, so the same input gives the same pairing.

    Cost matrix O(n²) with numpy; exact matching O(n³) worst case (Edmonds 1965), less
    after pruning: about 0.7 s of CPU for 1,000 players after 8 rounds, 1-1.3 s in the
    first rounds (big flat score groups), on the development machine
    (``benchmarks/bench_pairing.py``).

    References
    ----------
    .. [1] T. Nakajima, "Pairing Algorithm", 2002; PAPP's documentation.
    .. [2] J. Edmonds, "Paths, trees, and flowers", 1965.
    """
    if method not in METHODS:
        raise InvalidInputError(f"pair_round: unknown method {method!r} "
                                f"({', '.join(METHODS)})")
    params = params or PenaltyParams()
    pc = cost_matrix(round_input, params)
    players = pc.players
    n = len(players)
    cost, allowed, tie, scores = _field_matrices(pc)
    labels = [p.id for p in players] + ([BYE] if cost.shape[0] > n else [])
    if method == "naive":
        try:
            pairs = _naive_round(pc, allowed, labels)
        except InfeasibleError:  # the naive bye may leave the rest unpairable
            pairs = _exact(cost, allowed, tie, labels, scores, prune=True)
    else:
        pairs = min_weight_perfect_matching(cost, allowed, method=method, tiebreak=tie,
                                            labels=labels, groups=scores)
    return _pairing(round_input, params, pc, pairs, method)


def _naive_round(pc: PairCosts, allowed: BoolMatrix, labels: list[str]) -> Pairs:
    """The naive rule: bye first (cheapest :func:`pen_bye`, lowest-ranked on a tie), then
    top-down. If that bye leaves the others unpairable, :func:`pair_round` falls back to
    the exact pairing (which raises when nothing works)."""
    n = len(pc.players)
    rest = list(range(n))
    pairs: Pairs = []
    if n % 2:
        ok = np.flatnonzero(pc.bye_allowed)
        if ok.size == 0:
            raise _infeasible(allowed, labels)
        b = int(ok[np.lexsort((-ok, pc.bye[ok]))[0]])
        pairs.append((b, n))
        rest.remove(b)
    sub = np.ix_(rest, rest)
    inner = naive_matching(pc.allowed[sub], pc.rematch[sub], labels=[labels[k] for k in rest])
    pairs += [(rest[u], rest[v]) for u, v in inner]
    return sorted(pairs)


def _pairing(round_input: RoundInput, params: PenaltyParams, pc: PairCosts, pairs: Pairs,
             method: str) -> Pairing:
    """Tables in order of their better-ranked player, bye last, with costs and terms."""
    players = pc.players
    n = len(players)
    pos = group_positions(players)
    games: list[tuple[int, str, str, int, dict[str, int]]] = []
    bye: Table | None = None
    for u, v in sorted(pairs):
        if v == n:
            cost = int(pc.bye[u])
            bye = Table(0, players[u].id, BYE, cost, {"bye": cost})
            continue
        cost, black, white, terms = _pair_cost(players[u], players[v], round_input, params,
                                               positions=pos)
        games.append((u, black, white, cost, terms))
    tables = [Table(k, black, white, cost, terms)
              for k, (_, black, white, cost, terms) in enumerate(games, start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, bye.black, BYE, bye.cost, bye.terms))
    return Pairing(round_input.round_no, tuple(tables), sum(t.cost for t in tables), method)

