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

from gameopt.core.limit import Limit
from gameopt.core.progress import ProgressCallback
from gameopt.core.result import Result
from gameopt.core.stop import StopRule
from gameopt.localsearch.evolution import EvolutionParams, evolve
from gameopt.sudoku import _evolution_ops as ops
from gameopt.sudoku.grid import Puzzle, units

__all__ = ["SudokuEvolutionProblem", "solve_evolution", "propagate_singles"]


def propagate_singles(puzzle: Puzzle) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Fill the cells forced by naked and hidden singles; return (cells, candidate masks).

    Plain Python (run once per puzzle). Bit ``v`` of ``cand[c]`` is set when value ``v``
    may still stand in cell ``c``. On a contradiction (a cell or a unit value with no
    place) it stops early; the evolution then simply cannot reach error 0.

    Notes
    -----
    O(rounds * n^3) for side n.
    """
    n = puzzle.side
    cells = [int(v) for v in puzzle.cells]
    all_units = [list(map(int, u)) for u in units(puzzle.box)]
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for u in all_units:
        for c in u:
            peers[c].update(u)
    for c in range(n * n):
        peers[c].discard(c)
    full = sum(1 << v for v in range(1, n + 1))
    cand = [full] * (n * n)

    def place(c: int, v: int) -> None:
        cells[c] = v
        cand[c] = 1 << v
        for q in peers[c]:
            cand[q] &= ~(1 << v)

    for c in range(n * n):
        if cells[c]:
            place(c, cells[c])
    changed = True
    while changed:
        changed = False
        for c in range(n * n):
            if not cells[c]:
                m = cand[c]
                if m == 0:
                    return np.array(cells, dtype=np.int8), np.array(cand, dtype=np.int64)
                if m & (m - 1) == 0:
                    place(c, m.bit_length() - 1)
                    changed = True
        for u in all_units:
            for v in range(1, n + 1):
                spots = [c for c in u if cand[c] >> v & 1]
                if len(spots) == 1 and not cells[spots[0]]:
                    place(spots[0], v)
                    changed = True
    return np.array(cells, dtype=np.int8), np.array(cand, dtype=np.int64)


@dataclass(frozen=True)
class SudokuEvolutionProblem:
    """The :class:`~gameopt.localsearch.evolution.EvolutionProblem` of one puzzle.

    With ``prune`` (gameopt's default), cells forced by naked and hidden singles are fixed
    first and values are only placed where they are candidates; with ``focus`` (default)
    a worker's swap moves, where it can, a value that clashes in its row or column.
    Without both the problem is the article's (only the givens are fixed, any value may go
    anywhere in its box, any swap in a box is a neighbour).
    """

    puzzle: Puzzle
    prune: bool = True
    focus: bool = True
    data: tuple[Any, ...] = field(init=False)
    length: int = field(init=False)
    dtype: np.dtype[Any] = field(init=False, default=np.dtype(np.int8))
    operators: str = field(init=False, default=ops.__name__)

    def __post_init__(self) -> None:
        p = self.puzzle
        n = p.side
        box_cells = units(p.box)[2 * n:].astype(np.int32)
        if self.prune:
            givens, cand = propagate_singles(p)
        else:
            givens = np.array(p.cells, dtype=np.int8)
            cand = np.full(n * n, sum(1 << v for v in range(1, n + 1)), dtype=np.int64)
        box_free = np.zeros((n, n), dtype=np.int32)
        box_nfree = np.zeros(n, dtype=np.int32)
        for k in range(n):
            free = box_cells[k][givens[box_cells[k]] == 0]
            box_free[k, :free.size] = free
            box_nfree[k] = free.size
        swap = np.flatnonzero(box_nfree >= 2).astype(np.int32)
        dims = np.array([n, p.box, int(self.focus)], dtype=np.int64)
        object.__setattr__(self, "data", (dims, givens, box_cells, box_free, box_nfree, swap,
                                              cand))
        object.__setattr__(self, "length", n * n)

    @property
    def has_moves(self) -> bool:
        """False when no box has two free cells (the random fill is then the only grid)."""
        return bool(self.data[5].size)


def solve_evolution(puzzle: Puzzle, params: EvolutionParams | None = None, *,
                    seed: int | None = None, limit: Limit | None = None,
                    prune: bool = True, focus: bool = True, stop: StopRule | None = None,
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
    limit : Limit, optional
        What the search may spend (time on its clock, ``nodes`` = epochs, a stop flag);
        none given: no limit, seconds on the CPU clock.
    stop : StopRule, optional
        A running rule instead of ``limit`` (see :func:`~gameopt.localsearch.evolve`).
    prune : bool
        Fix cells forced by singles and keep values on candidate cells (see
        :class:`SudokuEvolutionProblem`); ``False`` is the article's plain problem.
    focus : bool
        Prefer swaps that move a clashing value (see :class:`SudokuEvolutionProblem`).

    Returns
    -------
    Result
        ``status`` is ``"solved"`` (error 0: a valid solution), or ``"budget"`` / ``"time"``
        / ``"requested"`` with the best grid found and its error as ``objective``.

    References
    ----------
    J. McCaffrey, "Solving Sudoku Using Combinatorial Evolution", MSDN Magazine, Nov 2016.
    """
    problem = SudokuEvolutionProblem(puzzle, prune, focus)
    if limit is None and stop is None:
        limit = Limit(clock="cpu")
    if not problem.has_moves:
        rule = stop if stop is not None else limit.start()  # type: ignore[union-attr]
        sol = np.zeros(problem.length, dtype=np.int8)
        ops.random_fill(problem.data, np.random.default_rng(seed), sol)
        err = int(ops.error(problem.data, sol))
        return Result(solution=sol, objective=float(err),
                      status="solved" if err == 0 else "budget", seconds=rule.elapsed(),
                      clock=rule.clock)
    return evolve(problem, params, seed=seed, limit=limit, stop=stop, progress=progress)
