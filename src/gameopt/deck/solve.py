"""One entry point over every deck method, with the methods listed once.

:data:`METHODS` is the registry: each :class:`Method` says what it is, the clock its time
is measured on, whether it proves optimality, whether it suits MDP instances (the size rule
only, run until a target or a time limit) and its default time limit for front ends.
:func:`solve` runs one, checks the deck and reports its time with kernel load time left
out (``stats["load_seconds"]``).

Clocks: the heuristics (greedy, hc, vds, tabu) and the branch and bound measure process CPU
time by default (their kernels run in this process; a time limit on either clock is
honoured, checked between restarts or chunks of nodes); ``exact`` measures wall time, since
CP-SAT's time limit is wall time and it runs several threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gameopt.core.limit import Clock, Limit
from gameopt.core.progress import ProgressCallback
from gameopt.deck.problem import DeckProblem
from gameopt.deck.result import DeckResult
from gameopt.errors import InvalidInputError

__all__ = ["DECK_METHODS", "METHODS", "MDP_METHODS", "Method", "solve"]


@dataclass(frozen=True)
class Method:
    """One deck method of the registry.

    Attributes
    ----------
    name : str
    summary : str
        One line for help texts.
    clock : {"cpu", "wall"}
        The clock of its reported ``seconds`` and, by default, of its time limit.
    exact : bool
        It proves optimality (or reports a bound and gap).
    mdp : bool
        It suits MDP instances (runs until a target or time limit).
    default_time : float or None
        The time limit front ends give it when the user gives none (``None``: until done).
    options : tuple of str
        The keyword options :func:`solve` passes on to it.
    deck : bool
        Front ends offer it for decks under game rules (``gameopt deck build``, the deck
        API, the ``/deck`` page): only methods at least as good as VDS on the benchmark
        instances (``benchmarks/bench_deck_quality.py``). ``tabu`` is not: on the stress
        instances (cap 200, with and without 10 God pieces and a leader) it stays far
        below VDS at equal CPU time, and its default run takes seconds; it is kept for
        MDP instances. ``greedy`` is not: one construction, it scores 0.07-0.55 of the
        best deck known on every instance (it stays the baseline of the benchmarks).
        ``hc`` is not: VDS's first phase alone, it stops below VDS at its defaults on
        two of the three rule sets off the tight caps (cap 200 + 10 God + a leader, cap
        150 + two per character + two must-include) and never above it; it is kept for
        MDP instances. :func:`solve` still runs every method on any problem.
    """

    name: str
    summary: str
    clock: Clock
    exact: bool
    mdp: bool
    default_time: float | None
    options: tuple[str, ...]
    run: Callable[..., DeckResult]
    deck: bool = True


def _heuristic(name: str) -> Callable[..., DeckResult]:
    def run(problem: DeckProblem, *, limit: Limit, seed: int | None,
            progress: ProgressCallback | None, **options: Any) -> DeckResult:
        from gameopt.deck.build import build_deck

        return build_deck(problem, name, seed=seed, limit=limit, progress=progress,
                          **options)
    return run


def _exact(problem: DeckProblem, *, limit: Limit, seed: int | None,
           progress: ProgressCallback | None, **options: Any) -> DeckResult:
    from gameopt.deck.exact import solve_exact

    if seed is not None:
        options["seed"] = seed
    return solve_exact(problem, limit=limit, progress=progress, **options)


def _bnb(problem: DeckProblem, *, limit: Limit, seed: int | None,
         progress: ProgressCallback | None, **options: Any) -> DeckResult:
    from gameopt.deck.bnb import solve_bnb

    return solve_bnb(problem, limit=limit, seed=seed, progress=progress, **options)


_LOCAL = ("restarts", "depth", "relax", "width", "start", "seeds")

#: Every deck method, in the order front ends list them.
METHODS: dict[str, Method] = {m.name: m for m in (
    Method("greedy", "best-gain construction that keeps a rule-keeping completion (the "
           "in-game baseline)", "cpu", False, False, None, ("start",), _heuristic("greedy"),
           deck=False),
    Method("hc", "1-swap hill climbing with restarts", "cpu", False, True, None, _LOCAL,
           _heuristic("hc"), deck=False),
    Method("vds", "variable depth search (Kernighan-Lin) with restarts", "cpu", False, True,
           None, _LOCAL, _heuristic("vds")),
    Method("tabu", "iterated tabu search over swaps (Palubeckis); for MDP instances",
           "cpu", False, True, None, ("restarts", "start", "stall"), _heuristic("tabu"),
           deck=False),
    Method("exact", "CP-SAT model of the quadratic score: proof or gap", "wall", True, False,
           60.0, ("workers", "hint", "scale"), _exact),
    Method("bnb", "branch and bound (Marti-Gallego-Duarte bounds, Russian-doll table, "
           "quadratic-knapsack reduction under a tight cap): proof or gap", "cpu", True,
           False, 60.0, ("hint", "table", "reduce"), _bnb),
)}

#: The methods that suit MDP instances (:func:`gameopt.deck.mdp.solve_mdp`).
MDP_METHODS: tuple[str, ...] = tuple(m.name for m in METHODS.values() if m.mdp)

#: The methods front ends offer for decks under game rules (``vds``, ``exact``, ``bnb``:
#: those at least as good as VDS on the benchmark instances; see :attr:`Method.deck`).
DECK_METHODS: tuple[str, ...] = tuple(m.name for m in METHODS.values() if m.deck)

_warmed: set[str] = set()


def _warm(method: str) -> float:
    """Load (or compile) the kernels ``method`` uses, once per process: the seconds spent.

    A tiny problem with every rule runs through the method, so every kernel it calls is
    loaded before the caller's clock starts.
    """
    if method in _warmed:
        return 0.0
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    n = 12
    u = rng.random((n, n))
    tiny = DeckProblem(((u + u.T) / 2).astype(np.float32), 4,
                       cost=np.arange(1, n + 1, dtype=np.int32), cost_cap=20,
                       character=np.arange(n, dtype=np.int32) // 2, char_limit=1,
                       attribute=(np.arange(n) % 2).astype(np.int8), attribute_min=1,
                       must=(0,), leader_scores=np.ones(n, np.float32))
    if method == "exact":  # CP-SAT needs loading, no warming; its VDS hint does
        import gameopt.deck.exact  # noqa: F401

        METHODS["vds"].run(tiny, limit=Limit(clock="cpu"), seed=0, progress=None)
    else:
        METHODS[method].run(tiny, limit=Limit(clock="cpu"), seed=0, progress=None)
        if method != "greedy":  # the size-rule-only paths (constrained tabu moves)
            free = DeckProblem(tiny.R, 4)
            METHODS[method].run(free, limit=Limit(clock="cpu"), seed=0, progress=None)
    _warmed.add(method)
    if method in ("bnb", "exact"):  # both run VDS for their incumbent
        _warmed.add("vds")
    return time.perf_counter() - t0


def solve(problem: DeckProblem, method: str = "vds", *, limit: Limit | None = None,
          seed: int | None = 0, progress: ProgressCallback | None = None,
          warm: bool = True, **options: Any) -> DeckResult:
    """Build the best deck ``method`` can find, checked against every rule.

    Parameters
    ----------
    problem : DeckProblem
    method : str
        A key of :data:`METHODS`: ``greedy``, ``hc``, ``vds``, ``tabu`` (heuristics),
        ``exact`` (CP-SAT), ``bnb`` (branch and bound).
    limit : Limit, optional
        ``time`` on ``clock`` (without a time, the method's own clock, :attr:`Method.clock`,
        is reported), ``target`` (heuristics: stop once a deck scores at least this),
        ``stop`` (an outside request). Default: no limit (run until done; exact methods
        until proven).
    seed : int or None
        Same seed, same deck (without a time limit).
    progress : ProgressCallback, optional
        Told after each restart (heuristics), chunk of nodes (bnb) or CP-SAT solution
        (exact).
    warm : bool
        Load the method's kernels first (once per process) so that ``seconds`` leaves the
        load time out; it goes to ``stats["load_seconds"]``.
    **options
        Method options, listed in :attr:`Method.options` (``restarts``, ``depth``,
        ``relax``, ``width``, ``start``, ``seeds``, ``stall``, ``hint``, ``workers``,
        ``scale``, ``table``); see :func:`gameopt.deck.build.build_deck`,
        :func:`gameopt.deck.exact.solve_exact`, :func:`gameopt.deck.bnb.solve_bnb`.

    Returns
    -------
    DeckResult

    Raises
    ------
    InvalidInputError
        An unknown method or option, a node or depth limit (no deck method has one), a
        CPU time limit for ``exact``.
    InfeasibleError
        When no deck keeps the rules, with the reason.
    """
    spec = METHODS.get(method)
    if spec is None:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise InvalidInputError(f"method {method}: unknown option {unknown[0]!r} (it takes "
                                f"{', '.join(spec.options) or 'none'})")
    limit = limit if limit is not None else Limit()
    if limit.nodes is not None or limit.depth is not None:
        raise InvalidInputError(f"method {method}: a deck search takes a time, a target or "
                                "a stop, not a node or depth limit")
    if limit.time is None and limit.clock != spec.clock:
        limit = replace(limit, clock=spec.clock)
    load = _warm(method) if warm else 0.0
    result = spec.run(problem, limit=limit, seed=seed, progress=progress, **options)
    if load:
        result.stats["load_seconds"] = load
    return result
