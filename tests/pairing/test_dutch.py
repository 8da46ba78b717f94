"""The Dutch-like comparison rule: S1 against S2, transpositions for rematches, floats
down, the bye tier, and legal pairings over simulated events."""

from __future__ import annotations

import pytest

from gameopt.pairing.dutch import dutch_round
from gameopt.pairing.model import BYE, Colour, PlayerState, RoundInput
from gameopt.pairing.simulate import SimConfig, simulate_event

B, W = Colour.BLACK, Colour.WHITE


def field(scores: list[int], met: dict[int, int] | None = None) -> RoundInput:
    """Players p1.. ranked in order with these scores; ``met`` pairs had one game (the
    lower number black), every other player one game against an outsider."""
    met = met or {}
    partner = {**met, **{v: k for k, v in met.items()}}
    players = []
    for k, s in enumerate(scores, start=1):
        opp = f"p{partner[k]}" if k in partner else f"x{k}"
        colour = B if k not in partner or k < partner[k] else W
        if k not in partner:
            colour = B if k % 2 else W
        players.append(PlayerState(id=f"p{k}", name=f"P{k}", score=s, colours=(colour,),
                                   opponents=(opp,), scores_before=(0,),
                                   opponent_scores_before=(0,), rank=k))
    return RoundInput(2, tuple(players))


def pairs(ri: RoundInput) -> set[frozenset[str]]:
    return {frozenset((t.black, t.white)) for t in dutch_round(ri).tables}


def test_top_half_meets_bottom_half() -> None:
    got = pairs(field([2] * 8))
    assert got == {frozenset((f"p{k}", f"p{k + 4}")) for k in range(1, 5)}


def test_a_rematch_is_avoided_by_the_next_transposition() -> None:
    got = pairs(field([2] * 8, met={1: 5}))
    assert frozenset(("p1", "p6")) in got and frozenset(("p2", "p5")) in got
    assert frozenset(("p1", "p5")) not in got


def test_odd_group_floats_its_lowest_down_to_the_top_of_the_next() -> None:
    # 2 2 2 | 0 0 0 0 0: p3 floats and meets the next bracket's S1 head
    got = pairs(field([2, 2, 2, 0, 0, 0, 0, 0]))
    assert frozenset(("p1", "p2")) in got
    assert frozenset(("p3", "p6")) in got  # bracket p3 p4 p5 | p6 p7 p8


def test_bye_to_the_lowest_and_every_table_legal() -> None:
    ri = field([2, 2, 2, 0, 0, 0, 0])
    tables = dutch_round(ri).tables
    assert tables[-1].white == BYE and tables[-1].black == "p7"
    assert sorted(x for t in tables for x in (t.black, t.white) if x != BYE) == \
        sorted(p.id for p in ri.players)


@pytest.mark.parametrize("seed", range(3))
def test_simulated_events_have_no_rematch_and_low_byes(seed: int) -> None:
    for cfg in (SimConfig(players=15, rounds=7), SimConfig(players=12, rounds=9)):
        e = simulate_event("dutch", cfg, seed)
        assert e.rematches == 0 and e.stats["high_byes"] == 0
        assert not e.proven
