"""Bounds are always valid: over random tight instances (the cost cap at or near the
cheapest deck), no method reports a bound below a deck any method found, and
:func:`upper_bound` is never below the brute-force optimum."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameopt.deck import METHODS, DeckProblem, deck_score, solve
from gameopt.deck.exact import upper_bound


@st.composite
def tight_problems(draw: st.DrawFn) -> DeckProblem:
    """n ≤ 14 pieces, a deck of 3..5, integer costs, the cap 0..2 above the cheapest
    deck; scores on a random scale (1e-3..1e4), sometimes negative, sometimes a leader."""
    n = draw(st.integers(8, 14))
    k = draw(st.integers(3, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scale = 10.0 ** draw(st.integers(-3, 4))
    R = rng.random((n, n)) - draw(st.sampled_from([0.0, 0.3]))
    R = ((R + R.T) / 2 * scale).astype(np.float32)
    cost = rng.integers(1, draw(st.integers(2, 12)), n).astype(np.int32)
    cap = int(np.sort(cost)[:k].sum()) + draw(st.integers(0, 2))
    leader = (rng.random(n) * scale).astype(np.float32) if draw(st.booleans()) else None
    return DeckProblem(R, k, cost=cost, cost_cap=cap, leader_scores=leader)


def _optimum(p: DeckProblem) -> float:
    assert p.cost is not None and p.cost_cap is not None
    return max(deck_score(p, d) for d in itertools.combinations(range(p.n), p.size)
               if int(p.cost[list(d)].sum()) <= p.cost_cap)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tight_problems())
def test_bounds_hold_over_every_deck_found(p: DeckProblem) -> None:
    best = _optimum(p)
    slack = 1e-9 * max(1.0, abs(best))
    assert upper_bound(p) >= best - slack
    results = [solve(p, m, seed=0) for m in METHODS]
    found = max(r.score for r in results)
    assert found <= best + slack
    for r in results:
        if r.bound is not None:
            assert r.bound >= best - slack, (r.method, r.bound, best)
            assert r.bound >= found - slack, (r.method, r.bound, found)


def test_cap_at_the_cheapest_deck_has_a_valid_bound() -> None:
    """The regression: the synthetic collection at cap 80 (its cheapest deck) gave
    -32768, float64 noise from a cost price of 2.8e18."""
    from gameopt.deck import Rules, to_problem
    from gameopt.deck.synth import synthetic_data

    pool, collection, scores = synthetic_data(0)
    p, _ = to_problem(pool, collection, Rules(cost_cap=80), scores)
    deck = np.argsort(p.cost, kind="stable")[:16]  # one deck at the cap: 16 pieces of 5
    assert int(p.cost[deck].sum()) == 80
    ub = upper_bound(p)
    assert deck_score(p, deck) <= ub < 60  # CP-SAT proves 43.67; the bound is 51.0
