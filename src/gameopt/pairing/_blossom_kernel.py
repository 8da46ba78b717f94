"""Minimum-cost perfect matching on a sparse graph with its optimal LP duals (numba).

Edmonds' primal-dual blossom algorithm, in the O(n³) organisation of Galil's survey
(every free vertex roots an alternating tree; one augmentation per stage; the dual
change ``δ`` is the least of the three events below), written for *minimum cost*
*perfect* matching with integer costs, returning the matching and an optimal dual of
Edmonds' LP in the "inside" form:

    max  Σ_v y_v − Σ_B w_B·(|B| − 1)/2
    s.t. r(i, j) = c(i, j) − y_i − y_j + Σ_{B ∋ i, j} w_B ≥ 0 for every edge,  w_B ≥ 0,

B ranging over odd vertex sets (here: the blossoms, a laminar family).

Arrays (all int64 unless said):

* edges ``eu[k], ev[k], ec[k]`` (``k < m``); ``ec`` is **twice** the cost, so that every
  dual stays an integer (below);
* ``adj_start (n + 1,)``, ``adj_edge (2m,)``: the edges at vertex ``v`` are
  ``adj_edge[adj_start[v]:adj_start[v + 1]]`` (CSR);
* ``y (n,)`` vertex duals, ``w (2n,)`` blossom duals (ids ``n..2n − 1``; ids below ``n``
  are the trivial blossoms, the vertices);
* ``mate (n,)``: the matched edge at ``v`` or −1;
* ``inb (n,)``: the outermost blossom holding ``v``; ``parent (2n,)``: the blossom
  directly holding ``b`` or −1; ``base (2n,)``: a blossom's base vertex, −1 for an unused
  id;
* ``childs[b]``: the sub-blossoms ``c_0..c_{k−1}`` of ``b`` around its odd cycle, ``c_0``
  holding the base; ``cedge[b][i]`` is the edge joining ``c_i`` and ``c_{i+1 mod k}``
  and ``cend[b][i]`` its endpoint in ``c_i``. The matched cycle edges are those of odd
  ``i``;
* ``label (2n,)``: 0 none, 1 S (outer), 2 T (inner) for outermost blossoms; on a vertex
  inside a T-blossom, 2 records that a tight edge from an S-vertex reaches it (used when
  that T-blossom is expanded); bit 4 marks blossoms on the paths of :func:`_scan`.
  ``ledge (2n,)`` is the edge that gave the label (−1 for a root) and ``lfrom (2n,)``
  its endpoint outside the labelled blossom;
* ``best (2n,)``: for an S-blossom, its least-slack edge to another S-blossom; for a
  vertex not in an S-blossom, its least-slack edge to an S-blossom; ``bestlist[b]`` the
  candidate edges kept by a non-trivial S-blossom (``hasbl[b]``).

A stage does not stop at its first augmentation: the two trees it joins are marked spent
(``tree``, ``dead``: the root of each labelled blossom's tree) and the others keep
growing on tight edges; the duals change only in a stage without augmentation, so the
spent trees' labels never enter a dual change. Blossoms of zero dual are kept between
stages (Galil expands them; they stay valid, with tight cycle edges and ``w = 0``).

Integrality: costs are doubled and the vertex duals start even; every vertex labelled in
a stage has the parity of the free vertices (tight edges preserve it) and all of them
move by ``±δ``, so the slack of an edge between two S-blossoms is even and ``δ`` stays an
integer (the half-integrality of Edmonds' duals, on doubled costs).

References
----------
.. [1] J. Edmonds, "Paths, trees, and flowers", Canad. J. Math. 17:449-467, 1965; and
   "Maximum matching and a polyhedron with 0,1-vertices", J. Res. NBS 69B:125-130, 1965.
.. [2] Z. Galil, "Efficient algorithms for finding maximum matching in graphs", ACM
   Computing Surveys 18(1):23-38, 1986.
.. [3] W. Cook, A. Rohe, "Computing minimum-weight perfect matchings", INFORMS J. on
   Computing 11(2):138-148, 1999 (greedy initial duals and matching, sparse graphs).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["NO_PERFECT", "OK", "OVERFLOW", "blossom_min_cost", "edge_holders",
           "edge_reduced_costs", "few_per_vertex", "laminar_sums", "matrix_faults",
           "price_edges"]

IntArray = npt.NDArray[np.int64]

_S = 1
_T = 2
_MARK = 4
#: The result codes of :func:`blossom_min_cost`.
OK, NO_PERFECT, OVERFLOW = 0, 1, 2
_LIMIT = 1 << 61
_INT_MIN = -(1 << 63)


@njit(cache=True)
def _int_list() -> list[int]:
    """An empty list of int64 (typed for numba)."""
    out = [0]
    out.clear()
    return out


@njit(cache=True, inline="always")
def _other(eu: IntArray, ev: IntArray, k: int, v: int) -> int:
    return ev[k] if eu[k] == v else eu[k]


@njit(cache=True, inline="always")
def _slack(eu: IntArray, ev: IntArray, ec: IntArray, y: IntArray, k: int) -> int:
    return ec[k] - y[eu[k]] - y[ev[k]]


@njit(cache=True)
def _leaves(b: int, n: int, childs: list[IntArray]) -> IntArray:
    """The vertices of blossom ``b`` (depth first)."""
    if b < n:
        out = np.empty(1, dtype=np.int64)
        out[0] = b
        return out
    stack = [b]
    acc = []
    while stack:
        t = stack.pop()
        if t < n:
            acc.append(t)
        else:
            for c in childs[t]:
                stack.append(c)
    return np.array(acc, dtype=np.int64)


@njit(cache=True, inline="always")
def _set_label(v: int, b: int, t: int, k: int, frm: int, root: int, label: IntArray,
               ledge: IntArray, lfrom: IntArray, best: IntArray, tree: IntArray) -> None:
    """Label vertex ``v`` and its outer blossom ``b``: ``t`` through edge ``k`` from
    ``frm``, in the tree of ``root``."""
    label[v] = t
    label[b] = t
    ledge[v] = k
    ledge[b] = k
    lfrom[v] = frm
    lfrom[b] = frm
    tree[b] = root
    best[b] = -1


@njit(cache=True)
def _assign(v: int, t: int, k: int, frm: int, n: int, eu: IntArray, ev: IntArray,
            mate: IntArray, inb: IntArray, base: IntArray, label: IntArray,
            ledge: IntArray, lfrom: IntArray, best: IntArray, childs: list[IntArray],
            queue: list[int], tree: IntArray) -> None:
    """Label vertex ``v``'s outer blossom ``t`` (S or T) through edge ``k`` from ``frm``;
    a T-blossom's base mate is labelled S in turn; S-vertices go on the queue. ``tree``
    gets the root of the labelled blossoms' tree."""
    root = v if frm == -1 else tree[inb[frm]]
    while True:
        b = inb[v]
        _set_label(v, b, t, k, frm, root, label, ledge, lfrom, best, tree)
        best[v] = -1
        if t == _S:
            if b < n:
                queue.append(b)
            else:
                for x in _leaves(b, n, childs):
                    queue.append(x)
            return
        bv = base[b]
        k = mate[bv]
        frm = bv
        v = _other(eu, ev, k, bv)
        t = _S


@njit(cache=True)
def _scan(v: int, w: int, inb: IntArray, base: IntArray, label: IntArray,
          ledge: IntArray, lfrom: IntArray) -> int:
    """Trace the trees of S-vertices ``v`` and ``w`` towards their roots, alternately:
    the base of their first common blossom (a new blossom), or −1 (an augmenting path)."""
    path = []
    found = -1
    while v != -1 or w != -1:
        if v != -1:
            b = inb[v]
            if label[b] & _MARK:
                found = base[b]
                break
            label[b] |= _MARK
            path.append(b)
            if ledge[b] == -1:
                v = -1
            else:
                v = lfrom[inb[lfrom[b]]]  # S-vertex that labelled the T-blossom above
        if w != -1:
            v, w = w, v
    for b in path:
        label[b] = _S
    return found


@njit(cache=True)
def _trace(b: int, stop: int, inb: IntArray, ledge: IntArray, lfrom: IntArray,
           eu: IntArray, ev: IntArray, out_b: list[int], out_e: list[int],
           out_in: list[int], out_out: list[int]) -> None:
    """The outer blossoms from ``b`` up its tree to (excluding) ``stop``, with the edge
    leading up from each and that edge's endpoints inside and above."""
    while b != stop:
        out_b.append(b)
        k = ledge[b]
        frm = lfrom[b]
        out_e.append(k)
        out_out.append(frm)
        out_in.append(_other(eu, ev, k, frm))
        b = inb[frm]


@njit(cache=True, inline="always")
def _keep_best(e: int, b: int, eu: IntArray, ev: IntArray, ec: IntArray, y: IntArray,
               inb: IntArray, label: IntArray, bestto: IntArray, touched: list[int]) -> None:
    """Keep edge ``e`` in ``bestto`` if it is the least-slack edge yet from blossom ``b``
    to the S-blossom at its other end."""
    bi, bj = inb[eu[e]], inb[ev[e]]
    if bi == bj:
        return
    o = bj if bi == b else bi
    if label[o] == _S:
        if bestto[o] == -1:
            touched.append(o)
            bestto[o] = e
        elif _slack(eu, ev, ec, y, e) < _slack(eu, ev, ec, y, bestto[o]):
            bestto[o] = e


@njit(cache=True)
def _add_blossom(bse: int, k: int, n: int, eu: IntArray, ev: IntArray, ec: IntArray,
                 y: IntArray, w: IntArray, inb: IntArray, parent: IntArray,
                 base: IntArray, label: IntArray, ledge: IntArray, lfrom: IntArray,
                 best: IntArray, childs: list[IntArray], cedge: list[IntArray],
                 cend: list[IntArray], bestlist: list[IntArray], hasbl: npt.NDArray[np.bool_],
                 bestto: IntArray, freeb: list[int], queue: list[int],
                 adj_start: IntArray, adj_edge: IntArray, tree: IntArray) -> None:
    """Shrink the odd cycle closed by edge ``k`` (between two S-blossoms of one tree)
    into a new S-blossom with base ``bse``."""
    v, u = eu[k], ev[k]
    bb = inb[bse]
    bv, bu = inb[v], inb[u]
    b = freeb.pop()
    base[b] = bse
    parent[b] = -1
    parent[bb] = b
    vb, ve, vin, vout = _int_list(), _int_list(), _int_list(), _int_list()
    _trace(bv, bb, inb, ledge, lfrom, eu, ev, vb, ve, vin, vout)
    ub, ue, uin, uout = _int_list(), _int_list(), _int_list(), _int_list()
    _trace(bu, bb, inb, ledge, lfrom, eu, ev, ub, ue, uin, uout)
    size = 1 + len(vb) + len(ub)
    ch = np.empty(size, dtype=np.int64)
    ce = np.empty(size, dtype=np.int64)
    cn = np.empty(size, dtype=np.int64)
    ch[0] = bb
    # c_0 = bb, then the v-side from bb's neighbour down to bv, then k, then the u-side
    # from bu up to bb's neighbour, whose edge closes the cycle at bb.
    pos = 1
    if len(vb):
        ce[0] = ve[len(vb) - 1]
        cn[0] = vout[len(vb) - 1]
    for j in range(len(vb) - 1, -1, -1):
        ch[pos] = vb[j]
        if j > 0:
            ce[pos] = ve[j - 1]
            cn[pos] = vout[j - 1]
        pos += 1
    # edge k from the last v-side child (or bb) to the first u-side child (or bb)
    ce[pos - 1] = k
    cn[pos - 1] = v
    for j in range(len(ub)):
        ch[pos] = ub[j]
        ce[pos] = ue[j]
        cn[pos] = uin[j]
        pos += 1
    childs[b] = ch
    cedge[b] = ce
    cend[b] = cn
    for c in ch:
        parent[c] = b
    label[b] = _S
    ledge[b] = ledge[bb]
    tree[b] = tree[bb]
    lfrom[b] = lfrom[bb]
    w[b] = 0
    for x in _leaves(b, n, childs):
        if label[inb[x]] == _T:
            queue.append(x)  # a T-vertex becomes S
        inb[x] = b
    # least-slack edges from the new blossom to each other S-blossom
    touched = [0]
    touched.clear()
    for c in ch:
        if c >= n and hasbl[c]:
            for e in bestlist[c]:
                _keep_best(int(e), b, eu, ev, ec, y, inb, label, bestto, touched)
            hasbl[c] = False
            bestlist[c] = np.empty(0, dtype=np.int64)
        else:
            for x in (_leaves(int(c), n, childs) if c >= n else np.array([c])):
                for a in range(adj_start[x], adj_start[x + 1]):
                    _keep_best(int(adj_edge[a]), b, eu, ev, ec, y, inb, label, bestto, touched)
        best[c] = -1
    out = np.empty(len(touched), dtype=np.int64)
    best[b] = -1
    for t_ in range(len(touched)):
        e = bestto[touched[t_]]
        out[t_] = e
        bestto[touched[t_]] = -1
        if best[b] == -1 or _slack(eu, ev, ec, y, e) < _slack(eu, ev, ec, y, best[b]):
            best[b] = e
    bestlist[b] = out
    hasbl[b] = True


@njit(cache=True)
def _rotate(b: int, v: int, n: int, eu: IntArray, ev: IntArray, mate: IntArray,
            parent: IntArray, base: IntArray, childs: list[IntArray],
            cedge: list[IntArray], cend: list[IntArray]) -> None:
    """Make vertex ``v`` the base of blossom ``b`` by swapping matched and unmatched
    edges along the even path from ``v``'s sub-blossom to ``c_0``, in every level."""
    stack_b = [b]
    stack_v = [v]
    while stack_b:
        b = stack_b.pop()
        v = stack_v.pop()
        t = v
        while parent[t] != b:
            t = parent[t]
        if t >= n:
            stack_b.append(t)
            stack_v.append(v)
        ch, ce, cn = childs[b], cedge[b], cend[b]
        size = len(ch)
        i = 0
        while ch[i] != t:
            i += 1
        # newly matched cycle edges: e_{i+1}, e_{i+3}, ..., e_{size-1} (i odd) or
        # e_{i-2}, e_{i-4}, ..., e_0 (i even)
        first, stop, step = (i + 1, size, 2) if i % 2 == 1 else (i - 2, -1, -2)
        for j in range(first, stop, step):
            e = ce[j]
            a = cn[j]
            c = _other(eu, ev, e, a)
            mate[a] = e
            mate[c] = e
            ca = ch[j]
            cb = ch[(j + 1) % size]
            if ca >= n:
                stack_b.append(ca)
                stack_v.append(a)
            if cb >= n:
                stack_b.append(cb)
                stack_v.append(c)
        # rotate so that t is c_0
        childs[b] = np.concatenate((ch[i:], ch[:i]))
        cedge[b] = np.concatenate((ce[i:], ce[:i]))
        cend[b] = np.concatenate((cn[i:], cn[:i]))
        base[b] = v


@njit(cache=True)
def _augment(k: int, n: int, eu: IntArray, ev: IntArray, mate: IntArray, inb: IntArray,
             parent: IntArray, base: IntArray, ledge: IntArray, lfrom: IntArray,
             childs: list[IntArray], cedge: list[IntArray], cend: list[IntArray]) -> None:
    """Augment along the path through edge ``k`` joining two trees' S-vertices."""
    for side in range(2):
        s = eu[k] if side == 0 else ev[k]
        e = k
        while True:
            bs = inb[s]
            if bs >= n:
                _rotate(bs, s, n, eu, ev, mate, parent, base, childs, cedge, cend)
            mate[s] = e
            if ledge[bs] == -1:
                break
            bt = inb[lfrom[bs]]
            e = ledge[bt]
            s = lfrom[bt]
            tv = _other(eu, ev, e, s)
            if bt >= n:
                _rotate(bt, tv, n, eu, ev, mate, parent, base, childs, cedge, cend)
            mate[tv] = e


@njit(cache=True)
def _expand(b: int, endstage: bool, n: int, eu: IntArray, ev: IntArray, mate: IntArray,
            w: IntArray, inb: IntArray, parent: IntArray, base: IntArray, label: IntArray,
            ledge: IntArray, lfrom: IntArray, best: IntArray, childs: list[IntArray],
            cedge: list[IntArray], cend: list[IntArray], bestlist: list[IntArray],
            hasbl: npt.NDArray[np.bool_], freeb: list[int], queue: list[int],
            allow: npt.NDArray[np.bool_], tree: IntArray) -> None:
    """Dissolve blossom ``b`` into its sub-blossoms (recursively those with zero dual at
    the end of a stage); a T-blossom's sub-blossoms on the even path from its entry to
    its base are relabelled T and S, the others T if a tight edge reaches them."""
    ch = childs[b]
    for c in ch:
        parent[c] = -1
        if c < n:
            inb[c] = c
        elif endstage and w[c] == 0:
            _expand(c, endstage, n, eu, ev, mate, w, inb, parent, base, label, ledge,
                    lfrom, best, childs, cedge, cend, bestlist, hasbl, freeb, queue,
                    allow, tree)
        else:
            for x in _leaves(c, n, childs):
                inb[x] = c
    if not endstage and label[b] == _T:
        ce, cn = cedge[b], cend[b]
        size = len(ch)
        entry_v = _other(eu, ev, ledge[b], lfrom[b])
        entry = inb[entry_v]
        j = 0
        while ch[j] != entry:
            j += 1
        k = ledge[b]
        frm = lfrom[b]
        if j % 2 == 1:  # forward to c_size == c_0
            step = 1
        else:
            step = -1
        while j % size != 0:
            # relabel the T-sub-blossom at j (entered by k from frm); its base's mate,
            # the next child, becomes S
            tv = _other(eu, ev, k, frm)
            label[tv] = 0
            cj = ch[j % size]
            nxt = ch[(j + step) % size]
            label[cj] = 0
            label[nxt] = 0
            _assign(tv, _T, k, frm, n, eu, ev, mate, inb, base, label, ledge, lfrom, best,
                    childs, queue, tree)
            # the edge from the S-child at j + step to the T-child at j + 2 step
            j += step
            if step == 1:
                e = ce[j % size]
                frm = cn[j % size]
            else:
                e = ce[(j - 1) % size]
                frm = _other(eu, ev, e, cn[(j - 1) % size])
            allow[e] = True
            k = e
            j += step
        # the base child: T, without following its (outside) mate
        _set_label(_other(eu, ev, k, frm), ch[0], _T, k, frm, tree[b], label, ledge, lfrom,
                   best, tree)
        # the other children: T when a tight edge from an S-vertex reaches them
        j += step
        while ch[j % size] != entry:
            c = ch[j % size]
            if label[c] == _S:
                j += step
                continue
            hit = -1
            for x in _leaves(c, n, childs):
                if label[x] != 0:
                    hit = x
                    break
            if hit != -1:
                label[hit] = 0
                label[c] = 0
                bm = base[c]
                label[_other(eu, ev, mate[bm], bm)] = 0
                _assign(hit, _T, ledge[hit], lfrom[hit], n, eu, ev, mate, inb, base,
                        label, ledge, lfrom, best, childs, queue, tree)
            j += step
    label[b] = 0
    ledge[b] = -1
    lfrom[b] = -1
    best[b] = -1
    base[b] = -1
    w[b] = 0
    hasbl[b] = False
    bestlist[b] = np.empty(0, dtype=np.int64)
    childs[b] = np.empty(0, dtype=np.int64)
    cedge[b] = np.empty(0, dtype=np.int64)
    cend[b] = np.empty(0, dtype=np.int64)
    freeb.append(b)


@njit(cache=True)
def _start_duals(n: int, eu: IntArray, ev: IntArray, ec: IntArray, adj_start: IntArray,
                 adj_edge: IntArray, y: IntArray) -> None:
    """Even vertex duals raised greedily, each vertex to its least reduced edge."""
    for v in range(n):
        lo = _LIMIT
        for a in range(adj_start[v], adj_start[v + 1]):
            lo = min(lo, ec[adj_edge[a]])
        y[v] = 0 if lo == _LIMIT else 2 * ((lo // 2) // 2)
    for v in range(n):
        d = _LIMIT
        for a in range(adj_start[v], adj_start[v + 1]):
            d = min(d, _slack(eu, ev, ec, y, adj_edge[a]))
        if 0 < d < _LIMIT:
            y[v] += d  # even: costs and duals are even


@njit(cache=True)
def _greedy_tight(n: int, eu: IntArray, ev: IntArray, ec: IntArray, adj_start: IntArray,
                  adj_edge: IntArray, y: IntArray, mate: IntArray) -> None:
    """Match free vertices greedily along tight edges (Cook and Rohe's jump start)."""
    for v in range(n):
        if mate[v] != -1:
            continue
        for a in range(adj_start[v], adj_start[v + 1]):
            k = adj_edge[a]
            u = _other(eu, ev, k, v)
            if mate[u] == -1 and _slack(eu, ev, ec, y, k) == 0:
                mate[u] = k
                mate[v] = k
                break


@njit(cache=True)
def blossom_min_cost(n: int, eu: IntArray, ev: IntArray, ec: IntArray, y0: IntArray,
                     mate0: IntArray) -> tuple[int, IntArray, IntArray, IntArray, IntArray,
                                               IntArray, npt.NDArray[np.bool_]]:
    """Minimum-cost perfect matching of the graph ``(eu, ev)`` with doubled costs ``ec``.

    A warm start passes even vertex duals ``y0 (n,)``, feasible for every edge, and a
    matching ``mate0 (n,)`` of tight edges (−1: free); empty arrays start cold (greedy
    duals and matching).

    Returns ``(code, mate, y, w, parent, base, stuck)``: ``code`` is :data:`OK`,
    :data:`NO_PERFECT` (no perfect matching: no dual change is possible) or
    :data:`OVERFLOW` (a dual left ±2**61); ``mate[v]`` the matched edge of ``v``; the
    optimal duals ``y (n,)`` and ``w (2n,)`` (doubled units); the laminar family as
    ``parent (2n,)`` (the blossom directly holding a vertex or blossom, −1 at the top)
    and ``base (2n,)`` (−1 for an unused blossom id); with NO_PERFECT, ``stuck[v]`` says
    that ``v`` is in an S-blossom of the last forest (a set with fewer neighbours than
    the trees need: more edges at these vertices are needed).
    """
    m = eu.shape[0]
    deg = np.zeros(n + 1, dtype=np.int64)
    for k in range(m):
        deg[eu[k] + 1] += 1
        deg[ev[k] + 1] += 1
    adj_start = np.cumsum(deg)
    fill = adj_start[:-1].copy()
    adj_edge = np.empty(2 * m, dtype=np.int64)
    for k in range(m):
        adj_edge[fill[eu[k]]] = k
        fill[eu[k]] += 1
        adj_edge[fill[ev[k]]] = k
        fill[ev[k]] += 1
    y = np.zeros(n, dtype=np.int64)
    w = np.zeros(2 * n, dtype=np.int64)
    mate = np.full(n, -1, dtype=np.int64)
    inb = np.arange(n, dtype=np.int64)
    parent = np.full(2 * n, -1, dtype=np.int64)
    base = np.full(2 * n, -1, dtype=np.int64)
    base[:n] = np.arange(n)
    label = np.zeros(2 * n, dtype=np.int64)
    ledge = np.full(2 * n, -1, dtype=np.int64)
    lfrom = np.full(2 * n, -1, dtype=np.int64)
    best = np.full(2 * n, -1, dtype=np.int64)
    bestto = np.full(2 * n, -1, dtype=np.int64)
    hasbl = np.zeros(2 * n, dtype=np.bool_)
    allow = np.zeros(m, dtype=np.bool_)
    tree = np.zeros(2 * n, dtype=np.int64)
    dead = np.zeros(n, dtype=np.bool_)
    empty = np.empty(0, dtype=np.int64)
    childs = [empty for _ in range(2 * n)]
    cedge = [empty for _ in range(2 * n)]
    cend = [empty for _ in range(2 * n)]
    bestlist = [empty for _ in range(2 * n)]
    freeb = [b for b in range(2 * n - 1, n - 1, -1)]
    queue = [0]
    queue.clear()
    if y0.shape[0] == n:
        y[:] = y0
        mate[:] = mate0
    else:
        _start_duals(n, eu, ev, ec, adj_start, adj_edge, y)
    _greedy_tight(n, eu, ev, ec, adj_start, adj_edge, y, mate)
    code = OK
    steps = 0
    max_steps = 8 * (n + 2) * (n + 2)
    while True:  # one stage: grow the forest of every free vertex until augmentations
        label[:] = 0
        ledge[:] = -1
        lfrom[:] = -1
        best[:] = -1
        hasbl[:] = False
        allow[:] = False
        queue.clear()
        free = 0
        for v in range(n):
            if mate[v] == -1 and label[inb[v]] == 0:
                _assign(v, _S, -1, -1, n, eu, ev, mate, inb, base, label, ledge, lfrom,
                        best, childs, queue, tree)
            if mate[v] == -1:
                free += 1
        if free == 0:
            break
        augmented = False
        dead[:] = False
        while True:
            while queue:
                v = queue.pop()
                if dead[tree[inb[v]]]:
                    continue
                for a in range(adj_start[v], adj_start[v + 1]):
                    k = adj_edge[a]
                    u = _other(eu, ev, k, v)
                    bv, bu = inb[v], inb[u]
                    if bv == bu or (label[bu] != 0 and dead[tree[bu]]):
                        continue
                    s = 0
                    if not allow[k]:
                        s = _slack(eu, ev, ec, y, k)
                        if s <= 0:
                            allow[k] = True
                    if allow[k]:
                        if label[bu] == 0:
                            _assign(u, _T, k, v, n, eu, ev, mate, inb, base, label, ledge,
                                    lfrom, best, childs, queue, tree)
                        elif label[bu] == _S:
                            bse = _scan(v, u, inb, base, label, ledge, lfrom)
                            if bse >= 0:
                                _add_blossom(bse, k, n, eu, ev, ec, y, w, inb, parent, base,
                                             label, ledge, lfrom, best, childs, cedge, cend,
                                             bestlist, hasbl, bestto, freeb, queue,
                                             adj_start, adj_edge, tree)
                            else:  # the two trees are spent; the others grow on
                                dead[tree[bv]] = True
                                dead[tree[bu]] = True
                                _augment(k, n, eu, ev, mate, inb, parent, base, ledge,
                                         lfrom, childs, cedge, cend)
                                augmented = True
                                break
                        elif label[u] == 0:
                            label[u] = _T  # a tight edge reaches u inside a T-blossom
                            ledge[u] = k
                            lfrom[u] = v
                    elif label[bu] == _S:
                        if best[bv] == -1 or s < _slack(eu, ev, ec, y, best[bv]):
                            best[bv] = k
                    elif label[u] == 0:
                        if best[u] == -1 or s < _slack(eu, ev, ec, y, best[u]):
                            best[u] = k
            if augmented:
                break
            steps += 1
            if steps > max_steps:
                return OVERFLOW, mate, y, w, parent, base, np.zeros(n, dtype=np.bool_)
            # the dual change: the least of the three events
            delta = _LIMIT
            kind = 0
            arg = -1
            for v in range(n):
                if label[inb[v]] == 0 and best[v] != -1:
                    d = _slack(eu, ev, ec, y, best[v])
                    if d < delta:
                        delta, kind, arg = d, 2, best[v]
            for b in range(2 * n):
                if parent[b] == -1 and base[b] >= 0 and label[b] == _S and best[b] != -1:
                    d = _slack(eu, ev, ec, y, best[b]) // 2
                    if d < delta:
                        delta, kind, arg = d, 3, best[b]
            for b in range(n, 2 * n):
                if parent[b] == -1 and base[b] >= 0 and label[b] == _T:
                    d = w[b] // 2
                    if d < delta:
                        delta, kind, arg = d, 4, b
            if kind == 0:
                stuck = np.zeros(n, dtype=np.bool_)
                for v in range(n):
                    stuck[v] = label[inb[v]] == _S
                return NO_PERFECT, mate, y, w, parent, base, stuck
            for v in range(n):
                lb = label[inb[v]]
                if lb == _S:
                    y[v] += delta
                    if y[v] > _LIMIT:
                        code = OVERFLOW
                elif lb == _T:
                    y[v] -= delta
                    if y[v] < -_LIMIT:
                        code = OVERFLOW
            for b in range(n, 2 * n):
                if parent[b] == -1 and base[b] >= 0:
                    if label[b] == _S:
                        w[b] += 2 * delta
                    elif label[b] == _T:
                        w[b] -= 2 * delta
            if code != OK:
                return code, mate, y, w, parent, base, np.zeros(n, dtype=np.bool_)
            if kind == 2 or kind == 3:
                allow[arg] = True
                i = eu[arg]
                queue.append(i if label[inb[i]] == _S else ev[arg])
            else:
                _expand(arg, False, n, eu, ev, mate, w, inb, parent, base, label, ledge,
                        lfrom, best, childs, cedge, cend, bestlist, hasbl, freeb, queue,
                        allow, tree)
        # Galil expands the S-blossoms of zero dual here; they are kept (their cycle
        # edges stay tight and w = 0 is feasible), which saves re-forming them stage
        # after stage when many edges tie.
    return code, mate, y, w, parent, base, np.zeros(n, dtype=np.bool_)


@njit(cache=True)
def laminar_sums(n: int, w: IntArray, parent: IntArray,
                 ) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Per vertex or blossom id: ``cpar``, the smallest blossom of positive dual strictly
    holding it (−1: none); ``cumw``, the sum of ``w`` over it and every blossom holding
    it; ``cumpos``, how many of those have ``w > 0`` (the depth in the tree of ``cpar``);
    ``size``, its number of vertices."""
    size = 2 * n
    done = np.zeros(size, dtype=np.bool_)
    cpar = np.full(size, -1, dtype=np.int64)
    cumw = np.zeros(size, dtype=np.int64)
    cumpos = np.zeros(size, dtype=np.int64)
    chain = np.empty(size, dtype=np.int64)
    for b in range(size):
        if done[b]:
            continue
        top = 0
        t = b
        while t != -1 and not done[t]:
            chain[top] = t
            top += 1
            t = parent[t]
        for i in range(top - 1, -1, -1):
            t = chain[i]
            p = parent[t]
            own_w = w[t] if t >= n else 0
            own_p = 1 if own_w > 0 else 0
            if p == -1:
                cpar[t], cumw[t], cumpos[t] = -1, own_w, own_p
            else:
                cpar[t] = p if w[p] > 0 else cpar[p]
                cumw[t] = cumw[p] + own_w
                cumpos[t] = cumpos[p] + own_p
            done[t] = True
    size_ = np.zeros(size, dtype=np.int64)
    for v in range(n):
        t = parent[v]
        while t != -1:
            size_[t] += 1
            t = parent[t]
    return cpar, cumw, cumpos, size_


@njit(cache=True, inline="always")
def _lca(i: int, j: int, cpar: IntArray, cumpos: IntArray) -> int:
    """The smallest blossom of positive dual holding vertices ``i`` and ``j`` (−1:
    none); blossoms of zero dual add nothing to a reduced cost and are skipped."""
    a = cpar[i]
    b = cpar[j]
    while a != b:
        if a == -1 or b == -1:
            return -1
        if cumpos[a] >= cumpos[b]:
            a = cpar[a]
        else:
            b = cpar[b]
    return a


@njit(cache=True)
def price_edges(cost: IntArray, allowed: npt.NDArray[np.bool_], shift: int, scale: int,
                y: IntArray, cpar: IntArray, cumw: IntArray, cumpos: IntArray,
                want_tight: bool) -> tuple[IntArray, IntArray, IntArray, IntArray,
                                           IntArray, IntArray]:
    """Reduced costs of every allowed pair ``i < j`` of the dense ``cost`` matrix.

    ``r = 2·scale·(cost − shift) − y_i − y_j + Σ_{B ∋ i, j} w_B``. Returns the
    pairs with ``r < 0`` (``vi, vj, vr``) and, when ``want_tight`` and none has
    ``r < 0``, those with ``r = 0`` (``ti, tj``) with the number of blossoms of
    positive dual holding both (``td``).
    """
    n = cost.shape[0]
    vi, vj, vr = _int_list(), _int_list(), _int_list()
    ti, tj, td = _int_list(), _int_list(), _int_list()
    for i in range(n):
        yi = y[i]
        for j in range(i + 1, n):
            if not allowed[i, j]:
                continue
            r = 2 * scale * (cost[i, j] - shift) - yi - y[j]
            if r > 0:
                continue
            lca = _lca(i, j, cpar, cumpos)
            if lca != -1:
                r += cumw[lca]
            if r < 0:
                vi.append(i)
                vj.append(j)
                vr.append(r)
                if want_tight:  # not the last round: the tight pairs are not needed
                    want_tight = False
                    ti.clear()
                    tj.clear()
                    td.clear()
            elif r == 0 and want_tight:
                ti.append(i)
                tj.append(j)
                td.append(0 if lca == -1 else cumpos[lca])
    return (np.array(vi, dtype=np.int64), np.array(vj, dtype=np.int64),
            np.array(vr, dtype=np.int64), np.array(ti, dtype=np.int64),
            np.array(tj, dtype=np.int64), np.array(td, dtype=np.int64))


@njit(cache=True)
def edge_reduced_costs(eu: IntArray, ev: IntArray, ec: IntArray, y: IntArray,
                       cpar: IntArray, cumw: IntArray, cumpos: IntArray) -> IntArray:
    """``r[k] = ec[k] − y_u − y_v + Σ_{B ∋ u, v} w_B`` for the edges ``(eu[k], ev[k])``."""
    r = np.empty(eu.shape[0], dtype=np.int64)
    for k in range(eu.shape[0]):
        i, j = eu[k], ev[k]
        r[k] = ec[k] - y[i] - y[j]
        lca = _lca(i, j, cpar, cumpos)
        if lca != -1:
            r[k] += cumw[lca]
    return r


@njit(cache=True)
def few_per_vertex(n: int, eu: IntArray, ev: IntArray, key: IntArray, k: int,
                   ) -> npt.NDArray[np.bool_]:
    """Edges taken in increasing ``key`` while one of their ends has fewer than ``k``:
    a sparse choice of each vertex's best edges (a mask over the edges)."""
    order = np.argsort(key, kind="mergesort")
    cnt = np.zeros(n, dtype=np.int64)
    keep = np.zeros(eu.shape[0], dtype=np.bool_)
    for e in order:
        i, j = eu[e], ev[e]
        if cnt[i] < k or cnt[j] < k:
            keep[e] = True
            cnt[i] += 1
            cnt[j] += 1
    return keep


@njit(cache=True)
def edge_holders(eu: IntArray, ev: IntArray, cpar: IntArray, cumpos: IntArray) -> IntArray:
    """The number of blossoms of positive dual holding both ends of each edge."""
    d = np.zeros(eu.shape[0], dtype=np.int64)
    for k in range(eu.shape[0]):
        lca = _lca(eu[k], ev[k], cpar, cumpos)
        if lca != -1:
            d[k] = cumpos[lca]
    return d


@njit(cache=True)
def matrix_faults(cost: IntArray, allowed: npt.NDArray[np.bool_], limit: int,
                  ) -> tuple[int, int, int, int]:
    """The input checks of a square ``cost`` matrix and its ``allowed`` pairs (the
    diagonal ignored), in one row-major pass: ``(fault, i, j, top)``. ``fault`` is 0
    (none), 1 (``allowed`` not symmetric at ``(i, j)``, the first such), 2 (an allowed
    cost beyond ``±limit``; ``top`` the largest absolute one) or 3 (``cost`` not
    symmetric on the allowed pairs at ``(i, j)``, the first such), the first of them in
    that order."""
    n = cost.shape[0]
    ai, aj, ci, cj = -1, -1, -1, -1
    top = 0
    over = False
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            a = allowed[i, j]
            if a != allowed[j, i]:
                if ai == -1:
                    ai, aj = i, j
                continue
            if not a:
                continue
            x = cost[i, j]
            if x > limit or x < -limit:
                over = True
                top = max(top, x if x >= 0 else (-x if x > _INT_MIN else -(x + 1)))
            if ci == -1 and x != cost[j, i]:
                ci, cj = i, j
    if ai != -1:
        return 1, ai, aj, 0
    if over:
        return 2, -1, -1, top
    if ci != -1:
        return 3, ci, cj, 0
    return 0, -1, -1, 0
