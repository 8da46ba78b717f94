"""The Dutch-like halves term in the exact order: ranked with the colour cost, below the
colour tier, so switching it on never costs a float, a rematch, a country clash, a bye
place or a colour-tier break; checked on every round of seeded events against an
enumeration of all legal pairings."""

from __future__ import annotations

import pytest

from gameopt.pairing.model import BYE
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import PAPP_TERMS, PenaltyParams, cost_matrix
from tests.pairing.instances import all_matchings, index_pairs, play_rounds, tier_key

HALVES = PenaltyParams(terms=PAPP_TERMS | {"halves"}, p_halves=5)


@pytest.mark.parametrize("n", [9, 10])
def test_halves_is_below_the_colour_tier_and_exact(n: int) -> None:
    compared = differ = 0
    for seed in range(2):
        for ri, _ in play_rounds(n, n - 3, seed, method="exact", params=HALVES):
            if ri.round_no < 2 or ri.round_no > n - 3:
                continue
            pc = cost_matrix(ri, HALVES)
            on = pair_round(ri, HALVES)
            off = pair_round(ri, PenaltyParams(terms=PAPP_TERMS))
            if any(pc.rematch[u, v] for u, v in index_pairs(on, pc) if v < n):
                continue
            ours = tier_key(pc, index_pairs(on, pc))
            bye = next((t.black for t in on.tables if t.white == BYE), None)
            best = min(tier_key(pc, m) for m in all_matchings(list(range(n + n % 2)))
                       if all((v == n and pc.players[u].id == bye)
                              or (v < n and pc.allowed[u, v] and not pc.rematch[u, v])
                              for u, v in m))
            assert ours == best, (n, seed, ri.round_no)
            # the upper levels are those of the pairing without the term
            assert ours[:2] == tier_key(pc, index_pairs(off, pc))[:2], (n, seed, ri.round_no)
            differ += index_pairs(on, pc) != index_pairs(off, pc)
            compared += 1
    assert compared >= 2 * (n - 5) and differ >= 1
