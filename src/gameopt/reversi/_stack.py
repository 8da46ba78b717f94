"""numba explicit-stack negamax shared by the midgame search and the exact solver.

numba cannot load a self-recursive function from its cache (numba issue #6061: the cached
object code keeps an unresolved pointer and segfaults), and compiling the search afresh takes
seconds, so the recursion is unrolled by hand: :func:`walk` is one loop over a stack of
frames, frame ``k + 1`` the child of frame ``k``. What differs between the game phases is how
a node is *entered* (the horizon, the table probe, the stability cutoff, the move order):
each phase passes its own ``enter`` function; receiving a child's value, the PVS re-search,
the next child and the table store are the helpers below, the same for both.

Frame layout (one row per ply)
------------------------------
``fu`` : uint64, shape (MAX_PLY, NU)
    ``fu[k, P], fu[k, O]`` the position (side to move first); ``fu[k, FLIPS]`` the flips of
    the move being searched; ``fu[k, REST]`` the moves not yet searched (PLAIN frames).
``fv`` : int64, shape (MAX_PLY, NV)
    ``ALPHA, BETA`` the window after narrowing by the table; ``A`` the running alpha (max of
    ALPHA and the best value so far); ``BEST, BEST_MOVE`` the best value and move so far
    (-inf, -1 before any child returns); ``KIND`` SORTED (ordered moves, hashing, PVS),
    PLAIN (square order) or PASS; ``NEXT, COUNT`` the next index into the ordered moves
    ``wsq[k], wfl[k]`` and their number (SORTED); ``PHASE`` how the child being searched
    was called: FULL window, NULL window or RESEARCH after a null-window fail high;
    ``SQUARE`` that child's move; ``RAISED`` 1 once a move raised alpha; ``PASSED`` 1 when
    the frame was reached by a pass; ``DEPTH`` the remaining depth (plies for the midgame
    search, empty squares for the exact solver: both drop by one per move, not per pass).
``wsq, wfl, wkey`` : int64 / uint64 / int64, shape (MAX_PLY, 32)
    The ordered moves of each SORTED frame, their flips and their order keys.

A value returned to frame k is from the child's side (negamax).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._bitboard import U0, U1, flips, popcount, square_of
from gameopt.reversi._params import CHECK_MASK, NODE_LIMIT, NODES, PVS, STOPPED, USE_TT
from gameopt.reversi._tt import DEPTH as TT_DEPTH
from gameopt.reversi._tt import LOWER, MOVE, UPPER, probe, store

__all__ = ["walk", "BIT", "MAX_PLY", "final_score"]

MAX_PLY = 128
#: 1 << s for every square
BIT = np.array([1 << s for s in range(64)], dtype=np.uint64)

# fu columns
P, O, FLIPS, REST = 0, 1, 2, 3
NU = 4
# fv columns
ALPHA, BETA, A, BEST, BEST_MOVE, KIND, NEXT, COUNT, PHASE, SQUARE, RAISED, PASSED, DEPTH = (
    range(13))
NV = 13
# KIND
SORTED, PLAIN, PASS = 0, 1, 2
# PHASE
FULL, NULL, RESEARCH = 0, 1, 2
# what entering or receiving did: pushed a child (go down), finished (value up), stopped
PUSHED, DONE, STOP = 0, 1, 2


@njit(cache=True)
def final_score(P: np.uint64, O: np.uint64) -> int:
    """Disc difference at the end of the game; the empty squares go to the winner."""
    p = popcount(P)
    o = popcount(O)
    e = 64 - p - o
    if p > o:
        return p - o + e
    if p < o:
        return p - o - e
    return 0


@njit(cache=True)
def poll(st: np.ndarray, stop: np.ndarray, par: np.ndarray) -> bool:
    """Count a node; every CHECK_MASK + 1 nodes look at the stop flag and the node limit.
    True once the search is stopped."""
    st[NODES] += 1
    if (st[NODES] & CHECK_MASK) == 0:
        if stop[0] != 0 or (par[NODE_LIMIT] > 0 and st[NODES] >= par[NODE_LIMIT]):
            st[STOPPED] = 1
    return st[STOPPED] != 0


@njit(cache=True, inline="always")
def push(fu: np.ndarray, fv: np.ndarray, k: int, P_: np.uint64, O_: np.uint64, alpha: int,
         beta: int, depth: int, passed: int) -> None:
    """Set up frame k + 1: the position, its window, its depth, whether a pass led to it."""
    fu[k + 1, P] = P_
    fu[k + 1, O] = O_
    fv[k + 1, ALPHA] = alpha
    fv[k + 1, BETA] = beta
    fv[k + 1, DEPTH] = depth
    fv[k + 1, PASSED] = passed


@njit(cache=True, inline="always")
def push_pass(fu: np.ndarray, fv: np.ndarray, k: int) -> None:
    """Frame k has no move but the opponent has: its child is the pass (same depth)."""
    fv[k, KIND] = PASS
    push(fu, fv, k, fu[k, O], fu[k, P], -fv[k, BETA], -fv[k, ALPHA], fv[k, DEPTH], 1)


@njit(cache=True, inline="always")
def probe_bounds(keys: np.ndarray, data: np.ndarray, P_: np.uint64, O_: np.uint64, depth: int,
                 alpha: int, beta: int) -> tuple[bool, int, int, int, int]:
    """The table's word on (P, O) at ``depth``: (cut, value, alpha, beta, hash move).

    A stored range outside the window (or a single value) cuts with that bound; else the
    window narrows to the range. The hash move comes from any depth.
    """
    slot = probe(keys, P_, O_)
    if slot < 0:
        return False, 0, alpha, beta, -1
    hash_move = int(data[slot, MOVE])
    if data[slot, TT_DEPTH] == depth:
        lo = int(data[slot, LOWER])
        hi = int(data[slot, UPPER])
        if hi <= alpha:
            return True, hi, alpha, beta, hash_move
        if lo >= beta or lo == hi:
            return True, lo, alpha, beta, hash_move
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    return False, 0, alpha, beta, hash_move


@njit(cache=True, inline="always")
def next_move(fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
              k: int) -> bool:
    """The next move of frame k into fv[k, SQUARE], fu[k, FLIPS]; False when none is left."""
    if fv[k, KIND] == SORTED:
        i = fv[k, NEXT]
        if i >= fv[k, COUNT]:
            return False
        fv[k, SQUARE] = wsq[k, i]
        fu[k, FLIPS] = wfl[k, i]
        fv[k, NEXT] = i + 1
        return True
    rest = fu[k, REST]
    if rest == U0:
        return False
    b = rest & (~rest + U1)
    fu[k, REST] = rest ^ b
    s = square_of(b)
    fv[k, SQUARE] = s
    fu[k, FLIPS] = flips(fu[k, P], fu[k, O], s)
    return True


@njit(cache=True, inline="always")
def advance(fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray, k: int,
            pvs: bool) -> bool:
    """Push frame k's next child, with a null window (PVS, once a move raised alpha in a
    SORTED frame) or the full one; False when frame k has no move left."""
    if not next_move(fu, fv, wsq, wfl, k):
        return False
    f = fu[k, FLIPS]
    Pk = fu[k, P]
    a = fv[k, A]
    if pvs and fv[k, RAISED] and fv[k, KIND] == SORTED:
        fv[k, PHASE] = NULL
        push(fu, fv, k, fu[k, O] ^ f, Pk | f | BIT[fv[k, SQUARE]], -a - 1, -a,
             fv[k, DEPTH] - 1, 0)
    else:
        fv[k, PHASE] = FULL
        push(fu, fv, k, fu[k, O] ^ f, Pk | f | BIT[fv[k, SQUARE]], -fv[k, BETA], -a,
             fv[k, DEPTH] - 1, 0)
    return True


@njit(cache=True, inline="always")
def open_node(fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray, k: int,
              alpha: int, beta: int, inf: int, pvs: bool) -> None:
    """Frame k searches its moves within (alpha, beta): reset it and push its first child
    (KIND and the moves are set by the caller; there is at least one move)."""
    fv[k, ALPHA] = alpha
    fv[k, BETA] = beta
    fv[k, A] = alpha
    fv[k, BEST] = -inf
    fv[k, BEST_MOVE] = -1
    fv[k, RAISED] = 0
    advance(fu, fv, wsq, wfl, k, pvs)


@njit(cache=True, inline="always")
def receive(fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray, k: int,
            v: int, pvs: bool) -> tuple[int, int]:
    """Frame k gets the value ``v`` of its child (from the child's side).

    Returns (PUSHED, 0) when a child was pushed (the PVS re-search after a null-window fail
    high, or the next move), else (DONE, frame k's fail-soft value).
    """
    v = -v
    if fv[k, KIND] == PASS:
        return DONE, v
    beta = fv[k, BETA]
    a = fv[k, A]
    if fv[k, PHASE] == NULL and a < v < beta:
        fv[k, PHASE] = RESEARCH  # the null window failed high: search again, wide
        fv[k + 1, ALPHA] = -beta
        fv[k + 1, BETA] = -v
        return PUSHED, 0
    if v > fv[k, BEST]:
        fv[k, BEST] = v
        fv[k, BEST_MOVE] = fv[k, SQUARE]
        if v >= beta:
            return DONE, v
        if v > a:
            fv[k, A] = v
            fv[k, RAISED] = 1
    if advance(fu, fv, wsq, wfl, k, pvs):
        return PUSHED, 0
    return DONE, fv[k, BEST]


@njit(cache=True, inline="always")
def store_bound(fu: np.ndarray, fv: np.ndarray, k: int, v: int, inf: int, keys: np.ndarray,
                data: np.ndarray) -> None:
    """Record frame k's fail-soft value in the table: a lower bound (fail high), the exact
    value (inside the window) or an upper bound (fail low)."""
    if v >= fv[k, BETA]:
        store(keys, data, fu[k, P], fu[k, O], fv[k, DEPTH], v, inf, fv[k, BEST_MOVE])
    elif v > fv[k, ALPHA]:
        store(keys, data, fu[k, P], fu[k, O], fv[k, DEPTH], v, v, fv[k, BEST_MOVE])
    else:
        store(keys, data, fu[k, P], fu[k, O], fv[k, DEPTH], -inf, v, fv[k, BEST_MOVE])


@njit(cache=True, inline="always")
def walk(P_: np.uint64, O_: np.uint64, depth: int, alpha: int, beta: int, st: np.ndarray,
         stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray, data: np.ndarray,
         enter, inf: int) -> int:
    """Fail-soft negamax of (P, O) within (alpha, beta) over the explicit stack.

    ``enter(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data)`` enters frame k and
    returns (DONE, value), (PUSHED, 0) after :func:`open_node` or :func:`push_pass`, or
    (STOP, 0). Returns 0 with ``st[STOPPED]`` set if the search was stopped.
    """
    fu = np.empty((MAX_PLY, NU), dtype=np.uint64)
    fv = np.empty((MAX_PLY, NV), dtype=np.int64)
    wsq = np.empty((MAX_PLY, 32), dtype=np.int64)
    wfl = np.empty((MAX_PLY, 32), dtype=np.uint64)
    wkey = np.empty((MAX_PLY, 32), dtype=np.int64)
    pvs = par[PVS] != 0
    use_tt = par[USE_TT] != 0
    push(fu, fv, -1, P_, O_, alpha, beta, depth, 0)
    k = 0
    entering = True
    v = 0
    while True:
        if entering:
            code, v = enter(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data)
            if code == STOP:
                return 0
        else:
            if st[STOPPED]:
                return 0
            code, v = receive(fu, fv, wsq, wfl, k, v, pvs)
            if code == DONE and use_tt and fv[k, KIND] == SORTED:
                store_bound(fu, fv, k, v, inf, keys, data)
        if code == PUSHED:
            k += 1
            entering = True
            continue
        entering = False  # frame k returns v
        if k == 0:
            return v
        k -= 1
