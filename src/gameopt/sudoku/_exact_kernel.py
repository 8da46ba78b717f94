"""numba kernels of the exact Sudoku solver (see :mod:`gameopt.sudoku.exact` for the API).

Scalars and arrays in, scalars and arrays out; nothing here validates its input.

One source, one compiled solver per box size
--------------------------------------------
The search is written once, as module-level ``@njit(inline="always")`` helpers that take
the grid constants ``K = (b, n, N, P, U, FULL, FLAG, WIDE)`` and tables
``T = (peers, units, mask0, mask1)`` as arguments. :func:`solver` wraps them in one
``@njit(cache=True)`` closure per box size whose ``K`` and ``T`` are closure constants,
so after numba inlines the helpers LLVM sees constant loop bounds and tables and unrolls
the small loops: the 9x9 fast path and the 25x25 solver are the same code compiled
twice, not two hand-kept copies. numba caches each size separately on disk (its cache
key hashes the closure constants, which are only ints and arrays here).

The closure is compiled with ``_nrt=False`` (no reference counting): it allocates
nothing and only indexes the arrays it is given, and the atomic reference-count updates
numba would otherwise emit around array arguments cost about a third of the run time.

Data structures and their invariants
------------------------------------
Grid of box size ``b``: side ``n = b*b``, ``N = n*n`` cells, ``U = 3n`` units (rows, then
columns, then boxes), ``P = 2(n-1) + (b-1)**2`` peers per cell. Values are 0-based here
(bit ``v-1`` stands for value ``v``).

``st`` (int32 for n <= 25, int64 for n = 36; one block of ``N`` words per search level)
    ``st[off + c]`` is the candidate mask of cell ``c``: bit ``d`` set while value ``d``
    is possible. A *placed* cell holds exactly one value bit plus ``FLAG = 1 << n``.
    After propagation: no unplaced cell holds the value of a placed peer, every unplaced
    cell holds at least two values, and every value not placed in a unit has two cells
    or more left there (all naked and hidden singles are placed).
``queue`` (int32, N + 1)
    Cells holding a single value not yet placed. A cell becomes single once per
    propagation, so it is queued at most once.
``d0, d1`` (int64 scalars)
    Dirty units: bit ``u`` of ``d0`` (``u < 62``) or bit ``u - 62`` of ``d1``, set when a
    cell of unit ``u`` lost a value since the unit was last scanned for hidden singles.
    ``mask0[c]``, ``mask1[c]`` are the three units of cell ``c`` in that form.
Search stack (one entry per level)
    ``br_cell[d]`` the branching cell, ``br_rem[d]`` its values not yet tried,
    ``nfree_at[d]`` the number of unplaced cells after propagation at that level.

The search copies one level of ``st`` per guess (324 bytes for 9x9) and reuses the level
in place for the last value of a cell, so there is nothing to undo.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["STOP_EVERY", "dtype_for", "popcount", "solver", "tables"]

#: Guesses between two reads of the stop flag (a power of two).
STOP_EVERY = 1024

#: Bits of a dirty word used for units (kept below the sign bit).
_WORD = 62


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ``ctpop``: one ``popcnt`` instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always")
def _low(bit):
    """Index of the lowest set bit of ``bit`` (> 0)."""
    return popcount((bit & -bit) - 1)


def dtype_for(box: int) -> type[np.signedinteger]:
    """Word type of the candidate masks: int32 up to n = 25 values, int64 above."""
    return np.int32 if box * box <= 25 else np.int64


def tables(box: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32],
                              npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Peer, unit and dirty-mask tables of a grid of box size ``box`` (all flat).

    Returns
    -------
    peers : ndarray of int32, shape (N * P,)
        Entries ``c*P .. c*P + P - 1``: the peers of cell ``c`` (same row, column or box).
    units : ndarray of int32, shape (3n * n,)
        Rows, then columns, then boxes (row-major inside a box).
    mask0, mask1 : ndarray of int64, shape (N,)
        The three units of each cell as bits of the two dirty words.
    """
    n = box * box
    idx = np.arange(n * n).reshape(n, n)
    rows = [idx[r] for r in range(n)]
    cols = [idx[:, c] for c in range(n)]
    boxes = [idx[i * box:(i + 1) * box, j * box:(j + 1) * box].ravel()
             for i in range(box) for j in range(box)]
    units = np.array(rows + cols + boxes, dtype=np.int32)
    peers = np.empty((n * n, 2 * (n - 1) + (box - 1) ** 2), dtype=np.int32)
    mask0 = np.zeros(n * n, dtype=np.int64)
    mask1 = np.zeros(n * n, dtype=np.int64)
    for c in range(n * n):
        r, col = divmod(c, n)
        mine = [r, n + col, 2 * n + (r // box) * box + col // box]
        peers[c] = sorted(set(np.concatenate([units[u] for u in mine]).tolist()) - {c})
        for u in mine:
            if u < _WORD:
                mask0[c] |= 1 << u
            else:
                mask1[c] |= 1 << (u - _WORD)
    return peers.ravel(), units.ravel(), mask0, mask1


# --------------------------------------------------------------------------------------
# Helpers, inlined into the per-size solver. K = (b, n, N, P, U, FULL, FLAG, WIDE),
# T = (peers, units, mask0, mask1).
# --------------------------------------------------------------------------------------

@njit(inline="always")
def _drain(st, off, queue, qlen, nfree, d0, d1, K, T):
    """Place the queued cells and remove their values from the peers.

    Peers left with one value are queued too (naked singles). Returns
    ``(nfree, d0, d1)``; ``nfree`` is -1 on a contradiction.
    """
    _, _, _, P, _, _, FLAG, WIDE = K
    peers, _, mask0, mask1 = T
    qi = 0
    while qi < qlen:
        c = queue[qi]
        qi += 1
        bit = np.int64(st[off + c])
        st[off + c] = bit | FLAG
        nfree -= 1
        d0 |= mask0[c]  # the other values of c left its units
        if WIDE:
            d1 |= mask1[c]
        for k in range(P):
            p = peers[c * P + k]
            y = np.int64(st[off + p])
            if y & bit:
                y ^= bit
                if y == 0:
                    return -1, d0, d1
                st[off + p] = y
                d0 |= mask0[p]
                if WIDE:
                    d1 |= mask1[p]
                if y & (y - 1) == 0:
                    queue[qlen] = p
                    qlen += 1
    return nfree, d0, d1


@njit(inline="always")
def _scan_unit(st, off, u, queue, K, T):
    """Queue the hidden singles of unit ``u`` (values with one cell left in it).

    Returns the number of cells queued, or -1 if a value has no cell left in the unit or
    two values need the same cell.
    """
    _, n, _, _, _, FULL, _, _ = K
    units = T[1]
    once = np.int64(0)
    twice = np.int64(0)
    placed = np.int64(0)
    for k in range(n):
        x = np.int64(st[off + units[u * n + k]])
        twice |= once & x
        once |= x
        placed |= x & -(x >> n)  # all of x if flagged (only the flag is above n bits)
    if once & FULL != FULL:
        return -1
    hidden = once & ~twice & ~placed & FULL
    qlen = 0
    while hidden:
        bit = hidden & -hidden
        hidden ^= bit
        hit = False
        for k in range(n):
            c = units[u * n + k]
            if st[off + c] & bit:
                st[off + c] = bit
                queue[qlen] = c
                qlen += 1
                hit = True
                break
        if not hit:
            return -1
    return qlen


@njit(inline="always")
def _singles(st, off, queue, qlen, nfree, d0, d1, K, T):
    """Naked and hidden singles to a fixpoint, scanning only the dirty units.

    Returns the number of unplaced cells left, or -1 on a contradiction.
    """
    WIDE = K[7]
    while True:
        nfree, d0, d1 = _drain(st, off, queue, qlen, nfree, d0, d1, K, T)
        if nfree <= 0:
            return nfree
        qlen = 0
        while qlen == 0:
            if d0:
                low = d0 & -d0
                d0 ^= low
                u = _low(low)
            elif WIDE and d1:
                low = d1 & -d1
                d1 ^= low
                u = _WORD + _low(low)
            else:
                return nfree
            qlen = _scan_unit(st, off, u, queue, K, T)
            if qlen < 0:
                return -1


@njit(inline="always")
def _eliminate(st, off, c, m, queue, qlen, d0, d1, K, T):
    """Remove the values ``m`` from unplaced cell ``c``; returns ``(qlen or -1, d0, d1)``."""
    WIDE = K[7]
    mask0, mask1 = T[2], T[3]
    y = np.int64(st[off + c])
    if y & m:
        y &= ~m
        if y == 0:
            return -1, d0, d1
        st[off + c] = y
        d0 |= mask0[c]
        if WIDE:
            d1 |= mask1[c]
        if y & (y - 1) == 0:
            queue[qlen] = c
            qlen += 1
    return qlen, d0, d1


@njit(inline="always")
def _locked(st, off, seg, queue, K, T):
    """Locked candidates: pointing and claiming over every box-line intersection.

    ``seg`` receives the values of the unplaced cells of each row segment
    (``seg[r*b + j]``: row r, box column j) and column segment (``seg[n*b + c*b + i]``).
    A value of segment (line L, box X) absent from the rest of X leaves the rest of L
    (pointing); one absent from the rest of L leaves the rest of X (claiming).

    Returns ``(changed, qlen, d0, d1)``; ``changed`` is -1 on a contradiction, 0 if
    nothing was removed, 1 otherwise.
    """
    B, n, _, _, _, _, _, _ = K
    nb = n * B
    for r in range(n):
        for j in range(B):
            m = np.int64(0)
            m2 = np.int64(0)
            for k in range(B):
                x = np.int64(st[off + r * n + j * B + k])
                m |= x & ((x >> n) - 1)  # 0 for a placed cell
                x = np.int64(st[off + (j * B + k) * n + r])
                m2 |= x & ((x >> n) - 1)
            seg[r * B + j] = m
            seg[nb + r * B + j] = m2
    qlen = 0
    changed = 0
    d0 = np.int64(0)
    d1 = np.int64(0)
    for t in range(2):  # rows, then columns
        sb = t * nb
        for r in range(n):
            r0 = r - r % B
            for j in range(B):
                s = seg[sb + r * B + j]
                line_rest = np.int64(0)
                box_rest = np.int64(0)
                for i in range(B):
                    if i != j:
                        line_rest |= seg[sb + r * B + i]
                    if r0 + i != r:
                        box_rest |= seg[sb + (r0 + i) * B + j]
                point = s & ~box_rest & line_rest
                claim = s & ~line_rest & box_rest
                if point == 0 and claim == 0:
                    continue
                changed = 1
                for i in range(B):
                    for k in range(B):
                        # pointing: the cells of line r in the other boxes ...
                        cc = i * B + k
                        c = r * n + cc if t == 0 else cc * n + r
                        m = point if i != j else 0
                        # ... claiming: the cells of the box on the other lines
                        cc = j * B + k
                        c2 = (r0 + i) * n + cc if t == 0 else cc * n + r0 + i
                        m2 = claim if r0 + i != r else 0
                        if m:
                            qlen, d0, d1 = _eliminate(st, off, c, m, queue, qlen, d0, d1, K,
                                                      T)
                        if m2 and qlen >= 0:
                            qlen, d0, d1 = _eliminate(st, off, c2, m2, queue, qlen, d0, d1,
                                                      K, T)
                        if qlen < 0:
                            return -1, 0, d0, d1
    return changed, qlen, d0, d1


@njit(inline="always")
def _propagate(st, off, queue, qlen, nfree, d0, d1, use_locked, seg, K, T):
    """Singles, then locked candidates, repeated to a fixpoint at level ``off``.

    Returns the number of unplaced cells left, or -1 on a contradiction.
    """
    while True:
        nfree = _singles(st, off, queue, qlen, nfree, d0, d1, K, T)
        if nfree <= 0 or not use_locked:
            return nfree
        changed, qlen, d0, d1 = _locked(st, off, seg, queue, K, T)
        if changed <= 0:
            return -1 if changed < 0 else nfree


@njit(inline="always")
def _choose(st, off, K, T):
    """Branching cell: fewest values; among two-valued cells, the one whose values appear
    most often among its peers, a two-valued peer counting three times (it becomes a
    single whichever way the guess goes), so the guess propagates most."""
    _, _, N, P, _, _, FLAG, _ = K
    peers = T[0]
    best = -1
    fewest = 1 << 20
    score = -1
    for c in range(N):
        x = np.int64(st[off + c])
        if x & FLAG:
            continue
        k = popcount(x)
        if k < fewest:
            fewest = k
            best = c
            score = -1
        if k == 2 and fewest == 2:
            sc = 0
            for j in range(P):
                # a placed peer never holds the values of x: no flag test needed
                y = np.int64(st[off + peers[c * P + j]])
                sc += popcount(y & x) * (1 + 2 * (popcount(y) == 2))
            if sc > score:
                score = sc
                best = c
    return best


@njit(inline="always")
def _count_one(givens, limit, use_locked, st, queue, br_cell, br_rem, nfree_at, seg, out,
               stop, K, T):
    """Count the solutions of one puzzle, up to ``limit``; returns ``(count, nodes)``.

    ``nodes`` counts guesses: values tried at branching cells (0 if propagation alone
    decides). The first solution found is written to ``out``. ``count`` is -1 when
    ``stop[0]`` was found set (it is read every :data:`STOP_EVERY` guesses).
    """
    _, _, N, _, U, FULL, _, _ = K
    count = 0
    nodes = 0
    qlen = 0
    for i in range(N):
        v = np.int64(givens[i])
        if v > 0:
            st[i] = np.int64(1) << (v - 1)
            queue[qlen] = i
            qlen += 1
        else:
            st[i] = FULL
    d0 = (np.int64(1) << min(U, _WORD)) - 1  # every unit starts dirty
    d1 = (np.int64(1) << max(U - _WORD, 0)) - 1
    nf = N
    off = 0
    lvl = 0
    d = -1  # deepest level with a branching cell
    while True:
        nfree = _propagate(st, off, queue, qlen, nf, d0, d1, use_locked, seg, K, T)
        if nfree == 0:
            count += 1
            if count == 1:
                for i in range(N):
                    out[i] = popcount((np.int64(st[off + i]) & FULL) - 1) + 1
            if count >= limit:
                break
        elif nfree > 0:
            c = _choose(st, off, K, T)
            d = lvl
            br_cell[d] = c
            br_rem[d] = np.int64(st[off + c]) & FULL
            nfree_at[d] = nfree
        while d >= 0 and br_rem[d] == 0:
            d -= 1
        if d < 0:
            break
        rem = br_rem[d]
        bit = rem & -rem
        rem ^= bit
        br_rem[d] = rem
        c = br_cell[d]
        off = d * N
        nodes += 1
        if nodes % STOP_EVERY == 0 and stop[0]:
            return -1, nodes
        if rem != 0:  # more values to try here: guess on a copy at the next level
            for i in range(N):
                st[off + N + i] = st[off + i]
            off += N
            lvl = d + 1
        else:  # last value of this cell: reuse the level in place
            lvl = d
        st[off + c] = bit
        queue[0] = c
        qlen = 1
        nf = nfree_at[d]
        d0 = np.int64(0)
        d1 = np.int64(0)
    return count, nodes


def _make_solver(box: int) -> Callable[..., None]:
    n = box * box
    U = 3 * n
    peers, units, mask0, mask1 = tables(box)
    # plain Python ints and arrays only: numba hashes them into the cache key
    B_, n_, N_, P_, U_ = box, n, n * n, 2 * (n - 1) + (box - 1) ** 2, U
    FULL_, FLAG_, WIDE_ = (1 << n) - 1, 1 << n, U > _WORD

    @njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
    def solve_rows(grids, limit, use_locked, st, queue, br_cell, br_rem, nfree_at, seg,
                   counts, solutions, nodes, stop):
        K = (B_, n_, N_, P_, U_, FULL_, FLAG_, WIDE_)
        T = (peers, units, mask0, mask1)
        for j in range(grids.shape[0]):
            if stop[0]:
                for rest in range(j, grids.shape[0]):
                    counts[rest] = -1
                return
            k, g = _count_one(grids[j], limit, use_locked, st, queue, br_cell, br_rem,
                              nfree_at, seg, solutions[j], stop, K, T)
            counts[j] = k
            nodes[j] = g

    return solve_rows


@functools.cache
def solver(box: int) -> Callable[..., None]:
    """The compiled batch solver for box size ``box`` (built once per size and process).

    ``solve_rows(grids, limit, use_locked, st, queue, br_cell, br_rem, nfree_at, seg,
    counts, solutions, nodes, stop)`` counts the solutions of each row of ``grids`` (int8,
    shape (m, N)) up to ``limit`` and writes ``counts[j]``, ``nodes[j]`` (int64) and the
    first solution found in ``solutions[j]`` (int8, zeros if none). ``stop`` (uint8,
    shape (1,)) is polled every :data:`STOP_EVERY` guesses and between puzzles: once it
    is set, the row being counted and the rows after it get count -1. Work space: ``st``
    (``dtype_for(box)``, N * (N + 1)), ``queue`` and ``br_cell`` (int32, N + 1),
    ``br_rem`` and ``nfree_at`` (int64, N + 1), ``seg`` (int64, 2 * n * b).
    """
    return _make_solver(box)
