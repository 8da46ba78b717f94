"""Combinatorial evolution, generic over a problem (McCaffrey 2016).

A problem names a module (``operators``) holding five numba-compiled functions over
solutions stored as 1-D integer arrays, and gives a tuple of arrays ``data`` passed to
each of them:

``random_fill(data, rng, sol)``
    write a fresh random solution into ``sol``;
``error(data, sol) -> int``
    the error to minimise (0 = perfect);
``neighbour(data, rng, sol, err, move) -> int``
    change ``sol`` in place into a random neighbour, record in ``move`` (int64 array)
    what :func:`undo` needs, and return the neighbour's error (``err`` is the current one,
    so the error can be updated incrementally);
``undo(data, sol, move)``
    restore ``sol`` exactly as it was before the last ``neighbour``;
``merge(data, rng, a, b, child, prob)``
    write into ``child`` a combination of ``a`` and ``b``.

The engine (one template, :mod:`._evolution_template`) is specialised to each operators
module and compiled with the operators inlined (:mod:`._specialise`), so a problem's own
code runs at native speed with no Python in the loop, and the compiled kernel is cached
on disk for the next process.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.core.result import Result
from gameopt.core.rng import make_rng
from gameopt.core.stop import StopRule
from gameopt.errors import InvalidInputError
from gameopt.localsearch import _evolution_template as K
from gameopt.localsearch._specialise import kernel_for

__all__ = ["EvolutionParams", "EvolutionProblem", "evolve"]

log = logging.getLogger(__name__)


class EvolutionProblem(Protocol):
    """What :func:`evolve` needs from a problem (see the module docstring)."""

    @property
    def operators(self) -> str:
        """Importable module with the five operators (``random_fill`` ... ``merge``)."""

    @property
    def data(self) -> tuple[Any, ...]:
        """Arrays passed to every operator."""

    @property
    def length(self) -> int:
        """Length of a solution array."""

    @property
    def dtype(self) -> np.dtype[Any]:
        """dtype of a solution array."""


@dataclass(frozen=True)
class EvolutionParams:
    """Parameters of combinatorial evolution; defaults are McCaffrey's.

    Attributes
    ----------
    organisms : int
        Population size (article: 200).
    explorer_fraction : float
        Share of explorers (article: 10 %; the rest are workers).
    max_epochs : int
        Epochs of one run before a restart (article: 5000).
    max_restarts : int
        Restarts after the first run without a perfect solution (article: 20).
    mistake_prob : float
        Probability that a worker accepts a worse neighbour (article: 0.001).
    max_age : int
        Epochs without improvement before an organism dies and is replaced by a random
        solution (article: 1000).
    merge_prob : float
        Probability, per part (e.g. per Sudoku box), of taking the part from the second
        parent (article: 0.5).
    accept_equal : bool
        Also accept neighbours of equal error (not in the article; off by default).
    target : int
        Stop as soon as the best error is ``<= target`` (0: perfect solution).
    chunk_epochs : int
        Epochs run natively between checks of the stop rule and progress reports; does
        not change the course of the search.
    """

    organisms: int = 200
    explorer_fraction: float = 0.10
    max_epochs: int = 5000
    max_restarts: int = 20
    mistake_prob: float = 0.001
    max_age: int = 1000
    merge_prob: float = 0.5
    accept_equal: bool = False
    target: int = 0
    chunk_epochs: int = 50

    def __post_init__(self) -> None:
        checks: list[tuple[str, bool]] = [
            ("organisms", self.organisms >= 2),
            ("explorer_fraction", 0.0 <= self.explorer_fraction < 1.0),
            ("max_epochs", self.max_epochs >= 1),
            ("max_restarts", self.max_restarts >= 0),
            ("mistake_prob", 0.0 <= self.mistake_prob <= 1.0),
            ("max_age", self.max_age >= 1),
            ("merge_prob", 0.0 <= self.merge_prob <= 1.0),
            ("chunk_epochs", self.chunk_epochs >= 1),
        ]
        for name, ok in checks:
            if not ok:
                raise InvalidInputError(
                    f"EvolutionParams: {name}={getattr(self, name)!r} is out of range")

    @property
    def workers(self) -> int:
        """Number of workers: ``int(organisms * (1 - explorer_fraction))`` as the article."""
        return min(self.organisms, max(1, int(self.organisms * (1.0 - self.explorer_fraction)
                                              + 1e-9)))


@dataclass
class _State:
    pop: npt.NDArray[Any]
    err: npt.NDArray[np.int64]
    age: npt.NDArray[np.int64]
    best: npt.NDArray[Any]
    stat: npt.NDArray[np.int64]
    move: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(8, dtype=np.int64))


def evolve(problem: EvolutionProblem, params: EvolutionParams | None = None, *,
           seed: int | None | np.random.Generator = None, limit: Limit | None = None,
           stop: StopRule | None = None,
           progress: ProgressCallback | None = None) -> Result[npt.NDArray[Any]]:
    """Minimise a problem's error by combinatorial evolution with restarts.

    Parameters
    ----------
    problem : EvolutionProblem
        Operators and data (see the module docstring).
    params : EvolutionParams, optional
        Defaults are the article's values.
    seed : int or None or numpy.random.Generator
        Same seed, same result (unless the limit cuts the run on time).
    limit : Limit, optional
        What the search may spend: ``time`` on its ``clock``, ``nodes`` (epochs over all
        runs), ``target`` (stop once the best error is ``<= target``) and an external
        ``stop`` flag; started when the search starts. ``depth`` does not apply.
    stop : StopRule, optional
        An already running rule instead of ``limit`` (its clock started by the caller),
        for a caller that cuts one budget over several searches.
    Both are checked every ``params.chunk_epochs`` epochs; give at most one.
    progress : callable, optional
        Receives a :class:`~gameopt.core.progress.Progress` every chunk.

    Returns
    -------
    Result
        ``solution`` (a copy of the best array), ``objective`` (its error), ``status``
        ``"solved"`` (error <= target), ``"budget"`` (runs exhausted) or the stop reason
        (``"time"``, ``"iterations"``, ``"requested"``); ``iterations`` = epochs in all;
        ``stats`` has evaluations, accepted moves, deaths, merges and each run's best;
        ``seconds`` are on the rule's ``clock``.

    Raises
    ------
    InvalidInputError
        If both ``limit`` and ``stop`` are given, or ``limit`` sets ``depth``.

    Notes
    -----
    One epoch costs ``organisms`` neighbour moves or random solutions plus one merge; with
    incremental neighbour errors a move is O(side) for Sudoku.

    References
    ----------
    J. McCaffrey, "Test Run - Solving Sudoku Using Combinatorial Evolution", MSDN Magazine
    31(11), November 2016.
    """
    params = params or EvolutionParams()
    stop = _running_rule(limit, stop)
    rng = make_rng(seed)
    kern = kernel_for(problem.operators)
    st = _State(pop=np.zeros((params.organisms, problem.length), dtype=problem.dtype),
                err=np.zeros(params.organisms, dtype=np.int64),
                age=np.zeros(params.organisms, dtype=np.int64),
                best=np.zeros(problem.length, dtype=problem.dtype),
                stat=np.zeros(K.STAT_SIZE, dtype=np.int64))
    totals = np.zeros(K.STAT_SIZE, dtype=np.int64)
    run_bests: list[int] = []
    best: npt.NDArray[Any] | None = None
    best_err = np.iinfo(np.int64).max
    status = "budget"
    epochs_total = 0
    restarts = 0
    for run in range(params.max_restarts + 1):
        restarts = run
        kern.init_population(problem.data, rng, st.pop, st.err, st.age, st.best, st.stat)
        reason = None
        while st.stat[K.EPOCHS] < params.max_epochs and st.stat[K.BEST_ERR] > params.target:
            n = min(params.chunk_epochs, params.max_epochs - int(st.stat[K.EPOCHS]))
            if stop.max_iterations is not None:
                n = min(n, stop.max_iterations - epochs_total)
            before = int(st.stat[K.EPOCHS])
            if n > 0:
                kern.run_epochs(problem.data, rng, st.pop, st.err, st.age, st.best, st.stat,
                                st.move, params.workers, n, params.mistake_prob,
                                params.max_age, params.merge_prob, params.accept_equal,
                                params.target)
            epochs_total += int(st.stat[K.EPOCHS]) - before
            so_far = float(min(best_err, int(st.stat[K.BEST_ERR])))
            if progress is not None:
                progress(Progress("evolution", epochs_total, best=so_far,
                                  info={"run": run + 1, "epoch": int(st.stat[K.EPOCHS])}))
            reason = stop.should_stop(epochs_total, so_far)
            if reason is not None:
                break
        totals[K.EVALS:] += st.stat[K.EVALS:]
        run_bests.append(int(st.stat[K.BEST_ERR]))
        if int(st.stat[K.BEST_ERR]) < best_err:
            best_err = int(st.stat[K.BEST_ERR])
            best = st.best.copy()
        log.debug("evolution run %d: best error %d after %d epochs", run + 1,
                  st.stat[K.BEST_ERR], st.stat[K.EPOCHS])
        if best_err <= params.target:
            status = "solved"
            break
        if reason is not None:
            status = reason
            break
    assert best is not None
    stats = {"evaluations": int(totals[K.EVALS]), "accepted": int(totals[K.ACCEPTED]),
             "deaths": int(totals[K.DEATHS]), "merges": int(totals[K.MERGES]),
             "run_best_errors": run_bests, "params": asdict(params)}
    return Result(solution=best, objective=float(best_err), status=status,
                  iterations=epochs_total, seconds=stop.elapsed(), clock=stop.clock,
                  restarts=restarts, stats=stats)


def _running_rule(limit: Limit | None, stop: StopRule | None) -> StopRule:
    """The stop rule of a search: ``limit`` started now, or the caller's running rule."""
    if limit is not None and stop is not None:
        raise InvalidInputError("evolve: give limit or stop, not both")
    if limit is not None:
        if limit.depth is not None:
            raise InvalidInputError("evolve: a depth limit does not apply to evolution")
        return limit.start()
    return stop if stop is not None else StopRule()
