"""numba kernel of the exact 9x9 solver over digit planes split in bands.

Scalars and arrays in, scalars and arrays out; nothing here validates its input. The
general kernel (:mod:`gameopt.sudoku._exact_kernel`, any box size) works cell by cell;
this one works digit by digit, a whole band of 27 cells per machine word, so placing a
value, finding singles and locked candidates are a few dozen word operations each.

Data structures and their invariants
------------------------------------
A *band* is three consecutive rows (band ``b`` = rows ``3b .. 3b+2``); cell ``c`` of the
grid is bit ``i = c - 27b`` of its band word (bit ``9r + k`` for row ``3b + r``, column
``k``). One search level is ``W = 30`` int64 words at offset ``o`` of ``st``:

``st[o + 3d + b]`` (digit plane, ``d`` in 0..8)
    Bit ``i`` set while digit ``d`` is possible in cell ``i`` of band ``b``. A placed cell
    keeps exactly its own digit's bit, so every row, column and box holds each digit's
    bit in one cell at least, and exactly one once the digit is placed there.
``st[o + 27 + b]`` (unplaced cells)
    Bit ``i`` set while cell ``i`` of band ``b`` has no value placed.

Placing digit ``d`` in a cell clears the cell from the other eight planes, its row and
box peers from plane ``d`` in its band and its column from plane ``d`` in the other two
bands. A placement is refused (a contradiction) when the digit is no longer possible
there, so every placed grid is consistent.

Search stack (one entry per level): ``br_cell[l]`` the branching cell (``27b + i``)
plus 256 times the digit tried first there, ``br_rem[l]`` its digits not yet tried (bit
``d``). A guess copies one level (30 words);
the last digit of a cell reuses the level in place, so there is nothing to undo.

References
----------
.. [1] T. Dillon, "Tdoku: A fast Sudoku solver and generator", 2019,
   https://t-dillon.github.io/tdoku (band and box-triad representations, singles and
   locked candidates by word operations).
.. [2] J. Zhou, "JCZSolve", the enjoysudoku players' forum, 2014 (digit planes in
   27-bit bands).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.sudoku._exact_kernel import STOP_EVERY, popcount

__all__ = ["W", "solve_rows"]

#: Words per search level: 27 digit-band planes, then 3 unplaced-cell masks.
W = 30

_ALL = (1 << 27) - 1
_ROW = 0x1FF
#: Bits 0, 9, 18: the three rows of one column in a band word.
_COL0 = 1 | 1 << 9 | 1 << 18
#: Bits 0, 3, 6 of every row: the first column of each box in a band word.
_BOXCOL0 = 0b001001001 * _COL0


def _band_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``peer[i]``: the row and box peers of band cell ``i`` in its band (not ``i``);
    ``col[i]``: the column of cell ``i`` in any band; ``box[j]``: box ``j`` of a band."""
    peer = np.zeros(27, dtype=np.int64)
    col = np.zeros(27, dtype=np.int64)
    box = np.zeros(3, dtype=np.int64)
    for j in range(3):
        box[j] = (0b111 << 3 * j) * _COL0
    for i in range(27):
        r, k = divmod(i, 9)
        col[i] = _COL0 << k
        peer[i] = ((_ROW << 9 * r) | box[k // 3]) & ~(1 << i)
    return peer, col, box


_PEER, _COLM, _BOXM = _band_tables()


def _locked_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Look-up tables of locked candidates.

    ``rowclear[p]``: the band cells a digit leaves when bit ``3r + j`` of ``p`` says it
    still has a cell in row ``r`` of box ``j``: a box with one such row (pointing) clears
    the rest of that row, a row with one such box (claiming) clears the rest of that box.
    ``s3[g]``: ``g`` (three columns of a box) if it has one bit, else 0. ``cl3[g]``: the
    columns of a box to clear when the columns ``g`` hold the digit in this band only
    (claiming): the others; all three when ``g`` has two or three (a contradiction).
    """
    rowclear = np.zeros(512, dtype=np.int64)
    for p in range(512):
        has = [[p >> (3 * r + j) & 1 for j in range(3)] for r in range(3)]
        clear = 0
        for j in range(3):
            rows = [r for r in range(3) if has[r][j]]
            if len(rows) == 1:
                clear |= (_ROW << 9 * rows[0]) & ~(0b111 << (9 * rows[0] + 3 * j))
        for r in range(3):
            boxes = [j for j in range(3) if has[r][j]]
            if len(boxes) == 1:
                clear |= int(_BOXM[boxes[0]]) & ~(_ROW << 9 * r)
        rowclear[p] = clear
    s3 = np.array([g if g in (1, 2, 4) else 0 for g in range(8)], dtype=np.int64)
    cl3 = np.array([0 if g == 0 else (7 & ~g if g in (1, 2, 4) else 7) for g in range(8)],
                   dtype=np.int64)
    return rowclear, s3, cl3


_ROWCLEAR, _S3, _CL3 = _locked_tables()


@njit(cache=True, inline="always")
def _low(bit):
    """Index of the lowest set bit of ``bit`` (> 0)."""
    return popcount((bit & -bit) - 1)


@njit(cache=True, inline="always")
def _place(st, o, d, b, i, peer, colm):
    """Place digit ``d`` in cell ``i`` of band ``b``.

    Returns -1 if ``d`` is not possible there, else the digits whose planes changed (bit
    ``d``: ``d`` and the other digits the cell held); 0 if the cell already holds ``d``.
    """
    bit = np.int64(1) << i
    w = st[o + 3 * d + b]
    if w & bit == 0:
        return -1
    if st[o + 27 + b] & bit == 0:
        return 0
    st[o + 27 + b] ^= bit
    st[o + 3 * d + b] = w & ~peer[i]
    col = colm[i]
    for b2 in range(3):
        if b2 != b:
            st[o + 3 * d + b2] &= ~col
    dirty = np.int64(0)
    for d2 in range(9):
        w2 = st[o + 3 * d2 + b]
        dirty |= ((w2 >> i) & 1) << d2
        st[o + 3 * d2 + b] = w2 & ~bit
    st[o + 3 * d + b] = (w & ~peer[i]) | bit
    return dirty


@njit(cache=True, inline="always")
def _naked(st, o, peer, colm):
    """Place every cell left with one digit; -1 on a cell with none, else the digits
    whose planes changed."""
    placed = 0
    for b in range(3):
        u = st[o + 27 + b]
        if u == 0:
            continue
        ones = np.int64(0)
        twos = np.int64(0)
        for d in range(9):
            x = st[o + 3 * d + b]
            twos |= ones & x
            ones |= x
        if u & ~ones:
            return -1
        s = u & ~twos
        while s:
            bit = s & -s
            s ^= bit
            i = _low(bit)
            d = 0
            while d < 9 and st[o + 3 * d + b] & bit == 0:
                d += 1
            if d == 9:
                return -1
            dirt = _place(st, o, d, b, i, peer, colm)
            if dirt < 0:
                return -1
            placed |= dirt
    return placed


@njit(cache=True, inline="always")
def _single_cells(x, boxm):
    """The cells of band word ``x`` alone in their row or box of the band; -1 when a row
    or box of the band has none."""
    s = np.int64(0)
    for r in range(3):
        m = x & (np.int64(_ROW) << 9 * r)
        if m == 0:
            return np.int64(-1)
        s |= m & -np.int64(popcount(m) == 1)
    for j in range(3):
        m = x & boxm[j]
        if m == 0:
            return np.int64(-1)
        s |= m & -np.int64(popcount(m) == 1)
    return s


@njit(cache=True, inline="always")
def _hidden(st, o, todo, peer, colm, boxm):
    """Place every digit of ``todo`` (bit ``d``) left with one cell in a row, box or
    column; -1 on a digit with no cell left in a unit, else the digits whose planes
    changed."""
    placed = 0
    for d in range(9):
        if todo >> d & 1 == 0:
            continue
        x0 = st[o + 3 * d]
        x1 = st[o + 3 * d + 1]
        x2 = st[o + 3 * d + 2]
        u0 = st[o + 27]
        u1 = st[o + 28]
        u2 = st[o + 29]
        if (x0 & u0) | (x1 & u1) | (x2 & u2) == 0:
            continue  # placed in all nine boxes
        s0 = _single_cells(x0, boxm)
        s1 = _single_cells(x1, boxm)
        s2 = _single_cells(x2, boxm)
        if s0 < 0 or s1 < 0 or s2 < 0:
            return -1
        # columns: a bit-sliced count of the nine rows' column masks
        ones = np.int64(0)
        twos = np.int64(0)
        for x in (x0, x1, x2):
            for r in range(3):
                t = (x >> 9 * r) & _ROW
                twos |= ones & t
                ones |= t
        if ones != _ROW:
            return -1
        cols = (ones & ~twos) * _COL0
        for b in range(3):
            x = x0 if b == 0 else (x1 if b == 1 else x2)
            todo_b = ((s0 if b == 0 else (s1 if b == 1 else s2)) | (x & cols)) & (
                u0 if b == 0 else (u1 if b == 1 else u2))
            while todo_b:
                bit = todo_b & -todo_b
                todo_b ^= bit
                dirt = _place(st, o, d, b, _low(bit), peer, colm)
                if dirt < 0:
                    return -1
                placed |= dirt
    return placed


@njit(cache=True, inline="always")
def _presence(x):
    """Bit ``3r + j`` set when plane word ``x`` holds its digit in row ``r`` of box
    ``j`` of the band."""
    m = (x | x >> 1 | x >> 2) & _BOXCOL0  # bit 9r + 3j
    out = np.int64(0)
    for r in range(3):
        part = (m >> 9 * r) & 0b001001001
        out |= ((part & 1) | ((part >> 2) & 2) | ((part >> 4) & 4)) << 3 * r
    return out


@njit(cache=True, inline="always")
def _locked(st, o, todo, rowclear, s3, cl3):
    """Locked candidates for the digits of ``todo``: pointing and claiming along rows
    (inside a band, one table look-up per band) and along columns (across bands).
    Returns the digits that lost a candidate."""
    changed = 0
    for d in range(9):
        if todo >> d & 1 == 0:
            continue
        x0 = st[o + 3 * d]
        x1 = st[o + 3 * d + 1]
        x2 = st[o + 3 * d + 2]
        y0 = x0 & ~rowclear[_presence(x0)]
        y1 = x1 & ~rowclear[_presence(x1)]
        y2 = x2 & ~rowclear[_presence(x2)]
        c0 = (y0 | y0 >> 9 | y0 >> 18) & _ROW
        c1 = (y1 | y1 >> 9 | y1 >> 18) & _ROW
        c2 = (y2 | y2 >> 9 | y2 >> 18) & _ROW
        # pointing: columns k where a box of band b holds d in column k only
        p0 = s3[c0 & 7] | s3[(c0 >> 3) & 7] << 3 | s3[c0 >> 6] << 6
        p1 = s3[c1 & 7] | s3[(c1 >> 3) & 7] << 3 | s3[c1 >> 6] << 6
        p2 = s3[c2 & 7] | s3[(c2 >> 3) & 7] << 3 | s3[c2 >> 6] << 6
        # claiming: columns holding d in one band only clear the rest of their box
        o0 = c0 & ~(c1 | c2)
        o1 = c1 & ~(c0 | c2)
        o2 = c2 & ~(c0 | c1)
        k0 = cl3[o0 & 7] | cl3[(o0 >> 3) & 7] << 3 | cl3[o0 >> 6] << 6
        k1 = cl3[o1 & 7] | cl3[(o1 >> 3) & 7] << 3 | cl3[o1 >> 6] << 6
        k2 = cl3[o2 & 7] | cl3[(o2 >> 3) & 7] << 3 | cl3[o2 >> 6] << 6
        y0 &= ~((p1 | p2 | k0) * _COL0)
        y1 &= ~((p0 | p2 | k1) * _COL0)
        y2 &= ~((p0 | p1 | k2) * _COL0)
        if y0 != x0 or y1 != x1 or y2 != x2:
            st[o + 3 * d] = y0
            st[o + 3 * d + 1] = y1
            st[o + 3 * d + 2] = y2
            changed |= 1 << d
    return changed


@njit(cache=True, inline="always")
def _propagate(st, o, dirty, peer, colm, boxm, rowclear, s3, cl3):
    """Singles and locked candidates to a fixpoint; -1 on a contradiction, 0 when every
    cell is placed, 1 otherwise.

    ``dirty`` (bit ``d``): the digits whose planes changed since the last fixpoint; only
    they are scanned for hidden singles and locked candidates (naked singles are looked
    for in every cell).
    """
    hd = dirty  # digits to scan for hidden singles
    ld = dirty  # digits to scan for locked candidates
    while True:
        k = _naked(st, o, peer, colm)
        if k < 0:
            return -1
        if k > 0:
            hd |= k
            ld |= k
            continue
        if hd:
            h = _hidden(st, o, hd, peer, colm, boxm)
            if h < 0:
                return -1
            hd = h
            ld |= h
            if h:
                continue
        if st[o + 27] | st[o + 28] | st[o + 29] == 0:
            return 0
        if ld == 0:
            return 1
        got = _locked(st, o, ld, rowclear, s3, cl3)
        ld = got
        hd = got
        if got == 0:
            return 1


@njit(cache=True, inline="always")
def _bivalue(st, o, b):
    """Unplaced cells of band ``b`` with exactly two digits left."""
    ones = np.int64(0)
    twos = np.int64(0)
    threes = np.int64(0)
    for d in range(9):
        x = st[o + 3 * d + b]
        threes |= twos & x
        twos |= ones & x
        ones |= x
    return twos & ~threes & st[o + 27 + b]


@njit(cache=True, inline="always")
def _choose(st, o, peer, colm):
    """Branching cell ``27b + i``: among two-digit cells, the one whose digits appear
    most among its peers, a two-digit peer counting three times (it becomes a single
    whichever way the guess goes); without two-digit cells, the first with fewest."""
    best = -1
    score = -1
    v0 = _bivalue(st, o, 0)
    v1 = _bivalue(st, o, 1)
    v2 = _bivalue(st, o, 2)
    for b in range(3):
        biv = v0 if b == 0 else (v1 if b == 1 else v2)
        while biv:
            bit = biv & -biv
            biv ^= bit
            i = _low(bit)
            sc = 0
            for d in range(9):
                if st[o + 3 * d + b] & bit:
                    for b2 in range(3):
                        m = peer[i] if b2 == b else colm[i] & ~bit
                        x = st[o + 3 * d + b2] & m & st[o + 27 + b2]
                        vb = v0 if b2 == 0 else (v1 if b2 == 1 else v2)
                        sc += popcount(x) + 2 * popcount(x & vb)
            if sc > score:
                score = sc
                best = 27 * b + i
    if best >= 0:
        return best
    fewest = 10
    for b in range(3):  # a bit-sliced counter: bit k of a cell's digit count in c[k]
        c0 = np.int64(0)
        c1 = np.int64(0)
        c2 = np.int64(0)
        c3 = np.int64(0)
        for d in range(9):
            x = st[o + 3 * d + b]
            k0 = c0 & x
            c0 ^= x
            k1 = c1 & k0
            c1 ^= k0
            k2 = c2 & k1
            c2 ^= k1
            c3 |= k2
        u = st[o + 27 + b]
        for k in range(3, fewest):
            m = u & (c0 if k & 1 else ~c0) & (c1 if k & 2 else ~c1) & (
                c2 if k & 4 else ~c2) & (c3 if k & 8 else ~c3)
            if m:
                fewest = k
                best = 27 * b + _low(m)
                break
    return best


@njit(cache=True, inline="always")
def _first_digit(st, o, c, rem, peer, colm):
    """The digit of ``rem`` (bit ``d``) to try first at branching cell ``c``: the one
    left in most unplaced peers (it removes most candidates: the most constraining
    value), the lowest on a tie."""
    b = c // 27
    i = c % 27
    best = -1
    score = -1
    while rem:
        d = _low(rem)
        rem &= rem - 1
        sc = 0
        for b2 in range(3):
            m = peer[i] if b2 == b else colm[i]
            sc += popcount(st[o + 3 * d + b2] & m & st[o + 27 + b2])
        if sc > score:
            score = sc
            best = d
    return best


@njit(cache=True, inline="always")
def _count_one(givens, limit, st, br_cell, br_rem, out, stop, peer, colm, boxm, rowclear,
               s3, cl3):
    """Count the solutions of one puzzle up to ``limit``; returns ``(count, nodes)``.

    ``nodes`` counts the digits tried at branching cells. The first solution found is
    written to ``out`` (1-based digits). ``count`` is -1 when ``stop[0]`` was found set
    (read every ``STOP_EVERY`` guesses).
    """
    for k in range(27):
        st[k] = _ALL
    for b in range(3):
        st[27 + b] = _ALL
    for c in range(81):
        v = givens[c]
        if v > 0 and _place(st, 0, v - 1, c // 27, c % 27, peer, colm) < 0:
            return 0, 0
    count = 0
    nodes = 0
    o = 0
    lvl = 0
    d = -1  # deepest level with a branching cell
    dirty = 0x1FF
    while True:
        res = _propagate(st, o, dirty, peer, colm, boxm, rowclear, s3, cl3)
        if res == 0:
            count += 1
            if count == 1:
                for dd in range(9):
                    for b in range(3):
                        x = st[o + 3 * dd + b]
                        while x:
                            bit = x & -x
                            x ^= bit
                            out[27 * b + _low(bit)] = dd + 1
            if count >= limit:
                break
        elif res > 0:
            c = _choose(st, o, peer, colm)
            d = lvl
            rem = 0
            for dd in range(9):
                if st[o + 3 * dd + c // 27] >> (c % 27) & 1:
                    rem |= 1 << dd
            br_cell[d] = c | _first_digit(st, o, c, rem, peer, colm) << 8
            br_rem[d] = rem
        while d >= 0 and br_rem[d] == 0:
            d -= 1
        if d < 0:
            break
        rem = br_rem[d]
        c = br_cell[d] & 0xFF
        bit = np.int64(1) << (br_cell[d] >> 8)
        if rem & bit == 0:
            bit = rem & -rem
        rem ^= bit
        br_rem[d] = rem
        o = d * W
        nodes += 1
        if nodes % STOP_EVERY == 0 and stop[0]:
            return -1, nodes
        if rem != 0:  # more digits to try here: guess on a copy at the next level
            for k in range(W):
                st[o + W + k] = st[o + k]
            o += W
            lvl = d + 1
        else:  # last digit of this cell: reuse the level in place
            lvl = d
        dirty = _place(st, o, _low(bit), c // 27, c % 27, peer, colm)
        # dirty >= 0: the digit was a candidate when the level was saved
    return count, nodes


# nogil: a watchdog thread can set the stop flag while the kernel runs
@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
def solve_rows(grids, limit, st, br_cell, br_rem, counts, solutions, nodes, stop):
    """Count the solutions of each row of ``grids`` (int8, shape (m, 81)) up to
    ``limit``: ``counts[j]``, ``nodes[j]`` (int64) and the first solution in
    ``solutions[j]`` (int8, zeros if none). Work space: ``st`` (int64, 82 * W),
    ``br_cell`` and ``br_rem`` (int64, 82). ``stop`` (uint8, shape (1,)) is polled every
    ``STOP_EVERY`` guesses and between puzzles: once it is set, the row being counted
    and the rows after it get count -1."""
    peer, colm, boxm = _PEER, _COLM, _BOXM
    rowclear, s3, cl3 = _ROWCLEAR, _S3, _CL3
    for j in range(grids.shape[0]):
        if stop[0]:
            for rest in range(j, grids.shape[0]):
                counts[rest] = -1
            return
        k, g = _count_one(grids[j], limit, st, br_cell, br_rem, solutions[j], stop, peer,
                          colm, boxm, rowclear, s3, cl3)
        counts[j] = k
        nodes[j] = g
