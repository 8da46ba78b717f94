"""numba transposition table storing the *range* [lower, upper] of a position's true value.

As in Thell's spot: the key is the whole position (both bitboards, 128 bits, so a hit is
never a false positive), the value is the interval in which the true minimax value at the
stored depth lies, narrowed by intersection when the same position is searched again at
that depth, plus the best move found. Unknown positions are (-inf, +inf).

Layout (two arrays, one row per slot; slots come in buckets of two)
-------------------------------------------------------------------
``keys`` : uint64, shape (n, 2)
    ``(P, O)``; ``(0, 0)`` marks an empty slot (no position has no discs).
``data`` : int32, shape (n, 4)
    ``lower, upper, move, depth``; ``move`` is a square or -1.

A position hashes to bucket ``hash & (n - 1) & ~1``; a store reuses the slot holding the
same position, else an empty slot, else the slot with the smaller depth. ``n`` is a power of
two.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._bitboard import hash_position, popcount

__all__ = ["new_table", "probe", "store", "purge", "LOWER", "UPPER", "MOVE", "DEPTH"]

LOWER, UPPER, MOVE, DEPTH = 0, 1, 2, 3


def new_table(log2_size: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """An empty table of ``2**log2_size`` slots (32 bytes each: 16 of key, 16 of data)."""
    n = 1 << log2_size
    return np.zeros((n, 2), dtype=np.uint64), np.zeros((n, 4), dtype=np.int32)


@njit(cache=True)
def _bucket(keys: np.ndarray, P: np.uint64, O: np.uint64) -> int:
    n = keys.shape[0]
    return np.int64(hash_position(P, O) & np.uint64(n - 2))  # type: ignore[return-value]


@njit(cache=True)
def probe(keys: np.ndarray, P: np.uint64, O: np.uint64) -> int:
    """The slot holding (P, O), or -1."""
    i = _bucket(keys, P, O)
    if keys[i, 0] == P and keys[i, 1] == O:
        return i
    if keys[i + 1, 0] == P and keys[i + 1, 1] == O:
        return i + 1
    return -1


@njit(cache=True)
def store(keys: np.ndarray, data: np.ndarray, P: np.uint64, O: np.uint64, depth: int,
          lower: int, upper: int, move: int) -> None:
    """Record that the value of (P, O) searched to ``depth`` lies in [lower, upper]."""
    i = _bucket(keys, P, O)
    j = i + 1
    if keys[i, 0] == P and keys[i, 1] == O:
        slot = i
    elif keys[j, 0] == P and keys[j, 1] == O:
        slot = j
    else:
        slot = i if data[i, DEPTH] <= data[j, DEPTH] else j
        keys[slot, 0] = P
        keys[slot, 1] = O
        data[slot, LOWER] = lower
        data[slot, UPPER] = upper
        data[slot, MOVE] = move
        data[slot, DEPTH] = depth
        return
    if data[slot, DEPTH] == depth:
        lo = max(lower, data[slot, LOWER])
        hi = min(upper, data[slot, UPPER])
        if lo <= hi:  # the true value lies in both ranges
            lower, upper = lo, hi
    elif data[slot, DEPTH] > depth:
        return  # keep the deeper result
    data[slot, LOWER] = lower
    data[slot, UPPER] = upper
    if move >= 0:
        data[slot, MOVE] = move
    data[slot, DEPTH] = depth


@njit(cache=True)
def purge(keys: np.ndarray, data: np.ndarray, discs: int) -> int:
    """Empty every slot whose position has fewer than ``discs`` discs (as :func:`new_table`
    leaves a slot: all zero); the number emptied. O(slots).

    A game only adds discs, so once the board has ``discs`` discs those positions never
    come back: a table kept from move to move drops them and keeps the rest."""
    n = 0
    for i in range(keys.shape[0]):
        both = keys[i, 0] | keys[i, 1]
        if both != 0 and popcount(both) < discs:
            keys[i, 0] = 0
            keys[i, 1] = 0
            for j in range(4):
                data[i, j] = 0
            n += 1
    return n
