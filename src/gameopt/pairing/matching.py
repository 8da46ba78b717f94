"""Minimum-cost perfect matching, exact: Edmonds' blossom with edge pruning, and references.

A round's pairing is a minimum-weight perfect matching of the field (plus the dummy
:data:`~gameopt.pairing.model.BYE` for an odd field) under the penalties of
:mod:`gameopt.pairing.penalties`; :mod:`gameopt.pairing.pairer` builds the matrices and
calls :func:`min_weight_perfect_matching`. Methods:

``"exact"``
    Our Edmonds blossom (numba, :mod:`gameopt.pairing._blossom_kernel`), which returns
    the optimal LP duals with the matching, on a sparse candidate graph; every other
    pair is priced by those duals and the graph grows until none prices below 0, which
    proves the matching optimal on the whole graph
    (:func:`~gameopt.pairing._sparse.sparse_exact`). When the costs do not fit its
    integers, the ``"rustworkx"`` path runs instead.
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
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import rustworkx as rx

from gameopt.errors import InfeasibleError, InvalidInputError, SolverError
from gameopt.pairing._blossom_kernel import few_per_vertex, matrix_faults
from gameopt.pairing._slim_kernels import SLIM_WINDOW, local_search
from gameopt.pairing._sparse import sparse_exact

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
    a = a.copy()
    np.fill_diagonal(a, False)
    if c.dtype == np.int64:  # one pass without n × n temporaries (the usual case)
        fault, i, j, top = matrix_faults(np.ascontiguousarray(c), np.ascontiguousarray(a),
                                         MAX_COST)
    else:
        fault, i, j, top = _matrix_faults_numpy(c, a)
    if fault == 1:
        raise InvalidInputError(f"matching: allowed is not symmetric at ({i}, {j})")
    if fault == 2:
        raise InvalidInputError(f"matching: costs must lie within ±2**50, got {top}")
    if fault == 3:
        raise InvalidInputError(f"matching: cost is not symmetric at ({i}, {j}): "
                                f"{c[i, j]} != {c[j, i]}")
    c = c.astype(np.int64, copy=False)
    t = None
    if tiebreak is not None:
        t = np.asarray(tiebreak)
        if t.shape != (n, n) or not np.issubdtype(t.dtype, np.integer) or (t < 0).any():
            raise InvalidInputError(f"matching: tiebreak must be a non-negative integer "
                                    f"{n}x{n} matrix, got {t.dtype} {t.shape}")
        t = t.astype(np.int64, copy=False)
    names = [str(k) for k in range(n)] if labels is None else [str(x) for x in labels]
    if len(names) != n:
        raise InvalidInputError(f"matching: {len(names)} labels for {n} vertices")
    return c, a, t, names


def _matrix_faults_numpy(c: npt.NDArray[Any], a: BoolMatrix) -> tuple[int, int, int, int]:
    """:func:`~gameopt.pairing._blossom_kernel.matrix_faults` for any integer dtype, with
    numpy (its reference): ``(fault, i, j, top)``."""
    if not np.array_equal(a, a.T):
        i, j = np.argwhere(a != a.T)[0]
        return 1, int(i), int(j), 0
    top = max((abs(int(x)) for x in (c[a].min(initial=0), c[a].max(initial=0))), default=0)
    if top > MAX_COST:
        return 2, -1, -1, top
    c = c.astype(np.int64)
    if not np.array_equal(np.where(a, c, 0), np.where(a, c, 0).T):
        i, j = np.argwhere(np.where(a, c, 0) != np.where(a, c, 0).T)[0]
        return 3, int(i), int(j), 0
    return 0, -1, -1, 0


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


def warm_kernels() -> None:
    """Compile (or load from the cache) every numba kernel of the exact path, on a small
    instance with ties, so that timings exclude it."""
    rng = np.random.default_rng(0)
    c = np.triu(rng.integers(0, 3, (40, 40)), 1)
    t = np.triu(rng.integers(0, 9, (40, 40)), 1)
    a = ~np.eye(40, dtype=np.bool_)
    sparse_exact((c + c.T).astype(np.int64), a, (t + t.T).astype(np.int64), {})
    # the lower tie levels' candidate choice, which the small instance does not reach (its
    # compile was 1.6 s inside the first timed 1,000-player round)
    e = np.array([0, 1], dtype=np.int64)
    few_per_vertex(3, e, e + 1, e[::-1].copy(), 1)


def solve_exact(cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | None, names: list[str],
                groups: npt.NDArray[np.int64] | None, prune: bool,
                stats: dict[str, Any] | None = None, kernel: str = "sparse",
                tiers: Sequence[IntMatrix] | None = None) -> Pairs:
    """The exact method on checked input (:func:`check_matrices`).

    ``kernel="sparse"``: :func:`~gameopt.pairing._sparse.sparse_exact` (our blossom on
    a candidate graph priced by its LP duals); when it does not apply (costs beyond its
    integers) or finds no perfect matching, the rustworkx path below runs (and names
    the unpairable players).
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

