"""The generic combinatorial-evolution engine on a toy problem the test defines itself."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from gameopt.core import Limit, Outcome, StopFlag
from gameopt.core.stop import Deadline, StopRule
from gameopt.errors import InvalidInputError
from gameopt.localsearch import EvolutionParams, evolve


class Perm:
    def __init__(self, length: int) -> None:
        self.length = length
        self.dtype = np.dtype(np.int32)
        self.data = (np.zeros(1, dtype=np.int64),)
        self.operators = "tests.localsearch.toy_ops"


def test_solves_toy_problem() -> None:
    res = evolve(Perm(12), EvolutionParams(organisms=20, max_epochs=2000), seed=3)
    assert res.status == "solved" and res.objective == 0
    assert np.array_equal(res.solution, np.arange(12))
    assert res.stats["evaluations"] > 0


def test_same_seed_same_result() -> None:
    params = EvolutionParams(organisms=10, max_epochs=30, max_restarts=2)
    a = evolve(Perm(30), params, seed=11)
    b = evolve(Perm(30), params, seed=11)
    c = evolve(Perm(30), params, seed=12)
    assert a.objective == b.objective and np.array_equal(a.solution, b.solution)
    assert a.stats["run_best_errors"] == b.stats["run_best_errors"]
    assert a.iterations == b.iterations == 90
    assert a.status == "budget" and a.restarts == 2
    assert not (np.array_equal(a.solution, c.solution) and a.stats == c.stats)


def test_chunking_does_not_change_the_course() -> None:
    p1 = EvolutionParams(organisms=10, max_epochs=40, max_restarts=1, chunk_epochs=1)
    p2 = EvolutionParams(organisms=10, max_epochs=40, max_restarts=1, chunk_epochs=40)
    a, b = evolve(Perm(30), p1, seed=5), evolve(Perm(30), p2, seed=5)
    assert np.array_equal(a.solution, b.solution) and a.stats["evaluations"] == b.stats[
        "evaluations"]


def test_stop_rules_and_progress() -> None:
    seen = []
    params = EvolutionParams(organisms=10, max_epochs=10**6, chunk_epochs=10, target=-1)
    res = evolve(Perm(200), params, seed=1, stop=StopRule(max_iterations=55),
                 progress=seen.append)
    assert res.status == "iterations" and res.iterations == 55
    assert seen and seen[-1].done == 55 and seen[-1].task == "evolution"

    res = evolve(Perm(200), params, seed=1, stop=StopRule(deadline=Deadline(0.05)))
    assert res.status == "time"

    rule = StopRule()
    threading.Timer(0.05, rule.request_stop).start()
    res = evolve(Perm(200), params, seed=1, stop=rule)
    assert res.status == "requested"


@pytest.mark.parametrize("field, value", [("organisms", 1), ("explorer_fraction", 1.0),
                                          ("mistake_prob", 1.5), ("max_epochs", 0),
                                          ("max_restarts", -1), ("max_age", 0)])
def test_bad_params(field: str, value: float) -> None:
    with pytest.raises(InvalidInputError, match=field):
        EvolutionParams(**{field: value})


def test_article_defaults() -> None:
    p = EvolutionParams()
    assert (p.organisms, p.max_epochs, p.max_restarts, p.mistake_prob) == (200, 5000, 20, 0.001)
    assert p.workers == 180 and not p.accept_equal


def test_kernel_specialised_per_operators_module(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gameopt.localsearch import _specialise

    with pytest.raises(InvalidInputError, match="'no.such.module' cannot be imported"):
        _specialise.kernel_for("no.such.module")
    with pytest.raises(InvalidInputError, match="lacks random_fill"):
        _specialise.kernel_for("gameopt.core.table")
    k = _specialise.kernel_for("tests.localsearch.toy_ops")
    assert k.__name__.startswith("_gameopt_evo_tests_localsearch_toy_ops_")
    assert _specialise.kernel_for("tests.localsearch.toy_ops") is k


def test_limit_is_started_by_the_search() -> None:
    params = EvolutionParams(organisms=10, max_epochs=10**6, chunk_epochs=10, target=-1)
    res = evolve(Perm(200), params, seed=1, limit=Limit(nodes=55, clock="cpu"))
    assert res.status == "iterations" and res.iterations == 55 and res.clock == "cpu"
    res = evolve(Perm(200), params, seed=1, limit=Limit(time=0.05, clock="wall"))
    assert res.status == "time" and res.clock == "wall" and res.seconds >= 0.05
    flag = StopFlag()
    flag.set()
    res = evolve(Perm(200), params, seed=1, limit=Limit(stop=flag))
    assert res.status == "requested" and res.iterations == 10
    assert isinstance(res, Outcome) and not res.proven and res.bound is None


def test_limit_target_stops_at_the_objective() -> None:
    params = EvolutionParams(organisms=10, max_epochs=10**6, chunk_epochs=1, target=-1)
    res = evolve(Perm(30), params, seed=1, limit=Limit(target=3))
    assert res.status == "target" and res.objective <= 3


def test_limit_and_stop_rule_are_exclusive() -> None:
    with pytest.raises(InvalidInputError, match="limit or stop"):
        evolve(Perm(10), seed=1, limit=Limit(nodes=1), stop=StopRule())
    with pytest.raises(InvalidInputError, match="depth"):
        evolve(Perm(10), seed=1, limit=Limit(depth=3))
