"""The colour tier: no third same colour in a row of played games (a bye does not reset
the run) and a colour difference of at most 2, whenever a pairing as good on the other
terms (floats, rematches, country, the bye) allows it; the colour terms come after.
Checked on every round of seeded simulated events against an enumeration of all
pairings (the exact reference) ranked in that order."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.pairing.matching import min_weight_perfect_matching
from gameopt.pairing.model import BYE, Colour, Pairing, PlayerState, RoundInput
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import colour_violation, cost_matrix
from tests.pairing.instances import all_matchings, index_pairs, play_rounds, tier_key

B, W, X = Colour.BLACK, Colour.WHITE, Colour.BYE_


def test_colour_violation_counts_played_games_only() -> None:
    p = PlayerState("a", "A", colours=(B, B, X))
    assert colour_violation(p, B) == 1 and colour_violation(p, W) == 0
    q = PlayerState("q", "Q", colours=(B, B, X, W, B))  # δ = +2, last two W, B
    assert colour_violation(q, B) == 1  # δ would be +3
    assert colour_violation(q, W) == 0
    r = PlayerState("r", "R", colours=(W, B, W, B))
    assert colour_violation(r, B) == 0 and colour_violation(r, X) == 0


def _reference(ri: RoundInput, bye: str | None) -> tuple[int, int, int]:
    """The best key over every legal pairing (no rematch, no second bye) with the given
    bye, found by enumeration."""
    pc = cost_matrix(ri)
    n = len(pc.players)
    ids = [p.id for p in pc.players]
    best: tuple[int, int, int] | None = None
    for m in all_matchings(list(range(n + n % 2))):
        legal = True
        for u, v in m:
            if v == n:
                legal &= ids[u] == bye
            else:
                legal &= bool(pc.allowed[u, v]) and not pc.rematch[u, v]
        if legal:
            k = tier_key(pc, m)
            best = k if best is None or k < best else best
    assert best is not None
    return best


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_colour_tier_equals_the_enumeration_on_every_round(n: int) -> None:
    compared = breaks_avoided = 0
    for seed in range(3):
        for ri, pairing in play_rounds(n, n - 2, seed, method="exact", draw=0.1):
            if pairing is None or ri.round_no < 3:
                continue
            pc = cost_matrix(ri)
            if any(pc.rematch[u, v] for u, v in index_pairs(pairing, pc) if v < n):
                continue  # no legal pairing: the tier does not apply
            bye = next((t.black for t in pairing.tables if t.white == BYE), None)
            ours = tier_key(pc, index_pairs(pairing, pc))
            assert ours == _reference(ri, bye), (n, seed, ri.round_no)
            breaks_avoided += ours[1] == 0
            compared += 1
    assert compared >= 3 * (n - 4) - 2
    assert breaks_avoided >= compared // 2


def _played_runs(events: list[tuple[RoundInput, Pairing | None]]) -> tuple[int, int]:
    """(third same colours in a row of played games, colour differences beyond 2)."""
    *_, (last, _) = events
    thirds = beyond = 0
    for p in last.players:
        played = [c for c in p.colours if c is not X]
        thirds += sum(played[k] == played[k - 1] == played[k - 2]
                      for k in range(2, len(played)))
        d = 0
        for c in played:
            d += 1 if c is B else -1
            beyond += abs(d) > 2
    return thirds, beyond


def test_a_bye_does_not_reset_the_colour_run() -> None:
    # "a" had black, black, then a bye; "b" and "c" white, white. With no float in
    # either choice, "a" gets white: the third black is avoided across the bye.
    a = PlayerState("a", "A", score=4, rank=1, colours=(B, B, X), opponents=("x", "y", None),
                    scores_before=(0, 2, 4), opponent_scores_before=(0, 2, None))
    b = PlayerState("b", "B", score=4, rank=2, colours=(B, W, B),
                    opponents=("z", "w", "v"), scores_before=(0, 2, 2),
                    opponent_scores_before=(0, 2, 2))
    p = pair_round(RoundInput(4, (a, b)))
    (t,) = p.tables
    assert (t.black, t.white) == ("b", "a")
    assert t.terms["colour_tier"] == 0


def _networkx_reference(ri: RoundInput, bye: str | None) -> tuple[int, int, int]:
    """The best key by networkx's blossom on one composite cost (terms other than colour
    scaled above breaks, breaks above colour), legal edges only and the given bye."""
    pc = cost_matrix(ri)
    n = len(pc.players)
    m = n + n % 2
    allowed = np.zeros((m, m), dtype=np.bool_)
    allowed[:n, :n] = pc.allowed & ~pc.rematch
    upper = np.zeros((m, m), dtype=np.int64)
    upper[:n, :n] = pc.upper
    breaks = np.zeros((m, m), dtype=np.int64)
    breaks[:n, :n] = pc.breaks
    colour = np.zeros((m, m), dtype=np.int64)
    colour[:n, :n] = pc.colour
    if m > n:
        k = next(i for i, p in enumerate(pc.players) if p.id == bye)
        allowed[k, n] = allowed[n, k] = True
        upper[k, n] = upper[n, k] = pc.bye[k]
    c1 = int(colour.max()) * (m // 2) + 1
    c2 = (2 * c1 + int(colour.max())) * (m // 2) + 1
    composite = upper * c2 + breaks * c1 + colour
    pairs = min_weight_perfect_matching(composite, allowed, method="networkx")
    return tier_key(pc, pairs)


@pytest.mark.parametrize("method", ["exact", "networkx"])
def test_colour_tier_on_a_larger_field_against_networkx(method: str) -> None:
    # 41 players, 9 rounds: every round's pairing ranks as networkx's on one composite
    # cost, so each third colour or difference beyond 2 left is forced by the pairings
    # best on the other terms.
    events = play_rounds(41, 9, 0, method=method, draw=0.1)
    for ri, pairing in events:
        if pairing is None or ri.round_no < 2:
            continue
        pc = cost_matrix(ri)
        bye = next((t.black for t in pairing.tables if t.white == BYE), None)
        assert tier_key(pc, index_pairs(pairing, pc)) == _networkx_reference(ri, bye), \
            ri.round_no


def test_composite_and_tiebreak_orders_give_the_same_pairings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The exact order is solved as one composite cost when it fits, else as a cost and a
    # tiebreak: the same pairings either way (odd and even fields, bye tier included).
    from gameopt.pairing import pairer

    rounds = [ri for n in (20, 21) for ri, _ in play_rounds(n, 6, n, method="exact")]
    composite = [pair_round(ri) for ri in rounds]
    assert all(p.stats["order"] == "composite" for p in composite)
    monkeypatch.setattr(pairer, "MAX_COST", 0)
    tiebreak = [pair_round(ri) for ri in rounds]
    assert all(p.stats["order"] == "tiebreak" for p in tiebreak)
    assert [p.tables for p in composite] == [p.tables for p in tiebreak]
