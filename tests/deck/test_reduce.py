"""The quadratic-knapsack bound and reduction (:mod:`gameopt.deck.reduce`): the kernels
against plain-Python enumeration, the bound against the brute-force optimum over random
tight instances, and no piece of a better deck ever dropped."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameopt.deck import DeckProblem, Rules, deck_score, solve, to_problem
from gameopt.deck import _qkp_kernel as kernel
from gameopt.deck.bnb import solve_bnb
from gameopt.deck.reduce import (
    MAX_EXCESS,
    _outer_reference,
    _Pairs,
    _rows_reference,
    excess_budget,
    reduce_pieces,
)


def _problem(seed: int, n: int, k: int, spare: int, sparse: float = 0.5,
             leader: bool = False) -> DeckProblem:
    rng = np.random.default_rng(seed)
    R = rng.random((n, n)) * (rng.random((n, n)) < sparse) - 0.1 * (rng.random((n, n)) < 0.2)
    R = ((R + R.T) / 2).astype(np.float32)
    cost = (3 + (rng.random(n) < 0.6) * rng.integers(1, 5, n)).astype(np.int32)
    cap = int(np.sort(cost)[:k].sum()) + spare
    lead = (rng.random(n) - 0.3).astype(np.float32) if leader else None
    return DeckProblem(R, k, cost=cost, cost_cap=cap, leader_scores=lead)


def _decks(p: DeckProblem) -> list[tuple[int, ...]]:
    assert p.cost is not None and p.cost_cap is not None
    return [d for d in itertools.combinations(range(p.n), p.size)
            if int(p.cost[list(d)].sum()) <= p.cost_cap]


@pytest.mark.parametrize("seed", range(6))
def test_kernels_match_enumeration(seed: int) -> None:
    p = _problem(seed, 9, 4, seed % 4, leader=seed % 2 == 1)
    B = excess_budget(p)
    assert B is not None and p.cost is not None
    pairs = _Pairs(p)
    rng = np.random.default_rng(seed)
    mu = np.zeros(len(pairs.half))
    for t in range(len(mu)):  # an antisymmetric split
        if t < pairs.twin[t]:
            mu[t] = rng.normal() * 0.3
            mu[pairs.twin[t]] = -mu[t]
    A = pairs.split(mu)
    alive = (rng.random(p.n) < 0.85).astype(np.int64)
    e = (p.cost - p.cost.min()).astype(np.int64)
    val = np.empty(p.n)
    pick = np.zeros(len(A), dtype=np.int64)
    table = np.empty((pairs.max_len + 1, p.size, B + 1))
    kernel.rows(pairs.indptr, pairs.nbr, A, e, alive, p.size, B, val, pick, table)
    shares = {(int(pairs.row[t]), int(pairs.nbr[t])): float(A[t]) for t in range(len(A))}
    ref = _rows_reference(p, shares, alive.astype(bool).tolist(), B)
    np.testing.assert_allclose(val, ref, rtol=1e-12, atol=1e-12)
    for i in range(p.n):  # the picked set achieves the value and keeps the limits
        if val[i] > -np.inf:
            ts = [t for t in range(pairs.indptr[i], pairs.indptr[i + 1]) if pick[t]]
            assert len(ts) <= p.size - 1
            assert sum(int(e[pairs.nbr[t]]) for t in ts) <= B - e[i]
            assert sum(A[t] for t in ts) == pytest.approx(val[i], abs=1e-12)
    v = val + (0.0 if p.leader_scores is None else p.leader_scores)
    X = np.zeros(p.n, dtype=np.int64)
    assert kernel.outer(v, e, p.size, B, X) == pytest.approx(
        _outer_reference(v.tolist(), e.tolist(), p.size, B), abs=1e-12)
    if X.any():
        assert X.sum() == p.size and int(e[X == 1].sum()) <= B
    forced = np.empty(p.n)
    kernel.forced_in(v, e, p.size, B, forced)
    for i in range(p.n):
        assert forced[i] == pytest.approx(
            _outer_reference(v.tolist(), e.tolist(), p.size, B, forced=i), abs=1e-12)


@st.composite
def tight_problems(draw: st.DrawFn) -> DeckProblem:
    """12..16 pieces, a deck of 3..4, the cap 0..4 above the cheapest deck, sparse or
    dense scores on a random scale, sometimes negative, sometimes a leader."""
    n = draw(st.integers(12, 16))
    k = draw(st.integers(3, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scale = 10.0 ** draw(st.integers(-3, 4))
    dense = draw(st.sampled_from([0.2, 0.5, 1.0]))
    R = rng.random((n, n)) * (rng.random((n, n)) < dense) - draw(st.sampled_from([0.0, 0.3]))
    R = ((R + R.T) / 2 * scale).astype(np.float32)
    cost = rng.integers(1, draw(st.integers(2, 9)), n).astype(np.int32)
    cap = int(np.sort(cost)[:k].sum()) + draw(st.integers(0, 4))
    leader = (rng.random(n) * scale).astype(np.float32) if draw(st.booleans()) else None
    return DeckProblem(R, k, cost=cost, cost_cap=cap, leader_scores=leader)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tight_problems(), st.integers(0, 10**6))
def test_bound_holds_and_no_better_deck_loses_a_piece(p: DeckProblem, pick: int) -> None:
    decks = _decks(p)
    scores = [deck_score(p, d) for d in decks]
    best = max(scores)
    inc = decks[pick % len(decks)]  # any incumbent, often a poor one
    red = reduce_pieces(p, inc, deck_score(p, inc))
    assert red is not None
    slack = 1e-9 * max(1.0, abs(best))
    assert red.bound >= best - slack
    kept = set(red.keep.tolist())
    assert set(inc) <= kept
    for d, s in zip(decks, scores, strict=True):
        if s > deck_score(p, inc) + slack:
            assert set(d) <= kept, (d, s)


def test_bnb_with_the_reduction_proves_the_brute_force_optimum() -> None:
    dropped = 0
    for seed in range(4):
        p = _problem(100 + seed, 60, 3, 1 + seed % 2, sparse=0.3, leader=seed == 3)
        best = max(deck_score(p, d) for d in _decks(p))
        r = solve_bnb(p)
        assert r.proven and r.score == pytest.approx(best, abs=1e-9)
        dropped += r.stats["fitting"] - r.stats["searched"]
        off = solve_bnb(p, reduce=False)
        assert off.score == pytest.approx(r.score, abs=1e-9)
    assert dropped > 0  # the reduction ran and dropped pieces


def test_a_timed_out_merge_does_not_stop_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """The regression: VDS's merge (a short branch and bound) shared the stop flag of the
    bnb whose hint it built, and its watchdog set that flag at the merge's deadline: the
    bnb then stopped at once, 'requested', with no time limit at all."""
    from gameopt.deck import build

    monkeypatch.setattr(build, "_MERGE_SECONDS", 1e-9)
    p = _problem(100, 60, 3, 1, sparse=0.3)
    r = solve_bnb(p)
    assert r.proven and "stop" not in r.stats


@pytest.mark.slow
def test_bound_is_above_every_deck_found_on_a_tight_synthetic_cap() -> None:
    from gameopt.deck.build import fitting_pieces, restrict
    from gameopt.deck.synth import synthetic_data

    pool, coll, scores = synthetic_data(0)
    p = to_problem(pool, coll, Rules(cost_cap=83), scores)[0]
    p = restrict(p, fitting_pieces(p))
    found = [solve(p, m, seed=s) for m in ("greedy", "hc", "vds") for s in (0, 1)]
    worst = min(found, key=lambda r: r.score)
    red = reduce_pieces(p, worst.deck, worst.score)
    assert red is not None
    assert red.bound >= max(r.score for r in found)
    assert red.bound >= 60.943  # the optimum CP-SAT proved
    top = max(found, key=lambda r: r.score)
    assert set(top.deck) <= set(red.keep.tolist()) or top.score <= worst.score


def test_no_reduction_without_a_tight_cap() -> None:
    p = _problem(1, 12, 3, 40)
    spare = excess_budget(p)
    assert spare is not None and spare > MAX_EXCESS
    assert reduce_pieces(p, [0, 1, 2], 0.0) is None
    q = DeckProblem(p.R, 3)
    assert reduce_pieces(q, [0, 1, 2], 0.0) is None
