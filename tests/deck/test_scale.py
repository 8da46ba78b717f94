"""Score scale: absurd scores refused by name, one huge negative score does not weaken
the search, and forbidden pairs are a hard rule for every method."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from gameopt.deck import METHODS, DeckProblem, Rules, deck_score, solve, to_problem
from gameopt.deck.pool import Scores
from gameopt.deck.problem import check_scores
from gameopt.deck.synth import synthetic_data
from gameopt.deck.verify import deck_problems
from gameopt.errors import InvalidInputError


@pytest.mark.parametrize("bad, match", [
    (np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf"),
    (1e15, r"1e\+15; scores must be finite and below 1e\+15"), (-1e30, r"-1e\+30"),
    (3e38, r"3e\+38")])
def test_absurd_scores_are_refused_by_name(bad: float, match: str) -> None:
    R = np.zeros((4, 4))
    R[0, 1] = R[1, 0] = bad
    with pytest.raises(InvalidInputError, match=r"scores: R: row 0, column 1 is " + match):
        DeckProblem(R, 2)
    with pytest.raises(InvalidInputError, match=r"R: row 0, column 1 is " + match):
        Scores((1, 2, 3, 4), R)


def test_scores_that_are_not_numbers_are_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"R: holds <U1 values, not numbers"):
        check_scores(np.array([["a", "b"], ["c", "d"]]), "R", (2, 2))
    with pytest.raises(InvalidInputError, match=r"leader scores: matrix of shape \(3,\)"):
        DeckProblem(np.zeros((4, 4)), 2, leader_scores=np.zeros(3))


@functools.cache
def _synthetic_200() -> tuple[DeckProblem, float, tuple[int, ...]]:
    pool, collection, scores = synthetic_data(0)
    p, _ = to_problem(pool, collection, Rules(cost_cap=200), scores)
    r = solve(p, "vds", seed=0)
    return p, r.score, r.deck


def _with(p: DeckProblem, R: np.ndarray, pairs: tuple[tuple[int, int], ...] = ()
          ) -> DeckProblem:
    return DeckProblem(R, p.size, cost=p.cost, cost_cap=p.cost_cap, character=p.character,
                       char_limit=p.char_limit, forbidden_pairs=pairs)


@pytest.mark.parametrize("value", [-1e9, -1e14])
def test_a_huge_negative_pair_does_not_weaken_vds(value: float) -> None:
    """Cap 200 on the synthetic data: 413.71 with or without a blocked pair outside the
    deck (the tolerance was 1e-7·max |R|, 100 with -1e9: VDS stopped at 357.19)."""
    p, best, deck = _synthetic_200()
    assert round(best, 2) == 413.71
    a, b = [i for i in range(p.n) if i not in deck][:2]
    R = p.R.copy()
    R[a, b] = R[b, a] = value
    assert solve(_with(p, R), "vds", seed=0).score == pytest.approx(best, abs=1e-6)
    assert solve(_with(p, p.R, ((a, b),)), "vds", seed=0).score == pytest.approx(best,
                                                                                 abs=1e-6)


def test_forbidding_a_pair_of_the_best_deck_keeps_it_out() -> None:
    p, best, deck = _synthetic_200()
    a, b = deck[:2]
    q = _with(p, p.R, ((b, a),))
    assert q.forbidden_pairs == ((a, b),) and q.R[a, b] == -q.forbid_penalty
    r = solve(q, "vds", seed=0)
    assert not deck_problems(q, r.deck) and not {a, b} <= set(r.deck)
    assert r.score < best


def _tiny(seed: int) -> DeckProblem:
    rng = np.random.default_rng(seed)
    n, k = 11, 4
    R = rng.random((n, n)).astype(np.float32)
    R = (R + R.T) / 2
    cost = rng.integers(1, 6, n).astype(np.int32)
    # forbid the pairs of the unconstrained best deck, so the rule binds
    best = max(itertools.combinations(range(n), k),
               key=lambda d: float(R[np.ix_(d, d)].sum()))
    return DeckProblem(R, k, cost=cost, cost_cap=int(cost.sum() * k / n) + 2,
                       forbidden_pairs=tuple(itertools.combinations(best, 2))[:3])


@pytest.mark.parametrize("seed", range(3))
def test_every_method_keeps_forbidden_pairs_apart(seed: int) -> None:
    p = _tiny(seed)
    assert p.cost is not None and p.cost_cap is not None
    opt = max(deck_score(p, d) for d in itertools.combinations(range(p.n), p.size)
              if not deck_problems(p, d))
    for m in METHODS:
        r = solve(p, m, seed=0)
        assert not deck_problems(p, r.deck), m
        assert r.score <= opt + 1e-9
        if METHODS[m].exact:
            assert r.proven and r.score == pytest.approx(opt, abs=1e-3), m
            assert r.bound is not None and r.bound >= opt - 1e-9


def test_forbidden_pairs_are_checked() -> None:
    R = np.zeros((4, 4))
    with pytest.raises(InvalidInputError, match=r"forbidden_pairs: \(1, 1\) needs two"):
        DeckProblem(R, 2, forbidden_pairs=((1, 1),))
    with pytest.raises(InvalidInputError, match=r"forbidden_pairs: \(0, 9\)"):
        DeckProblem(R, 2, forbidden_pairs=((0, 9),))
    with pytest.raises(InvalidInputError, match="must-include pieces 0 and 1 are a forbidden"):
        DeckProblem(R, 2, must=(0, 1), forbidden_pairs=((1, 0),))


def test_replace_keeps_the_penalty_the_same() -> None:
    import dataclasses

    q = DeckProblem(np.ones((5, 5)), 3, forbidden_pairs=((0, 1),))
    q2 = dataclasses.replace(q, size=3)
    assert q2.forbid_penalty == q.forbid_penalty and q2.R[0, 1] == q.R[0, 1]
