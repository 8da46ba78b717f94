"""Pair scores from a corpus of decks by association analysis.

The measure is **shrunk, smoothed positive PMI**. Over N decks, with ``n_i`` the decks
holding piece i and ``n_ij`` the decks holding both i and j::

    pmi_ij = log( (n_ij + α) · N / ((n_i + α) · (n_j + α)) )
    R_ij   = max(0, pmi_ij) · n_ij / (n_ij + β)

Additive smoothing α damps the ratio when counts are small; the factor
``n_ij / (n_ij + β)`` shrinks pairs seen together in few decks towards 0 (a pair never
seen together scores exactly 0, so R is as sparse as the co-occurrences). Negative
association is clipped at 0: a deck's score rewards combos, it does not punish
unrelated pairs. Pieces present in nearly every deck (staples) get PMI ≈ 0 with
everything — they are popular, not synergistic.

Leader-conditioned scores use the same formula with ``n_i`` replaced by the decks led
by l and ``n_ij`` by the decks led by l that hold j: ``leader[l, j]``.

Co-occurrence counts come from the pairs inside each deck (N · s(s-1)/2 pair keys,
counted by one sort), so the cost is O(N s² log(N s²) + k²) time and O(k²) memory for the
dense float32 output, k = number of piece kinds.

References
----------
K. W. Church and P. Hanks, "Word association norms, mutual information, and
lexicography", Computational Linguistics 16(1), 1990 (PMI).
O. Levy, Y. Goldberg and I. Dagan, "Improving distributional similarity with lessons
learned from word embeddings", TACL 3, 2015 (positive PMI, smoothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.deck.pool import PieceId, Scores
from gameopt.errors import InvalidInputError

__all__ = ["ScoreParams", "pair_counts", "deck_scores"]


@dataclass(frozen=True)
class ScoreParams:
    """``alpha``: additive smoothing; ``beta``: shrinkage count (see the module notes)."""

    alpha: float = 1.0
    beta: float = 5.0

    def __post_init__(self) -> None:
        if not (self.alpha >= 0 and self.beta >= 0):
            raise InvalidInputError(f"score params: alpha={self.alpha}, beta={self.beta} "
                                    "must be >= 0")


def pair_counts(idx: npt.NDArray[np.int64], k: int
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64],
                           npt.NDArray[np.int64]]:
    """Count decks per piece and per unordered pair.

    Parameters
    ----------
    idx : ndarray of int64, shape (N, s)
        Decks as indices 0..k-1, distinct within a row.

    Returns
    -------
    n : ndarray of int64, shape (k,)
        Decks holding each piece.
    a, b, nab : ndarray of int64, shape (m,)
        Pairs ``a < b`` seen together, and in how many decks.
    """
    n = np.bincount(idx.ravel(), minlength=k).astype(np.int64)
    s = idx.shape[1]
    iu, ju = np.triu_indices(s, 1)
    x, y = idx[:, iu].ravel(), idx[:, ju].ravel()
    lo, hi = np.minimum(x, y), np.maximum(x, y)
    keys, nab = np.unique(lo * k + hi, return_counts=True)
    return n, keys // k, keys % k, nab.astype(np.int64)


def _ppmi(nab: npt.NDArray[np.int64], na: npt.NDArray[np.int64], nb: npt.NDArray[np.int64],
          N: int, params: ScoreParams) -> npt.NDArray[np.float64]:
    a = params.alpha
    pmi = np.log((nab + a) * float(N) / ((na + a) * (nb + a)))
    return np.maximum(pmi, 0.0) * nab / (nab + params.beta)


def deck_scores(decks: npt.ArrayLike, ids: Sequence[PieceId] | None = None, *,
                params: ScoreParams | None = None, leader: bool = True) -> Scores:
    """Learn pair scores from decks.

    Parameters
    ----------
    decks : array_like of int, shape (N, s)
        Piece ids, leader first in each row.
    ids : sequence of int, optional
        The piece ids to score (rows of the output, e.g. a pool's or a collection's
        ids). Counts always use the whole corpus; pieces outside ``ids`` only drop out
        of the output. Default: every id seen in the corpus, sorted.
    params : ScoreParams, optional
    leader : bool
        Also compute leader-conditioned scores (``Scores.leader``).

    Returns
    -------
    Scores
        Dense float32 R (k × k) and, with ``leader``, the k × k leader table.

    Raises
    ------
    InvalidInputError
        An empty or malformed corpus.
    """
    params = params or ScoreParams()
    d = np.asarray(decks, dtype=np.int64)
    if d.ndim != 2 or d.shape[0] == 0 or d.shape[1] < 2:
        raise InvalidInputError(f"decks: need a non-empty (N, s >= 2) table, got {d.shape}")
    all_ids = np.unique(d)
    idx = np.searchsorted(all_ids, d)
    K, N = len(all_ids), d.shape[0]
    n, a, b, nab = pair_counts(idx, K)
    out_ids = tuple(int(x) for x in all_ids) if ids is None else tuple(int(x) for x in ids)
    # map corpus index -> output index (-1: not scored)
    to_out = np.full(K, -1, dtype=np.int64)
    pos = {pid: i for i, pid in enumerate(out_ids)}
    for ci, pid in enumerate(all_ids.tolist()):
        to_out[ci] = pos.get(pid, -1)
    k = len(out_ids)
    R = np.zeros((k, k), dtype=np.float32)
    val = _ppmi(nab, n[a], n[b], N, params).astype(np.float32)
    oa, ob = to_out[a], to_out[b]
    keep = (oa >= 0) & (ob >= 0)
    R[oa[keep], ob[keep]] = val[keep]
    R[ob[keep], oa[keep]] = val[keep]
    L = _leader_scores(idx, n, N, to_out, k, params) if leader else None
    return Scores(out_ids, R, L)


def _leader_scores(idx: npt.NDArray[np.int64], n: npt.NDArray[np.int64], N: int,
                   to_out: npt.NDArray[np.int64], k: int, params: ScoreParams
                   ) -> npt.NDArray[np.float32]:
    K = len(n)
    lead = idx[:, 0]
    n_lead = np.bincount(lead, minlength=K).astype(np.int64)
    rest = idx[:, 1:]
    keys, cnt = np.unique((np.repeat(lead, rest.shape[1]) * K + rest.ravel()),
                          return_counts=True)
    la, jb = keys // K, keys % K
    val = _ppmi(cnt.astype(np.int64), n_lead[la], n[jb], N, params).astype(np.float32)
    L = np.zeros((k, k), dtype=np.float32)
    ol, oj = to_out[la], to_out[jb]
    keep = (ol >= 0) & (oj >= 0)
    L[ol[keep], oj[keep]] = val[keep]
    return L
