"""numba exact endgame solver: the final disc difference with perfect play.

Split by the number of empty squares, as Edax and Thell's spot do:

* 1 to 4 empties (:func:`solve1` .. :func:`solve4`): special code on explicit square lists,
  no move generation, no ordering beyond quadrant parity, no hashing;
* 5 empties up to ``par[END_SORT_HEIGHT]`` (:func:`shallow`, at most 10): alpha-beta with
  no hashing; up to 7 empties quadrant parity ordering, no sorting; from 8 empties the moves
  sorted fastest first (parity breaking ties), which costs less than a frame of the hashed
  search and prunes better than parity;
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

from gameopt.reversi import _midgame
from gameopt.reversi import _stack as sk
from gameopt.reversi._bitboard import (
    CORNERS,
    U0,
    U1,
    around,
    count_last_flip,
    flips,
    get_moves,
    popcount,
    square_of,
    stable_discs,
)
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, evaluate
from gameopt.reversi._params import (
    END_DEPTH_OFF,
    END_EVAL_W,
    END_HEURISTIC1,
    END_SEARCH,
    END_SEARCH3,
    END_SEL_B0,
    END_SEL_B1,
    END_SEL_D4,
    END_SEL_MIN,
    END_SEL_S0,
    END_SEL_S0_4,
    END_SEL_S1,
    END_SEL_S1_4,
    END_SEL_T,
    END_SORT_HEIGHT,
    ETC,
    EVAL_KIND,
    NODES,
    PVS,
    STABILITY,
    STOPPED,
    USE_TT,
)
from gameopt.reversi._stack import BIT, final_score
from gameopt.reversi._tt import DEPTH, UPPER, probe

__all__ = ["search", "final_score", "solve4"]

INF = 127
#: the window of the order searches (centi-discs; beyond any evaluation)
SEARCH_INF = 1 << 30
#: the squares around s (a move on s flips nothing unless one of them holds an opponent disc)


def _neighbours() -> np.ndarray:
    return np.array([around(np.uint64(1 << s)) for s in range(64)], dtype=np.uint64)


NEIGHBOUR = _neighbours()
#: quadrant of each square (0..3) and the four quadrant masks
QUADRANT = np.array([(s // 32) * 2 + (s % 8) // 4 for s in range(64)], dtype=np.int64)
QUAD_MASK = np.array([sum(1 << s for s in range(64) if (s // 32) * 2 + (s % 8) // 4 == q)
                      for q in range(4)], dtype=np.uint64)


@njit(cache=True)
def _flip_if(P: np.uint64, O: np.uint64, s: int) -> np.uint64:
    """Flips of P on s, skipping the work when no neighbour of s is an opponent disc."""
    if NEIGHBOUR[s] & O:
        return flips(P, O, s)
    return U0


@njit(cache=True)
def solve1(P: np.uint64, O: np.uint64, s: int) -> int:
    """Exact score with one empty square s (p + o = 63, so the game never ends drawn).

    One node; the callers count it (the leaf solvers take no array: passing one costs a
    reference-count update per call)."""
    base = 2 * popcount(P) - 63  # p - o before the last move
    n = count_last_flip(P, O, s)
    if n:
        return base + 2 * n + 1
    m = count_last_flip(O, P, s)
    if m:
        return base - 2 * m - 1
    return base + 1 if base > 0 else base - 1


@njit(cache=True)
def solve2(P: np.uint64, O: np.uint64, alpha: int, beta: int, s1: int,
           s2: int) -> tuple[int, int]:
    """Two empties s1, s2: (score, nodes). A pass swaps the sides in a loop (no recursion,
    see module notes)."""
    sign = 1
    nodes = 0
    for _ in range(2):
        nodes += 1
        best = -INF
        f = _flip_if(P, O, s1)
        if f:
            nodes += 1
            best = -solve1(O ^ f, P | f | BIT[s1], s2)
            if best >= beta:
                return sign * best, nodes
        f = _flip_if(P, O, s2)
        if f:
            nodes += 1
            v = -solve1(O ^ f, P | f | BIT[s2], s1)
            if v > best:
                best = v
        if best > -INF:
            return sign * best, nodes
        P, O = O, P  # pass
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O), nodes


@njit(cache=True)
def solve3(P: np.uint64, O: np.uint64, alpha: int, beta: int, s1: int, s2: int,
           s3: int) -> tuple[int, int]:
    """Three empties, in the given (parity) order: (score, nodes)."""
    sign = 1
    nodes = 0
    for _ in range(2):
        nodes += 1
        best = -INF
        for k in range(3):
            s = s1 if k == 0 else s2 if k == 1 else s3
            f = _flip_if(P, O, s)
            if f:
                a = s2 if k == 0 else s1
                b = s3 if k != 2 else s2
                v, n = solve2(O ^ f, P | f | BIT[s], -beta, -max(alpha, best), a, b)
                nodes += n
                v = -v
                if v > best:
                    best = v
                    if v >= beta:
                        return sign * v, nodes
        if best > -INF:
            return sign * best, nodes
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O), nodes


@njit(cache=True)
def solve4(P: np.uint64, O: np.uint64, alpha: int, beta: int, s0: int, s1: int, s2: int,
           s3: int) -> tuple[int, int]:
    """Four empties s0..s3, already in parity order: (score, nodes)."""
    sign = 1
    nodes = 0
    for _ in range(2):
        nodes += 1
        best = -INF
        for k in range(4):
            s = s0 if k == 0 else s1 if k == 1 else s2 if k == 2 else s3
            f = _flip_if(P, O, s)
            if f:
                # the three others, keeping their order
                a = s1 if k == 0 else s0
                b = s2 if k <= 1 else s1
                c = s3 if k <= 2 else s2
                v, n = solve3(O ^ f, P | f | BIT[s], -beta, -max(alpha, best), a, b, c)
                nodes += n
                v = -v
                if v > best:
                    best = v
                    if v >= beta:
                        return sign * v, nodes
        if best > -INF:
            return sign * best, nodes
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O), nodes


@njit(cache=True)
def _odd_quadrants(empty: np.uint64) -> np.uint64:
    """The union of the quadrants holding an odd number of empty squares."""
    odd = U0
    for q in range(4):
        if popcount(empty & QUAD_MASK[q]) & 1:
            odd |= QUAD_MASK[q]
    return odd


@njit(cache=True)
def _small(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """1..4 empties: list the squares, odd quadrants first, and call the special solver;
    (score, nodes)."""
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
        return solve4(P, O, alpha, beta, s0, s1, s2, s3)
    if n == 3:
        return solve3(P, O, alpha, beta, s0, s1, s2)
    if n == 2:
        return solve2(P, O, alpha, beta, s0, s1)
    if n == 1:
        return solve1(P, O, s0), 1
    return final_score(P, O), 1


@njit(cache=True, inline="always")
def _shallow_node(P: np.uint64, O: np.uint64, alpha: int, beta: int,
                  child) -> tuple[int, int]:
    """Alpha-beta with quadrant-parity order; ``child`` searches the next level down;
    (score, nodes).

    Inlined into :func:`shallow5` .. :func:`shallow8` (one function per number of empties,
    so there is no recursion; see :mod:`gameopt.reversi._stack`). A pass swaps the sides
    in a loop.
    """
    sign = 1
    nodes = 0
    for _ in range(2):
        nodes += 1
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
                    v, n = child(O ^ f, P | f | b, -beta, -max(alpha, best))
                    nodes += n
                    v = -v
                    if v > best:
                        best = v
                        if v >= beta:
                            return sign * v, nodes
            return sign * best, nodes
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    # the second side to move was not a position of the game
    return sign * final_score(P, O), nodes - 1


@njit(cache=True)
def shallow5(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _shallow_node(P, O, alpha, beta, _small)


@njit(cache=True)
def shallow6(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _shallow_node(P, O, alpha, beta, shallow5)


@njit(cache=True)
def shallow7(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _shallow_node(P, O, alpha, beta, shallow6)


@njit(cache=True, inline="always")
def _sorted_node(P: np.uint64, O: np.uint64, alpha: int, beta: int,
                 child) -> tuple[int, int]:
    """As :func:`_shallow_node`, the moves in fastest-first order: fewest opponent replies
    after the move first (corners counted twice), a move into an odd quadrant first among
    equals, then square order; (score, nodes)."""
    sign = 1
    nodes = 0
    for _ in range(2):
        nodes += 1
        moves = get_moves(P, O)
        if moves:
            odd = _odd_quadrants(~(P | O))
            buf = np.empty(3 * 16, dtype=np.int64)  # squares, flips, keys
            n = 0
            while moves:
                b = moves & (~moves + U1)
                moves ^= b
                s = square_of(b)
                f = flips(P, O, s)
                key = 2 * _mobility_weighted(O ^ f, P | f | b) + (0 if b & odd else 1)
                i = n
                while i > 0 and buf[32 + i - 1] > key:
                    buf[i] = buf[i - 1]
                    buf[16 + i] = buf[16 + i - 1]
                    buf[32 + i] = buf[32 + i - 1]
                    i -= 1
                buf[i] = s
                buf[16 + i] = np.int64(f)
                buf[32 + i] = key
                n += 1
            best = -INF
            for j in range(n):
                s = buf[j]
                f = np.uint64(buf[16 + j])
                v, m = child(O ^ f, P | f | BIT[s], -beta, -max(alpha, best))
                nodes += m
                v = -v
                if v > best:
                    best = v
                    if v >= beta:
                        return sign * v, nodes
            return sign * best, nodes
        P, O = O, P
        alpha, beta = -beta, -alpha
        sign = -sign
    return sign * final_score(P, O), nodes - 1


@njit(cache=True)
def shallow8(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _sorted_node(P, O, alpha, beta, shallow7)


@njit(cache=True)
def shallow9(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _sorted_node(P, O, alpha, beta, shallow8)


@njit(cache=True)
def shallow10(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    return _sorted_node(P, O, alpha, beta, shallow9)


@njit(cache=True)
def shallow(P: np.uint64, O: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """Exact value of a position with at most 10 empties (no hashing; parity order up to 7
    empties, fastest first from 8): (score, nodes)."""
    n = popcount(~(P | O))
    if n <= 4:
        return _small(P, O, alpha, beta)
    if n == 5:
        return shallow5(P, O, alpha, beta)
    if n == 6:
        return shallow6(P, O, alpha, beta)
    if n == 7:
        return shallow7(P, O, alpha, beta)
    if n == 8:
        return shallow8(P, O, alpha, beta)
    if n == 9:
        return shallow9(P, O, alpha, beta)
    return shallow10(P, O, alpha, beta)


@njit(cache=True)
def _mobility_weighted(P: np.uint64, O: np.uint64) -> int:
    """Mobility of P with corners counted twice (fastest-first ordering key)."""
    m = get_moves(P, O)
    return popcount(m) + popcount(m & CORNERS)


@njit(cache=True, inline="always")
def _minimax_ply(P: np.uint64, O: np.uint64, kind: int, w: np.ndarray, child) -> int:
    """One ply of plain minimax by the evaluation, in centi-discs for P; ``child`` values
    the positions one ply down (the evaluation itself at the last ply). Inlined into
    :func:`_reply_value` .. :func:`_reply_value3` (no recursion, see
    :mod:`gameopt.reversi._stack`)."""
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
    """A 3-ply search of (P, O) by the evaluation, in centi-discs for P (plain minimax: the
    reference of :func:`_ab_value3`)."""
    return _minimax_ply(P, O, kind, w, _reply_value2)


@njit(cache=True, inline="always")
def _alphabeta_ply(P: np.uint64, O: np.uint64, alpha: int, beta: int, kind: int,
                   w: np.ndarray, child) -> int:
    """:func:`_minimax_ply` with alpha-beta pruning (Knuth and Moore, "An analysis of
    alpha-beta pruning"): fail-soft within (alpha, beta), so the value is the plain
    minimax value whenever it lies inside the window. ``child(P, O, alpha, beta, kind, w)``
    searches one ply down. Inlined into :func:`_ab_value1` .. :func:`_ab_value3`."""
    moves = get_moves(P, O)
    if moves == U0:
        if get_moves(O, P) == U0:
            return 100 * final_score(P, O)
        return -child(O, P, -beta, -alpha, kind, w)
    best = -(1 << 30)
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        f = flips(P, O, square_of(b))
        v = -child(O ^ f, P | f | b, -beta, -max(alpha, best), kind, w)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


@njit(cache=True, inline="always")
def _leaf_value(P: np.uint64, O: np.uint64, alpha: int, beta: int, kind: int,
                w: np.ndarray) -> int:
    """The evaluation, with the window arguments of :func:`_alphabeta_ply` (unused)."""
    return evaluate(P, O, kind, w)


@njit(cache=True)
def _ab_value1(P: np.uint64, O: np.uint64, alpha: int, beta: int, kind: int,
               w: np.ndarray) -> int:
    return _alphabeta_ply(P, O, alpha, beta, kind, w, _leaf_value)


@njit(cache=True)
def _ab_value2(P: np.uint64, O: np.uint64, alpha: int, beta: int, kind: int,
               w: np.ndarray) -> int:
    return _alphabeta_ply(P, O, alpha, beta, kind, w, _ab_value1)


@njit(cache=True)
def _ab_value3(P: np.uint64, O: np.uint64, alpha: int, beta: int, kind: int,
               w: np.ndarray) -> int:
    """:func:`_reply_value3` by alpha-beta: the same value from the full window, with far
    fewer evaluations (the order key of the exact solver from ``par[END_SEARCH3]``)."""
    return _alphabeta_ply(P, O, alpha, beta, kind, w, _ab_value2)


@njit(cache=True)
def _list_moves(P: np.uint64, O: np.uint64, moves: np.uint64, sq: np.ndarray, fl: np.ndarray,
                k: int) -> int:
    """Row k of sq/fl: the moves in square order and their flips; returns their number."""
    n = 0
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        s = square_of(b)
        sq[k, n] = s
        fl[k, n] = flips(P, O, s)
        n += 1
    return n


@njit(cache=True)
def _order(P: np.uint64, O: np.uint64, n: int, hash_move: int, sq: np.ndarray,
           fl: np.ndarray, keys: np.ndarray, k: int, empties: int, par: np.ndarray,
           w: np.ndarray) -> None:
    """Sort row k of sq/fl (n moves and their flips, see :func:`_list_moves`) best first.

    Key (smaller first): the hash move; then the opponent's weighted mobility after the
    move (fastest first), its potential mobility as a tie-break, corners preferred; from
    ``par[END_SEARCH]`` empties plus the value of the child for the opponent by a 1-ply
    search with the evaluation (from ``par[END_SEARCH3]`` empties a 3-ply one), weighted
    ``par[END_EVAL_W] / 256`` per centi-disc (one more opponent move weighs 16). Equal
    keys keep square order (a stable insertion sort).
    """
    by_search3 = par[END_SEARCH3] > 0 and empties >= par[END_SEARCH3]
    by_search = by_search3 or (par[END_SEARCH] > 0 and empties >= par[END_SEARCH])
    kind = par[EVAL_KIND]
    cheap = par[END_HEURISTIC1] != 0
    ew = par[END_EVAL_W]
    for j in range(n):
        s = sq[k, j]
        f = fl[k, j]
        b = BIT[s]
        np_ = O ^ f
        no = P | f | b
        if s == hash_move:
            key = -(1 << 40)
        else:
            key = (_mobility_weighted(np_, no) << 4) + popcount(around(no) & ~(np_ | no))
            if b & CORNERS:
                key -= 24
            if by_search3:
                key += (_ab_value3(np_, no, -SEARCH_INF, SEARCH_INF, kind, w) * ew) >> 8
            elif by_search:
                if cheap:
                    key += (_reply_value(np_, no, HEURISTIC, HEURISTIC_WEIGHTS) * 64) >> 8
                else:
                    key += (_reply_value(np_, no, kind, w) * ew) >> 8
        # insertion sort by key
        i = j
        while i > 0 and keys[k, i - 1] > key:
            keys[k, i] = keys[k, i - 1]
            sq[k, i] = sq[k, i - 1]
            fl[k, i] = fl[k, i - 1]
            i -= 1
        keys[k, i] = key
        sq[k, i] = s
        fl[k, i] = f


@njit(cache=True)
def _etc(P: np.uint64, O: np.uint64, n: int, sq: np.ndarray, fl: np.ndarray, k: int,
         beta: int, depth: int, keys: np.ndarray, data: np.ndarray) -> int:
    """Enhanced transposition cutoff over row k of sq/fl: a value >= beta proved by a
    child's stored upper bound (the child, after any move, has table depth ``depth - 1``),
    else -INF."""
    for j in range(n):
        f = fl[k, j]
        slot = probe(keys, O ^ f, P | f | BIT[sq[k, j]])
        if slot >= 0 and data[slot, DEPTH] == depth - 1:
            v = -data[slot, UPPER]
            if v >= beta:
                return v
    return -INF


@njit(cache=True, inline="always")
def _probcut(P: np.uint64, O: np.uint64, n: int, alpha: int, beta: int, st: np.ndarray,
             stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
             data: np.ndarray) -> tuple[bool, int]:
    """ProbCut of a selective pass (Buro) at a node with ``n`` empties: (cut, value).

    The exact score is taken as the shallow midgame value (2 plies, 4 from
    ``par[END_SEL_D4]`` empties) plus a bias (``par[END_SEL_B0]``, ``par[END_SEL_B1]``
    with an odd ``n``) plus a normal error of deviation ``S0 + S1 n`` centi-discs (per
    shallow depth); the node fails high with ``beta`` when one null-window search proves
    the prediction at least ``t`` deviations above beta, low with ``alpha`` when at least
    ``t`` below alpha (``t = par[END_SEL_T] / 100``). Only a selective pass calls it: its
    bounds go to the table at a depth of their own (``par[END_DEPTH_OFF]``), never read
    by the exact pass.
    """
    if n >= par[END_SEL_D4]:
        ds = 4
        sg = par[END_SEL_S0_4] + par[END_SEL_S1_4] * n
    else:
        ds = 2
        sg = par[END_SEL_S0] + par[END_SEL_S1] * n
    sg = (sg * par[END_SEL_T]) // 100
    bias = par[END_SEL_B1] if n & 1 else par[END_SEL_B0]
    if beta < 64:
        bound = 100 * beta + sg - bias
        if _midgame.search(P, O, ds, bound - 1, bound, st, stop, par, w, keys,
                           data) >= bound:
            return True, beta
    if alpha > -64:
        bound = 100 * alpha - sg - bias
        if _midgame.search(P, O, ds, bound, bound + 1, st, stop, par, w, keys,
                           data) <= bound:
            return True, alpha
    return False, 0


# ---------------------------------------------------------------------------------------
# Above ``par[END_SORT_HEIGHT]`` empties: the explicit-stack search of
# :func:`gameopt.reversi._stack.walk` (shared with the midgame search), the depth of a frame
# being its number of empty squares; below, :func:`shallow` (no hashing, parity order).
# ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _enter(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
           wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
           keys: np.ndarray, data: np.ndarray) -> tuple[int, int]:
    """Enter frame k: :func:`shallow` at ``par[END_SORT_HEIGHT]`` empties and below; else
    the end of the game, the stability cutoff, the table, the enhanced transposition cutoff,
    then the moves in fastest-first order after the hash move."""
    P = fu[k, sk.P]
    O = fu[k, sk.O]
    alpha = fv[k, sk.ALPHA]
    beta = fv[k, sk.BETA]
    n = popcount(~(P | O))
    if n <= par[END_SORT_HEIGHT]:
        v, nodes = shallow(P, O, alpha, beta)
        st[NODES] += nodes
        return sk.DONE, v
    if sk.poll(st, stop, par):
        return sk.STOP, 0
    moves = get_moves(P, O)
    if moves == U0:
        if fv[k, sk.PASSED] or get_moves(O, P) == U0:
            return sk.DONE, final_score(P, O)
        sk.push_pass(fu, fv, k)
        return sk.PUSHED, 0
    # stability cutoff: P scores at most 64 - 2 * (O's stable discs)
    if par[STABILITY] != 0 and alpha >= 64 - 2 * popcount(O):
        top = 64 - 2 * popcount(stable_discs(O, P))
        if top <= alpha:
            return sk.DONE, top
        if top < beta:
            beta = top
    hash_move = -1
    depth = fv[k, sk.DEPTH]  # n, or n + par[END_DEPTH_OFF] in a selective pass
    if par[USE_TT] != 0:
        cut, v, alpha, beta, hash_move = sk.probe_bounds(keys, data, P, O, depth, alpha,
                                                         beta)
        if cut:
            return sk.DONE, v
    if par[END_SEL_T] > 0 and n >= par[END_SEL_MIN]:
        cut, v = _probcut(P, O, n, alpha, beta, st, stop, par, w, keys, data)
        if st[STOPPED]:
            return sk.STOP, 0
        if cut:
            return sk.DONE, v
    count = _list_moves(P, O, moves, wsq, wfl, k)
    if par[USE_TT] != 0 and par[ETC] > 0 and n >= par[ETC]:
        v = _etc(P, O, count, wsq, wfl, k, beta, depth, keys, data)
        if v > -INF:
            return sk.DONE, v
    fv[k, sk.KIND] = sk.SORTED
    fv[k, sk.COUNT] = count
    _order(P, O, count, hash_move, wsq, wfl, wkey, k, n, par, w)
    fv[k, sk.NEXT] = 0
    sk.open_node(fu, fv, wsq, wfl, k, alpha, beta, INF, par[PVS] != 0)
    return sk.PUSHED, 0


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
    n = popcount(~(P | O))
    if n <= par[END_SORT_HEIGHT]:
        v, nodes = shallow(P, O, alpha, beta)
        st[NODES] += nodes
        return v
    return sk.walk(P, O, n + par[END_DEPTH_OFF], alpha, beta, st, stop, par, w, keys, data,
                   _enter, INF)
