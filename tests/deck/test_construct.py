"""The numba construction and seed bound against their plain references."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.deck import _construct_kernel as construct_kernel
from gameopt.deck.build import _Arrays, _construct, _construct_reference, build_deck
from gameopt.deck.exact import _top_row_sums_reference as _top_row_sums
from gameopt.deck.problem import DeckProblem
from gameopt.deck.verify import is_feasible
from gameopt.errors import InfeasibleError


def _problem(seed: int) -> DeckProblem:
    rng = np.random.default_rng(seed)
    n, size = 40 + seed % 7, 6 + seed % 5
    U = rng.random((n, n)).astype(np.float32)
    cost = rng.integers(1, 12, n)
    cheapest = int(np.sort(cost)[:size].sum())
    return DeckProblem((U + U.T) / 2 - 0.2, size, cost=cost,
                       cost_cap=cheapest + int(rng.uniform(0.1, 0.8) * (cost.mean() * size
                                                                         - cheapest)),
                       character=rng.integers(0, n // 3, n),
                       char_limit=rng.integers(1, 3, n // 3 + 1).astype(np.int32),
                       attribute=(rng.random(n) < 0.4).astype(np.int8),
                       attribute_min=int(rng.integers(0, size // 2 + 1)),
                       must=tuple(int(i) for i in rng.choice(n, seed % 3, replace=False)),
                       leader_scores=rng.random(n).astype(np.float32))


@pytest.mark.parametrize("seed", range(40))
def test_greedy_construction_equals_reference(seed: int) -> None:
    p = _problem(seed)
    a = _Arrays(p)
    try:
        ref = _construct_reference(p, a, None)
    except InfeasibleError:
        with pytest.raises(InfeasibleError):
            _construct(p, a, None)
        return
    fast = _construct(p, a, None)
    assert fast == ref
    assert is_feasible(p, fast)


@pytest.mark.parametrize("seed", range(20))
def test_random_and_seeded_constructions_keep_the_rules(seed: int) -> None:
    p = _problem(seed)
    a = _Arrays(p)
    try:
        build_deck(p, "greedy")
    except InfeasibleError:
        return
    rng = np.random.default_rng(seed)
    for _ in range(5):
        assert is_feasible(p, _construct(p, a, rng))
    for i in range(p.n):
        deck = _construct(p, a, None, i)
        if deck is not None:
            assert is_feasible(p, deck) and i in deck


def test_top_row_sums_equals_partition() -> None:
    rng = np.random.default_rng(5)
    for n in (2, 7, 60):
        R = rng.normal(size=(n, n)).astype(np.float32)
        R = (R + R.T) / 2
        np.fill_diagonal(R, 0)
        cols = np.arange(n, dtype=np.int64)
        for k in (1, 3, n - 1):
            np.testing.assert_allclose(construct_kernel.top_row_sums(R, k, cols),
                                       _top_row_sums(R.astype(np.float64), k), atol=1e-5)
        sub = np.sort(rng.choice(n, max(1, n // 2), replace=False)).astype(np.int64)
        for i in range(n):  # restricted columns: brute force per row
            vals = sorted((float(R[i, j]) for j in sub if j != i), reverse=True)[:2]
            assert construct_kernel.top_row_sums(R, 2, sub)[i] == pytest.approx(sum(vals), abs=1e-5)


@pytest.mark.parametrize("n", [240, 257, 333])
def test_top_row_sums_blocks_equal_partition(n: int) -> None:
    """The all-columns path (block maxima, n // 16 ≥ k) on sparse and dense rows."""
    rng = np.random.default_rng(n)
    U = rng.random((n, n)) * (rng.random((n, n)) < 0.07)
    R = ((U + U.T) / 2 - (0.3 if n == 333 else 0.0)).astype(np.float32)
    np.fill_diagonal(R, 5.0)  # the diagonal is never counted, whatever it holds
    cols = np.arange(n, dtype=np.int64)
    A = R.astype(np.float64)
    np.fill_diagonal(A, -np.inf)
    for k in (1, 7, 15):
        ref = -np.sort(-A, axis=1)[:, :k].sum(axis=1)
        np.testing.assert_allclose(construct_kernel.top_row_sums(R, k, cols), ref, atol=1e-4)
