"""benchmarks/bench_reversi_zebra_time.py: the positions it times and the table it prints."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from gameopt.reversi.board import Board, parse_moves


def test_midgame_positions_are_those_a_match_thinks_on(
        load_bench: Callable[[str], ModuleType]) -> None:
    bench = load_bench("bench_reversi_zebra_time")
    moves = [str(m) for m in parse_moves("f5d6c3d3c4f4f6f3e6e7")]
    got = bench.midgame_positions([(Board.start(), moves)], exact=14, skip=8)
    # plies 9 and 10 of the line, each with its Zebra -seq and the board it leads to
    assert [seq for seq, _ in got] == ["f5d6c3d3c4f4f6f3", "f5d6c3d3c4f4f6f3e6"]
    assert got[1][1] == Board.from_moves("f5d6c3d3c4f4f6f3e6")
    assert bench.midgame_positions([(Board.start(), moves)], exact=55, skip=8) == []


def test_zebra_is_called_as_the_adapter_calls_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        load_bench: Callable[[str], ModuleType]) -> None:
    bench = load_bench("bench_reversi_zebra_time")
    calls: list[list[str]] = []

    def fake(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        calls.append(argv)
        ok = argv[-1] != "bad"
        return subprocess.CompletedProcess(argv, 0 if ok else 1,
                                           "BESTMOVE c3\n" if ok else "", "no")

    monkeypatch.setattr(bench.subprocess, "run", fake)
    assert bench.zebra_cpu(tmp_path, "f5", 19, 14) >= 0.0
    assert calls[0][1:] == ["-quiet", "-l", "19", "14", "14", "19", "14", "14", "-b", "0",
                            "-r", "0", "-evalone", "-seq", "f5"]
    with pytest.raises(RuntimeError, match="zebra failed .*'bad'"):
        bench.zebra_cpu(tmp_path, "bad", 19, 14)


def test_table_has_each_setting_and_zebras_thinking_time(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        load_bench: Callable[[str], ModuleType], tmp_path: Path) -> None:
    bench = load_bench("bench_reversi_zebra_time")
    monkeypatch.setattr(bench, "build_zebra", lambda peers, dest: (tmp_path, "faked"))
    monkeypatch.setattr(bench, "zebra_cpu", lambda zdir, seq, d, e: 0.05 + 0.01 * d)
    monkeypatch.setattr(sys, "argv", ["bench", "-n", "1", "--depths", "1,12",
                                      "--times", "0.02", "--max-positions", "3"])
    assert bench.main() == 0
    rows = {cells[0]: cells[1:] for cells in (
        [c.strip() for c in line.strip("|").split("|")]
        for line in capsys.readouterr().out.splitlines() if line.startswith("| "))}
    assert rows["Zebra depth 1"] == ["3", "0.060", "0.060", "0.060", "0.000"]
    assert rows["Zebra depth 12"] == ["3", "0.170", "0.170", "0.170", "0.110"]
    mine = rows["gameopt 0.02 s/move"]
    assert mine[0] == "3" and 0.0 < float(mine[1]) < 1.0 and mine[4] == ""


def test_skips_without_zebra_and_refuses_bad_lists(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        load_bench: Callable[[str], ModuleType]) -> None:
    bench = load_bench("bench_reversi_zebra_time")
    monkeypatch.setattr(bench, "build_zebra", lambda peers, dest: (None, "not built here"))
    monkeypatch.setattr(sys, "argv", ["bench"])
    assert bench.main() == 0
    assert "skipped: Zebra is not available (not built here)" in capsys.readouterr().err
    for bad in (["--depths", "1,x"], ["--depths", "12.5"], ["--times", "0"]):
        monkeypatch.setattr(sys, "argv", ["bench", *bad])
        with pytest.raises(SystemExit) as e:
            bench.main()
        assert e.value.code == 2
        assert bad[1] in capsys.readouterr().err
