"""numba kernel of the deck service: a principal submatrix gathered from the loaded scores.

Arrays and scalars only (STYLE.md, convention 8). The plain reference is
:func:`gameopt.deck.service.gather_reference` (two ``numpy.take``), which the tests
compare with this kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["gather_square"]


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
