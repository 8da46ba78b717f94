"""Slow, obviously correct reference for the domination number of small grids.

Tries the subsets of the m×n grid by increasing size; the first size with a dominating
subset is γ(G_{m,n}), since every smaller subset has been tried and failed. MSP(m, n) =
m·n − γ (see :mod:`gameopt.go.msp_dp`). Used by the tests against the dynamic program
and the IP models; nothing fast belongs here.

Examples
--------
>>> brute_domination_number(3)
3
>>> brute_msp(4)
12
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["MAX_CELLS", "brute_domination_number", "brute_dominating_set", "brute_msp",
           "is_dominating"]

#: Largest board (in cells) the brute force accepts: at most 2**20 subsets.
MAX_CELLS = 20


def is_dominating(mask: npt.ArrayLike) -> bool:
    """True when every cell of the grid is in ``mask`` or next to a cell of it.

    Parameters
    ----------
    mask : array_like of bool, shape (m, n)
        The set (True: in the set; for MSP, the empty points).

    Returns
    -------
    bool

    Raises
    ------
    InvalidInputError
        If ``mask`` is not two-dimensional.

    Notes
    -----
    Plain loops over the cells and their four neighbours, O(m·n).
    """
    a = np.asarray(mask, dtype=bool)
    if a.ndim != 2:
        raise InvalidInputError(f"is_dominating: mask must be 2-dimensional, got shape "
                                f"{a.shape}")
    m, n = a.shape
    for i in range(m):
        for j in range(n):
            near = [(i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)]
            if not any(0 <= p < m and 0 <= q < n and a[p, q] for p, q in near):
                return False
    return True


def _size(m: int, n: int | None, where: str) -> tuple[int, int]:
    n = m if n is None else n
    for name, v in (("m", m), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
            raise InvalidInputError(f"{where}: {name} must be a positive integer, got {v!r}")
    m, n = int(m), int(n)
    if m * n > MAX_CELLS:
        raise InvalidInputError(f"{where}: {m}x{n} has {m * n} cells, more than the "
                                f"{MAX_CELLS} the brute force accepts (2**{m * n} subsets)")
    return m, n


def brute_dominating_set(m: int, n: int | None = None) -> npt.NDArray[np.bool_]:
    """A minimum dominating set of the m×n grid, by exhaustive search.

    Parameters
    ----------
    m : int
        Rows, at least 1.
    n : int or None
        Columns, at least 1 (default: ``m``). At most ``MAX_CELLS`` cells in all.

    Returns
    -------
    ndarray of bool, shape (m, n)
        The first dominating subset of least size in the order of
        :func:`itertools.combinations` over the cells in row-major order.

    Raises
    ------
    InvalidInputError
        If a size is not a positive integer, or the board has more than ``MAX_CELLS``
        cells.

    Notes
    -----
    Cells are bits of an integer; a subset dominates when the union of its cells' closed
    neighbourhoods is every bit. Subsets of size 0, 1, 2, ... are tried in turn: at most
    ``2**(m*n)`` unions of at most ``m*n`` masks.
    """
    m, n = _size(m, n, "brute_dominating_set")
    cells = m * n
    full = (1 << cells) - 1
    closed = []
    for i in range(m):
        for j in range(n):
            bits = 1 << (i * n + j)
            if i > 0:
                bits |= 1 << ((i - 1) * n + j)
            if i < m - 1:
                bits |= 1 << ((i + 1) * n + j)
            if j > 0:
                bits |= 1 << (i * n + j - 1)
            if j < n - 1:
                bits |= 1 << (i * n + j + 1)
            closed.append(bits)
    for k in range(cells + 1):
        for subset in combinations(range(cells), k):
            covered = 0
            for c in subset:
                covered |= closed[c]
            if covered == full:
                out = np.zeros(cells, dtype=bool)
                out[list(subset)] = True
                return out.reshape(m, n)
    raise AssertionError("the whole grid dominates itself")  # pragma: no cover


def brute_domination_number(m: int, n: int | None = None) -> int:
    """γ(G_{m,n}) by exhaustive search (see :func:`brute_dominating_set`)."""
    return int(brute_dominating_set(m, n).sum())


def brute_msp(m: int, n: int | None = None) -> int:
    """MSP(m, n) = m·n − γ(G_{m,n}) by exhaustive search."""
    mask = brute_dominating_set(m, n)
    return int(mask.size - mask.sum())
