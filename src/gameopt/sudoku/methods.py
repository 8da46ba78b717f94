"""One entry point over the three Sudoku solvers, with every solution verified.

:func:`solve` takes one puzzle, :func:`solve_set` a whole :class:`PuzzleSet` (the exact
method then runs the set in one kernel call and checks every answer in one vectorised
pass). Both take a :class:`~gameopt.core.Limit`; the clock of a time limit is the
method's (:data:`METHOD_CLOCK`), named in every result. Kernels are compiled or loaded
before the clock starts, so ``seconds`` is what the search took.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core import Clock, Limit, check_count
from gameopt.core.progress import ProgressCallback
from gameopt.errors import InvalidInputError, SolverError
from gameopt.localsearch.evolution import EvolutionParams
from gameopt.sudoku.grid import Puzzle, PuzzleSet
from gameopt.sudoku.outcome import SETTLED, CountedOutcome
from gameopt.sudoku.verify import failing_rows, solution_problems

__all__ = ["METHODS", "METHOD_CLOCK", "SUDOKU_EVOLUTION", "SetSolution", "SudokuSolution",
           "solve", "solve_set", "time_limit", "warm"]

METHODS = ("evolution", "exact", "cpsat")

#: The clock each method measures (and limits) time on: evolution counts this process's
#: CPU time, the exact kernel too (one thread), CP-SAT wall time (it limits nothing else).
METHOD_CLOCK: dict[str, Clock] = {"evolution": "cpu", "exact": "cpu", "cpsat": "wall"}

#: gameopt's evolution settings for Sudoku: the article's values (McCaffrey 2016), plus
#: workers that also accept neighbours of equal error (plateau moves). With ``prune=True``
#: (the default of :func:`solve`) it is compared with the article's configuration in
#: ``benchmarks/bench_sudoku_evolution.py``.
SUDOKU_EVOLUTION = EvolutionParams(accept_equal=True)


@dataclass(frozen=True)
class SudokuSolution(CountedOutcome):
    """What a solver says about a puzzle (an :class:`~gameopt.core.Outcome`).

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
    seconds : float
        Time the solver took on ``clock``, verification included, kernel compile excluded.
    clock : str
        ``"cpu"`` or ``"wall"`` (:data:`METHOD_CLOCK`).
    stats : dict
        Method-specific figures (epochs, restarts, nodes...).
    """

    method: str
    status: str
    solution: npt.NDArray[np.int8] | None
    count: int | None = None
    seconds: float = 0.0
    clock: str = "cpu"
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.solution is not None


@dataclass(frozen=True, eq=False)
class SetSolution:
    """What a solver says about every puzzle of a :class:`PuzzleSet` (an Outcome).

    Attributes
    ----------
    method : str
    status : list of str
        Per puzzle, as :attr:`SudokuSolution.status`.
    count : ndarray of int64, shape (m,), or None
        Solutions counted per puzzle (exact methods).
    solutions : ndarray of int8, shape (m, n*n)
        A verified solution per puzzle; a row of zeros where there is none.
    seconds : float
        Time for the whole set on ``clock`` (verification included, compile excluded).
    clock : str
    stats : dict
        ``"nodes"`` (ndarray of int64, per puzzle) for the exact method; per-puzzle
        figures of the other methods under ``"each"``.
    """

    method: str
    status: list[str]
    count: npt.NDArray[np.int64] | None
    solutions: npt.NDArray[np.int8]
    seconds: float
    clock: str
    stats: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.status)

    @property
    def solved(self) -> npt.NDArray[np.bool_]:
        """Per puzzle: a solution was found."""
        return np.asarray(self.solutions.any(axis=1))

    @property
    def proven(self) -> bool:
        """True when every puzzle's answer is settled (unique or none)."""
        return all(s in SETTLED for s in self.status)

    @property
    def bound(self) -> float | None:
        return None


def time_limit(method: str, seconds: float | None) -> Limit:
    """The :class:`Limit` of ``seconds`` on ``method``'s clock (:data:`METHOD_CLOCK`).

    Raises
    ------
    InvalidInputError
        For a bad time (see :func:`gameopt.core.check_seconds`).
    """
    _check_method(method)
    return _method_limit(method, Limit(time=seconds, clock=METHOD_CLOCK[method]))


def solve(puzzle: Puzzle, method: str = "exact", *, seed: int | None = None,
          limit: Limit | None = None, count_limit: int = 2,
          params: EvolutionParams | None = None, prune: bool = True, focus: bool = True,
          propagate: bool | None = None,
          progress: ProgressCallback | None = None) -> SudokuSolution:
    """Solve ``puzzle`` with ``method`` and verify the answer independently.

    Parameters
    ----------
    method : {"evolution", "exact", "cpsat"}
    seed : int, optional
        For ``evolution``.
    limit : Limit, optional
        What the search may spend. Evolution takes time on either clock, ``nodes``
        (epochs) and a stop flag; CP-SAT wall time and a stop flag; the exact solver
        time and a stop flag (read every 1024 guesses; a count cut short is status
        ``"unsolved"``). :func:`time_limit` makes one on the method's clock.
    count_limit : int
        Stop counting solutions at this many (2 proves uniqueness).
    params : EvolutionParams, optional
        Defaults to :data:`SUDOKU_EVOLUTION`.
    prune : bool
        Evolution only: fix cells forced by singles and place values only on candidate
        cells (``False``: the article's plain problem).
    focus : bool
        Evolution only: prefer swaps that move a value clashing in its row or column.
    propagate : bool or None
        Evolution only: constraint propagation between runs, restarts from partial states
        built on the best grid (``None``: from 16x16 up; see
        :func:`gameopt.sudoku.evolution.solve_evolution`). ``False`` is the plain scheme.

    Raises
    ------
    InvalidInputError
        Unknown method, bad count limit, or a limit the method cannot keep.
    SolverError
        A solver returned a grid that is not a solution (a bug, never silently passed on).

    References
    ----------
    J. McCaffrey, "Solving Sudoku Using Combinatorial Evolution", MSDN Magazine, Nov 2016
    (evolution); :func:`gameopt.sudoku.exact.count_solutions` and
    :func:`gameopt.sudoku.cpsat.build_sudoku_model` cite the others.
    """
    _check_method(method)
    count_limit = _check_count_limit(count_limit)
    limit = _method_limit(method, limit)
    if method == "evolution":
        return _solve_evolution(puzzle, seed, limit, params, prune, focus, propagate,
                                progress)
    if method == "exact":
        return _from_set(solve_set(PuzzleSet.of([puzzle]), "exact", count_limit=count_limit,
                                   limit=limit))
    from gameopt.sudoku.cpsat import count_solutions as cp_count

    t0 = time.perf_counter()
    cp = cp_count(puzzle, limit=count_limit, run_limit=limit)
    status = "unsolved" if cp.status == "unknown" else cp.status
    _verify(puzzle, cp.solution, method)
    return SudokuSolution("cpsat", status, cp.solution,
                          None if cp.status == "unknown" else cp.count,
                          seconds=time.perf_counter() - t0, clock="wall")


def solve_set(puzzles: PuzzleSet, method: str = "exact", *, count_limit: int = 2,
              limit: Limit | None = None, seed: int | None = None,
              params: EvolutionParams | None = None, prune: bool = True,
              focus: bool = True, propagate: bool | None = None) -> SetSolution:
    """Solve every puzzle of ``puzzles`` with ``method``; every answer verified.

    The exact method solves the whole set in one kernel call and verifies every answer
    in one vectorised pass (:func:`gameopt.sudoku.verify.failing_rows`), so the cost per
    puzzle is the kernel's plus a few array operations. The other methods solve the
    puzzles one by one with :func:`solve`; ``limit`` then applies to each puzzle.

    Parameters
    ----------
    As :func:`solve`.

    Raises
    ------
    As :func:`solve`.
    """
    _check_method(method)
    count_limit = _check_count_limit(count_limit)
    limit = _method_limit(method, limit)
    if method != "exact":
        each = [solve(p, method, seed=seed, limit=limit, count_limit=count_limit,
                      params=params, prune=prune, focus=focus, propagate=propagate)
                for p in puzzles]
        sols = np.zeros_like(puzzles.cells)
        for i, r in enumerate(each):
            if r.solution is not None:
                sols[i] = r.solution
        counts = None if method == "evolution" else np.array(
            [-1 if r.count is None else r.count for r in each], dtype=np.int64)
        return SetSolution(method, [r.status for r in each], counts, sols,
                           sum(r.seconds for r in each), METHOD_CLOCK[method],
                           {"each": [r.stats for r in each]})
    from gameopt.sudoku.exact import count_array, status_of, warm

    warm(puzzles.box)
    t0 = time.process_time()
    rule = limit.start()
    with rule.watch() as flag:
        counts, solutions, nodes = count_array(puzzles.cells, puzzles.box, count_limit,
                                               stop=flag.array)
    found = counts > 0
    bad = failing_rows(puzzles.cells[found], solutions[found], puzzles.box)
    if bad.size:
        row = int(np.flatnonzero(found)[bad[0]])
        _verify(puzzles[row], solutions[row], method)
    words = {k: status_of(k, count_limit) for k in range(3)} | {-1: "unsolved"}
    status = [words[k] for k in np.minimum(counts, 2).tolist()]
    solutions.flags.writeable = False
    return SetSolution("exact", status, counts, solutions, time.process_time() - t0, "cpu",
                       {"nodes": nodes})


def warm(box: int = 3) -> None:
    """Compile (or load from numba's cache) the exact kernel for ``box`` and the evolution
    kernel, so that the next timings (of :func:`solve`, of a generator) hold no load time.

    :func:`solve` and :func:`solve_set` warm what they use themselves; call this before
    timing other work that uses the kernels (``generate``).
    """
    from gameopt.sudoku.exact import warm as warm_exact

    warm_exact(box)
    _warm_evolution()


def _from_set(res: SetSolution) -> SudokuSolution:
    """The one answer of a one-puzzle :class:`SetSolution`."""
    assert res.count is not None
    k = int(res.count[0])
    return SudokuSolution(res.method, res.status[0], res.solutions[0] if k > 0 else None,
                          k if k >= 0 else None,
                          seconds=res.seconds, clock=res.clock,
                          stats={"nodes": int(res.stats["nodes"][0])})


def _solve_evolution(puzzle: Puzzle, seed: int | None, limit: Limit,
                     params: EvolutionParams | None, prune: bool, focus: bool,
                     propagate: bool | None,
                     progress: ProgressCallback | None) -> SudokuSolution:
    from gameopt.sudoku.evolution import solve_evolution

    _warm_evolution()
    res = solve_evolution(puzzle, params or SUDOKU_EVOLUTION, seed=seed, limit=limit,
                          prune=prune, focus=focus, propagate=propagate, progress=progress)
    stats = {"epochs": res.iterations, "restarts": res.restarts, "best_error": res.objective,
             "stop": res.status, **{k: v for k, v in res.stats.items() if k != "params"}}
    solved = res.status == "solved"
    if solved:
        _verify(puzzle, res.solution, "evolution")
    return SudokuSolution("evolution", "solved" if solved else "unsolved",
                          res.solution if solved else None, seconds=res.seconds,
                          clock=res.clock, stats=stats)


@functools.cache
def _warm_evolution() -> None:
    """Compile (or load from numba's cache) the evolution kernel outside any timing: one
    epoch of two organisms on a 4x4 puzzle (the kernel is the same for every box size)."""
    from gameopt.sudoku.evolution import solve_evolution, warm_propagation

    solve_evolution(Puzzle(2, np.zeros(16, dtype=np.int8)),
                    EvolutionParams(organisms=2, max_epochs=1, max_restarts=0), seed=0,
                    propagate=False)
    warm_propagation()


def _verify(puzzle: Puzzle, solution: npt.NDArray[np.int8] | None, method: str) -> None:
    if solution is None:
        return
    problems = solution_problems(puzzle, solution)
    if problems:
        raise SolverError(f"{method} returned an invalid grid for {puzzle.name or 'puzzle'}:"
                          f" {problems[0]}")


def _check_method(method: str) -> None:
    if method not in METHODS:
        raise InvalidInputError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")


def _check_count_limit(count_limit: int) -> int:
    checked = check_count(count_limit, "count limit")
    assert checked is not None
    return checked


def _method_limit(method: str, limit: Limit | None) -> Limit:
    """``limit``, or none on the method's clock; refused where the method cannot keep it."""
    if limit is None:
        return Limit(clock=METHOD_CLOCK[method])
    if method == "exact" and (limit.nodes, limit.depth, limit.target) != (None, None, None):
        raise InvalidInputError("exact: the exact solver takes a time limit and a stop "
                                "flag only (no nodes, depth or target)")
    return limit
