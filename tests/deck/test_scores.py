"""Association scores from decks: hand-computed corpus, counts, deck files."""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from gameopt.deck.formats import read_decks, write_decks
from gameopt.deck.pool import Piece, Pool
from gameopt.deck.scores import ScoreParams, deck_scores, pair_counts
from gameopt.errors import InvalidInputError

# five two-piece decks, leader first: 1+2 twice, 3+4 twice, 1+3 once
TINY = [[1, 2], [1, 2], [3, 4], [3, 4], [1, 3]]
P = ScoreParams(alpha=0.5, beta=1.0)


def test_tiny_corpus_by_hand() -> None:
    s = deck_scores(TINY, params=P)
    assert s.ids == (1, 2, 3, 4)
    # N=5, n1=3, n2=2, n12=2: log((2+.5)·5 / ((3+.5)(2+.5))) · 2/(2+1)
    r12 = math.log(2.5 * 5 / (3.5 * 2.5)) * 2 / 3
    expect = np.zeros((4, 4))
    expect[0, 1] = expect[1, 0] = r12
    expect[2, 3] = expect[3, 2] = r12  # same counts for 3+4
    # 1+3: log(1.5·5 / (3.5·3.5)) < 0, clipped; never-together pairs are 0
    np.testing.assert_allclose(s.R, expect, rtol=1e-6)
    assert s.R.dtype == np.float32
    # leaders: 1 leads 3 decks, 3 leads 2; L[3, 4] = log(2.5·5 / (2.5·2.5)) · 2/3
    assert s.leader is not None
    L = np.zeros((4, 4))
    L[0, 1] = r12
    L[2, 3] = math.log(2.0) * 2 / 3
    np.testing.assert_allclose(s.leader, L, rtol=1e-6)


def test_ids_select_and_order_rows() -> None:
    s = deck_scores(TINY, ids=[4, 3, 9], params=P, leader=False)
    assert s.ids == (4, 3, 9) and s.leader is None
    full = deck_scores(TINY, params=P)
    assert s.R[0, 1] == full.R[3, 2]
    assert not s.R[2].any()  # an id never played scores 0


def test_pair_counts_match_brute_force() -> None:
    rng = np.random.default_rng(3)
    k = 30
    decks = np.array([rng.choice(k, size=6, replace=False) for _ in range(200)])
    n, a, b, nab = pair_counts(decks, k)
    C = np.zeros((k, k), dtype=np.int64)
    for row in decks.tolist():
        for x, y in combinations(row, 2):
            C[min(x, y), max(x, y)] += 1
    got = np.zeros((k, k), dtype=np.int64)
    got[a, b] = nab
    np.testing.assert_array_equal(got, C)
    np.testing.assert_array_equal(n, np.bincount(decks.ravel(), minlength=k))
    assert (a < b).all()


def test_score_params_and_bad_corpus() -> None:
    with pytest.raises(InvalidInputError, match=r"alpha=-1.*must be >= 0"):
        ScoreParams(alpha=-1)
    with pytest.raises(InvalidInputError, match=r"decks: need a non-empty"):
        deck_scores(np.zeros((0, 16), dtype=np.int64))


def test_decks_round_trip(tmp_path: Path) -> None:
    p = tmp_path / "decks.csv"
    write_decks(p, TINY)
    np.testing.assert_array_equal(read_decks(p), np.array(TINY))


@pytest.mark.parametrize(("text", "match"), [
    ("1,2\n# note\n\n3,x\n", r"decks.csv:4: id: 'x' is not an integer"),
    ("1,2\n3,4,5\n", r"decks.csv:2: deck: 3 ids, expected 2"),
    ("1,2\n3,3\n", r"decks.csv:2: id: piece 3 twice in one deck"),
    ("1,2\n1,8\n", r"decks.csv:2: id: unknown piece id 8"),
    ("# nothing\n", r"decks.csv: no decks"),
])
def test_read_decks_errors(tmp_path: Path, text: str, match: str) -> None:
    pool = Pool(tuple(Piece(i, f"p{i}", i, "god", 1, "C") for i in range(1, 6)))
    p = tmp_path / "decks.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=match):
        read_decks(p, pool)


def test_read_decks_expected_size(tmp_path: Path) -> None:
    p = tmp_path / "decks.csv"
    p.write_text("1,2\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"decks.csv:1: deck: 2 ids, expected 16"):
        read_decks(p, size=16)
