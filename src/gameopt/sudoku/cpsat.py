"""Sudoku as a CP-SAT model, for any box size: an independent cross-check of the solvers.

The model is the extended SAT encoding of Lynce and Ouaknine: a boolean ``x[cell][value]``
per cell and candidate value, exactly one value per cell, and each value exactly once in
each row, column and box. :func:`count_solutions` tells a unique puzzle from one with
several solutions or none, and checks any solution it returns against the rules itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from gameopt.core import Limit
from gameopt.errors import InvalidInputError, SolverError
from gameopt.ip import count_solutions as count_model_solutions
from gameopt.sudoku.grid import Puzzle, cell_name, units
from gameopt.sudoku.outcome import CountedOutcome

__all__ = ["CpsatOutcome", "build_sudoku_model", "count_solutions"]


@dataclass(frozen=True, eq=False)
class CpsatOutcome(CountedOutcome):
    """What the CP-SAT cross-check found.

    Attributes
    ----------
    status : str
        ``"unique"`` (exactly one solution, proven), ``"multiple"`` (at least two),
        ``"none"`` (proven to have no solution), ``"solved"`` (one found with ``limit=1``,
        uniqueness not asked) or ``"unknown"`` (the time limit came first).
    count : int
        Solutions found, at most the limit.
    solution : ndarray of int8, shape (n*n,), or None
        The first solution found, row-major, read-only; ``None`` if none was found.
    seconds : float
        Wall seconds used, model building included.

    An :class:`~gameopt.core.Outcome`: ``clock`` is ``"wall"``; ``proven`` is true for
    ``"unique"`` and ``"none"``; ``bound`` is None.
    """

    status: str
    count: int
    solution: npt.NDArray[np.int8] | None
    seconds: float

    @property
    def clock(self) -> str:
        return "wall"

    @property
    def stats(self) -> dict[str, Any]:
        return {}


def _candidates(puzzle: Puzzle) -> npt.NDArray[np.bool_]:
    """``allowed[cell, value]``: value 1..n not excluded by a given in the cell or a peer.

    Returns
    -------
    ndarray of bool, shape (n*n, n+1)
        Column 0 is always False.
    """
    n = puzzle.side
    cells = puzzle.cells.astype(np.intp)
    unit_cells = units(puzzle.box)                      # (3n, n) flat indices
    present = np.zeros((3 * n, n + 1), dtype=np.bool_)  # present[unit, value]: given there
    present[np.repeat(np.arange(3 * n), n), cells[unit_cells].ravel()] = True
    present[:, 0] = False
    allowed = np.ones((n * n, n + 1), dtype=np.bool_)
    allowed[:, 0] = False
    for u in range(3 * n):
        allowed[unit_cells[u]] &= ~present[u]
    given = np.flatnonzero(cells)
    allowed[given] = False
    allowed[given, cells[given]] = True
    return allowed


def build_sudoku_model(puzzle: Puzzle) -> tuple[cp_model.CpModel, list[dict[int, cp_model.IntVar]]]:
    """Build the CP-SAT model of a Sudoku puzzle.

    Parameters
    ----------
    puzzle : Puzzle
        Any box size (4x4 to 36x36).

    Returns
    -------
    model : cp_model.CpModel
        A satisfaction model: its solutions are exactly the completions of the puzzle.
    x : list of dict
        ``x[cell][value]`` is the boolean "cell holds value" (cells row-major, values
        1..n); only the values no given excludes have a variable.

    Notes
    -----
    Boolean variables with exactly-one constraints, rather than integer cells with
    ``AddAllDifferent``: with ``count_solutions(limit=2)`` this model is the faster of the
    two on hard 9x9 puzzles (Platinum Blonde, Golden Nugget, Easter Monster), on
    near-minimal 16x16 puzzles, and counting the solutions of a sparse 9x9. The
    per-(unit, value) exactly-one constraints are the "hidden single" rule, handed to the
    SAT core as is, where ``AllDifferent`` has to be expanded by presolve first; and
    counting enumerates assignments of these literals directly. Variables are created only
    for the candidates the givens leave, which shrinks the model (and its Python build
    time) on puzzles with many givens. ``n**3`` literals at most. A cell left with no
    candidate gives an empty exactly-one, which CP-SAT proves infeasible at once.

    References
    ----------
    .. [1] I. Lynce and J. Ouaknine, "Sudoku as a SAT problem", Proc. 9th International
       Symposium on Artificial Intelligence and Mathematics, 2006.
    .. [2] H. Simonis, "Sudoku as a constraint problem", CP Workshop on Modeling and
       Reformulating Constraint Satisfaction Problems, 2005.
    """
    if not isinstance(puzzle, Puzzle):
        raise InvalidInputError(
            f"build_sudoku_model: expected a Puzzle, got {type(puzzle).__name__}")

    # Data.
    n = puzzle.side
    allowed = _candidates(puzzle)
    model = cp_model.CpModel()
    model.name = puzzle.name or f"sudoku {n}x{n}"

    # Variables: x[cell][value] is true iff the cell holds the value (candidates only).
    x: list[dict[int, cp_model.IntVar]] = [
        {v: model.new_bool_var(f"{cell_name(c, n)}={v}")
         for v in np.flatnonzero(allowed[c]).tolist()}
        for c in range(n * n)]

    # Constraint: every cell holds exactly one value (a given cell has one candidate).
    for c in range(n * n):
        model.add_exactly_one(x[c].values())

    # Constraint: every value appears exactly once in every row, column and box.
    for unit in units(puzzle.box).tolist():
        for v in range(1, n + 1):
            model.add_exactly_one(x[c][v] for c in unit if v in x[c])

    # Objective: none, a satisfaction model.
    return model, x


def count_solutions(puzzle: Puzzle, limit: int = 2, *,
                    run_limit: Limit | None = None) -> CpsatOutcome:
    """Count the solutions of a puzzle with CP-SAT, up to ``limit``.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle.
    limit : int
        Stop at this many solutions: 2 (default) decides uniqueness, 1 only solves.
    run_limit : Limit or None
        Wall time (``clock="wall"``: CP-SAT has no CPU-time limit) and a stop flag.

    Returns
    -------
    CpsatOutcome
        See its ``status`` values. A count of ``limit`` means "at least ``limit``".

    Raises
    ------
    InvalidInputError
        If ``limit`` is not a positive integer, or ``run_limit`` asks for what CP-SAT
        cannot keep (CPU time, nodes, depth, target).
    SolverError
        If the solution CP-SAT returns breaks a rule or a given (a bug, never expected).

    Notes
    -----
    Single-worker enumeration with a fixed seed: the same puzzle gives the same first
    solution on every run.
    """
    start = time.perf_counter()
    model, x = build_sudoku_model(puzzle)
    literals = [(c, v, lit) for c, row in enumerate(x) for v, lit in row.items()]

    # Solve.
    found = count_model_solutions(model, [lit for _, _, lit in literals], limit,
                                  run_limit=run_limit, seed=0)

    # Check the status before reading any value.
    if found.count == 0:
        status = "none" if found.complete else "unknown"
    elif limit == 1:
        status = "solved"
    elif found.count >= 2:
        status = "multiple"
    else:
        status = "unique" if found.complete else "unknown"
    solution = None
    if found.first is not None:
        solution = np.zeros(puzzle.side ** 2, dtype=np.int8)
        for (c, v, _), value in zip(literals, found.first, strict=True):
            if value:
                solution[c] = v
        _check_solution(puzzle, solution)
        solution.flags.writeable = False
    return CpsatOutcome(status=status, count=found.count, solution=solution,
                        seconds=time.perf_counter() - start)


def _check_solution(puzzle: Puzzle, solution: npt.NDArray[np.int8]) -> None:
    """Raise SolverError unless ``solution`` keeps the givens and every unit is 1..n."""
    where = puzzle.name or "puzzle"
    given = np.flatnonzero(puzzle.cells)
    moved = given[puzzle.cells[given] != solution[given]]
    if moved.size:
        c = int(moved[0])
        raise SolverError(f"{where}: CP-SAT solution changes the given at "
                          f"{cell_name(c, puzzle.side)}")
    expected = np.arange(1, puzzle.side + 1)
    for u, unit in enumerate(units(puzzle.box)):
        if not np.array_equal(np.sort(solution[unit]), expected):
            raise SolverError(f"{where}: CP-SAT solution breaks unit {u} "
                              f"(cells {cell_name(int(unit[0]), puzzle.side)}...)")
