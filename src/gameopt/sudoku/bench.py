"""Measurements behind the Sudoku benchmark tables (used by ``gameopt sudoku bench`` and
the scripts in ``benchmarks/``). CPU time is process time measured inside each job, so
jobs may run on several processes without changing what is measured."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from gameopt.core.parallel import parallel_map
from gameopt.core.progress import ProgressCallback
from gameopt.localsearch.evolution import EvolutionParams
from gameopt.sudoku.grid import Puzzle

__all__ = ["EvoRun", "evolution_job", "run_evolution", "summarise_evolution", "exact_rate",
           "cpsat_rate"]


@dataclass(frozen=True)
class EvoRun:
    """One evolution run: puzzle name, seed, solved, CPU seconds, epochs, restarts."""

    name: str
    seed: int
    solved: bool
    cpu: float
    epochs: int
    restarts: int


def evolution_job(job: tuple[Puzzle, int, EvolutionParams, float | None, bool, bool | None]
                  ) -> EvoRun:
    """Solve one puzzle with one seed (a picklable job for :func:`parallel_map`).

    The fifth field switches gameopt's two Sudoku refinements (pruning and clash-focused
    swaps) on or off together: off is the article's problem; the sixth is ``propagate``
    (see :func:`gameopt.sudoku.methods.solve`).
    """
    from gameopt.sudoku.methods import solve, time_limit

    puzzle, seed, params, limit, refined, propagate = job
    _warm_up(puzzle, refined)
    t0 = time.process_time()
    sol = solve(puzzle, "evolution", seed=seed, limit=time_limit("evolution", limit),
                params=params, prune=refined, focus=refined,
                propagate=propagate if refined else False)
    cpu = time.process_time() - t0
    return EvoRun(puzzle.name, seed, sol.solved, cpu, int(sol.stats["epochs"]),
                  int(sol.stats["restarts"]))


_warm: set[tuple[int, bool]] = set()


def _warm_up(puzzle: Puzzle, refined: bool) -> None:
    """Load (or compile) this process's kernels before the clock starts."""
    from gameopt.sudoku.methods import solve

    if (puzzle.box, refined) not in _warm:
        solve(puzzle, "evolution", seed=0, prune=refined, focus=refined,
              params=EvolutionParams(organisms=4, max_epochs=1, max_restarts=0))
        _warm.add((puzzle.box, refined))


def run_evolution(puzzles: list[Puzzle], seeds: list[int], params: EvolutionParams,
                  time_limit: float | None, *, refined: bool = True,
                  propagate: bool | None = None, workers: int | None = None,
                  scheduler: str | None = None,
                  progress: ProgressCallback | None = None) -> list[EvoRun]:
    """Every puzzle with every seed; jobs spread over local processes or a Dask cluster.

    Each process compiles (or loads from numba's cache) its kernels in a tiny warm-up run
    before its first measured job, so no measured CPU time includes compilation.
    """
    _warm_up(puzzles[0], refined)  # compile once here, so worker processes find the cache
    jobs = [(p, s, params, time_limit, refined, propagate) for p in puzzles for s in seeds]
    return parallel_map(evolution_job, jobs, workers=workers, scheduler=scheduler,
                        progress=progress)


def summarise_evolution(runs: list[EvoRun]) -> dict[str, float]:
    """Solved count, share, median and max CPU seconds (over all runs, solved or not)."""
    cpu = [r.cpu for r in runs]
    solved = sum(r.solved for r in runs)
    return {"runs": len(runs), "solved": solved, "share": solved / max(1, len(runs)),
            "median_cpu": statistics.median(cpu) if cpu else 0.0,
            "max_cpu": max(cpu) if cpu else 0.0,
            "median_restarts": statistics.median([r.restarts for r in runs]) if runs else 0.0}


def exact_rate(puzzles: list[Puzzle], *, limit: int = 2, min_cpu: float = 1.0,
               repeats: int = 3) -> tuple[float, int, float]:
    """Median puzzles per CPU second of the exact solver counting up to ``limit``, the
    number of puzzles proved unique, and mean guesses per puzzle.

    Compilation (or the cache load) happens before any measurement; each repeat loops over
    the whole set, one batch call per pass, until ``min_cpu`` CPU seconds are used.
    """
    from gameopt.sudoku.exact import count_many

    outs = count_many(puzzles, limit=limit)
    unique = sum(o.status == "unique" for o in outs)
    guesses = statistics.fmean(o.nodes for o in outs)
    rates = []
    for _ in range(repeats):
        done = 0
        t0 = time.process_time()
        while True:
            count_many(puzzles, limit=limit)
            done += len(puzzles)
            used = time.process_time() - t0
            if used >= min_cpu:
                break
        rates.append(done / used)
    return statistics.median(rates), unique, guesses


def cpsat_rate(puzzles: list[Puzzle], *, limit: int = 2) -> tuple[float, int]:
    """Puzzles per CPU second of the CP-SAT model counting up to ``limit`` (one pass, after
    loading OR-Tools on the first puzzle), and the number proved unique."""
    from gameopt.sudoku.cpsat import count_solutions

    count_solutions(puzzles[0], limit=limit)
    t0 = time.process_time()
    unique = sum(count_solutions(p, limit=limit).status == "unique" for p in puzzles)
    return len(puzzles) / (time.process_time() - t0), unique
