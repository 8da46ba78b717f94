"""A Dutch-like pairing rule, for simulations: a simplified approximation of the FIDE
Dutch system, our own implementation of its main idea (not a pairing program's code).

The round is paired score group by score group, from the top:

1. **Bye** (odd fields): the first player of :func:`~gameopt.pairing.pairer.bye_order`
   (no bye yet, lowest score, lowest in the score group) for whom the others can still
   be paired without a rematch or a forbidden pair
   (:func:`~gameopt.pairing.pairer.legal_bye`).
2. **Brackets**: a bracket is the players floated down from the group above (first, in
   rank order) followed by the score group (in rank order). Its top half S1 meets its
   bottom half S2 in order: S1[1]–S2[1], S1[2]–S2[2] ...
3. **Transpositions and exchanges**: when a pair of that order is a rematch, a forbidden
   pair or (first pass) breaks the colour tier with either colour assignment
   (:func:`~gameopt.pairing.penalties.colour_violation`), a backtracking search takes, for
   the first unpaired player of the bracket, the next partner in the order S2 (in order)
   then the rest of S1 (from the bottom): the first such pairing found is the Dutch
   transposition (or, failing those, an exchange) nearest to the ideal order. A pass
   that allows colour-tier breaks follows a pass that does not.
4. **Floats down**: an odd bracket, or one that cannot be paired whole, floats down its
   lowest players that leave the rest pairable (fewest first), to the next bracket.
5. **The last bracket** must pair everyone: when it cannot, the bracket above is undone
   and the two are paired as one, and so on upwards; if the whole field still cannot be
   paired so, the exact least-penalty pairing is used
   (:func:`~gameopt.pairing.pairer.pair_round`).

Colours: each pair takes the colours of :func:`~gameopt.pairing.penalties.pair_cost`
(the fewer colour-tier breaks, then the lower colour cost, then black to the better
ranked). Left out of the Dutch system: the many quality criteria on floats (C.04.3 C.5-
C.19), the detailed colour preferences (absolute/strong/mild), and its exact order of
transpositions and exchanges; this is a comparison rule, not a FIDE-endorsed pairing.

References
----------
.. [1] FIDE Handbook C.04.3, "FIDE (Dutch) System" (pairing brackets, S1 against S2,
   transpositions, exchanges, floats).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from gameopt.pairing.model import BYE, Pairing, RoundInput, Table
from gameopt.pairing.penalties import PairCosts, PenaltyParams, cost_matrix, group_positions
from gameopt.pairing.penalties import pair_cost as _pair_cost

__all__ = ["DUTCH_NODES", "FLOAT_CANDIDATES", "dutch_round"]

#: Search nodes of the backtracking per bracket and pass before it gives up on it (the
#: bracket then floats more players, or is merged with the one above).
DUTCH_NODES = 20_000
#: The lowest players of a bracket that may float down from it.
FLOAT_CANDIDATES = 10

Pairs = list[tuple[int, int]]


def _pair_bracket(members: Sequence[int], ok: npt.NDArray[np.bool_]) -> Pairs | None:
    """S1 against S2 with transpositions, then exchanges, by backtracking; ``members``
    in bracket order (even count), ``ok[u, v]`` the pairs allowed. None if none found
    within :data:`DUTCH_NODES` nodes."""
    k = len(members)
    half = k // 2
    s1, s2 = list(members[:half]), list(members[half:])
    pref = {u: s2 + s1[:i:-1] for i, u in enumerate(s1)}
    for u in s2:
        pref[u] = [v for v in s2 if v != u]
    order = list(members)
    used: set[int] = set()
    pairs: Pairs = []
    nodes = 0

    def search() -> bool:
        nonlocal nodes
        u = next((x for x in order if x not in used), None)
        if u is None:
            return True
        nodes += 1
        if nodes > DUTCH_NODES:
            return False
        used.add(u)
        for v in pref[u]:
            if v not in used and ok[u, v]:
                used.add(v)
                pairs.append((u, v))
                if search():
                    return True
                pairs.pop()
                used.discard(v)
                if nodes > DUTCH_NODES:
                    break
        used.discard(u)
        return False

    return pairs if search() else None


def _bracket(members: list[int], oks: Sequence[npt.NDArray[np.bool_]], last: bool,
             ) -> tuple[Pairs, list[int]] | None:
    """Pairs of one bracket and the players it floats down: the fewest, chosen among its
    :data:`FLOAT_CANDIDATES` lowest, lowest first (everyone when that fails); the last
    bracket floats no one. None if the last bracket cannot be paired."""
    k = len(members)
    cands = members[::-1][:FLOAT_CANDIDATES]
    for f in range(k % 2, (0 if last else len(cands)) + 1, 2):
        for down in combinations(cands, f):
            rest = [u for u in members if u not in down]
            for ok in oks:
                pairs = _pair_bracket(rest, ok)
                if pairs is not None:
                    return pairs, sorted(down, key=members.index)
    return None if last else ([], list(members))


def _brackets(pc: PairCosts, active: list[int], oks: Sequence[npt.NDArray[np.bool_]],
              ) -> Pairs | None:
    """Every active player paired bracket by bracket, top down (module notes)."""
    scores = sorted({pc.players[u].score for u in active}, reverse=True)
    groups = [[u for u in active if pc.players[u].score == s] for s in scores]
    done: list[tuple[list[int], Pairs]] = []  # each bracket's members and pairs
    carry: list[int] = []
    g = 0
    while g < len(groups):
        members = carry + groups[g]
        last = g == len(groups) - 1
        got = _bracket(members, oks, last)
        if got is None and last:
            while got is None and done:  # undo the bracket above, pair the two as one
                above, _ = done.pop()
                members = above + [u for u in members if u not in above]
                got = _bracket(members, oks, True)
            if got is None:
                return None
        if got is None:
            return None
        pairs, carry = got
        done.append((members, pairs))
        g += 1
    return [p for _, ps in done for p in ps]


def dutch_round(round_input: RoundInput, params: PenaltyParams | None = None) -> Pairing:
    """Pair one round by the Dutch-like rule (module notes).

    Parameters
    ----------
    round_input : RoundInput
    params : PenaltyParams, optional
        Used for the tables' costs and colours only (default ``PenaltyParams()``).

    Returns
    -------
    Pairing
        ``method="dutch"``, tables in order of their better-ranked player, the bye last;
        ``seconds`` of process CPU time; ``proven`` False; ``stats["fallback"]`` True when
        the exact pairing had to be used.

    Raises
    ------
    InvalidInputError
        As :func:`~gameopt.pairing.penalties.cost_matrix`.
    InfeasibleError
        The forbidden pairs leave no pairing.
    """
    from gameopt.pairing.pairer import bye_order, legal_bye

    params = params or PenaltyParams()
    start = time.process_time()
    pc = cost_matrix(round_input, params)
    players = pc.players
    n = len(players)
    active = list(range(n))
    bye: int | None = None
    if n % 2:
        bye = next((k for k in bye_order(pc) if legal_bye(pc, k)), None)
        if bye is None:  # nobody may take it legally: the exact rule decides
            return _fallback(round_input, params, start)
        active.remove(bye)
    legal = pc.allowed & ~pc.rematch
    strict = legal & (pc.breaks == 0)
    pairs = _brackets(pc, active, (strict, legal))
    if pairs is None:
        return _fallback(round_input, params, start)
    pos = group_positions(players)
    games: list[Table] = []
    for u, v in sorted(tuple(sorted(p)) for p in pairs):
        cost, black, white, terms = _pair_cost(players[u], players[v], round_input, params,
                                               positions=pos)
        games.append(Table(len(games) + 1, black, white, cost, terms))
    if bye is not None:
        c = int(pc.bye[bye])
        games.append(Table(len(games) + 1, players[bye].id, BYE, c, {"bye": c}))
    return Pairing(round_input.round_no, tuple(games), sum(t.cost for t in games), "dutch",
                   seconds=time.process_time() - start, clock="cpu", proven=False,
                   stats={"players": n, "fallback": False})


def _fallback(round_input: RoundInput, params: PenaltyParams, start: float) -> Pairing:
    """The exact pairing, labelled as the Dutch-like rule's fallback."""
    from gameopt.pairing.pairer import pair_round as exact

    p = exact(round_input, params, method="exact")
    return Pairing(p.round_no, p.tables, p.total_cost, "dutch",
                   seconds=time.process_time() - start, clock="cpu", proven=False,
                   stats={"players": len(round_input.players), "fallback": True})
