"""Match runner: openings, paired games, statistics."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gameopt.core import Limit
from gameopt.errors import InvalidInputError, SolverError
from gameopt.reversi.board import Board
from gameopt.reversi.files import read_ggf
from gameopt.reversi.match import (
    GameLog,
    GameRecord,
    MoveFn,
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
    assert res.score == 0.5 and res.p_value == 1.0 and res.elo == 0.0
    assert res.exact and math.isnan(res.z) and res.pentanomial == (0, 0, 3, 0, 0)
    lo, hi = res.score_ci  # all pairs alike: an exact interval, never zero width
    assert lo < 0.5 < hi and 0.5 - lo == pytest.approx(hi - 0.5)
    assert res.wins == res.losses


def test_stronger_setting_wins_more() -> None:
    ops = make_openings(4, plies=4, seed=1, depth=2, max_abs=4.0)
    res = run_match(Player("deep", depth=3), Player("shallow", depth=1), ops, workers=1)
    assert res.wins + res.draws + res.losses == 8
    assert res.score > 0.5


def _rec(a_black: bool, black_diff: int) -> GameRecord:
    return GameRecord("f5", a_black, (), black_diff)


def _games(points: list[float]) -> list[GameRecord]:
    """Pairs of games in which A scores ``points`` (0, 0.5, 1, 1.5, 2) per pair."""
    one = {1.0: 2, 0.5: 0, 0.0: -2}  # A's points in one game -> A's disc difference
    split = {0.0: (0.0, 0.0), 0.5: (0.5, 0.0), 1.0: (1.0, 0.0), 1.5: (1.0, 0.5),
             2.0: (1.0, 1.0)}
    out = []
    for x in points:
        first, second = split[x]
        out += [_rec(True, one[first]), _rec(False, -one[second])]
    return out


def _fishtest(counts: list[int]) -> tuple[float, float, float]:
    """Score and 95 % interval of the pentanomial model, computed apart: the pair score
    fractions with their frequencies, the population variance, 1.96 standard errors."""
    n = sum(counts)
    freq = [c / n for c in counts]
    outcomes = [0.0, 0.25, 0.5, 0.75, 1.0]
    mu = sum(f * o for f, o in zip(freq, outcomes, strict=True))
    var = sum(f * o * o for f, o in zip(freq, outcomes, strict=True)) - mu * mu
    half = 1.96 * math.sqrt(var) / math.sqrt(n)
    return mu, max(0.0, mu - half), min(1.0, mu + half)


def test_stats_formulas() -> None:
    # pairs: A wins both (2), wins one (1), draws both (1), loses both (0)
    games = [_rec(True, 10), _rec(False, -4), _rec(True, 6), _rec(False, 2),
             _rec(True, 0), _rec(False, 0), _rec(True, -8), _rec(False, 8)]
    r = match_stats("A", "B", games)
    assert (r.wins, r.draws, r.losses) == (3, 2, 3)
    assert r.pentanomial == (1, 0, 2, 0, 1) and not r.exact
    assert r.mean_diff == pytest.approx((10 + 4 + 6 - 2 + 0 + 0 - 8 - 8) / 8)
    # by hand: pair fractions 1, .5, .5, 0; mean .5; variance (.25 + 0 + 0 + .25)/4
    se = math.sqrt(0.125 / 4)
    assert r.score == pytest.approx(0.5)
    assert r.score_ci == pytest.approx((0.5 - 1.96 * se, 0.5 + 1.96 * se))
    assert r.z == pytest.approx(0.0) and r.p_value == pytest.approx(1.0)
    assert r.elo == pytest.approx(0.0)
    elo_hi = 400 * math.log10((0.5 + 1.96 * se) / (0.5 - 1.96 * se))
    assert r.elo_ci == pytest.approx((-elo_hi, elo_hi))
    assert f"Elo +0 (95% {-elo_hi:+.0f}..{elo_hi:+.0f})" in r.summary()
    assert "pairs 0/0.5/1/1.5/2: 1 0 2 0 1" in r.summary()


@pytest.mark.parametrize("counts", [[1, 3, 10, 5, 1], [0, 2, 7, 9, 6], [4, 0, 1, 0, 0],
                                    [3, 5, 2, 0, 0]])
def test_pentanomial_agrees_with_the_fishtest_formulas(counts: list[int]) -> None:
    points = [k / 2 for k, c in enumerate(counts) for _ in range(c)]
    r = match_stats("A", "B", _games(points))
    mu, lo, hi = _fishtest(counts)
    assert r.pentanomial == tuple(counts) and not r.exact
    assert r.score == pytest.approx(mu) and r.score_ci == pytest.approx((lo, hi))
    assert r.elo == pytest.approx(-400 * math.log10(1 / mu - 1))
    z = (mu - 0.5) / ((mu - lo if lo > 0 else hi - mu) / 1.96)
    assert r.z == pytest.approx(z)
    assert r.p_value == pytest.approx(2 * (1 - statistics.NormalDist().cdf(abs(z))))
    assert "inf" not in r.summary()


def test_all_won_gives_a_lower_bound_and_says_the_sample_is_too_small() -> None:
    for n, bound in [(3, 0.025 ** (1 / 3)), (20, 0.025 ** (1 / 20))]:
        r = match_stats("A", "B", _games([2.0] * n))
        # exact: n pairs all won have probability <= mean^n; 2.5 % at the bound
        assert bound ** n == pytest.approx(0.025)
        assert r.exact and r.score == 1.0 and r.score_ci == pytest.approx((bound, 1.0))
        assert r.elo == math.inf and r.elo_ci[1] == math.inf
        elo_lo = 400 * math.log10(bound / (1 - bound))
        assert r.elo_ci[0] == pytest.approx(elo_lo)
        assert r.p_value == pytest.approx(2 * 0.5 ** n)
        text = r.summary()
        assert (f"Elo > {elo_lo:+.0f} (95% lower bound; sample too small for an upper "
                "bound)") in text and "inf" not in text
    assert "Elo > +277 (95% lower bound" in match_stats("A", "B", _games([2.0] * 20)).summary()


def test_all_lost_gives_an_upper_bound() -> None:
    r = match_stats("A", "B", _games([0.0] * 5))
    top = 1 - 0.025 ** (1 / 5)
    assert r.score == 0.0 and r.score_ci == pytest.approx((0.0, top))
    elo_hi = 400 * math.log10(top / (1 - top))
    assert (f"Elo < {elo_hi:+.0f} (95% upper bound; sample too small for a lower bound)"
            in r.summary())


def test_all_pairs_alike_in_the_middle_never_give_a_zero_width_interval() -> None:
    r = match_stats("A", "B", _games([1.5] * 4))  # every pair: a win and a draw
    q = 1 - 0.025 ** (1 / 4)
    assert r.exact and r.score == 0.75
    assert r.score_ci == pytest.approx((0.75 * (1 - q), 0.75 + 0.25 * q))
    assert r.p_value == pytest.approx(min(1.0, 2 * (0.5 / 0.75) ** 4))
    assert "all 4 pairs alike, exact bounds" in r.summary() and "inf" not in r.summary()


def test_near_sweep_with_normal_interval_reaching_100_percent_says_so() -> None:
    r = match_stats("A", "B", _games([2.0, 2.0, 2.0, 1.5]))
    mu, lo, hi = _fishtest([0, 0, 0, 1, 3])
    assert hi == 1.0 and r.score_ci == pytest.approx((lo, 1.0)) and not r.exact
    text = r.summary()
    assert (f"Elo {400 * math.log10(mu / (1 - mu)):+.0f} (95% "
            f"{400 * math.log10(lo / (1 - lo)):+.0f}..no upper bound: sample too small for "
            "upper bound)") in text and "inf" not in text


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


def test_random_position_reaches_the_empties_with_a_move_to_play() -> None:
    from gameopt.reversi.match import random_position

    for seed in range(5):
        b = random_position(18, seed=seed)
        assert b.empties == 18 and b.moves_bitboard() != 0
    assert random_position(30, seed=7) == random_position(30, seed=7)
    assert len({random_position(40, seed=s) for s in range(6)}) > 1
    for bad in (0, 60, 2.5):
        with pytest.raises(InvalidInputError, match="random position: empties"):
            random_position(bad, seed=0)  # type: ignore[arg-type]


def test_game_log_writes_the_games_in_match_order_and_they_replay(tmp_path: Path) -> None:
    openings = ["f5d6c3", "f5f6e6f4"]
    a, b = Player.from_spec("depth=1", "one"), Player.from_spec("depth=2", "two")
    path = tmp_path / "m.ggf"
    with GameLog(path, a.name, b.name) as log:
        seen: list[GameRecord] = []

        def keep(g: GameRecord) -> None:
            seen.append(g)
            log.add(g)
            # Each finished game is in the part file, whole, as soon as it ends.
            assert len(read_ggf(log.part)) == len(seen)

        res = run_match(a, b, openings, workers=1, on_game=keep)
        assert not path.exists()
        log.finish(res)
    assert seen == list(res.games)
    assert not log.part.exists()
    games = read_ggf(path)
    assert len(games) == len(res.games) == 4
    for g, rec in zip(games, res.games, strict=True):
        assert g.tags["PB"] == ("one" if rec.a_black else "two")
        assert g.tags["PW"] == ("two" if rec.a_black else "one")
        board = g.final_board()
        assert board.is_game_over()
        assert board.black_score() == rec.black_diff == g.result
        assert "".join(str(m) for m in g.moves[:len(rec.opening) // 2]).lower() \
            == rec.opening.lower()


class Breaks:
    """A contestant that plays like ``depth=1`` for ``games`` games, then fails."""

    name = "breaks"

    def __init__(self, games: int) -> None:
        self.left = games
        self.inner = Player.from_spec("depth=1", "inner")

    @contextmanager
    def seat(self, game: int = 0) -> Iterator[MoveFn]:
        if self.left == 0:
            raise SolverError("breaks: engine gone")
        self.left -= 1
        with self.inner.seat() as move:
            yield move


def test_a_stopped_match_keeps_its_finished_games_in_the_part_file(tmp_path: Path) -> None:
    path = tmp_path / "m.ggf"
    path.write_text("old\n")
    with pytest.raises(SolverError, match="job index 3 of 4 failed: SolverError: breaks"), \
            GameLog(path, "breaks", "two") as log:
        run_match(Breaks(3), Player.from_spec("depth=1", "two"), ["f5d6c3", "f5f6e6f4"],
                  workers=1, on_game=log.add)
    assert path.read_text() == "old\n"  # the old file is left as it was
    kept = read_ggf(log.part)
    assert len(kept) == 3 and all(g.final_board().is_game_over() for g in kept)
    # No game finished: no part file either.
    with pytest.raises(SolverError), GameLog(tmp_path / "n.ggf", "breaks", "two") as log:
        run_match(Breaks(0), Player.from_spec("depth=1", "two"), ["f5d6c3"], workers=1,
                  on_game=log.add)
    assert not log.part.exists() and not (tmp_path / "n.ggf").exists()


def test_game_log_refuses_a_path_it_cannot_write_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"directory .*nowhere does not exist"):
        GameLog(tmp_path / "nowhere" / "m.ggf", "a", "b").__enter__()
    with pytest.raises(InvalidInputError, match=r"is a directory, not a games file"):
        GameLog(tmp_path, "a", "b").__enter__()
    assert list(tmp_path.iterdir()) == []
