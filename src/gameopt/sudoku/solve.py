"""One entry point over the three Sudoku solvers, with every solution verified."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.progress import ProgressCallback
from gameopt.errors import InvalidInputError, SolverError
from gameopt.localsearch.evolution import EvolutionParams
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.verify import solution_problems

__all__ = ["METHODS", "SUDOKU_EVOLUTION", "SudokuSolution", "solve"]

METHODS = ("evolution", "exact", "cpsat")

#: gameopt's evolution settings for Sudoku: the article's values, plus workers that also
#: accept neighbours of equal error (plateau moves). With ``prune=True`` (the default of
#: :func:`solve`) this is measured in ``benchmarks/bench_sudoku_evolution.py`` against the
#: article's configuration.
SUDOKU_EVOLUTION = EvolutionParams(accept_equal=True)


@dataclass(frozen=True)
class SudokuSolution:
    """What a solver says about a puzzle.

    Attributes
    ----------
    method : str
        ``"evolution"``, ``"exact"`` or ``"cpsat"``.
    status : str
        ``"unique"`` (a solution, proven the only one), ``"multiple"`` (at least two;
        ``solution`` is one of them), ``"none"`` (proven unsolvable), ``"solved"`` (a
        solution, uniqueness not examined), ``"unsolved"`` (budget or time ran out; no
        solution).
    solution : ndarray of int8, shape (n*n,), or None
        A verified solution.
    count : int or None
        Solutions counted (capped at the count limit) for the exact methods.
    elapsed : float
        Wall seconds.
    stats : dict
        Method-specific figures (epochs, restarts, nodes...).
    """

    method: str
    status: str
    solution: npt.NDArray[np.int8] | None
    count: int | None = None
    elapsed: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.solution is not None


def solve(puzzle: Puzzle, method: str = "exact", *, seed: int | None = None,
          time_limit: float | None = None, count_limit: int = 2,
          params: EvolutionParams | None = None, prune: bool = True, focus: bool = True,
          progress: ProgressCallback | None = None) -> SudokuSolution:
    """Solve ``puzzle`` with ``method`` and verify the answer independently.

    Parameters
    ----------
    method : {"evolution", "exact", "cpsat"}
    seed : int, optional
        For ``evolution``.
    time_limit : float, optional
        Seconds (CPU for evolution, wall for CP-SAT; the exact solver has none).
    count_limit : int
        Stop counting solutions at this many (2 proves uniqueness).
    params : EvolutionParams, optional
        Defaults to :data:`SUDOKU_EVOLUTION`.
    prune : bool
        Evolution only: fix cells forced by singles and place values only on candidate
        cells (``False``: the article's plain problem).
    focus : bool
        Evolution only: prefer swaps that move a value clashing in its row or column.

    Raises
    ------
    InvalidInputError
        Unknown method or bad limit.
    SolverError
        A solver returned a grid that is not a solution (a bug, never silently passed on).
    """
    if method not in METHODS:
        raise InvalidInputError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    if count_limit < 1:
        raise InvalidInputError(f"count limit must be >= 1, got {count_limit}")
    t0 = time.perf_counter()
    if method == "evolution":
        out = _solve_evolution(puzzle, seed, time_limit, params, prune, focus, progress)
    elif method == "exact":
        from gameopt.sudoku.exact import count_solutions

        ex = count_solutions(puzzle, limit=count_limit)
        out = SudokuSolution("exact", ex.status, ex.solution, ex.count,
                             stats={"nodes": ex.nodes})
    else:
        from gameopt.sudoku.cpsat import count_solutions as cp_count

        cp = cp_count(puzzle, limit=count_limit, time_limit=time_limit)
        status = "unsolved" if cp.status == "unknown" else cp.status
        out = SudokuSolution("cpsat", status, cp.solution,
                             None if cp.status == "unknown" else cp.count)
    if out.solution is not None:
        problems = solution_problems(puzzle, out.solution)
        if problems:
            raise SolverError(f"{method} returned an invalid grid for {puzzle.name or 'puzzle'}:"
                              f" {problems[0]}")
    return replace(out, elapsed=time.perf_counter() - t0)


def _solve_evolution(puzzle: Puzzle, seed: int | None, time_limit: float | None,
                     params: EvolutionParams | None, prune: bool, focus: bool,
                     progress: ProgressCallback | None) -> SudokuSolution:
    from gameopt.sudoku.evolution import solve_evolution

    res = solve_evolution(puzzle, params or SUDOKU_EVOLUTION, seed=seed, time_limit=time_limit,
                          prune=prune, focus=focus, progress=progress)
    stats = {"epochs": res.iterations, "restarts": res.restarts, "best_error": res.objective,
             "stop": res.status, **{k: v for k, v in res.stats.items() if k != "params"}}
    if res.status == "solved":
        return SudokuSolution("evolution", "solved", res.solution, stats=stats)
    return SudokuSolution("evolution", "unsolved", None, stats=stats)
