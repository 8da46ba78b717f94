"""numba kernels for whole-position Go analysis (see :mod:`gameopt.go.board` for the API).

Scalars and arrays in, scalars and arrays out; nothing here validates its input. The slow
reference these kernels are tested against is :mod:`gameopt.go.reference`.

Data and invariants
-------------------
``cells`` (int8, shape (rows*cols,))
    Row-major colours: 0 empty, 1 black, 2 white. Point ``p`` is row ``p // cols``,
    column ``p % cols``; its neighbours are ``p - cols``, ``p + cols`` and, within the
    same row, ``p - 1``, ``p + 1``.
``label`` (int32, shape (rows*cols,))
    The string of each stone, -1 on empty points. Strings are numbered 0, 1, ... in the
    row-major order of their first stone, so the numbering depends only on the position.
``first``, ``size``, ``libs`` (int32, one entry per string)
    First stone (row-major) of each string, its number of stones, its number of distinct
    liberties (empty points next to any of its stones).

Every index is a signed integer (int64 scalars, int32 arrays); no unsigned type is used.
All kernels are O(rows*cols).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["label_strings", "liberty_pairs", "legal_mask"]


@njit(cache=True)
def label_strings(
    cells: npt.NDArray[np.int8], rows: int, cols: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32],
           npt.NDArray[np.int32]]:
    """Label the strings of a position by flood fill; count their stones and liberties.

    Returns
    -------
    label : int32 array, shape (rows*cols,)
    first, size, libs : int32 arrays, shape (number of strings,)
    """
    n = rows * cols
    label = np.full(n, -1, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int32)
    size = np.zeros(n, dtype=np.int32)
    count = 0
    for p in range(n):
        colour = cells[p]
        if colour == 0 or label[p] >= 0:
            continue
        # depth-first flood fill from p over stones of the same colour
        label[p] = count
        stack[0] = p
        top = 1
        stones = 0
        while top > 0:
            top -= 1
            q = stack[top]
            stones += 1
            c = q % cols
            if q >= cols and cells[q - cols] == colour and label[q - cols] < 0:
                label[q - cols] = count
                stack[top] = q - cols
                top += 1
            if q + cols < n and cells[q + cols] == colour and label[q + cols] < 0:
                label[q + cols] = count
                stack[top] = q + cols
                top += 1
            if c > 0 and cells[q - 1] == colour and label[q - 1] < 0:
                label[q - 1] = count
                stack[top] = q - 1
                top += 1
            if c + 1 < cols and cells[q + 1] == colour and label[q + 1] < 0:
                label[q + 1] = count
                stack[top] = q + 1
                top += 1
        first[count] = p
        size[count] = stones
        count += 1
    libs = np.zeros(count, dtype=np.int32)
    seen = np.empty(4, dtype=np.int32)
    for p in range(n):
        if cells[p] != 0:
            continue
        k = _neighbour_labels(label, p, rows, cols, seen)
        for i in range(k):
            libs[seen[i]] += 1
    return label, first[:count].copy(), size[:count].copy(), libs


@njit(cache=True, inline="always")
def _step(p: int, d: int, c: int, cols: int, n: int) -> int:
    """Neighbour ``d`` (0 up, 1 down, 2 left, 3 right) of point ``p`` in column ``c``, or
    -1 off the board."""
    if d == 0:
        return p - cols if p >= cols else -1
    if d == 1:
        return p + cols if p + cols < n else -1
    if d == 2:
        return p - 1 if c > 0 else -1
    return p + 1 if c + 1 < cols else -1


@njit(cache=True)
def _neighbour_labels(label: npt.NDArray[np.int32], p: int, rows: int, cols: int,
                      seen: npt.NDArray[np.int32]) -> int:
    """Write the distinct string labels next to point ``p`` into ``seen``; return how many."""
    k = 0
    c = p % cols
    n = rows * cols
    for d in range(4):
        q = _step(p, d, c, cols, n)
        if q < 0:
            continue
        lab = label[q]
        if lab < 0:
            continue
        dup = False
        for i in range(k):
            if seen[i] == lab:
                dup = True
        if not dup:
            seen[k] = lab
            k += 1
    return k


@njit(cache=True)
def liberty_pairs(
    cells: npt.NDArray[np.int8], label: npt.NDArray[np.int32], rows: int, cols: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Every (string, liberty) pair once, liberties in row-major order.

    Returns
    -------
    string, point : int32 arrays of equal length (the total liberty count)
    """
    n = rows * cols
    out_s = np.empty(4 * n, dtype=np.int32)
    out_p = np.empty(4 * n, dtype=np.int32)
    seen = np.empty(4, dtype=np.int32)
    m = 0
    for p in range(n):
        if cells[p] != 0:
            continue
        k = _neighbour_labels(label, p, rows, cols, seen)
        for i in range(k):
            out_s[m] = seen[i]
            out_p[m] = p
            m += 1
    return out_s[:m].copy(), out_p[:m].copy()


@njit(cache=True)
def legal_mask(cells: npt.NDArray[np.int8], label: npt.NDArray[np.int32],
               libs: npt.NDArray[np.int32], rows: int, cols: int, colour: int,
               ko: int, allow_suicide: bool) -> npt.NDArray[np.bool_]:
    """Points where ``colour`` may play in a legal position (every string has a liberty).

    ``ko`` is the point ``colour`` may not retake, or -1. An empty point is legal when it
    is not ``ko`` and either suicide is allowed, or it has an empty neighbour, or a
    neighbouring string of ``colour`` keeps another liberty, or a neighbouring opponent
    string has this point as its last liberty (a capture).
    """
    n = rows * cols
    out = np.zeros(n, dtype=np.bool_)
    for p in range(n):
        if cells[p] != 0 or p == ko:
            continue
        if allow_suicide:
            out[p] = True
            continue
        c = p % cols
        for d in range(4):
            q = _step(p, d, c, cols, n)
            if q < 0:
                continue
            if cells[q] == 0:
                out[p] = True
            elif cells[q] == colour:
                if libs[label[q]] >= 2:
                    out[p] = True
            elif libs[label[q]] == 1:
                out[p] = True
    return out
