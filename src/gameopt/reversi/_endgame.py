"""numba exact endgame solver: the final disc difference with perfect play.

Split by the number of empty squares, as Edax and Thell's spot do:

* 1 to 4 empties (:func:`solve1` .. :func:`solve4`): special code on explicit square lists,
  no move generation, no ordering beyond quadrant parity, no hashing;
* 5 empties up to ``par[END_SORT_HEIGHT]`` (:func:`shallow`): alpha-beta with quadrant parity
  ordering, no hashing, no sorting;
* above that (:func:`deep`): fail-soft alpha-beta or PVS with the bound-range
  transposition table, the stability cutoff and fastest-first ordering (moves that leave the
  opponent fewest replies first, after the hash move).

Scores are disc differences for the side to move (empties to the winner), in -64..64.
Every function counts the positions it visits in ``st[NODES]``. The slow reference these
agree with is :func:`gameopt.reversi.reference.negamax_exact`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._bitboard import (
    CORNERS,
    U0,
    U1,
    around,
    flips,
    get_moves,
    popcount,
    square_of,
    stable_discs,
)
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, evaluate
from gameopt.reversi._params import (
    CHECK_MASK,
    END_EVAL_W,
    END_HEURISTIC1,
    END_SEARCH,
    END_SEARCH3,
    END_SORT_HEIGHT,
    ETC,
    EVAL_KIND,
    NODE_LIMIT,
    NODES,
    PVS,
    STABILITY,
    STOPPED,
    USE_TT,
)
from gameopt.reversi._tt import DEPTH, LOWER, MOVE, UPPER, probe, store

__all__ = ["solve_root", "search", "final_score", "solve4"]

INF = 127
#: 1 << s for every square, and the squares around s (a move on s flips nothing unless one
#: of them holds an opponent disc).
BIT = np.array([1 << s for s in range(64)], dtype=np.uint64)


def _neighbours() -> np.ndarray:
    return np.array([around(np.uint64(1 << s)) for s in range(64)], dtype=np.uint64)


NEIGHBOUR = _neighbours()
#: quadrant of each square (0..3) and the four quadrant masks
QUADRANT = np.array([(s // 32) * 2 + (s % 8) // 4 for s in range(64)], dtype=np.int64)
QUAD_MASK = np.array([sum(1 << s for s in range(64) if (s // 32) * 2 + (s % 8) // 4 == q)
                      for q in range(4)], dtype=np.uint64)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _flip_if(P: np.uint64, O: np.uint64, s: int) -> np.uint64:
    """Flips of P on s, skipping the work when no neighbour of s is an opponent disc."""
    if NEIGHBOUR[s] & O:
        return flips(P, O, s)
    return U0


@njit(cache=True)
def solve1(P: np.uint64, O: np.uint64, s: int, st: np.ndarray) -> int:
    """Exact score with one empty square s (p + o = 63, so the game never ends drawn)."""
    st[NODES] += 1
    base = 2 * popcount(P) - 63  # p - o before the last move
    n = popcount(_flip_if(P, O, s))
    if n:
        return base + 2 * n + 1
    m = popcount(_flip_if(O, P, s))
    if m:
        return base - 2 * m - 1
    return base + 1 if base > 0 else base - 1


@njit(cache=True)
def solve2(P: np.uint64, O: np.uint64, alpha: int, beta: int, s1: int, s2: int,
           st: np.ndarray) -> int:
    """Two empties s1, s2. A pass swaps the sides in a loop (no recursion, see module notes)."""
    sign = 1
    for _ in range(2):
        st[NODES] += 1
        best = -INF
        f = _flip_if(P, O, s1)
        if f:
            best = -solve1(O ^ f, P | f | BIT[s1], s2, st)
            if best >= beta:
                return sign * best
        f = _flip_if(P, O, s2)
        if f:
            v = -solve1(O ^ f, P | f | BIT[s2], s1, st)
            if v > best:
                best = v
        if best > -INF:
            return sign * best
        P, O = O, P  # pass
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O)


@njit(cache=True)
def solve3(P: np.uint64, O: np.uint64, alpha: int, beta: int, s1: int, s2: int, s3: int,
           st: np.ndarray) -> int:
    """Three empties, in the given (parity) order."""
    sign = 1
    for _ in range(2):
        st[NODES] += 1
        best = -INF
        for k in range(3):
            s = s1 if k == 0 else s2 if k == 1 else s3
            f = _flip_if(P, O, s)
            if f:
                a = s2 if k == 0 else s1
                b = s3 if k != 2 else s2
                v = -solve2(O ^ f, P | f | BIT[s], -beta, -max(alpha, best), a, b, st)
                if v > best:
                    best = v
                    if v >= beta:
                        return sign * v
        if best > -INF:
            return sign * best
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O)


@njit(cache=True)
def solve4(P: np.uint64, O: np.uint64, alpha: int, beta: int, s0: int, s1: int, s2: int,
           s3: int, st: np.ndarray) -> int:
    """Four empties s0..s3, already in parity order."""
    sign = 1
    for _ in range(2):
        st[NODES] += 1
        best = -INF
        for k in range(4):
            s = s0 if k == 0 else s1 if k == 1 else s2 if k == 2 else s3
            f = _flip_if(P, O, s)
            if f:
                # the three others, keeping their order
                a = s1 if k == 0 else s0
                b = s2 if k <= 1 else s1
                c = s3 if k <= 2 else s2
                v = -solve3(O ^ f, P | f | BIT[s], -beta, -max(alpha, best), a, b, c, st)
                if v > best:
                    best = v
                    if v >= beta:
                        return sign * v
        if best > -INF:
            return sign * best
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O)


@njit(cache=True, inline="always")
def _odd_quadrants(empty: np.uint64) -> np.uint64:
    """The union of the quadrants holding an odd number of empty squares."""
    odd = U0
    for q in range(4):
        if popcount(empty & QUAD_MASK[q]) & 1:
            odd |= QUAD_MASK[q]
    return odd


@njit(cache=True)
def _small(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    """1..4 empties: list the squares, odd quadrants first, and call the special solver."""
    empty = ~(P | O)
    odd = _odd_quadrants(empty)
    s0 = s1 = s2 = s3 = -1
    n = 0
    for part in range(2):
        rest = empty & odd if part == 0 else empty & ~odd
        while rest:
            b = rest & (~rest + U1)
            rest ^= b
            s = square_of(b)
            if n == 0:
                s0 = s
            elif n == 1:
                s1 = s
            elif n == 2:
                s2 = s
            else:
                s3 = s
            n += 1
    if n == 4:
        return solve4(P, O, alpha, beta, s0, s1, s2, s3, st)
    if n == 3:
        return solve3(P, O, alpha, beta, s0, s1, s2, st)
    if n == 2:
        return solve2(P, O, alpha, beta, s0, s1, st)
    if n == 1:
        return solve1(P, O, s0, st)
    st[NODES] += 1
    return final_score(P, O)


@njit(cache=True, inline="always")
def _shallow_node(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray,
                  child) -> int:
    """Alpha-beta with quadrant-parity order; ``child`` searches the next level down.

    Inlined into :func:`shallow5` .. :func:`shallow8` (one function per number of empties,
    so there is no recursion; see the notes above :func:`search`). A pass swaps the sides
    in a loop.
    """
    sign = 1
    for _ in range(2):
        st[NODES] += 1
        moves = get_moves(P, O)
        if moves:
            odd = _odd_quadrants(~(P | O))
            best = -INF
            for part in range(2):
                rest = moves & odd if part == 0 else moves & ~odd
                while rest:
                    b = rest & (~rest + U1)
                    rest ^= b
                    f = flips(P, O, square_of(b))
                    v = -child(O ^ f, P | f | b, -beta, -max(alpha, best), st)
                    if v > best:
                        best = v
                        if v >= beta:
                            return sign * v
            return sign * best
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    st[NODES] -= 1  # the second side to move was not a position of the game
    return sign * final_score(P, O)


@njit(cache=True)
def shallow5(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    return _shallow_node(P, O, alpha, beta, st, _small)


@njit(cache=True)
def shallow6(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    return _shallow_node(P, O, alpha, beta, st, shallow5)


@njit(cache=True)
def shallow7(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    return _shallow_node(P, O, alpha, beta, st, shallow6)


@njit(cache=True)
def shallow8(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    return _shallow_node(P, O, alpha, beta, st, shallow7)


@njit(cache=True)
def shallow(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray) -> int:
    """Exact value of a position with at most 8 empties (no hashing, parity order)."""
    n = popcount(~(P | O))
    if n <= 4:
        return _small(P, O, alpha, beta, st)
    if n == 5:
        return shallow5(P, O, alpha, beta, st)
    if n == 6:
        return shallow6(P, O, alpha, beta, st)
    if n == 7:
        return shallow7(P, O, alpha, beta, st)
    return shallow8(P, O, alpha, beta, st)


@njit(cache=True, inline="always")
def _mobility_weighted(P: np.uint64, O: np.uint64) -> int:
    """Mobility of P with corners counted twice (fastest-first ordering key)."""
    m = get_moves(P, O)
    return popcount(m) + popcount(m & CORNERS)


@njit(cache=True, inline="always")
def _minimax_ply(P: np.uint64, O: np.uint64, kind: int, w: np.ndarray, child) -> int:
    """One ply of plain minimax by the evaluation, in centi-discs for P; ``child`` values
    the positions one ply down (the evaluation itself at the last ply). Inlined into
    :func:`_reply_value` .. :func:`_reply_value3` (no recursion, see the notes above
    :func:`search`)."""
    moves = get_moves(P, O)
    if moves == U0:
        if get_moves(O, P) == U0:
            return 100 * final_score(P, O)
        return -child(O, P, kind, w)
    best = -(1 << 30)
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        f = flips(P, O, square_of(b))
        v = -child(O ^ f, P | f | b, kind, w)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _reply_value(P: np.uint64, O: np.uint64, kind: int, w: np.ndarray) -> int:
    """A 1-ply search of (P, O) by the evaluation: P's best reply, in centi-discs for P."""
    return _minimax_ply(P, O, kind, w, evaluate)


@njit(cache=True)
def _reply_value2(P: np.uint64, O: np.uint64, kind: int, w: np.ndarray) -> int:
    """A 2-ply search of (P, O) by the evaluation, in centi-discs for P."""
    return _minimax_ply(P, O, kind, w, _reply_value)


@njit(cache=True)
def _reply_value3(P: np.uint64, O: np.uint64, kind: int, w: np.ndarray) -> int:
    """A 3-ply search of (P, O) by the evaluation, in centi-discs for P."""
    return _minimax_ply(P, O, kind, w, _reply_value2)


@njit(cache=True)
def _order(P: np.uint64, O: np.uint64, moves: np.uint64, hash_move: int,
           sq: np.ndarray, fl: np.ndarray, keys: np.ndarray, empties: int,
           par: np.ndarray, w: np.ndarray) -> int:
    """Fill sq/fl with the moves and their flips, best first; returns their number.

    Key (smaller first): the hash move; then the opponent's weighted mobility after the
    move (fastest first), its potential mobility as a tie-break, corners preferred; from
    ``par[END_SEARCH]`` empties plus the value of the child for the opponent by a 1-ply
    search with the evaluation (from ``par[END_SEARCH3]`` empties a 3-ply one), weighted
    ``par[END_EVAL_W] / 256`` per centi-disc (one more opponent move weighs 16).
    """
    by_search3 = par[END_SEARCH3] > 0 and empties >= par[END_SEARCH3]
    by_search = by_search3 or (par[END_SEARCH] > 0 and empties >= par[END_SEARCH])
    kind = par[EVAL_KIND]
    cheap = par[END_HEURISTIC1] != 0
    ew = par[END_EVAL_W]
    n = 0
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        s = square_of(b)
        f = flips(P, O, s)
        np_ = O ^ f
        no = P | f | b
        if s == hash_move:
            key = -(1 << 40)
        else:
            key = (_mobility_weighted(np_, no) << 4) + popcount(around(no) & ~(np_ | no))
            if b & CORNERS:
                key -= 24
            if by_search3:
                key += (_reply_value3(np_, no, kind, w) * ew) >> 8
            elif by_search:
                if cheap:
                    key += (_reply_value(np_, no, HEURISTIC, HEURISTIC_WEIGHTS) * 64) >> 8
                else:
                    key += (_reply_value(np_, no, kind, w) * ew) >> 8
        # insertion sort by key
        i = n
        while i > 0 and keys[i - 1] > key:
            keys[i] = keys[i - 1]
            sq[i] = sq[i - 1]
            fl[i] = fl[i - 1]
            i -= 1
        keys[i] = key
        sq[i] = s
        fl[i] = f
        n += 1
    return n


@njit(cache=True)
def _etc(P: np.uint64, O: np.uint64, moves: np.uint64, beta: int, empties: int,
         keys: np.ndarray, data: np.ndarray) -> int:
    """Enhanced transposition cutoff: a value >= beta proved by a child's stored upper
    bound (the child, after any move, has ``empties - 1`` empties), else -INF."""
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        f = flips(P, O, square_of(b))
        slot = probe(keys, O ^ f, P | f | b)
        if slot >= 0 and data[slot, DEPTH] == empties - 1:
            v = -data[slot, UPPER]
            if v >= beta:
                return v
    return -INF


# ---------------------------------------------------------------------------------------
# The search above 4 empties, written as a loop over an explicit stack.
#
# numba cannot load a self-recursive function from its cache (numba issue #6061: the cached
# object code keeps an unresolved pointer and segfaults), and compiling this module afresh
# takes ~15 s, so the recursion is unrolled by hand. Frame ``k`` of the stack holds one
# node; its invariants:
#   fP[k], fO[k]      the position (side to move first);
#   fal[k], fbe[k]    the window after narrowing by the transposition table (alpha, beta);
#   fa[k]             the running alpha (max of fal[k] and the best value so far);
#   fbest[k], fbm[k]  the best value and move so far (-INF, -1 before any child returns);
#   fkind[k]          DEEP (hash, ordering, PVS), SHALLOW (parity order) or PASS;
#   fi[k], fn[k]      next index into the ordered moves wsq[k], wfl[k] and their number
#                     (DEEP); frest[k, 0..1] the moves left in odd / even quadrants (SHALLOW);
#   fphase[k]         how the child being searched was called: FULL window, NULL window
#                     or RESEARCH after a null-window fail high;
#   fs[k], ff[k]      that child's move and flips; fpv[k] 1 once a move raised alpha.
# Frame k + 1 is the child of frame k; a value returned to frame k is from the child's side.
# ---------------------------------------------------------------------------------------
DEEP, SHALLOW, PASS = 0, 1, 2
FULL, NULL, RESEARCH = 0, 1, 2
MAX_PLY = 96


@njit(cache=True)
def _next_child(k: int, fP: np.ndarray, fO: np.ndarray, fkind: np.ndarray, fi: np.ndarray,
                fn: np.ndarray, frest: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
                fs: np.ndarray, ff: np.ndarray) -> bool:
    """Pick the next move of frame k into fs[k], ff[k]; False when none is left."""
    if fkind[k] == DEEP:
        i = fi[k]
        if i >= fn[k]:
            return False
        fs[k] = wsq[k, i]
        ff[k] = wfl[k, i]
        fi[k] = i + 1
        return True
    for part in range(2):
        rest = frest[k, part]
        if rest:
            b = rest & (~rest + U1)
            frest[k, part] = rest ^ b
            s = square_of(b)
            fs[k] = s
            ff[k] = flips(fP[k], fO[k], s)
            return True
    return False


@njit(cache=True, nogil=True)
def search(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray,
           stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
           data: np.ndarray) -> int:
    """Exact fail-soft value of (P, O) within (alpha, beta); 0 and st[STOPPED] if stopped.

    Above ``par[END_SORT_HEIGHT]`` empties: transposition table (``par[USE_TT]``), stability
    cutoff (``par[STABILITY]``), fastest-first order after the hash move, PVS (``par[PVS]``;
    else plain alpha-beta). At that height and below down to 5 empties: alpha-beta with
    quadrant-parity order. 4 empties and fewer: :func:`solve4` and below.
    """
    if popcount(~(P | O)) <= par[END_SORT_HEIGHT]:
        return shallow(P, O, alpha, beta, st)
    fP = np.empty(MAX_PLY, dtype=np.uint64)
    fO = np.empty(MAX_PLY, dtype=np.uint64)
    fal = np.empty(MAX_PLY, dtype=np.int64)
    fbe = np.empty(MAX_PLY, dtype=np.int64)
    fa = np.empty(MAX_PLY, dtype=np.int64)
    fbest = np.empty(MAX_PLY, dtype=np.int64)
    fbm = np.empty(MAX_PLY, dtype=np.int64)
    fkind = np.empty(MAX_PLY, dtype=np.int64)
    fi = np.empty(MAX_PLY, dtype=np.int64)
    fn = np.empty(MAX_PLY, dtype=np.int64)
    frest = np.empty((MAX_PLY, 2), dtype=np.uint64)
    fphase = np.empty(MAX_PLY, dtype=np.int64)
    fs = np.empty(MAX_PLY, dtype=np.int64)
    ff = np.empty(MAX_PLY, dtype=np.uint64)
    fpv = np.empty(MAX_PLY, dtype=np.int64)
    fpassed = np.empty(MAX_PLY, dtype=np.int64)
    wsq = np.empty((MAX_PLY, 32), dtype=np.int64)
    wfl = np.empty((MAX_PLY, 32), dtype=np.uint64)
    wkey = np.empty((MAX_PLY, 32), dtype=np.int64)
    sort_height = par[END_SORT_HEIGHT]
    pvs = par[PVS] != 0
    use_tt = par[USE_TT] != 0
    stability = par[STABILITY] != 0
    etc_from = par[ETC]

    k = 0
    fP[0] = P
    fO[0] = O
    fal[0] = alpha
    fbe[0] = beta
    fpassed[0] = 0
    entering = True
    v = 0
    while True:
        if entering:
            # ---- enter frame k: return at once (v, entering=False) or push its first child
            P = fP[k]
            O = fO[k]
            alpha = fal[k]
            beta = fbe[k]
            n = popcount(~(P | O))
            entering = False
            if n <= sort_height:
                v = shallow(P, O, alpha, beta, st)
            else:
                st[NODES] += 1
                if n > sort_height and (st[NODES] & CHECK_MASK) == 0:
                    if stop[0] != 0 or (par[NODE_LIMIT] > 0 and st[NODES] >= par[NODE_LIMIT]):
                        st[STOPPED] = 1
                if st[STOPPED]:
                    return 0
                moves = get_moves(P, O)
                done = False
                if moves == U0:
                    if fpassed[k] or get_moves(O, P) == U0:
                        v = final_score(P, O)
                        done = True
                    else:  # pass: the child is the same discs, other side to move
                        fkind[k] = PASS
                        fP[k + 1] = O
                        fO[k + 1] = P
                        fal[k + 1] = -beta
                        fbe[k + 1] = -alpha
                        fpassed[k + 1] = 1
                        k += 1
                        entering = True
                        continue
                elif n > sort_height:
                    # stability cutoff: P scores at most 64 - 2 * (O's stable discs)
                    if stability and alpha >= 64 - 2 * popcount(O):
                        top = 64 - 2 * popcount(stable_discs(O, P))
                        if top <= alpha:
                            v = top
                            done = True
                        elif top < beta:
                            beta = top
                    hash_move = -1
                    if use_tt and not done:
                        slot = probe(keys, P, O)
                        if slot >= 0:
                            hash_move = data[slot, MOVE]
                            if data[slot, DEPTH] == n:
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
                    if use_tt and not done and etc_from > 0 and n >= etc_from:
                        v = _etc(P, O, moves, beta, n, keys, data)
                        done = v > -INF
                    if not done:
                        fkind[k] = DEEP
                        fn[k] = _order(P, O, moves, hash_move, wsq[k], wfl[k], wkey[k], n,
                                       par, w)
                        fi[k] = 0
                else:
                    fkind[k] = SHALLOW
                    odd = _odd_quadrants(~(P | O))
                    frest[k, 0] = moves & odd
                    frest[k, 1] = moves & ~odd
                if not done:
                    fal[k] = alpha
                    fbe[k] = beta
                    fa[k] = alpha
                    fbest[k] = -INF
                    fbm[k] = -1
                    fpv[k] = 0
                    _next_child(k, fP, fO, fkind, fi, fn, frest, wsq, wfl, fs, ff)
                    fphase[k] = FULL
                    f = ff[k]
                    fP[k + 1] = O ^ f
                    fO[k + 1] = P | f | BIT[fs[k]]
                    fal[k + 1] = -beta
                    fbe[k + 1] = -alpha
                    fpassed[k + 1] = 0
                    k += 1
                    entering = True
                    continue
            # frame k returns v
            if k == 0:
                return v
            k -= 1
            continue
        # ---- frame k receives v from its child (from the child's side)
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
            fphase[k] = RESEARCH  # the null window failed high: search again, wide
            fal[k + 1] = -beta
            fbe[k + 1] = -v
            fpassed[k + 1] = 0
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
        if not finished and _next_child(k, fP, fO, fkind, fi, fn, frest, wsq, wfl, fs, ff):
            P = fP[k]
            f = ff[k]
            fP[k + 1] = fO[k] ^ f
            fO[k + 1] = P | f | BIT[fs[k]]
            fpassed[k + 1] = 0
            if pvs and fpv[k] and fkind[k] == DEEP:
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
        # frame k is done
        v = fbest[k]
        if fkind[k] == DEEP and use_tt:
            P = fP[k]
            O = fO[k]
            n = popcount(~(P | O))
            if v >= beta:
                store(keys, data, P, O, n, v, INF, fbm[k])
            elif v > fal[k]:
                store(keys, data, P, O, n, v, v, fbm[k])
            else:
                store(keys, data, P, O, n, -INF, v, fbm[k])
        if k == 0:
            return v
        k -= 1


@njit(cache=True, nogil=True)
def solve_root(P: np.uint64, O: np.uint64, alpha: int, beta: int, st: np.ndarray,
               stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
               data: np.ndarray,
               order: np.ndarray, scores: np.ndarray) -> int:
    """Search the root moves in the given ``order`` (squares, -1 ends the list).

    ``scores[i]`` receives each move's fail-soft value (with PVS, a bound for all but the
    best). Returns the best score; 0 with ``st[STOPPED]`` set if the search was stopped.
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
        np_ = O ^ f
        no = P | f | BIT[s]
        if pvs and found_pv:
            v = -search(np_, no, -a - 1, -a, st, stop, par, w, keys, data)
            if a < v < beta and not st[STOPPED]:
                v = -search(np_, no, -beta, -v, st, stop, par, w, keys, data)
        else:
            v = -search(np_, no, -beta, -a, st, stop, par, w, keys, data)
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
