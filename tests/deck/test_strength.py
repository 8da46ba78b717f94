"""Rules-aware seed strength: the numba kernels against plain numpy, and the failure mode
it fixes (a tight cap that makes the strongest partners the wrong archetype)."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit
from gameopt.deck import _strength_kernel as strength_kernel
from gameopt.deck.bnb import solve_bnb
from gameopt.deck.build import _Arrays, _seed_order, _seeded_starts, build_deck
from gameopt.deck.problem import DeckProblem, deck_score


def _sym(rng: np.random.Generator, n: int) -> np.ndarray:
    U = rng.random((n, n)).astype(np.float32)
    return (U + U.T) / 2


def _strengths_reference(R: np.ndarray, cost: np.ndarray, leader: np.ndarray, kk: int,
                         lam: float, k: int) -> np.ndarray:
    """``b_i(λ)`` on full rows, plain numpy."""
    A = R.astype(np.float64) - lam * cost[None, :] / (k - 1)
    np.fill_diagonal(A, -np.inf)
    top = -np.sort(-A, axis=1)[:, :kk].sum(axis=1)
    return leader + 0.5 * (top - lam * cost * kk / (k - 1))


@pytest.mark.parametrize(("n", "L"), [(40, 6), (40, 39), (600, 30), (611, 14)])
def test_top_partners_equal_sort(n: int, L: int) -> None:
    R = _sym(np.random.default_rng(n + L), n)
    V, J = strength_kernel.top_partners(R, L)
    A = R.astype(np.float64)
    np.fill_diagonal(A, -np.inf)
    np.testing.assert_array_equal(V, -np.sort(-A, axis=1)[:, :L])
    np.testing.assert_array_equal(np.take_along_axis(A, J, axis=1), V)  # columns match
    assert (J != np.arange(n)[:, None]).all()


@pytest.mark.parametrize("seed", range(6))
def test_strengths_on_full_rows_equal_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = 30, 6
    R = _sym(rng, n)
    cost = rng.integers(1, 12, n).astype(np.int64)
    leader = rng.random(n)
    V, J = strength_kernel.top_partners(R, n - 1)
    for lam in (0.0, 0.3, 2.0):
        b, _ = strength_kernel.strengths(V, J, cost, leader, k - 1, lam, k)
        np.testing.assert_allclose(b, _strengths_reference(R, cost, leader, k - 1, lam, k),
                                   atol=1e-9)


def _relaxed_cost(R: np.ndarray, cost: np.ndarray, leader: np.ndarray, k: int,
                  lam: float) -> float:
    """Relaxed solution's cost (no must-include pieces), plain numpy."""
    A = R.astype(np.float64) - lam * cost[None, :] / (k - 1)
    np.fill_diagonal(A, -np.inf)
    part = np.argsort(-A, axis=1, kind="stable")[:, : k - 1]
    b = leader + 0.5 * (np.take_along_axis(A, part, 1).sum(1) - lam * cost)
    chosen = np.argsort(-b, kind="stable")[:k]
    return float(0.5 * (cost[chosen] + cost[part[chosen]].sum(1) / (k - 1)).sum())


@pytest.mark.parametrize("seed", range(6))
def test_cap_price_meets_the_cap(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = 40, 6
    R = _sym(rng, n)
    cost = rng.integers(1, 15, n).astype(np.int64)
    leader = np.zeros(n)
    V, J = strength_kernel.top_partners(R, n - 1)
    cap = int(np.sort(cost)[:k].sum()) + 8
    lam = strength_kernel.cap_price(V, J, cost, leader, k, cap, np.zeros(n, np.int64), 30)
    assert _relaxed_cost(R, cost, leader, k, 0.0) > cap  # binding here
    assert lam > 0
    assert _relaxed_cost(R, cost, leader, k, lam) <= cap
    assert _relaxed_cost(R, cost, leader, k, lam * (1 - 1e-3)) > cap  # the least such
    loose = int(cost.sum())
    assert strength_kernel.cap_price(V, J, cost, leader, k, loose, np.zeros(n, np.int64), 30) == 0.0


def _cheap_archetype_problem() -> DeckProblem:
    """Four expensive archetypes (cost 9, pair score 1.0) and one cheap one (cost 3, pair
    score 0.7), six pieces each, with weak noise elsewhere; two must-include fillers
    (cost 2) tied to nothing. Under the cap only the cheap archetype fits a deck."""
    rng = np.random.default_rng(0)
    n_arch, per = 5, 6
    n = n_arch * per + 6
    R = (0.05 * _sym(rng, n)).astype(np.float32)
    cost = np.full(n, 2, dtype=np.int64)
    for a in range(n_arch):
        sl = slice(a * per, (a + 1) * per)
        R[sl, sl] = 1.0 if a < 4 else 0.7
        cost[sl] = 9 if a < 4 else 3
    np.fill_diagonal(R, 0)
    must = (n - 1, n - 2)
    R[list(must), :] = 0
    R[:, list(must)] = 0
    return DeckProblem(R, 5, cost=cost, cost_cap=17, must=must)


def test_priced_seeds_reach_the_cheap_archetype() -> None:
    p = _cheap_archetype_problem()
    a = _Arrays(p)
    cheap = set(range(24, 30))
    # Unpriced strength (partner sums) ranks every expensive piece first ...
    V, J = strength_kernel.top_partners(p.R, p.n - 1)
    b0, _ = strength_kernel.strengths(V, J, a.cost, a.leader, p.size - 1, 0.0, p.size)
    assert not cheap & set(np.argsort(-b0, kind="stable")[:24].tolist())
    # ... the price of the cap puts the cheap archetype first, and its seeded deck is
    # the optimum proved by branch and bound
    assert int(_seed_order(p, a)[0]) in cheap
    first = next(_seeded_starts(p, a, 1))
    exact = solve_bnb(p, limit=Limit(time=30.0, clock="cpu"))
    assert exact.proven
    assert deck_score(p, first) == pytest.approx(exact.score)
    r = build_deck(p, "vds", seed=0, restarts=2, seeds=1)
    assert r.score == pytest.approx(exact.score)
