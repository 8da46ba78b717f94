"""The shared CP-SAT plumbing on tiny models: status mapping, errors, solution counts."""

from __future__ import annotations

import itertools
import threading

import pytest
from ortools.sat.python import cp_model

from gameopt.core import Limit, StopFlag
from gameopt.errors import InfeasibleError, InvalidInputError, SolverError
from gameopt.ip import count_solutions, solve


def knapsack() -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """Max 3a + 4b + 5c with 2a + 3b + 4c <= 5, binary: optimum 7 (a, b)."""
    model = cp_model.CpModel()
    x = [model.new_bool_var(n) for n in "abc"]
    model.add(2 * x[0] + 3 * x[1] + 4 * x[2] <= 5)
    model.maximize(3 * x[0] + 4 * x[1] + 5 * x[2])
    return model, x


def three_solutions() -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """x + y == 2 with x, y in 0..2: (0,2), (1,1), (2,0)."""
    model = cp_model.CpModel()
    x = model.new_int_var(0, 2, "x")
    y = model.new_int_var(0, 2, "y")
    model.add(x + y == 2)
    return model, [x, y]


def infeasible() -> cp_model.CpModel:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 5, "x")
    y = model.new_int_var(0, 5, "y")
    model.add(x + y >= 11)
    return model


def test_optimal_with_objective() -> None:
    model, x = knapsack()
    result = solve(model)
    assert result.status == "optimal"
    assert result.has_solution
    assert result.objective == 7.0
    assert result.bound == 7.0
    assert [result.value(v) for v in x] == [1, 1, 0]
    assert result.wall_time >= 0


def test_satisfaction_model() -> None:
    model, (x, y) = three_solutions()
    model.add(x >= 2)
    result = solve(model, seed=5)
    assert result.status == "optimal"
    assert result.objective is None and result.bound is None
    assert (result.value(x), result.value(y)) == (2, 0)
    assert result.value(x + 2 * y) == 2


def test_infeasible_raises() -> None:
    with pytest.raises(InfeasibleError, match=r"proven infeasible"):
        solve(infeasible())


def test_infeasible_raises_with_model_name() -> None:
    model = infeasible()
    model.name = "tiny"
    with pytest.raises(InfeasibleError, match=r"CP-SAT model 'tiny': proven infeasible"):
        solve(model, require_solution=False)


def test_invalid_model_raises() -> None:
    model = cp_model.CpModel()
    model.new_int_var(5, 3, "empty")
    with pytest.raises(SolverError, match=r"is invalid: var #0 has no domain"):
        solve(model)


def test_invalid_parameters_raise() -> None:
    model, _ = three_solutions()
    with pytest.raises(SolverError, match=r"model or parameters invalid: .*interleave"):
        solve(model, parameters={"enumerate_all_solutions": True, "interleave_search": True})


def test_unknown_parameter_name() -> None:
    model, _ = three_solutions()
    with pytest.raises(InvalidInputError, match=r"bad CP-SAT parameter no_such_thing=1"):
        solve(model, parameters={"no_such_thing": 1})


def hard_model() -> cp_model.CpModel:
    """Pigeonhole 13 pigeons in 12 holes: infeasible, but not fast to prove."""
    model = cp_model.CpModel()
    pigeons, holes = 13, 12
    x = [[model.new_bool_var(f"p{p}h{h}") for h in range(holes)] for p in range(pigeons)]
    for p in range(pigeons):
        model.add_bool_or(x[p])
    for h in range(holes):
        for p, q in itertools.combinations(range(pigeons), 2):
            model.add_bool_or([x[p][h].Not(), x[q][h].Not()])
    return model


def test_unknown_status_at_time_limit() -> None:
    # Presolve off so the solver cannot see the pigeonhole structure at once.
    params = {"cp_model_presolve": False, "symmetry_level": 0}
    with pytest.raises(SolverError, match=r"no solution and no proof of infeasibility within "
                       r"the 0.01 s time limit \(status UNKNOWN"):
        solve(hard_model(), time_limit=0.01, parameters=params)
    result = solve(hard_model(), time_limit=0.01, parameters=params, require_solution=False)
    assert result.status == "unknown"
    assert not result.has_solution
    with pytest.raises(SolverError, match=r"no value to read"):
        result.value(0)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"time_limit": -1.0}, r"solve: time_limit must be >= 0 seconds, got -1.0"),
    ({"workers": 0}, r"solve: workers must be a positive integer, got 0"),
    ({"seed": -2}, r"solve: seed must be a non-negative integer or None, got -2"),
])
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    model, _ = three_solutions()
    with pytest.raises(InvalidInputError, match=message):
        solve(model, **kwargs)  # type: ignore[arg-type]


def test_large_and_fresh_seeds_are_accepted() -> None:
    model, _ = three_solutions()
    assert solve(model, seed=2**62 + 12345).status == "optimal"
    assert solve(model, seed=None, workers=2).status == "optimal"


# --- counting -----------------------------------------------------------------------------

def test_count_three_solutions() -> None:
    model, xy = three_solutions()
    found = count_solutions(model, xy, limit=10)
    assert found.count == 3
    assert found.complete
    assert found.first is not None and sum(found.first) == 2


def test_count_with_a_fixed_variable_presolve_keeps_solutions() -> None:
    # z appears in no constraint: presolve would fix it unless told to keep every solution.
    model, xy = three_solutions()
    z = model.new_int_var(0, 1, "z")
    found = count_solutions(model, [*xy, z], limit=100)
    assert (found.count, found.complete) == (6, True)


def test_count_limit_is_respected() -> None:
    model, xy = three_solutions()
    for limit in (1, 2, 3):
        found = count_solutions(model, xy, limit=limit)
        assert found.count == limit
        assert not found.complete  # stopped at the limit: "at least limit"
    assert count_solutions(model, xy, limit=4).complete


def test_count_infeasible_is_zero() -> None:
    found = count_solutions(infeasible(), [], limit=2)
    assert (found.count, found.complete, found.first) == (0, True, None)


def test_count_refuses_objective_and_bad_limit() -> None:
    model, x = knapsack()
    with pytest.raises(InvalidInputError, match=r"the model has an objective"):
        count_solutions(model, x, limit=2)
    model, xy = three_solutions()
    with pytest.raises(InvalidInputError, match=r"limit must be a positive integer, got 0"):
        count_solutions(model, xy, limit=0)


def test_count_same_seed_same_first_solution() -> None:
    model, xy = three_solutions()
    firsts = {tuple(count_solutions(model, xy, limit=1, seed=9).first or ()) for _ in range(3)}
    assert len(firsts) == 1


def test_result_is_an_outcome_on_the_wall_clock() -> None:
    from gameopt.core import Outcome

    model, _ = knapsack()
    result = solve(model, limit=Limit(time=10.0))
    assert isinstance(result, Outcome)
    assert result.clock == "wall" and result.proven and result.bound == 7.0
    assert result.seconds == result.wall_time >= 0 and result.stats["stop"] is None
    count = count_solutions(*three_solutions(), 10)
    assert isinstance(count, Outcome) and count.proven and count.clock == "wall"


def test_limit_time_and_stop_flag() -> None:
    params = {"cp_model_presolve": False, "symmetry_level": 0}
    result = solve(hard_model(), limit=Limit(time=0.05), parameters=params,
                   require_solution=False)
    assert not result.proven and result.stats["stop"] == "time"
    flag = StopFlag()
    threading.Timer(0.1, flag.set).start()
    result = solve(hard_model(), limit=Limit(stop=flag), parameters=params,
                   require_solution=False)
    assert not result.proven and result.stats["stop"] == "requested"
    assert result.seconds < 30


@pytest.mark.parametrize("kwargs, message", [
    ({"limit": Limit(time=1.0, clock="cpu")}, "CP-SAT limits wall time"),
    ({"limit": Limit(nodes=10)}, "not nodes"),
    ({"limit": Limit(time=1.0), "time_limit": 1.0}, "not both"),
])
def test_limits_cpsat_cannot_keep_are_refused(kwargs: dict[str, object], message: str) -> None:
    model, _ = knapsack()
    with pytest.raises(InvalidInputError, match=message):
        solve(model, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=message):
        count_solutions(*three_solutions(), 2,
                        run_limit=kwargs["limit"],  # type: ignore[arg-type]
                        time_limit=kwargs.get("time_limit"))  # type: ignore[arg-type]
