"""benchmarks/bench_reversi_where.py: charges that add up, against a brute-force check."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from gameopt.core import Limit
from gameopt.reversi import PASS, search, solve
from gameopt.reversi.files import GgfGame, write_ggf
from tests.reversi.positions import random_position


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_where")


def _game(seed: int) -> GgfGame:
    """A game from a random 16-empties position, played out by 1-ply searches (errors)."""
    start = random_position(seed, 16)
    b, moves = start, []
    while not b.is_game_over():
        mv = PASS if b.legal_moves() == [PASS] else search(b, Limit(depth=1)).move
        assert mv is not None
        moves.append(mv)
        b = b.play(mv)
    return GgfGame(start, tuple(moves), {"GM": "Othello", "PB": "gameopt a", "PW": "other"})


def test_charges_add_up_and_match_a_brute_force_loss(bench: ModuleType) -> None:
    for seed in range(3):
        g = _game(seed)
        line = bench.analyse_game(g, 16, 4, 60.0)
        assert line.unsolved == 0 and line.charges
        assert all(c.loss >= 0 for c in line.charges)  # exact values: no move gains
        first, last = max(line.black_values), min(line.black_values)
        # the losses, signed by side (gameopt a has Black), telescope to Black's first
        # solved value less the last
        black_loss = sum(c.loss * (1 if c.side == "gameopt a" else -1) for c in line.charges)
        assert black_loss == line.black_values[first] - line.black_values[last]
        # the first charged move, by brute force: best child value less the chosen one
        b = g.start
        for mv in g.moves:
            if b.empties == line.charges[0].empties and mv != PASS:
                break
            b = b.play(mv)
        values = {m: -solve(b.play(m)).score for m in b.legal_moves()}
        assert line.charges[0].loss == max(values.values()) - values[mv]


def test_table_and_bad_input(bench: ModuleType, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.ggf"
    write_ggf(path, [_game(0), _game(1)])
    monkeypatch.setattr(sys, "argv", ["bench", str(path), "--from", "14", "--to", "6"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "| gameopt" in out and "| others" in out and "2 games of g.ggf" in out
    assert "gameopt in 2 games solved at 14 empties" in out
    for argv, what in [([str(path), "--from", "5", "--to", "9"], "--from 5"),
                       ([str(tmp_path / "none.ggf")], "none.ggf"),
                       ([str(path), "--time-limit", "0"], "--time-limit 0")]:
        monkeypatch.setattr(sys, "argv", ["bench", *argv])
        assert bench.main() == 2
        err = capsys.readouterr().err
        assert what in err and len(err.strip().splitlines()) == 1
