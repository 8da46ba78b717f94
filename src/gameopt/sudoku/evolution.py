"""Sudoku by combinatorial evolution on the shared engine (McCaffrey 2016).

A solution is a full grid in which every box holds each value once (the invariant); the
error counts values missing from rows and columns; a neighbour swaps two free cells of one
box; a merge takes each box from one parent or the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.progress import ProgressCallback
from gameopt.core.result import Result
from gameopt.core.stop import Deadline, StopRule
from gameopt.localsearch.evolution import EvolutionParams, evolve
from gameopt.sudoku import _evolution_ops as ops
from gameopt.sudoku.grid import Puzzle, units

__all__ = ["SudokuEvolutionProblem", "solve_evolution"]


@dataclass(frozen=True)
class SudokuEvolutionProblem:
    """The :class:`~gameopt.localsearch.evolution.EvolutionProblem` of one puzzle."""

    puzzle: Puzzle
    data: tuple[Any, ...] = field(init=False)
    length: int = field(init=False)
    dtype: np.dtype[Any] = field(init=False, default=np.dtype(np.int8))
    random_fill: Any = field(init=False, default=ops.random_fill)
    error: Any = field(init=False, default=ops.error)
    neighbour: Any = field(init=False, default=ops.neighbour)
    undo: Any = field(init=False, default=ops.undo)
    merge: Any = field(init=False, default=ops.merge)

    def __post_init__(self) -> None:
        p = self.puzzle
        n = p.side
        box_cells = units(p.box)[2 * n:].astype(np.int32)
        givens = np.array(p.cells, dtype=np.int8)
        box_free = np.zeros((n, n), dtype=np.int32)
        box_nfree = np.zeros(n, dtype=np.int32)
        for k in range(n):
            free = box_cells[k][givens[box_cells[k]] == 0]
            box_free[k, :free.size] = free
            box_nfree[k] = free.size
        swap = np.flatnonzero(box_nfree >= 2).astype(np.int32)
        dims = np.array([n, p.box], dtype=np.int64)
        object.__setattr__(self, "data", (dims, givens, box_cells, box_free, box_nfree, swap))
        object.__setattr__(self, "length", n * n)

    @property
    def has_moves(self) -> bool:
        """False when no box has two free cells (the random fill is then the only grid)."""
        return bool(self.data[5].size)


def solve_evolution(puzzle: Puzzle, params: EvolutionParams | None = None, *,
                    seed: int | None = None, time_limit: float | None = None,
                    stop: StopRule | None = None,
                    progress: ProgressCallback | None = None) -> Result[npt.NDArray[np.int8]]:
    """Solve ``puzzle`` by combinatorial evolution.

    Parameters
    ----------
    puzzle : Puzzle
        Any box size.
    params : EvolutionParams, optional
        Engine parameters (article defaults).
    seed : int or None
        Same seed, same result (when no time limit cuts the run).
    time_limit : float, optional
        CPU seconds (ignored when ``stop`` is given).

    Returns
    -------
    Result
        ``status`` is ``"solved"`` (error 0: a valid solution), or ``"budget"`` / ``"time"``
        / ``"requested"`` with the best grid found and its error as ``objective``.

    References
    ----------
    J. McCaffrey, "Solving Sudoku Using Combinatorial Evolution", MSDN Magazine, Nov 2016.
    """
    problem = SudokuEvolutionProblem(puzzle)
    if stop is None:
        stop = StopRule(deadline=Deadline(time_limit, cpu=True))
    if not problem.has_moves:
        sol = np.zeros(problem.length, dtype=np.int8)
        ops.random_fill(problem.data, np.random.default_rng(seed), sol)
        err = int(ops.error(problem.data, sol))
        return Result(solution=sol, objective=float(err),
                      status="solved" if err == 0 else "budget")
    return evolve(problem, params, seed=seed, stop=stop, progress=progress)
