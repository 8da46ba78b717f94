"""Exact matching: against brute force and networkx, invariances, infeasible forbidden
sets with their witnesses, input guards."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameopt.errors import InfeasibleError, InvalidInputError
from gameopt.pairing._blossom_kernel import matrix_faults
from gameopt.pairing.heuristics import slim_matching
from gameopt.pairing.matching import (
    BRUTE_MAX,
    MAX_COST,
    _matrix_faults_numpy,
    brute_force_matching,
    is_perfect_matching,
    min_weight_perfect_matching,
)
from tests.pairing.instances import all_matchings, random_instance, solve_or_none, total

# --------------------------------------------------------------------------------------
# Exact against the references
# --------------------------------------------------------------------------------------


def test_brute_force_reaches_every_perfect_matching() -> None:
    # Each of the (n − 1)!! perfect matchings, made the unique optimum, is the answer.
    for n, count in [(2, 1), (4, 3), (6, 15), (8, 105)]:
        everything = all_matchings(list(range(n)))
        assert len(everything) == count
        for m in everything:
            c = np.ones((n, n), dtype=np.int64)
            for u, v in m:
                c[u, v] = c[v, u] = 0
            assert brute_force_matching(c) == sorted(m)


def test_brute_force_against_listingall_matchings() -> None:
    rng = np.random.default_rng(1)
    for n in (2, 4, 6, 8):
        for _ in range(20):
            c, a = random_instance(rng, n, p_forbid=0.3)
            feasible = [m for m in all_matchings(list(range(n)))
                        if all(a[u, v] for u, v in m)]
            got = solve_or_none("brute", c, a)
            if not feasible:
                assert got is None
            else:
                assert got is not None
                assert total(got, c) == min(total(m, c) for m in feasible)


@pytest.mark.parametrize("prune", [True, False], ids=["pruned", "full"])
def test_exact_equals_brute_force_on_thousands_of_small_fields(prune: bool) -> None:
    rng = np.random.default_rng(2026)
    infeasible = 0
    for trial in range(1500):
        n = int(rng.choice([2, 4, 6, 8, 10, 12]))
        p_forbid = float(rng.choice([0.0, 0.2, 0.5, 0.7]))
        low, high = [(-20, 100), (0, 5), (0, 10**6)][trial % 3]
        c, a = random_instance(rng, n, p_forbid=p_forbid, low=low, high=high)
        groups = rng.integers(0, 4, n) if trial % 2 else None
        exact = solve_or_none("exact", c, a, prune=prune, groups=groups)
        brute = solve_or_none("brute", c, a)
        assert (exact is None) == (brute is None), trial
        if brute is None:
            infeasible += 1
            continue
        assert exact is not None and is_perfect_matching(exact, n, a)
        assert total(exact, c) == total(brute, c), trial
    assert 50 < infeasible < 1000  # both branches exercised


def test_tiebreak_is_lexicographic_like_brute_force() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.choice([4, 6, 8, 10]))
        c, a = random_instance(rng, n, p_forbid=0.2, low=0, high=4)  # many ties
        tie, _ = random_instance(rng, n, low=0, high=50)
        brute = solve_or_none("brute", c, a, tiebreak=tie)
        exact = solve_or_none("exact", c, a, tiebreak=tie)
        nxm = solve_or_none("networkx", c, a, tiebreak=tie)
        if brute is None:
            assert exact is None and nxm is None
            continue
        assert exact is not None and nxm is not None
        key = (total(brute, c), total(brute, tie))
        assert (total(exact, c), total(exact, tie)) == key
        assert (total(nxm, c), total(nxm, tie)) == key


@pytest.mark.parametrize("n", [14, 30, 60, 120, 200])
def test_exact_equals_networkx_on_larger_fields(n: int) -> None:
    rng = np.random.default_rng(n)
    for p_forbid, (low, high) in [(0.0, (0, 1000)), (0.3, (-50, 50))][: 1 if n >= 120 else 2]:
        c, a = random_instance(rng, n, p_forbid=p_forbid, low=low, high=high)
        exact = min_weight_perfect_matching(c, a)
        ref = min_weight_perfect_matching(c, a, method="networkx")
        assert is_perfect_matching(exact, n, a) and is_perfect_matching(ref, n, a)
        assert total(exact, c) == total(ref, c)


# --------------------------------------------------------------------------------------
# Invariances (hypothesis)
# --------------------------------------------------------------------------------------


@st.composite
def instances(draw: st.DrawFn) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    n = draw(st.sampled_from([2, 4, 6, 8, 10]))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_instance(np.random.default_rng(seed), n,
                           p_forbid=draw(st.sampled_from([0.0, 0.25])))


def optimum(c: npt.NDArray[np.int64], a: npt.NDArray[np.bool_]) -> int | None:
    pairs = solve_or_none("exact", c, a)
    return None if pairs is None else total(pairs, c)


@settings(max_examples=150, deadline=None)
@given(instances(), st.integers(-10**6, 10**6))
def test_adding_a_constant_shifts_every_matching_alike(
        inst: tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]], k: int) -> None:
    c, a = inst
    base, shifted = optimum(c, a), optimum(c + k, a)
    if base is None:
        assert shifted is None
    else:
        assert shifted == base + k * (len(c) // 2)


@settings(max_examples=150, deadline=None)
@given(instances(), st.randoms(use_true_random=False))
def test_relabelling_players_keeps_the_optimum(
        inst: tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]], rnd: object) -> None:
    c, a = inst
    perm = list(range(len(c)))
    rnd.shuffle(perm)  # type: ignore[attr-defined]
    p = np.array(perm)
    assert optimum(c[np.ix_(p, p)], a[np.ix_(p, p)]) == optimum(c, a)


@settings(max_examples=100, deadline=None)
@given(instances(), st.lists(st.integers(-1000, 1000), min_size=10, max_size=10))
def test_vertex_potentials_shift_every_perfect_matching_alike(
        inst: tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]], pot: list[int]) -> None:
    c, a = inst
    pi = np.array(pot[:len(c)], dtype=np.int64)
    base, shifted = optimum(c, a), optimum(c + pi[:, None] + pi[None, :], a)
    assert (base is None and shifted is None) or shifted == base + int(pi.sum())  # type: ignore[operator]


# --------------------------------------------------------------------------------------
# Infeasible forbidden sets
# --------------------------------------------------------------------------------------


def test_isolated_player_is_named() -> None:
    a = np.ones((4, 4), dtype=np.bool_)
    a[0, 1:] = a[1:, 0] = False
    names = ["ann", "bob", "cat", "dan"]
    for method in ("exact", "networkx", "brute"):
        with pytest.raises(InfeasibleError, match="no allowed opponent for ann"):
            min_weight_perfect_matching(np.zeros((4, 4), np.int64), a, method=method,
                                        labels=names)
    with pytest.raises(InfeasibleError, match="no allowed opponent for ann"):
        slim_matching(np.zeros((4, 4), np.int64), a, labels=names)


def test_players_who_can_only_meet_one_hub_are_named() -> None:
    # ann, bob and cat may only meet dan (a star): at most 2 of 6 can be... paired 4 of 6.
    names = ["ann", "bob", "cat", "dan", "eve", "fay"]
    a = np.zeros((6, 6), dtype=np.bool_)
    for u in (0, 1, 2):
        a[u, 3] = a[3, u] = True
    a[4, 5] = a[5, 4] = True
    with pytest.raises(InfeasibleError) as info:
        min_weight_perfect_matching(np.zeros((6, 6), np.int64), a, labels=names)
    msg = str(info.value)
    assert "at most 4 of 6 players can be paired" in msg
    assert sum(x in msg.split("pairing:")[-1] for x in ("ann", "bob", "cat")) == 2


def test_odd_number_of_vertices() -> None:
    with pytest.raises(InfeasibleError, match=r"odd number of players \(3\)"):
        min_weight_perfect_matching(np.zeros((3, 3), np.int64))


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cost", "kw", "message"), [
    (np.zeros((2, 3), np.int64), {}, r"square matrix, got shape \(2, 3\)"),
    (np.zeros((2, 2)), {}, "integer dtype, got float64"),
    (np.array([[0, 1], [2, 0]]), {}, r"cost is not symmetric at \(0, 1\): 1 != 2"),
    (np.zeros((2, 2), np.int64), {"allowed": np.array([[0, 1], [1, 0]])},
     "allowed must be a boolean 2x2 matrix"),
    (np.zeros((2, 2), np.int64), {"method": "hungarian"}, "unknown method 'hungarian'"),
    (np.zeros((2, 2), np.int64), {"tiebreak": -np.ones((2, 2), np.int64)},
     "tiebreak must be a non-negative integer"),
    (np.zeros((2, 2), np.int64), {"groups": [1]}, r"groups must have shape \(2,\)"),
    (np.zeros((2, 2), np.int64), {"labels": ["a"]}, "1 labels for 2 vertices"),
    (np.zeros((14, 14), np.int64), {"method": "brute"}, f"n = 14 > {BRUTE_MAX}"),
    (np.array([[0, 2**51], [2**51, 0]]), {}, r"within ±2\*\*50, got 2251799813685248"),
])
def test_bad_input(cost: npt.NDArray[np.int64], kw: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        min_weight_perfect_matching(cost, **kw)  # type: ignore[arg-type]


def test_matrix_checks_in_one_pass_equal_the_numpy_reference() -> None:
    # the int64 kernel and the numpy checks (other dtypes) find the same first fault
    rng = np.random.default_rng(17)
    for trial in range(300):
        n = int(rng.integers(1, 9))
        c = rng.integers(-5, 6, (n, n)).astype(np.int64)
        c = np.triu(c) + np.triu(c, 1).T
        a = rng.random((n, n)) < 0.8
        a = np.triu(a) | np.triu(a, 1).T
        for _ in range(int(rng.integers(0, 3))):  # faults, one kind at random
            i, j = (int(x) for x in rng.integers(0, n, 2))
            kind = int(rng.integers(0, 3))
            if kind == 0:
                a[i, j] = not a[i, j]
            elif kind == 1:
                c[i, j] += 1
            else:
                c[i, j] = c[j, i] = int(rng.choice([-1, 1])) * (MAX_COST + int(rng.integers(1, 9)))
        a = a & ~np.eye(n, dtype=np.bool_)
        got = matrix_faults(c, a, MAX_COST)
        assert got == _matrix_faults_numpy(c, a), (trial, c, a)
    big = np.array([[0, -2**63], [-2**63, 0]], dtype=np.int64)
    assert matrix_faults(big, ~np.eye(2, dtype=np.bool_), MAX_COST) == (2, -1, -1, 2**63 - 1)
