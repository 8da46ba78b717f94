"""The deck rules as one numba-compatible named tuple, and the indices of the swap state.

Every kernel of the deck package takes the rules as one :class:`RuleArrays` argument
(numba passes a ``NamedTuple`` of arrays and scalars as one struct; reading a field costs
nothing) instead of eight positional arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["ATTR", "COST", "NO_CAP", "RuleArrays", "size_only"]

#: The cap, and the character limit, of a rule that does not apply (fits in int64).
NO_CAP = 2**62

# Indices into the swap state ``st`` (int64, shape (2,)) of the local-search kernels
COST = 0  # total cost of the deck
ATTR = 1  # pieces of the deck with the attribute


class RuleArrays(NamedTuple):
    """The rules over n pieces, as the kernels read them.

    Attributes
    ----------
    cost : ndarray of int64, shape (n,)
        Cost of each piece (zeros without costs).
    cap : int
        Cost cap (:data:`NO_CAP` without one).
    char : ndarray of int64, shape (n,)
        Character of each piece, renumbered ``0..n_char-1`` (each piece its own
        character without character limits).
    n_char : int
        Number of characters.
    climit : ndarray of int64, shape (n_char,)
        Most pieces of each character in a deck (:data:`NO_CAP` without a limit).
    attr : ndarray of int64, shape (n,)
        1 when the piece has the deck attribute, else 0.
    amin : int
        Fewest pieces with the attribute.
    locked : ndarray of int64, shape (n,)
        1 for the must-include pieces (they never leave the deck), else 0.
    order : ndarray of int64, shape (n,)
        Piece indices by ascending cost (stable): the construction's completion order.
    """

    cost: npt.NDArray[np.int64]
    cap: int
    char: npt.NDArray[np.int64]
    n_char: int
    climit: npt.NDArray[np.int64]
    attr: npt.NDArray[np.int64]
    amin: int
    locked: npt.NDArray[np.int64]
    order: npt.NDArray[np.int64]


def size_only(n: int) -> RuleArrays:
    """The rules of a size-only problem on n pieces (no cost, character or attribute)."""
    zero = np.zeros(n, dtype=np.int64)
    return RuleArrays(zero, NO_CAP, np.arange(n, dtype=np.int64), n,
                      np.full(n, NO_CAP, dtype=np.int64), zero, 0, zero.copy(),
                      np.arange(n, dtype=np.int64))
