"""numba depth-limited search: fail-soft alpha-beta / PVS with the bound-range table.

As Thell's spot: negamax alpha-beta; above ``par[SORT_HEIGHT]`` plies from the horizon,
PVS (null-window search once a move has raised alpha, re-searched with the full window when
it fails high), the transposition table of [lower, upper] ranges and move ordering; at that
height and below, plain alpha-beta in square order with no hashing. Ordering: the hash move,
then the moves whose child is in the table (searched by an earlier iteration: the seed's
"previous iteration" table) by their stored bound, then the rest by static evaluation.

Values are centi-discs for the side to move (:func:`gameopt.reversi._eval.evaluate` at the
horizon, 100 x the final disc difference at the end of the game). A pass does not use a ply
of depth. Table entries cut only at the same depth, so the table never changes a value: the
result equals plain negamax to the same depth.

The tree is walked over an explicit stack (numba cannot cache self-recursive functions,
numba issue #6061); the frame layout is that of :mod:`gameopt.reversi._endgame`, plus the
remaining depth ``fd[k]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._bitboard import U0, U1, flips, get_moves, square_of
from gameopt.reversi._endgame import BIT, final_score
from gameopt.reversi._eval import evaluate
from gameopt.reversi._params import (
    CHECK_MASK,
    EVAL_KIND,
    LEAVES,
    NODE_LIMIT,
    NODES,
    PVS,
    SORT_HEIGHT,
    STOPPED,
    USE_TT,
)
from gameopt.reversi._tt import DEPTH, LOWER, MOVE, UPPER, probe, store

__all__ = ["search", "search_root", "INF"]

INF = 1 << 20
SORTED, PLAIN, PASS = 0, 1, 2
FULL, NULL, RESEARCH = 0, 1, 2
MAX_PLY = 128


@njit(cache=True)
def _order(P: np.uint64, O: np.uint64, moves: np.uint64, hash_move: int, sq: np.ndarray,
           fl: np.ndarray, key: np.ndarray, kind: int, w: np.ndarray, keys: np.ndarray,
           data: np.ndarray) -> int:
    """Moves of P, best first (hash move, children known to the table, static value)."""
    n = 0
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        s = square_of(b)
        f = flips(P, O, s)
        cp = O ^ f
        co = P | f | b
        if s == hash_move:
            k = 1 << 40
        else:
            slot = probe(keys, cp, co)
            if slot >= 0:  # value for the child: lower is better for us
                hi = data[slot, UPPER]
                guess = hi if hi < INF else data[slot, LOWER]
                k = (1 << 30) - guess
            else:
                k = -evaluate(cp, co, kind, w)
        i = n
        while i > 0 and key[i - 1] < k:
            key[i] = key[i - 1]
            sq[i] = sq[i - 1]
            fl[i] = fl[i - 1]
            i -= 1
        key[i] = k
        sq[i] = s
        fl[i] = f
        n += 1
    return n


@njit(cache=True, nogil=True)
def search(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int, st: np.ndarray,
           stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
           data: np.ndarray) -> int:
    """Fail-soft value of (P, O) searched ``depth`` plies within (alpha, beta)."""
    fP = np.empty(MAX_PLY, dtype=np.uint64)
    fO = np.empty(MAX_PLY, dtype=np.uint64)
    fd = np.empty(MAX_PLY, dtype=np.int64)
    fal = np.empty(MAX_PLY, dtype=np.int64)
    fbe = np.empty(MAX_PLY, dtype=np.int64)
    fa = np.empty(MAX_PLY, dtype=np.int64)
    fbest = np.empty(MAX_PLY, dtype=np.int64)
    fbm = np.empty(MAX_PLY, dtype=np.int64)
    fkind = np.empty(MAX_PLY, dtype=np.int64)
    fi = np.empty(MAX_PLY, dtype=np.int64)
    fn = np.empty(MAX_PLY, dtype=np.int64)
    frest = np.empty(MAX_PLY, dtype=np.uint64)
    fphase = np.empty(MAX_PLY, dtype=np.int64)
    fs = np.empty(MAX_PLY, dtype=np.int64)
    ff = np.empty(MAX_PLY, dtype=np.uint64)
    fpv = np.empty(MAX_PLY, dtype=np.int64)
    fpassed = np.empty(MAX_PLY, dtype=np.int64)
    wsq = np.empty((MAX_PLY, 32), dtype=np.int64)
    wfl = np.empty((MAX_PLY, 32), dtype=np.uint64)
    wkey = np.empty((MAX_PLY, 32), dtype=np.int64)
    sort_height = par[SORT_HEIGHT]
    pvs = par[PVS] != 0
    use_tt = par[USE_TT] != 0
    kind = par[EVAL_KIND]

    k = 0
    fP[0] = P
    fO[0] = O
    fd[0] = depth
    fal[0] = alpha
    fbe[0] = beta
    fpassed[0] = 0
    entering = True
    v = 0
    while True:
        if entering:
            entering = False
            P = fP[k]
            O = fO[k]
            d = fd[k]
            alpha = fal[k]
            beta = fbe[k]
            st[NODES] += 1
            if (st[NODES] & CHECK_MASK) == 0:
                if stop[0] != 0 or (par[NODE_LIMIT] > 0 and st[NODES] >= par[NODE_LIMIT]):
                    st[STOPPED] = 1
            if st[STOPPED]:
                return 0
            moves = get_moves(P, O)
            done = False
            if moves == U0:
                if fpassed[k] or get_moves(O, P) == U0:
                    st[LEAVES] += 1
                    v = 100 * final_score(P, O)
                    done = True
                else:
                    fkind[k] = PASS
                    fP[k + 1] = O
                    fO[k + 1] = P
                    fd[k + 1] = d
                    fal[k + 1] = -beta
                    fbe[k + 1] = -alpha
                    fpassed[k + 1] = 1
                    k += 1
                    entering = True
                    continue
            elif d == 0:
                st[LEAVES] += 1
                v = evaluate(P, O, kind, w)
                done = True
            elif d > sort_height:
                hash_move = -1
                if use_tt:
                    slot = probe(keys, P, O)
                    if slot >= 0:
                        hash_move = data[slot, MOVE]
                        if data[slot, DEPTH] == d:
                            lo = data[slot, LOWER]
                            hi = data[slot, UPPER]
                            if hi <= alpha:
                                v = hi
                                done = True
                            elif lo >= beta:
                                v = lo
                                done = True
                            elif lo == hi:
                                v = lo
                                done = True
                            else:
                                alpha = max(alpha, lo)
                                beta = min(beta, hi)
                if not done:
                    fkind[k] = SORTED
                    fn[k] = _order(P, O, moves, hash_move, wsq[k], wfl[k], wkey[k], kind, w,
                                   keys, data)
                    fi[k] = 0
            else:
                fkind[k] = PLAIN
                frest[k] = moves
            if not done:
                fal[k] = alpha
                fbe[k] = beta
                fa[k] = alpha
                fbest[k] = -INF
                fbm[k] = -1
                fpv[k] = 0
                _next(k, P, O, fkind, fi, fn, frest, wsq, wfl, fs, ff)
                fphase[k] = FULL
                _push(k, P, O, fs, ff, fP, fO, fd, fpassed)
                fal[k + 1] = -beta
                fbe[k + 1] = -alpha
                k += 1
                entering = True
                continue
            if k == 0:
                return v
            k -= 1
            continue
        # ---- frame k receives v (from the child's side)
        if st[STOPPED]:
            return 0
        v = -v
        if fkind[k] == PASS:
            if k == 0:
                return v
            k -= 1
            continue
        beta = fbe[k]
        a = fa[k]
        if fphase[k] == NULL and a < v < beta:
            fphase[k] = RESEARCH
            fal[k + 1] = -beta
            fbe[k + 1] = -v
            k += 1
            entering = True
            continue
        finished = False
        if v > fbest[k]:
            fbest[k] = v
            fbm[k] = fs[k]
            if v >= beta:
                finished = True
            elif v > a:
                a = v
                fa[k] = v
                fpv[k] = 1
        if not finished and _next(k, fP[k], fO[k], fkind, fi, fn, frest, wsq, wfl, fs, ff):
            _push(k, fP[k], fO[k], fs, ff, fP, fO, fd, fpassed)
            if pvs and fpv[k] and fkind[k] == SORTED:
                fphase[k] = NULL
                fal[k + 1] = -a - 1
                fbe[k + 1] = -a
            else:
                fphase[k] = FULL
                fal[k + 1] = -beta
                fbe[k + 1] = -a
            k += 1
            entering = True
            continue
        v = fbest[k]
        if fkind[k] == SORTED and use_tt:
            P = fP[k]
            O = fO[k]
            if v >= beta:
                store(keys, data, P, O, fd[k], v, INF, fbm[k])
            elif v > fal[k]:
                store(keys, data, P, O, fd[k], v, v, fbm[k])
            else:
                store(keys, data, P, O, fd[k], -INF, v, fbm[k])
        if k == 0:
            return v
        k -= 1


@njit(cache=True, inline="always")
def _next(k: int, P: np.uint64, O: np.uint64, fkind: np.ndarray, fi: np.ndarray,
          fn: np.ndarray, frest: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
          fs: np.ndarray, ff: np.ndarray) -> bool:
    """The next move of frame k into fs[k], ff[k]; False when none is left."""
    if fkind[k] == SORTED:
        i = fi[k]
        if i >= fn[k]:
            return False
        fs[k] = wsq[k, i]
        ff[k] = wfl[k, i]
        fi[k] = i + 1
        return True
    rest = frest[k]
    if rest == U0:
        return False
    b = rest & (~rest + U1)
    frest[k] = rest ^ b
    s = square_of(b)
    fs[k] = s
    ff[k] = flips(P, O, s)
    return True


@njit(cache=True, inline="always")
def _push(k: int, P: np.uint64, O: np.uint64, fs: np.ndarray, ff: np.ndarray,
          fP: np.ndarray, fO: np.ndarray, fd: np.ndarray, fpassed: np.ndarray) -> None:
    """Set up frame k + 1 as the child of frame k by its current move."""
    f = ff[k]
    fP[k + 1] = O ^ f
    fO[k + 1] = P | f | BIT[fs[k]]
    fd[k + 1] = fd[k] - 1
    fpassed[k + 1] = 0


@njit(cache=True, nogil=True)
def search_root(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int,
                st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
                keys: np.ndarray, data: np.ndarray, order: np.ndarray,
                scores: np.ndarray) -> int:
    """Search the root moves in ``order`` (squares, -1 ends) ``depth`` plies, PVS or not.

    ``scores[i]`` receives each move's value (with PVS a bound for all but the best).
    Returns the best value; 0 with ``st[STOPPED]`` set if the search was stopped.
    """
    best = -INF
    a = alpha
    found_pv = False
    pvs = par[PVS] != 0
    st[NODES] += 1
    for i in range(order.shape[0]):
        s = order[i]
        if s < 0:
            break
        f = flips(P, O, s)
        cp = O ^ f
        co = P | f | BIT[s]
        if pvs and found_pv:
            v = -search(cp, co, depth - 1, -a - 1, -a, st, stop, par, w, keys, data)
            if a < v < beta and not st[STOPPED]:
                v = -search(cp, co, depth - 1, -beta, -v, st, stop, par, w, keys, data)
        else:
            v = -search(cp, co, depth - 1, -beta, -a, st, stop, par, w, keys, data)
        if st[STOPPED]:
            return 0
        scores[i] = v
        if v > best:
            best = v
            if v >= beta:
                break
            if v > a:
                a = v
                found_pv = True
    return best
