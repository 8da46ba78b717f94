"""numba operators of Sudoku combinatorial evolution (box-preserving).

``data`` tuple: ``(dims, givens, box_cells, box_free, box_nfree, swap_boxes, cand)``

* ``dims``        int64 [n, b, focus] (focus 1: prefer swaps that move a clashing value)
* ``givens``      int8 (n*n,)   given values, 0 = free
* ``box_cells``   int32 (n, n)  flat cells of each box
* ``box_free``    int32 (n, n)  free cells of each box (first ``box_nfree[k]`` are valid)
* ``box_nfree``   int32 (n,)
* ``swap_boxes``  int32 (m,)    boxes with at least two free cells (m >= 1)
* ``cand``        int64 (n*n,)  bit v set when value v may stand in the cell (pruning by
  the givens; all bits set when pruning is off). Random fills and swaps only put a value
  where it is a candidate.

Invariant kept by every operator: each box holds each value 1..n once.
Error = values missing from rows + values missing from columns.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _randint(rng, m):
    """Uniform integer in [0, m): 53-bit float scaling (bias < m / 2**53), ~8x faster than
    ``Generator.integers`` inside numba (measured: 4.5 ns against 38 ns a draw)."""
    k = int(rng.random() * m)
    return k if k < m else m - 1


@njit(cache=True)
def random_fill(data, rng, sol):
    dims, givens, box_cells, box_free, box_nfree, _, cand = data
    n = dims[0]
    one = np.int64(1)
    for k in range(n):
        missing = np.int64(0)
        for t in range(n):
            c = box_cells[k, t]
            sol[c] = givens[c]
        for v in range(1, n + 1):
            missing |= one << np.int64(v)
        for t in range(n):
            missing &= ~(one << np.int64(givens[box_cells[k, t]]))
        m = box_nfree[k]
        # Random greedy matching of missing values to free cells, each value on a cell
        # where it is a candidate; a few tries, then any order (the box stays a
        # permutation, which is all the invariant needs).
        for attempt in range(8):
            left = missing
            ok = True
            for t in range(m - 1, -1, -1):  # cells in a random order (Fisher-Yates)
                j = _randint(rng, t + 1)
                c = box_free[k, j]
                box_free[k, j] = box_free[k, t]
                box_free[k, t] = c
                opts = left & cand[c] if attempt < 7 else left
                if opts == 0:
                    ok = False
                    break
                pick = _randint(rng, _popcount(opts))
                v = 0
                while True:
                    if (opts >> np.int64(v)) & one:
                        if pick == 0:
                            break
                        pick -= 1
                    v += 1
                sol[c] = v
                left &= ~(one << np.int64(v))
            if ok:
                break


@njit(cache=True)
def error(data, sol):
    n = data[0][0]
    one = np.int64(1)
    err = 0
    for r in range(n):
        seen = np.int64(0)
        for c in range(n):
            seen |= one << np.int64(sol[r * n + c])
        err += n - _popcount(seen)
    for c in range(n):
        seen = np.int64(0)
        for r in range(n):
            seen |= one << np.int64(sol[r * n + c])
        err += n - _popcount(seen)
    return err


@njit(cache=True, inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - np.int64(1)
        c += 1
    return c


@njit(cache=True, inline="always")
def _line_delta(sol, start, step, n, out_v, in_v):
    """Change in missing values of one line when one ``out_v`` leaves and ``in_v`` enters."""
    c_out = 0
    c_in = 0
    p = start
    for _ in range(n):
        v = sol[p]
        if v == out_v:
            c_out += 1
        elif v == in_v:
            c_in += 1
        p += step
    d = 0
    if c_out == 1:
        d += 1
    if c_in == 0:
        d -= 1
    return d


@njit(cache=True, inline="always")
def _clashes(sol, c, n):
    """True when the value of cell ``c`` stands again in its row or column."""
    v = sol[c]
    r0 = c - c % n
    for q in range(r0, r0 + n):
        if q != c and sol[q] == v:
            return True
    for q in range(c % n, n * n, n):
        if q != c and sol[q] == v:
            return True
    return False


@njit(cache=True)
def neighbour(data, rng, sol, err, move):
    dims, _, _, box_free, box_nfree, swap_boxes, cand = data
    n = dims[0]
    one = np.int64(1)
    focus = dims[2]
    # Draw swaps until one puts both values on candidate cells and, with ``focus``, moves
    # at least one value that clashes in its row or column (at most 16 draws; the last
    # draw is taken as it is, so a move always happens).
    for t in range(16):
        k = swap_boxes[_randint(rng, swap_boxes.shape[0])]
        m = box_nfree[k]
        i = _randint(rng, m)
        j = _randint(rng, m - 1)
        if j >= i:
            j += 1
        a = box_free[k, i]
        b = box_free[k, j]
        va = sol[a]
        vb = sol[b]
        if (cand[a] >> np.int64(vb)) & one and (cand[b] >> np.int64(va)) & one:
            if not focus or t >= 12 or _clashes(sol, a, n) or _clashes(sol, b, n):
                break
    ra, ca = a // n, a % n
    rb, cb = b // n, b % n
    d = 0
    if ra != rb:
        d += _line_delta(sol, ra * n, 1, n, va, vb) + _line_delta(sol, rb * n, 1, n, vb, va)
    if ca != cb:
        d += _line_delta(sol, ca, n, n, va, vb) + _line_delta(sol, cb, n, n, vb, va)
    sol[a] = vb
    sol[b] = va
    move[0] = a
    move[1] = b
    return err + d


@njit(cache=True)
def undo(data, sol, move):
    a = move[0]
    b = move[1]
    t = sol[a]
    sol[a] = sol[b]
    sol[b] = t


@njit(cache=True)
def merge(data, rng, a, b, child, prob):
    n = data[0][0]
    box_cells = data[2]
    for k in range(n):
        src = b if rng.random() < prob else a
        for t in range(n):
            c = box_cells[k, t]
            child[c] = src[c]
