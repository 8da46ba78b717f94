"""The round pairer: one round of a Swiss event turned into a matching and back into tables.

:func:`pair_round` prices every pair of the field with PAPP's penalties
(:func:`~gameopt.pairing.penalties.cost_matrix`), adds the dummy
:data:`~gameopt.pairing.model.BYE` for an odd field, solves the matching by the method
asked (exact or a reference from :mod:`gameopt.pairing.matching`, a heuristic from
:mod:`gameopt.pairing.heuristics`) and numbers the tables, each with the colours and the
penalty terms that explain it.

References
----------
.. [1] T. Nakajima, "Pairing Algorithm", 2002; PAPP's documentation (the penalties).
.. [2] J. Edmonds, "Paths, trees, and flowers", Canad. J. Math. 17:449-467, 1965.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.stop import StopRule
from gameopt.errors import BudgetExhaustedError, InfeasibleError, InvalidInputError, SolverError
from gameopt.pairing._slim_kernels import warm
from gameopt.pairing.heuristics import naive_matching, slim_matching
from gameopt.pairing.matching import (
    MAX_COST,
    check_matrices,
    infeasible_error,
    is_perfect_matching,
    min_weight_perfect_matching,
    solve_exact,
)
from gameopt.pairing.model import (
    BYE,
    METHODS,
    PROVEN_METHODS,
    Colour,
    Pairing,
    RoundInput,
    Table,
)
from gameopt.pairing.penalties import (
    COLOUR_TERMS,
    PairCosts,
    PenaltyParams,
    colour_violation,
    cost_matrix,
    group_positions,
    oriented_terms,
    pen_bye,
    pen_color,
)
from gameopt.pairing.penalties import pair_cost as _pair_cost

__all__ = ["bye_order", "legal_bye", "pair_round", "pairing_key"]

Pairs = list[tuple[int, int]]
IntMatrix = npt.NDArray[np.int64]
BoolMatrix = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Lex:
    """The exact order below the terms other than colour: ``key`` (colour-tier breaks
    scaled above the colour cost) then ``rank2`` (squared rank distances)."""

    key: IntMatrix
    rank2: IntMatrix


def _field_matrices(pc: PairCosts) -> tuple[IntMatrix, IntMatrix, BoolMatrix, _Lex,
                                            npt.NDArray[np.int64]]:
    """Cost, upper cost, allowed, the lower keys and groups, with the bye as an extra
    vertex if n is odd.

    ``cost`` is the whole penalty (what the heuristics minimise); the exact methods
    minimise ``upper`` (every term but colour), then the colour-tier breaks, then the
    colour cost, then the sum of squared rank distances (:func:`_ordered`).
    """
    n = len(pc.players)
    m = n + n % 2
    scores = np.array([p.score for p in pc.players], dtype=np.int64)
    if m == n:  # no bye: the round's own matrices (read only from here on), no copies
        cost, upper, breaks, colour, allowed = pc.cost, pc.upper, pc.breaks, pc.colour, \
            pc.allowed
    else:
        cost = np.zeros((m, m), dtype=np.int64)
        upper = np.zeros((m, m), dtype=np.int64)
        breaks = np.zeros((m, m), dtype=np.int64)
        colour = np.zeros((m, m), dtype=np.int64)
        allowed = np.zeros((m, m), dtype=np.bool_)
        cost[:n, :n] = pc.cost
        upper[:n, :n] = pc.upper
        breaks[:n, :n] = pc.breaks
        colour[:n, :n] = pc.colour
        allowed[:n, :n] = pc.allowed
        cost[:n, n] = cost[n, :n] = pc.bye
        upper[:n, n] = upper[n, :n] = pc.bye
        allowed[:n, n] = allowed[n, :n] = pc.bye_allowed
        scores = np.append(scores, scores.min() - 1)
    idx = np.arange(m)
    rank2 = (idx[:, None] - idx[None, :]) ** 2
    key = breaks * (int(colour.max(initial=0)) * (m // 2) + 1) + colour
    return cost, upper, allowed, _Lex(key, rank2), scores


def _ordered(upper: IntMatrix, lex: _Lex, allowed: BoolMatrix, stats: dict[str, Any],
             ) -> tuple[IntMatrix, IntMatrix]:
    """The exact order as one cost and a tiebreak (lexicographic, each level scaled above
    any perfect matching's total of the levels below it).

    When it fits the matching's cost range (:data:`~gameopt.pairing.matching.MAX_COST`
    on the allowed pairs), the cost is ``upper·W + key`` with the tiebreak ``rank2``:
    the pruning then sees the colour keys too, which keeps far fewer edges where many
    pairs tie on ``upper``. Otherwise the cost is ``upper`` and the tiebreak
    ``key·T + rank2``. Both orders are the same; ``stats["order"]`` says which was used.
    """
    half = upper.shape[0] // 2
    kmax = int(lex.key[allowed].max(initial=0))
    umax = int(np.abs(upper[allowed]).max(initial=0))
    w = kmax * half + 1
    if umax * w + kmax <= MAX_COST:
        stats["order"] = "composite"
        stats["scale"] = w
        return np.where(allowed, upper * w + lex.key, 0), lex.rank2
    stats["order"] = "tiebreak"
    t = int(lex.rank2.max(initial=0)) * half + 1
    return upper, lex.key * t + lex.rank2


def pair_round(round_input: RoundInput, params: PenaltyParams | None = None,
               method: str = "exact", *, limit: Limit | None = None) -> Pairing:
    """Pair one round: the least-penalty pairing (PAPP's objective) or a comparison rule.

    Parameters
    ----------
    round_input : RoundInput
        The active players with their history, and the forbidden pairs.
    params : PenaltyParams, optional
        Penalties and the terms switched on (default: PAPP's set with default values).
    method : {"exact", "networkx", "slim", "naive", "brute", "rustworkx"}
        ``"exact"``: optimal by our blossom on a sparse graph priced by LP duals;
        ``"rustworkx"``: optimal by rustworkx's blossom after pruning (the previous
        exact path); ``"networkx"``: optimal, slow reference; ``"slim"``: SLIM's
        greedy + swaps; ``"naive"``: top-down in rank order skipping rematches (the
        bye to the player :func:`~gameopt.pairing.penalties.pen_bye` prices lowest);
        ``"brute"``: enumeration, at most 12 players with the bye.
    limit : Limit, optional
        A budget for the whole call (time on its clock, default wall; an external stop
        flag), checked between the matchings it solves (the cost matrix, each candidate
        of the bye tier). A pairing is never cut short: when the budget runs out the call
        raises and returns nothing. Nodes, depth and target have no meaning here.

    Returns
    -------
    Pairing
        Tables numbered by their better-ranked player (the bye, if any, last), each with
        the cheaper colour assignment, its cost and its terms ("why this pairing");
        ``total_cost`` is their sum. The run: ``seconds`` of process CPU time
        (``clock="cpu"``; the cost matrix, the matching and the tables, the numba kernels
        loaded beforehand), ``proven`` for the optimal methods
        (:data:`~gameopt.pairing.model.PROVEN_METHODS`), and ``stats``: ``players``,
        and for ``"exact"`` the allowed ``edges``, the ``kept_edges`` of the last
        candidate graph and the ``solver`` (``"sparse"``; ``"rustworkx"`` with the
        pruning's ``lower_bound`` and heuristic ``upper_bound``, which bound the terms
        other than colour: see :func:`~gameopt.pairing.matching.solve_exact`), and
        ``order`` (how the exact order was solved, ``"composite"`` or ``"tiebreak"``).
        Proven means best in the exact order (Notes), and ``bound`` is then the least
        total of the terms other than colour, a lower bound of every pairing's
        ``total_cost``.

    Raises
    ------
    InvalidInputError
        Unknown method, duplicate or reserved player ids.
    InfeasibleError
        The forbidden pairs leave no pairing; the message names players left unpaired.
    BudgetExhaustedError
        ``limit`` ran out (or its stop flag was set) before the pairing was complete.

    Notes
    -----
    The bye tier (odd fields, optimal methods): the bye goes to the first player of
    :func:`bye_order` (no bye yet, lowest score, lowest rank in the score group) for whom
    a legal pairing exists (no forbidden pair, no rematch, no second bye), and the
    pairing is the least-penalty one with that bye; with no legal pairing at all, the
    least-penalty pairing. ``stats["bye_candidates"]`` counts the players tried.

    The colour tier (optimal methods): the pairing has the least total of the terms
    other than colour (floats, rematches, country, elitism, the bye; SLIM's rank term);
    among those, the fewest colour-tier breaks (a third same colour in a row of played
    games, or a colour difference beyond 2:
    :func:`~gameopt.pairing.penalties.colour_violation`), then the least colour cost.
    This order is exact (each level scaled above any pairing's total of the next), not
    a trade of penalties; ``total_cost`` adds the colour terms as priced
    (``p_col``, ``p_repcl``, ``p_coltier``) for display.

    Deterministic: among the pairings best in that order, the exact methods return one
    with the least sum of squared rank distances (players meet the nearest in the
    standings: 1-2, 3-4 when all else is equal), and the solver sees players in
    (rank, id) order, so the same input gives the same pairing.

    Cost matrix O(n²) with numpy; exact matching O(n³) worst case (Edmonds 1965), less
    after pruning (``benchmarks/bench_pairing.py`` measures it).

    References
    ----------
    .. [1] T. Nakajima, "Pairing Algorithm", 2002; PAPP's documentation.
    .. [2] J. Edmonds, "Paths, trees, and flowers", 1965.
    """
    if method not in METHODS:
        raise InvalidInputError(f"pair_round: unknown method {method!r} "
                                f"({', '.join(METHODS)})")
    if limit is not None and (limit.nodes is not None or limit.depth is not None
                              or limit.target is not None):
        raise InvalidInputError("pair_round: a limit takes time and a stop flag only "
                                f"(got {limit!r})")
    params = params or PenaltyParams()
    if method in ("exact", "slim"):
        warm()  # kernel load (or first compile) time is not the pairing's
    rule = (limit or Limit()).start()
    start = time.process_time()
    pc = cost_matrix(round_input, params)
    _check_budget(rule, "the cost matrix")
    players = pc.players
    n = len(players)
    cost, upper, allowed, lex, scores = _field_matrices(pc)
    tie: IntMatrix | _Lex = lex.rank2
    if method in PROVEN_METHODS:
        cost, tie = upper, lex  # the exact order (see _ordered)
    labels = [p.id for p in players] + ([BYE] if cost.shape[0] > n else [])
    stats: dict[str, Any] = {"players": n}
    if cost.shape[0] > n and method in PROVEN_METHODS:
        pairs = _match_bye_tier(method, cost, allowed, tie, scores, labels, pc, stats, rule)
    else:
        pairs = _match(method, cost, allowed, tie, scores, labels, pc, stats)
    pairing = _pairing(round_input, params, pc, pairs, method)
    proven = method in PROVEN_METHODS
    least = sum(v for t in pairing.tables for k, v in t.terms.items()
                if k not in COLOUR_TERMS)
    return replace(pairing, seconds=time.process_time() - start, clock="cpu",
                   proven=proven, bound=float(least) if proven else None,
                   stats=stats)


def _match(method: str, cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | _Lex,
           scores: npt.NDArray[np.int64], labels: list[str], pc: PairCosts,
           stats: dict[str, Any]) -> Pairs:
    """The pairs of the field matrices by ``method`` (the bye is vertex ``n``), checked.
    A :class:`_Lex` tiebreak (exact methods) is turned into the exact order for the
    pairs ``allowed`` here (:func:`_ordered`)."""
    tiers = None
    if isinstance(tie, _Lex):
        lex = tie
        cost, tie = _ordered(cost, tie, allowed, stats)
        if stats["order"] == "tiebreak":  # the same order, one level at a time
            tiers = (lex.key, lex.rank2)
    if method == "naive":
        try:
            pairs = _naive_round(pc, allowed, labels)
        except InfeasibleError:  # the naive bye may leave the rest unpairable
            pairs = solve_exact(cost, allowed, tie, labels, scores, prune=True)
    elif method == "slim":
        pairs = slim_matching(cost, allowed, labels=labels)
    elif method in ("exact", "rustworkx"):  # min_weight_perfect_matching's steps, with stats
        c, a, t, names = check_matrices(cost, allowed, tie, labels)
        pairs = solve_exact(c, a, t, names, scores, prune=True, stats=stats,
                            kernel="sparse" if method == "exact" else "rustworkx",
                            tiers=tiers)
    else:
        pairs = min_weight_perfect_matching(cost, allowed, method=method, tiebreak=tie,
                                            labels=labels, groups=scores)
    if not is_perfect_matching(pairs, cost.shape[0], allowed):  # the claim, checked
        raise SolverError(f"pair_round ({method}): the result is not a perfect matching "
                          "of allowed pairs")
    w = stats.pop("scale", None)
    if w is not None and "lower_bound" in stats:  # bounds on the terms other than colour
        stats["lower_bound"] = float(int(stats["lower_bound"]) // w)
        stats["upper_bound"] = int(stats["upper_bound"]) // w
    return pairs


def bye_order(pc: PairCosts) -> list[int]:
    """Players who may take the bye and have not had one, in the order they should get it.

    The lowest score first, then the lowest-ranked in that score group (the bottom of
    the group by ``(rank, id)``). Indices into ``pc.players``.
    """
    pos = group_positions(pc.players)
    fresh = [k for k, p in enumerate(pc.players) if pc.bye_allowed[k] and p.byes == 0]
    return sorted(fresh, key=lambda k: (pc.players[k].score, pos[pc.players[k].id][1]))


def legal_bye(pc: PairCosts, k: int) -> bool:
    """Whether the others can all be paired without a rematch or a forbidden pair when
    ``pc.players[k]`` takes the bye (a maximum-cardinality matching of the legal
    pairs)."""
    import rustworkx as rx

    n = len(pc.players)
    rest = [i for i in range(n) if i != k]
    g = rx.PyGraph()
    g.add_nodes_from(rest)
    where = {v: i for i, v in enumerate(rest)}
    legal = np.triu(pc.allowed & ~pc.rematch, 1)
    for u, v in zip(*np.nonzero(legal), strict=True):
        if u != k and v != k:
            g.add_edge(where[int(u)], where[int(v)], 1)
    return 2 * len(rx.max_weight_matching(g, max_cardinality=True)) == len(rest)


def pairing_key(round_input: RoundInput, tables: list[tuple[str, str]],
                params: PenaltyParams | None = None) -> tuple[int, int, int]:
    """The exact order's key of a pairing given as ``(black, white)`` ids (``white`` may
    be :data:`~gameopt.pairing.model.BYE`), with the colours as given: the total of the
    terms other than colour, the colour-tier breaks, the colour cost (with the halves term
    on: ``p_halfcol`` times the colour cost plus the halves term), what
    :func:`pair_round`'s exact methods minimise, in that order."""
    params = params or PenaltyParams()
    by_id = {p.id: p for p in round_input.players}
    pos = group_positions(round_input.players)
    upper = breaks = colour = 0
    for black, white in tables:
        if white == BYE:
            upper += pen_bye(by_id[black], pos[black], params)
            continue
        b, w = by_id[black], by_id[white]
        terms = oriented_terms(b, w, round_input.round_no, params, pos)
        upper += sum(v for t, v in terms.items() if t not in COLOUR_TERMS)
        breaks += colour_violation(b, Colour.BLACK) + colour_violation(w, Colour.WHITE)
        cost = pen_color(b, Colour.BLACK, params) + pen_color(w, Colour.WHITE, params)
        if "halves" in params.terms:  # ranked with the colour cost (cost_matrix)
            cost = cost * params.p_halfcol + terms.get("halves", 0)
        colour += cost
    return upper, breaks, colour


def _is_legal(pairs: Pairs, pc: PairCosts) -> bool:
    """No rematch and no second bye (forbidden pairs are never in a matching)."""
    n = len(pc.players)
    for u, v in pairs:
        if v == n or u == n:
            if pc.players[min(u, v)].byes:
                return False
        elif pc.rematch[u, v]:
            return False
    return True


def _check_budget(rule: StopRule, done: str) -> None:
    """Raise when the caller's budget ran out (checked between whole matchings)."""
    reason = rule.should_stop()
    if reason is not None:
        why = "by the time limit" if reason == "time" else "on request"
        raise BudgetExhaustedError(f"pair_round: stopped {why} after {done} "
                                   f"({rule.elapsed():.2f} s {rule.clock}); nothing paired")


def _match_bye_tier(method: str, cost: IntMatrix, allowed: BoolMatrix, tie: IntMatrix | _Lex,
                    scores: npt.NDArray[np.int64], labels: list[str], pc: PairCosts,
                    stats: dict[str, Any], rule: StopRule) -> Pairs:
    """The bye tier of an odd field: the least-penalty pairing that gives the bye to the
    first player of :func:`bye_order` for whom a legal pairing (no rematch, no second
    bye) exists; the unconstrained least-penalty pairing when no candidate has one.

    Candidates are tried in order with the bye fixed to them; usually the first one
    gives a legal pairing and the round costs one matching of ``n − 1`` players. When a
    candidate fails, the unconstrained pairing is solved once: if it is not legal
    either, no candidate can be (a legal pairing would be cheaper), and it is returned.
    """
    n = len(pc.players)
    free: Pairs | None = None
    free_stats: dict[str, Any] = {"players": n}
    tried = 0
    for k in bye_order(pc):
        if tried:
            _check_budget(rule, f"{tried} bye candidate{'s' if tried > 1 else ''}")
        if tried == 1 and free is None:
            free = _match(method, cost, allowed, tie, scores, labels, pc, free_stats)
            if not _is_legal(free, pc):
                break
        tried += 1
        only = allowed.copy()
        only[:n, n] = only[n, :n] = False
        only[k, n] = only[n, k] = True
        sub: dict[str, Any] = {"players": n}
        try:
            pairs = _match(method, cost, only, tie, scores, labels, pc, sub)
        except InfeasibleError:
            continue
        if _is_legal(pairs, pc):
            stats.update(sub)
            stats["bye_candidates"] = tried
            return pairs
    if free is None:
        free = _match(method, cost, allowed, tie, scores, labels, pc, free_stats)
    stats.update(free_stats)
    stats["bye_candidates"] = tried
    return free


def _naive_round(pc: PairCosts, allowed: BoolMatrix, labels: list[str]) -> Pairs:
    """The naive rule: bye first (the first of :func:`bye_order`; when everyone has had
    one, the cheapest :func:`~gameopt.pairing.penalties.pen_bye`, lowest-ranked on a
    tie), then top-down. If that bye leaves the others unpairable, :func:`pair_round`
    falls back to the exact pairing (which raises when nothing works).
    """
    n = len(pc.players)
    rest = list(range(n))
    pairs: Pairs = []
    if n % 2:
        ok = np.flatnonzero(pc.bye_allowed)
        if ok.size == 0:
            raise infeasible_error(allowed, labels)
        order = bye_order(pc)
        b = order[0] if order else int(ok[np.lexsort((-ok, pc.bye[ok]))[0]])
        pairs.append((b, n))
        rest.remove(b)
    sub = np.ix_(rest, rest)
    inner = naive_matching(pc.allowed[sub], pc.rematch[sub], labels=[labels[k] for k in rest])
    pairs += [(rest[u], rest[v]) for u, v in inner]
    return sorted(pairs)


def _pairing(round_input: RoundInput, params: PenaltyParams, pc: PairCosts, pairs: Pairs,
             method: str) -> Pairing:
    """Tables in order of their better-ranked player, bye last, with costs and terms."""
    players = pc.players
    n = len(players)
    pos = group_positions(players)
    games: list[tuple[int, str, str, int, dict[str, int]]] = []
    bye: Table | None = None
    for u, v in sorted(pairs):
        if v == n:
            cost = int(pc.bye[u])
            bye = Table(0, players[u].id, BYE, cost, {"bye": cost})
            continue
        cost, black, white, terms = _pair_cost(players[u], players[v], round_input, params,
                                               positions=pos)
        games.append((u, black, white, cost, terms))
    tables = [Table(k, black, white, cost, terms)
              for k, (_, black, white, cost, terms) in enumerate(games, start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, bye.black, BYE, bye.cost, bye.terms))
    return Pairing(round_input.round_no, tuple(tables), sum(t.cost for t in tables), method)

