"""numba kernels of the exact Sudoku solver (see :mod:`gameopt.sudoku.exact` for the API).

Scalars and arrays in, scalars and arrays out; nothing here validates its input.

Data structures and their invariants
------------------------------------
``cand`` (int32 or int64, flat, one block of ``N = n*n`` cells per search level)
    Bit ``v-1`` set means value ``v`` is still possible in the cell. A *placed* cell holds
    exactly one value bit plus the flag bit ``1 << n``. After :func:`_propagate` returns,
    no unplaced cell holds the value of a placed peer, and every unplaced cell holds at
    least two values (a cell with one value is placed by the naked-single rule).
    All arithmetic is done in signed int64 (no unsigned type anywhere, so numba never
    mixes signed and unsigned 64-bit integers); int32 storage is used up to n = 30,
    int64 storage for n = 36.
``queue`` (int32, N)
    Cells holding a single, not yet placed value, waiting for :func:`_drain`.
``peers`` (int32, N * P)
    The ``P = 2(n-1) + (b-1)**2`` peers of each cell (same row, column or box).
``units`` (int32, 3n * n)
    Rows, then columns, then boxes, as flat cell indices.
Search stack (one entry per level)
    ``br_cell[d]`` the branching cell, ``br_rem[d]`` its values not yet tried,
    ``nfree[d]`` the number of unplaced cells after propagation at that level.

The search copies one level of ``cand`` per guess (``N`` words: 324 bytes for 9x9) and
reuses the level in place for the last value of a cell, so undo is free.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["build_tables", "count_one", "count_batch", "popcount"]


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of an integer (LLVM ``ctpop``: one ``popcnt`` instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def _bit_index(bit):  # type: ignore[no-untyped-def]
    """Index of the single set bit of ``bit`` (> 0)."""
    return popcount(bit - 1)


@njit(cache=True)
def build_tables(box):  # type: ignore[no-untyped-def]
    """Peer and unit tables of a grid of box size ``box``.

    Returns
    -------
    peers : ndarray of int32, shape (N * P,)
        Row ``c`` (``P`` entries from ``c * P``) lists the peers of cell ``c``.
    units : ndarray of int32, shape (3n * n,)
        Rows, then columns, then boxes.
    cunits : ndarray of int32, shape (N * 3,)
        The row, column and box (unit numbers) of each cell.
    """
    n = box * box
    ncell = n * n
    npeer = 2 * (n - 1) + (box - 1) * (box - 1)
    peers = np.empty(ncell * npeer, dtype=np.int32)
    for c in range(ncell):
        r, col = c // n, c % n
        br, bc = r - r % box, col - col % box
        k = c * npeer
        for j in range(ncell):
            if j == c:
                continue
            rj, cj = j // n, j % n
            if rj == r or cj == col or (rj - rj % box == br and cj - cj % box == bc):
                peers[k] = j
                k += 1
    units = np.empty(3 * n * n, dtype=np.int32)
    for i in range(n):
        for j in range(n):
            units[i * n + j] = i * n + j
            units[(n + i) * n + j] = j * n + i
            r = (i // box) * box + j // box
            col = (i % box) * box + j % box
            units[(2 * n + i) * n + j] = r * n + col
    cunits = np.empty(3 * ncell, dtype=np.int32)
    for c in range(ncell):
        r, col = c // n, c % n
        cunits[3 * c] = r
        cunits[3 * c + 1] = n + col
        cunits[3 * c + 2] = 2 * n + (r // box) * box + col // box
    return peers, units, cunits


@njit(cache=True, inline="always")
def _drain(cand, off, queue, qlen, nfree, flag, peers, npeer, cunits, dirty):  # type: ignore[no-untyped-def]  # noqa: E501
    """Place the queued single-valued cells and remove their values from the peers.

    Cells reduced to one value on the way are queued too (naked singles). Returns the new
    number of unplaced cells, or -1 on a contradiction (a cell with no value left).
    """
    qi = 0
    while qi < qlen:
        c = queue[qi]
        qi += 1
        bit = np.int64(cand[off + c])
        cand[off + c] = bit | flag
        nfree -= 1
        for k3 in range(3):  # the other values of c left its units
            u = cunits[3 * c + k3]
            dirty[u >> 6] |= np.int64(1) << (u & 63)
        base = c * npeer
        for k in range(npeer):
            p = off + peers[base + k]
            y = np.int64(cand[p])
            if y & bit:
                y ^= bit
                if y == 0:
                    return -1
                cand[p] = y
                q = p - off
                for k3 in range(3):
                    u = cunits[3 * q + k3]
                    dirty[u >> 6] |= np.int64(1) << (u & 63)
                if y & (y - 1) == 0:
                    queue[qlen] = q
                    qlen += 1
    return nfree


@njit(cache=True, inline="always")
def _scan_unit(cand, off, units, ub, n, full, queue):  # type: ignore[no-untyped-def]
    """Queue the hidden singles of one unit (values with one possible cell left).

    Returns the number of cells queued, or -1 if a value has no cell left in the unit or
    two values need the same cell.
    """
    once = np.int64(0)
    twice = np.int64(0)
    placed = np.int64(0)
    for k in range(n):
        x = np.int64(cand[off + units[ub + k]])
        twice |= once & x
        once |= x
        placed |= x & -(x >> n)  # the whole word if flagged (only the flag is above n bits)
    if (once & full) != full:
        return -1
    hidden = once & ~twice & ~placed & full
    qlen = 0
    while hidden:
        bit = hidden & -hidden
        hidden ^= bit
        hit = False
        for k in range(n):
            c = units[ub + k]
            if cand[off + c] & bit:
                cand[off + c] = bit
                queue[qlen] = c
                qlen += 1
                hit = True
                break
        if not hit:
            return -1
    return qlen


@njit(cache=True, inline="always")
def _singles(cand, off, queue, qlen, nfree, n, full, flag, peers, npeer, units, cunits, dirty):  # type: ignore[no-untyped-def]  # noqa: E501
    """Naked and hidden singles to a fixpoint at level ``off``.

    ``dirty`` (int64 words, one bit per unit) marks the units to scan for hidden singles;
    it is empty on return. Returns the number of unplaced cells left, or -1 on a
    contradiction.
    """
    nfree = _drain(cand, off, queue, qlen, nfree, flag, peers, npeer, cunits, dirty)
    w = 0
    while w < dirty.size:
        if nfree <= 0:
            break
        word = dirty[w]
        if word == 0:
            w += 1
            continue
        low = word & -word
        dirty[w] = word ^ low
        u = w * 64 + _bit_index(low)
        q = _scan_unit(cand, off, units, u * n, n, full, queue)
        if q > 0:
            nfree = _drain(cand, off, queue, q, nfree, flag, peers, npeer, cunits, dirty)
            w = 0
        elif q < 0:
            nfree = -1
    if nfree <= 0:
        for w in range(dirty.size):
            dirty[w] = 0
    return nfree


@njit(cache=True, inline="always")
def _eliminate(cand, p, m, n, queue, qlen, cunits, q, dirty):  # type: ignore[no-untyped-def]
    """Remove the values ``m`` from cell ``p`` (flat index; ``q`` its cell number).

    Returns the new queue length, or -1 if the cell is left empty.
    """
    y = np.int64(cand[p])
    if y & m:
        y &= ~m
        if y == 0:
            return -1
        cand[p] = y
        for k3 in range(3):
            u = cunits[3 * q + k3]
            dirty[u >> 6] |= np.int64(1) << (u & 63)
        if y & (y - 1) == 0:
            queue[qlen] = q
            qlen += 1
    return qlen


@njit(cache=True)
def _locked(cand, off, box, seg, queue, cunits, dirty):  # type: ignore[no-untyped-def]
    """Locked candidates (pointing and claiming) over every box-line intersection.

    ``seg`` receives the values of the unplaced cells of each row segment
    (``seg[r*box + j]``: row r, box column j) and column segment
    (``seg[n*box + c*box + i]``). A value of segment (line L, box B) that is absent from
    the rest of B is removed from the rest of L (pointing), and one absent from the rest
    of L is removed from the rest of B (claiming).

    Returns ``(changed, qlen)``: ``changed`` is -1 on a contradiction, 0 if nothing was
    removed, 1 otherwise; ``qlen`` cells were queued as new naked singles.
    """
    n = box * box
    nb = n * box
    for r in range(n):
        for j in range(box):
            m = np.int64(0)
            for k in range(box):
                x = np.int64(cand[off + r * n + j * box + k])
                m |= x & ((x >> n) - 1)  # 0 for a placed cell
            seg[r * box + j] = m
            m = np.int64(0)
            for k in range(box):
                x = np.int64(cand[off + (j * box + k) * n + r])
                m |= x & ((x >> n) - 1)
            seg[nb + r * box + j] = m
    qlen = 0
    changed = 0
    for t in range(2):  # rows, then columns
        sb = t * nb
        for r in range(n):
            r0 = r - r % box
            for j in range(box):
                s = seg[sb + r * box + j]
                if s == 0:
                    continue
                line_rest = np.int64(0)
                for j2 in range(box):
                    if j2 != j:
                        line_rest |= seg[sb + r * box + j2]
                box_rest = np.int64(0)
                for r2 in range(r0, r0 + box):
                    if r2 != r:
                        box_rest |= seg[sb + r2 * box + j]
                point = s & ~box_rest & line_rest
                claim = s & ~line_rest & box_rest
                if point:
                    changed = 1
                    for j2 in range(box):
                        if j2 == j:
                            continue
                        for k in range(box):
                            cc = j2 * box + k
                            q = r * n + cc if t == 0 else cc * n + r
                            qlen = _eliminate(cand, off + q, point, n, queue, qlen, cunits, q,
                                              dirty)
                            if qlen < 0:
                                return -1, 0
                if claim:
                    changed = 1
                    for r2 in range(r0, r0 + box):
                        if r2 == r:
                            continue
                        for k in range(box):
                            cc = j * box + k
                            q = r2 * n + cc if t == 0 else cc * n + r2
                            qlen = _eliminate(cand, off + q, claim, n, queue, qlen, cunits, q,
                                              dirty)
                            if qlen < 0:
                                return -1, 0
    return changed, qlen


@njit(cache=True)
def _propagate(cand, off, queue, qlen, nfree, box, full, flag, peers, npeer, units, cunits,  # type: ignore[no-untyped-def]  # noqa: E501
               dirty, seg, use_locked):
    """Singles, then locked candidates, repeated to a fixpoint at level ``off``.

    Returns the number of unplaced cells left, or -1 on a contradiction.
    """
    n = box * box
    while True:
        nfree = _singles(cand, off, queue, qlen, nfree, n, full, flag, peers, npeer, units,
                         cunits, dirty)
        if nfree <= 0 or not use_locked:
            return nfree
        changed, qlen = _locked(cand, off, box, seg, queue, cunits, dirty)
        if changed < 0:
            for w in range(dirty.size):
                dirty[w] = 0
            return -1
        if changed == 0:
            return nfree


@njit(cache=True, inline="always")
def _choose(cand, off, ncell, flag):  # type: ignore[no-untyped-def]
    """An unplaced cell with the fewest values (first one with two)."""
    best = -1
    fewest = 1 << 20
    for i in range(ncell):
        x = np.int64(cand[off + i])
        if x & flag:
            continue
        k = popcount(x)
        if k < fewest:
            fewest = k
            best = i
            if k == 2:
                break
    return best


@njit(cache=True, inline="always")
def _store(cand, off, ncell, full, out):  # type: ignore[no-untyped-def]
    for i in range(ncell):
        out[i] = _bit_index(np.int64(cand[off + i]) & full) + 1


@njit(cache=True)
def count_one(givens, box, limit, use_locked, peers, units, cunits, cand, queue, br_cell, br_rem,
              nfree_at, seg, out):  # type: ignore[no-untyped-def]  # noqa: E501
    """Count the solutions of one puzzle, up to ``limit``.

    Parameters
    ----------
    givens : int8 array (N,)
        Row-major values, 0 = empty; the givens must not repeat in a unit.
    box, limit : int
    peers, units : int32 arrays
        From :func:`build_tables`.
    cand : int32 or int64 array (N * (N + 1),)
        Work space, one level per placed cell at most.
    queue, br_cell : int32 arrays (N,)
    br_rem, nfree_at : int64 arrays (N + 1,)
        Work space.
    out : int8 array (N,)
        Receives the first solution found (unchanged if there is none).

    Returns
    -------
    count : int
        Solutions found, at most ``limit``.
    nodes : int
        Guesses made (values tried at branching cells); 0 if singles solve it.
    """
    n = box * box
    ncell = n * n
    npeer = 2 * (n - 1) + (box - 1) * (box - 1)
    nunits = 3 * n
    full = (np.int64(1) << n) - 1
    flag = np.int64(1) << n
    nodes = 0
    count = 0

    qlen = 0
    for i in range(ncell):
        v = givens[i]
        if v > 0:
            cand[i] = np.int64(1) << (v - 1)
            queue[qlen] = i
            qlen += 1
        else:
            cand[i] = full
    dirty = np.zeros((nunits + 63) // 64, dtype=np.int64)
    for u in range(nunits):
        dirty[u >> 6] |= np.int64(1) << (u & 63)
    nfree = _propagate(cand, 0, queue, qlen, ncell, box, full, flag, peers, npeer, units, cunits,
                       dirty, seg, use_locked)
    if nfree < 0:
        return 0, 0
    if nfree == 0:
        _store(cand, 0, ncell, full, out)
        return 1, 0
    d = 0
    c = _choose(cand, 0, ncell, flag)
    br_cell[0] = c
    br_rem[0] = np.int64(cand[c]) & full
    nfree_at[0] = nfree
    while d >= 0:
        rem = br_rem[d]
        if rem == 0:
            d -= 1
            continue
        bit = rem & -rem
        rem ^= bit
        br_rem[d] = rem
        c = br_cell[d]
        off = d * ncell
        nodes += 1
        if rem != 0:  # more values to try here: guess on a copy at the next level
            nxt = off + ncell
            for i in range(ncell):
                cand[nxt + i] = cand[off + i]
            off = nxt
            lvl = d + 1
        else:  # last value of this cell: reuse the level in place
            lvl = d
        cand[off + c] = bit
        queue[0] = c
        nfree = _propagate(cand, off, queue, 1, nfree_at[d], box, full, flag,
                           peers, npeer, units, cunits, dirty, seg, use_locked)
        if nfree < 0:
            if lvl == d:
                d -= 1
            continue
        if nfree == 0:
            count += 1
            if count == 1:
                _store(cand, off, ncell, full, out)
            if count >= limit:
                break
            if lvl == d:
                d -= 1
            continue
        c = _choose(cand, off, ncell, flag)
        d = lvl
        br_cell[d] = c
        br_rem[d] = np.int64(cand[off + c]) & full
        nfree_at[d] = nfree
    return count, nodes


@njit(cache=True)
def count_batch(grids, box, limit, use_locked, peers, units, cunits, cand):  # type: ignore[no-untyped-def]
    """Count the solutions of many puzzles of one box size, up to ``limit`` each.

    Parameters
    ----------
    grids : int8 array (m, N)
        One puzzle per row.
    cand : int32 or int64 array (N * (N + 1),)
        Work space (its dtype selects the candidate word width).

    Returns
    -------
    counts : int64 array (m,)
    solutions : int8 array (m, N)
        First solution found per puzzle; zeros where there is none.
    nodes : int64 array (m,)
    """
    m = grids.shape[0]
    n = box * box
    ncell = n * n
    counts = np.zeros(m, dtype=np.int64)
    nodes = np.zeros(m, dtype=np.int64)
    solutions = np.zeros((m, ncell), dtype=np.int8)
    queue = np.empty(ncell, dtype=np.int32)
    br_cell = np.empty(ncell + 1, dtype=np.int32)
    br_rem = np.empty(ncell + 1, dtype=np.int64)
    nfree_at = np.empty(ncell + 1, dtype=np.int64)
    seg = np.empty(2 * n * box, dtype=np.int64)
    for j in range(m):
        k, g = count_one(grids[j], box, limit, use_locked, peers, units, cunits, cand, queue,
                         br_cell, br_rem, nfree_at, seg, solutions[j])
        counts[j] = k
        nodes[j] = g
    return counts, solutions, nodes
