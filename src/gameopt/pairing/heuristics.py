"""Pairing heuristics: SLIM's greedy pairing improved by swaps, and the naive top-down rule.

Neither is optimal in general; both are here to compare with the exact matching of
:mod:`gameopt.pairing.matching` (which each falls back to when its own pass cannot avoid
the forbidden pairs). SLIM's search runs on arrays in the numba kernels of
:mod:`gameopt.pairing._slim_kernels`.

References
----------
.. [1] T. Nakajima, "Pairing Algorithm", 2002 (§4: SLIM's construction and swaps).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError
from gameopt.pairing._slim_kernels import SLIM_WINDOW, local_search
from gameopt.pairing.matching import (
    check_matrices,
    infeasible_error,
    solve_exact,
    sorted_pairs,
)

__all__ = ["SLIM_WINDOW", "naive_matching", "slim_matching"]

log = logging.getLogger(__name__)

Pairs = list[tuple[int, int]]


# --------------------------------------------------------------------------------------
# SLIM: greedy top/bottom alternation, then 2-, 3- and 4-player swaps
# --------------------------------------------------------------------------------------


def slim_matching(cost: npt.ArrayLike, allowed: npt.ArrayLike | None = None, *,
                  window: int | None = SLIM_WINDOW,
                  labels: Sequence[str] | None = None) -> Pairs:
    """SLIM's heuristic (Nakajima 2002, §4): greedy pairing improved by swaps.

    Vertices are taken in index order as the ranking. Construction: the best-ranked
    unpaired player is paired with the unpaired player he costs least against, then the
    worst-ranked unpaired one likewise, alternately. Improvement: while swapping the
    opponents of 2 players lowers the total, swap; then 3 players, then 4; an
    improvement by 3 or 4 restarts from 2. The result is a local optimum: no set of up to
    4 tables can be re-paired more cheaply.

    Parameters
    ----------
    cost : array_like of int, shape (n, n)
    allowed : array_like of bool, shape (n, n), optional
    window : int or None
        3- and 4-player swaps only among tables within ``window`` consecutive tables of
        the rank order (2-player swaps are always over all pairs of tables). ``None``
        gives SLIM's full neighbourhoods (Nakajima 2002, §4), O(n⁴) per pass.
    labels : sequence of str, optional
        Names for the error message.

    Raises
    ------
    InfeasibleError
        No perfect matching avoids the forbidden pairs.

    Notes
    -----
    Construction O(n²); a pass of k-swaps O(T·window^(k−1)) with T = n/2 tables, in a
    numba kernel. If the swaps cannot remove a forbidden pair although a perfect
    matching exists (seen only when most pairs are forbidden), the exact solver's
    matching is returned and a warning logged.
    """
    c, a, _, names = check_matrices(cost, allowed, None, labels)
    if c.shape[0] % 2:
        raise infeasible_error(a, names)
    pairs = sorted_pairs(local_search(c, a, window=window).tolist())
    if not all(a[u, v] for u, v in pairs):
        exact = solve_exact(c, a, None, names, None, prune=False)  # raises if infeasible
        log.warning("SLIM's swaps left a forbidden pair; using the exact matching")
        return exact
    return pairs


# --------------------------------------------------------------------------------------
# Naive top-down pairing
# --------------------------------------------------------------------------------------


def naive_matching(allowed: npt.ArrayLike, avoid: npt.ArrayLike | None = None, *,
                   labels: Sequence[str] | None = None) -> Pairs:
    """Top-down pairing in index (rank) order: 1-2, 3-4 ..., skipping avoided pairs.

    The best-ranked unpaired player meets the next unpaired one he is allowed to meet and
    does not ``avoid`` (a rematch), or failing that the next one he is allowed to meet. If
    the greedy pass is left with players that may not meet, the pairing with fewest
    avoided pairs and then least rank distance is computed exactly instead.

    Raises
    ------
    InvalidInputError
        Matrices of the wrong shape.
    InfeasibleError
        No perfect matching avoids the forbidden pairs.

    Notes
    -----
    O(n²) in the worst case, O(n) typically.
    """
    a = np.asarray(allowed, dtype=np.bool_)
    n = a.shape[0] if a.ndim == 2 else -1
    av = np.zeros_like(a) if avoid is None else np.asarray(avoid, np.bool_)
    if a.shape != (n, n) or av.shape != (n, n):
        raise InvalidInputError(f"naive_matching: allowed and avoid must be square and of "
                                f"one shape, got {a.shape} and {av.shape}")
    names = [str(k) for k in range(n)] if labels is None else list(labels)
    free = list(range(n))
    pairs: Pairs = []
    while len(free) >= 2:
        u = free[0]
        ok = [v for v in free[1:] if a[u, v]]
        if not ok:
            break
        v = next((w for w in ok if not av[u, w]), ok[0])
        free.remove(u)
        free.remove(v)
        pairs.append((u, v))
    if not free:
        return sorted(pairs)
    idx = np.arange(n)
    fallback = av.astype(np.int64) * (n * n) + np.abs(idx[:, None] - idx[None, :])
    return solve_exact(fallback, a & ~np.eye(n, dtype=np.bool_), None, names, None, prune=True)

