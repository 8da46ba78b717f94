"""benchmarks/bench_reversi_strength.py keeps the games it plays (issue 18)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from gameopt.reversi.files import read_ggf
from gameopt.reversi.match import Player, run_match


def test_games_are_written_as_ggf_that_replays_to_the_result(
        load_bench: Callable[[str], ModuleType], tmp_path: Path) -> None:
    bench = load_bench("bench_reversi_strength")

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
