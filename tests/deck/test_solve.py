"""The entry point: one registry, one result shape, limits on a named clock, progress."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit, Outcome, Progress, StopFlag
from gameopt.deck import METHODS, DeckProblem, DeckResult, solve
from gameopt.deck.build import build_deck
from gameopt.deck.mdp import solve_mdp
from gameopt.deck.solve import DECK_METHODS, MDP_METHODS
from gameopt.deck.verify import is_feasible
from gameopt.errors import InvalidInputError


def _problem(seed: int = 0, n: int = 30, size: int = 6) -> DeckProblem:
    rng = np.random.default_rng(seed)
    U = rng.random((n, n))
    cost = rng.integers(1, 10, n).astype(np.int32)
    cap = int(np.sort(cost)[:size].sum()) + 2 * size
    return DeckProblem(((U + U.T) / 2).astype(np.float32), size, cost=cost, cost_cap=cap,
                       character=np.arange(n, dtype=np.int32) // 2, char_limit=1)


def test_registry_lists_every_method_once() -> None:
    assert list(METHODS) == ["greedy", "hc", "vds", "tabu", "exact", "bnb"]
    assert MDP_METHODS == ("hc", "vds", "tabu")
    assert DECK_METHODS == ("vds", "exact", "bnb")
    assert {m.clock for m in METHODS.values()} == {"cpu", "wall"}
    assert [m.name for m in METHODS.values() if m.exact] == ["exact", "bnb"]


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_gives_one_result_shape(method: str) -> None:
    p = _problem(n=16, size=5)
    r = solve(p, method, seed=0)
    assert isinstance(r, DeckResult) and isinstance(r, Outcome)
    assert r.method == method and is_feasible(p, r.deck)
    assert r.clock == METHODS[method].clock and r.seconds >= 0
    assert r.cost == int(p.cost[list(r.deck)].sum())  # type: ignore[index]
    if METHODS[method].exact:
        assert r.proven and r.bound is not None and r.bound >= r.score - 1e-9
        # bnb: float tolerance; exact: the rounding slack of the integer scores
        assert r.gap is not None and 0 <= r.gap < (1e-6 if method == "bnb" else 1e-2)
    else:
        assert not r.proven and r.bound is None and r.gap is None


@pytest.mark.parametrize("method", ["greedy", "hc", "vds", "tabu", "bnb"])
def test_same_deck_as_the_method_itself(method: str) -> None:
    p = _problem(3, n=40, size=7)
    if method == "bnb":
        from gameopt.deck.bnb import solve_bnb

        direct = solve_bnb(p, seed=1)
    else:
        direct = build_deck(p, method, seed=1)
    assert solve(p, method, seed=1).deck == direct.deck


def test_time_limit_clock_is_reported() -> None:
    p = _problem()
    assert solve(p, "vds", limit=Limit(time=5, clock="wall")).clock == "wall"
    assert solve(p, "vds", limit=Limit(time=5, clock="cpu")).clock == "cpu"
    assert solve(p, "vds").clock == "cpu"  # no time given: the method's own clock
    assert solve(_problem(n=12, size=4), "exact", limit=Limit(time=5)).clock == "wall"
    with pytest.raises(InvalidInputError, match="wall time"):
        solve(p, "exact", limit=Limit(time=5, clock="cpu"))


def test_bad_method_option_and_limit() -> None:
    p = _problem()
    with pytest.raises(InvalidInputError, match="'anneal' is not one of greedy, hc, vds"):
        solve(p, "anneal")
    with pytest.raises(InvalidInputError, match="unknown option 'stall'"):
        solve(p, "vds", stall=3)
    with pytest.raises(InvalidInputError, match="not a node or depth limit"):
        solve(p, "vds", limit=Limit(nodes=10))
    with pytest.raises(InvalidInputError, match="does not suit MDP"):
        solve_mdp(p, "bnb")


def test_progress_after_each_restart_and_stop_flag() -> None:
    p = _problem()
    seen: list[Progress] = []
    r = solve(p, "vds", restarts=5, progress=seen.append)
    assert seen[0].task == "vds" and seen[0].total == 5 and seen[-1].done == 5
    assert seen[-1].best == pytest.approx(r.score)
    flag = StopFlag()
    flag.set()
    stopped = solve(p, "vds", restarts=50, limit=Limit(stop=flag))
    assert stopped.stats["restarts"] == 1 and stopped.stats["stop"] == "requested"


def test_target_stops_the_restarts() -> None:
    p = _problem()
    best = solve(p, "vds", restarts=30).score
    r = solve(p, "vds", restarts=10**6, limit=Limit(target=best - 1.0))
    assert r.score >= best - 1.0 and r.stats["stop"] == "target"


def test_exact_reports_cpsat_solutions() -> None:
    p = _problem(1, n=16, size=5)
    seen: list[Progress] = []
    r = solve(p, "exact", limit=Limit(time=20), progress=seen.append,
              hint=solve(p, "greedy").deck)
    assert r.proven
    assert all(s.task == "exact" and "bound" in s.info for s in seen)
