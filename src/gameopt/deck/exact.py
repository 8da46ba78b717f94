"""Exact deck building: a compact CP-SAT model of the quadratic deck score, and a cheap bound.

The deck score ``Σ_{i<j∈D} R_ij + Σ_{i∈D} leader_i`` is quadratic in the 0/1 choice
variables ``x``. Instead of one product variable per pair (n²/2 of them), the model keeps
one integer per piece (Glover's compact linearisation): ``z_i`` is piece i's row sum
``Σ_j R⁺_ij x_j`` when ``x_i = 1`` and 0 otherwise, and ``u_i`` the same for the negative
part, so the model has 3n variables and O(n) constraints of length n.

References
----------
F. Glover, "Improved linear integer programming formulations of nonlinear integer
problems", Management Science 22(4), 1975 (the compact product linearisation);
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", EJOR 200(1), 2010 (per-item bounds from the largest row entries).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from gameopt.core.limit import Limit
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.core.stop import StopFlag
from gameopt.deck import _construct_kernel as construct_kernel
from gameopt.deck import _strength_kernel as strength_kernel
from gameopt.deck.build import fitting_pieces, restrict, start_deck
from gameopt.deck.constraints import add_rule_constraints, choice_variables
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.result import DeckResult
from gameopt.deck.verify import deck_problems
from gameopt.errors import InvalidInputError, SolverError
from gameopt.ip.cpsat import solve

__all__ = ["build_deck_model", "row_caps", "solve_exact", "upper_bound"]

_HALVINGS = 64  # at most this many evaluations of the priced bound on full rows
_LAMBDA_MAX = 1e6  # largest cost price tried, in units of a deck's score range per cost


def _top_row_sums(R: npt.NDArray[np.float64], k: int) -> npt.NDArray[np.float64]:
    """Sum of the ``k`` largest off-diagonal entries of each row (shape (n,)), by the
    selection kernel :func:`gameopt.deck._construct_kernel.top_row_sums` (one read of
    each row, most of it as block maxima; a partition of rows full of equal entries
    costs ten times as much); :func:`_top_row_sums_reference` is its numpy twin."""
    n = R.shape[0]
    if k <= 0:
        return np.zeros(n)
    if k > n - 1:
        return _top_row_sums_reference(R, k)
    R = np.ascontiguousarray(R, dtype=np.float64)
    return np.asarray(construct_kernel.top_row_sums(R, k, np.arange(n, dtype=np.int64)),
                      dtype=np.float64)


def _top_row_sums_reference(R: npt.NDArray[np.float64], k: int) -> npt.NDArray[np.float64]:
    """Sum of the ``k`` largest off-diagonal entries of each row by a numpy partition
    (the diagonal counted as -inf)."""
    n = R.shape[0]
    if k <= 0:
        return np.zeros(n)
    A = R.copy()
    np.fill_diagonal(A, -np.inf)
    part = np.partition(A, n - k, axis=1)[:, n - k:]
    return np.asarray(part.sum(axis=1), dtype=np.float64)


_ROW_BUDGET = 64  # largest spare cost per row solved exactly by :func:`row_caps`


def row_caps(R: npt.NDArray[np.float64], k: int, cost: npt.ArrayLike | None,
             cap: int | None) -> npt.NDArray[np.float64]:
    """For each piece i, the most ``Σ_{j∈D, j≠i} R⁺_ij`` can be over the decks D ∋ i of
    ``k`` pieces within the cost cap (shape (n,); ``R⁺ = max(R, 0)``).

    Without a cap this is the sum of the ``k-1`` largest entries of row i of ``R⁺``.
    With one, the ``k-1`` partners of i cost at least ``(k-1)·c_min`` (``c_min`` the
    cheapest other piece), so their *excess* costs ``c_j - c_min`` sum to at most
    ``B_i = cap - c_i - (k-1)·c_min``: a cardinality knapsack over the positive
    entries of the row, solved by dynamic programming over (partners, excess) when
    ``B_i ≤ 64`` (else the plain sum; a piece with ``B_i < 0`` fits no deck: 0). A
    partner set of fewer than ``k-1`` positive entries stands for every deck whose
    other partners score ≤ 0 with i, so the value bounds every deck.

    References
    ----------
    A. Caprara, D. Pisinger, P. Toth, "Exact solution of the quadratic knapsack
    problem", INFORMS Journal on Computing 11(2), 1999 (a knapsack per row of the
    profit matrix).
    """
    n = R.shape[0]
    Rp = np.maximum(R, 0.0)
    np.fill_diagonal(Rp, 0.0)
    plain = _top_row_sums(Rp, min(k - 1, n - 1))
    if cost is None or cap is None or k <= 1:
        return plain
    out = plain.copy()
    cost = np.asarray(cost, dtype=np.int64)
    order = np.argsort(cost, kind="stable")
    for i in range(n):
        c_min = int(cost[order[0]] if order[0] != i else cost[order[1]]) if n > 1 else 0
        budget = int(cap) - int(cost[i]) - (k - 1) * c_min
        if budget < 0:
            out[i] = 0.0
            continue
        if budget > _ROW_BUDGET:
            continue
        js = np.flatnonzero(Rp[i] > 0)
        excess = cost[js] - c_min
        keep = excess <= budget
        js, excess = js[keep], excess[keep]
        # best[c, w]: the most c partners of total excess w can add
        best = np.full((k, budget + 1), -np.inf)
        best[0, 0] = 0.0
        for j, e in zip(js.tolist(), excess.tolist(), strict=True):
            gain = Rp[i, j]
            for c in range(k - 1, 0, -1):
                take = best[c - 1, : budget + 1 - e] + gain
                np.maximum(best[c, e:], take, out=best[c, e:])
        out[i] = min(plain[i], float(best.max()))
    return out


def upper_bound(problem: DeckProblem) -> float:
    """A cheap valid upper bound on the score of every feasible deck.

    Each piece i in a deck contributes ``½ Σ_{j∈D} R_ij + leader_i`` ≤
    ``b_i = ½ M_i + leader_i`` with ``M_i`` the sum of the ``size-1`` largest entries of
    row i. The bound is Σ of ``b`` over the must-include pieces plus the ``size - |must|``
    largest ``b`` among the others. With a binding cost cap, also the same bound with
    the cap priced at λ (Lagrangian relaxation): for a deck of size k,
    ``score - λ·(cost - cap) = λ·cap + Σ_i [leader_i + ½ Σ_{j≠i} (R_ij - λ(c_i + c_j)/(k-1))]``,
    so with ``b_i(λ) = leader_i + ½·(top_{k-1}(R_ij - λ c_j/(k-1)) - λ c_i)`` the value
    ``λ·cap + Σ_must b(λ) + (top k-|must| others of b(λ))`` bounds every deck for every
    λ ≥ 0; λ starts at the price at which the relaxed solution on partner lists meets
    the cap (:func:`gameopt.deck._strength_kernel.cap_price`) and is halved while the
    bound on full rows falls. λ is capped where one unit of cost over the cap outweighs a
    million times any deck's score range, and each priced value carries a rigorous
    allowance for float64 rounding (:func:`_rounding`), so the result is valid however
    tight the cap, down to the cheapest deck. The smaller of the two bounds is returned.
    Character limits and the attribute minimum are not used.

    Parameters
    ----------
    problem : DeckProblem

    Returns
    -------
    float

    Notes
    -----
    O(n²) time and memory per evaluation (one partition per row; with a binding cap a
    few more, one per halving).

    References
    ----------
    R. Martí, M. Gallego, A. Duarte, EJOR 200(1), 2010 (per-item bounds); M. L. Fisher,
    Management Science 27(1), 1981 (Lagrangian relaxation).
    """
    L = None if problem.leader_scores is None else problem.leader_scores.astype(np.float64)
    plain = _bound(problem.R.astype(np.float64), L, problem.size, problem.must)
    return min(plain, _priced_bound(problem))


def _priced_bound(p: DeckProblem) -> float:
    """The Lagrangian bound of :func:`upper_bound` (inf without a binding cap)."""
    k, n = p.size, p.n
    if p.cost is None or p.cost_cap is None or k <= 1 or n <= k:
        return float(np.inf)
    cost = p.cost.astype(np.int64)
    leader = np.zeros(n) if p.leader_scores is None else p.leader_scores.astype(np.float64)
    is_must = np.zeros(n, dtype=np.int64)
    is_must[list(p.must)] = 1
    V, J = strength_kernel.top_partners(p.R, min(n - 1, 2 * (k - 1)))
    cap = int(p.cost_cap)
    lam = strength_kernel.cap_price(V, J, cost, leader, k, cap, is_must, 30)
    must = is_must.astype(bool)
    R = p.R.astype(np.float64)
    r_max = float(np.abs(R).max())
    l_max = float(np.abs(leader).max(initial=0.0))
    # cap_price doubles its bracket up to 2⁶⁰ times when the partner lists never reach
    # the cap (a cap at the cheapest deck): λ·cap then dwarfs the scores and float64
    # cancellation leaves noise (λ = 2.8e18 gave -32768). Past this price one unit of
    # cost over the cap outweighs a million times any deck's score range, so larger
    # prices tighten nothing; every evaluation also adds its own rounding allowance.
    lam = min(lam, _LAMBDA_MAX * (1.0 + (k - 1) * r_max + l_max)
              / max(1.0, float(cost.min())))
    c_max = float(cost.max())

    def priced(lam: float) -> float:
        A = R - (lam / (k - 1)) * cost[None, :]
        b = leader + 0.5 * (_top_row_sums(A, k - 1) - lam * cost)
        rest = np.sort(b[~must])[::-1][: k - int(must.sum())]
        value = float(lam * cap + b[must].sum() + rest.sum())
        return value + _rounding(lam * cap + k * l_max + 0.5 * k * (k - 1) * r_max
                                 + k * lam * c_max, k)

    # The price comes from partner lists, which miss cheap partners and so overprice:
    # halve it while the (convex) bound on full rows keeps falling. Every value is valid.
    best = np.inf
    for _ in range(_HALVINGS):
        if lam <= 0.0:
            break
        value = priced(lam)
        if value >= best:
            break
        best = value
        lam *= 0.5
    return float(best)


def _rounding(magnitude: float, k: int) -> float:
    """A rigorous allowance for float64 rounding in one bound evaluation.

    ``magnitude`` bounds Σ|terms| of the evaluation (λ·cap, the leader scores, the
    priced row sums); each term goes through at most ``2k + 8`` roundings (the price,
    the row sum of k-1 entries, the sum of k strengths), each off by at most one unit
    in the last place, 2⁻⁵³ relative. Twice that is allowed.
    """
    return 2.0 * (2 * k + 8) * 2.0**-53 * magnitude


def _bound(R: npt.NDArray[np.float64], L: npt.NDArray[np.float64] | None, size: int,
           must: Sequence[int]) -> float:
    """Σ over the best ``size`` pieces (must-include first) of ``½ M_i + L_i``."""
    b = 0.5 * _top_row_sums(R, size - 1)
    if L is not None:
        b += L
    is_must = np.zeros(R.shape[0], dtype=bool)
    is_must[list(must)] = True
    rest = np.sort(b[~is_must])[::-1][: size - int(is_must.sum())]
    return float(b[is_must].sum() + rest.sum())


def _scaled(problem: DeckProblem, scale: int) -> tuple[npt.NDArray[np.int64],
                                                       npt.NDArray[np.int64], float]:
    """Integer scores ``round(scale·R)`` and ``round(scale·leader)`` and the rounding slack.

    The slack is the most by which the float score of any deck can exceed its integer
    score divided by ``scale``: (pairs) · max rounding error of R + size · that of the
    leader scores.
    """
    R = problem.R.astype(np.float64)
    for i, j in problem.forbidden_pairs:  # a constraint in the model, not a penalty
        R[i, j] = R[j, i] = 0.0
    Ri = np.rint(R * scale).astype(np.int64)
    np.fill_diagonal(Ri, 0)
    err_r = max(float((R - Ri / scale).max()), 0.0)
    if problem.leader_scores is None:
        Li = np.zeros(problem.n, dtype=np.int64)
        err_l = 0.0
    else:
        L = problem.leader_scores.astype(np.float64)
        Li = np.rint(L * scale).astype(np.int64)
        err_l = max(float((L - Li / scale).max()), 0.0)
    k = problem.size
    return Ri, Li, k * (k - 1) / 2 * err_r + k * err_l


def build_deck_model(problem: DeckProblem, scale: int = 1000, *,
                     lower: int | None = None, upper: int | None = None,
                     hint: Sequence[int] | None = None
                     ) -> tuple[cp_model.CpModel, list[cp_model.IntVar],
                                list[cp_model.IntVar]]:
    """The deck problem as a CP-SAT model with a compact linearisation.

    Parameters
    ----------
    problem : DeckProblem
    scale : int
        Scores are rounded to integers ``round(scale·R_ij)`` (and the leader's likewise).
        The objective is twice the scaled score (each pair counted from both ends).
    lower, upper : int, optional
        Known bounds on the (doubled, scaled) objective, added as cuts; ``lower`` must be
        the objective of a feasible deck, ``upper`` a valid bound.
    hint : sequence of int, optional
        A deck given to CP-SAT as a complete hint: every variable (``x``, ``z``, ``u``,
        ``y``) at its value for that deck, so the first solution is the hint itself (a
        hint of ``x`` alone left CP-SAT without a solution for minutes under a tight
        cap and a ``lower`` cut).

    Returns
    -------
    model : cp_model.CpModel
    x : list of BoolVar, length n
        ``x[i]`` is 1 when piece i is in the deck.
    y : list of IntVar, length n
        ``y[i] = z_i - u_i``: piece i's scaled row sum over the deck when chosen, else 0.

    Notes
    -----
    With ``R⁺ = max(R, 0)`` and ``R⁻ = max(-R, 0)``: ``z_i ≤ Σ_j R⁺_ij x_j``,
    ``z_i ≤ M⁺_i x_i`` (``M⁺_i`` the sum of the size-1 largest entries of row i of R⁺,
    the tightest per-piece constant), and ``u_i ≥ Σ_j R⁻_ij x_j - M⁻_i (1 - x_i)``,
    ``u_i ≥ 0``; under a cost cap ``M⁺_i`` is the knapsack-aware :func:`row_caps` (the
    partners of i must fit the cap beside it). Maximising ``Σ z - Σ u`` makes every
    ``z_i``, ``u_i`` exact at an optimum. 3n variables, 2n+O(1) rows of length ≤ n.
    """
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise InvalidInputError(f"build_deck_model: scale must be a positive integer, "
                                f"got {scale!r}")
    n, k = problem.n, problem.size
    Ri, Li, _ = _scaled(problem, scale)
    Rp, Rm = np.maximum(Ri, 0), np.maximum(-Ri, 0)
    # z_i's big-M: the knapsack-aware row cap (the partners must fit the cost cap too)
    Mp = np.rint(row_caps(Rp.astype(np.float64), k, problem.cost,
                          problem.cost_cap)).astype(np.int64)
    Mm = np.rint(_top_row_sums(Rm.astype(np.float64), k - 1)).astype(np.int64)
    # With x_i = 0 the deck holds k other pieces, so Σ_j R⁻_ij x_j can reach the top k
    # of the row, not only the top k - 1: the big-M that frees u_i must be that larger sum
    Mk = np.rint(_top_row_sums(Rm.astype(np.float64), min(k, n - 1))).astype(np.int64)
    model = cp_model.CpModel()
    model.name = "deck"
    x = choice_variables(model, problem)
    z = [model.new_int_var(0, int(Mp[i]), f"z{i}") for i in range(n)]
    u = [model.new_int_var(0, int(Mm[i]), f"u{i}") for i in range(n)]
    # The rules: size, must-include, cost cap, per-character limit, attribute minimum
    add_rule_constraints(model, problem, x)
    # Linearisation of the positive part: z_i = x_i · Σ_j R⁺_ij x_j at an optimum
    for i in range(n):
        row = np.flatnonzero(Rp[i])
        model.add(z[i] <= sum(int(Rp[i, j]) * x[int(j)] for j in row))
        model.add(z[i] <= int(Mp[i]) * x[i])
    # Linearisation of the negative part: u_i ≥ x_i · Σ_j R⁻_ij x_j
    for i in range(n):
        row = np.flatnonzero(Rm[i])
        if len(row):
            model.add(u[i] >= sum(int(Rm[i, j]) * x[int(j)] for j in row)
                      - int(Mk[i]) * (1 - x[i]))
        else:
            model.add(u[i] == 0)
    y = []
    for i in range(n):
        yi = model.new_int_var(-int(Mm[i]), int(Mp[i]), f"y{i}")
        model.add(yi == z[i] - u[i])
        y.append(yi)
    if hint is not None:
        chosen = np.zeros(n, dtype=bool)
        chosen[list(hint)] = True
        zh = np.where(chosen, Rp[:, chosen].sum(axis=1), 0)
        uh = np.where(chosen, Rm[:, chosen].sum(axis=1), 0)
        for i in range(n):
            model.add_hint(x[i], bool(chosen[i]))
            model.add_hint(z[i], int(zh[i]))
            model.add_hint(u[i], int(uh[i]))
            model.add_hint(y[i], int(zh[i] - uh[i]))
    # Objective: 2 × scaled score
    objective = sum(z) - sum(u) + sum(2 * int(Li[i]) * x[i] for i in range(n) if Li[i])
    # Bound cuts: per-item bounds (all chosen pieces' z sum to at most the k largest M⁺)
    model.add(sum(z) <= int(np.sort(Mp)[::-1][:k].sum()))
    if upper is not None:
        model.add(objective <= upper)
    if lower is not None:
        model.add(objective >= lower)
    model.maximize(objective)
    return model, x, y


class _OnSolution(cp_model.CpSolverSolutionCallback):
    """At each CP-SAT solution: report its score and the bound (unscaled), and stop the
    search when the stop flag is set."""

    def __init__(self, progress: ProgressCallback | None, stop: StopFlag | None,
                 scale: int) -> None:
        super().__init__()
        self._progress, self._stop, self._scale, self._count = progress, stop, scale, 0

    def on_solution_callback(self) -> None:
        self._count += 1
        if self._progress is not None:
            unit = 2.0 * self._scale
            self._progress(Progress("exact", self._count, None, self.objective_value / unit,
                                    {"bound": round(self.best_objective_bound / unit, 3)}))
        if self._stop is not None and self._stop.is_set():
            self.stop_search()


def solve_exact(problem: DeckProblem, *, limit: Limit | None = None, workers: int = 2,
                hint: Sequence[int] | None = None, scale: int = 1000,
                seed: int | None = 0, progress: ProgressCallback | None = None
                ) -> DeckResult:
    """Best deck by CP-SAT, with a proof of optimality or a valid gap.

    Parameters
    ----------
    problem : DeckProblem
    limit : Limit, optional
        ``time``: wall seconds for CP-SAT (its time limit is wall time: a CPU clock is
        refused); the VDS hint, the cheap bound and the model's construction (O(n²)) come
        before it and are not counted in it, though ``seconds`` includes them. No time:
        until proven. ``stop``: stops CP-SAT at once (polled from a thread).
    workers : int
        CP-SAT search workers.
    hint : sequence of int, optional
        A feasible deck; default: a VDS deck (seed 0, 10 restarts). It is the solver's
        hint and the incumbent: the model keeps only decks at least as good (integer
        objective).
    scale : int
        Integer units per unit of score (see :func:`build_deck_model`).
    seed : int or None
        CP-SAT random seed.
    progress : ProgressCallback, optional
        Told at each CP-SAT solution (task ``"exact"``; done: solutions; best: score;
        info: the bound).

    Returns
    -------
    DeckResult
        ``seconds`` in wall time, the hint included (``stats["hint_seconds"]``). The
        score is recomputed in float from the deck; ``bound`` is CP-SAT's bound divided
        by ``2·scale`` plus the rounding slack (the most any deck's float score can
        exceed its rounded one), capped by :func:`upper_bound`. ``proven`` when CP-SAT
        proved the deck optimal for the integer (scaled) objective: with scores that are
        multiples of ``1/scale`` this is the float optimum; otherwise the float optimum
        lies in ``[score, bound]``.

    Raises
    ------
    InfeasibleError
        When no deck keeps the rules (from VDS's checks or proved by CP-SAT).
    InvalidInputError
        A hint that breaks the rules, or a CPU time limit.
    """
    limit = limit if limit is not None else Limit()
    if limit.time is not None and limit.clock != "wall":
        raise InvalidInputError("solve_exact: CP-SAT's time limit is wall time, "
                                "got a CPU time limit")
    t0 = time.perf_counter()
    deck0 = start_deck(problem, hint, seed=0, restarts=10, where="solve_exact")
    hint_seconds = time.perf_counter() - t0
    # Under a cost cap only the pieces that fit some deck can be chosen (the hint's do):
    # the model is built on them alone
    keep = fitting_pieces(problem)
    full = problem
    if len(keep) < problem.n:
        problem = restrict(problem, keep)
        at = {int(u): i for i, u in enumerate(keep)}
        deck0 = [at[int(i)] for i in deck0]
    Ri, Li, slack = _scaled(problem, scale)
    cheap = upper_bound(problem)
    # The same bound on the integer scores, doubled: a cut on the model's objective
    upper = int(np.floor(2 * _bound(Ri.astype(np.float64), Li.astype(np.float64),
                                    problem.size, problem.must) + 1e-6))
    d = np.asarray(deck0)
    lower = int(Ri[np.ix_(d, d)].sum() + 2 * Li[d].sum())
    model, x, _ = build_deck_model(problem, scale, lower=lower, upper=upper, hint=deck0)
    # the stop flag stops CP-SAT at once, from its own thread, not at the next solution
    res = solve(model, limit=Limit(time=limit.time, clock="wall", stop=limit.stop),
                workers=workers, seed=seed,
                require_solution=False,
                callback=(None if progress is None and limit.stop is None
                          else _OnSolution(progress, limit.stop, scale)))
    if res.has_solution:
        deck = sorted(i for i, xi in enumerate(x) if res.value(xi))
    else:
        deck = sorted(deck0)
    if problem is not full:
        deck = sorted(int(keep[i]) for i in deck)
        problem = full
    bad = deck_problems(problem, deck)
    if bad:
        raise SolverError("solve_exact: CP-SAT deck breaks the rules: " + "; ".join(bad))
    score = deck_score(problem, deck)
    bound = cheap
    # CP-SAT's objective bound means something only once it has a status: stopped with
    # none ("unknown", no solution yet) it printed the hint's score as the bound
    if res.bound is not None and res.status in ("optimal", "feasible"):
        bound = min(bound, res.bound / (2 * scale) + slack)
    bound = max(bound, score)  # float noise only: both are valid, the deck is feasible
    cost = 0 if problem.cost is None else int(problem.cost[deck].sum())
    stats: dict[str, Any] = {"hint_seconds": hint_seconds, "status": res.status}
    return DeckResult(tuple(deck), score, cost, "exact", time.perf_counter() - t0, "wall",
                      res.status == "optimal", bound, stats)
