"""pair_round's result: the run it describes (seconds, clock, proven, bound, stats)."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Outcome
from gameopt.pairing import METHODS, PROVEN_METHODS, Pairing, pair_round
from gameopt.pairing.matching import min_weight_perfect_matching
from gameopt.pairing.penalties import cost_matrix
from tests.pairing.test_matching import play_event


@pytest.mark.parametrize("method", [m for m in METHODS if m != "brute"])
def test_result_describes_the_run(method: str) -> None:
    ri = play_event(41, 4, seed=3)
    p = pair_round(ri, method=method)
    assert isinstance(p, Outcome)
    assert p.clock == "cpu" and 0.0 <= p.seconds < 60.0
    assert p.proven is (method in PROVEN_METHODS)
    assert p.bound == (float(p.total_cost) if p.proven else None)
    assert p.stats["players"] == 41


def test_exact_reports_its_pruning_and_bounds() -> None:
    ri = play_event(60, 5, seed=2)
    p = pair_round(ri)
    s = p.stats
    assert s["edges"] == 60 * 59 // 2  # no forbidden pair: the complete graph
    assert 30 <= s["kept_edges"] < s["edges"]
    assert s["lower_bound"] <= p.total_cost <= s["upper_bound"]


def test_brute_is_proven_on_a_small_field() -> None:
    p = pair_round(play_event(9, 3, seed=1), method="brute")
    assert p.proven and p.bound == p.total_cost


def test_the_run_does_not_change_equality() -> None:
    ri = play_event(20, 3, seed=5)
    a, b = pair_round(ri), pair_round(ri)
    assert a == b and a.stats == b.stats
    plain = Pairing(a.round_no, a.tables, a.total_cost, a.method)
    assert plain == a and plain.seconds == 0.0 and not plain.proven


def test_exact_total_is_the_matching_optimum() -> None:
    # The bound claimed is the optimum of the field's matching (bye included).
    ri = play_event(21, 3, seed=8)
    pc = cost_matrix(ri)
    n = len(pc.players)
    m = n + 1
    cost = np.zeros((m, m), dtype=np.int64)
    allowed = np.zeros((m, m), dtype=np.bool_)
    cost[:n, :n], allowed[:n, :n] = pc.cost, pc.allowed
    cost[:n, n] = cost[n, :n] = pc.bye
    allowed[:n, n] = allowed[n, :n] = pc.bye_allowed
    pairs = min_weight_perfect_matching(cost, allowed, method="networkx")
    assert pair_round(ri).bound == sum(int(cost[u, v]) for u, v in pairs)
