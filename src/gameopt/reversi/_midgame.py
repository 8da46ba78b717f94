"""numba depth-limited search: fail-soft alpha-beta / PVS with the bound-range table.

As Thell's spot: negamax alpha-beta; above ``par[SORT_HEIGHT]`` plies from the horizon,
PVS (null-window search once a move has raised alpha, re-searched with the full window when
it fails high), the transposition table of [lower, upper] ranges and move ordering; at that
height and below, plain alpha-beta in square order with no hashing. Ordering: the hash move,
then the moves whose child is in the table (searched by an earlier iteration: spot's
"previous iteration" table) by their stored bound, then the rest by static evaluation.

Values are centi-discs for the side to move (:func:`gameopt.reversi._eval.evaluate` at the
horizon, 100 x the final disc difference at the end of the game). A pass does not use a ply
of depth. Table entries cut only at the same depth, so the table never changes a value: the
result of :func:`search` equals plain negamax to the same depth. :func:`search_mpc` adds
Buro's Multi-ProbCut (a shallow null-window search predicts, by a fitted regression, that
the deep one would fail high or low) and is selective.

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", NECI technical report, 1997.

The tree is walked by :func:`gameopt.reversi._stack.walk` (an explicit stack, shared with
the exact solver); this module says how a node is entered.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi import _stack as sk
from gameopt.reversi._bitboard import U0, U1, flips, get_moves, popcount, square_of
from gameopt.reversi._eval import (
    N_INSTANCES,
    PATTERN,
    child_indices,
    child_pattern_delta,
    evaluate,
    evaluate_indexed,
    evaluate_indexed_lazy,
    evaluate_indexed_m,
    evaluate_lazy,
    has_network,
    pattern_indices,
    pattern_indices2,
    pattern_sum,
    scalars_m,
    stage_offset,
)
from gameopt.reversi._params import (
    EVAL_KIND,
    LEAVES,
    MPC,
    MPC_BASE,
    MPC_FIELDS,
    MPC_MAXD,
    MPC_T,
    MPC_TRIES,
    MPC_TRY,
    NET_LAZY,
    NET_MAX_EMPTIES,
    PVS,
    SHALLOW_ORDER,
    SORT_HEIGHT,
    STOPPED,
    USE_TT,
)
from gameopt.reversi._stack import BIT, final_score
from gameopt.reversi._tt import LOWER, UPPER, probe

__all__ = ["search", "search_mpc", "search_mpc2", "search_frames", "search_mpc_frames", "INF"]

INF = 1 << 20
#: plain nodes (no ordering, no table) this many plies from the horizon and below are
#: searched by the nested functions of :func:`_shallow`, not frame by frame
SHALLOW = 3
#: rows of a shallow search's buffer: the index vectors of each depth, then its move lists
MOVE_ROWS = 2 * SHALLOW + 2
#: Multi-ProbCut tests only bounds inside the range of final scores (centi-discs)
MPC_RANGE = 6400


@njit(cache=True)
def _order(P: np.uint64, O: np.uint64, moves: np.uint64, hash_move: int, sq: np.ndarray,
           fl: np.ndarray, key: np.ndarray, kind: int, w: np.ndarray, keys: np.ndarray,
           data: np.ndarray, alpha: int, beta: int, margin: int, most: int) -> int:
    """Moves of P, best first (hash move, children known to the table, static value: the
    pattern evaluation from the index vector of O's side, made once, :func:`child_indices`;
    with a lazy ``margin`` or ``most`` > 0, lazily within the node's window (alpha, beta),
    as at the leaves)."""
    n = 0
    other = np.empty(0, dtype=np.int32)
    child = np.empty(0, dtype=np.int32)
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
            elif kind == PATTERN:
                if other.size == 0:
                    other = np.empty(N_INSTANCES, dtype=np.int32)
                    child = np.empty(N_INSTANCES, dtype=np.int32)
                    pattern_indices(O, P, other)
                child_indices(other, child, s, f, 2, 1)
                if margin > 0 or most > 0:
                    k = -evaluate_indexed_lazy(cp, co, child, w, -beta, -alpha, margin, most)
                else:
                    k = -evaluate_indexed(cp, co, child, w)
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


@njit(cache=True)
def _leaf(P: np.uint64, O: np.uint64, alpha: int, beta: int, buf: np.ndarray, rx: int,
          ry: int, kind: int, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
          w: np.ndarray) -> int:
    """A node at the horizon reached by a move, as the frames do it (:func:`_prelude`):
    counted, the end of the game, a pass (one more node, its evaluation from the other
    side: rare, from scratch), else the evaluation from the index vector ``buf[rx]``."""
    if sk.poll(st, stop, par):
        return 0
    mp = get_moves(P, O)
    if mp == U0:
        if get_moves(O, P) == U0:
            st[LEAVES] += 1
            return 100 * final_score(P, O)
        if sk.poll(st, stop, par):
            return 0
        st[LEAVES] += 1
        return -evaluate(O, P, kind, w)
    st[LEAVES] += 1
    if kind == PATTERN:
        if par[NET_LAZY] > 0 or par[NET_MAX_EMPTIES] > 0:
            return evaluate_indexed_lazy(P, O, buf[rx], w, alpha, beta, par[NET_LAZY],
                                         par[NET_MAX_EMPTIES])
        return evaluate_indexed_m(P, O, mp, buf[rx], w)
    return evaluate(P, O, kind, w)


@njit(cache=True, inline="always")
def _leaf_fast(P: np.uint64, O: np.uint64, s: int, f: np.uint64, buf: np.ndarray, ry: int,
               base: int, off: int, kind: int, st: np.ndarray, stop: np.ndarray,
               par: np.ndarray, w: np.ndarray) -> int:
    """:func:`_leaf` for P's move on ``s`` (flipping ``f``) with the pattern evaluation and
    no network: the same value and counts, the leaf's patterns as the parent's ``base``
    (the pattern sum of its other-side vector ``buf[ry]`` in the leaf's stage at ``off``)
    plus the change of the instances the move touches (:func:`child_pattern_delta`, its
    scratch in rows 0 and 1 of ``buf``, row 0 all zero), instead of the leaf's vector."""
    cp = O ^ f
    co = P | f | BIT[s]
    if sk.poll(st, stop, par):
        return 0
    mp = get_moves(cp, co)
    if mp == U0:
        if get_moves(co, cp) == U0:
            st[LEAVES] += 1
            return 100 * final_score(cp, co)
        if sk.poll(st, stop, par):
            return 0
        st[LEAVES] += 1
        return -evaluate(co, cp, kind, w)
    st[LEAVES] += 1
    v, _ = scalars_m(cp, co, mp, w)
    return v + base + child_pattern_delta(buf[ry], s, f, 2, 1, off, w, buf[0], buf[1])


@njit(cache=True, inline="always")
def _child(P: np.uint64, O: np.uint64, s: int, alpha: int, beta: int, d: int,
           buf: np.ndarray, rx: int, ry: int, kind: int, st: np.ndarray, stop: np.ndarray,
           par: np.ndarray, w: np.ndarray, child, base: int, off: int) -> int:
    """The value (from the child's side) of P's move on ``s`` searched by ``child`` at depth
    d - 1 within (alpha, beta), its index vectors in rows 2(d - 1) (its own) and
    2(d - 1) + 1 (the other side's), made from this node's rows ``rx`` (own) and ``ry``;
    a leaf needs only its own, and none with ``off`` >= 0 (:func:`_leaf_fast`, ``base``
    and ``off`` from :func:`_moves_loop`)."""
    rc = 2 * (d - 1)
    f = flips(P, O, s)
    if d == 1 and off >= 0:
        return _leaf_fast(P, O, s, f, buf, ry, base, off, kind, st, stop, par, w)
    if kind == PATTERN:
        child_indices(buf[ry], buf[rc], s, f, 2, 1)
        if d > 1:
            child_indices(buf[rx], buf[rc + 1], s, f, 1, -1)
    return child(O ^ f, P | f | BIT[s], alpha, beta, buf, rc, rc + 1, kind, st, stop, par, w)


@njit(cache=True, inline="always")
def _moves_loop(P: np.uint64, O: np.uint64, moves: np.uint64, alpha: int, beta: int, d: int,
                buf: np.ndarray, rx: int, ry: int, kind: int, st: np.ndarray,
                stop: np.ndarray, par: np.ndarray, w: np.ndarray, child) -> int:
    """Fail-soft alpha-beta over ``moves`` at depth ``d`` (a PLAIN frame's loop,
    :func:`gameopt.reversi._stack.receive`), each child by :func:`_child`: in square order,
    or from ``par[SHALLOW_ORDER]`` plies up fastest first (fewest replies; ties in square
    order), the cheap order of the many nodes near the horizon (the evaluation as the key
    costs more time than it saves nodes there)."""
    best = -INF
    a = alpha
    base = 0
    off = -1  # leaves by _leaf_fast: the pattern evaluation without a network or laziness
    if d == 1 and kind == PATTERN and par[NET_LAZY] == 0 and par[NET_MAX_EMPTIES] == 0 \
            and not has_network(w):
        off = stage_offset(popcount(~(P | O)) - 1)
        base = pattern_sum(buf[ry], off, w)
    if par[SHALLOW_ORDER] == 0 or d < par[SHALLOW_ORDER]:
        while moves:
            b = moves & (~moves + U1)
            moves ^= b
            v = -_child(P, O, square_of(b), -beta, -a, d, buf, rx, ry, kind, st, stop, par, w,
                        child, base, off)
            if st[STOPPED]:
                return 0
            if v > best:
                best = v
                if v >= beta:
                    return v
                if v > a:
                    a = v
        return best
    rs = MOVE_ROWS + 2 * d  # fastest first: the moves by their number of replies
    rk = rs + 1
    n = 0
    while moves:
        b = moves & (~moves + U1)
        moves ^= b
        s = square_of(b)
        f = flips(P, O, s)
        k = -popcount(get_moves(O ^ f, P | f | b))
        i = n
        while i > 0 and buf[rk, i - 1] < k:
            buf[rk, i] = buf[rk, i - 1]
            buf[rs, i] = buf[rs, i - 1]
            i -= 1
        buf[rk, i] = k
        buf[rs, i] = s
        n += 1
    for i in range(n):
        v = -_child(P, O, buf[rs, i], -beta, -a, d, buf, rx, ry, kind, st, stop, par, w,
                    child, base, off)
        if st[STOPPED]:
            return 0
        if v > best:
            best = v
            if v >= beta:
                return v
            if v > a:
                a = v
    return best


@njit(cache=True, inline="always")
def _node(P: np.uint64, O: np.uint64, alpha: int, beta: int, d: int, buf: np.ndarray, rx: int,
          ry: int, kind: int, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
          w: np.ndarray, child) -> int:
    """A plain node at depth ``d`` >= 1 reached by a move, as the frames do it: counted,
    the end of the game, a pass (one more node, same depth, the vectors swapped), the
    moves."""
    if sk.poll(st, stop, par):
        return 0
    moves = get_moves(P, O)
    if moves == U0:
        om = get_moves(O, P)
        if om == U0:
            st[LEAVES] += 1
            return 100 * final_score(P, O)
        if sk.poll(st, stop, par):
            return 0
        return -_moves_loop(O, P, om, -beta, -alpha, d, buf, ry, rx, kind, st, stop, par, w,
                            child)
    return _moves_loop(P, O, moves, alpha, beta, d, buf, rx, ry, kind, st, stop, par, w, child)


@njit(cache=True)
def _node1(P: np.uint64, O: np.uint64, alpha: int, beta: int, buf: np.ndarray, rx: int,
           ry: int, kind: int, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
           w: np.ndarray) -> int:
    return _node(P, O, alpha, beta, 1, buf, rx, ry, kind, st, stop, par, w, _leaf)


@njit(cache=True)
def _node2(P: np.uint64, O: np.uint64, alpha: int, beta: int, buf: np.ndarray, rx: int,
           ry: int, kind: int, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
           w: np.ndarray) -> int:
    return _node(P, O, alpha, beta, 2, buf, rx, ry, kind, st, stop, par, w, _node1)


@njit(cache=True)
def _shallow(P: np.uint64, O: np.uint64, moves: np.uint64, alpha: int, beta: int, d: int,
             st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray
             ) -> tuple[int, int]:
    """A plain node at depth ``d`` (1..SHALLOW) with ``moves``, already counted: its moves
    searched by nested functions instead of frames (the same nodes in the same order, so
    the same value and counts) and the pattern evaluation kept incrementally (Buro):
    the index vectors of this node are made once, each child's from its parent's."""
    kind = par[EVAL_KIND]
    buf = np.empty((MOVE_ROWS + 2 * SHALLOW + 2, N_INSTANCES), dtype=np.int32)
    r = 2 * d
    if kind == PATTERN:
        pattern_indices2(P, O, buf[r], buf[r + 1])
        buf[0, :] = 0  # the scratch of _leaf_fast (rows 0, 1: no leaf vector is made)
    if d == 1:
        v = _moves_loop(P, O, moves, alpha, beta, 1, buf, r, r + 1, kind, st, stop, par, w,
                        _leaf)
    elif d == 2:
        v = _moves_loop(P, O, moves, alpha, beta, 2, buf, r, r + 1, kind, st, stop, par, w,
                        _node1)
    else:
        v = _moves_loop(P, O, moves, alpha, beta, 3, buf, r, r + 1, kind, st, stop, par, w,
                        _node2)
    if st[STOPPED]:
        return sk.STOP, 0
    return sk.DONE, v


@njit(cache=True, inline="always")
def _prelude(k: int, fu: np.ndarray, fv: np.ndarray, st: np.ndarray, stop: np.ndarray,
             par: np.ndarray, w: np.ndarray) -> tuple[int, int, np.uint64]:
    """What every midgame node does first: count and poll, the end of the game, a pass,
    the horizon. Returns (code, value, moves); code -1 when the node goes on."""
    if sk.poll(st, stop, par):
        return sk.STOP, 0, U0
    P = fu[k, sk.P]
    O = fu[k, sk.O]
    moves = get_moves(P, O)
    if moves == U0:
        if fv[k, sk.PASSED] or get_moves(O, P) == U0:
            st[LEAVES] += 1
            return sk.DONE, 100 * final_score(P, O), U0
        sk.push_pass(fu, fv, k)  # a pass uses no ply of depth
        return sk.PUSHED, 0, U0
    if fv[k, sk.DEPTH] == 0:
        st[LEAVES] += 1
        if par[EVAL_KIND] == PATTERN and (par[NET_LAZY] > 0 or par[NET_MAX_EMPTIES] > 0):
            return sk.DONE, evaluate_lazy(P, O, w, fv[k, sk.ALPHA], fv[k, sk.BETA],
                                          par[NET_LAZY], par[NET_MAX_EMPTIES]), U0
        return sk.DONE, evaluate(P, O, par[EVAL_KIND], w), U0
    return -1, 0, moves


@njit(cache=True, inline="always")
def _probe(k: int, fu: np.ndarray, fv: np.ndarray, par: np.ndarray, keys: np.ndarray,
           data: np.ndarray) -> tuple[bool, int, int, int, int]:
    """The table's word on frame k above ``par[SORT_HEIGHT]`` (see
    :func:`gameopt.reversi._stack.probe_bounds`): (cut, value, alpha, beta, hash move)."""
    d = fv[k, sk.DEPTH]
    if d > par[SORT_HEIGHT] and par[USE_TT] != 0:
        return sk.probe_bounds(keys, data, fu[k, sk.P], fu[k, sk.O], d, fv[k, sk.ALPHA],
                               fv[k, sk.BETA])
    return False, 0, fv[k, sk.ALPHA], fv[k, sk.BETA], -1


@njit(cache=True, inline="always")
def _open(k: int, moves: np.uint64, hash_move: int, alpha: int, beta: int, fu: np.ndarray,
          fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray, wkey: np.ndarray,
          par: np.ndarray, w: np.ndarray, keys: np.ndarray, data: np.ndarray) -> None:
    """Open frame k on its moves: ordered above ``par[SORT_HEIGHT]``, else square order."""
    if fv[k, sk.DEPTH] > par[SORT_HEIGHT]:
        fv[k, sk.KIND] = sk.SORTED
        fv[k, sk.COUNT] = _order(fu[k, sk.P], fu[k, sk.O], moves, hash_move, wsq[k], wfl[k],
                                 wkey[k], par[EVAL_KIND], w, keys, data, alpha, beta,
                                 par[NET_LAZY], par[NET_MAX_EMPTIES])
        fv[k, sk.NEXT] = 0
    else:
        fv[k, sk.KIND] = sk.PLAIN
        fu[k, sk.REST] = moves
    sk.open_node(fu, fv, wsq, wfl, k, alpha, beta, INF, par[PVS] != 0)


@njit(cache=True, inline="always")
def _expand(k: int, moves: np.uint64, hash_move: int, alpha: int, beta: int, fu: np.ndarray,
            fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray, wkey: np.ndarray,
            st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
            keys: np.ndarray, data: np.ndarray, shallow: bool) -> tuple[int, int]:
    """Search frame k's moves: a plain node of depth up to SHALLOW by :func:`_shallow`
    (``shallow`` on), else frame by frame (:func:`_open`)."""
    d = fv[k, sk.DEPTH]
    if shallow and d <= SHALLOW and d <= par[SORT_HEIGHT]:
        return _shallow(fu[k, sk.P], fu[k, sk.O], moves, alpha, beta, d, st, stop, par, w)
    _open(k, moves, hash_move, alpha, beta, fu, fv, wsq, wfl, wkey, par, w, keys, data)
    return sk.PUSHED, 0


@njit(cache=True, inline="always")
def _enter_as(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
              wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
              w: np.ndarray, keys: np.ndarray, data: np.ndarray,
              shallow: bool) -> tuple[int, int]:
    """Enter frame k (see :func:`gameopt.reversi._stack.walk`): the end of the game, the
    horizon (the evaluation), the table, then the moves ordered (above ``par[SORT_HEIGHT]``
    plies from the horizon) or in square order."""
    code, v, moves = _prelude(k, fu, fv, st, stop, par, w)
    if code >= 0:
        return code, v
    cut, v, alpha, beta, hash_move = _probe(k, fu, fv, par, keys, data)
    if cut:
        return sk.DONE, v
    return _expand(k, moves, hash_move, alpha, beta, fu, fv, wsq, wfl, wkey, st, stop, par, w,
                   keys, data, shallow)


@njit(cache=True, inline="always")
def _enter(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
           wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
           keys: np.ndarray, data: np.ndarray) -> tuple[int, int]:
    return _enter_as(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data, True)


@njit(cache=True, inline="always")
def _enter_frames(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
                  wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
                  w: np.ndarray, keys: np.ndarray, data: np.ndarray) -> tuple[int, int]:
    return _enter_as(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data, False)


@njit(cache=True, nogil=True)
def search(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int, st: np.ndarray,
           stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
           data: np.ndarray) -> int:
    """Fail-soft value of (P, O) searched ``depth`` plies within (alpha, beta); 0 with
    ``st[STOPPED]`` set if the search was stopped."""
    return sk.walk(P, O, depth, alpha, beta, st, stop, par, w, keys, data, _enter, INF)


@njit(cache=True)
def search_frames(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int,
                  st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
                  keys: np.ndarray, data: np.ndarray) -> int:
    """:func:`search` with every node a frame of the stack and every evaluation from
    scratch: the reference of :func:`_shallow` (same value, same node counts)."""
    return sk.walk(P, O, depth, alpha, beta, st, stop, par, w, keys, data, _enter_frames, INF)


@njit(cache=True)
def _quick(P: np.uint64, O: np.uint64, d: int, alpha: int, beta: int, st: np.ndarray,
           stop: np.ndarray, par: np.ndarray, w: np.ndarray) -> int:
    """The value of (P, O) by a plain search of ``d`` (1..SHALLOW) plies within
    (alpha, beta): :func:`search` from a node that is neither ordered nor hashed (``d`` at
    most ``par[SORT_HEIGHT]``), with the same nodes and value, run by :func:`_shallow`
    without a stack of frames (a pass and the end of the game as the frames take them);
    0 with ``st[STOPPED]`` set if the search was stopped."""
    if sk.poll(st, stop, par):
        return 0
    moves = get_moves(P, O)
    if moves == U0:
        om = get_moves(O, P)
        if om == U0:
            st[LEAVES] += 1
            return 100 * final_score(P, O)
        if sk.poll(st, stop, par):
            return 0
        _, v = _shallow(O, P, om, -beta, -alpha, d, st, stop, par, w)
        return -v
    _, v = _shallow(P, O, moves, alpha, beta, d, st, stop, par, w)
    return v


@njit(cache=True, inline="always")
def _probcut(P: np.uint64, O: np.uint64, d: int, alpha: int, beta: int, st: np.ndarray,
             stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
             data: np.ndarray, kernel, quick: bool) -> tuple[bool, int]:
    """Multi-ProbCut at a node of depth ``d`` (Buro): (cut, value).

    The table row for the node's empties and ``d`` holds up to ``MPC_TRIES`` tries, each a
    shallow depth d' and the regression v_d = a v_d' + b + e, e ~ N(0, sigma). In the
    row's order (the fitter puts the shallowest first), the value at depth d is at least
    beta with confidence t (``par[MPC_T]``) when v_d' >= (beta + t sigma - b) / a, at most
    alpha when v_d' <= (alpha - t sigma - b) / a; each is checked by one null-window
    search of depth d' (``kernel``: :func:`search`, without Multi-ProbCut; with ``quick``
    (``kernel`` is :func:`search`), a check of d' <= SHALLOW plies at or below the sort
    height by :func:`_quick`, the same nodes without the frames), and cuts with beta or alpha. The
    first try that cuts ends it.
    """
    if d > MPC_MAXD:
        return False, 0
    e = 64 - popcount(P | O)
    row = MPC_BASE + (e * (MPC_MAXD + 1) + d) * MPC_FIELDS
    for i in range(MPC_TRIES):
        base = row + i * MPC_TRY
        ds = par[base]
        if ds <= 0:
            continue
        a = par[base + 1]
        b = par[base + 2]
        sg = (par[base + 3] * par[MPC_T]) // 100
        # a check of SHALLOW plies or fewer below the sort height is a plain search: run
        # directly (:func:`_quick`), not over a stack of frames made for it
        direct = quick and ds <= SHALLOW and ds <= par[SORT_HEIGHT]
        if beta < MPC_RANGE:
            bound = -((-(beta - b + sg) * 1024) // a)  # ceil
            if -MPC_RANGE < bound < MPC_RANGE:
                if direct:
                    v = _quick(P, O, ds, bound - 1, bound, st, stop, par, w)
                else:
                    v = kernel(P, O, ds, bound - 1, bound, st, stop, par, w, keys, data)
                if v >= bound:
                    return True, beta
        if alpha > -MPC_RANGE:
            bound = ((alpha - b - sg) * 1024) // a  # floor
            if -MPC_RANGE < bound < MPC_RANGE:
                if direct:
                    v = _quick(P, O, ds, bound, bound + 1, st, stop, par, w)
                else:
                    v = kernel(P, O, ds, bound, bound + 1, st, stop, par, w, keys, data)
                if v <= bound:
                    return True, alpha
    return False, 0


@njit(cache=True, inline="always")
def _enter_mpc_as(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
                  wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
                  w: np.ndarray, keys: np.ndarray, data: np.ndarray, shallow: bool,
                  kernel, quick: bool) -> tuple[int, int]:
    """:func:`_enter_as` with Multi-ProbCut after the table probe (:func:`_probcut`, its
    ``kernel`` and ``quick``)."""
    code, v, moves = _prelude(k, fu, fv, st, stop, par, w)
    if code >= 0:
        return code, v
    cut, v, alpha, beta, hash_move = _probe(k, fu, fv, par, keys, data)
    if cut:
        return sk.DONE, v
    d = fv[k, sk.DEPTH]
    if par[MPC] != 0 and d >= 3:
        cut, v = _probcut(fu[k, sk.P], fu[k, sk.O], d, alpha, beta, st, stop, par, w, keys,
                          data, kernel, quick)
        if st[STOPPED]:
            return sk.STOP, 0
        if cut:
            return sk.DONE, v
    return _expand(k, moves, hash_move, alpha, beta, fu, fv, wsq, wfl, wkey, st, stop, par, w,
                   keys, data, shallow)


@njit(cache=True, inline="always")
def _enter_mpc(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
               wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
               w: np.ndarray, keys: np.ndarray, data: np.ndarray) -> tuple[int, int]:
    return _enter_mpc_as(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data, True, search,
                         True)


@njit(cache=True, inline="always")
def _enter_mpc_frames(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray,
                      wfl: np.ndarray, wkey: np.ndarray, st: np.ndarray, stop: np.ndarray,
                      par: np.ndarray, w: np.ndarray, keys: np.ndarray,
                      data: np.ndarray) -> tuple[int, int]:
    return _enter_mpc_as(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data, False,
                         search_frames, False)


@njit(cache=True, nogil=True)
def search_mpc(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int, st: np.ndarray,
               stop: np.ndarray, par: np.ndarray, w: np.ndarray, keys: np.ndarray,
               data: np.ndarray) -> int:
    """:func:`search` with Multi-ProbCut at every node of depth 3 and more whose table row
    is set (``par[MPC]`` on): a selective search, no longer plain negamax to ``depth``."""
    return sk.walk(P, O, depth, alpha, beta, st, stop, par, w, keys, data, _enter_mpc, INF)


@njit(cache=True)
def search_mpc_frames(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int,
                      st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
                      keys: np.ndarray, data: np.ndarray) -> int:
    """:func:`search_mpc` frame by frame (the reference, as :func:`search_frames`)."""
    return sk.walk(P, O, depth, alpha, beta, st, stop, par, w, keys, data, _enter_mpc_frames,
                   INF)


@njit(cache=True, inline="always")
def _enter_mpc2(k: int, fu: np.ndarray, fv: np.ndarray, wsq: np.ndarray, wfl: np.ndarray,
                wkey: np.ndarray, st: np.ndarray, stop: np.ndarray, par: np.ndarray,
                w: np.ndarray, keys: np.ndarray, data: np.ndarray) -> tuple[int, int]:
    return _enter_mpc_as(k, fu, fv, wsq, wfl, wkey, st, stop, par, w, keys, data, True,
                         search_mpc, False)


@njit(cache=True, nogil=True)
def search_mpc2(P: np.uint64, O: np.uint64, depth: int, alpha: int, beta: int,
                st: np.ndarray, stop: np.ndarray, par: np.ndarray, w: np.ndarray,
                keys: np.ndarray, data: np.ndarray) -> int:
    """:func:`search_mpc` whose cut tests are themselves selective (:func:`search_mpc`,
    whose own tests are full width): Multi-ProbCut nested two levels deep."""
    return sk.walk(P, O, depth, alpha, beta, st, stop, par, w, keys, data, _enter_mpc2, INF)
