"""Data model, to_problem and the pool / collection / scores files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.deck.formats import (
    read_collection,
    read_pool,
    read_scores,
    write_collection,
    write_pool,
    write_scores,
)
from gameopt.deck.pool import Collection, Piece, Pool, Rules, Scores, to_problem
from gameopt.errors import InvalidInputError

HEADER = "id,name,character,attribute,cost,rarity\n"


@pytest.fixture
def pool() -> Pool:
    return Pool((
        Piece(1, "lead", 10, "god", 20, "S"),
        Piece(2, "lead+", 10, "god", 25, "S"),  # evolved form of the leader
        Piece(3, "b", 11, "god", 10, "A"),
        Piece(4, "c", 12, "demon", 5, "C"),
        Piece(5, "d", 13, "dragon", 8, "B"),
        Piece(6, "e", 14, "god", 12, "A"),
    ))


@pytest.fixture
def scores() -> Scores:
    R = np.zeros((6, 6), dtype=np.float32)
    R[0, 2] = R[2, 0] = 3.0
    R[2, 3] = R[3, 2] = 1.5
    L = np.zeros((6, 6), dtype=np.float32)
    L[0, 4] = 7.0
    return Scores((1, 2, 3, 4, 5, 6), R, L)


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ------------------------------------------------------------------ to_problem


def test_to_problem_with_leader(pool: Pool, scores: Scores) -> None:
    coll = Collection((1, 2, 3, 4, 5))
    rules = Rules(size=4, cost_cap=50, attribute="god", attribute_min=2, must=(4,), leader=1)
    prob, ids = to_problem(pool, coll, rules, scores)
    assert ids == (3, 4, 5)  # leader and its evolved form (same character) removed
    assert prob.size == 3 and prob.cost_cap == 30 and prob.attribute_min == 1
    assert prob.cost.tolist() == [10, 5, 8]
    assert prob.attribute.tolist() == [1, 0, 0]
    assert prob.must == (1,)
    assert prob.R[0, 1] == pytest.approx(1.5)
    assert prob.leader_scores is not None
    assert prob.leader_scores.tolist() == [0.0, 0.0, 7.0]  # leader-conditioned (piece 5)


def test_to_problem_leader_row_of_R_without_table(pool: Pool, scores: Scores) -> None:
    plain = Scores(scores.ids, scores.R)
    prob, ids = to_problem(pool, Collection((1, 3, 4, 5)), Rules(size=3, leader=1), plain)
    assert ids == (3, 4, 5)
    assert prob.leader_scores is not None
    assert prob.leader_scores.tolist() == [3.0, 0.0, 0.0]


def test_to_problem_no_leader_no_scores(pool: Pool) -> None:
    prob, ids = to_problem(pool, Collection((3, 4, 5, 6)), Rules(size=3))
    assert ids == (3, 4, 5, 6) and prob.size == 3 and prob.leader_scores is None
    assert not prob.R.any() and prob.character.tolist() == [0, 1, 2, 3]


def test_to_problem_char_limit_two_keeps_leader_character(pool: Pool) -> None:
    _, ids = to_problem(pool, Collection((1, 2, 3)), Rules(size=2, char_limit=2, leader=1))
    assert ids == (2, 3)


def _owned_pool() -> tuple[Pool, Collection]:
    """Leader 1 (character 10) and three more of its character, plus three others."""
    pieces = [Piece(1, "lead", 10, "god", 1, "S")]
    pieces += [Piece(i, f"lead{i}", 10, "god", 1, "S") for i in (2, 3, 4)]
    pieces += [Piece(i, f"p{i}", 10 + i, "demon", 1, "C") for i in (5, 6, 7)]
    return Pool(tuple(pieces)), Collection(tuple(p.id for p in pieces))


@pytest.mark.parametrize(("limit", "most"), [(1, 0), (2, 1), (3, 2)])
def test_leader_uses_one_place_of_its_character_limit(limit: int, most: int) -> None:
    from gameopt.deck.build import build_deck
    from gameopt.deck.verify import is_feasible

    pool, coll = _owned_pool()
    ids = tuple(p.id for p in pool.pieces)
    R = np.zeros((7, 7), np.float32)
    R[:4, :4] = 10.0  # the leader's character combos with itself: the limit must bind
    np.fill_diagonal(R, 0.0)
    rules = Rules(size=4, char_limits={10: limit}, char_limit=1, leader=1)
    prob, pids = to_problem(pool, coll, rules, Scores(ids, R))
    deck = build_deck(prob, "vds", seed=0)
    assert is_feasible(prob, deck.deck)
    same = sum(1 for i in deck.deck if pool[pids[i]].character == 10)
    assert same == most  # leader + `most` others = the limit


@pytest.mark.parametrize(("coll", "rules", "match"), [
    ((2, 3, 4), Rules(size=2, leader=1), r"leader: piece 1 is not in the collection"),
    ((1, 3, 4), Rules(size=2, must=(5,)), r"must: piece 5 is not in the collection"),
    ((1, 3, 4), Rules(size=2, leader=99), r"rules: unknown piece id 99"),
    ((1, 3, 77), Rules(size=2), r"id: collection entry 2 is unknown piece id 77"),
    ((1, 3, 4), Rules(size=2, leader=1, cost_cap=10), r"leader: piece 1 costs 20, over"),
    ((1, 2, 3, 4), Rules(size=2, leader=1, must=(2,)), r"must: piece 2 shares the leader"),
])
def test_to_problem_errors(pool: Pool, coll: tuple[int, ...], rules: Rules, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        to_problem(pool, Collection(coll), rules)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"size": 0}, r"size: deck size 0"),
    ({"char_limit": 0}, r"char_limit: 0"),
    ({"char_limits": {3: 0}}, r"char_limits: character 3 has limit 0"),
    ({"attribute": "angel"}, r"attribute: 'angel' is not one of god"),
    ({"attribute": "god", "attribute_min": 17}, r"attribute_min: 17 outside 0..16"),
    ({"attribute_min": 3}, r"attribute_min: given without an attribute"),
    ({"must": (1, 1)}, r"must: repeated ids"),
])
def test_rules_errors(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_value_type_errors() -> None:
    with pytest.raises(InvalidInputError, match=r"cost: piece 1 has negative cost -1"):
        Piece(1, "a", 1, "god", -1, "C")
    with pytest.raises(InvalidInputError, match=r"attribute: 'fire' of piece 1"):
        Piece(1, "a", 1, "fire", 1, "C")
    p = Piece(1, "a", 1, "god", 1, "C")
    with pytest.raises(InvalidInputError, match=r"id: duplicate piece id 1 \(pieces 0 and 1\)"):
        Pool((p, p))
    with pytest.raises(InvalidInputError, match=r"id: piece 3 appears twice in the collection"):
        Collection((3, 4, 3))


@pytest.mark.parametrize(("R", "match"), [
    (np.zeros((2, 3)), r"R: matrix of shape \(2, 3\), expected \(3, 3\)"),
    (np.array([[0, 1, 0], [2, 0, 0], [0, 0, 0]]), r"R: not symmetric at row 0, column 1"),
    (np.array([[0, np.nan, 0], [np.nan, 0, 0], [0, 0, 0]]), r"R: row 0, column 1 is nan"),
])
def test_scores_errors(R: np.ndarray, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Scores((1, 2, 3), R)


def test_scores_are_checked_in_blocks_and_tiles_the_same_as_whole() -> None:
    # the checks run over blocks of entries and tiles (a 16,384-piece matrix took 25 CPU s
    # and 5.7 GB through whole-matrix float64 temporaries): the first bad entry is still
    # named, also in a later block or tile, and a symmetric matrix comes back unchanged
    from gameopt.deck.pool import SYM_TILE
    from gameopt.deck.problem import CHECK_BLOCK

    k = 1100
    assert k * k > CHECK_BLOCK and k > 2 * SYM_TILE
    rng = np.random.default_rng(0)
    A = rng.random((k, k)).astype(np.float32)
    A = (A + A.T) / 2
    S = Scores(tuple(range(k)), A)
    expect = A.copy()
    np.fill_diagonal(expect, 0.0)
    assert S.R.dtype == np.float32 and np.array_equal(S.R, expect)
    assert S.R is not A and A[0, 0] != 0.0  # the caller's matrix is not changed
    for (i, j), match in [((1000, 5), r"R: row 1000, column 5 is nan"),
                          ((700, 1050), r"R: not symmetric at row 700, column 1050"),
                          ((1090, 600), r"R: not symmetric at row 600, column 1090")]:
        B = A.copy()
        B[i, j] = np.nan if "nan" in match else B[i, j] + 1
        with pytest.raises(InvalidInputError, match=match):
            Scores(tuple(range(k)), B)


def test_scores_duplicate_ids() -> None:
    with pytest.raises(InvalidInputError, match=r"ids: duplicate piece id 2"):
        Scores((1, 2, 2), np.zeros((3, 3)))


# ------------------------------------------------------------------ files


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_pool_round_trip(tmp_path: Path, pool: Pool, suffix: str) -> None:
    path = tmp_path / f"pool{suffix}"
    write_pool(path, pool)
    assert read_pool(path).pieces == pool.pieces


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_collection_round_trip(tmp_path: Path, pool: Pool, suffix: str) -> None:
    path = tmp_path / f"coll{suffix}"
    write_collection(path, Collection((5, 1, 3)))
    assert read_collection(path, pool).owned == (5, 1, 3)


@pytest.mark.parametrize(("name", "sparse"), [("s.npz", False), ("s.npz", True),
                                              ("s.csv", False)])
def test_scores_round_trip(tmp_path: Path, scores: Scores, name: str, sparse: bool) -> None:
    path = tmp_path / name
    write_scores(path, scores, sparse=sparse)
    back = read_scores(path)
    ids = back.ids
    sub = [scores.index[i] for i in ids]
    np.testing.assert_array_equal(back.R, scores.R[np.ix_(sub, sub)])
    if name.endswith(".npz"):
        assert back.ids == scores.ids and back.leader is not None
        np.testing.assert_array_equal(back.leader, scores.leader)


def test_scores_csv_with_pool_uses_pool_order(tmp_path: Path, pool: Pool) -> None:
    p = write(tmp_path, "s.csv", "a,b,score\n4,3,1.25\n")
    s = read_scores(p, pool)
    assert s.ids == pool.ids and s.R[2, 3] == s.R[3, 2] == pytest.approx(1.25)


def test_scores_npz_without_ids_uses_pool(tmp_path: Path, pool: Pool) -> None:
    p = tmp_path / "s.npz"
    np.savez(p, R=np.eye(6))
    assert read_scores(p, pool).ids == pool.ids
    np.savez(p, R=np.zeros((5, 5)))
    with pytest.raises(InvalidInputError, match=r"s.npz: R: matrix of shape \(5, 5\), "
                                                r"expected \(6, 6\)"):
        read_scores(p, pool)
    with pytest.raises(InvalidInputError, match=r"ids: missing"):
        read_scores(p)


@pytest.mark.parametrize(("arrays", "match"), [
    ({"ids": [1, 2, 77], "R": np.zeros((3, 3))}, r"ids: row 2 is unknown piece id 77"),
    ({"ids": [1, 2], "R": np.array([[0, 1], [2, 0]])}, r"R: not symmetric at row 0"),
    ({"ids": [1, 2], "R": np.array([[0, np.nan], [np.nan, 0]])}, r"R: row 0, column 1 is nan"),
    ({"ids": [1, 2], "rows": [0], "cols": [5], "vals": [1.0]},
     r"rows: triplet 0 \(0, 5\) outside 0..1"),
    ({"ids": [1, 2], "rows": [0, 1], "cols": [1, 0], "vals": [1.0, 2.0]},
     r"vals: not symmetric at row 0, column 1"),
    ({"ids": [1, 2], "rows": [0], "cols": [1], "vals": [np.nan]}, r"vals: triplet 0 is nan"),
    ({"ids": [1, 2]}, r"R: neither a dense R nor"),
])
def test_scores_npz_errors(tmp_path: Path, pool: Pool, arrays: dict[str, object],
                           match: str) -> None:
    p = tmp_path / "bad.npz"
    np.savez(p, **arrays)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=match):
        read_scores(p, pool)


def test_scores_npz_not_a_zip(tmp_path: Path) -> None:
    p = write(tmp_path, "bad.npz", "hello")
    with pytest.raises(InvalidInputError, match=r"bad.npz: not an NPZ file"):
        read_scores(p)


@pytest.mark.parametrize(("body", "match"), [
    ("1,2,0.5\n3,9,1\n", r"s.csv:3: b: unknown piece id 9"),
    ("1,2,0.5\n2,1,0.7\n", r"s.csv:3: score: 0.7 for \(2, 1\) but 0.5 at .*s.csv:2 "
                           r"\(not symmetric\)"),
    ("1,2,nan\n", r"s.csv:2: score: 'nan' is not finite"),
    ("1,2,1e39\n", r"s.csv:2: score: '1e39' is not finite or is over 1e\+15 in size"),
    ("1,2,x\n", r"s.csv:2: score: 'x' is not a number"),
    ("1,1,2\n", r"s.csv:2: b: a piece paired with itself \(1\)"),
    ("1,q,2\n", r"s.csv:2: b: 'q' is not an integer"),
])
def test_scores_csv_errors(tmp_path: Path, pool: Pool, body: str, match: str) -> None:
    p = write(tmp_path, "s.csv", "a,b,score\n" + body)
    with pytest.raises(InvalidInputError, match=match):
        read_scores(p, pool)


@pytest.mark.parametrize(("body", "match"), [
    ("1,a,1,god,5,C\n1,b,2,god,5,C\n", r"pool.csv:3: id: duplicate piece id 1 \(first at "
                                       r".*pool.csv:2\)"),
    ("1,a,1,god,-5,C\n", r"pool.csv:2: cost: negative cost -5"),
    ("1,a,1,god,five,C\n", r"pool.csv:2: cost: 'five' is not an integer"),
    ("1,a,1,angel,5,C\n", r"pool.csv:2: attribute: 'angel' is not one of"),
    ("1,a,1,god,5,C\n2,,3,god,5,C\n", r"pool.csv:3: name: missing"),
    ("x,a,1,god,5,C\n", r"pool.csv:2: id: 'x' is not an integer"),
])
def test_pool_csv_errors(tmp_path: Path, body: str, match: str) -> None:
    p = write(tmp_path, "pool.csv", HEADER + body)
    with pytest.raises(InvalidInputError, match=match):
        read_pool(p)


def test_pool_csv_header_and_json_errors(tmp_path: Path) -> None:
    p = write(tmp_path, "pool.csv", "id,name,cost\n1,a,3\n")
    with pytest.raises(InvalidInputError, match=r"pool.csv:1: character: column missing"):
        read_pool(p)
    p = write(tmp_path, "pool.json", '{"pieces": [{"id": 1, "name": "a", "character": 1, '
              '"attribute": "god", "cost": -2, "rarity": "C"}]}')
    with pytest.raises(InvalidInputError, match=r"pool.json: pieces\[0\]: cost: negative"):
        read_pool(p)
    p = write(tmp_path, "pool.json", "[1]")
    with pytest.raises(InvalidInputError, match=r"pool.json: pieces\[0\]: expected an object"):
        read_pool(p)
    p = write(tmp_path, "pool.json", "{\n  oops")
    with pytest.raises(InvalidInputError, match=r"pool.json:2: not JSON"):
        read_pool(p)
    p = write(tmp_path, "pool.json", '{"other": []}')
    with pytest.raises(InvalidInputError, match=r"pool.json: pieces: expected a list"):
        read_pool(p)


@pytest.mark.parametrize(("name", "text", "match"), [
    ("c.csv", "id\n1\n42\n", r"c.csv:3: id: unknown piece id 42"),
    ("c.csv", "id\n1\n3\n1\n", r"c.csv:4: id: duplicate piece id 1 \(first at .*c.csv:2\)"),
    ("c.json", "[1, 2, 42]", r"c.json: owned\[2\]: id: unknown piece id 42"),
    ("c.json", '{"owned": [1, true]}', r"c.json: owned\[1\]: id: True is not an integer"),
])
def test_collection_errors(tmp_path: Path, pool: Pool, name: str, text: str,
                           match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        read_collection(write(tmp_path, name, text), pool)


def test_every_reader_has_the_one_file_error_wording(tmp_path: Path, pool: Pool) -> None:
    from gameopt.deck.formats import read_decks, read_mdp

    missing = tmp_path / "missing.csv"
    for reader, what in ((read_pool, "pool"), (lambda p: read_collection(p, pool), "collection"),
                         (read_scores, "scores"), (read_decks, "decks"),
                         (read_mdp, "MDP file")):
        with pytest.raises(InvalidInputError, match=f"^{what} .*missing.csv: no such file$"):
            reader(missing)
    with pytest.raises(InvalidInputError, match=r"^pool .*: is a directory"):
        read_pool(tmp_path)
    with pytest.raises(InvalidInputError, match=r"^scores .*s\.npz: no such file$"):
        read_scores(tmp_path / "s.npz")
    bad = write(tmp_path, "x.txt.gz", "3 2\n")
    with pytest.raises(InvalidInputError, match=r"^MDP file .*x\.txt\.gz: not gzip"):
        read_mdp(bad)
    with pytest.raises(InvalidInputError, match=r"collection .*: not utf-8 text"):
        (tmp_path / "c.csv").write_bytes(b"id\n\xff\n")
        read_collection(tmp_path / "c.csv", pool)
