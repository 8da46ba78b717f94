"""benchmarks/bench_reversi_judge.py draws its positions with the move sequences that
reach them (Zebra is given the sequence, gameopt the board: they must agree)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from gameopt.reversi import Board
from gameopt.reversi.board import parse_moves
from gameopt.reversi.match import Player, run_match

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_positions_replay_from_their_sequences_within_the_empties_range(
        load_bench: Callable[[str], ModuleType]) -> None:
    bench = load_bench("bench_reversi_judge")

    res = run_match(Player.from_spec("depth=1", "one"), Player.from_spec("depth=2", "two"),
                    ["f5d6c3", "f5f6e6f4"], workers=1)
    games = [(Board.start(), tuple(parse_moves(g.opening)) + g.moves) for g in res.games]
    pos = bench.positions(games, 20, 40)
    assert len(pos) > 4 * 10  # each game passes through 20..40 empties
    for board, seq in pos:
        assert 20 <= board.empties <= 40 and len(board.legal_moves()) > 1
        replay = Board.start()
        for m in parse_moves(seq):
            replay = replay.play(m)
        assert replay == board
        assert seq == seq.lower() and len(seq) == 2 * (60 - board.empties)
    assert len(bench.positions(games, 17, 52)) > len(pos)


def test_zebra_move_reads_the_bestmove_line_and_gives_none_without_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        load_bench: Callable[[str], ModuleType]) -> None:
    import subprocess

    bench = load_bench("bench_reversi_judge")

    calls: list[list[str]] = []

    def fake(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        calls.append(argv)
        out = "" if argv[-1] == "f5d6" else "-->  12  c3  -1.20\nBESTMOVE c3\n"
        return subprocess.CompletedProcess(argv, 0, out, "")

    monkeypatch.setattr(bench.subprocess, "run", fake)
    move = bench.zebra_move(tmp_path, "f5", 8)
    assert move is not None and str(move).lower() == "c3"
    assert bench.zebra_move(tmp_path, "f5d6", 8) is None
    # depth 8 plays exact from 16 empties, as the strength benchmark's adapter does
    assert calls[0][calls[0].index("-l") + 1:calls[0].index("-l") + 7] == \
        ["8", "16", "16", "8", "16", "16"]


def test_zebra_cand_refuses_a_weights_candidate_of_the_same_name() -> None:
    import subprocess

    weights = Path(__file__).resolve().parents[2] / "src/gameopt/reversi/data/weights.npz"
    r = subprocess.run([sys.executable, str(BENCH / "bench_reversi_judge.py"), "-n", "4",
                        "--cand", f"zebra={weights}", "--zebra-cand"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "--zebra-cand: the name 'zebra' is taken by a --cand" in r.stderr


def test_own_judge_does_not_need_zebra_but_the_zebra_judge_does(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        load_bench: Callable[[str], ModuleType]) -> None:
    """Without Zebra the benchmark skips (exit 0, saying why) when Zebra would judge or
    play; with ``--own-judge`` alone it goes on (here to the missing --ggf file: exit 2)."""
    bench = load_bench("bench_reversi_judge")

    monkeypatch.setattr(bench, "build_zebra", lambda peers, dest: (None, "not built here"))
    missing = tmp_path / "none.ggf"
    monkeypatch.setattr(sys, "argv", ["judge", "--ggf", str(missing)])
    assert bench.main() == 0
    assert "skipped: Zebra is not available (not built here)" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["judge", "--ggf", str(missing), "--own-judge", "6",
                                      "--zebra-cand"])
    assert bench.main() == 0
    assert "skipped" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["judge", "--ggf", str(missing), "--own-judge", "6"])
    with pytest.raises(SystemExit) as e:
        bench.main()
    assert e.value.code == 2 and f"--ggf {missing}" in capsys.readouterr().err
