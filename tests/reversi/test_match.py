"""Match runner: openings, paired games, statistics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gameopt.core import Limit
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import Board
from gameopt.reversi.match import (
    GameRecord,
    Player,
    make_openings,
    match_stats,
    play_game,
    read_openings,
    run_match,
    write_openings,
)
from gameopt.reversi.search import search


def test_openings_are_distinct_legal_balanced_and_seeded(tmp_path: Path) -> None:
    ops = make_openings(6, plies=4, seed=3, depth=2, max_abs=3.0)
    assert len(set(ops)) == 6 and ops == make_openings(6, plies=4, seed=3, depth=2,
                                                       max_abs=3.0)
    for op in ops:
        assert len(op) == 8
        assert abs(search(Board.from_moves(op), Limit(depth=2)).score) <= 3.0
    write_openings(tmp_path / "o.txt", ops)
    assert read_openings(tmp_path / "o.txt") == ops


def test_read_openings_names_the_bad_line(tmp_path: Path) -> None:
    f = tmp_path / "o.txt"
    f.write_text("# comment\nf5d6\nf5f5\n")
    with pytest.raises(InvalidInputError, match=r"o.txt:3"):
        read_openings(f)
    with pytest.raises(InvalidInputError, match="no such file"):
        read_openings(tmp_path / "missing.txt")


def test_game_replays_to_its_result() -> None:
    moves, diff = play_game(Player("a", depth=2), Player("b", depth=1), "f5d6c3")
    board = Board.from_moves("f5d6c3")
    for m in moves:
        board = board.play(m)
    assert board.is_game_over()
    assert diff == (board.score() if board.side == "X" else -board.score())


def test_same_engine_both_colours_scores_exactly_half() -> None:
    """A deterministic engine against itself: each pair of games cancels exactly."""
    ops = ["f5d6c3d3c4", "f5f6e6f4", "f5d6c5f4e3"]
    res = run_match(Player("a", depth=2, end_empties=8), Player("b", depth=2, end_empties=8),
                    ops, workers=1)
    assert len(res.games) == 6 and [g.a_black for g in res.games] == [True, False] * 3
    assert res.score == 0.5 and res.z == 0.0 and res.p_value == 1.0 and res.elo == 0.0
    assert res.wins == res.losses


def test_stronger_setting_wins_more() -> None:
    ops = make_openings(4, plies=4, seed=1, depth=2, max_abs=4.0)
    res = run_match(Player("deep", depth=3), Player("shallow", depth=1), ops, workers=1)
    assert res.wins + res.draws + res.losses == 8
    assert res.score > 0.5


def _rec(a_black: bool, black_diff: int) -> GameRecord:
    return GameRecord("f5", a_black, (), black_diff)


def test_stats_formulas() -> None:
    # pairs: A wins both (2), wins one (1), draws both (1), loses both (0)
    games = [_rec(True, 10), _rec(False, -4), _rec(True, 6), _rec(False, 2),
             _rec(True, 0), _rec(False, 0), _rec(True, -8), _rec(False, 8)]
    r = match_stats("A", "B", games)
    assert (r.wins, r.draws, r.losses) == (3, 2, 3)
    assert r.mean_diff == pytest.approx((10 + 4 + 6 - 2 + 0 + 0 - 8 - 8) / 8)
    pts = [2.0, 1.0, 1.0, 0.0]
    m = sum(pts) / 4
    s = math.sqrt(sum((x - m) ** 2 for x in pts) / 3)
    se = s / (2 * 2)
    assert r.score == pytest.approx(m / 2)
    assert r.score_ci == pytest.approx((m / 2 - 1.96 * se, m / 2 + 1.96 * se))
    assert r.z == pytest.approx((m / 2 - 0.5) / se)
    assert r.elo == pytest.approx(0.0)
    wins = match_stats("A", "B", [_rec(True, 2), _rec(False, -2)] * 3)
    assert wins.score == 1.0 and wins.elo == math.inf and wins.p_value == 0.0


def test_bad_arguments() -> None:
    with pytest.raises(InvalidInputError, match="pairs"):
        match_stats("A", "B", [_rec(True, 1)])
    with pytest.raises(InvalidInputError, match="same|named"):
        run_match(Player("x"), Player("x"), ["f5"], workers=1)
    with pytest.raises(InvalidInputError, match="depth=N"):
        Player.from_spec("depth=4,speed=9", "A")
    assert Player.from_spec("end=10, depth=3", "A") == Player("A", depth=3, end_empties=10)
    with pytest.raises(InvalidInputError, match=r"only \d of 3"):
        make_openings(3, plies=2, seed=0, depth=1, max_abs=0.0, max_tries=1)
