"""Our blossom kernel and the sparse exact path: against brute force, rustworkx and
networkx; the LP duals it returns are feasible and complementary to its matching."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameopt.errors import InfeasibleError
from gameopt.pairing import _sparse
from gameopt.pairing._blossom_kernel import (
    NO_PERFECT,
    OK,
    blossom_min_cost,
    laminar_sums,
)
from gameopt.pairing.matching import (
    brute_force_matching,
    check_matrices,
    matching_cost,
    min_weight_perfect_matching,
    solve_exact,
    sparse_exact,
)
from gameopt.pairing.pairer import pair_round, pairing_key
from tests.pairing.instances import play_event, random_instance, solve_or_none

IntArray = npt.NDArray[np.int64]
NONE = np.empty(0, dtype=np.int64)


def kernel(c: IntArray, a: npt.NDArray[np.bool_]) -> tuple[
        int, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The kernel on the allowed pairs of ``c`` (doubled costs): code, edges, answer."""
    n = c.shape[0]
    iu, ju = np.nonzero(np.triu(a, 1))
    eu, ev = iu.astype(np.int64), ju.astype(np.int64)
    ec = 2 * c[eu, ev].astype(np.int64)
    code, mate, y, w, parent, base, _ = blossom_min_cost(n, eu, ev, ec, NONE, NONE)
    return code, eu, ev, ec, mate, y, w, parent


def check_duals(n: int, eu: IntArray, ev: IntArray, ec: IntArray, mate: IntArray,
                y: IntArray, w: IntArray, parent: IntArray) -> None:
    """Dual feasibility and complementary slackness, written out plainly."""
    def holders(v: int) -> list[int]:
        out, t = [], int(parent[v])
        while t != -1:
            out.append(t)
            t = int(parent[t])
        return out

    blossoms = {b for v in range(n) for b in holders(v)}
    members = {b: {v for v in range(n) if b in holders(v)} for b in blossoms}
    matched = {int(k) for k in mate}
    assert all(mate[eu[k]] == k and mate[ev[k]] == k for k in matched)
    assert 2 * len(matched) == n
    for b in blossoms:
        assert w[b] >= 0 and len(members[b]) % 2 == 1
        if w[b] > 0:  # a blossom of positive dual holds (|B| − 1)/2 matched pairs
            inside = sum(1 for k in matched if eu[k] in members[b] and ev[k] in members[b])
            assert inside == (len(members[b]) - 1) // 2
    for k in range(eu.size):
        common = set(holders(int(eu[k]))) & set(holders(int(ev[k])))
        r = int(ec[k]) - int(y[eu[k]]) - int(y[ev[k]]) + sum(int(w[b]) for b in common)
        assert r >= 0
        if k in matched:
            assert r == 0
    dual = sum(int(x) for x in y) - sum(int(w[b]) * (len(members[b]) - 1) // 2
                                        for b in blossoms)
    assert dual == sum(int(ec[k]) for k in matched)


# --------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------


def test_kernel_equals_brute_force_with_optimal_duals() -> None:
    rng = np.random.default_rng(19)
    infeasible = 0
    for _ in range(600):
        n = int(rng.choice([2, 4, 6, 8, 10, 12]))
        c, a = random_instance(rng, n, p_forbid=float(rng.choice([0.0, 0.3, 0.6])),
                               high=int(rng.choice([3, 20, 10**6])))
        ref = solve_or_none("brute", c, a)
        code, eu, ev, ec, mate, y, w, parent = kernel(c, a)
        if ref is None:
            assert code == NO_PERFECT
            infeasible += 1
            continue
        assert code == OK
        pairs = sorted((int(eu[k]), int(ev[k])) for k in set(mate.tolist()))
        assert matching_cost(c, pairs) == matching_cost(c, ref)
        check_duals(n, eu, ev, ec, mate, y, w, parent)
    assert 20 < infeasible < 500


def test_kernel_duals_on_larger_graphs_with_blossoms() -> None:
    rng = np.random.default_rng(7)
    made_blossoms = 0
    for n in (30, 60, 90):
        for high in (4, 1000):
            c, a = random_instance(rng, n, p_forbid=0.5, low=0, high=high)
            code, eu, ev, ec, mate, y, w, parent = kernel(c, a)
            assert code == OK
            ref = min_weight_perfect_matching(c, a, method="networkx")
            pairs = sorted((int(eu[k]), int(ev[k])) for k in set(mate.tolist()))
            assert matching_cost(c, pairs) == matching_cost(c, ref)
            check_duals(n, eu, ev, ec, mate, y, w, parent)
            made_blossoms += int((w[n:] > 0).sum())
    assert made_blossoms > 0  # the odd-set duals were exercised


def test_odd_field_and_isolated_vertex_have_no_perfect_matching() -> None:
    c = np.zeros((3, 3), dtype=np.int64)
    assert kernel(c, ~np.eye(3, dtype=np.bool_))[0] == NO_PERFECT
    a = ~np.eye(4, dtype=np.bool_)
    a[0, :] = a[:, 0] = False
    assert kernel(np.ones((4, 4), dtype=np.int64), a)[0] == NO_PERFECT


def test_laminar_sums_count_the_holders() -> None:
    # vertices 0..4; blossom 5 = {0, 1, 2}, blossom 6 = {5, 3, 4}
    n = 5
    parent = np.full(2 * n, -1, dtype=np.int64)
    parent[[0, 1, 2]] = 5
    parent[[5, 3, 4]] = 6
    w = np.zeros(2 * n, dtype=np.int64)
    w[5], w[6] = 4, 0
    cpar, cumw, cumpos, size = laminar_sums(n, w, parent)
    assert (cpar[0], cpar[3], cpar[5], cpar[6]) == (5, -1, -1, -1)  # 6 has w = 0
    assert (cumw[5], cumw[6], cumw[0], cumpos[5], cumpos[6]) == (4, 0, 4, 1, 0)
    assert (size[5], size[6]) == (3, 5)


# --------------------------------------------------------------------------------------
# The sparse exact path against the references
# --------------------------------------------------------------------------------------


def tie_instance(rng: np.random.Generator, n: int, p_forbid: float, high: int,
                 ) -> tuple[IntArray, npt.NDArray[np.bool_], IntArray]:
    c, a = random_instance(rng, n, p_forbid=p_forbid, low=0, high=high)
    t = np.triu(rng.integers(0, 50, (n, n)), 1)
    return c, a, (t + t.T).astype(np.int64)


@pytest.mark.parametrize("n", [10, 40, 121, 200])
def test_sparse_equals_rustworkx_and_networkx_per_tier(n: int) -> None:
    rng = np.random.default_rng(n)
    for trial in range(4):
        high = [3, 30, 10**9, 5][trial]
        c, a, t = tie_instance(rng, n + n % 2, [0.0, 0.3, 0.1, 0.6][trial], high)
        got = min_weight_perfect_matching(c, a, tiebreak=t)
        for ref_method in ("rustworkx", "networkx") if n <= 121 else ("rustworkx",):
            ref = min_weight_perfect_matching(c, a, tiebreak=t, method=ref_method)
            assert matching_cost(c, got) == matching_cost(c, ref)
            assert matching_cost(t, got) == matching_cost(t, ref)
            if high == 10**9:  # a unique optimum (no ties at that range): the same pairs
                assert got == ref


def test_sparse_path_runs_and_reports_rounds() -> None:
    rng = np.random.default_rng(3)
    c, a, t = tie_instance(rng, 300, 0.2, 40)
    stats: dict[str, object] = {}
    cc, aa, tt, names = check_matrices(c, a, t, None)
    got = solve_exact(cc, aa, tt, names, None, True, stats)
    assert stats["solver"] == "sparse"
    assert int(stats["kept_edges"]) < int(stats["edges"])  # type: ignore[call-overload]
    ref = solve_exact(cc, aa, tt, names, None, True, {}, kernel="rustworkx")
    assert (matching_cost(c, got), matching_cost(t, got)) == \
        (matching_cost(c, ref), matching_cost(t, ref))


def test_one_candidate_per_player_needs_pricing_widening_and_warm_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # One partner each: the first candidate graph lacks a perfect matching (widened)
    # and misses better pairs (priced in over several warm-started rounds).
    monkeypatch.setattr(_sparse, "CANDIDATES", 1)
    monkeypatch.setattr(_sparse, "TIE_WHOLE", 0)  # the tie phase by candidates too
    rng = np.random.default_rng(11)
    for n in (50, 120):
        c, a, t = tie_instance(rng, n, 0.2, 12)
        stats: dict[str, object] = {}
        got = sparse_exact(c, a, t, stats)
        assert got is not None and int(stats["pricing_rounds"]) >= 2  # type: ignore[call-overload]
        ref = min_weight_perfect_matching(c, a, tiebreak=t, method="rustworkx")
        assert (matching_cost(c, got), matching_cost(t, got)) == \
            (matching_cost(c, ref), matching_cost(t, ref))


@pytest.mark.parametrize("whole", [True, False])
def test_tie_levels_one_at_a_time_equal_the_combined_tie(
        whole: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # whole: each tight graph solved at once; else by candidates and pricing rounds
    if not whole:
        monkeypatch.setattr(_sparse, "TIE_WHOLE", 0)
        monkeypatch.setattr(_sparse, "TIE_CANDIDATES", 2)
    rng = np.random.default_rng(8)
    for n in (30, 90, 160):
        c, a, key = tie_instance(rng, n, 0.2, 4)
        rank2 = (np.arange(n)[:, None] - np.arange(n)[None, :]) ** 2
        combined = key * (int(rank2.max()) * (n // 2) + 1) + rank2
        stats: dict[str, object] = {}
        got = sparse_exact(c, a, combined, stats, tiers=(key, rank2))
        assert got is not None and "tie_edges" in stats
        if not whole:
            assert int(stats["tie_rounds"]) >= 2  # type: ignore[call-overload]
        ref = min_weight_perfect_matching(c, a, tiebreak=combined, method="rustworkx")
        assert [matching_cost(m, got) for m in (c, key, rank2)] == \
            [matching_cost(m, ref) for m in (c, key, rank2)]


def test_costs_beyond_the_kernel_fall_back_to_rustworkx() -> None:
    rng = np.random.default_rng(5)
    c, a = random_instance(rng, 20, low=0, high=1000)
    c = c * 2**50  # a range of 2**60: beyond the kernel's int64 duals
    assert sparse_exact(c, a, None, {}) is None
    stats: dict[str, object] = {}
    got = solve_exact(c, a, None, [str(k) for k in range(20)], None, False, stats)
    assert stats["solver"] == "rustworkx"
    assert matching_cost(c, got) == matching_cost(
        c, min_weight_perfect_matching(c // 2**50, a, method="networkx"))


def test_forbidden_pairs_without_a_perfect_matching_are_still_named() -> None:
    c = np.zeros((6, 6), dtype=np.int64)
    a = ~np.eye(6, dtype=np.bool_)
    a[0, :] = a[:, 0] = False
    a[0, 1] = a[1, 0] = True
    a[2, :] = a[:, 2] = False
    a[2, 1] = a[1, 2] = True  # 0 and 2 can only meet 1
    assert solve_or_none("exact", c, a) is None
    with pytest.raises(InfeasibleError, match="unpaired"):
        min_weight_perfect_matching(c, a)


@pytest.mark.parametrize(("n", "rounds", "seed"), [
    (201, 5, 1), pytest.param(300, 7, 2, marks=pytest.mark.slow)])
def test_swiss_fields_exact_equals_the_references(n: int, rounds: int, seed: int) -> None:
    ri = play_event(n, rounds, seed)
    got = pair_round(ri)
    assert got.stats["solver"] == "sparse"
    for method in ("rustworkx", "networkx"):
        ref = pair_round(ri, method=method)
        assert pairing_key(ri, [(t.black, t.white) for t in got.tables]) == \
            pairing_key(ri, [(t.black, t.white) for t in ref.tables])
        assert got.total_cost == ref.total_cost


def test_swiss_field_in_the_tiebreak_order_is_solved_level_by_level(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gameopt.pairing import pairer

    ri = play_event(151, 5, 4)
    monkeypatch.setattr(pairer, "MAX_COST", 0)  # the order as cost, then tiebreak
    got = pair_round(ri)
    assert got.stats["order"] == "tiebreak" and got.stats["solver"] == "sparse"
    assert "fallback" not in got.stats
    ref = pair_round(ri, method="rustworkx")
    assert pairing_key(ri, [(t.black, t.white) for t in got.tables]) == \
        pairing_key(ri, [(t.black, t.white) for t in ref.tables])


@st.composite
def small_graphs(draw: st.DrawFn) -> tuple[IntArray, npt.NDArray[np.bool_], IntArray]:
    n = 2 * draw(st.integers(1, 5))
    costs = draw(st.lists(st.integers(0, 6), min_size=n * n, max_size=n * n))
    ties = draw(st.lists(st.integers(0, 4), min_size=n * n, max_size=n * n))
    mask = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    c = np.triu(np.array(costs, dtype=np.int64).reshape(n, n), 1)
    t = np.triu(np.array(ties, dtype=np.int64).reshape(n, n), 1)
    a = np.triu(np.array(mask, dtype=np.bool_).reshape(n, n), 1)
    return c + c.T, a | a.T, t + t.T


@settings(max_examples=300, deadline=None)
@given(small_graphs())
def test_sparse_equals_brute_force_on_small_graphs(
        g: tuple[IntArray, npt.NDArray[np.bool_], IntArray]) -> None:
    c, a, t = g
    try:
        ref = brute_force_matching(c, a, tiebreak=t)
    except InfeasibleError:
        assert solve_or_none("exact", c, a) is None
        return
    got = sparse_exact(c, a, t, {})
    assert got is not None
    assert (matching_cost(c, got), matching_cost(t, got)) == \
        (matching_cost(c, ref), matching_cost(t, ref))


def test_first_tie_level_whole_and_lower_levels_on_candidates(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # one tie level: its tight graph whole (one run); a second level: candidates, priced
    monkeypatch.setattr(_sparse, "TIE_CANDIDATES", 2)
    rng = np.random.default_rng(21)
    c, a, key = tie_instance(rng, 120, 0.1, 3)
    rank2 = (np.arange(120)[:, None] - np.arange(120)[None, :]) ** 2
    combined = key * (int(rank2.max()) * 60 + 1) + rank2
    one: dict[str, object] = {}
    got = sparse_exact(c, a, key, one)
    assert got is not None and one["tie_rounds"] == 1
    ref = min_weight_perfect_matching(c, a, tiebreak=key, method="rustworkx")
    assert [matching_cost(m, got) for m in (c, key)] == [matching_cost(m, ref) for m in (c, key)]
    two: dict[str, object] = {}
    got = sparse_exact(c, a, combined, two, tiers=(key, rank2))
    assert got is not None and int(two["tie_rounds"]) >= 2  # type: ignore[call-overload]
    ref = min_weight_perfect_matching(c, a, tiebreak=combined, method="rustworkx")
    assert [matching_cost(m, got) for m in (c, key, rank2)] == \
        [matching_cost(m, ref) for m in (c, key, rank2)]


def test_warm_kernels_reaches_the_lower_tie_levels_candidate_choice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``warm_kernels`` also compiles ``few_per_vertex`` (the lower tie levels' candidate
    choice, which its small instance does not reach): it was compiled inside the first
    timed 1,000-player round of ``bench_pairing`` (1.6 s of its 1.84 s)."""
    from gameopt.pairing import matching

    calls = []
    real = matching.few_per_vertex

    def spy(*args: object) -> object:
        calls.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(matching, "few_per_vertex", spy)
    matching.warm_kernels()
    assert calls and all(a.dtype == np.int64 for a in calls[0][1:4])  # type: ignore[attr-defined]
