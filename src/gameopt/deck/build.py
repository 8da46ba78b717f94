"""Deck builders: greedy (the in-game baseline), 1-swap and VDS hill climbing, tabu search.

All four take a :class:`~gameopt.deck.problem.DeckProblem`, return a
:class:`~gameopt.deck.result.DeckResult` checked by :mod:`gameopt.deck.verify`, or raise
:class:`~gameopt.errors.InfeasibleError` with the reason no deck exists. Their time limit
is checked between restarts, on the clock of the :class:`~gameopt.core.Limit` (process CPU
time by default); :func:`gameopt.deck.solve` is the entry point over every method.

References
----------
B. W. Kernighan and S. Lin, Bell System Technical Journal 49(2), 1970 (variable depth
search); I. Nagasawa, DeNA engineering blog, 2020 (VDS deck building, depth 3, cost +10);
G. Palubeckis, Applied Mathematics and Computation 189(1), 2007 (iterated tabu search for
the maximum diversity problem).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.progress import Progress, ProgressCallback, Throttle
from gameopt.core.rng import make_rng
from gameopt.core.stop import StopRule
from gameopt.deck import _construct_kernel as construct_kernel
from gameopt.deck import _strength_kernel as strength_kernel
from gameopt.deck import _tabu_kernel as tabu_kernel
from gameopt.deck import _vds_kernel as vds_kernel
from gameopt.deck._rule_arrays import NO_CAP, RuleArrays
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.result import DeckResult
from gameopt.deck.verify import deck_problems
from gameopt.errors import (
    BudgetExhaustedError,
    InfeasibleError,
    InvalidInputError,
    SolverError,
)

__all__ = ["HEURISTICS", "build_deck", "fitting_pieces", "greedy_relaxed", "restrict",
           "start_deck"]

#: The heuristic methods :func:`build_deck` runs.
HEURISTICS = ("greedy", "hc", "vds", "tabu")
_TRIES = 50  # candidates tried per construction step before completing by the certificate
_TABU_BASE, _TABU_RAND = 15, 10  # tabu tenure of a dropped piece: 15 + U{0..10} swaps
_PARTNERS = 2  # seed strength: partner lists of 2·(size-1) pieces per row
_PRICE_STEPS = 10  # bisections of the cap's price (the order is robust to a factor ~2)
# A cap is tight when at most this share of the pieces fit any deck under it
_TIGHT = 0.75
_TIGHT_RESTARTS = 3  # restarts per fitting piece under a tight cap (after one seed each)
_TIGHT_MAX_RESTARTS = 1000
# vds under a tight cap: one tabu run of stall 1,000 from each of its 16 best local optima
# (the best deck first): decks of the restarts differ more than tabu runs from one deck
_POLISH_RUNS, _POLISH_STALL = 1, 1000
_POLISH_STARTS = 16
_MERGE_DECKS = 16  # local optima kept per search (stats["optima"]) for the merge
_MERGE_SECONDS = 0.2  # most time of the branch and bound over the merged pieces
# vds under a tight cap and a time limit: the restarts' share of it, the rest kept for
# the polish and the merge (with the whole limit the restarts left them none: the
# polish and merge gain is most of what vds finds over hc there)
_SEARCH_SHARE = 0.6


class _Arrays:
    """The rules as int64 arrays for the kernel (characters renumbered 0..n_char-1)."""

    def __init__(self, p: DeckProblem) -> None:
        n = p.n
        self.R = p.R
        self.leader = (np.zeros(n, np.float32) if p.leader_scores is None
                       else p.leader_scores)
        self.cost = np.zeros(n, np.int64) if p.cost is None else p.cost.astype(np.int64)
        self.cap = NO_CAP if p.cost_cap is None else int(p.cost_cap)
        if p.character is None:
            self.char = np.arange(n, dtype=np.int64)
            self.climit = np.full(n, NO_CAP, dtype=np.int64)
        else:
            used, self.char = np.unique(p.character, return_inverse=True)
            self.used = used  # the character id of each renumbered character
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
        self.free = (self.cap == NO_CAP and self.amin == 0
                     and bool((per_char <= self.climit).all()))
        lo, hi = p.r_range
        self.spread = hi - lo  # ≥ the off-diagonal spread
        self.rmin = min(lo, 0.0)  # ≤ every R entry
        # Improvements below this are rounding: relative to a deck's score, not to
        # max |R|, which one blocked pair (-1e9) would blow up to 100
        self.eps = 1e-7 * p.score_scale
        self.stop_rule: StopRule | None = None  # the run's stop (the CP-SAT start's time)
        self.rules = RuleArrays(self.cost, self.cap, self.char, self.n_char, self.climit,
                                self.attr, self.amin, self.locked, self.order)


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
    if must and must_cost > a.cap:
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
    """A feasible deck of least cost by CP-SAT, or InfeasibleError (a proof).

    The model is :func:`gameopt.deck.constraints.build_start_model` (every rule, least
    cost), solved by :func:`gameopt.ip.solve` within the time left to the run (``a.stop_rule``;
    no limit without one).
    """
    from gameopt.deck.constraints import build_start_model
    from gameopt.ip import solve as solve_cpsat

    model, x = build_start_model(p)
    seconds = None
    if a.stop_rule is not None and np.isfinite(a.stop_rule.deadline.seconds):
        seconds = max(a.stop_rule.deadline.remaining(), 0.01)
    flag = None if a.stop_rule is None else a.stop_rule.flag
    try:
        # the run's stop flag (a client gone) stops CP-SAT at once
        res = solve_cpsat(model, limit=Limit(time=seconds, clock="wall", stop=flag),
                          workers=1, seed=0, require_solution=False)
        if not res.has_solution and flag is not None and flag.is_set():
            raise BudgetExhaustedError(f"rules: stopped on request before a start deck was "
                                       f"found (CP-SAT status {res.status})")
        if not res.has_solution and seconds is not None:
            # the run's time ran out first: not a solver failure
            raise BudgetExhaustedError(f"rules: no start deck within the {seconds:g} s left "
                                       f"(CP-SAT status {res.status}); give more time")
        if not res.has_solution:
            raise SolverError(f"CP-SAT status {res.status} without a time limit or a stop")
    except InfeasibleError:
        raise InfeasibleError("rules: no deck meets size, cost cap, character limit, "
                              "attribute minimum and forbidden pairs together (proved by "
                              "CP-SAT)") from None
    except SolverError as e:
        raise SolverError(f"rules: no start deck: {e}") from None
    return [i for i in range(p.n) if res.value(x[i])]


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
    deck, ok = construct_kernel.construct(a.R, a.leader, np.asarray(chosen, np.int64), p.size,
                                          a.rules, rank, _TRIES,
                                          0 if seed_piece is None else len(p.must))
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
    out, moves, swaps = vds_kernel.local_search(
        a.R, a.rmin, a.leader, np.asarray(deck, np.int64), a.rules, depth, relax, width, a.eps,
        ka, kb, nk, 10**9)
    return out, int(moves), int(swaps)


def _run_tabu(a: _Arrays, deck: list[int], stall: int, seed: int, target: float,
              kick: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int] | None,
              ) -> tuple[npt.NDArray[np.int64], int]:
    empty = np.zeros(0, np.int64)
    ka, kb, nk = kick if kick is not None else (empty, empty, 0)
    out, _, iters = tabu_kernel.tabu_search(
        a.R, a.leader, np.asarray(deck, np.int64), a.rules, ka, kb, nk, a.free, a.spread,
        stall, _TABU_BASE, _TABU_RAND, np.random.default_rng(seed), target, a.eps)
    return out, int(iters)


def fitting_pieces(problem: DeckProblem) -> npt.NDArray[np.int64]:
    """The pieces that can be in some deck under the cost cap, ascending (all without one).

    Piece i fits when its cost, plus the must-include pieces' and the cheapest other
    pieces' to fill the deck, is within the cap. Character limits, the attribute minimum
    and forbidden pairs are left out, so no piece of a rule-keeping deck is ever dropped:
    the best deck of :func:`restrict` to these pieces is the best deck. O(n log n).
    """
    p = problem
    n, k = p.n, p.size
    if p.cost is None or p.cost_cap is None:
        return np.arange(n, dtype=np.int64)
    cost = p.cost.astype(np.int64)
    is_must = np.zeros(n, dtype=bool)
    is_must[list(p.must)] = True
    must_cost = int(cost[is_must].sum())
    others = np.flatnonzero(~is_must)
    by_cost = others[np.argsort(cost[others], kind="stable")]
    sorted_cost = cost[by_cost]
    free = k - len(p.must)  # deck slots beyond the must-include pieces
    fits = np.zeros(n, dtype=bool)
    if must_cost + int(sorted_cost[:free].sum()) <= p.cost_cap:
        fits[is_must] = True
    r = free - 1  # the others beside one more piece i
    if r >= 0 and len(by_cost) > r:
        rank = np.empty(n, dtype=np.int64)
        rank[by_cost] = np.arange(len(by_cost))
        low = int(sorted_cost[:r].sum())  # cheapest r others, i not among them
        with_next = low + (int(sorted_cost[r]) if len(by_cost) > r else 0)
        fill = np.where(rank[others] < r, with_next - cost[others], low)
        fits[others] = must_cost + cost[others] + fill <= p.cost_cap
    return np.flatnonzero(fits).astype(np.int64)


def restrict(problem: DeckProblem, keep: npt.ArrayLike) -> DeckProblem:
    """``problem`` on the pieces ``keep`` (ascending indices holding every must-include
    piece), renumbered 0..len(keep)-1 in that order; forbidden pairs inside ``keep`` kept."""
    p = problem
    keep = np.asarray(keep, dtype=np.int64)
    new = np.full(p.n, -1, dtype=np.int64)
    new[keep] = np.arange(len(keep))
    if (new[list(p.must)] < 0).any():
        raise InvalidInputError("restrict: a must-include piece is left out")

    def sub(arr: Any) -> Any:
        return None if arr is None else arr[keep]

    pairs = tuple((int(new[i]), int(new[j])) for i, j in p.forbidden_pairs
                  if new[i] >= 0 and new[j] >= 0)
    return DeckProblem(p.R[np.ix_(keep, keep)], p.size, cost=sub(p.cost), cost_cap=p.cost_cap,
                       character=sub(p.character), char_limit=p.char_limit,
                       attribute=sub(p.attribute), attribute_min=p.attribute_min,
                       must=tuple(int(new[i]) for i in p.must),
                       leader_scores=sub(p.leader_scores),
                       names=tuple(p.names[i] for i in keep) if p.names else (),
                       forbidden_pairs=pairs)


def _tight(problem: DeckProblem) -> npt.NDArray[np.int64] | None:
    """The fitting pieces when the cap is tight (at most ``_TIGHT`` of them fit, and
    enough for a deck), else None."""
    if problem.cost is None or problem.cost_cap is None:
        return None
    keep = fitting_pieces(problem)
    if len(keep) > _TIGHT * problem.n or len(keep) < problem.size:
        return None
    if any(not np.any(keep == m) for m in problem.must):
        return None  # a must-include piece does not fit: the checks say why
    return keep


def _build_tight(problem: DeckProblem, keep: npt.NDArray[np.int64], method: str,
                 seed: int | None, restarts: int, limit: Limit, depth: int, relax: int,
                 width: int, start: Sequence[int] | None, seeds: int,
                 progress: ProgressCallback | None) -> DeckResult:
    """:func:`build_deck` under a tight cap: on the fitting pieces only, every one of them
    a seed candidate and ``_TIGHT_RESTARTS`` restarts per piece (at most
    ``_TIGHT_MAX_RESTARTS``; without ``start`` only), mapped back. A local optimum under
    a tight cap is mostly an archetype of cheap pieces that the few strongest seeds never
    reach; a scan of the fitting pieces costs a fraction of one over all of them."""
    rule = limit.start()
    sub = restrict(problem, keep)
    m = len(keep)
    new = np.full(problem.n, -1, dtype=np.int64)
    new[keep] = np.arange(m)
    sub_start = None if start is None else [int(new[i]) for i in start]
    if sub_start is not None and min(sub_start) < 0:
        bad = deck_problems(problem, list(start or ()))
        raise InvalidInputError("start: " + "; ".join(bad or ["breaks the cost cap"]))
    if start is None:  # from a given start (an explanation's re-solve): as asked
        restarts = max(restarts, min(_TIGHT_MAX_RESTARTS, _TIGHT_RESTARTS * m + 1))
        seeds = max(seeds, m)
    polish = method == "vds" and start is None
    search = limit
    if polish and limit.time is not None:  # keep time for the polish and the merge
        search = dataclasses.replace(limit, time=_SEARCH_SHARE * limit.time)
    r = build_deck(sub, method, seed=seed, restarts=restarts, limit=search, depth=depth,
                   relax=relax, width=width, start=sub_start, seeds=seeds, progress=progress)
    stats = dict(r.stats, fitting=m)
    if polish and not rule.should_stop():
        # a short tabu polish: under a tight cap the swaps between decks of equal cost
        # form plateaus that tabu crosses and a hill climber does not
        # from the best deck and the next best local optima (different plateaus)
        starts = [r.deck, *r.stats.get("optima", ())[1:_POLISH_STARTS]]
        tabus = []
        for k, d in enumerate(starts):
            if k and rule.should_stop():  # the time is up: the runs so far
                break
            tabus.append(build_deck(
                sub, "tabu", seed=None if seed is None else seed + k,
                restarts=_POLISH_RUNS, stall=_POLISH_STALL, start=d,
                limit=limit if limit.time is None else dataclasses.replace(
                    limit, time=max(rule.deadline.remaining(), 1e-9))))
        t = max(tabus, key=lambda x: x.score)
        stats["polish_gain"] = max(0.0, t.score - r.score)
        if t.score > r.score:
            r = t
        merged = _merge(sub, r, *tabus, limit=limit)
        stats["merge_gain"] = max(0.0, merged.score - r.score)
        if merged.score > r.score:
            r = merged
    deck = tuple(sorted(int(keep[i]) for i in r.deck))
    a_cost = 0 if problem.cost is None else int(problem.cost[list(deck)].sum())
    res = DeckResult(deck, deck_score(problem, deck), a_cost, method, rule.elapsed(),
                     rule.clock, stats=stats)
    bad = deck_problems(problem, list(deck))
    if bad:
        raise SolverError(f"{method} returned a deck that breaks the rules: " + "; ".join(bad))
    return res


def _merge(p: DeckProblem, *runs: DeckResult, limit: Limit) -> DeckResult:
    """The best deck over the pieces of the runs' best local optima (``stats["optima"]``),
    by branch and bound within ``_MERGE_SECONDS``: local optima under a tight cap differ
    in a few pieces each, and the best mix of them is often none of them (construct,
    merge, solve). Returns the best of the runs when that finds nothing better."""
    from gameopt.deck.bnb import solve_bnb

    best = max(runs, key=lambda r: r.score)
    pieces = sorted({int(i) for r in runs for d in r.stats.get("optima", ()) for i in d}
                    | set(best.deck))
    if len(pieces) <= p.size:
        return best
    sub = restrict(p, pieces)
    at = {u: i for i, u in enumerate(pieces)}
    seconds = _MERGE_SECONDS if limit.time is None else min(_MERGE_SECONDS, 0.1 * limit.time)
    # its own stop flag: the branch and bound's watchdog sets the flag at its deadline,
    # and the caller's (a bnb whose VDS hint this is) would then stop at once; the
    # merge ends within its seconds anyway
    b = solve_bnb(sub, hint=[at[i] for i in best.deck], reduce=False,
                  limit=Limit(time=seconds, clock=limit.clock))
    if b.score <= best.score:
        return best
    deck = tuple(sorted(pieces[i] for i in b.deck))
    cost = 0 if p.cost is None else int(p.cost[list(deck)].sum())
    return dataclasses.replace(best, deck=deck, score=deck_score(p, deck), cost=cost)


def _check_args(method: str, restarts: int, depth: int, relax: int, width: int) -> None:
    if method not in HEURISTICS:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(HEURISTICS)}")
    if restarts < 1 or depth < 1 or relax < 0 or width < 1:
        raise InvalidInputError(f"restarts={restarts}, depth={depth}, relax={relax}, "
                                f"width={width}: need restarts, depth, width >= 1, relax >= 0")


def build_deck(problem: DeckProblem, method: str = "vds", *, seed: int | None = None,
               restarts: int = 16, limit: Limit | None = None, depth: int = 3,
               relax: int = 10, width: int = 4, start: Sequence[int] | None = None,
               stall: int | None = None, seeds: int = 16,
               progress: ProgressCallback | None = None) -> DeckResult:
    """Build a deck that keeps every rule of ``problem`` and scores high.

    Parameters
    ----------
    problem : DeckProblem
    method : {"vds", "hc", "greedy", "tabu"}
        ``greedy``: from the must-include pieces add the best-gain piece whose addition
        still has a rule-keeping completion (the in-game baseline). ``hc``: best-improvement
        1-swap hill climbing. ``vds``: the same, and at a 1-swap optimum a variable depth
        move (up to ``depth`` swaps, cost cap relaxed by ``relax`` in between, the
        ``width`` best candidates tried per level, backtracking). ``tabu``: iterated tabu
        search over single swaps (each run ends after ``stall`` swaps without a new best;
        the next starts from the best deck kicked by a few random swaps).
    seed : int or None
        Seed of the restarts' generator; same seed, same result (without a time limit).
    restarts : int
        Local searches: the first from the greedy deck (or ``start``), then (``hc``,
        ``vds``) from up to ``seeds`` seeded greedy decks, then alternately from a random
        construction and from the best deck kicked by a few random swaps (iterated local
        search). ``tabu``: tabu runs, each after the first from the best deck kicked.
        Under a tight cost cap (at most 3/4 of the pieces fit any deck, see
        :func:`fitting_pieces`) ``hc`` and ``vds`` search the fitting pieces only and,
        without ``start``, seed from every one of them with at least 3 restarts per
        fitting piece (at most 1,000; ``stats["fitting"]`` says how many pieces fit);
        ``vds`` then polishes by a tabu run of stall 1,000 on those pieces from each of
        its 16 best local optima (``stats["polish_gain"]``) and merges: the best deck
        over the pieces of the 16 best local optima of all these searches, by branch
        and bound within 0.2 s
        (``stats["merge_gain"]``; C. Blum, P. Pinacho, M. López-Ibáñez, J. A. Lozano,
        "Construct, Merge, Solve & Adapt", Computers & Operations Research 68, 2016).
    limit : Limit, optional
        ``time`` (on ``clock``; CPU when no time is given): no new restart begins after
        it. ``target``: stop as soon as a deck scores at least ``target`` (minus 1e-6
        relative). ``stop``: an outside request, seen between restarts. Nodes and depth
        do not apply.
    start : sequence of int, optional
        A feasible deck to start the first local search from (checked).
    seeds : int
        ``hc``/``vds``: restarts from greedy decks grown from strong, different seed
        pieces (see :func:`_seeded_starts`) before the random ones.
    stall : int, optional
        ``tabu`` only: swaps without a new best that end a run (default ``20·n`` with
        the size rule only, ``2·n`` with other rules, at least 2,000). The time limit
        is checked between runs, so one run may overshoot it.
    progress : ProgressCallback, optional
        Told after each restart (task: the method; done/total: restarts; best: score).

    Returns
    -------
    DeckResult
        ``seconds`` on the limit's clock; ``stats``: ``restarts``, ``moves``, ``swaps``
        (a VDS move may apply up to ``depth`` swaps), ``iterations`` (tabu),
        ``seconds_to_best`` (until the best deck was first found), ``optima`` (hc, vds,
        tabu: the 16 best distinct local optima, best first).

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
    limit = limit if limit is not None else Limit(clock="cpu")
    if limit.time is None and limit.clock != "cpu":
        limit = dataclasses.replace(limit, clock="cpu")
    if method in ("hc", "vds"):
        keep = _tight(problem)
        if keep is not None:
            return _build_tight(problem, keep, method, seed, restarts, limit, depth, relax,
                                width, start, seeds, progress)
    rule = limit.start()
    a = _Arrays(problem)
    a.stop_rule = rule
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
    stats: dict[str, Any] = {"restarts": 0, "moves": 0, "swaps": 0, "seconds_to_best": 0.0}
    target = limit.target
    goal = None if target is None else target - 1e-6 * max(1.0, abs(target))
    run = _Run(rule, goal, stats, None if progress is None else Throttle(progress), method,
               restarts)
    if method == "tabu":
        best = _iterated_tabu(problem, a, best, best_score, restarts, stall, rng, run)
    elif method != "greedy":
        best = _multistart(problem, a, best, best_score, restarts, seeds,
                           (depth if method == "vds" else 1, relax, width), rng, run)
    if problem.forbidden_pairs and deck_problems(problem, best):
        best = _without_forbidden(problem, a, method, depth, relax, width)
    if run.optima:
        stats["optima"] = sorted(run.optima, key=run.optima.__getitem__, reverse=True)
    return _result(problem, a, best, method, rule, stats)


def _without_forbidden(p: DeckProblem, a: _Arrays, method: str, depth: int, relax: int,
                       width: int) -> list[int]:
    """A deck without a forbidden pair when the search ended with one: CP-SAT's
    least-cost deck under every rule (or InfeasibleError, a proof), then one local search
    from it. A forbidden pair costs more than any two decks' scores differ by, so an
    improving move never brings one back."""
    deck = _cpsat_start(p, a)
    if method == "greedy":
        return deck
    out, _, _ = _run_ls(a, deck, depth if method == "vds" else 1, relax, width, None)
    return [int(i) for i in out]


def greedy_relaxed(problem: DeckProblem, looser: Sequence[DeckProblem]
                   ) -> list[tuple[int, ...] | None]:
    """The greedy deck of each problem of ``looser``, the picks they share made once.

    Each problem of ``looser`` is ``problem`` with rules loosened: no cost cap (or a
    higher one), higher character limits, a lower attribute minimum, fewer must-include
    pieces; the same scores, size and forbidden pairs. The greedy constructions
    (``greedy`` of :func:`build_deck`) of those with the same must-include pieces all
    begin with the picks of :func:`~gameopt.deck._construct_kernel.shared_prefix`, made
    once here; each then goes on from there (one with fewer must-include pieces is
    constructed from those). The decks (sorted) are those ``build_deck(q, "greedy")`` returns; None
    where this shortcut does not apply (other changes, forbidden pairs, no cheap
    completion), for the caller to solve in full.
    """
    p = problem
    out: list[tuple[int, ...] | None] = [None] * len(looser)
    if p.forbidden_pairs or p.size - len(p.must) < 1:
        return out
    a = _Arrays(p)
    prefix, ok = construct_kernel.shared_prefix(a.R, a.leader, np.asarray(p.must, np.int64),
                                                p.size, a.rules)
    if not ok:
        return out
    empty = np.zeros(0)
    for t, q in enumerate(looser):
        if (q.R is not p.R or q.size != p.size or not set(q.must) <= set(p.must)
                or q.forbidden_pairs or q.leader_scores is not p.leader_scores
                or q.cost is not p.cost or q.character is not p.character
                or q.attribute is not p.attribute):
            continue
        cap = NO_CAP if q.cost_cap is None else int(q.cost_cap)
        climit = a.climit if p.character is None else q.char_limits()[a.used]
        if cap < a.cap or (climit < a.climit).any() or q.attribute_min > a.amin:
            continue
        rules = a.rules._replace(cap=cap, climit=climit, amin=int(q.attribute_min))
        # fewer must-include pieces: a construction of its own (no shared picks)
        start = prefix if q.must == p.must else np.asarray(q.must, dtype=np.int64)
        deck, ok = construct_kernel.construct(a.R, a.leader, start, p.size, rules, empty,
                                              _TRIES, 0)
        if ok:
            out[t] = tuple(sorted(int(i) for i in deck))
    return out


def start_deck(problem: DeckProblem, hint: Sequence[int] | None, *, seed: int | None,
               restarts: int, where: str, limit: Limit | None = None) -> list[int]:
    """The first incumbent of an exact method: ``hint`` checked, or a VDS deck (within
    ``limit``: its first local search always runs).

    Raises
    ------
    InvalidInputError
        When ``hint`` breaks a rule (the message starts with ``where``).
    InfeasibleError
        When no deck keeps the rules (from the VDS checks).
    """
    if hint is not None:
        deck = [int(i) for i in hint]
        bad = deck_problems(problem, deck)
        if bad:
            raise InvalidInputError(f"{where}: hint breaks the rules: " + "; ".join(bad))
        return deck
    return list(build_deck(problem, "vds", seed=seed, restarts=restarts, limit=limit).deck)


class _Run:
    """The running state shared by the restart loops: stop rule, target, counts, progress."""

    def __init__(self, rule: StopRule, goal: float | None, stats: dict[str, Any],
                 progress: ProgressCallback | None, task: str, total: int) -> None:
        self.rule, self.goal, self.stats = rule, goal, stats
        self.progress, self.task = progress, task
        self.total = total if total < 10**9 else None
        self.optima: dict[tuple[int, ...], float] = {}  # the best local optima seen

    def record(self, deck: npt.NDArray[np.int64], score: float) -> None:
        """Keep ``deck`` among the ``_MERGE_DECKS`` best distinct local optima."""
        key = tuple(sorted(int(i) for i in deck))
        if key in self.optima:
            return
        if len(self.optima) == _MERGE_DECKS:
            worst = min(self.optima, key=self.optima.__getitem__)
            if self.optima[worst] >= score:
                return
            del self.optima[worst]
        self.optima[key] = score

    def done(self, best_score: float) -> bool:
        """The target is reached, the time is up or a stop was requested (checked between
        restarts)."""
        if self.goal is not None and best_score >= self.goal:
            self.stats["stop"] = "target"
            return True
        reason = self.rule.should_stop()
        if reason is not None:
            self.stats["stop"] = reason
            return True
        return False

    def report(self, restart: int, best_score: float) -> None:
        if self.progress is not None:
            self.progress(Progress(self.task, restart, self.total, best_score))


def _kick(p: DeckProblem, rng: np.random.Generator
          ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """A random perturbation for the kernels' ``kick``: slots out, pieces in, how many
    swaps (``max(2, size // 8)``) to apply."""
    n_kick = max(2, p.size // 8)
    return (rng.integers(0, p.size, 8 * n_kick).astype(np.int64),
            rng.integers(0, p.n, 8 * n_kick).astype(np.int64), n_kick)


def _keep_best(p: DeckProblem, a: _Arrays, out: npt.NDArray[np.int64], best: list[int],
               best_score: float, run: _Run) -> tuple[list[int], float]:
    """``out`` if it beats ``best`` (recording the time to it), else ``best``."""
    s = deck_score(p, out)
    run.record(out, s)
    if s > best_score + a.eps:
        run.stats["seconds_to_best"] = run.rule.elapsed()
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
    V, J = strength_kernel.top_partners(a.R, min(p.n - 1, _PARTNERS * (k - 1)))
    lam = (0.0 if a.cap == NO_CAP
           else strength_kernel.cap_price(V, J, a.cost, a.leader, k, a.cap, a.locked, _PRICE_STEPS))
    b, _ = strength_kernel.strengths(V, J, a.cost, a.leader, k - 1, lam, k)
    plain = np.argsort(-b, kind="stable").astype(np.int64)
    with_attr = np.flatnonzero(a.attr).astype(np.int64)
    if a.amin <= 0 or len(with_attr) < 2:
        return plain
    sub = np.ascontiguousarray(a.R[np.ix_(with_attr, with_attr)])  # rows/columns with it
    Va, Ia = strength_kernel.top_partners(sub, min(len(with_attr) - 1, _PARTNERS * (k - 1)))
    ba, _ = strength_kernel.strengths(Va, Ia, a.cost[with_attr], a.leader[with_attr],
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
                restarts: int, seeds: int, vds: tuple[int, int, int],
                rng: np.random.Generator, run: _Run) -> list[int]:
    """Local searches from: ``best``, then up to ``seeds`` seeded greedy decks, then
    alternately a random construction and the best deck kicked (iterated local search).
    Returns the best deck; counts go to ``run.stats``."""
    depth, relax, width = vds
    stats = run.stats
    seeded = _seeded_starts(p, a, seeds)
    for r in range(restarts):
        if r > 0 and run.done(best_score):
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
        best, best_score = _keep_best(p, a, out, best, best_score, run)
        run.report(r + 1, best_score)
    return best


def _iterated_tabu(p: DeckProblem, a: _Arrays, best: list[int], best_score: float,
                   restarts: int, stall: int | None, rng: np.random.Generator,
                   run: _Run) -> list[int]:
    """Tabu runs from ``best``, then from the best deck kicked; returns the best deck."""
    if stall is None:  # a full scan (rules) costs ~size times a constrained one (MDP)
        stall = max(2000, 20 * p.n if a.free else 2 * p.n)
    goal = run.goal
    tgt = np.inf if goal is None else goal
    stats = run.stats
    stats["iterations"] = 0
    for r in range(restarts):
        if r > 0 and run.done(best_score):
            break
        kick = None
        if r > 0:
            kick = _kick(p, rng)
        out, iters = _run_tabu(a, best, stall, int(rng.integers(2**31)), tgt, kick)
        stats["restarts"] += 1
        stats["iterations"] += iters
        best, best_score = _keep_best(p, a, out, best, best_score, run)
        run.report(r + 1, best_score)
    return best


def _result(p: DeckProblem, a: _Arrays, deck: list[int], method: str, rule: StopRule,
            stats: dict[str, Any]) -> DeckResult:
    bad = deck_problems(p, deck)
    if bad:
        raise SolverError(f"{method} returned a deck that breaks the rules: " + "; ".join(bad))
    d = tuple(sorted(deck))
    return DeckResult(d, deck_score(p, d), int(a.cost[list(d)].sum()), method,
                      rule.elapsed(), rule.clock, stats=stats)
