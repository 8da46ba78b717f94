"""SLIM's heuristic (a local optimum of up to four tables, checked against a plain-Python
enumeration of the kernels' neighbourhoods) and the naive top-down rule."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from gameopt.errors import InfeasibleError
from gameopt.pairing import _slim_kernels as K
from gameopt.pairing.heuristics import naive_matching, slim_matching
from gameopt.pairing.matching import is_perfect_matching
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import PenaltyParams
from tests.pairing.instances import all_matchings, play_event, random_instance, solve_or_none, total

# --------------------------------------------------------------------------------------
# SLIM's heuristic
# --------------------------------------------------------------------------------------


def swap_optimal(pairs: list[tuple[int, int]], c: npt.NDArray[np.int64], k: int) -> bool:
    """Plain-Python reference: no set of ≤ k tables can be re-paired more cheaply."""
    for size in range(2, k + 1):
        for subset in itertools.combinations(pairs, size):
            players = [v for p in subset for v in p]
            cur = total(list(subset), c)
            if any(total(m, c) < cur for m in all_matchings(players)):
                return False
    return True


def test_slim_is_a_local_optimum_of_up_to_four_tables() -> None:
    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.choice([8, 10, 12, 14]))
        c, _ = random_instance(rng, n, low=0, high=50)
        pairs = slim_matching(c, window=None)
        assert is_perfect_matching(pairs, n) and swap_optimal(pairs, c, 4)


def test_slim_greedy_alternates_top_and_bottom() -> None:
    # Costs |i − j|: top takes 1, bottom takes n−2, and so on: adjacent pairs.
    n = 8
    idx = np.arange(n)
    c = np.abs(idx[:, None] - idx[None, :]).astype(np.int64)
    tab = K.greedy(K.forbidden_cost(c, ~np.eye(n, dtype=np.bool_)))
    assert tab.tolist() == [[0, 1], [6, 7], [2, 3], [4, 5]]


def test_slim_never_beats_exact_and_is_feasible() -> None:
    rng = np.random.default_rng(12)
    gaps = 0
    for trial in range(300):
        n = int(rng.choice([4, 8, 12, 20, 40, 70]))
        c, a = random_instance(rng, n, p_forbid=0.3 if trial % 2 else 0.0)
        exact = solve_or_none("exact", c, a)
        if exact is None:
            with pytest.raises(InfeasibleError):
                slim_matching(c, a)
            continue
        heur = slim_matching(c, a)
        assert is_perfect_matching(heur, n, a)
        assert total(heur, c) >= total(exact, c)
        gaps += total(heur, c) > total(exact, c)
    assert gaps > 0  # a heuristic: it does miss sometimes


def test_slim_pair_round_on_a_swiss_field() -> None:
    ri = play_event(120, 6, seed=9, params=PenaltyParams.slim(), method="slim")
    exact = pair_round(ri, PenaltyParams.slim())
    slim = pair_round(ri, PenaltyParams.slim(), method="slim")
    assert slim.method == "slim" and slim.total_cost >= exact.total_cost
    assert len(slim.tables) == 60


# --------------------------------------------------------------------------------------
# Naive top-down pairing
# --------------------------------------------------------------------------------------


def test_naive_pairs_top_down_and_skips_rematches() -> None:
    n = 6
    allowed = ~np.eye(n, dtype=np.bool_)
    assert naive_matching(allowed) == [(0, 1), (2, 3), (4, 5)]
    avoid = np.zeros((n, n), dtype=np.bool_)
    avoid[0, 1] = avoid[1, 0] = True
    assert naive_matching(allowed, avoid) == [(0, 2), (1, 3), (4, 5)]
    avoid[4, 5] = avoid[5, 4] = True  # unavoidable at the bottom: a rematch is taken
    assert naive_matching(allowed, avoid) == [(0, 2), (1, 3), (4, 5)]


def test_naive_repairs_a_dead_end_of_forbidden_pairs() -> None:
    n = 4
    allowed = ~np.eye(n, dtype=np.bool_)
    allowed[2, 3] = allowed[3, 2] = False  # greedy 0-1 leaves 2-3, forbidden
    pairs = naive_matching(allowed)
    assert is_perfect_matching(pairs, n, allowed) and pairs[0] in ((0, 2), (0, 3))
