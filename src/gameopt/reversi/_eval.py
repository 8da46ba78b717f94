"""numba static evaluation behind one interface: ``evaluate(P, O, kind, weights)``.

Scores are in centi-discs (100 = one disc of final margin) for the side to move.
``kind`` selects the evaluation and ``weights`` (int32, 1-D) holds its parameters, so the
search kernels stay compiled once whatever evaluation they use:

``kind == 0``: the heuristic (see :data:`HEURISTIC_WEIGHTS` for the terms and their order)
    ``w0 * (mobility P - mobility O)``
    ``+ w1 * (potential mobility P - O)``: empty squares next to the other side's discs
    ``+ w2 * (corners P - O)``
    ``+ w3 * (X-squares P - O)``: b2, g2, b7, g7 held while their corner is empty
    ``+ w4 * (C-squares P - O)``: a2, b1, ... held while their corner is empty
    ``+ w5 * (stable discs P - O)``: the lower bound of :func:`_bitboard.stable_discs`,
    computed only when some corner is taken
    ``+ w6 * (discs P - O)``.

``kind == 1``: the pattern evaluation of :mod:`gameopt.reversi.patterns` (default pattern
    set); ``weights`` is its expanded table (:meth:`PatternSet.expand`): per stage, bias,
    the weights of the heuristic's terms above, then one value per raw configuration of
    each pattern. A longer table carries a residual network after the stages
    (:mod:`gameopt.reversi.network`; layout below), whose output is added.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gameopt.reversi._bitboard import (
    CORNERS,
    U0,
    U1,
    around,
    get_moves,
    popcount,
    stable_pair,
)
from gameopt.reversi.patterns import DEFAULT_SET, N_SCALARS, N_STAGES

__all__ = ["evaluate", "terms", "HEURISTIC", "PATTERN", "HEURISTIC_WEIGHTS", "HEURISTIC_TERMS",
           "pattern_indices", "pattern_indices2", "child_indices", "evaluate_indexed",
           "evaluate_indexed_m", "terms_m", "stage_offset", "has_network", "pattern_sum",
           "child_pattern_delta", "scalars_m",
           "evaluate_indexed_lazy", "evaluate_lazy", "N_INSTANCES", "NET_K", "NET_SE",
           "NET_SW", "NET_SV", "without_network"]

HEURISTIC = 0
PATTERN = 1
HEURISTIC_TERMS = ("mobility", "potential mobility", "corners", "X-squares", "C-squares",
                   "stable discs", "discs")
#: Hand-set weights (centi-discs per unit of each term), in the order of HEURISTIC_TERMS.
HEURISTIC_WEIGHTS = np.array([70, 25, 700, -250, -80, 60, 0], dtype=np.int32)
#: Read-only, as every weights table given to the kernels (numba compiles a read-only and
#: a writable array as two types: one type keeps the search kernels to one compiled version).
HEURISTIC_WEIGHTS.flags.writeable = False

#: the X squares (b2 g2 b7 g7) and the C squares (b1 a2, g1 h2, a7 b8, h7 g8)
_X_ALL = np.uint64(sum(1 << q for q in (9, 14, 49, 54)))
_C_ALL = np.uint64(sum(1 << q for q in (1, 8, 6, 15, 48, 57, 55, 62)))


@njit(cache=True)
def terms(P: np.uint64, O: np.uint64) -> tuple[int, int, int, int, int, int, int]:
    """The heuristic's terms, P minus O, in the order of :data:`HEURISTIC_TERMS`; stable
    discs count only once some corner is taken (0 before)."""
    return terms_m(P, O, get_moves(P, O))


@njit(cache=True, inline="always")
def terms_m(P: np.uint64, O: np.uint64, mp: np.uint64
            ) -> tuple[int, int, int, int, int, int, int]:
    """:func:`terms` given P's moves ``mp`` (``get_moves(P, O)``, which a search has made
    already at a leaf)."""
    empty = ~(P | O)
    mob = popcount(mp) - popcount(get_moves(O, P))
    pot = popcount(around(O) & empty) - popcount(around(P) & empty)
    corners = popcount(P & CORNERS) - popcount(O & CORNERS)
    # the X and C squares of the empty corners: each touches one corner only
    near = around(empty & CORNERS)
    xm = near & _X_ALL
    cm = near & _C_ALL
    xs = popcount(P & xm) - popcount(O & xm)
    cs = popcount(P & cm) - popcount(O & cm)
    stable = 0
    if (P | O) & CORNERS != U0:
        sp, so = stable_pair(P, O)
        stable = popcount(sp) - popcount(so)
    return mob, pot, corners, xs, cs, stable, popcount(P) - popcount(O)


@njit(cache=True)
def _heuristic(P: np.uint64, O: np.uint64, w: np.ndarray) -> int:
    mob, pot, corners, xs, cs, stable, discs = terms(P, O)
    return (w[0] * mob + w[1] * pot + w[2] * corners + w[3] * xs + w[4] * cs
            + w[5] * stable + w[6] * discs)


# Small tables only: numba will not cache a function that reads a large global array
_PSQ = DEFAULT_SET.squares
_POFF = N_SCALARS + DEFAULT_SET.base[DEFAULT_SET.kind]  # each instance's table in a stage
_PSTAGE = DEFAULT_SET.kernel_stage_size


@njit(cache=True, inline="always")
def _bit(x: np.uint64, sh: np.uint64) -> int:
    """Bit ``sh`` of ``x``: 0 or 1 (int64)."""
    return np.int64((x >> sh) & U1)  # type: ignore[return-value]


@njit(cache=True, inline="always")
def config_index(P: np.uint64, O: np.uint64, squares: np.ndarray, i: int) -> int:
    """Base-3 configuration of instance ``i`` (row of ``squares``, -1 padded): digit 0
    empty, 1 P, 2 O."""
    idx = 0
    pw = 1
    for k in range(squares.shape[1]):
        s = squares[i, k]
        if s < 0:
            break
        sh = np.uint64(s)  # branch-free: the digit is 1 for P, 2 for O (never both)
        idx += pw * (_bit(P, sh) + 2 * _bit(O, sh))
        pw *= 3
    return idx


@njit(cache=True, inline="always")
def _scalars(P: np.uint64, O: np.uint64, w: np.ndarray) -> tuple[int, int]:
    """The stage's bias and terms: (their value, the stage's offset in ``w``)."""
    return _scalars_m(P, O, get_moves(P, O), w)


@njit(cache=True, inline="always")
def scalars_m(P: np.uint64, O: np.uint64, mp: np.uint64, w: np.ndarray) -> tuple[int, int]:
    """The stage's bias and the heuristic terms of (P, O) weighted (P's moves ``mp``
    given): (their value, the stage's offset in ``w``); the pattern evaluation is this
    value plus :func:`pattern_sum`."""
    return _scalars_m(P, O, mp, w)


@njit(cache=True, inline="always")
def _scalars_m(P: np.uint64, O: np.uint64, mp: np.uint64, w: np.ndarray) -> tuple[int, int]:
    """:func:`_scalars` given P's moves ``mp``."""
    empties = popcount(~(P | O))
    stage = min(14, max(0, (60 - empties) // 4))
    off = stage * _PSTAGE
    mob, pot, corners, xs, cs, stable, discs = terms_m(P, O, mp)
    v = (int(w[off]) + int(w[off + 1]) * mob + int(w[off + 2]) * pot
         + int(w[off + 3]) * corners + int(w[off + 4]) * xs + int(w[off + 5]) * cs
         + int(w[off + 6]) * stable + int(w[off + 7]) * discs)
    return v, off


# The residual network (:mod:`gameopt.reversi.network`, which builds this section): when
# the table is longer than the pattern stages, the section after them holds a network
# whose output is added to the pattern value. Each raw configuration (an index-vector
# entry) has an embedding of NET_K integers; the position's embedding is its stage's vector
# plus the sum over the instances (kept as a tuple of NET_K scalars: no allocation); one
# ReLU layer of H units and a linear output follow. Fixed point: embeddings and stage
# vectors scaled by 2**NET_SE, the layer's weights by 2**NET_SW (its biases by
# 2**(NET_SE + NET_SW)), the output weights in centi-discs by 2**NET_SV (the sum shifted
# down, floor, to centi-discs), the output bias per stage in centi-discs.
# Layout after _NET0 = N_STAGES * _PSTAGE:
# [H, embeddings (_PSTAGE × NET_K/2), stage vectors (N_STAGES × NET_K), layer weights
# (H × NET_K), layer biases (H), output weights (H), output biases (N_STAGES)].
# The embeddings are int16, two to an int32 entry (the first in the low half): half the
# memory of the table's biggest part, which the evaluation reads at 54 scattered places.
NET_K = 8
NET_SE = 10
NET_SW = 10
NET_SV = 8
_NET0 = N_STAGES * _PSTAGE
_NET_SHIFT = NET_SE + NET_SW + NET_SV
_NET_KP = NET_K // 2  # int32 entries of one packed embedding


def without_network(w: np.ndarray) -> np.ndarray:
    """The pattern stages of a pattern table (a view), without its network's section if
    it has one; any other table as it is."""
    return w[:_NET0] if w.shape[0] > _NET0 else w


@njit(cache=True, inline="always")
def _add8(a: tuple, w: np.ndarray, r: int) -> tuple:
    """``a`` (NET_K int64) plus the NET_K entries of ``w`` from ``r``."""
    return (a[0] + w[r], a[1] + w[r + 1], a[2] + w[r + 2], a[3] + w[r + 3],
            a[4] + w[r + 4], a[5] + w[r + 5], a[6] + w[r + 6], a[7] + w[r + 7])


@njit(cache=True, inline="always")
def _add8p(a: tuple, w: np.ndarray, r: int) -> tuple:
    """``a`` (NET_K int64) plus the NET_K int16 packed two to an entry in ``w`` from ``r``."""
    x0 = np.int64(w[r])
    x1 = np.int64(w[r + 1])
    x2 = np.int64(w[r + 2])
    x3 = np.int64(w[r + 3])
    return (a[0] + (((x0 & 0xFFFF) ^ 0x8000) - 0x8000), a[1] + (x0 >> 16),
            a[2] + (((x1 & 0xFFFF) ^ 0x8000) - 0x8000), a[3] + (x1 >> 16),
            a[4] + (((x2 & 0xFFFF) ^ 0x8000) - 0x8000), a[5] + (x2 >> 16),
            a[6] + (((x3 & 0xFFFF) ^ 0x8000) - 0x8000), a[7] + (x3 >> 16))


@njit(cache=True, inline="always")
def _net_start(stage: int, w: np.ndarray) -> tuple:
    """The stage's vector: the embedding sum before the instances are added."""
    r = _NET0 + 1 + _PSTAGE * _NET_KP + stage * NET_K
    z = np.int64(0)
    return _add8((z, z, z, z, z, z, z, z), w, r)


@njit(cache=True)
def _net_head(a: tuple, stage: int, w: np.ndarray) -> int:
    """The network's output in centi-discs from the embedding sum ``a`` (NET_K int64)."""
    h = w[_NET0]
    r = _NET0 + 1 + _PSTAGE * _NET_KP + N_STAGES * NET_K
    rb = r + h * NET_K
    rv = rb + h
    o = np.int64(0)
    for u in range(h):
        q = r + u * NET_K
        s = (np.int64(w[rb + u]) + w[q] * a[0] + w[q + 1] * a[1] + w[q + 2] * a[2]
             + w[q + 3] * a[3] + w[q + 4] * a[4] + w[q + 5] * a[5] + w[q + 6] * a[6]
             + w[q + 7] * a[7])
        if s > 0:
            o += w[rv + u] * s
    return (o >> _NET_SHIFT) + w[rv + h + stage]


@njit(cache=True)
def _patterns(P: np.uint64, O: np.uint64, w: np.ndarray) -> int:
    """Pattern evaluation (see :mod:`gameopt.reversi.patterns`); O(instances·10)."""
    v, off = _scalars(P, O, w)
    if w.shape[0] > _NET0:
        stage = off // _PSTAGE
        a = _net_start(stage, w)
        e0 = _NET0 + 1
        for i in range(_PSQ.shape[0]):
            x = _POFF[i] + config_index(P, O, _PSQ, i)
            v += w[off + x]
            a = _add8p(a, w, e0 + x * _NET_KP)
        return v + _net_head(a, stage, w)
    for i in range(_PSQ.shape[0]):
        v += w[off + _POFF[i] + config_index(P, O, _PSQ, i)]
    return v


# Incremental pattern indices (Buro's Logistello; Edax keeps its features the same way):
# a position's index vector holds, for each instance i, _POFF[i] + its configuration, so
# the evaluation is the scalars plus one table read per instance. A move changes only the
# instances of the placed and flipped squares: square s lies in instances _SQ_I[s, :_SQ_N[s]]
# with the power of 3 _SQ_PW[s, j] of its digit there.
N_INSTANCES = _PSQ.shape[0]


def _square_lists() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lists: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for i, row in enumerate(_PSQ):
        for k, sq in enumerate(int(x) for x in row if x >= 0):
            lists[sq].append((i, 3 ** k))
    m = max(len(li) for li in lists)
    n = np.array([len(li) for li in lists], dtype=np.int64)
    inst = np.zeros((64, m), dtype=np.int64)
    pw = np.zeros((64, m), dtype=np.int64)
    for sq, li in enumerate(lists):
        for j, (i, p) in enumerate(li):
            inst[sq, j] = i
            pw[sq, j] = p
    return n, inst, pw


_SQ_N, _SQ_I, _SQ_PW = _square_lists()


@njit(cache=True)
def pattern_indices(P: np.uint64, O: np.uint64, out: np.ndarray) -> None:
    """The index vector of (P, O) from scratch into ``out`` (N_INSTANCES): digit 1 is P."""
    for i in range(N_INSTANCES):
        out[i] = _POFF[i] + config_index(P, O, _PSQ, i)


@njit(cache=True)
def pattern_indices2(P: np.uint64, O: np.uint64, own: np.ndarray, other: np.ndarray) -> None:
    """:func:`pattern_indices` of (P, O) into ``own`` and of (O, P) into ``other``, in one
    pass over the squares (the digits of the other side are those of P and O swapped)."""
    for i in range(N_INSTANCES):
        a = 0
        b = 0
        pw = 1
        for k in range(_PSQ.shape[1]):
            s = _PSQ[i, k]
            if s < 0:
                break
            sh = np.uint64(s)
            p = _bit(P, sh)
            o = _bit(O, sh)
            a += pw * (p + 2 * o)
            b += pw * (o + 2 * p)
            pw *= 3
        own[i] = _POFF[i] + a
        other[i] = _POFF[i] + b


@njit(cache=True, inline="always")
def _add_square(ix: np.ndarray, s: int, times: int) -> None:
    for j in range(_SQ_N[s]):
        ix[_SQ_I[s, j]] += times * _SQ_PW[s, j]


@njit(cache=True, inline="always")
def child_indices(src: np.ndarray, dst: np.ndarray, s: int, f: np.uint64,
                  placed: int, flipped: int) -> None:
    """``dst`` = ``src`` after a disc is placed on ``s`` (its digit goes 0 -> ``placed``)
    and the discs of ``f`` flipped (each digit changes by ``flipped``).

    The mover of (P, O) plays s: the child's vector (its own mover's digit 1) is the
    parent's *other* vector (O's digit 1) with ``placed = 2, flipped = +1``; the child's
    other vector is the parent's own with ``placed = 1, flipped = -1``.
    """
    for i in range(N_INSTANCES):
        dst[i] = src[i]
    _add_square(dst, s, placed)
    while f:
        b = f & (~f + U1)
        f ^= b
        _add_square(dst, popcount(b - U1), flipped)


@njit(cache=True, inline="always")
def stage_offset(empties: int) -> int:
    """Where the stage of a position with ``empties`` empty squares starts in a pattern
    table (as :func:`evaluate_indexed` finds it)."""
    return min(14, max(0, (60 - empties) // 4)) * _PSTAGE


@njit(cache=True, inline="always")
def has_network(w: np.ndarray) -> bool:
    """Whether the pattern table ``w`` carries a residual network after its stages."""
    return w.shape[0] > _NET0


@njit(cache=True, inline="always")
def pattern_sum(ix: np.ndarray, off: int, w: np.ndarray) -> int:
    """The patterns' part of the evaluation of the index vector ``ix`` in the stage at
    ``off``: the sum of the table entries of its instances."""
    v = 0
    for i in range(N_INSTANCES):
        v += w[off + ix[i]]
    return v


@njit(cache=True, inline="always")
def child_pattern_delta(src: np.ndarray, s: int, f: np.uint64, placed: int, flipped: int,
                        off: int, w: np.ndarray, acc: np.ndarray, touched: np.ndarray
                        ) -> int:
    """``pattern_sum(dst, off, w) - pattern_sum(src, off, w)`` for ``dst`` the vector
    :func:`child_indices` would make from ``src`` (the disc placed on ``s``, the discs
    of ``f`` flipped; ``placed``, ``flipped`` > 0), without making it: only the instances
    the move touches are read. ``acc`` (N_INSTANCES, all zero on entry and again on
    return) sums each touched instance's change, ``touched`` lists them."""
    n = 0
    for j in range(_SQ_N[s]):
        i = _SQ_I[s, j]
        if acc[i] == 0:
            touched[n] = i
            n += 1
        acc[i] += placed * _SQ_PW[s, j]
    while f:
        b = f & (~f + U1)
        f ^= b
        q = popcount(b - U1)
        for j in range(_SQ_N[q]):
            i = _SQ_I[q, j]
            if acc[i] == 0:
                touched[n] = i
                n += 1
            acc[i] += flipped * _SQ_PW[q, j]
    d = 0
    for t in range(n):
        i = touched[t]
        o = off + src[i]
        d += w[o + acc[i]] - w[o]
        acc[i] = 0
    return d


@njit(cache=True, inline="always")
def evaluate_indexed(P: np.uint64, O: np.uint64, ix: np.ndarray, w: np.ndarray) -> int:
    """The pattern evaluation of (P, O) (``evaluate(P, O, PATTERN, w)``) from its index
    vector ``ix`` (:func:`pattern_indices` or kept by :func:`child_indices`)."""
    return evaluate_indexed_m(P, O, get_moves(P, O), ix, w)


@njit(cache=True, inline="always")
def evaluate_indexed_m(P: np.uint64, O: np.uint64, mp: np.uint64, ix: np.ndarray,
                       w: np.ndarray) -> int:
    """:func:`evaluate_indexed` given P's moves ``mp`` (``get_moves(P, O)``)."""
    v, off = _scalars_m(P, O, mp, w)
    if w.shape[0] > _NET0:
        stage = off // _PSTAGE
        a = _net_start(stage, w)
        e0 = _NET0 + 1
        for i in range(N_INSTANCES):
            v += w[off + ix[i]]
            a = _add8p(a, w, e0 + ix[i] * _NET_KP)
        return v + _net_head(a, stage, w)
    for i in range(N_INSTANCES):
        v += w[off + ix[i]]
    return v


@njit(cache=True, inline="always")
def _net_of(P: np.uint64, O: np.uint64, ix: np.ndarray, v: int, off: int, w: np.ndarray,
            alpha: int, beta: int, margin: int, most: int) -> int:
    """The pattern value ``v`` (stage offset ``off``) plus the network's output, unless
    the position has more than ``most`` empties (``most`` > 0): then ``v``; or unless
    ``v`` lies ``margin`` or more outside (alpha, beta) (``margin`` > 0): then
    ``v + margin`` (below the window) or ``v - margin`` (above), the bound v would be if
    the network's output were within ±margin."""
    if most > 0 and popcount(~(P | O)) > most:
        return v
    if margin > 0:
        if v + margin <= alpha:
            return v + margin
        if v - margin >= beta:
            return v - margin
    stage = off // _PSTAGE
    a = _net_start(stage, w)
    e0 = _NET0 + 1
    for i in range(N_INSTANCES):
        a = _add8p(a, w, e0 + ix[i] * _NET_KP)
    return v + _net_head(a, stage, w)


@njit(cache=True, inline="always")
def evaluate_indexed_lazy(P: np.uint64, O: np.uint64, ix: np.ndarray, w: np.ndarray,
                          alpha: int, beta: int, margin: int, most: int) -> int:
    """:func:`evaluate_indexed` with the network evaluated only where it matters (lazy
    evaluation, as chess programs skip the costly part when the cheap part decides):
    not at positions of more than ``most`` empties (``most`` > 0; the pattern value
    alone), and, with ``margin`` > 0, not when the pattern value alone lies ``margin``
    centi-discs or more outside the window (alpha, beta): the value is then that pattern
    value moved ``margin`` toward the window (a fail-soft bound that holds while the
    network's output is within ±margin). Inside the window, and with ``margin`` and
    ``most`` both 0, the value is :func:`evaluate_indexed`'s. A table without a network:
    the pattern value."""
    v, off = _scalars(P, O, w)
    for i in range(N_INSTANCES):
        v += w[off + ix[i]]
    if w.shape[0] <= _NET0:
        return v
    return _net_of(P, O, ix, v, off, w, alpha, beta, margin, most)


@njit(cache=True)
def evaluate_lazy(P: np.uint64, O: np.uint64, w: np.ndarray, alpha: int, beta: int,
                  margin: int, most: int) -> int:
    """:func:`evaluate_indexed_lazy` from scratch (the pattern evaluation's table ``w``)."""
    ix = np.empty(N_INSTANCES, dtype=np.int32)
    pattern_indices(P, O, ix)
    return evaluate_indexed_lazy(P, O, ix, w, alpha, beta, margin, most)


@njit(cache=True)
def evaluate(P: np.uint64, O: np.uint64, kind: int, weights: np.ndarray) -> int:
    """Static value of (P, O) for P in centi-discs, by the evaluation ``kind``."""
    if kind == 1:
        return _patterns(P, O, weights)
    return _heuristic(P, O, weights)
