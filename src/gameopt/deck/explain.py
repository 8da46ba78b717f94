"""Why a deck looks the way it does: each piece's share of the score and the binding rules.

A rule *binds* when dropping it lets a better deck exist. :func:`binding_rules` measures
that for each active rule: it re-solves the problem without that rule *by the method
that built the deck*, starting from the deck itself where the method takes a start (so
the relaxed score is never lower), and reports the gain. A heuristic's gain is an
estimate: a lower bound on how much better a deck exists without the rule, no more.
``bnb`` also gives a bound on the gain (the relaxed problem's bound minus the deck's
score), and the exact gain when it proves the relaxed optimum.

A deck built by ``exact`` (CP-SAT) is explained by estimates: a CP-SAT re-solve costs a
model build of O(n²) Python terms and a search as long as the deck's own, so each rule
is re-solved by VDS from the deck instead (a few ms) and bounded by the cheap bound of
the problem without it. The gain then lies in ``[gain, bound]`` (a deck VDS found
without the rule, a bound on every deck without it), marked an estimate unless the two
meet. :attr:`RuleEffect.kind` says which: ``"proven"`` or ``"estimate"``.

The relaxed problems share the problem's arrays (no copy, no new checks), and the
re-solves share one deadline, by default the search's own time, so the explanation
costs about what the search did: each re-solve gets an equal part of what is left when
it starts, so time a re-solve does not use goes to the next.

For ``bnb`` and ``exact`` a rule is first tested by the cheap bound of the problem
without it (:func:`gameopt.deck.exact.upper_bound`, O(n²)): when that bound is not above
the deck's score, no deck without the rule beats the deck, the gain is proven 0 and
there is no re-solve. That a rule is slack in the deck (the cost below the cap, more
attribute pieces than the minimum) is *not* enough, even for a proven optimum: the
problem is not convex, so a deck far across the rule can score more (cap 10, pieces a,
b of cost 1 scoring 1 together and c, d of cost 6 scoring 10: the optimum {a, b} costs
2, and dropping the cap gains 9).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.stop import Deadline, StopFlag, on_flag
from gameopt.deck.pool import ATTRIBUTES, PieceId, Pool, Rules
from gameopt.deck.problem import DeckProblem, deck_score

__all__ = ["LeaderPart", "RuleEffect", "binding_rules", "chained_stop", "contributions",
           "deck_shares", "deck_totals", "leader_part"]

#: The part of the explanation's time kept back for its re-solves' reaction to the stop.
STOP_MARGIN = 0.02
#: Methods re-solved by themselves; the others (``tabu``, for MDP instances) by VDS.
_SAME = ("greedy", "hc", "vds", "bnb", "exact")


@dataclasses.dataclass(frozen=True)
class RuleEffect:
    """One active rule: its name, how the deck stands against it (the leader counted),
    and what dropping it gains.

    Attributes
    ----------
    rule, usage : str
    gain : float
        A deck without the rule scores at least this much more than the deck (≥ 0).
    method : str
        The method that re-solved the problem without the rule.
    bound : float or None
        No deck without the rule scores more than the deck plus this (``bnb``,
        ``exact``); None for heuristics.
    estimate : bool
        True when ``gain`` is a heuristic's lower bound, not the proven gain over the
        deck (``bound`` equals ``gain`` when it is proven).
    """

    rule: str
    usage: str
    gain: float
    method: str = "vds"
    bound: float | None = None
    estimate: bool = True

    @property
    def binds(self) -> bool:
        return self.gain > 1e-9

    @property
    def kind(self) -> str:
        """``"proven"`` when ``gain`` is the proven gain, else ``"estimate"`` (then the
        true gain lies in ``[gain, bound]``, or is at least ``gain`` without a bound)."""
        return "estimate" if self.estimate else "proven"


@dataclasses.dataclass(frozen=True)
class LeaderPart:
    """What a fixed leader adds to the rule counts it is not part of in the problem
    (:func:`gameopt.deck.pool.to_problem` takes it off the cap and the minimum).

    Attributes
    ----------
    cost : int
        The leader's cost.
    attribute : int
        1 when the leader has the deck attribute.
    character_full : bool
        The leader alone fills its character's limit (its character is then not in
        the problem at all).
    """

    cost: int = 0
    attribute: int = 0
    character_full: bool = False


def leader_part(pool: Pool, rules: Rules) -> LeaderPart:
    """The :class:`LeaderPart` of ``rules.leader`` (all zero without a leader)."""
    if rules.leader is None:
        return LeaderPart()
    lead = pool[rules.leader]
    return LeaderPart(lead.cost, int(rules.attribute is not None
                                     and lead.attribute == rules.attribute),
                      rules.limit_of(lead.character) == 1)


def contributions(problem: DeckProblem, deck: Sequence[int]) -> npt.NDArray[np.float64]:
    """Each piece's share: half its scores with the other pieces plus its leader score.

    The shares sum to :func:`~gameopt.deck.problem.deck_score`. See :func:`deck_shares`
    for the leader's own share.
    """
    d = np.asarray(deck, dtype=np.int64)
    share = problem.R[np.ix_(d, d)].astype(np.float64).sum(axis=1) / 2.0
    if problem.leader_scores is not None:
        share += problem.leader_scores[d]
    return np.asarray(share, dtype=np.float64)


def deck_shares(problem: DeckProblem, deck: Sequence[int]
                ) -> tuple[npt.NDArray[np.float64], float]:
    """Each piece's share and the leader's, every pair split in half between its two
    pieces, the leader's pairs too: ``(pieces, leader)``, summing to the deck's score.

    Examples
    --------
    >>> import numpy as np
    >>> p = DeckProblem(np.ones((3, 3), np.float32), 2, leader_scores=np.full(3, 4, np.float32))
    >>> deck_shares(p, [0, 1])
    (array([2.5, 2.5]), 4.0)
    """
    d = np.asarray(deck, dtype=np.int64)
    share = problem.R[np.ix_(d, d)].astype(np.float64).sum(axis=1) / 2.0
    if problem.leader_scores is None:
        return share, 0.0
    half = problem.leader_scores[d].astype(np.float64) / 2.0
    return share + half, float(half.sum())


@contextlib.contextmanager
def chained_stop(parent: StopFlag | None, poll: float = 0.005
                 ) -> Iterator[StopFlag | None]:
    """A stop flag of its own for one search, raised when ``parent`` is, never raising it.

    A search's deadline watchdog (:meth:`gameopt.core.stop.StopRule.watch`) raises the
    flag of its limit when its time is up; given a caller's flag (a disconnected
    client's, a worker's), it would stop the caller and every later search too. Inside
    the ``with`` block a thread polls ``parent`` every ``poll`` seconds and raises the
    own flag once it is up (at once when it already is). ``None`` without a parent.
    """
    if parent is None:
        yield None
        return
    own = StopFlag()
    with on_flag(parent, own.set, poll):
        yield own


def _relaxed(p: DeckProblem, **changes: Any) -> DeckProblem:
    """``p`` with rule fields changed, sharing its arrays: no copy of ``R`` and none of
    the O(n²) checks ``dataclasses.replace`` would run again (the changes only loosen
    rules of a checked problem)."""
    q = copy.copy(p)
    for name, value in changes.items():
        object.__setattr__(q, name, value)
    return q


def _relaxations(p: DeckProblem, deck: Sequence[int], lead: LeaderPart
                 ) -> list[tuple[str, str, DeckProblem]]:
    d = list(deck)
    out = []
    if p.cost_cap is not None and p.cost is not None:
        out.append(("cost cap", f"cost {int(p.cost[d].sum()) + lead.cost}/"
                    f"{p.cost_cap + lead.cost}", _relaxed(p, cost_cap=None)))
    if p.character is not None:
        counts = np.bincount(p.character[d], minlength=len(p.char_limits()))
        full = int((counts >= p.char_limits()).sum()) + int(lead.character_full)
        if full:
            out.append(("character limit", f"{full} characters at their limit",
                        _relaxed(p, char_limit=10**9)))
    if p.attribute_min > 0 and p.attribute is not None:
        out.append(("attribute minimum",
                    f"{int((p.attribute[d] != 0).sum()) + lead.attribute}/"
                    f"{p.attribute_min + lead.attribute}",
                    _relaxed(p, attribute_min=0)))
    if p.must:
        out.append(("must-include", f"{len(p.must)} pieces", _relaxed(p, must=())))
    return out


def binding_rules(problem: DeckProblem, deck: Sequence[int], *, seed: int | None = 0,
                  restarts: int = 5, method: str = "vds", limit: Limit | None = None,
                  leader: LeaderPart | None = None) -> list[RuleEffect]:
    """The gain of dropping each active rule, one at a time, by ``method``.

    Parameters
    ----------
    problem : DeckProblem
    deck : sequence of int
        A deck that keeps every rule (the start of each re-solve).
    seed, restarts
        Of each re-solve (``restarts``: ``hc`` and ``vds``, the first from the deck, the
        others from the best deck kicked or a random construction).
    method : str
        The method that built the deck: the problem without each rule is re-solved by
        it (``greedy`` from scratch, ``hc`` and ``vds`` from the deck, ``bnb`` with the
        deck as hint, giving a bound too); ``tabu`` by VDS; ``exact`` by VDS from the
        deck with the cheap bound (an estimate with its interval, see the module notes).
    limit : Limit, optional
        The time of all re-solves together: one deadline, each re-solve given an equal
        part of what is left when it starts (pass the search's own ``seconds`` and clock
        to keep the explanation within the search's cost). A local search from the deck
        always runs once. Default: 1 s CPU per rule for
        ``bnb``, ``restarts`` alone for the others. ``stop``: the caller's flag stops
        every re-solve, each through a flag of its own chained to it
        (:func:`chained_stop`): a re-solve's deadline watchdog never raises it.
    leader : LeaderPart, optional
        The fixed leader, counted in the ``usage`` of the cost cap, character limit and
        attribute minimum, as in the deck's totals.

    Returns
    -------
    list of RuleEffect
        One per active rule (cost cap, character limits with a character at its limit,
        attribute minimum, must-include), in that order.

    Notes
    -----
    One re-solve per active rule (at most four); no copy of the scores. ``greedy``
    makes the picks its constructions without the cost cap, the character limit or the
    attribute minimum share once (:func:`gameopt.deck.build.greedy_relaxed`), and each
    goes on from there: the same decks as three full constructions.
    """
    from gameopt.deck.solve import METHODS, solve

    if method not in METHODS:
        from gameopt.errors import InvalidInputError

        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    how = method if method in _SAME else "vds"
    lead = leader if leader is not None else LeaderPart()
    base = deck_score(problem, deck)
    rules = _relaxations(problem, deck, lead)
    share = None
    deadline = None  # one for the whole explanation, shared out as it goes
    if limit is not None and limit.time is not None and rules:
        # a re-solve stops a little after its share is up (the watchdog's period, the
        # step it is in): the deadline keeps that margin, so the whole explanation
        # stays within the time given
        deadline = Deadline(limit.time * (1.0 - STOP_MARGIN), cpu=limit.cpu)
    elif how == "bnb":
        share = Limit(time=1.0, clock="cpu")
    # the caller's stop flag stops each re-solve through a flag of its own: a re-solve's
    # deadline watchdog raises its flag, which must not stop the caller or the next one
    caller = None if limit is None else limit.stop
    shared: list[tuple[int, ...] | None] = [None] * len(rules)
    if how == "greedy":  # the picks every looser greedy construction shares, made once
        from gameopt.deck.build import greedy_relaxed

        shared = greedy_relaxed(problem, [relaxed for _, _, relaxed in rules])
    out = []
    tol = 1e-9 * max(1.0, abs(base))
    for at, ((name, usage, relaxed), deck_of) in enumerate(zip(rules, shared, strict=True)):
        if deck_of is not None:
            gain = max(0.0, deck_score(relaxed, deck_of) - base)
            out.append(RuleEffect(name, usage, gain, how, None, True))
            continue
        cheap = _cheap_bound(relaxed) if how in ("bnb", "exact") else np.inf
        if cheap <= base + tol:
            out.append(RuleEffect(name, usage, 0.0, how, 0.0, False))  # proven: no gain
            continue
        if deadline is not None and limit is not None:
            # (a limit is > 0: past the deadline a re-solve gets a nanosecond, its
            # first step only)
            share = Limit(time=max(deadline.remaining() / (len(rules) - at), 1e-9),
                          clock=limit.clock)
        # an exact deck's estimate: VDS from the deck (a lower bound on the gain) and the
        # cheap bound (an upper one); proven only when they meet
        run = "vds" if how == "exact" else how
        options: dict[str, Any] = {}
        if run in ("hc", "vds"):
            # from the deck, then kicks and random starts: no seeded starts, whose
            # O(n²) set-up would cost more than the search's whole time
            options = {"start": list(deck), "restarts": restarts, "seeds": 0}
        elif run == "bnb":
            # no Russian-doll table: its cost price alone runs six VDS searches, more
            # than a re-solve's part of the search's time
            options = {"hint": list(deck), "table": False}
        with chained_stop(caller) as own:
            r = solve(relaxed, run, limit=_with_stop(share, own), seed=seed, warm=False,
                      **options)
        gain = max(0.0, r.score - base)
        if how == "exact":
            top = max(gain, cheap - base)
            out.append(RuleEffect(name, usage, gain, run, top, top - gain > tol))
        else:
            bound = None if r.bound is None else max(gain, r.bound - base)
            out.append(RuleEffect(name, usage, gain, how, bound, not r.proven))
    return out


def _with_stop(limit: Limit | None, stop: StopFlag | None) -> Limit | None:
    if stop is None:
        return limit
    return Limit(stop=stop) if limit is None else dataclasses.replace(limit, stop=stop)


def _cheap_bound(p: DeckProblem) -> float:
    from gameopt.deck.exact import upper_bound  # (the module loads CP-SAT)

    return upper_bound(p)


def deck_totals(pool: Pool, pieces: Sequence[PieceId], leader: PieceId | None = None
                ) -> tuple[int, dict[str, int]]:
    """Total cost and pieces of each attribute of a deck, its leader included."""
    whole = list(pieces) + ([leader] if leader is not None else [])
    attrs = {a: 0 for a in ATTRIBUTES}
    for pid in whole:
        attrs[pool[pid].attribute] = attrs.get(pool[pid].attribute, 0) + 1
    return sum(pool[pid].cost for pid in whole), attrs
