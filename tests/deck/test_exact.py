"""Exact deck model: brute-force agreement, proofs, valid bounds, infeasibility."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gameopt.core import Limit
from gameopt.deck.build import build_deck
from gameopt.deck.exact import build_deck_model, solve_exact, upper_bound
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import is_feasible
from gameopt.errors import InfeasibleError, InvalidInputError
from gameopt.ip.cpsat import solve


def _problem(seed: int, n: int, size: int, *, grid: bool, negative: bool = False,
             leader: bool = True) -> DeckProblem:
    """Random pool with a binding cost cap, characters, attribute minimum, one must."""
    rng = np.random.default_rng(seed)
    R = rng.random((n, n))
    if negative:
        R = R - 0.3
    R = (R + R.T) / 2
    if grid:  # multiples of 1/1000: the scaled model is then exact
        R = np.rint(R * 1000) / 1000
    cost = rng.integers(1, 10, n).astype(np.int32)
    cheapest = int(np.sort(cost)[:size].sum())
    cap = cheapest + int(0.8 * (cost.mean() * size - cheapest))
    ls = np.rint(rng.random(n) * 1000) / 1000 if leader else None
    return DeckProblem(R.astype(np.float32), size, cost=cost, cost_cap=cap,
                       character=rng.integers(0, n - 1, n).astype(np.int32), char_limit=1,
                       attribute=(rng.random(n) < 0.5).astype(np.int8),
                       attribute_min=size // 2, must=(int(rng.integers(n)),),
                       leader_scores=None if ls is None else ls.astype(np.float32))


def _feasible_scores(p: DeckProblem) -> list[float]:
    return [deck_score(p, d) for d in itertools.combinations(range(p.n), p.size)
            if is_feasible(p, d)]


@pytest.mark.parametrize("seed", range(6))
def test_exact_equals_brute_force(seed: int) -> None:
    n, size = 12 + seed % 5, 4 + seed % 3
    p = _problem(seed, n, size, grid=True, negative=seed % 2 == 1)
    scores = _feasible_scores(p)
    if not scores:  # the random rules left no deck: the solver must say so
        with pytest.raises(InfeasibleError):
            solve_exact(p, limit=Limit(time=20.0))
        return
    r = solve_exact(p, limit=Limit(time=20.0))
    assert r.proven
    assert is_feasible(p, r.deck)
    assert r.score == pytest.approx(max(scores), abs=1e-4)
    assert r.bound >= max(scores) - 1e-9
    assert r.bound <= r.score + 1e-3  # the rounding slack only


@pytest.mark.parametrize("seed", range(3))
def test_off_grid_scores_within_rounding_slack(seed: int) -> None:
    p = _problem(100 + seed, 14, 5, grid=False)
    best = max(_feasible_scores(p))
    r = solve_exact(p, limit=Limit(time=20.0))
    assert r.proven
    assert r.score <= best + 1e-9
    assert r.bound >= best
    assert best - r.score <= r.bound - r.score <= 0.02


@pytest.mark.parametrize("seed", range(4))
def test_cheap_upper_bound_is_valid(seed: int) -> None:
    p = _problem(200 + seed, 13, 5, grid=False, negative=seed % 2 == 0)
    ub = upper_bound(p)
    assert all(s <= ub + 1e-9 for s in _feasible_scores(p))


def test_cheap_upper_bound_large_pool_above_vds() -> None:
    rng = np.random.default_rng(7)
    n, size = 2000, 15
    R = rng.random((n, n), dtype=np.float32)
    R = ((R + R.T) / 2).astype(np.float32)
    cost = rng.integers(1, 21, n).astype(np.int32)
    p = DeckProblem(R, size, cost=cost, cost_cap=150)
    vds = build_deck(p, "vds", seed=0, restarts=2)
    assert upper_bound(p) >= vds.score


def test_infeasible_rules_raise() -> None:
    p = _problem(3, 10, 5, grid=True)
    assert p.cost is not None
    bad = DeckProblem(p.R, 5, cost=p.cost, cost_cap=int(np.sort(p.cost)[:5].sum()) - 1)
    with pytest.raises(InfeasibleError, match="cost"):
        solve_exact(bad, limit=Limit(time=5.0))
    model, _, _ = build_deck_model(bad)
    with pytest.raises(InfeasibleError, match="proven infeasible"):
        solve(model, time_limit=5.0)


def test_bad_hint_and_scale() -> None:
    p = _problem(4, 10, 4, grid=True)
    with pytest.raises(InvalidInputError, match="hint breaks the rules"):
        solve_exact(p, hint=[0, 1], limit=Limit(time=5.0))
    with pytest.raises(InvalidInputError, match="scale must be a positive integer"):
        build_deck_model(p, scale=0)


def test_given_hint_is_used() -> None:
    p = _problem(5, 12, 4, grid=True)
    hint = build_deck(p, "greedy").deck
    r = solve_exact(p, hint=hint, limit=Limit(time=20.0))
    assert r.proven and r.score >= deck_score(p, hint) - 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_priced_bound_is_valid_and_tighter_under_a_tight_cap(seed: int) -> None:
    import dataclasses

    from gameopt.deck.exact import _bound, _priced_bound
    p = _problem(300 + seed, 13, 5, grid=False, negative=seed % 2 == 0)
    cheapest = int(np.sort(p.cost)[: p.size].sum())
    p = dataclasses.replace(p, cost_cap=cheapest + 3)
    scores = _feasible_scores(p)
    priced = _priced_bound(p)
    assert all(s <= priced + 1e-9 for s in scores)
    L = p.leader_scores.astype(np.float64)
    assert priced < _bound(p.R.astype(np.float64), L, p.size, p.must)
    assert upper_bound(p) == pytest.approx(priced)


def test_exact_with_mostly_negative_scores_equals_brute_force() -> None:
    """The regression: the negative part's big-M was the top k - 1 of a row, but a piece
    left out faces k chosen pieces, so CP-SAT penalised left-out pieces and proved
    feasible instances "infeasible" (or a worse deck optimal)."""
    from gameopt.deck import solve

    for seed in range(8):
        rng = np.random.default_rng(seed)
        R = rng.random((9, 9)) - 0.6
        p = DeckProblem(((R + R.T) / 2).astype(np.float32), 3)
        best = max(deck_score(p, d) for d in itertools.combinations(range(9), 3))
        r = solve(p, "exact", seed=0)
        assert r.proven and r.score == pytest.approx(best, abs=1e-6)
        assert r.bound is not None and r.bound >= best - 1e-6


def test_a_run_stopped_without_status_keeps_a_valid_bound(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """CP-SAT stopped with no solution ('unknown', the 60 s limit at cost 89 of the
    synthetic data) has no objective bound: it printed the hint's score (84.00) as the
    bound, below a deck hill climbing finds (86.14)."""
    from ortools.sat.python import cp_model

    from gameopt.deck import exact
    from gameopt.ip.cpsat import CpsatResult

    p = _problem(3, 10, 4, grid=True)
    scores = _feasible_scores(p)
    worst = min((d for d in itertools.combinations(range(p.n), p.size)
                 if is_feasible(p, list(d))), key=lambda d: deck_score(p, d))

    def stopped(*args: object, **kwargs: object) -> CpsatResult:
        return CpsatResult("unknown", None, 0.0, 0.0, cp_model.CpSolver())

    monkeypatch.setattr(exact, "solve", stopped)
    r = solve_exact(p, hint=worst, limit=Limit(time=5, clock="wall"))
    assert not r.proven and r.score == pytest.approx(deck_score(p, worst))
    assert r.bound is not None and r.bound >= max(scores) - 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_row_caps_bound_every_deck_and_tighten_under_a_tight_cap(seed: int) -> None:
    """row_caps[i] ≥ Σ_{j∈D} R⁺_ij over every deck D ∋ i of the size within the cap
    (brute force over all size-subsets, other rules left out), equal to the plain top
    k-1 sum without a cap, and below it for some piece under a cap near the cheapest."""
    from gameopt.deck.exact import _top_row_sums, row_caps

    rng = np.random.default_rng(400 + seed)
    n, k = 11, 4
    R = rng.random((n, n)) - (0.4 if seed % 2 else 0.0)
    R[rng.random((n, n)) < 0.5] = 0.0  # sparse, as learnt scores are
    R = (R + R.T) / 2
    np.fill_diagonal(R, 0.0)
    cost = rng.integers(3, 9, n).astype(np.int64)
    cap = int(np.sort(cost)[:k].sum()) + seed % 3
    Rp = np.maximum(R, 0.0)
    caps = row_caps(R, k, cost, cap)
    best = np.zeros(n)
    for d in itertools.combinations(range(n), k):
        if cost[list(d)].sum() <= cap:
            for i in d:
                best[i] = max(best[i], Rp[i, list(d)].sum())
    assert np.all(caps >= best - 1e-12)
    plain = _top_row_sums(np.where(np.eye(n, dtype=bool), 0.0, Rp), k - 1)
    assert np.allclose(row_caps(R, k, None, None), plain)
    assert np.all(caps <= plain + 1e-12) and np.any(caps < plain - 1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_exact_on_the_fitting_pieces_equals_brute_force(seed: int) -> None:
    """Under a cap near the cheapest deck only some pieces fit: the model is built on
    them and the deck mapped back (same optimum as brute force over all pieces)."""
    import dataclasses

    from gameopt.deck.build import fitting_pieces

    p = _problem(500 + seed, 13, 4, grid=True, negative=seed % 2 == 1)
    p = dataclasses.replace(p, cost_cap=int(np.sort(p.cost)[: p.size].sum()) + seed % 2,
                            attribute_min=0, must=(), character=np.arange(p.n, dtype=np.int32))
    assert len(fitting_pieces(p)) < p.n
    scores = _feasible_scores(p)
    r = solve_exact(p, limit=Limit(time=20.0))
    assert r.proven and is_feasible(p, r.deck)
    assert r.score == pytest.approx(max(scores), abs=1e-4)
    assert r.bound >= max(scores) - 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_model_hint_is_complete_and_consistent(seed: int) -> None:
    """The hint sets every variable at its value for the deck: with every variable fixed
    to its hint the model is feasible and its objective is twice the deck's scaled
    score."""
    import dataclasses

    p = _problem(600 + seed, 12, 4, grid=True, negative=seed % 2 == 1)
    p = dataclasses.replace(p, attribute_min=0, character=np.arange(p.n, dtype=np.int32))
    deck = build_deck(p, "vds", seed=0).deck
    model, x, y = build_deck_model(p, hint=deck)
    r = solve(model, time_limit=20.0, parameters={"fix_variables_to_their_hinted_value": True})
    assert r.status == "optimal"
    assert [i for i in range(p.n) if r.value(x[i])] == sorted(deck)
    assert r.objective == pytest.approx(2000 * deck_score(p, deck), abs=20)
