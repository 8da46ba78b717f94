"""CP-SAT plumbing shared by every OR-Tools model: one ``solve``, one solution counter.

Every model in gameopt is built by a ``build_x_model(data) -> (model, vars)`` function and
solved here, so status handling lives in one place: a proven infeasibility becomes
:class:`~gameopt.errors.InfeasibleError`, a model error or a missing answer becomes
:class:`~gameopt.errors.SolverError`, and the caller reads values only from a result that
holds a solution.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from gameopt.core import make_rng
from gameopt.errors import InfeasibleError, InvalidInputError, SolverError

__all__ = ["CpsatResult", "SolutionCount", "solve", "count_solutions", "STATUS_NAMES"]

_INT32_MAX = 2**31 - 1

#: CP-SAT status -> the status word gameopt results use.
STATUS_NAMES: dict[cp_model.CpSolverStatus, str] = {
    cp_model.OPTIMAL: "optimal",
    cp_model.FEASIBLE: "feasible",
    cp_model.INFEASIBLE: "infeasible",
    cp_model.MODEL_INVALID: "model_invalid",
    cp_model.UNKNOWN: "unknown",
}


@dataclass(frozen=True)
class CpsatResult:
    """What one CP-SAT run found.

    Attributes
    ----------
    status : str
        ``"optimal"`` (proven; also a satisfied model without objective), ``"feasible"``
        (a solution, not proven optimal) or ``"unknown"`` (no solution, no proof; only when
        the caller passed ``require_solution=False``).
    objective : float or None
        Objective value of the solution, ``None`` without objective or solution.
    bound : float or None
        Best proven bound on the objective, ``None`` without objective.
    wall_time : float
        Seconds the solver used.
    solver : cp_model.CpSolver
        The solver, to read values with ``solver.value(var)`` when there is a solution.
    """

    status: str
    objective: float | None
    bound: float | None
    wall_time: float
    solver: cp_model.CpSolver

    @property
    def has_solution(self) -> bool:
        """True if values can be read from :attr:`solver`."""
        return self.status in ("optimal", "feasible")

    def value(self, expr: cp_model.LinearExprT) -> int:
        """Value of a variable or linear expression in the solution.

        Raises
        ------
        SolverError
            If the run found no solution.
        """
        if not self.has_solution:
            raise SolverError(f"CP-SAT found no solution (status {self.status}): no value to read")
        return int(self.solver.value(expr))


@dataclass(frozen=True)
class SolutionCount:
    """What :func:`count_solutions` found.

    Attributes
    ----------
    count : int
        Solutions found, at most the limit.
    complete : bool
        True if the search proved there are no more than ``count`` (enumeration finished);
        False if it stopped at the limit or at the time limit.
    first : list of int or None
        Values of the counted variables in the first solution found, ``None`` if none.
    wall_time : float
        Seconds the solver used.
    """

    count: int
    complete: bool
    first: list[int] | None
    wall_time: float


def _make_solver(time_limit: float | None, workers: int, seed: int | None,
                 parameters: Mapping[str, object] | None, where: str) -> cp_model.CpSolver:
    if time_limit is not None and (math.isnan(time_limit) or time_limit < 0):
        raise InvalidInputError(f"{where}: time_limit must be >= 0 seconds, got {time_limit!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidInputError(f"{where}: workers must be a positive integer, got {workers!r}")
    solver = cp_model.CpSolver()
    params = solver.parameters
    if time_limit is not None and math.isfinite(time_limit):
        params.max_time_in_seconds = float(time_limit)
    params.num_workers = workers
    params.random_seed = _cpsat_seed(seed, where)
    for name, value in (parameters or {}).items():
        try:
            if isinstance(value, list | tuple):  # repeated field, e.g. subsolvers
                field = getattr(params, name)
                field.clear()
                field.extend(value)
            else:
                setattr(params, name, value)
        except (AttributeError, TypeError, ValueError) as exc:
            raise InvalidInputError(
                f"{where}: bad CP-SAT parameter {name}={value!r} ({exc})") from exc
    return solver


def _cpsat_seed(seed: int | None, where: str) -> int:
    # CP-SAT's random_seed is an int32: fold the 63-bit seeds of spawn_seeds into it.
    if seed is None:  # a fresh seed, as everywhere in gameopt
        return int(make_rng(None).integers(0, _INT32_MAX))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InvalidInputError(f"{where}: seed must be a non-negative integer or None, "
                                f"got {seed!r}")
    return int(seed) % _INT32_MAX


def _invalid_reason(solver: cp_model.CpSolver) -> str:
    # After MODEL_INVALID the response's solution_info says why (bad model or parameters).
    return str(solver.solution_info()) or "no reason given"


def _check_model(model: cp_model.CpModel, where: str) -> None:
    problem = model.validate()
    if problem:
        name = model.name or "(unnamed)"
        raise SolverError(f"{where}: CP-SAT model {name} is invalid: {problem}")


def solve(model: cp_model.CpModel, *, time_limit: float | None = None, workers: int = 1,
          seed: int | None = 0, require_solution: bool = True,
          parameters: Mapping[str, object] | None = None,
          callback: cp_model.CpSolverSolutionCallback | None = None) -> CpsatResult:
    """Solve a CP-SAT model and map the status to a result or an error.

    Parameters
    ----------
    model : cp_model.CpModel
        The model, as built by a ``build_x_model`` function.
    time_limit : float or None
        Wall-clock limit in seconds (``None``: none).
    workers : int
        Search workers (threads). With 1 worker and a fixed seed the run is deterministic.
    seed : int or None
        CP-SAT ``random_seed``; ``None`` draws a fresh one.
    require_solution : bool
        If True (default), a run that ends with neither a solution nor a proof (status
        ``UNKNOWN``, usually the time limit) raises; if False it returns ``status="unknown"``.
    parameters : mapping or None
        Further ``SatParameters`` fields by name (``{"log_search_progress": True}``).
    callback : cp_model.CpSolverSolutionCallback or None
        Called at each solution found.

    Returns
    -------
    CpsatResult

    Raises
    ------
    InfeasibleError
        If the solver proved the model has no solution.
    SolverError
        If the model is invalid (the message carries CP-SAT's reason), or if no solution was
        found and ``require_solution`` is True.
    InvalidInputError
        For a negative time limit, a worker count below 1, a bad seed or parameter.
    """
    where = f"CP-SAT model {model.name!r}" if model.name else "CP-SAT"
    solver = _make_solver(time_limit, workers, seed, parameters, "solve")
    _check_model(model, "solve")
    status = solver.solve(model, callback)
    name = STATUS_NAMES.get(status, str(status))
    if status == cp_model.INFEASIBLE:
        raise InfeasibleError(f"{where}: proven infeasible in {solver.wall_time:.3g} s")
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"{where}: model or parameters invalid: {_invalid_reason(solver)}")
    if status == cp_model.UNKNOWN and require_solution:
        limit = f" within the {time_limit:g} s time limit" if time_limit is not None else ""
        raise SolverError(f"{where}: no solution and no proof of infeasibility{limit} "
                          f"(status UNKNOWN after {solver.wall_time:.3g} s)")
    has_objective = model.has_objective()
    has_solution = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return CpsatResult(
        status=name,
        objective=float(solver.objective_value) if has_objective and has_solution else None,
        bound=float(solver.best_objective_bound) if has_objective else None,
        wall_time=float(solver.wall_time),
        solver=solver,
    )


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts solutions, keeps the first one's values, stops the search at the limit."""

    def __init__(self, variables: Sequence[cp_model.IntVar], limit: int) -> None:
        super().__init__()
        self.variables = list(variables)
        self.limit = limit
        self.count = 0
        self.first: list[int] | None = None

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.first is None:
            self.first = [int(self.value(v)) for v in self.variables]
        if self.count >= self.limit:
            self.stop_search()


def count_solutions(model: cp_model.CpModel, variables: Sequence[cp_model.IntVar], limit: int,
                    *, time_limit: float | None = None, seed: int | None = 0) -> SolutionCount:
    """Count the solutions of a model without objective, up to ``limit``.

    Parameters
    ----------
    model : cp_model.CpModel
        A satisfaction model (no objective). Every variable of the model should be fixed by
        the values of ``variables`` (auxiliary variables functionally determined), since
        CP-SAT enumerates assignments of the whole model.
    variables : sequence of IntVar
        The variables whose values are returned for the first solution.
    limit : int
        Stop after this many solutions (>= 1). ``count == limit`` with ``complete=False``
        means "at least ``limit``".
    time_limit : float or None
        Wall-clock limit in seconds.
    seed : int or None
        CP-SAT ``random_seed`` (``None``: fresh), which decides which solution comes first.

    Returns
    -------
    SolutionCount
        ``count=0, complete=True`` for a model proven infeasible (no error: zero is a count).

    Raises
    ------
    InvalidInputError
        If ``limit < 1`` or the model has an objective.
    SolverError
        If the model is invalid.

    Notes
    -----
    Runs ``enumerate_all_solutions=True`` on a single worker (CP-SAT enumerates on one
    worker only). Enumeration needs presolve to keep every feasible solution: CP-SAT's
    presolve may otherwise fix a free variable to one value, or merge equivalent ones, and
    the count would be short. Setting ``enumerate_all_solutions`` makes CP-SAT keep all
    feasible solutions in presolve (``keep_all_feasible_solutions_in_presolve``); we set
    that flag as well, explicitly, and leave the rest of presolve on, since it only
    simplifies what does not remove solutions.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInputError(f"count_solutions: limit must be a positive integer, got {limit!r}")
    if model.has_objective():
        raise InvalidInputError(
            "count_solutions: the model has an objective; counting needs a satisfaction model")
    solver = _make_solver(time_limit, 1, seed, {
        "enumerate_all_solutions": True,
        "keep_all_feasible_solutions_in_presolve": True,
    }, "count_solutions")
    _check_model(model, "count_solutions")
    counter = _Counter(variables, limit)
    status = solver.solve(model, counter)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(
            f"count_solutions: model or parameters invalid: {_invalid_reason(solver)}")
    # OPTIMAL: enumeration finished with solutions; INFEASIBLE: finished with none.
    # FEASIBLE / UNKNOWN: stopped (limit reached or time limit) before finishing.
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and counter.count < limit
    return SolutionCount(count=counter.count, complete=complete, first=counter.first,
                         wall_time=float(solver.wall_time))
