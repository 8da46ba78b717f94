"""benchmarks/bench_reversi_midgame.py: the baseline it compares with (full width or a table)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from gameopt.reversi.probcut import SHIPPED_MPC


def _summary(load_bench: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    bench = load_bench("bench_reversi_midgame")
    monkeypatch.setattr(sys, "argv", ["bench", "-n", "2", "--depth", "7", *extra])
    assert bench.main() == 0
    return capsys.readouterr().out.strip().splitlines()[-1]


def test_the_baseline_is_full_width_or_the_table_it_is_given(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        load_bench: Callable[[str], ModuleType]) -> None:
    full = _summary(load_bench, monkeypatch, capsys)
    assert "MPC/full nodes" in full
    assert "MPC/full nodes 1.000" not in full  # the shipped table cuts at depth 7
    same = _summary(load_bench, monkeypatch, capsys, "--against", str(SHIPPED_MPC))
    # the same table on both sides: the same searches, node for node
    assert "MPC/against nodes 1.000" in same and "same move 2/2" in same
    assert "mean |score difference| 0.00" in same


def test_a_bad_table_is_one_line_naming_the_file(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        load_bench: Callable[[str], ModuleType], tmp_path: Path) -> None:
    bench = load_bench("bench_reversi_midgame")
    bad = tmp_path / "t.npz"
    bad.write_bytes(b"not a table")
    monkeypatch.setattr(sys, "argv", ["bench", "--against", str(bad)])
    assert bench.main() == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(bad) in err
