"""benchmarks/bench_reversi_book.py: its table, and bad arguments in one line."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_book")


def test_it_compares_two_threads_with_one(bench: ModuleType,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--depth", "3", "--eval-depth", "2", "--width", "1", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line.split("|")[1:-1] for line in out.splitlines()
            if line.startswith("| 1 thread") or line.startswith("| 2 threads")]
    assert len(rows) == 2 and rows[0][1] == rows[1][1]  # the same number of positions
    assert rows[0][4].strip() == "1.00" and [r[5].strip() for r in rows] == ["yes", "yes"]
    assert "medians of 2 rounds" in out


def test_bad_arguments_are_one_line(bench: ModuleType,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        bench.main(["--workers", "1"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("--workers must be 2 or more and --rounds 1 or more")
