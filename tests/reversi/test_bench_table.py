"""benchmarks/bench_reversi_table.py: its table, and bad arguments in one line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_table")


def test_it_compares_a_kept_table_with_a_new_one(bench: ModuleType,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bench", "-n", "1", "--depth", "4", "--time", "0.005"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| new") or
            line.startswith("| kept")]
    assert len(rows) == 2 and "1.000" in rows[0]
    assert "1 game lines" in out


def test_bad_arguments_are_one_line(bench: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bench", "--depth", "0"])
    assert bench.main() == 2
    err = capsys.readouterr().err
    assert "--depth 0" in err and len(err.strip().splitlines()) == 1
