"""pair_round: optimal against the references on Swiss fields, byes, tables, forbidden
pairs, determinism, and the run its result describes (seconds, clock, proven, bound,
stats)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gameopt.core import Outcome
from gameopt.errors import InfeasibleError, InvalidInputError
from gameopt.pairing import METHODS, PROVEN_METHODS
from gameopt.pairing.matching import min_weight_perfect_matching
from gameopt.pairing.model import BYE, Pairing, PlayerState, RoundInput
from gameopt.pairing.pairer import pair_round, pairing_key
from gameopt.pairing.penalties import COLOUR_TERMS, PenaltyParams, cost_matrix, pair_cost
from tests.pairing.instances import play_event, rank_spread

# --------------------------------------------------------------------------------------
# Optimal against the references on Swiss fields
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "rounds", "params"), [
    (41, 5, PenaltyParams()), (90, 7, PenaltyParams.slim()), (150, 8, PenaltyParams()),
    (60, 6, PenaltyParams.papp()),
], ids=["41-default", "90-slim", "150-default", "60-papp"])
def test_pair_round_exact_equals_networkx_on_swiss_fields(n: int, rounds: int,
                                                          params: PenaltyParams) -> None:
    ri = play_event(n, rounds, seed=n, params=params)
    exact = pair_round(ri, params)
    ref = pair_round(ri, params, method="networkx")
    assert exact.total_cost == ref.total_cost
    # The tie-break (squared rank distances) is part of both objectives.
    assert rank_spread(exact, ri) == rank_spread(ref, ri)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rounds", "seed", "params", "unique"), [
    (300, 8, 2002, PenaltyParams.papp(), True), (300, 8, 2002, PenaltyParams(), False),
    (301, 8, 7, PenaltyParams(), False), (240, 6, 11, PenaltyParams.slim(), True),
], ids=["300-papp", "300-default", "301-default-bye", "240-slim"])
def test_exact_equals_the_reference_on_fields_of_a_few_hundred(
        n: int, rounds: int, seed: int, params: PenaltyParams, unique: bool) -> None:
    # The fast exact method (SLIM bound, reduced-cost pruning, rustworkx) against the
    # reference (networkx's blossom on every allowed pair): the same key in every tier,
    # rank distances (the last tier) included, so the same tables wherever the optimum
    # is unique (at 301 players, and at 300 under the defaults, it is not: pairings tie in
    # every tier).
    ri = play_event(n, rounds, seed=seed, params=params)
    exact = pair_round(ri, params)
    ref = pair_round(ri, params, method="networkx")
    assert exact.stats["kept_edges"] < exact.stats["edges"]  # the pruning did work
    tables = [[(t.black, t.white) for t in p.tables] for p in (exact, ref)]
    assert pairing_key(ri, tables[0], params) == pairing_key(ri, tables[1], params)
    assert rank_spread(exact, ri) == rank_spread(ref, ri)
    if unique:
        assert {frozenset(t) for t in tables[0]} == {frozenset(t) for t in tables[1]}


def test_pair_round_equals_brute_force_on_small_fields() -> None:
    for seed in range(30):
        n = 5 + seed % 7  # 5..11 players, odd ones with the bye
        ri = play_event(n, 1 + seed % 5, seed)
        params = PenaltyParams() if seed % 2 else PenaltyParams.slim()
        assert pair_round(ri, params).total_cost == \
            pair_round(ri, params, method="brute").total_cost


# --------------------------------------------------------------------------------------
# Forbidden pairs and bad input
# --------------------------------------------------------------------------------------


def test_pair_round_infeasible_forbidden_names_players() -> None:
    ri = play_event(6, 2, seed=3)
    ids = [p.id for p in ri.players]
    hub, lonely = ids[0], ids[1:4]  # the three may only meet the hub
    forbidden = frozenset(frozenset({x, y}) for x in lonely for y in ids
                          if y not in (x, hub))
    bad = replace(ri, forbidden=forbidden)
    for method in ("exact", "networkx", "slim", "naive"):
        with pytest.raises(InfeasibleError, match="no perfect pairing avoids") as info:
            pair_round(bad, method=method)
        msg = str(info.value)
        assert "at most 4 of 6 players can be paired" in msg, msg
        assert sum(x in msg for x in lonely) == 2, msg


def test_forbidden_pairs_are_respected() -> None:
    ri = play_event(30, 4, seed=5)
    first = pair_round(ri)
    banned = frozenset(frozenset((t.black, t.white)) for t in first.tables[:5])
    again = pair_round(replace(ri, forbidden=banned))
    for method in ("exact", "slim", "naive", "networkx"):
        tables = pair_round(replace(ri, forbidden=banned), method=method).tables
        assert not {frozenset((t.black, t.white)) for t in tables} & banned, method
    assert again.total_cost >= first.total_cost


def test_pair_round_unknown_method() -> None:
    with pytest.raises(InvalidInputError, match="unknown method 'dutch'"):
        pair_round(play_event(4, 0, 1), method="dutch")


# --------------------------------------------------------------------------------------
# pair_round: byes, tables, determinism
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["exact", "slim", "naive", "networkx"])
def test_odd_field_gets_exactly_one_bye(method: str) -> None:
    ri = play_event(23, 3, seed=4)
    pairing = pair_round(ri, method=method)
    byes = [t for t in pairing.tables if t.white == BYE]
    assert len(byes) == 1 and pairing.tables[-1] is byes[0]
    seen = [p for t in pairing.tables for p in (t.black, t.white) if p != BYE]
    assert sorted(seen) == sorted(p.id for p in ri.players)
    assert pair_round(play_event(22, 3, seed=4), method=method).tables[-1].white != BYE


def test_bye_goes_to_a_low_player_without_one_never_twice() -> None:
    ri = play_event(9, 6, seed=8)
    had = {p.id for p in ri.players if p.byes}
    assert had  # six rounds of nine players: six byes, all to different players
    assert all(p.byes <= 1 for p in ri.players)
    bye = pair_round(ri).tables[-1]
    assert bye.white == BYE and bye.black not in had
    # In a larger field nothing competes: the cheapest bye, the last of the lowest group.
    for seed in range(5):
        ri = play_event(31, 3, seed=seed)
        bye = pair_round(ri).tables[-1]
        assert bye.cost == cost_matrix(ri).bye.min(), seed
        fresh = [p for p in ri.players if not p.byes]
        low = min(p.score for p in fresh)
        assert bye.black == max((p for p in fresh if p.score == low), key=lambda p: p.rank).id


def test_second_bye_only_when_unavoidable() -> None:
    a = PlayerState("a", "A", score=2, rank=1)
    b = PlayerState("b", "B", score=2, rank=2)
    c = PlayerState("c", "C", score=0, byes=1, rank=3)  # lowest, but had one
    assert pair_round(RoundInput(2, (a, b, c))).tables[-1].black == "b"
    only_c = frozenset({frozenset({"a", "c"}), frozenset({"b", "c"})})
    assert pair_round(RoundInput(2, (a, b, c), only_c)).tables[-1].black == "c"


def test_tables_numbered_by_the_better_ranked_player() -> None:
    ri = play_event(41, 5, seed=6)
    rank = {p.id: p.rank for p in ri.players}
    pairing = pair_round(ri)
    games = [t for t in pairing.tables if t.white != BYE]
    best = [min(rank[t.black], rank[t.white]) for t in games]
    assert best == sorted(best)
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    assert pairing.total_cost == sum(t.cost for t in pairing.tables)


def test_tables_carry_cost_terms_and_the_cheaper_colours() -> None:
    ri = play_event(30, 5, seed=10)
    by = {p.id: p for p in ri.players}
    pc = cost_matrix(ri)
    idx = {p.id: k for k, p in enumerate(pc.players)}
    for t in pair_round(ri).tables:
        assert t.cost == sum(t.terms.values())
        assert pc.cost[idx[t.black], idx[t.white]] == t.cost
        assert pc.black[idx[t.black], idx[t.white]]
        assert pair_cost(by[t.white], by[t.black], ri)[:3] == (t.cost, t.black, t.white)


def test_pair_round_is_deterministic() -> None:
    ri = play_event(60, 5, seed=2)
    first = pair_round(ri)
    assert pair_round(ri) == first
    shuffled = replace(ri, players=tuple(reversed(ri.players)))
    assert pair_round(shuffled) == first
    assert pair_round(ri, method="slim") == pair_round(shuffled, method="slim")


def test_pair_round_is_the_same_in_another_process() -> None:
    code = textwrap.dedent("""
        from tests.pairing.instances import play_event
        from gameopt.pairing import pair_round
        p = pair_round(play_event(50, 4, seed=13))
        print([(t.black, t.white) for t in p.tables])
    """)
    root = Path(__file__).resolve().parents[2]
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, cwd=root,
                           env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout
            for h in (1, 2)]
    here = pair_round(play_event(50, 4, seed=13))
    assert runs[0] == runs[1] == str([(t.black, t.white) for t in here.tables]) + "\n"


def test_round_one_pairs_neighbours_in_the_ranking_with_papps_weights() -> None:
    # No history, one score group, no colours: under PAPP's terms every pairing costs the
    # same, and the tie-break pairs 1-2, 3-4 ...
    players = tuple(PlayerState(f"p{k}", f"P{k}", rank=k + 1) for k in range(8))
    pairing = pair_round(RoundInput(1, players), PenaltyParams.papp())
    assert [(t.black, t.white) for t in pairing.tables] == \
        [("p0", "p1"), ("p2", "p3"), ("p4", "p5"), ("p6", "p7")]
    assert isinstance(pairing, Pairing) and pairing.total_cost == 0


def test_round_one_pairs_top_half_against_bottom_half_by_default() -> None:
    # The defaults' halves term: 1-5, 2-6, 3-7, 4-8 (the Dutch system's first round),
    # the first colour alternating down the boards; the only pairing of halves cost 0.
    players = tuple(PlayerState(f"p{k}", f"P{k}", rank=k + 1) for k in range(8))
    pairing = pair_round(RoundInput(1, players))
    assert [(t.black, t.white) for t in pairing.tables] == \
        [("p0", "p4"), ("p5", "p1"), ("p2", "p6"), ("p7", "p3")]
    assert pairing.total_cost == 0
    brute = pair_round(RoundInput(1, players), method="brute")
    assert [(t.black, t.white) for t in brute.tables] == \
        [(t.black, t.white) for t in pairing.tables]


def test_empty_and_single_player_fields() -> None:
    assert pair_round(RoundInput(1, ())).tables == ()
    solo = pair_round(RoundInput(1, (PlayerState("a", "A"),)))
    assert [(t.black, t.white) for t in solo.tables] == [("a", BYE)]


# --------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", [m for m in METHODS if m != "brute"])
def test_result_describes_the_run(method: str) -> None:
    ri = play_event(41, 4, seed=3)
    p = pair_round(ri, method=method)
    assert isinstance(p, Outcome)
    assert p.clock == "cpu" and 0.0 <= p.seconds < 60.0
    assert p.proven is (method in PROVEN_METHODS)
    upper = sum(v for t in p.tables for k, v in t.terms.items()
                if k not in COLOUR_TERMS)  # colour, its tier and the halves term
    assert p.bound == (float(upper) if p.proven else None)
    assert p.stats["players"] == 41


def test_rustworkx_reports_its_pruning_and_bounds() -> None:
    ri = play_event(60, 5, seed=2)
    p = pair_round(ri, method="rustworkx")
    s = p.stats
    assert s["edges"] == 60 * 59 // 2  # no forbidden pair: the complete graph
    assert 30 <= s["kept_edges"] < s["edges"] and s["solver"] == "rustworkx"
    assert s["lower_bound"] <= p.bound <= s["upper_bound"] and p.bound <= p.total_cost


def test_exact_reports_its_candidate_graph_and_equals_rustworkx() -> None:
    ri = play_event(60, 5, seed=2)
    p = pair_round(ri)
    s = p.stats
    assert s["solver"] == "sparse" and s["pricing_rounds"] >= 1
    assert 30 <= s["kept_edges"] < s["edges"] == 60 * 59 // 2
    ref = pair_round(ri, method="rustworkx")
    assert (p.bound, p.total_cost) == (ref.bound, ref.total_cost)


def test_brute_is_proven_on_a_small_field() -> None:
    p = pair_round(play_event(9, 3, seed=1), method="brute")
    colour = sum(t.terms.get("colour", 0) + t.terms.get("colour_tier", 0) for t in p.tables)
    assert p.proven and p.bound == p.total_cost - colour


def test_the_run_does_not_change_equality() -> None:
    ri = play_event(20, 3, seed=5)
    a, b = pair_round(ri), pair_round(ri)
    assert a == b and a.stats == b.stats
    plain = Pairing(a.round_no, a.tables, a.total_cost, a.method)
    assert plain == a and plain.seconds == 0.0 and not plain.proven


def test_exact_total_is_the_matching_optimum() -> None:
    # The bound claimed is the optimum of the field's matching (bye included) on the
    # terms other than colour.
    ri = play_event(21, 3, seed=8)
    pc = cost_matrix(ri)
    n = len(pc.players)
    m = n + 1
    cost = np.zeros((m, m), dtype=np.int64)
    allowed = np.zeros((m, m), dtype=np.bool_)
    cost[:n, :n], allowed[:n, :n] = pc.upper, pc.allowed
    cost[:n, n] = cost[n, :n] = pc.bye
    allowed[:n, n] = allowed[n, :n] = pc.bye_allowed
    pairs = min_weight_perfect_matching(cost, allowed, method="networkx")
    assert pair_round(ri).bound == sum(int(cost[u, v]) for u, v in pairs)


# --------------------------------------------------------------------------------------
# The run control: a budget for the whole call, never a partial pairing
# --------------------------------------------------------------------------------------


def test_pair_round_limit_stops_between_matchings_and_pairs_nothing() -> None:
    from gameopt.core import Limit, StopFlag
    from gameopt.errors import BudgetExhaustedError

    ri = play_event(41, 4, seed=5)
    flag = StopFlag()
    flag.set()
    with pytest.raises(BudgetExhaustedError,
                       match=r"pair_round: stopped on request after the cost matrix "
                             r"\(\d+\.\d\d s wall\); nothing paired"):
        pair_round(ri, limit=Limit(stop=flag))
    # a budget that is not reached changes nothing
    assert pair_round(ri, limit=Limit(time=600)).tables == pair_round(ri).tables


def test_pair_round_limit_takes_time_and_stop_only() -> None:
    from gameopt.core import Limit

    with pytest.raises(InvalidInputError, match=r"pair_round: a limit takes time and a stop "
                                                r"flag only"):
        pair_round(play_event(6, 1, seed=1), limit=Limit(nodes=10))


def test_pairing_key_ranks_the_halves_term_with_the_colour_cost() -> None:
    # Round 1 of four: no colour cost anywhere, so only the halves term tells 1-2, 3-4
    # (each pair one place from half the group apart) from the defaults' 1-3, 4-2.
    players = tuple(PlayerState(f"p{k}", f"P{k}", rank=k + 1) for k in range(4))
    ri = RoundInput(1, players)
    halves = [("p0", "p2"), ("p3", "p1")]
    neighbours = [("p0", "p1"), ("p2", "p3")]
    assert pairing_key(ri, halves) == (0, 0, 0)
    assert pairing_key(ri, neighbours) == (0, 0, 2)
    assert pairing_key(ri, neighbours, PenaltyParams.papp()) == (0, 0, 0)
    assert pairing_key(ri, neighbours, PenaltyParams(p_halfcol=5, p_halves=3)) == (0, 0, 6)
