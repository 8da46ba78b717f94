"""benchmarks/bench_reversi_table.py: its table, and bad arguments in one line."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_reversi_table as module
    yield module
    sys.modules.pop("bench_reversi_table", None)


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
