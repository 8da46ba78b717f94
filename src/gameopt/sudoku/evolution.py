"""Sudoku by combinatorial evolution on the shared engine (McCaffrey 2016).

A solution is a full grid in which every box holds each value once (the invariant); the
error counts values missing from rows and columns; a neighbour swaps two free cells of one
box; a merge takes each box from one parent or the other.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.core.result import Result
from gameopt.core.rng import make_rng
from gameopt.core.stop import StopRule
from gameopt.localsearch.evolution import EvolutionParams, evolve
from gameopt.sudoku import _evolution_ops as ops
from gameopt.sudoku import _propagate as _prop
from gameopt.sudoku.grid import Puzzle, units

__all__ = ["SudokuEvolutionProblem", "clash_free", "propagate_singles", "solve_evolution",
           "warm_propagation"]


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
    anywhere in its box, any swap in a box is a neighbour). ``start`` (cells, candidate
    masks) replaces the puzzle's own propagated state: a partial assignment whose placed
    cells are fixed like givens (the hybrid of :func:`solve_evolution` with ``propagate``).
    """

    puzzle: Puzzle
    prune: bool = True
    focus: bool = True
    start: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | None = field(
        default=None, compare=False, repr=False)
    data: tuple[Any, ...] = field(init=False)
    length: int = field(init=False)
    dtype: np.dtype[Any] = field(init=False, default=np.dtype(np.int8))
    operators: str = field(init=False, default=ops.__name__)

    def __post_init__(self) -> None:
        p = self.puzzle
        n = p.side
        box_cells = units(p.box)[2 * n:].astype(np.int32)
        if self.start is not None:
            givens, cand = self.start
        elif self.prune:
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
                    prune: bool = True, focus: bool = True, propagate: bool | None = None,
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
    propagate : bool or None
        Constraint propagation between runs (implies ``prune``; ``None``: on from box
        size :data:`PROPAGATE_FROM_BOX`, so 9x9 keeps the plain scheme). Runs are then
        ``min(max_epochs, RESTART_EPOCHS)`` epochs long and each restart starts from
        the puzzle's propagated state plus the values of the best grid so far that clash
        nowhere, placed one by one in random order with singles propagated after each
        (a placement that leads to a contradiction is skipped). When the best grid has
        not improved for :data:`STALL_RUNS` runs, the next run starts from the givens'
        propagated state alone (a restart that keeps the propagation).

    Returns
    -------
    Result
        ``status`` is ``"solved"`` (error 0: a valid solution), or ``"budget"`` / ``"time"``
        / ``"requested"`` with the best grid found and its error as ``objective``.

    References
    ----------
    J. McCaffrey, "Solving Sudoku Using Combinatorial Evolution", MSDN Magazine, Nov 2016.
    H. Lloyd and M. Amos, "Solving Sudoku with Ant Colony Optimization", IEEE Transactions
    on Games 12(3), 2020 (singles and hidden singles propagated on every partial
    assignment an ant builds). R. Lewis, "On the Combination of Constraint Programming and
    Stochastic Search: The Sudoku Case", Hybrid Metaheuristics 2007, LNCS 4771
    (propagation before and inside a stochastic search on the box-preserving problem).
    """
    if limit is None and stop is None:
        limit = Limit(clock="cpu")
    if propagate is None:
        propagate = prune and puzzle.box >= PROPAGATE_FROM_BOX
    if propagate:
        rule = stop if stop is not None else limit.start()  # type: ignore[union-attr]
        return _solve_propagating(puzzle, params or EvolutionParams(), make_rng(seed), rule,
                                  focus, progress)
    problem = SudokuEvolutionProblem(puzzle, prune, focus)
    if not problem.has_moves:
        rule = stop if stop is not None else limit.start()  # type: ignore[union-attr]
        sol = np.zeros(problem.length, dtype=np.int8)
        ops.random_fill(problem.data, np.random.default_rng(seed), sol)
        err = int(ops.error(problem.data, sol))
        return Result(solution=sol, objective=float(err),
                      status="solved" if err == 0 else "budget", seconds=rule.elapsed(),
                      clock=rule.clock)
    return evolve(problem, params, seed=seed, limit=limit, stop=stop, progress=progress)


#: Smallest box size on which ``propagate=None`` turns the propagation on.
PROPAGATE_FROM_BOX = 4
#: Share of the best grid's clash-free values offered to each restart's partial state.
KEEP_SHARE = 0.8
#: Epochs of each run after the first (at most ``max_epochs``): a partial state leaves few
#: free cells, so a short run tells soon whether it leads anywhere.
RESTART_EPOCHS = 300
#: Runs in a row that do not match the guide's error before the guide is forgotten.
STALL_RUNS = 10


def _solve_propagating(puzzle: Puzzle, params: EvolutionParams, rng: np.random.Generator,
                       rule: StopRule, focus: bool, progress: ProgressCallback | None
                       ) -> Result[npt.NDArray[np.int8]]:
    """Runs of :func:`~gameopt.localsearch.evolve` (one each), each restart from a partial
    state built by propagation on the best grid so far (see :func:`solve_evolution`)."""
    base = propagate_singles(puzzle)
    prop = _Propagator(puzzle.box)
    first = replace(params, max_restarts=0)
    later = replace(first, max_epochs=min(params.max_epochs, RESTART_EPOCHS))
    best: npt.NDArray[np.int8] | None = None
    best_err = np.iinfo(np.int64).max
    guide, guide_err, stale = best, best_err, 0
    start = base
    totals: dict[str, int] = dict.fromkeys(("evaluations", "accepted", "deaths", "merges"), 0)
    run_bests: list[int] = []
    fixed: list[int] = []
    epochs = 0
    status = "budget"
    for run in range(params.max_restarts + 1):
        fixed.append(int(np.count_nonzero(start[0])))
        res = _one_run(puzzle, start, focus, later, rng, rule, epochs,
                       _relabel(progress, run, epochs, best_err))
        epochs += res.iterations
        for k in totals:
            totals[k] += int(res.stats.get(k, 0))
        run_bests.append(int(res.objective))
        if res.objective < best_err:
            best, best_err = res.solution, int(res.objective)
        if res.status != "budget":
            status = res.status
            break
        stale = 0 if res.objective < guide_err else stale + 1
        if res.objective <= guide_err:  # equal: move on to the newer grid
            guide, guide_err = res.solution, int(res.objective)
        if stale >= STALL_RUNS:  # forget the guide: the next run starts from the givens
            guide_err, stale, start = np.iinfo(np.int64).max, 0, base
        else:
            assert guide is not None
            start = prop.guided(base, guide, rng)
    assert best is not None
    stats = {**totals, "run_best_errors": run_bests, "fixed_cells": fixed,
             "params": asdict(params)}
    return Result(solution=best, objective=float(best_err), status=status, iterations=epochs,
                  seconds=rule.elapsed(), clock=rule.clock, restarts=len(run_bests) - 1,
                  stats=stats)


def _one_run(puzzle: Puzzle, start: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]],
             focus: bool, params: EvolutionParams, rng: np.random.Generator, rule: StopRule,
             done: int, progress: ProgressCallback | None) -> Result[npt.NDArray[np.int8]]:
    """One evolution run from ``start`` under the shared rule (its epoch budget less
    ``done``); a start with no free pair is filled at once."""
    problem = SudokuEvolutionProblem(puzzle, True, focus, start)
    if rule.max_iterations is not None:
        rule = replace(rule, max_iterations=max(0, rule.max_iterations - done))
    if not problem.has_moves:
        sol = np.zeros(problem.length, dtype=np.int8)
        ops.random_fill(problem.data, rng, sol)
        err = int(ops.error(problem.data, sol))
        reason = rule.should_stop(0, float(err)) if err else None
        return Result(solution=sol, objective=float(err),
                      status="solved" if err == 0 else reason or "budget", iterations=0,
                      seconds=rule.elapsed(), clock=rule.clock)
    return evolve(problem, params, seed=rng, stop=rule, progress=progress)


def _relabel(progress: ProgressCallback | None, run: int, done: int, best: int
             ) -> ProgressCallback | None:
    """Report one run's progress with the run number, and epochs and best error counted
    over all runs."""
    if progress is None:
        return None

    def report(p: Progress) -> None:
        so_far = p.best if p.best is None else min(float(best), p.best)
        progress(replace(p, done=p.done + done, best=so_far, info={**p.info, "run": run + 1}))

    return report


class _Propagator:
    """The numba propagation arrays of one box size."""

    def __init__(self, box: int) -> None:
        self.units = units(box)
        n = box * box
        peer_sets: list[set[int]] = [set() for _ in range(n * n)]
        for u in self.units.tolist():
            for c in u:
                peer_sets[c].update(u)
        self.peers = np.array([sorted(s - {c}) for c, s in enumerate(peer_sets)],
                              dtype=np.int32)

    def guided(self, base: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]],
               guide: npt.NDArray[np.int8], rng: np.random.Generator
               ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """``base`` plus the clash-free values of ``guide`` that propagation accepts."""
        cells, cand = base[0].copy(), base[1].copy()
        order = rng.permutation(np.flatnonzero(clash_free(guide, self.units))).astype(np.int32)
        keep = rng.random(order.size) < KEEP_SHARE
        _prop.guided_partial(cells, cand, self.units, self.peers, guide, order, keep)
        return cells, cand


def clash_free(grid: npt.NDArray[np.int8], unit_cells: npt.NDArray[np.int32]
               ) -> npt.NDArray[np.bool_]:
    """Cells whose value stands once in each of its units.

    Examples
    --------
    >>> from gameopt.sudoku.grid import units
    >>> g = np.array([int(x) for x in "1234341221434312"], np.int8)  # 2 and 1 swapped
    >>> clash_free(g, units(2)).reshape(4, 4).astype(int).tolist()  # clash in columns
    [[1, 1, 1, 1], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 0, 0]]
    """
    n = unit_cells.shape[1]
    ok = np.ones(grid.size, dtype=bool)
    vals = grid[unit_cells].astype(np.int64)  # (3n, n)
    counts = np.zeros((unit_cells.shape[0], n + 1), dtype=np.int64)
    np.add.at(counts, (np.arange(unit_cells.shape[0])[:, None], vals), 1)
    once = np.take_along_axis(counts, vals, axis=1) == 1
    np.logical_and.at(ok, unit_cells.ravel(), once.ravel())
    return ok


def warm_propagation() -> None:
    """Compile (or load from numba's cache) the propagation kernels outside any timing."""
    puzzle = Puzzle(2, np.zeros(16, dtype=np.int8))
    prop = _Propagator(2)
    grid = np.array([int(x) for x in "1234341221434321"], dtype=np.int8)
    prop.guided(propagate_singles(puzzle), grid, np.random.default_rng(0))
