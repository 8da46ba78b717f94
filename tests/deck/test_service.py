"""DeckCatalogue: the indexed problem equals to_problem's, array for array, and so do decks."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import numpy as np
import pytest

from gameopt.deck import DeckCatalogue, DeckProblem, Rules, solve, to_problem
from gameopt.deck._gather_kernel import gather_square, scatter_square
from gameopt.deck.pool import Collection, Piece, Pool, Scores
from gameopt.deck.scores import deck_scores
from gameopt.deck.service import _FIELDS, gather_reference, recommend_job
from gameopt.deck.synth import synthesize
from gameopt.errors import InvalidInputError


@pytest.fixture(scope="module")
def data() -> tuple[Pool, Collection, Scores]:
    d = synthesize(3, kinds=1600, collection=600, decks=3000)
    # scores for 95% of the pool only: pieces without a row score 0
    ids = d.pool.ids[: int(len(d.pool) * 0.95)]
    keep = np.isin(d.decks, ids).all(axis=1)
    return d.pool, d.collection, deck_scores(d.decks[keep], ids)


@pytest.fixture(scope="module")
def cat(data: tuple[Pool, Collection, Scores]) -> DeckCatalogue:
    return DeckCatalogue(data[0], data[2])


def same_problem(a: DeckProblem, b: DeckProblem) -> None:
    assert {f.name for f in dataclasses.fields(DeckProblem)} == _FIELDS
    for f in dataclasses.fields(DeckProblem):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            assert isinstance(x, np.ndarray) and isinstance(y, np.ndarray), f.name
            assert x.dtype == y.dtype and x.shape == y.shape, f.name
            assert np.array_equal(x, y), f.name
        else:
            assert x == y, f.name
    assert a.score_scale == b.score_scale and a.r_range == b.r_range


def rules_cases(coll: Collection, pool: Pool) -> list[Rules]:
    o = coll.owned
    lead = o[5]
    same_char = [p for p in o if pool[p].character == pool[lead].character and p != lead]
    return [
        Rules(),
        Rules(cost_cap=200, attribute="god", attribute_min=10, leader=lead),
        Rules(cost_cap=240, must=(o[1], o[2]), forbid=((o[3], o[4]), (lead, o[7])),
              leader=lead, char_limit=2, char_limits={pool[o[9]].character: 1}),
        Rules(size=10, attribute="dragon", attribute_min=3, forbid=((o[10], o[11]),)),
        Rules(leader=lead, char_limit=3, must=tuple(same_char[:1])),
    ]


@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("subset", ["all", "half"])
def test_catalogue_problem_equals_to_problem(data: Any, cat: DeckCatalogue, case: int,
                                             subset: str) -> None:
    pool, coll, scores = data
    owned = coll.owned if subset == "all" else coll.owned[::2] + coll.owned[1:60:2]
    rules = rules_cases(coll, pool)[case]
    if subset == "half" and not set(rules.must) | {rules.leader} <= set(owned) | {None}:
        owned = owned + tuple(p for p in (*rules.must, rules.leader)
                              if p is not None and p not in owned)
    old, old_ids = to_problem(pool, Collection(owned), rules, scores)
    new, new_ids = cat.problem(owned, rules)
    assert tuple(new_ids.tolist()) == old_ids
    same_problem(new, old)
    a, b = solve(old, "vds", seed=1), solve(new, "vds", seed=1)
    assert a.deck == b.deck and a.score == b.score


def test_catalogue_with_leader_table_and_near_symmetric_scores() -> None:
    rng = np.random.default_rng(0)
    pool = Pool(tuple(Piece(100 + i, f"p{i}", i // 2, ("god", "demon", "dragon")[i % 3],
                            int(rng.integers(1, 20)), "C") for i in range(40)))
    R = rng.normal(size=(40, 40)).astype(np.float32)
    R = (R + R.T) / 2
    R[3, 4] += 5e-6  # symmetric within the tolerance, not exactly
    scores = Scores(tuple(reversed(pool.ids)), R, rng.normal(size=(40, 40)).astype(np.float32))
    cat = DeckCatalogue(pool, scores)
    for rules in (Rules(size=6, leader=100, cost_cap=60), Rules(size=5)):
        old, _ = to_problem(pool, Collection(pool.ids[::-1]), rules, scores)
        new, _ = cat.problem(pool.ids[::-1], rules)
        same_problem(new, old)
    none = DeckCatalogue(pool, None)
    old, _ = to_problem(pool, Collection(pool.ids), Rules(size=5, leader=101), None)
    same_problem(none.problem(pool.ids, Rules(size=5, leader=101))[0], old)


@pytest.mark.parametrize("owned, rules", [
    ((1, 2, 2), Rules()),
    ((1, 2, 99999), Rules()),
    ((1, 2, 3), Rules(leader=4)),
    ((1, 2, 3), Rules(must=(4,))),
    ((1, 2, 3), Rules(must=(99999,))),
    ((1, 2, 3), Rules(size=5)),
])
def test_catalogue_errors_match_to_problem(owned: tuple[int, ...], rules: Rules) -> None:
    pool = Pool(tuple(Piece(i, f"p{i}", i, "god", 5, "C") for i in range(1, 6)))
    cat = DeckCatalogue(pool, None)
    with pytest.raises(InvalidInputError) as old:
        to_problem(pool, Collection(owned), rules, None)
    with pytest.raises(InvalidInputError) as new:
        cat.problem(owned, rules)
    assert str(new.value) == str(old.value)


def test_gather_kernel_matches_reference() -> None:
    rng = np.random.default_rng(1)
    R = rng.random((30, 30), dtype=np.float32)
    rows = rng.integers(-1, 30, size=17).astype(np.int64)
    out = np.empty((17, 17), np.float32)
    gather_square(R, rows, out)
    assert np.array_equal(out, gather_reference(R, rows))
    assert (out[rows == -1] == 0).all()


def test_scatter_kernel_matches_reference() -> None:
    rng = np.random.default_rng(2)
    R = rng.random((40, 40), dtype=np.float32) * (rng.random((40, 40)) < 0.2)
    R = np.triu(R, 1) + np.triu(R, 1).T  # sparse, symmetric, zero diagonal
    nz = R != 0
    indptr = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int64)
    indices, data = np.nonzero(nz)[1].astype(np.int32), R[nz]
    for rows in (rng.permutation(40)[:23], np.array([-1, 5, 3, -1, 39, 0, 17])):
        rows = rows.astype(np.int64)
        pos = np.full(40, -1, dtype=np.int64)
        pos[rows[rows >= 0]] = np.flatnonzero(rows >= 0)
        out = np.full((len(rows), len(rows)), 7.0, np.float32)  # every entry overwritten
        scatter_square(indptr, indices, data, rows, pos, out)
        assert np.array_equal(out, gather_reference(R, rows))


def test_sparse_and_dense_catalogues_build_the_same_problem(data: Any,
                                                           cat: DeckCatalogue) -> None:
    pool, coll, scores = data
    dense = DeckCatalogue(pool, scores)
    dense._csr = None  # the gather path on the same scores
    assert cat._csr is not None  # learnt scores are sparse: the scatter path
    rules = rules_cases(coll, pool)[2]
    same_problem(cat.problem(coll.owned, rules)[0], dense.problem(coll.owned, rules)[0])


def test_shared_catalogue_attaches_to_the_same_arrays(data: Any) -> None:
    pool, coll, scores = data
    owner = DeckCatalogue(pool, scores)
    handle = owner.share()
    try:
        handle = pickle.loads(pickle.dumps(handle))  # what a worker receives
        worker = DeckCatalogue.attach(handle)
        rules = Rules(cost_cap=200, leader=coll.owned[5])
        same_problem(worker.problem(coll.owned, rules)[0], owner.problem(coll.owned, rules)[0])
        worker.close()
    finally:
        owner.close()


def test_recommend_job_gives_the_advice_or_the_error(data: Any) -> None:
    pool, coll, scores = data
    cat = DeckCatalogue(pool, scores)
    handle = cat.share()
    req = {"owned": list(coll.owned), "rules": {"cost_cap": 220, "leader": coll.owned[5]},
           "method": "vds", "seconds": None, "seed": 0, "explain": True}
    out = recommend_job((handle, req))
    try:
        direct = cat.recommend(coll.owned, Rules(cost_cap=220, leader=coll.owned[5]))
        assert out["deck"] == list(direct.deck) and out["score"] == direct.score
        assert sum(c["contribution"] for c in out["contributions"]) == pytest.approx(
            out["score"])
        assert out["cost"] <= 220 and out["leader"] == coll.owned[5]
        assert [r["rule"] for r in out["rules"]][:1] == ["cost cap"]
        bad = recommend_job((handle, {**req, "owned": [1, 1]}))
        assert bad["error"] == "InvalidInputError" and "twice" in bad["message"]
    finally:
        cat.close()


def test_a_character_limit_above_the_deck_size_is_the_deck_size(
        data: Any, cat: DeckCatalogue) -> None:
    """Found by fuzzing (`deck build --cost 0 --char-limit 42949672961`): to_problem raised
    OverflowError putting the limit into int32, and the catalogue wrapped it to 1."""
    pool, coll, scores = data
    lead = coll.owned[5]
    huge = Rules(leader=lead, char_limit=42949672961,
                 char_limits={pool[coll.owned[9]].character: 2**40})
    assert huge.char_limit == 16 and set(huge.char_limits.values()) == {16}
    same = Rules(leader=lead, char_limit=16, char_limits={pool[coll.owned[9]].character: 16})
    a, _ = to_problem(pool, coll, huge, scores)
    same_problem(a, to_problem(pool, coll, same, scores)[0])
    same_problem(cat.problem(coll.owned, huge)[0], a)


def test_a_search_watchdog_does_not_raise_the_callers_flag(
        data: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """bnb's deadline watchdog raises the flag of its limit at the time limit: with the
    caller's (a worker's) flag the explanation was skipped as if the client had gone,
    and the caller's flag stayed up."""
    import importlib

    from gameopt.core import Limit, StopFlag

    pool, coll, scores = data
    cat = DeckCatalogue(pool, scores)
    solve_mod = importlib.import_module("gameopt.deck.solve")
    real = solve_mod.solve

    def timed_out(problem: DeckProblem, method: str, *, limit: Limit | None = None,
                  **kwargs: Any) -> Any:
        r = real(problem, method, limit=None if limit is None
                 else Limit(time=limit.time, clock=limit.clock), **kwargs)
        if limit is not None and limit.stop is not None:
            limit.stop.set()  # as the watchdog does at the deadline
        return r

    monkeypatch.setattr(solve_mod, "solve", timed_out)
    flag = StopFlag()
    advice = cat.recommend(coll.owned, Rules(cost_cap=220), "vds",
                           limit=Limit(time=2.0, clock="cpu", stop=flag))
    assert not flag.is_set()
    assert advice.rules and advice.rules[0]["rule"] == "cost cap"
    assert {r["kind"] for r in advice.rules} <= {"proven", "estimate"}
