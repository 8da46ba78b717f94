"""numba kernels of the grid domination DP (see :mod:`gameopt.go.msp_dp` for the API).

Scalars and arrays in, scalars and arrays out; nothing here validates its input.

The transfer
------------
The board has ``h`` rows of ``w`` cells (``w`` the shorter side), swept row by row, one
cell at a time. Before cell ``(r, c)`` the frontier is the ``w`` cells
``(r, 0..c-1), (r-1, c..w-1)``: one per column, so column ``j`` is base-3 digit ``j`` of
the state index (weight ``3**j``). A frontier cell is

* ``0``: in the set,
* ``1``: not in the set, dominated,
* ``2``: not in the set, not dominated yet.

``t[s]`` (uint8) is the least number of cells in the set, over the cells swept so far,
among partial sets that leave the frontier in state ``s``; ``255`` (``INF``) means no
partial set does (an unreachable state). Before the first row the frontier is a virtual
row of dominated empty cells: only the all-ones state is reachable, with value 0.

Cell ``(r, c)`` reads digit ``c`` (``u``: cell ``(r-1, c)``, which leaves the frontier)
and digit ``c-1`` (``l``: cell ``(r, c-1)``, its left neighbour; none when ``c == 0``)
and writes digits ``c`` (the new cell) and ``c-1``:

* in the set (cost 1): new cell ``0``; ``l == 2`` becomes ``1``; ``u`` is dominated;
* not in the set (cost 0): only if ``u != 2`` (``u`` leaves the frontier and must be
  dominated by now); the new cell is ``1`` if ``u == 0`` or ``l == 0``, else ``2``.

For a fixed value of the other digits, the 9 states ``(u, l)`` map onto the same 9
states, so a cell is done *in place* on groups of 9 entries: with ``v[u][l]``,

=========  ===================================  =========  ============
new(u, l)  value                                new(u, l)  value
=========  ===================================  =========  ============
(0, 0)     min(v00, v10, v20) + 1               (1, 2)     v02
(0, 1)     min(v01, v11, v21, v02, v12, v22)+1  (2, 0)     INF
(0, 2)     INF                                  (2, 1)     v11
(1, 0)     min(v00, v10)                        (2, 2)     v12
(1, 1)     v01
=========  ===================================  =========  ============

and for ``c == 0`` (no left neighbour): ``new0 = min(v0, v1, v2) + 1``, ``new1 = v0``,
``new2 = v1``. ``+ 1`` saturates (``INF + 1 == INF``). After the last row the answer is
the least value over states with no digit ``2``.

Memory order (the speed)
------------------------
One table of ``3**w`` bytes, updated in place (1.16 GB at ``w = 19``). For cell ``c``
the 9 entries of a group lie ``3**(c-1)`` bytes apart, and consecutive groups are
consecutive bytes: for ``c >= 5`` a cell is 9 contiguous streams of at least 81 bytes,
done as a few simple loops that LLVM vectorises (:func:`_cell_vec`); for ``c <= 4`` the
groups are short and the code is scalar, indexed with unsigned integers so numba emits
no negative-index checks (:func:`_cell_small`).

A row is done in a few cache-blocked passes over memory instead of ``w``:

* phase 1, cells ``0..K-1`` (digits ``0..K-1``): for each value of the digits ``>= K``
  the ``3**K`` entries are contiguous (``K = 12``: 531 KB, within L2); all ``K`` cells
  are applied to that block before moving on (:func:`phase1`).
* phase 2, cells ``K..w-1``, in pieces of a few cells (:func:`phase2`): for the piece
  of cells ``a..b-1`` (digits ``a-1..b-1``) a work unit is one value of the digits
  ``>= b`` and a chunk of ``L`` consecutive values of the digits ``0..a-2``: the
  ``3**(b-a+1)`` streams of ``L`` bytes that all the piece's cells work on. The caller
  keeps pieces to 4 cells (243 streams): at ``w = 19`` one piece of 7 cells (6561
  streams) measured 3x slower than two.

Work on unreachable states is skipped: a block or a unit that is all ``INF`` after one
read, and inside the cells, a group of ``3**5`` entries, 9 entries (scalar cells) or 9
streams (vector cells) that are all ``INF``. Unreachable states are most of the table:
a ``2`` beside a ``0`` in the same row cannot happen, which leaves about ``2.414**w`` of
the ``3**w`` states (3% at ``w = 17``, where 41% of the phase-1 blocks hold any).
Blocks and units are disjoint, so callers may run ranges of them in threads (the
kernels release the GIL).

All kernels are compiled with ``_nrt=False`` (they allocate nothing): the reference
counting numba would emit around every array slice costs more than the work for short
streams.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "INF",
    "LOW",
    "cell_step",
    "final_min",
    "minmax",
    "phase1",
    "phase2",
    "shift_down",
]

#: Unreachable state.
INF = np.uint8(255)
_CAP = np.uint8(254)
_ONE = np.uint8(1)
#: Cells ``0..LOW-1`` are scalar; phase 1 handles them on groups of ``3**LOW`` entries.
LOW = 5
_GROUP = 3 ** LOW

#: The decorator of every kernel (``_nrt`` is a numba option its stubs do not list).
_kernel = njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]


@njit(inline="always")
def _all_inf(x):
    """True when every entry of ``x`` is ``INF`` (a vectorised min reduction)."""
    m = INF
    for k in range(x.size):
        m = min(m, x[k])
    return m == INF


@njit(inline="always")
def _cell0(x):
    """Cell 0 on every group of 3 consecutive entries of ``x``."""
    for g in range(x.size // 3):
        b = 3 * g
        v0 = x[b]
        v1 = x[b + 1]
        v2 = x[b + 2]
        x[b] = min(min(v0, min(v1, v2)), _CAP) + _ONE
        x[b + 1] = v0
        x[b + 2] = v1


@njit(inline="always")
def _cell_small(x, sl_):
    """Cell ``c >= 1`` on all of ``x`` (size a multiple of ``9 * sl``), scalar.

    ``sl_ = 3**(c-1)`` is the stride of digit ``c-1``. All index arithmetic is uint64.
    """
    sl = np.uint64(sl_)
    su = np.uint64(3) * sl
    block = np.uint64(9) * sl
    for h in range(np.uint64(x.size) // block):
        base = h * block
        for lo in range(sl):
            i = base + lo
            v00 = x[i]
            v01 = x[i + sl]
            v02 = x[i + sl + sl]
            v10 = x[i + su]
            v11 = x[i + su + sl]
            v12 = x[i + su + sl + sl]
            v20 = x[i + su + su]
            v21 = x[i + su + su + sl]
            v22 = x[i + su + su + sl + sl]
            m0 = min(v00, min(v10, v20))
            m1 = min(min(v01, v11), min(v21, min(v02, min(v12, v22))))
            if min(m0, m1) == INF:
                continue  # all 9 unreachable: they stay so
            x[i] = min(m0, _CAP) + _ONE
            x[i + sl] = min(m1, _CAP) + _ONE
            x[i + sl + sl] = INF
            x[i + su] = min(v00, v10)
            x[i + su + sl] = v01
            x[i + su + sl + sl] = v02
            x[i + su + su] = INF
            x[i + su + su + sl] = v11
            x[i + su + su + sl + sl] = v12


@njit(inline="always")
def _group9(t, b, sl, n, s0, s1):
    """One cell on the 9 streams ``t[b + (3u + l) * sl : ... + n]``, in place.

    Each loop has one store and at most six loads, so LLVM's runtime alias checks stay
    within its limit and every loop is vectorised. ``s0``, ``s1``: scratch, size >= n.
    """
    su = 3 * sl
    a00 = t[b:b + n]
    a01 = t[b + sl:b + sl + n]
    a02 = t[b + 2 * sl:b + 2 * sl + n]
    a10 = t[b + su:b + su + n]
    a11 = t[b + su + sl:b + su + sl + n]
    a12 = t[b + su + 2 * sl:b + su + 2 * sl + n]
    a20 = t[b + 2 * su:b + 2 * su + n]
    a21 = t[b + 2 * su + sl:b + 2 * su + sl + n]
    a22 = t[b + 2 * su + 2 * sl:b + 2 * su + 2 * sl + n]
    x0 = s0[:n]
    x1 = s1[:n]
    for k in range(n):
        x0[k] = min(a00[k], min(a10[k], a20[k]))
    for k in range(n):
        x1[k] = min(min(a01[k], a11[k]), min(a21[k], min(a02[k], min(a12[k], a22[k]))))
    m = INF
    for k in range(n):
        m = min(m, min(x0[k], x1[k]))
    if m == INF:
        return  # all 9 streams unreachable: they stay so
    for k in range(n):
        a21[k] = a11[k]
    for k in range(n):
        a22[k] = a12[k]
    for k in range(n):
        a11[k] = a01[k]
    for k in range(n):
        a12[k] = a02[k]
    for k in range(n):
        a10[k] = min(a00[k], a10[k])
    for k in range(n):
        a00[k] = min(x0[k], _CAP) + _ONE
    for k in range(n):
        a01[k] = min(x1[k], _CAP) + _ONE
    for k in range(n):
        a02[k] = INF
    for k in range(n):
        a20[k] = INF


@njit(inline="always")
def _cell_vec(t, start, size, sl, s0, s1):
    """Cell ``c`` (``sl = 3**(c-1) >= 81``) on ``t[start:start+size]``, vectorised."""
    block = 9 * sl
    chunk = s0.size
    for base in range(start, start + size, block):
        for l0 in range(0, sl, chunk):
            _group9(t, base + l0, sl, min(chunk, sl - l0), s0, s1)


@_kernel
def cell_step(t, c, s0, s1):
    """Apply cell ``c`` to the whole table ``t`` (uint8, ``3**w``), in place.

    The plain path: one pass over the table per cell. Used for small tables, for the
    per-cell layers of the back-tracking, and as the reference of :func:`phase1` /
    :func:`phase2`. ``s0``, ``s1``: uint8 scratch of equal size (at least 1).
    """
    if c == 0:
        _cell0(t)
        return
    sl = 1
    for _ in range(c - 1):
        sl *= 3
    if c < LOW:
        _cell_small(t, sl)
    else:
        _cell_vec(t, 0, t.size, sl, s0, s1)


@_kernel
def phase1(t, k, b0, b1, s0, s1):
    """Cells ``0..k-1`` of a row on blocks ``b0..b1-1`` of ``3**k`` entries (``k >= LOW``).

    Returns the number of blocks that held a reachable state (the others are skipped).
    """
    size = 1
    for _ in range(k):
        size *= 3
    busy = 0
    for blk in range(b0, b1):
        start = blk * size
        if _all_inf(t[start:start + size]):
            continue
        busy += 1
        for g in range(start, start + size, _GROUP):
            x = t[g:g + _GROUP]
            if _all_inf(x):
                continue
            _cell0(x)
            _cell_small(x, 1)
            _cell_small(x, 3)
            _cell_small(x, 9)
            _cell_small(x, 27)
        sl = 81
        for _ in range(LOW, k):
            _cell_vec(t, start, size, sl, s0, s1)
            sl *= 3
    return busy


@njit(inline="always")
def _chunk_all_inf(t, base, streams, stride, l0, n):
    for s in range(streams):
        if not _all_inf(t[base + s * stride + l0:base + s * stride + l0 + n]):
            return False
    return True


@_kernel
def phase2(t, a, b, chunk, i0, i1, s0, s1):
    """Cells ``a..b-1`` of a row (``a >= 1``) on work units ``i0..i1-1``.

    The cells touch digits ``a-1..b-1``. Unit ``i`` is one value ``H = i // nch`` of the
    digits ``>= b`` and one chunk ``j = i % nch`` of the values of the digits ``0..a-2``
    (``j*chunk .. j*chunk+chunk-1``, the last chunk may be shorter; ``nch`` chunks in
    all): ``3**(b-a+1)`` streams of ``chunk`` bytes. ``s0``, ``s1`` must hold ``chunk``
    bytes. Returns the number of units that held a reachable state.
    """
    stride = 1  # 3**(a-1): the weight of digit a-1, the lowest digit touched
    for _ in range(a - 1):
        stride *= 3
    span = stride  # 3**b: one value of the digits >= b
    for _ in range(a - 1, b):
        span *= 3
    nch = (stride + chunk - 1) // chunk
    streams = span // stride
    busy = 0
    for i in range(i0, i1):
        base = (i // nch) * span
        l0 = (i % nch) * chunk
        n = min(chunk, stride - l0)
        if _chunk_all_inf(t, base, streams, stride, l0, n):
            continue
        busy += 1
        sl = stride  # 3**(c-1) for cell c = a
        for _c in range(a, b):
            block = 9 * sl
            mids = sl // stride  # values of the digits a-1..c-2
            for hi in range(base, base + span, block):
                for mid in range(mids):
                    _group9(t, hi + mid * stride + l0, sl, n, s0, s1)
            sl *= 3
    return busy


@_kernel
def minmax(t):
    """``(least, greatest)`` finite value of ``t``; ``(255, 0)`` if there is none."""
    lo = INF
    hi = np.uint8(0)
    for k in range(t.size):
        v = t[k]
        lo = min(lo, v)
        hi = max(hi, v if v != INF else np.uint8(0))
    return lo, hi


@_kernel
def shift_down(t, d):
    """Subtract ``d`` from every finite entry of ``t`` (``d`` <= the least of them)."""
    dd = np.uint8(d)
    for k in range(t.size):
        v = t[k]
        t[k] = v - dd if v != INF else INF


@_kernel
def final_min(t, w):
    """``(value, state)``: the least value over the states with no digit 2 (every cell of
    the last row dominated) and a state that has it; ``(255, -1)`` if none."""
    best = INF
    arg = -1
    for bits in range(1 << w):
        s = 0
        p = 1
        for j in range(w):
            if (bits >> j) & 1:
                s += p
            p *= 3
        if t[s] < best:
            best = t[s]
            arg = s
    return best, arg
