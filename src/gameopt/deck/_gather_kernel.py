"""numba kernel of the deck service: a principal submatrix gathered from the loaded scores.

Arrays and scalars only (STYLE.md, convention 8). The plain reference is
:func:`gameopt.deck.service.gather_reference` (two ``numpy.take``), which the tests
compare with this kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["gather_square", "scatter_square"]


@njit(cache=True, nogil=True)
def gather_square(R: np.ndarray, rows: np.ndarray, out: np.ndarray) -> None:
    """``out[i, j] = R[rows[i], rows[j]]``, and 0 where ``rows[i]`` or ``rows[j]`` is -1.

    ``R`` float32 (k, k), ``rows`` int64 (n,), ``out`` float32 (n, n), written in place.
    O(n²): each output row reads one row of ``R``, so a row of 4,000 float32 stays in
    cache while it is gathered.
    """
    n = rows.shape[0]
    for i in range(n):
        o = out[i]
        a = rows[i]
        if a < 0:
            for j in range(n):
                o[j] = 0.0
            continue
        src = R[a]
        for j in range(n):
            b = rows[j]
            o[j] = src[b] if b >= 0 else 0.0


@njit(cache=True, nogil=True)
def scatter_square(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,
                   rows: np.ndarray, pos: np.ndarray, out: np.ndarray) -> None:
    """:func:`gather_square` from a sparse matrix: the same ``out``, read from CSR rows.

    ``indptr`` int64 (k+1,), ``indices`` int32 (nnz,), ``data`` float32 (nnz,): the
    nonzero entries of a k × k matrix with a zero diagonal, row by row. ``rows`` int64
    (n,): distinct rows, or -1; ``pos`` int64 (k,): ``pos[rows[i]] = i``, -1 for a row
    not in ``rows``. ``out`` float32 (n, n), written in place.

    O(n² + nnz of the rows): each output row is zeroed, then the nonzeros of its source
    row are stored at their columns. A column not in ``rows`` is stored on the diagonal
    instead (no branch to mispredict) and the diagonal is zeroed after the row.
    """
    n = rows.shape[0]
    for i in range(n):
        o = out[i]
        for j in range(n):
            o[j] = 0.0
        a = rows[i]
        if a < 0:
            continue
        for t in range(indptr[a], indptr[a + 1]):
            j = pos[indices[t]]
            o[j if j >= 0 else i] = data[t]
        o[i] = 0.0
