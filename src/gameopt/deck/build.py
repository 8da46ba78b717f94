"""Deck builders: greedy (the in-game baseline), 1-swap hill climbing and VDS hill climbing.

All three take a :class:`~gameopt.deck.problem.DeckProblem`, return a
:class:`DeckResult` checked by :mod:`gameopt.deck.verify`, or raise
:class:`~gameopt.errors.InfeasibleError` with the reason no deck exists.

References
----------
B. W. Kernighan and S. Lin, Bell System Technical Journal 49(2), 1970 (variable depth
search); I. Nagasawa, DeNA engineering blog, 2020 (VDS deck building, depth 3, cost +10).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.rng import make_rng
from gameopt.deck import _vds_kernel as K
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import deck_problems
from gameopt.errors import InfeasibleError, InvalidInputError, SolverError

__all__ = ["DeckResult", "build_deck", "METHODS"]

METHODS = ("vds", "hc", "greedy")
_BIG = 2**62
_TRIES = 50  # candidates tried per construction step before completing by the certificate


@dataclass(frozen=True)
class DeckResult:
    """A built deck.

    Attributes
    ----------
    deck : tuple of int
        Piece indices, sorted.
    score : float
        :func:`~gameopt.deck.problem.deck_score` of the deck (float64).
    cost : int
        Total cost (0 without costs).
    method : str
    seconds : float
        Process CPU seconds used.
    stats : dict
        ``restarts``, ``moves``, ``swaps`` (a VDS move may apply up to ``depth`` swaps),
        ``cpu_to_best`` (CPU seconds until the best deck was first found).
    """

    deck: tuple[int, ...]
    score: float
    cost: int
    method: str
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)


class _Arrays:
    """The rules as int64 arrays for the kernel (characters renumbered 0..n_char-1)."""

    def __init__(self, p: DeckProblem) -> None:
        n = p.n
        self.R = p.R
        self.leader = (np.zeros(n, np.float32) if p.leader_scores is None
                       else p.leader_scores)
        self.cost = np.zeros(n, np.int64) if p.cost is None else p.cost.astype(np.int64)
        self.cap = _BIG if p.cost_cap is None else int(p.cost_cap)
        if p.character is None:
            self.char = np.arange(n, dtype=np.int64)
            self.climit = _BIG
        else:
            self.char = np.unique(p.character, return_inverse=True)[1].astype(np.int64)
            self.climit = int(p.char_limit)
        self.n_char = int(self.char.max()) + 1
        self.attr = (np.zeros(n, np.int64) if p.attribute is None
                     else (p.attribute != 0).astype(np.int64))
        self.amin = int(p.attribute_min)
        self.locked = np.zeros(n, np.int64)
        self.locked[list(p.must)] = 1
        self.order = np.argsort(self.cost, kind="stable")  # cheapest first
        self.eps = 1e-7 * max(1.0, float(np.abs(p.R).max(initial=0.0)))


def _completion(a: _Arrays, p: DeckProblem, chosen: list[int]) -> list[int] | None:
    """A cheap rule-keeping completion of ``chosen``, or None when this greedy finds none.

    Cheapest attribute pieces first (up to the minimum), then the cheapest of any kind,
    each under the character limit. A returned list is a certificate (it keeps every
    rule); None is not a proof.
    """
    inset = set(chosen)
    cc: dict[int, int] = {}
    for i in chosen:
        cc[int(a.char[i])] = cc.get(int(a.char[i]), 0) + 1
    if cc and max(cc.values()) > a.climit:
        return None
    need_attr = a.amin - sum(int(a.attr[i]) for i in chosen)
    left = p.size - len(chosen)
    budget = a.cap - sum(int(a.cost[i]) for i in chosen)
    extra: list[int] = []
    for attr_pass in (True, False):
        for i in a.order:
            i = int(i)
            if len(extra) == left or (attr_pass and need_attr <= 0):
                break
            ch = int(a.char[i])
            if i in inset or cc.get(ch, 0) >= a.climit or (attr_pass and not a.attr[i]):
                continue
            inset.add(i)
            cc[ch] = cc.get(ch, 0) + 1
            need_attr -= int(a.attr[i])
            budget -= int(a.cost[i])
            extra.append(i)
    if len(extra) < left or need_attr > 0 or budget < 0:
        return None
    return extra


def _raise_if_plainly_infeasible(p: DeckProblem, a: _Arrays) -> None:
    must = list(p.must)
    must_cost = int(a.cost[must].sum())
    if must_cost > a.cap:
        raise InfeasibleError(f"rules: the must-include pieces alone cost {must_cost} "
                              f"> cap {a.cap}")
    if a.amin > p.size:
        raise InfeasibleError(f"rules: attribute minimum {a.amin} > deck size {p.size}")
    n_attr = int(a.attr.sum())
    if n_attr < a.amin:
        raise InfeasibleError(f"rules: only {n_attr} pieces with the attribute, "
                              f"{a.amin} required")
    per_char = np.bincount(a.char, minlength=a.n_char)
    must_char = np.bincount(a.char[must], minlength=a.n_char) if must else per_char * 0
    if must and int(must_char.max()) > a.climit:
        ch = int(np.argmax(must_char))
        raise InfeasibleError(f"rules: {int(must_char[ch])} must-include pieces share one "
                              f"character, limit {a.climit}")
    room = int(np.minimum(per_char, a.climit).sum())
    if room < p.size:
        raise InfeasibleError(f"rules: at most {room} pieces fit the per-character limit "
                              f"{a.climit}, deck size {p.size}")
    cheapest = int(np.sort(a.cost)[:p.size].sum())
    if cheapest > a.cap:
        raise InfeasibleError(f"rules: the cheapest {p.size} pieces cost {cheapest} "
                              f"> cap {a.cap}")


def _cpsat_start(p: DeckProblem, a: _Arrays) -> list[int]:
    """A feasible deck of least cost by CP-SAT, or InfeasibleError (a proof)."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x{i}") for i in range(p.n)]
    # Size
    m.add(sum(x) == p.size)
    # Must-include
    for i in p.must:
        m.add(x[i] == 1)
    # Per-character limit
    for ch in range(a.n_char):
        members = np.flatnonzero(a.char == ch)
        if len(members) > a.climit:
            m.add(sum(x[int(i)] for i in members) <= a.climit)
    # Attribute minimum
    if a.amin > 0:
        m.add(sum(x[int(i)] for i in np.flatnonzero(a.attr)) >= a.amin)
    # Objective: least cost (the cap is then a check)
    m.minimize(sum(int(a.cost[i]) * x[i] for i in range(p.n)))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 30.0
    status = solver.solve(m)
    if status == cp_model.INFEASIBLE:
        raise InfeasibleError("rules: no deck meets size, character limit and attribute "
                              "minimum together (proved by CP-SAT)")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(f"CP-SAT status {solver.status_name(status)} looking for a start")
    deck = [i for i in range(p.n) if solver.value(x[i])]
    total = int(a.cost[deck].sum())
    if status == cp_model.OPTIMAL and total > a.cap:
        raise InfeasibleError(f"rules: the cheapest deck under the other rules costs {total} "
                              f"> cap {a.cap} (proved by CP-SAT)")
    if total > a.cap:
        raise SolverError("CP-SAT found no deck under the cost cap in 30 s")
    return deck


def _construct(p: DeckProblem, a: _Arrays, rng: np.random.Generator | None) -> list[int]:
    """Add pieces one by one, best gain first (``rng`` None: greedy) or in random order,
    keeping a completion certificate; falls back to the certificate, then to CP-SAT."""
    chosen = list(p.must)
    if a.cap == _BIG and a.climit == _BIG and a.amin == 0:  # size rule only (MDP)
        return _construct_free(p, a, rng, chosen)
    cert = _completion(a, p, chosen)
    if cert is None:
        return _cpsat_start(p, a)
    gain = a.leader.astype(np.float64) + a.R[:, chosen].astype(np.float64).sum(axis=1)
    while len(chosen) < p.size:
        free = np.ones(p.n, bool)
        free[chosen] = False
        cand = np.flatnonzero(free)
        cand = (cand[np.argsort(-gain[cand], kind="stable")] if rng is None
                else rng.permutation(cand))
        for i in cand[:_TRIES]:
            nxt = _completion(a, p, [*chosen, int(i)])
            if nxt is not None:
                chosen.append(int(i))
                cert = nxt
                gain += a.R[:, int(i)]
                break
        else:
            return chosen + cert
    return chosen


def _construct_free(p: DeckProblem, a: _Arrays, rng: np.random.Generator | None,
                    chosen: list[int]) -> list[int]:
    """:func:`_construct` when only the size rule applies: O(size·n) numpy."""
    free = np.ones(p.n, bool)
    free[chosen] = False
    if rng is not None:
        return chosen + [int(i) for i in rng.permutation(np.flatnonzero(free))[:p.size
                                                                           - len(chosen)]]
    gain = a.leader.astype(np.float64) + a.R[:, chosen].astype(np.float64).sum(axis=1)
    while len(chosen) < p.size:
        i = int(np.flatnonzero(free)[np.argmax(gain[free])])
        chosen.append(i)
        free[i] = False
        gain += a.R[:, i]
    return chosen


def _run_ls(a: _Arrays, deck: list[int], depth: int, relax: int, width: int,
            kick: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int] | None,
            ) -> tuple[npt.NDArray[np.int64], int, int]:
    empty = np.zeros(0, np.int64)
    ka, kb, nk = kick if kick is not None else (empty, empty, 0)
    out, moves, swaps = K.local_search(
        a.R, a.leader, np.asarray(deck, np.int64), a.char, a.n_char, a.climit, a.cost, a.cap,
        a.attr, a.amin, a.locked, depth, relax, width, a.eps, ka, kb, nk, 10**9)
    return out, int(moves), int(swaps)


def _check_args(method: str, restarts: int, depth: int, relax: int, width: int) -> None:
    if method not in METHODS:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    if restarts < 1 or depth < 1 or relax < 0 or width < 1:
        raise InvalidInputError(f"restarts={restarts}, depth={depth}, relax={relax}, "
                                f"width={width}: need restarts, depth, width >= 1, relax >= 0")


def build_deck(problem: DeckProblem, method: str = "vds", *, seed: int | None = None,
               restarts: int = 20, time_limit: float | None = None, depth: int = 3,
               relax: int = 10, width: int = 8, start: Sequence[int] | None = None,
               target: float | None = None) -> DeckResult:
    """Build a deck that keeps every rule of ``problem`` and scores high.

    Parameters
    ----------
    problem : DeckProblem
    method : {"vds", "hc", "greedy"}
        ``greedy``: from the must-include pieces add the best-gain piece whose addition
        still has a rule-keeping completion (the in-game baseline). ``hc``: best-improvement
        1-swap hill climbing. ``vds``: the same, and at a 1-swap optimum a variable depth
        move (up to ``depth`` swaps, cost cap relaxed by ``relax`` in between, the
        ``width`` best candidates tried per level, backtracking).
    seed : int or None
        Seed of the restarts' generator; same seed, same result (without ``time_limit``).
    restarts : int
        Local searches: the first from the greedy deck (or ``start``), then alternately
        from a random construction and from the best deck kicked by a few random swaps
        (iterated local search).
    time_limit : float or None
        CPU seconds; no new restart begins after it.
    start : sequence of int, optional
        A feasible deck to start the first local search from (checked).
    target : float, optional
        Stop as soon as a deck scores at least ``target`` (minus 1e-6 relative).

    Returns
    -------
    DeckResult

    Raises
    ------
    InfeasibleError
        When no deck keeps the rules, with the reason.
    InvalidInputError
        Bad method or parameters, or an infeasible ``start``.

    Notes
    -----
    One 1-swap scan is O(size·n) with O(1) per swap from the incremental gains; an applied
    swap costs O(n). A VDS move costs at most 1 + width + … + width^(depth-1) scans.
    """
    _check_args(method, restarts, depth, relax, width)
    t0 = time.process_time()
    a = _Arrays(problem)
    _raise_if_plainly_infeasible(problem, a)
    rng = make_rng(seed)
    if start is not None:
        bad = deck_problems(problem, list(start))
        if bad:
            raise InvalidInputError("start: " + "; ".join(bad))
        best = [int(i) for i in start]
    else:
        best = _construct(problem, a, None)
    best_score = deck_score(problem, best)
    stats: dict[str, Any] = {"restarts": 0, "moves": 0, "swaps": 0, "cpu_to_best": 0.0}
    goal = None if target is None else target - 1e-6 * max(1.0, abs(target))
    if method != "greedy":
        d = depth if method == "vds" else 1
        n_kick = max(2, problem.size // 8)
        for r in range(restarts):
            if r > 0 and ((goal is not None and best_score >= goal) or (
                    time_limit is not None and time.process_time() - t0 >= time_limit)):
                break
            kick = None
            if r == 0:
                deck = best
            elif r % 2 == 1 or problem.size - len(problem.must) < 2:
                deck = _construct(problem, a, rng)
            else:
                deck = best
                kick = (rng.integers(0, problem.size, 8 * n_kick).astype(np.int64),
                        rng.integers(0, problem.n, 8 * n_kick).astype(np.int64), n_kick)
            out, moves, swaps = _run_ls(a, deck, d, relax, width, kick)
            stats["restarts"] += 1
            stats["moves"] += moves
            stats["swaps"] += swaps
            s = deck_score(problem, out)
            if s > best_score + a.eps:
                best, best_score = [int(i) for i in out], s
                stats["cpu_to_best"] = time.process_time() - t0
    return _result(problem, a, best, method, t0, stats)


def _result(p: DeckProblem, a: _Arrays, deck: list[int], method: str, t0: float,
            stats: dict[str, Any]) -> DeckResult:
    bad = deck_problems(p, deck)
    if bad:
        raise SolverError(f"{method} returned a deck that breaks the rules: " + "; ".join(bad))
    d = tuple(sorted(deck))
    return DeckResult(d, deck_score(p, d), int(a.cost[list(d)].sum()), method,
                      time.process_time() - t0, stats)
