"""benchmarks/bench_reversi_paired.py: pairs by opening and colour, the paired difference."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi import PASS, Board
from gameopt.reversi.board import Move
from gameopt.reversi.files import GgfGame, write_ggf


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_paired")


def _line(seed: int, plies: int = 10) -> tuple[Move, ...]:
    """``plies`` uniformly random legal moves from the start (no game ends that soon)."""
    rng = np.random.default_rng(seed)
    b, moves = Board.start(), []
    for _ in range(plies):
        legal = b.legal_moves()
        mv = legal[int(rng.integers(len(legal)))]
        moves.append(mv)
        b = b.play(mv)
    assert PASS not in moves
    return tuple(moves)


def _game(line: tuple[Move, ...], gameopt_black: bool, points: float,
          name: str = "gameopt depth=8") -> GgfGame:
    """A record of ``line`` where ``name`` scored ``points`` (RE: Black's difference)."""
    mine = {1.0: 6, 0.5: 0, 0.0: -6}[points]
    black, white = (name, "Zebra d8") if gameopt_black else ("Zebra d8", name)
    return GgfGame(Board.start(), line, {"GM": "Othello", "PB": black, "PW": white,
                                         "RE": f"{mine if gameopt_black else -mine:+d}"})


def test_pairs_and_the_paired_difference(bench: ModuleType, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    o1, o2, o3 = _line(1), _line(2), _line(3)
    assert len({o1[:8], o2[:8], o3[:8]}) == 3
    # A: o1 won twice (2), o2 a win and a draw (1.5), o3 only with Black (unpaired)
    a = [_game(o1, True, 1.0), _game(o2, False, 0.5), _game(o1, False, 1.0),
         _game(o2, True, 1.0), _game(o3, True, 0.0)]
    # B: o1 a win and a loss (1), o2 lost twice (0), o3 complete (0.5)
    b = [_game(o1, True, 1.0), _game(o1, False, 0.0), _game(o2, True, 0.0),
         _game(o2, False, 0.0), _game(o3, True, 0.5), _game(o3, False, 0.0)]
    pa = bench.pairs(a, "gameopt", 8, "a.ggf")
    pb = bench.pairs(b, "gameopt", 8, "b.ggf")
    k1, k2, k3 = (("".join(map(str, o[:8])), 0) for o in (o1, o2, o3))
    assert pa.points == {k1: 2.0, k2: 1.5} and pa.unpaired == 1
    assert pb.points == {k1: 1.0, k2: 0.0, k3: 0.5} and pb.unpaired == 0
    n, mean, (lo, hi) = bench.paired_difference(pa, pb)
    diffs = [(2.0 - 1.0) / 2, (1.5 - 0.0) / 2]  # o3 is not complete in A
    half = 1.96 * float(np.std(diffs, ddof=1)) / math.sqrt(2)
    assert n == 2 and mean == pytest.approx(0.625)
    assert (lo, hi) == pytest.approx((0.625 - half, 0.625 + half))
    # an opening played twice forms two pairs, matched in file order
    twice = bench.pairs(a + [_game(o1, True, 0.0), _game(o1, False, 0.5)], "gameopt", 8, "x")
    assert twice.points[(k1[0], 1)] == 0.5
    # through the command line, the files as the strength benchmark writes them
    write_ggf(tmp_path / "a.ggf", a)
    write_ggf(tmp_path / "b.ggf", b)
    assert bench.main([str(tmp_path / "a.ggf"), str(tmp_path / "b.ggf")]) == 0
    out = capsys.readouterr().out
    assert "paired over 2 openings complete in both: A - B = +62.5 points" in out
    assert "87.5 %" in out and "25.0 %" in out  # A: 3.5 of 4 points; B: 1.5 of 6


def test_bad_files_are_one_line_and_exit_2(bench: ModuleType, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    line = _line(1)
    both = GgfGame(Board.start(), line, {"PB": "gameopt a", "PW": "gameopt b", "RE": "+2"})
    with pytest.raises(InvalidInputError, match=r"x.ggf: game 1: players 'gameopt a' and "
                                                r"'gameopt b': expected exactly one"):
        bench.pairs([both], "gameopt", 8, "x.ggf")
    short = GgfGame(Board.start(), line[:5], {"PB": "gameopt", "PW": "z", "RE": "+2"})
    with pytest.raises(InvalidInputError, match="x.ggf: game 1: 5 moves, fewer than the 8"):
        bench.pairs([short], "gameopt", 8, "x.ggf")
    unfinished = GgfGame(Board.start(), line, {"PB": "gameopt", "PW": "z"})
    with pytest.raises(InvalidInputError, match="x.ggf: game 1: no result"):
        bench.pairs([unfinished], "gameopt", 8, "x.ggf")
    write_ggf(tmp_path / "b.ggf", [_game(line, True, 1.0), _game(line, False, 1.0)])
    assert bench.main([str(tmp_path / "none.ggf"), str(tmp_path / "b.ggf")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.ggf" in err and "Traceback" not in err
