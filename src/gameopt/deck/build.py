"""Deck builders: greedy (the in-game baseline), 1-swap and VDS hill climbing, tabu search.

All three take a :class:`~gameopt.deck.problem.DeckProblem`, return a
:class:`DeckResult` checked by :mod:`gameopt.deck.verify`, or raise
:class:`~gameopt.errors.InfeasibleError` with the reason no deck exists.

References
----------
B. W. Kernighan and S. Lin, Bell System Technical Journal 49(2), 1970 (variable depth
search); I. Nagasawa, DeNA engineering blog, 2020 (VDS deck building, depth 3, cost +10);
G. Palubeckis, Applied Mathematics and Computation 189(1), 2007 (iterated tabu search for
the maximum diversity problem).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.rng import make_rng
from gameopt.deck import _construct_kernel as C
from gameopt.deck import _strength_kernel as S
from gameopt.deck import _tabu_kernel as T
from gameopt.deck import _vds_kernel as K
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import deck_problems
from gameopt.errors import InfeasibleError, InvalidInputError, SolverError

__all__ = ["DeckResult", "build_deck", "METHODS"]

METHODS = ("vds", "hc", "greedy", "tabu")
_BIG = 2**62
_TRIES = 50  # candidates tried per construction step before completing by the certificate
_TABU_BASE, _TABU_RAND = 15, 10  # tabu tenure of a dropped piece: 15 + U{0..10} swaps
_PARTNERS = 2  # seed strength: partner lists of 2·(size-1) pieces per row
_PRICE_STEPS = 10  # bisections of the cap's price (the order is robust to a factor ~2)


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
            self.climit = np.full(n, _BIG, dtype=np.int64)
        else:
            used, self.char = np.unique(p.character, return_inverse=True)
            self.char = self.char.astype(np.int64)
            self.climit = p.char_limits()[used]  # limit of each renumbered character
        self.n_char = int(self.char.max()) + 1
        per_char = np.bincount(self.char, minlength=self.n_char)
        self.attr = (np.zeros(n, np.int64) if p.attribute is None
                     else (p.attribute != 0).astype(np.int64))
        self.amin = int(p.attribute_min)
        self.locked = np.zeros(n, np.int64)
        self.locked[list(p.must)] = 1
        self.order = np.argsort(self.cost, kind="stable").astype(np.int64)  # cheapest first
        self.free = (self.cap == _BIG and self.amin == 0
                     and bool((per_char <= self.climit).all()))
        lo, hi = p.r_range
        self.spread = hi - lo  # ≥ the off-diagonal spread
        self.rmin = min(lo, 0.0)  # ≤ every R entry
        self.eps = 1e-7 * max(1.0, -lo, hi)


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
    if any(c > a.climit[ch] for ch, c in cc.items()):
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
            if i in inset or cc.get(ch, 0) >= a.climit[ch] or (attr_pass and not a.attr[i]):
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
    if must and (must_char > a.climit).any():
        ch = int(np.argmax(must_char > a.climit))
        raise InfeasibleError(f"rules: {int(must_char[ch])} must-include pieces share one "
                              f"character, limit {int(a.climit[ch])}")
    room = int(np.minimum(per_char, a.climit).sum())
    if room < p.size:
        raise InfeasibleError(f"rules: at most {room} pieces fit the per-character limits, "
                              f"deck size {p.size}")
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
        if len(members) > a.climit[ch]:
            m.add(sum(x[int(i)] for i in members) <= int(a.climit[ch]))
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


def _construct(p: DeckProblem, a: _Arrays, rng: np.random.Generator | None,
               seed_piece: int | None = None) -> list[int] | None:
    """Add pieces one by one, best gain first (``rng`` None: greedy) or in random order,
    keeping a completion certificate (numba, :mod:`._construct_kernel`); falls back to
    CP-SAT when the must-include pieces have no cheap completion. With ``seed_piece`` the
    construction starts from it and the must-include pieces; None when that start has no
    cheap completion."""
    chosen = list(p.must) + ([] if seed_piece is None else [seed_piece])
    if a.free:  # size rule only (MDP)
        return _construct_free(p, a, rng, chosen)
    rank = np.zeros(0) if rng is None else rng.random(p.n)
    deck, ok = C.construct(a.R, a.leader, np.asarray(chosen, np.int64), p.size, a.char,
                           a.n_char, a.climit, a.cost, a.cap, a.attr, a.amin, a.order,
                           rank, _TRIES, 0 if seed_piece is None else len(p.must))
    if ok:
        return [int(i) for i in deck]
    return _cpsat_start(p, a) if seed_piece is None else None


def _construct_reference(p: DeckProblem, a: _Arrays,
                         rng: np.random.Generator | None) -> list[int]:
    """Plain-Python :func:`_construct` for the tests (same greedy deck)."""
    chosen = list(p.must)
    if a.free:
        return _construct_free(p, a, rng, chosen)
    cert = _completion(a, p, chosen)
    if cert is None:
        return _cpsat_start(p, a)
    gain = a.leader.astype(np.float64) + a.R[:, chosen].astype(np.float64).sum(axis=1)
    while len(chosen) < p.size:
        free = np.ones(p.n, bool)
        free[chosen] = False
        counts = np.bincount(a.char[chosen], minlength=a.n_char)
        free &= counts[a.char] < a.climit[a.char]  # characters at their limit are out
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
        a.R, a.rmin, a.leader, np.asarray(deck, np.int64), a.char, a.n_char, a.climit, a.cost,
        a.cap, a.attr, a.amin, a.locked, depth, relax, width, a.eps, ka, kb, nk, 10**9)
    return out, int(moves), int(swaps)


def _run_tabu(a: _Arrays, deck: list[int], stall: int, seed: int, target: float,
              kick: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int] | None,
              ) -> tuple[npt.NDArray[np.int64], int]:
    empty = np.zeros(0, np.int64)
    ka, kb, nk = kick if kick is not None else (empty, empty, 0)
    out, _, iters = T.tabu_search(
        a.R, a.leader, np.asarray(deck, np.int64), a.char, a.n_char, a.climit, a.cost, a.cap,
        a.attr, a.amin, a.locked, ka, kb, nk, a.free, a.spread, stall, _TABU_BASE,
        _TABU_RAND, np.random.default_rng(seed), target, a.eps)
    return out, int(iters)


def _check_args(method: str, restarts: int, depth: int, relax: int, width: int) -> None:
    if method not in METHODS:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    if restarts < 1 or depth < 1 or relax < 0 or width < 1:
        raise InvalidInputError(f"restarts={restarts}, depth={depth}, relax={relax}, "
                                f"width={width}: need restarts, depth, width >= 1, relax >= 0")


def build_deck(problem: DeckProblem, method: str = "vds", *, seed: int | None = None,
               restarts: int = 16, time_limit: float | None = None, depth: int = 3,
               relax: int = 10, width: int = 4, start: Sequence[int] | None = None,
               target: float | None = None, stall: int | None = None,
               seeds: int = 16) -> DeckResult:
    """Build a deck that keeps every rule of ``problem`` and scores high.

    Parameters
    ----------
    problem : DeckProblem
    method : {"vds", "hc", "greedy"}
        ``greedy``: from the must-include pieces add the best-gain piece whose addition
        still has a rule-keeping completion (the in-game baseline). ``hc``: best-improvement
        1-swap hill climbing. ``vds``: the same, and at a 1-swap optimum a variable depth
        move (up to ``depth`` swaps, cost cap relaxed by ``relax`` in between, the
        ``width`` best candidates tried per level, backtracking). ``tabu``: iterated tabu
        search over single swaps (each run ends after ``stall`` swaps without a new best;
        the next starts from the best deck kicked by a few random swaps).
    seed : int or None
        Seed of the restarts' generator; same seed, same result (without ``time_limit``).
    restarts : int
        Local searches: the first from the greedy deck (or ``start``), then (``hc``,
        ``vds``) from up to ``seeds`` seeded greedy decks, then alternately from a random
        construction and from the best deck kicked by a few random swaps (iterated local
        search). ``tabu``: tabu runs, each after the first from the best deck kicked.
    time_limit : float or None
        CPU seconds; no new restart begins after it.
    start : sequence of int, optional
        A feasible deck to start the first local search from (checked).
    target : float, optional
        Stop as soon as a deck scores at least ``target`` (minus 1e-6 relative).
    seeds : int
        ``hc``/``vds``: restarts from greedy decks grown from strong, different seed
        pieces (see :func:`_seeded_starts`) before the random ones.
    stall : int, optional
        ``tabu`` only: swaps without a new best that end a run (default ``20·n`` with
        the size rule only, ``2·n`` with other rules, at least 2,000). ``time_limit``
        is checked between runs, so one run may overshoot it.

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
    if stall is not None and stall < 1:
        raise InvalidInputError(f"stall={stall}: need stall >= 1")
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
        first = _construct(problem, a, None)
        assert first is not None  # without a seed piece it never fails silently
        best = first
    best_score = deck_score(problem, best)
    stats: dict[str, Any] = {"restarts": 0, "moves": 0, "swaps": 0, "cpu_to_best": 0.0}
    goal = None if target is None else target - 1e-6 * max(1.0, abs(target))
    if method == "tabu":
        best = _iterated_tabu(problem, a, best, best_score, restarts, time_limit, goal,
                              stall, rng, t0, stats)
    elif method != "greedy":
        best = _multistart(problem, a, best, best_score, restarts, seeds, time_limit, goal,
                           (depth if method == "vds" else 1, relax, width), rng, t0, stats)
    return _result(problem, a, best, method, t0, stats)


def _kick(p: DeckProblem, rng: np.random.Generator
          ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """A random perturbation for the kernels' ``kick``: slots out, pieces in, how many
    swaps (``max(2, size // 8)``) to apply."""
    n_kick = max(2, p.size // 8)
    return (rng.integers(0, p.size, 8 * n_kick).astype(np.int64),
            rng.integers(0, p.n, 8 * n_kick).astype(np.int64), n_kick)


def _done(best_score: float, goal: float | None, time_limit: float | None,
          t0: float) -> bool:
    """The target is reached or the CPU time is up (checked between restarts)."""
    return ((goal is not None and best_score >= goal)
            or (time_limit is not None and time.process_time() - t0 >= time_limit))


def _keep_best(p: DeckProblem, a: _Arrays, out: npt.NDArray[np.int64], best: list[int],
               best_score: float, t0: float, stats: dict[str, Any]
               ) -> tuple[list[int], float]:
    """``out`` if it beats ``best`` (recording the CPU time to it), else ``best``."""
    s = deck_score(p, out)
    if s > best_score + a.eps:
        stats["cpu_to_best"] = time.process_time() - t0
        return [int(i) for i in out], s
    return best, best_score


def _seed_order(p: DeckProblem, a: _Arrays) -> npt.NDArray[np.int64]:
    """Seed pieces, strongest under the rules first.

    A piece's strength is ``b_i(λ) = leader_i + ½·(top_{size-1}(R_ij - λ·c_j/(size-1))
    - λ·c_i)``: the per-piece bound of :func:`gameopt.deck.exact.upper_bound` with the
    cost cap priced at λ (:mod:`._strength_kernel`), λ the price at which the relaxed
    solution meets the cap (0 without a binding cap: plain partner sums). Unpriced, a
    tight cap leaves the archetypes of cheap pieces unseeded: their strong partners are
    cheap but not the strongest. With an attribute minimum the order alternates with the
    attribute pieces ranked by their partners *with* the attribute at the same price,
    since most of the deck must come from those.
    """
    k = p.size
    if k <= 1 or p.n <= 1:
        return np.argsort(-a.leader.astype(np.float64), kind="stable").astype(np.int64)
    V, J = S.top_partners(a.R, min(p.n - 1, _PARTNERS * (k - 1)))
    lam = (0.0 if a.cap == _BIG
           else S.cap_price(V, J, a.cost, a.leader, k, a.cap, a.locked, _PRICE_STEPS))
    b, _ = S.strengths(V, J, a.cost, a.leader, k - 1, lam, k)
    plain = np.argsort(-b, kind="stable").astype(np.int64)
    with_attr = np.flatnonzero(a.attr).astype(np.int64)
    if a.amin <= 0 or len(with_attr) < 2:
        return plain
    sub = np.ascontiguousarray(a.R[np.ix_(with_attr, with_attr)])  # rows/columns with it
    Va, Ia = S.top_partners(sub, min(len(with_attr) - 1, _PARTNERS * (k - 1)))
    ba, _ = S.strengths(Va, Ia, a.cost[with_attr], a.leader[with_attr],
                        min(k - 1, a.amin), lam, k)
    attr_first = with_attr[np.argsort(-ba, kind="stable")]
    both = np.empty(len(plain) + len(attr_first), dtype=np.int64)
    both[: 2 * len(attr_first): 2] = attr_first
    both[1: 2 * len(attr_first): 2] = plain[: len(attr_first)]
    both[2 * len(attr_first):] = plain[len(attr_first):]
    return both


def _seeded_starts(p: DeckProblem, a: _Arrays, count: int) -> Iterator[list[int]]:
    """Greedy decks grown from strong, different seed pieces (:func:`_seed_order`).

    Pieces in an earlier seeded deck, or tied to it nearly as strongly as its own pieces,
    are not seeds again, so the starts spread over different groups of combos
    (archetypes).
    """
    if count <= 0 or p.size - len(p.must) < 1:
        return
    covered = np.zeros(p.n, dtype=bool)
    covered[list(p.must)] = True
    made = 0
    for i in _seed_order(p, a):
        if made == count:
            return
        if covered[i]:
            continue
        deck = _construct(p, a, None, int(i))
        covered[i] = True
        if deck is not None:
            # Its combo group: pieces tied to the deck at least half as much as its
            # own pieces are on average (O(n·size))
            tie = a.R[deck].sum(axis=0, dtype=np.float64)  # rows: R is symmetric
            covered |= tie >= 0.5 * max(float(tie[deck].mean()), 0.0)
            covered[deck] = True
            made += 1
            yield deck


def _multistart(p: DeckProblem, a: _Arrays, best: list[int], best_score: float,
                restarts: int, seeds: int, time_limit: float | None, goal: float | None,
                vds: tuple[int, int, int], rng: np.random.Generator, t0: float,
                stats: dict[str, Any]) -> list[int]:
    """Local searches from: ``best``, then up to ``seeds`` seeded greedy decks, then
    alternately a random construction and the best deck kicked (iterated local search).
    Returns the best deck; counts go to ``stats``."""
    depth, relax, width = vds
    seeded = _seeded_starts(p, a, seeds)
    for r in range(restarts):
        if r > 0 and _done(best_score, goal, time_limit, t0):
            break
        kick = None
        deck = best if r == 0 else next(seeded, None)
        if deck is None:
            if r % 2 == 1 or p.size - len(p.must) < 2:
                deck = _construct(p, a, rng)
                assert deck is not None  # without a seed piece it never fails silently
            else:
                deck = best
                kick = _kick(p, rng)
        out, moves, swaps = _run_ls(a, deck, depth, relax, width, kick)
        stats["restarts"] += 1
        stats["moves"] += moves
        stats["swaps"] += swaps
        best, best_score = _keep_best(p, a, out, best, best_score, t0, stats)
    return best


def _iterated_tabu(p: DeckProblem, a: _Arrays, best: list[int], best_score: float,
                   restarts: int, time_limit: float | None, goal: float | None,
                   stall: int | None, rng: np.random.Generator, t0: float,
                   stats: dict[str, Any]) -> list[int]:
    """Tabu runs from ``best``, then from the best deck kicked; returns the best deck."""
    if stall is None:  # a full scan (rules) costs ~size times a constrained one (MDP)
        stall = max(2000, 20 * p.n if a.free else 2 * p.n)
    tgt = np.inf if goal is None else goal
    stats["iterations"] = 0
    for r in range(restarts):
        if r > 0 and _done(best_score, goal, time_limit, t0):
            break
        kick = None
        if r > 0:
            kick = _kick(p, rng)
        out, iters = _run_tabu(a, best, stall, int(rng.integers(2**31)), tgt, kick)
        stats["restarts"] += 1
        stats["iterations"] += iters
        best, best_score = _keep_best(p, a, out, best, best_score, t0, stats)
    return best


def _result(p: DeckProblem, a: _Arrays, deck: list[int], method: str, t0: float,
            stats: dict[str, Any]) -> DeckResult:
    bad = deck_problems(p, deck)
    if bad:
        raise SolverError(f"{method} returned a deck that breaks the rules: " + "; ".join(bad))
    d = tuple(sorted(deck))
    return DeckResult(d, deck_score(p, d), int(a.cost[list(d)].sum()), method,
                      time.process_time() - t0, stats)
