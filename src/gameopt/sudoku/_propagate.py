"""numba constraint propagation over candidate bitmasks (naked and hidden singles).

Arrays:

* ``cells``  int8 (n*n,)   placed values, 0 = open
* ``cand``   int64 (n*n,)  bit v set when value v may still stand in the cell; a placed
  cell holds exactly its own bit
* ``units``  int32 (3n, n) rows, columns, boxes (:func:`gameopt.sudoku.grid.units`)
* ``peers``  int32 (n*n, p) the cells sharing a unit with each cell

The plain reference is :func:`gameopt.sudoku.evolution.propagate_singles`; tests compare
the two. Every function keeps the arrays unchanged on the values a solution of the
current cells could take: propagation only removes a value that no completion can hold.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _low_bit(m):
    """Index of the lowest set bit of ``m`` (> 0)."""
    v = 0
    while not (m >> np.int64(v)) & np.int64(1):
        v += 1
    return v


@njit(cache=True)
def place(cells, cand, peers, c, v):
    """Put ``v`` in cell ``c`` and remove it from the peers' candidates."""
    bit = np.int64(1) << np.int64(v)
    cells[c] = v
    cand[c] = bit
    for k in range(peers.shape[1]):
        q = peers[c, k]
        cand[q] &= ~bit


@njit(cache=True)
def propagate(cells, cand, units, peers):
    """Place naked and hidden singles until none is left; False on a contradiction.

    A contradiction is an open cell without candidates, a value with no place in a unit,
    or two values forced into one cell. The arrays are then left part-way.

    Notes
    -----
    One sweep costs O(n^2) mask operations (cells, then units with two masks each:
    values seen once and values seen more than once); sweeps repeat while they place.
    """
    n = units.shape[1]
    one = np.int64(1)
    full = np.int64(0)
    for v in range(1, n + 1):
        full |= one << np.int64(v)
    changed = True
    while changed:
        changed = False
        for c in range(cells.shape[0]):
            if cells[c] == 0:
                m = cand[c]
                if m == 0:
                    return False
                if m & (m - one) == 0:
                    place(cells, cand, peers, c, _low_bit(m))
                    changed = True
        for u in range(units.shape[0]):
            once = np.int64(0)
            more = np.int64(0)
            for t in range(n):
                m = cand[units[u, t]]
                more |= once & m
                once |= m
            if (once | more) != full:
                return False
            single = once & ~more
            while single:
                v = _low_bit(single)
                single &= single - one
                bit = one << np.int64(v)
                for t in range(n):
                    c = units[u, t]
                    if cand[c] & bit:
                        if cells[c] == 0:
                            place(cells, cand, peers, c, v)
                            changed = True
                        elif cells[c] != v:
                            return False
                        break
    return True


@njit(cache=True)
def consistent(cells, cand, units):
    """True when no open cell is empty and every unit can still hold every value."""
    n = units.shape[1]
    one = np.int64(1)
    full = np.int64(0)
    for v in range(1, n + 1):
        full |= one << np.int64(v)
    for c in range(cells.shape[0]):
        if cand[c] == 0:
            return False
    for u in range(units.shape[0]):
        seen = np.int64(0)
        for t in range(n):
            seen |= cand[units[u, t]]
        if seen != full:
            return False
    return True


@njit(cache=True)
def guided_partial(cells, cand, units, peers, guide, order, keep):
    """Place ``guide``'s values in the cells of ``order`` (where ``keep``), propagating
    after each; a placement that leads to a contradiction is undone and skipped.

    ``cells``/``cand`` (a propagated, consistent state) are changed in place into a
    propagated, consistent partial assignment; returns the number of guide values placed.
    This is a heuristic commitment (it may exclude every solution), never a deduction.
    """
    placed = 0
    save_cells = cells.copy()
    save_cand = cand.copy()
    one = np.int64(1)
    for t in range(order.shape[0]):
        c = order[t]
        v = guide[c]
        if not keep[t] or cells[c] != 0 or not (cand[c] >> np.int64(v)) & one:
            continue
        save_cells[:] = cells
        save_cand[:] = cand
        place(cells, cand, peers, c, v)
        if propagate(cells, cand, units, peers):
            placed += 1
        else:
            cells[:] = save_cells
            cand[:] = save_cand
    return placed
