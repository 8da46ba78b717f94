"""Penalty weights tuned by simulation: a bounded coordinate search for Kendall τ.

A Swiss system is there to rank the field by strength in few rounds. :func:`tune_params`
plays simulated events (:func:`~gameopt.pairing.simulate.simulate_event`) of several sizes
under the exact rule and searches the weights of the float, elitism and rank terms (ranked
above the colour tier) and of the Dutch-like halves term
(:func:`~gameopt.pairing.penalties.pen_halves`, ranked with the colour cost below it) for
the largest mean Kendall τ between the final standings and the hidden strengths, subject
to the constraints a director expects: no rematch, and no more byes above the lowest
score group of players without a bye, nor breaks of the colour tier, than the starting
weights give. Every candidate is judged on the same seeds (common
random numbers), and :func:`paired_difference` compares two weight sets on held-out seeds.

The search is a cyclic coordinate search over a small grid per weight (:data:`GRID`): each
pass tries every other value of one weight with the others fixed, and keeps the best one
that beats the incumbent; a weight set is evaluated once. It stops after ``max_evals``
candidates, when a pass changes nothing, or when the ``limit`` says so.

References
----------
.. [1] T. Nakajima, "Pairing Algorithm", 2002 (the penalty terms searched).
.. [2] M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938.
.. [3] FIDE Handbook C.04.3, "FIDE (Dutch) System" (top half against bottom half).
.. [4] R. Hooke and T. A. Jeeves, "'Direct search' solution of numerical and statistical
   problems", J. ACM 8, 1961 (coordinate search).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gameopt.core.limit import Limit, check_count
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.core.rng import spawn_seeds
from gameopt.errors import InvalidInputError
from gameopt.pairing.penalties import PenaltyParams
from gameopt.pairing.simulate import EventStats, SimConfig, simulate_event

__all__ = ["COMPARE_COLUMNS", "COMPARE_RULES", "GRID", "Evaluation", "TuneResult",
           "Validation", "compare_rules", "evaluate", "evaluate_many", "paired_difference",
           "params_toml", "tune_and_validate", "tune_params", "weight_value"]

#: The weights searched and the values tried for each. ``p_rank`` and ``p_halves`` 0
#: switch SLIM's rank term and the Dutch-like halves term off, any other value switches
#: it on with that factor; ``min_fac`` stays below half the cheapest float
#: (``p_und[1]`` = 100) so a float never becomes free.
GRID: Mapping[str, tuple[int, ...]] = {
    "p_colalt": (0, 1),
    "p_halves": (0, 1, 2, 5, 20),
    "p_halfrnd": (0, 1, 2, 3),
    "p_rank": (0, 1, 2, 5, 10, 20, 50),
    "p_elects": (0, 1, 2, 4, 8, 16),
    "p_flcum": (0, 20, 50, 100),
    "min_fac": (0, 10, 25, 45),
}


#: The weights of :data:`GRID` whose 0 switches a term off, and the term.
_TOGGLES = {"p_rank": "rank", "p_halves": "halves"}


def _with(params: PenaltyParams, name: str, value: int) -> PenaltyParams:
    """``params`` with weight ``name`` set to ``value`` (``p_rank`` and ``p_halves``
    toggle their term)."""
    if name in _TOGGLES:
        term = _TOGGLES[name]
        terms = params.terms | {term} if value else params.terms - {term}
        kw: dict[str, Any] = {"terms": terms, name: value or getattr(params, name)}
        return dataclasses.replace(params, **kw)
    if name == "p_elects":
        return dataclasses.replace(params, p_elects=(value,))
    other: dict[str, Any] = {name: value}
    return dataclasses.replace(params, **other)


def weight_value(params: PenaltyParams, name: str) -> int:
    """The value of weight ``name`` of :data:`GRID` in ``params`` (``p_rank``,
    ``p_halves`` 0 when their term is off; ``p_elects`` −1 when it differs by round)."""
    if name in _TOGGLES:
        return int(getattr(params, name)) if _TOGGLES[name] in params.terms else 0
    if name == "p_elects":
        return params.p_elects[0] if len(set(params.p_elects)) == 1 else -1
    return int(getattr(params, name))


@dataclass(frozen=True)
class Evaluation:
    """One weight set over a set of simulated events.

    Attributes
    ----------
    params : PenaltyParams
    taus : tuple of float
        Kendall τ per event, in the order of the configs then the seeds.
    rematches, colour_breaks, high_byes, floats : int
        Totals over the events (see :class:`~gameopt.pairing.simulate.EventStats`).
    """

    params: PenaltyParams
    taus: tuple[float, ...]
    rematches: int
    colour_breaks: int
    high_byes: int
    floats: int

    @property
    def tau(self) -> float:
        """Mean Kendall τ over the events."""
        return statistics.fmean(self.taus)


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune_params` found (a :class:`gameopt.core.Outcome`).

    Attributes
    ----------
    params : PenaltyParams
        The best weights that met the constraints (the start if none beat it).
    best, start : Evaluation
        Their evaluations on the training seeds.
    history : tuple of Evaluation
        Every candidate evaluated, in order.
    seconds, clock
        Time of the search on ``clock``, the limit's (on ``"cpu"``, this process only: the
        events run in worker processes, so a time limit is best given on ``"wall"``).
    proven : bool
        Always False: a search over a grid proves nothing.
    bound : None
    stats : dict
        ``evaluations``, ``passes``, ``events`` per candidate, ``stopped`` (why it stopped).
    """

    params: PenaltyParams
    best: Evaluation
    start: Evaluation
    history: tuple[Evaluation, ...]
    seconds: float
    clock: str
    proven: bool = False
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)


def _job(job: tuple[SimConfig, int, PenaltyParams]) -> EventStats:
    cfg, seed, params = job
    return simulate_event("exact", cfg, seed, params)


def _check(configs: Sequence[SimConfig], events: int, where: str) -> None:
    check_count(events, f"{where}: events")
    if not configs:
        raise InvalidInputError(f"{where}: no event size given")


def evaluate_many(candidates: Sequence[PenaltyParams], configs: Sequence[SimConfig], *,
                  events: int, seed: int | None, workers: int | None = None,
                  scheduler: str | None = None,
                  progress: ProgressCallback | None = None) -> list[Evaluation]:
    """:func:`evaluate` of several weight sets in one parallel batch."""
    _check(configs, events, "tune")
    seeds = spawn_seeds(seed, events)
    jobs = [(cfg, s, p) for p in candidates for cfg in configs for s in seeds]
    out = parallel_map(_job, jobs, workers=workers, scheduler=scheduler, progress=progress)
    k = len(configs) * events
    evals = []
    for i, p in enumerate(candidates):
        part = out[i * k:(i + 1) * k]
        evals.append(Evaluation(p, tuple(e.kendall_tau for e in part),
                                sum(e.rematches for e in part),
                                sum(int(e.stats["colour_breaks"]) for e in part),
                                sum(int(e.stats["high_byes"]) for e in part),
                                sum(e.floats for e in part)))
    return evals


def evaluate(params: PenaltyParams, configs: Sequence[SimConfig], *, events: int,
             seed: int | None, workers: int | None = None,
             scheduler: str | None = None) -> Evaluation:
    """``params`` over ``events`` seeded events of each of ``configs`` (exact rule)."""
    return evaluate_many([params], configs, events=events, seed=seed, workers=workers,
                         scheduler=scheduler)[0]


def _feasible(e: Evaluation, start: Evaluation) -> bool:
    return (e.rematches == 0 and e.high_byes <= start.high_byes
            and e.colour_breaks <= start.colour_breaks)


def tune_params(configs: Sequence[SimConfig], *, events: int = 20, seed: int | None = 0,
                start: PenaltyParams | None = None, max_evals: int = 40,
                limit: Limit | None = None, workers: int | None = None,
                scheduler: str | None = None,
                progress: ProgressCallback | None = None) -> TuneResult:
    """Search the weights of :data:`GRID` for the best mean Kendall τ.

    Parameters
    ----------
    configs : sequence of SimConfig
        Event sizes; each candidate plays ``events`` events of each, on the same seeds.
    events : int
        Events per size and candidate.
    seed : int or None
        Seeds of the training events (:func:`~gameopt.core.rng.spawn_seeds`).
    start : PenaltyParams, optional
        The incumbent (default ``PenaltyParams()``).
    max_evals : int
        Candidates evaluated at most, the start excluded.
    limit : Limit, optional
        ``time`` (checked between batches, on its clock) and ``stop``.
    workers, scheduler
        As :func:`~gameopt.core.parallel_map`.
    progress : callable, optional
        Hears ``Progress("tune", evaluations, max_evals, best=τ)`` after each batch.

    Returns
    -------
    TuneResult

    Raises
    ------
    InvalidInputError
        ``events`` or ``max_evals`` not a whole number ≥ 1, no config, or a limit with
        nodes, depth or target.

    Notes
    -----
    Cost: up to ``(max_evals + 1) · events · len(configs)`` simulated events.
    A candidate is accepted only if it has no rematch, no more byes above the lowest score
    group and no more colour-tier breaks than the start, and a higher mean τ.
    """
    _check(configs, events, "tune")
    check_count(max_evals, "tune: max_evals")
    limit = limit or Limit()
    if limit.nodes is not None or limit.depth is not None or limit.target is not None:
        raise InvalidInputError(f"tune: a limit takes time and a stop flag only (got "
                                f"{limit!r})")
    rule = limit.start()
    kw: dict[str, Any] = {"events": events, "seed": seed, "workers": workers,
                          "scheduler": scheduler}
    first = evaluate_many([start or PenaltyParams()], configs, **kw)[0]
    best = first
    history: list[Evaluation] = []
    seen = {first.params}  # each weight set is evaluated once
    passes = 0
    stopped = "converged"
    improved = True
    while improved:
        improved = False
        passes += 1
        for name, values in GRID.items():
            reason = rule.should_stop(len(history), None)
            if len(history) >= max_evals:
                stopped = "max_evals"
            elif reason:
                stopped = reason
            if stopped != "converged":
                break
            current = weight_value(best.params, name)
            tries = [_with(best.params, name, v) for v in values if v != current]
            tries = [p for p in tries if p not in seen][:max_evals - len(history)]
            seen.update(tries)
            evals = evaluate_many(tries, configs, **kw)
            history.extend(evals)
            ok = [e for e in evals if _feasible(e, first) and e.tau > best.tau]
            if ok:
                best = max(ok, key=lambda e: e.tau)
                improved = True
            if progress is not None:
                progress(Progress("tune", len(history), max_evals, best=best.tau))
        if stopped != "converged":
            break
    return TuneResult(best.params, best, first, tuple(history), rule.elapsed(), rule.clock,
                      stats={"evaluations": len(history), "passes": passes,
                             "events": events * len(configs), "stopped": stopped})


def paired_difference(after: Evaluation, before: Evaluation) -> tuple[float, float, float]:
    """Mean per-event τ difference ``after − before`` on the same seeds, with its 95 %
    confidence interval (normal approximation of the paired t interval).

    Raises
    ------
    InvalidInputError
        The evaluations are not over the same number of events, or fewer than 2.
    """
    if len(after.taus) != len(before.taus) or len(after.taus) < 2:
        raise InvalidInputError("paired_difference: need the same events (at least 2) on "
                                f"both sides, got {len(after.taus)} and {len(before.taus)}")
    d = [a - b for a, b in zip(after.taus, before.taus, strict=True)]
    mean = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
    return mean, mean - half, mean + half


#: The rules ``tune --compare`` and the tuning benchmark compare (simulation rules).
COMPARE_RULES = ("exact", "slim", "dutch", "naive")

#: The columns of :func:`compare_rules`' rows.
COMPARE_COLUMNS = ("weights", "rule", "events", "Kendall τ", "rematches/event",
                   "floats/event", "mean |colour diff|", "max |colour diff|",
                   "colour breaks/event", "high byes/event")


def compare_rules(weights: Mapping[str, PenaltyParams], rules: Sequence[str],
                  configs: Sequence[SimConfig], *, events: int, seed: int | None,
                  workers: int | None = None, scheduler: str | None = None,
                  progress: ProgressCallback | None = None) -> list[list[object]]:
    """One row per (weights, rule, config) with the columns :data:`COMPARE_COLUMNS`,
    every row over the same ``events`` seeded events of its config."""
    from gameopt.pairing.simulate import simulate_rules

    rows: list[list[object]] = []
    for label, params in weights.items():
        for cfg in configs:
            for r in simulate_rules(list(rules), cfg, events=events, seed=seed,
                                    workers=workers, scheduler=scheduler, progress=progress,
                                    params=params):
                rule, n, rem, flo, mean_d, max_d, brk, byes, tau, _cpu = r
                rows.append([label, f"{rule} {cfg.players}x{cfg.rounds}", n, tau, rem, flo,
                             mean_d, max_d, brk, byes])
    return rows


@dataclass(frozen=True)
class Validation:
    """A tuning run judged on held-out seeds.

    Attributes
    ----------
    result : TuneResult
        The search on the training seeds.
    before, after : Evaluation
        The start and the tuned weights on the held-out seeds.
    difference : tuple of float
        :func:`paired_difference` of ``after`` and ``before``: mean, 95 % low, 95 % high.
    better : bool
        The tuned weights keep the constraints on the held-out events and the lower end of
        the interval is above 0.
    """

    result: TuneResult
    before: Evaluation
    after: Evaluation
    difference: tuple[float, float, float]

    @property
    def better(self) -> bool:
        """Significantly better on the held-out events (module notes)."""
        return _feasible(self.after, self.before) and self.difference[1] > 0


def tune_and_validate(configs: Sequence[SimConfig], *, events: int, holdout: int,
                      seed: int = 0, start: PenaltyParams | None = None,
                      max_evals: int = 40, limit: Limit | None = None,
                      workers: int | None = None, scheduler: str | None = None,
                      progress: ProgressCallback | None = None) -> Validation:
    """:func:`tune_params` on the seeds of ``seed``, then the start and the tuned weights
    on ``holdout`` events per config from the seeds of ``seed + 1`` (a different
    :class:`numpy.random.SeedSequence` root, so no training event is reused).

    Raises
    ------
    InvalidInputError
        As :func:`tune_params`; ``holdout`` not a whole number ≥ 2; ``seed`` not a
        non-negative integer.
    """
    check_count(holdout, "tune: holdout", minimum=2)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidInputError(f"tune: seed must be a non-negative integer, got {seed!r}")
    result = tune_params(configs, events=events, seed=seed, start=start,
                         max_evals=max_evals, limit=limit, workers=workers,
                         scheduler=scheduler, progress=progress)
    before, after = evaluate_many([result.start.params, result.params], configs,
                                  events=holdout, seed=seed + 1, workers=workers,
                                  scheduler=scheduler)
    return Validation(result, before, after, paired_difference(after, before))


def params_toml(params: PenaltyParams) -> str:
    """``params`` as a TOML file :meth:`PenaltyParams.from_toml` reads back."""
    lines = []
    for key, value in params.to_dict().items():
        if isinstance(value, list):
            text = "[" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v)
                                   for v in value) + "]"
        else:
            text = str(value)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"
