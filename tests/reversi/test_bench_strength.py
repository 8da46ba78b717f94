"""benchmarks/bench_reversi_strength.py keeps the games it plays (issue 18)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gameopt.reversi.files import read_ggf
from gameopt.reversi.match import Player, run_match

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_games_are_written_as_ggf_that_replays_to_the_result(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_reversi_strength as bench

    openings = ["f5d6c3", "f5f6e6f4"]
    res = run_match(Player.from_spec("depth=1", "one"), Player.from_spec("depth=2", "two"),
                    openings, workers=1)
    path = tmp_path / "d1.ggf"
    bench.write_games(path, res)
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
    sys.modules.pop("bench_reversi_strength", None)
