"""Synthetic data: determinism, shape, realism, files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.deck.formats import read_collection, read_decks, read_pool
from gameopt.deck.pool import Rules, to_problem
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import RARITY_COST, SynthData, synthesize, write_synth
from gameopt.errors import InvalidInputError


@pytest.fixture(scope="module")
def data() -> SynthData:
    return synthesize(7, kinds=1500, collection=800, decks=6000, archetypes=15)


def test_same_seed_same_data(data: SynthData) -> None:
    again = synthesize(7, kinds=1500, collection=800, decks=6000, archetypes=15)
    assert again.pool.pieces == data.pool.pieces
    assert again.collection == data.collection
    np.testing.assert_array_equal(again.decks, data.decks)
    other = synthesize(8, kinds=1500, collection=800, decks=6000, archetypes=15)
    assert not np.array_equal(other.decks, data.decks)


def test_shapes_and_rules(data: SynthData) -> None:
    pool = data.pool
    assert len(pool) == 1500 and len(data.collection) == 800
    assert data.decks.shape == (6000, 16)
    data.collection.check(pool)
    chars = np.array([p.character for p in pool.pieces])
    assert len(np.unique(chars)) < len(pool)  # evolved forms share a character
    for p in pool.pieces:
        lo, hi = RARITY_COST[p.rarity]
        assert lo <= p.cost <= hi
    for row in data.decks[:500].tolist():
        assert len({pool[x].character for x in row}) == 16  # distinct characters
    assert {p.attribute for p in pool.pieces} == {"god", "demon", "dragon"}


def test_decks_follow_archetypes(data: SynthData) -> None:
    arch = data.archetype[np.searchsorted(np.array(data.pool.ids), data.decks)]
    lead = arch[:, 0]
    assert (lead >= 0).all()
    share = (arch[:, 1:] == lead[:, None]).mean()
    assert 0.5 < share < 0.95


def test_learnt_scores_favour_archetypes(data: SynthData) -> None:
    s = deck_scores(data.decks, data.pool.ids)
    a = data.archetype
    themed = a >= 0
    same = (a[:, None] == a[None, :]) & themed[:, None] & themed[None, :]
    np.fill_diagonal(same, False)
    across = (a[:, None] != a[None, :]) & themed[:, None] & themed[None, :]
    within, cross = float(s.R[same].mean()), float(s.R[across].mean())
    assert within > 20 * cross
    # the full path: scores -> problem over the owned pieces with an owned leader
    owned = set(data.collection.owned)
    leader = next(x for x in data.decks[:, 0].tolist() if x in owned)
    prob, ids = to_problem(data.pool, data.collection, Rules(cost_cap=230, leader=leader), s)
    assert prob.size == 15 and leader not in ids and prob.leader_scores is not None


def test_write_synth_round_trip(tmp_path: Path) -> None:
    d = synthesize(1, kinds=800, collection=300, decks=500, archetypes=10)
    paths = write_synth(tmp_path, d)
    pool = read_pool(paths["pool"])
    assert pool.pieces == d.pool.pieces
    assert read_collection(paths["collection"], pool) == d.collection
    np.testing.assert_array_equal(read_decks(paths["decks"], pool, size=16), d.decks)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["collection.csv", "decks.csv",
                                                          "pool.csv"]


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"kinds": 100}, r"synth: kinds=100 too few for 40 archetypes"),
    ({"kinds": 2000, "collection": 3000}, r"synth: collection=3000"),
    ({"seed": -1}, r"seed must be a non-negative integer"),
])
def test_bad_sizes(kwargs: dict[str, int], match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        synthesize(**kwargs)


@pytest.mark.parametrize(("kwargs", "match"), [
    # one archetype: no other archetype to draw 64 pieces from (was a raw ValueError)
    ({"kinds": 32, "archetypes": 1, "staples": 0.0}, None),
    # two small archetypes: fewer than 64 pieces in the other one (raw ValueError)
    ({"kinds": 64, "archetypes": 2, "staples": 0.0}, None),
    # most kinds staples: an archetype without pieces (raw ValueError: no leader)
    ({"kinds": 64, "archetypes": 2, "staples": 0.9, "seed": 1},
     r"^synth: archetype 1 drew no pieces with kinds=64, archetypes=2, staples=0.9: "),
])
def test_small_kinds_and_archetypes(kwargs: dict[str, float], match: str | None) -> None:
    args = {"collection": 20, "decks": 30, **kwargs}
    if match is None:
        data = synthesize(**args)  # type: ignore[arg-type]
        assert data.decks.shape == (30, 16)
        for row in data.decks.tolist():
            assert len({data.pool[x].character for x in row}) == 16
        return
    with pytest.raises(InvalidInputError, match=match) as err:
        synthesize(**args)  # type: ignore[arg-type]
    assert "\n" not in str(err.value)
