"""Deck builders: verifier, incremental gains, brute force, the seed's VDS example, MDP."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from gameopt.deck import _vds_kernel as vds_kernel
from gameopt.deck._rule_arrays import ATTR, COST, size_only
from gameopt.deck.build import build_deck
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import deck_problems, is_feasible
from gameopt.errors import InfeasibleError, InvalidInputError


def _sym(rng: np.random.Generator, n: int) -> np.ndarray:
    R = rng.random((n, n)).astype(np.float32)
    return (R + R.T) / 2


def _random_problem(seed: int, n: int, size: int) -> DeckProblem:
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 10, n)
    cheapest = int(np.sort(cost)[:size].sum())
    cap = cheapest + int(0.6 * (cost.mean() * size - cheapest))  # binding
    return DeckProblem(_sym(rng, n), size, cost=cost, cost_cap=cap,
                       character=rng.integers(0, n // 2, n), char_limit=1,
                       attribute=(rng.random(n) < 0.5).astype(np.int8),
                       attribute_min=size // 2, must=(int(rng.integers(n)),),
                       leader_scores=rng.random(n).astype(np.float32))


def _brute(p: DeckProblem) -> float:
    best = -np.inf
    for d in itertools.combinations(range(p.n), p.size):
        if is_feasible(p, d):
            best = max(best, deck_score(p, d))
    return best


# -- verifier ---------------------------------------------------------------------------

@pytest.fixture
def rules() -> DeckProblem:
    n = 8
    return DeckProblem(np.ones((n, n), np.float32), 3, cost=[5, 5, 5, 20, 5, 5, 5, 5],
                       cost_cap=20, character=[0, 0, 1, 2, 3, 4, 5, 6], char_limit=1,
                       attribute=[1, 1, 1, 0, 0, 0, 0, 0], attribute_min=1, must=(2,))


@pytest.mark.parametrize(("deck", "msg"), [
    ([2, 4], "size: 2 pieces"),
    ([2, 2, 4], "distinct"),
    ([2, 3, 4], "cost: total 30 > cap 20"),
    ([0, 1, 2], "character: 2 pieces of character 0"),
    ([4, 5, 6], "attribute: 0 pieces"),
    ([0, 4, 5], "must-include: missing 2"),
    ([2, 4, 99], "outside"),
])
def test_verifier_rejects_each_rule(rules: DeckProblem, deck: list[int], msg: str) -> None:
    assert any(msg in m for m in deck_problems(rules, deck))
    assert not is_feasible(rules, deck)


def test_verifier_accepts(rules: DeckProblem) -> None:
    assert deck_problems(rules, [2, 4, 5]) == []


# -- incremental gains ------------------------------------------------------------------

def test_gains_match_recomputation_after_swaps() -> None:
    rng = np.random.default_rng(3)
    n, size = 40, 7
    R = _sym(rng, n)
    np.fill_diagonal(R, 0)
    leader = rng.random(n).astype(np.float32)
    cost = rng.integers(0, 9, n).astype(np.int64)
    char = rng.integers(0, 10, n).astype(np.int64)
    attr = (rng.random(n) < 0.5).astype(np.int64)
    deck = rng.choice(n, size, replace=False).astype(np.int64)
    rules = size_only(n)._replace(cost=cost, char=char, n_char=10, attr=attr)
    pos, g, cc, st = vds_kernel.init_state(R, leader, deck, rules)
    for _ in range(200):
        a = int(deck[rng.integers(size)])
        b = int(rng.choice(np.flatnonzero(pos < 0)))
        p = DeckProblem(R, size, leader_scores=leader)
        before = deck_score(p, deck)
        gain = g[b] - g[a] - R[a, b]
        vds_kernel.apply_swap(R, a, b, deck, pos, g, cc, st, rules)
        np.testing.assert_allclose(g, leader + R[:, deck].astype(np.float64).sum(1), atol=1e-9)
        assert deck_score(p, deck) == pytest.approx(before + gain, abs=1e-9)
        assert st[COST] == cost[deck].sum() and st[ATTR] == attr[deck].sum()
        np.testing.assert_array_equal(cc, np.bincount(char[deck], minlength=10))
        assert all(pos[deck[k]] == k for k in range(size)) and (pos >= 0).sum() == size


# -- every method feasible, hc/vds optimal on small pools --------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_small_pools_match_brute_force(seed: int) -> None:
    p = _random_problem(seed, n=14 + seed % 3, size=4 + seed % 3)
    opt = _brute(p)
    if opt == -np.inf:  # the rules leave no deck: every method must say so
        with pytest.raises(InfeasibleError):
            build_deck(p, "vds", seed=seed)
        return
    for method in ("greedy", "hc", "vds", "tabu"):
        r = build_deck(p, method, seed=seed, restarts=40)
        assert is_feasible(p, r.deck)
        assert r.score == pytest.approx(deck_score(p, r.deck))
        if method != "greedy":
            assert r.score == pytest.approx(opt, abs=1e-6), method


# -- the seed's example -----------------------------------------------------------------

def _seed_example() -> tuple[DeckProblem, list[int]]:
    """5 pieces of cost 20 (strength 30), 12 of cost 10 (12), 2 of cost 5 (5); cap 200.

    R[i, j] = v_i + v_j, so a 16-piece deck scores 15 Σ v: 20×4 + 10×12 gives 15·264 and
    20×5 + 10×9 + 5×2 gives 15·268, the best deck. From the first no single swap helps:
    10→20 breaks the cap, 10→5 and 20→10 lose. VDS goes 10→20 (cost 210), 10→5 (205),
    10→5 (200).
    """
    v = np.array([30.0] * 5 + [12.0] * 12 + [5.0] * 2, np.float32)
    cost = [20] * 5 + [10] * 12 + [5] * 2
    R = v[:, None] + v[None, :]
    p = DeckProblem(R, 16, cost=cost, cost_cap=200)
    return p, list(range(4)) + list(range(5, 17))


def test_vds_escapes_where_one_swap_is_stuck() -> None:
    p, start = _seed_example()
    assert is_feasible(p, start)
    hc = build_deck(p, "hc", start=start, restarts=1)
    vds = build_deck(p, "vds", start=start, restarts=1)
    assert hc.score == pytest.approx(15 * 264)
    assert vds.score == pytest.approx(15 * 268)
    costs = sorted(int(p.cost[i]) for i in vds.deck)  # type: ignore[index]
    assert costs == [5] * 2 + [10] * 9 + [20] * 5 and vds.cost == 200
    assert build_deck(p, "vds", start=start, restarts=1, relax=0).score == hc.score


# -- infeasible rules -------------------------------------------------------------------

def test_infeasible_rules_raise_with_reason() -> None:
    n = 12
    R = np.ones((n, n), np.float32)
    cost = [100] * 3 + [10] * 9
    with pytest.raises(InfeasibleError, match="must-include pieces alone cost 300 > cap 200"):
        build_deck(DeckProblem(R, 5, cost=cost, cost_cap=200, must=(0, 1, 2)))
    attr = [1] * 7 + [0] * 5
    with pytest.raises(InfeasibleError, match="only 7 pieces with the attribute, 10 required"):
        build_deck(DeckProblem(R, 11, attribute=attr, attribute_min=10))
    with pytest.raises(InfeasibleError, match="at most 4 pieces fit the per-character"):
        build_deck(DeckProblem(R, 5, character=[0, 1, 2, 3] * 3, char_limit=1))
    with pytest.raises(InfeasibleError, match="cheapest 5 pieces cost 140 > cap 100"):
        build_deck(DeckProblem(R, 5, cost=[10] * 2 + [40] * 10, cost_cap=100))
    # Only an exact search sees this one: the 4 cheap pieces share one character.
    with pytest.raises(InfeasibleError, match="CP-SAT"):
        build_deck(DeckProblem(R, 3, cost=[1] * 4 + [50] * 8, cost_cap=60,
                               character=[0] * 4 + list(range(1, 9)), char_limit=1))


def test_bad_arguments() -> None:
    p, start = _seed_example()
    with pytest.raises(InvalidInputError, match="method"):
        build_deck(p, "anneal")
    with pytest.raises(InvalidInputError, match="start: cost"):
        build_deck(p, "hc", start=list(range(16)))


@pytest.mark.parametrize("method", ["vds", "tabu"])
def test_same_seed_same_result(method: str) -> None:
    p = _random_problem(11, n=60, size=8)
    a = build_deck(p, method, seed=5, restarts=15)
    b = build_deck(p, method, seed=5, restarts=15)
    assert a.deck == b.deck and a.score == b.score


@pytest.mark.parametrize("seed", range(6))
def test_tabu_size_only_matches_brute_force(seed: int) -> None:
    """The constrained neighbourhood (size rule only, one must-include piece)."""
    rng = np.random.default_rng(100 + seed)
    n, size = 16, 5
    R = _sym(rng, n) * 10 - 3  # negative scores too: the spread argument must hold
    p = DeckProblem(R, size, must=(int(rng.integers(n)),) if seed % 2 else ())
    r = build_deck(p, "tabu", seed=seed, restarts=5, stall=200)
    assert r.score == pytest.approx(_brute(p), abs=1e-5)


def test_constrained_move_is_the_best_non_tabu_swap() -> None:
    """The constrained scan returns the gain of the best non-tabu swap (brute force)."""
    from gameopt.deck import _tabu_kernel as tabu_kernel

    rng = np.random.default_rng(7)
    n, size = 60, 9
    for _ in range(200):
        R = _sym(rng, n) * 8 - 2
        np.fill_diagonal(R, 0)
        leader = np.zeros(n, np.float32)
        deck = rng.choice(n, size, replace=False).astype(np.int64)
        pos, g, _, _ = vds_kernel.init_state(R, leader, deck, size_only(n))
        it = 50
        until = np.where(rng.random(n) < 0.3, it + 5, 0).astype(np.int64)
        locked = (rng.random(n) < 0.1).astype(np.int64)
        d, a, b = tabu_kernel._constrained_move(
            R, float(R.max() - R.min()), it, until, deck, pos, g, locked,
            np.random.default_rng(0), np.empty(size, np.int64), np.empty(n, np.int64))
        gains = [g[y] - g[x] - R[x, y] for x in deck for y in range(n)
                 if pos[y] < 0 and not locked[x] and until[x] <= it and until[y] <= it]
        if not gains:
            assert a == -1
            continue
        assert d == pytest.approx(max(gains), abs=1e-9)
        assert pos[a] >= 0 and pos[b] < 0 and g[b] - g[a] - R[a, b] == pytest.approx(d)


# -- MDP --------------------------------------------------------------------------------

def test_mdp_reads_and_reaches_gkd_bkv(mdp_data: Path) -> None:
    from gameopt.core import Limit
    from gameopt.deck.formats import read_mdp
    from gameopt.deck.mdp import solve_mdp

    path = mdp_data / "GKD-c_2_n500_m50.txt.gz"
    p = read_mdp(path)
    assert p.n == 500 and p.size == 50 and p.R[0, 1] == p.R[1, 0] > 0
    r = solve_mdp(p, limit=Limit(time=5.0, clock="cpu", target=19701.53711), seed=0)
    assert r.stats["reached"] and len(r.deck) == 50 and r.clock == "cpu"
    assert deck_score(p, r.deck) == pytest.approx(r.score)


def test_cpsat_start_stops_on_request() -> None:
    """The CP-SAT start deck sees the run's stop flag (a client gone): stopped before it
    found a deck it is BudgetExhaustedError, not a deck after a full solve nor a
    SolverError; without a stop it finds the least-cost deck."""
    from gameopt.core import Limit
    from gameopt.core.stop import StopFlag
    from gameopt.deck.build import _Arrays, _cpsat_start
    from gameopt.errors import BudgetExhaustedError

    rng = np.random.default_rng(7)
    n = 30
    R = rng.random((n, n))
    p = DeckProblem(((R + R.T) / 2).astype(np.float32), 6,
                    cost=rng.integers(1, 9, n).astype(np.int32), cost_cap=30)
    a = _Arrays(p)
    flag = StopFlag()
    a.stop_rule = Limit(stop=flag).start()
    deck = _cpsat_start(p, a)
    assert is_feasible(p, deck)
    flag.set()
    with pytest.raises(BudgetExhaustedError, match="stopped on request"):
        _cpsat_start(p, a)
