"""The round's pair matrices in one pass (numba): the fast twin of the numpy reference.

:func:`gameopt.pairing.penalties.cost_matrix` computes, for every ordered pair ``(i, j)``,
the terms of T. Nakajima's "Pairing Algorithm" (2002) as whole-matrix numpy expressions
(``_matrices_numpy`` there, the reference); this kernel computes the same five matrices
entry by entry, without the dozen ``(n, n)`` temporaries. Inputs are per-player vectors
(int64 unless said) and the two history matrices; ``flags`` is an int64 vector of
switches (:data:`UNDULATION` ... :data:`HALVES_NOW`). The tests compare the two on random
fields and every weight preset.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = ["CHAUVINISM", "COLOUR", "ELITISM", "FLAGS", "HALVES", "HALVES_NOW", "RANK",
           "REPETITION", "UNDULATION", "pair_matrices"]

#: Indices into ``flags``: the switched-on terms, and whether the halves term applies in
#: this round.
UNDULATION, CHAUVINISM, ELITISM, RANK, REPETITION, COLOUR, HALVES, HALVES_NOW = range(8)
FLAGS = 8

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@njit(cache=True, inline="always")
def _sym(i: int, j: int, s: IntArray, before: IntArray, country: IntArray, pp: IntArray,
         rr: IntArray, und: IntArray, p_flcum: int, min_fac: int, chauv: int, elects: int,
         p_rank: int, flags: IntArray) -> int:
    """The colour-independent terms of ``(i, j)`` (symmetric in ``i, j``)."""
    d = s[j] - s[i]
    f = abs(d)
    t = 0
    if flags[UNDULATION]:
        t += und[min(f, und.shape[0] - 1)]
        now = 1 if d > 0 else (-1 if d < 0 else 0)  # i's float direction against j
        if now != 0 and before[i] != 0:
            t += p_flcum if now == before[i] else -min_fac
        if now != 0 and before[j] != 0:
            t += p_flcum if -now == before[j] else -min_fac
    if flags[CHAUVINISM] and country[i] == country[j]:
        t += chauv
    if flags[ELITISM]:
        t += elects * (s[i] + s[j]) * f
    if flags[RANK]:
        if d == 0:
            dd = pp[i] - pp[j]
        elif d < 0:
            dd = rr[i] + pp[j]
        else:
            dd = pp[i] + rr[j]
        t += p_rank * dd * dd
    return t


@njit(cache=True)
def pair_matrices(s: IntArray, before: IntArray, country: IntArray, pp: IntArray,
                  rr: IntArray, und: IntArray, p_flcum: int, min_fac: int, chauv: int,
                  elects: int, p_rank: int, flags: IntArray, as_black: IntArray,
                  last: BoolArray, p_mcoul: int, p_clopp: int, p_desuite: int,
                  cb: IntArray, cw: IntArray, vb: IntArray, vw: IntArray, odd: BoolArray,
                  p_coltier: int, p_halves: int, p_halfcol: int,
                  ) -> tuple[IntArray, IntArray, IntArray, IntArray, BoolArray]:
    """``(cost, upper, breaks, colour, black)``, each ``(n, n)`` (int64; black bool), zero
    (False) on the diagonal.

    Orientation ``a`` of ``(i, j)`` has ``i`` black: its upper terms are the symmetric
    ones plus the repetition terms ``p_mcoul·as_black[i, j] + p_clopp·as_black[j, i] +
    p_desuite·last[i, j]``, its colour cost ``cb[i] + cw[j]``, its breaks ``vb[i] + vw[j]``;
    orientation ``b`` is ``a`` of ``(j, i)``. ``black[i, j]`` picks ``a`` by (upper, breaks,
    colour), then the rank rule (``odd[i]`` when ``i < j``, else ``not odd[j]``). The halves
    term ``p_halves·| |pp_i − pp_j| − (pp_i + rr_i − 1)//2 |`` (same score only) joins the
    cost and, with :data:`HALVES` on, the third level (``colour·p_halfcol + halves``).
    """
    n = s.shape[0]
    cost = np.zeros((n, n), dtype=np.int64)
    upper = np.zeros((n, n), dtype=np.int64)
    breaks = np.zeros((n, n), dtype=np.int64)
    colour = np.zeros((n, n), dtype=np.int64)
    black = np.zeros((n, n), dtype=np.bool_)
    rep = flags[REPETITION] != 0
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            sym = _sym(i, j, s, before, country, pp, rr, und, p_flcum, min_fac, chauv,
                       elects, p_rank, flags)
            ua = sym
            ub = sym
            if rep:
                ua += p_mcoul * as_black[i, j] + p_clopp * as_black[j, i] + p_desuite * last[i, j]
                ub += p_mcoul * as_black[j, i] + p_clopp * as_black[i, j] + p_desuite * last[j, i]
            ca, cbb = cb[i] + cw[j], cb[j] + cw[i]
            ba, bb = vb[i] + vw[j], vb[j] + vw[i]
            blk = odd[i] if i < j else not odd[j]
            blk = (ca < cbb) or (ca == cbb and blk)
            blk = (ba < bb) or (ba == bb and blk)
            blk = (ua < ub) or (ua == ub and blk)
            u = ua if blk else ub
            br = ba if blk else bb
            col = ca if blk else cbb
            half = 0
            if flags[HALVES_NOW] and s[i] == s[j]:
                half = p_halves * abs(abs(pp[i] - pp[j]) - (pp[i] + rr[i] - 1) // 2)
            c = u
            if flags[COLOUR]:
                c += col + p_coltier * br
            cost[i, j] = c + half
            upper[i, j] = u
            breaks[i, j] = br
            colour[i, j] = col * p_halfcol + half if flags[HALVES] else col
            black[i, j] = blk
    return cost, upper, breaks, colour, black
