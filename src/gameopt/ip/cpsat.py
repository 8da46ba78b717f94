"""CP-SAT plumbing shared by every OR-Tools model: one ``solve``, one solution counter.

Every model in gameopt is built by a ``build_x_model(data) -> (model, vars)`` function and
solved here, so status handling lives in one place: a proven infeasibility becomes
:class:`~gameopt.errors.InfeasibleError`, a model error or a missing answer becomes
:class:`~gameopt.errors.SolverError`, and the caller reads values only from a result that
holds a solution.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from gameopt.core import Limit, StopFlag, make_rng, on_flag
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
    seconds : float
        Wall seconds the solver used (CP-SAT's own ``wall_time``).
    solver : cp_model.CpSolver
        The solver, to read values with ``solver.value(var)`` when there is a solution.
    stats : dict
        CP-SAT's figures: ``branches``, ``conflicts``, ``stop`` (``"time"`` or
        ``"requested"`` when the run was cut short, else ``None``).

    A :class:`~gameopt.core.Outcome`: ``clock`` is ``"wall"``, ``proven`` is true for
    ``"optimal"``.
    """

    status: str
    objective: float | None
    bound: float | None
    seconds: float
    solver: cp_model.CpSolver
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def clock(self) -> str:
        """``"wall"``: CP-SAT measures and limits wall time."""
        return "wall"

    @property
    def proven(self) -> bool:
        """True when CP-SAT proved the answer (an optimum, or a satisfied model)."""
        return self.status == "optimal"

    @property
    def wall_time(self) -> float:
        """The same as :attr:`seconds` (its name in CP-SAT)."""
        return self.seconds

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
    seconds : float
        Wall seconds the solver used.
    stop : str or None
        ``"time"`` or ``"requested"`` when the limit cut the enumeration short.
    """

    count: int
    complete: bool
    first: list[int] | None
    seconds: float
    stop: str | None = None

    @property
    def clock(self) -> str:
        """``"wall"``: CP-SAT measures and limits wall time."""
        return "wall"

    @property
    def wall_time(self) -> float:
        """The same as :attr:`seconds` (its name in CP-SAT)."""
        return self.seconds

    @property
    def proven(self) -> bool:
        """True when the count is exact (the enumeration finished)."""
        return self.complete

    @property
    def bound(self) -> float | None:
        """None: a count has no objective bound."""
        return None

    @property
    def stats(self) -> dict[str, Any]:
        return {"stop": self.stop}


def _run_limit(limit: Limit | None, time_limit: float | None, where: str
               ) -> tuple[float | None, StopFlag | None]:
    """The wall seconds and the stop flag a CP-SAT run gets from ``limit`` / ``time_limit``.

    ``time_limit`` is the short form of ``Limit(time=..., clock="wall")``; giving both is
    an error. CP-SAT limits wall time only, and has no node, depth or target limit here:
    a limit that asks for them is refused rather than ignored.
    """
    if time_limit is not None and (math.isnan(time_limit) or time_limit < 0):
        raise InvalidInputError(f"{where}: time_limit must be >= 0 seconds, got {time_limit!r}")
    if limit is None:
        return time_limit, None
    if time_limit is not None:
        raise InvalidInputError(f"{where}: give limit or time_limit, not both")
    if limit.time is not None and limit.clock != "wall":
        raise InvalidInputError(f"{where}: CP-SAT limits wall time; got a {limit.clock} "
                                "time limit (use Limit(time=..., clock='wall'))")
    unsupported = [name for name in ("nodes", "depth", "target")
                   if getattr(limit, name) is not None]
    if unsupported:
        raise InvalidInputError(f"{where}: CP-SAT takes a time limit and a stop flag, not "
                                f"{', '.join(unsupported)}")
    return limit.time, limit.stop


@contextlib.contextmanager
def _stopping(solver: cp_model.CpSolver, flag: StopFlag | None,
              poll: float = 0.01) -> Iterator[list[bool]]:
    """Stop ``solver`` when ``flag`` is set, while the ``with`` block runs.

    Yields a one-item list that holds True once the flag stopped the search.
    """
    seen = [False]
    if flag is None:
        yield seen
        return
    if flag.is_set():  # asked to stop before it began: a zero budget
        solver.parameters.max_time_in_seconds = 0.0
        seen[0] = True
        yield seen
        return

    def stop() -> None:
        seen[0] = True
        solver.stop_search()

    with on_flag(flag, stop, poll):
        yield seen


def _stop_reason(seconds: float | None, requested: bool,
                 status: cp_model.CpSolverStatus) -> str | None:
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return None
    if requested:
        return "requested"
    # Not finished, not asked to stop: with a time limit set, the limit ended the search
    # (CP-SAT may stop a few milliseconds short of it).
    return "time" if seconds is not None else None


def _make_solver(time_limit: float | None, workers: int, seed: int | None,
                 parameters: Mapping[str, object] | None, where: str) -> cp_model.CpSolver:
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


def solve(model: cp_model.CpModel, *, limit: Limit | None = None,
          time_limit: float | None = None, workers: int = 1,
          seed: int | None = 0, require_solution: bool = True,
          parameters: Mapping[str, object] | None = None,
          callback: cp_model.CpSolverSolutionCallback | None = None) -> CpsatResult:
    """Solve a CP-SAT model and map the status to a result or an error.

    Parameters
    ----------
    model : cp_model.CpModel
        The model, as built by a ``build_x_model`` function.
    limit : Limit or None
        Wall time (``clock="wall"``) and an external stop flag, which stops the search at
        once from any thread. Nodes, depth and target are refused.
    time_limit : float or None
        Short form of ``Limit(time=time_limit, clock="wall")`` (``None``: none).
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
        For a negative time limit, a worker count below 1, a bad seed or parameter, or a
        limit CP-SAT cannot keep (a CPU clock, nodes, depth, target).
    """
    where = f"CP-SAT model {model.name!r}" if model.name else "CP-SAT"
    time_limit, flag = _run_limit(limit, time_limit, "solve")
    solver = _make_solver(time_limit, workers, seed, parameters, "solve")
    _check_model(model, "solve")
    with _stopping(solver, flag) as requested:
        status = solver.solve(model, callback)
    name = STATUS_NAMES.get(status, str(status))
    if status == cp_model.INFEASIBLE:
        raise InfeasibleError(f"{where}: proven infeasible in {solver.wall_time:.3g} s")
    if status == cp_model.MODEL_INVALID:
        raise SolverError(f"{where}: model or parameters invalid: {_invalid_reason(solver)}")
    if status == cp_model.UNKNOWN and require_solution:
        within = f" within the {time_limit:g} s time limit" if time_limit is not None else ""
        raise SolverError(f"{where}: no solution and no proof of infeasibility{within} "
                          f"(status UNKNOWN after {solver.wall_time:.3g} s)")
    has_objective = model.has_objective()
    has_solution = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return CpsatResult(
        status=name,
        objective=float(solver.objective_value) if has_objective and has_solution else None,
        bound=float(solver.best_objective_bound) if has_objective else None,
        seconds=float(solver.wall_time),
        solver=solver,
        stats={"branches": int(solver.num_branches), "conflicts": int(solver.num_conflicts),
               "stop": _stop_reason(time_limit, requested[0], status)},
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
                    *, run_limit: Limit | None = None, time_limit: float | None = None,
                    seed: int | None = 0) -> SolutionCount:
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
    run_limit : Limit or None
        Wall time and an external stop flag, as for :func:`solve` (``limit`` is the
        solution count here).
    time_limit : float or None
        Short form of ``Limit(time=time_limit, clock="wall")``.
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
    time_limit, flag = _run_limit(run_limit, time_limit, "count_solutions")
    solver = _make_solver(time_limit, 1, seed, {
        "enumerate_all_solutions": True,
        "keep_all_feasible_solutions_in_presolve": True,
    }, "count_solutions")
    _check_model(model, "count_solutions")
    counter = _Counter(variables, limit)
    with _stopping(solver, flag) as requested:
        status = solver.solve(model, counter)
    if status == cp_model.MODEL_INVALID:
        raise SolverError(
            f"count_solutions: model or parameters invalid: {_invalid_reason(solver)}")
    # OPTIMAL: enumeration finished with solutions; INFEASIBLE: finished with none.
    # FEASIBLE / UNKNOWN: stopped (limit reached or time limit) before finishing.
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and counter.count < limit
    stop = None if complete or counter.count >= limit else _stop_reason(
        time_limit, requested[0], status)
    return SolutionCount(count=counter.count, complete=complete, first=counter.first,
                         seconds=float(solver.wall_time), stop=stop)
