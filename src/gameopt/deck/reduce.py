"""A quadratic-knapsack upper bound for decks under a tight cost cap, and the pieces it rules out.

For a deck D of ``k`` pieces within the cap, with ``R⁺ = max(R, 0)`` and any split
``A_ij + A_ji = R⁺_ij`` of each positive pair score between its two rows,

    score(D) ≤ Σ_{i∈D} L_i + Σ_{i<j∈D} R⁺_ij = Σ_{i∈D} (L_i + Σ_{j∈D, j≠i} A_ij).

Row i's sum is at most ``val_i``: the best ``Σ_{j∈P} A_ij`` over partner sets P of at
most ``k - 1`` partners with ``A_ij > 0`` whose *excess* costs ``e_j = c_j - c_min``
sum to at most ``B - e_i``, ``B = cap - k·c_min`` (D's other ``k - 1`` pieces are such a
set, and the positive ones among them too). So ``score(D) ≤ Σ_{i∈D} v_i`` with
``v_i = L_i + val_i``, and the best ``Σ_D v`` over sets D of k pieces with
``Σ_D e ≤ B`` (a cardinality knapsack) bounds every deck; with piece i forced into D it
bounds every deck holding i. Each row and the outer choice are knapsacks solved exactly
by dynamic programming over the excess cost, which is small under a tight cap.

The split is the Lagrangian multiplier of the relaxed constraint "j is in i's partner set
exactly when i is in j's" (Caprara, Pisinger & Toth's upper planes): starting from the
halves, a subgradient method (Polyak's step towards the incumbent's score) moves share
from the row that uses a pair to the one that does not. A piece whose forced-in bound is
below the incumbent is in no better deck and is dropped; the rows then shrink and the
bound falls, so this repeats while pieces go. Character limits, the attribute minimum,
the must-include pieces and negative scores are relaxed, so every value is valid.

References
----------
A. Caprara, D. Pisinger, P. Toth, "Exact solution of the quadratic knapsack problem",
INFORMS Journal on Computing 11(2), 1999 (a knapsack per row, the Lagrangian split of
the pair profits, reduction by the items' own bounds).
D. Pisinger, "The quadratic knapsack problem — a survey", Discrete Applied Mathematics
155(5), 2007.
B. T. Polyak, "Minimization of unsmooth functionals", USSR Computational Mathematics and
Mathematical Physics 9(3), 1969 (the step size).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.deck import _qkp_kernel as kernel
from gameopt.deck.problem import DeckProblem

__all__ = ["Reduction", "MAX_EXCESS", "reduce_pieces", "excess_budget"]

#: Largest spare excess cost ``cap - k·c_min`` handled (the tables grow with it).
MAX_EXCESS = 32
_FIRST = 150  # subgradient steps of the first round
_MORE = 60  # steps of each later round (the split carries over)
_ROUNDS = 40  # rounds of dropping at most
_SHRINK = 0.6  # step factor after ``_PATIENCE`` steps without a better bound
_PATIENCE = 25


@dataclass(frozen=True)
class Reduction:
    """What :func:`reduce_pieces` found.

    Attributes
    ----------
    keep : ndarray of int64
        Ascending: the pieces that may be in a deck better than the incumbent, plus the
        incumbent's and the must-include pieces.
    bound : float
        No deck of the problem scores more (with the rounding allowance).
    steps : int
        Subgradient steps done (each one solves every row's knapsack).
    """

    keep: npt.NDArray[np.int64]
    bound: float
    steps: int


def excess_budget(problem: DeckProblem) -> int | None:
    """``cap - k·c_min``, the excess cost a deck can spend; None without a cap."""
    p = problem
    if p.cost is None or p.cost_cap is None or p.n == 0:
        return None
    return int(p.cost_cap) - p.size * int(p.cost.min())


class _Pairs:
    """The positive pair scores in compressed rows with each entry's twin."""

    def __init__(self, p: DeckProblem) -> None:
        R = p.R.astype(np.float64)
        n = p.n
        mask = R > 0.0
        np.fill_diagonal(mask, False)
        rr, cc = np.nonzero(mask)  # row-major: sorted by (row, column)
        self.indptr = np.searchsorted(rr, np.arange(n + 1)).astype(np.int64)
        self.nbr = cc.astype(np.int64)
        self.twin = np.searchsorted(rr * n + cc, cc * n + rr).astype(np.int64)
        self.half = 0.5 * R[rr, cc]
        self.row = rr.astype(np.int64)
        self.max_len = int(np.diff(self.indptr).max(initial=0))

    def split(self, mu: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Row shares ``half + mu`` (``mu`` antisymmetric: ``mu[twin] == -mu``)."""
        return self.half + mu


def _allowance(p: DeckProblem, A: npt.NDArray[np.float64], value: float) -> float:
    """A generous allowance for float64 rounding in one bound: the sums hold at most
    k² shares and k leader scores, each rounded a few times."""
    big = float(np.abs(A).max(initial=0.0))
    lead = 0.0 if p.leader_scores is None else float(np.abs(p.leader_scores).max())
    k = p.size
    return 64.0 * 2.0**-52 * (k * k * big + k * lead + abs(value)) * (k + 4)


def reduce_pieces(problem: DeckProblem, deck: Sequence[int], score: float, *,
                  stop: Callable[[], bool] | None = None) -> Reduction | None:
    """Drop the pieces in no deck scoring more than ``score`` (see the module docstring).

    Parameters
    ----------
    problem : DeckProblem
    deck : sequence of int
        A deck keeping the rules, scoring ``score`` (kept, with the must-include pieces).
    score : float
        The incumbent's score: a piece is dropped when its forced-in bound is below it by
        more than ``1e-9·max(1, |score|)`` and the rounding allowance.
    stop : callable, optional
        Polled between subgradient steps: True ends the reduction with what it has (every
        intermediate result is valid).

    Returns
    -------
    Reduction or None
        None when there is no cap, or its spare excess cost is above ``MAX_EXCESS``
        (the tables would be large and the bound weak).

    Notes
    -----
    A step costs O(Σ_i |row i| · k · B) for the rows and O(n · k · B) for the outer
    knapsack, ``B`` the spare excess cost; memory O(n · k · B + nnz(R⁺)).
    """
    p = problem
    B = excess_budget(p)
    if B is None or B < 0 or B > MAX_EXCESS or p.cost is None:
        return None
    n, k = p.n, p.size
    e = (p.cost.astype(np.int64) - int(p.cost.min())).astype(np.int64)
    L = np.zeros(n) if p.leader_scores is None else p.leader_scores.astype(np.float64)
    pairs = _Pairs(p)
    mu = np.zeros(len(pairs.half))
    alive = np.ones(n, dtype=np.int64)
    protect = np.zeros(n, dtype=bool)
    protect[list(deck)] = True
    protect[list(p.must)] = True
    val = np.empty(n)
    pick = np.zeros(len(pairs.half), dtype=np.int64)
    X = np.zeros(n, dtype=np.int64)
    forced = np.empty(n)
    table = np.empty((pairs.max_len + 1, max(k, 1), B + 1))
    tol = 1e-9 * max(1.0, abs(score))
    best_bound = np.inf
    steps = 0
    best_mu = mu
    for rnd in range(_ROUNDS):
        step, since = 1.0, 0
        round_best = np.inf
        for _ in range(_FIRST if rnd == 0 else _MORE):
            if stop is not None and stop():
                break
            A = pairs.split(mu)
            kernel.rows(pairs.indptr, pairs.nbr, A, e, alive, k, B, val, pick, table)
            v = L + val
            b = kernel.outer(v, e, k, B, X)
            steps += 1
            b_ok = b + _allowance(p, A, b)
            best_bound = min(best_bound, b_ok)
            if b_ok < round_best:
                round_best, best_mu, since = b_ok, mu, 0
            else:
                since += 1
                if since >= _PATIENCE:
                    step, since = step * _SHRINK, 0
            if b <= score:  # nothing better exists: every piece but the kept goes
                break
            used = pick * X[pairs.row]  # i's row uses pair (i, j), i in the chosen D
            grad = (used - used[pairs.twin]).astype(np.float64)
            norm = float((grad != 0).sum())
            if norm == 0.0:
                break
            mu = mu - (step * (b - score) / norm) * grad  # grad antisymmetric: so is mu
        A = pairs.split(best_mu)
        kernel.rows(pairs.indptr, pairs.nbr, A, e, alive, k, B, val, pick, table)
        kernel.forced_in(L + val, e, k, B, forced)
        slack = tol + _allowance(p, A, float(np.abs(forced[forced > -np.inf]).max(initial=0)))
        drop = (alive == 1) & ~protect & (forced < score - slack)
        mu = best_mu
        if not drop.any() or (stop is not None and stop()):
            break
        alive[drop] = 0
    return Reduction(np.flatnonzero(alive).astype(np.int64), float(best_bound), steps)


def _rows_reference(p: DeckProblem, A: dict[tuple[int, int], float], alive: Sequence[bool],
                    B: int) -> list[float]:
    """Plain-Python :func:`gameopt.deck._qkp_kernel.rows` by enumeration of the partner
    sets (tiny problems only): ``A[(i, j)]`` the row shares."""
    assert p.cost is not None
    e = [int(c) - int(p.cost.min()) for c in p.cost]
    out = []
    for i in range(p.n):
        if not alive[i] or e[i] > B:
            out.append(-np.inf)
            continue
        cand = [j for j in range(p.n) if j != i and alive[j] and (i, j) in A and A[(i, j)] > 0]
        best = 0.0
        for r in range(1, min(p.size - 1, len(cand)) + 1):
            for P in itertools.combinations(cand, r):
                if sum(e[j] for j in P) <= B - e[i]:
                    best = max(best, sum(A[(i, j)] for j in P))
        out.append(best)
    return out


def _outer_reference(v: Sequence[float], e: Sequence[int], k: int, B: int,
                     forced: int | None = None) -> float:
    """Plain-Python :func:`gameopt.deck._qkp_kernel.outer` by enumeration (with piece
    ``forced`` in every set: :func:`~gameopt.deck._qkp_kernel.forced_in`)."""
    best = -np.inf
    for D in itertools.combinations(range(len(v)), k):
        if forced is not None and forced not in D:
            continue
        if sum(e[i] for i in D) <= B and all(v[i] > -np.inf for i in D):
            best = max(best, sum(v[i] for i in D))
    return best
