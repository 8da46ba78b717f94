"""benchmarks/bench_reversi_strength.py: the row options and the adapter log's totals."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_strength")


def test_time_and_clock_rows_parse(bench: ModuleType) -> None:
    assert bench.parse_time_rows("0.1:12, 1:21:20") == [(0.1, 12, None), (1.0, 21, 20)]
    assert bench.parse_time_rows("120:19:50", "--clock-rows", 3600.0) == [(120.0, 19, 50)]
    assert bench.parse_time_rows("") == []


@pytest.mark.parametrize("text, flag, limit, words", [
    ("2:x", "--clock-rows", 3600.0, "--clock-rows: '2:x' is not SECONDS:DEPTH"),
    ("120:19", "--time-rows", 60.0, "--time-rows: '120:19' out of range (0 < s <= 60"),
    ("9000:19", "--clock-rows", 3600.0, "out of range (0 < s <= 3600"),
    ("0:12", "--time-rows", 60.0, "out of range"),
    ("1:12:0", "--clock-rows", 3600.0, "openings >= 1"),
])
def test_bad_rows_are_named(bench: ModuleType, text: str, flag: str, limit: float,
                            words: str) -> None:
    with pytest.raises(ValueError) as e:
        bench.parse_time_rows(text, flag, limit)
    assert words in str(e.value)


def test_zebra_log_totals(bench: ModuleType, tmp_path: Path) -> None:
    log = tmp_path / "z.log"
    # empties, move, wall s, child CPU s (the adapter's --log): the CPU column counts
    log.write_text("52 e6 0.3447 0.3324 d19 e14\n14 a1 0.0400 0.0300 d19 e14\n"
                   "20 b2 1.2500 1.2000 d19 e14\n")
    assert bench.zebra_game_seconds(log) == pytest.approx(0.3324 + 0.03 + 1.2)
    assert bench.zebra_times(log, 14) == pytest.approx([0.3324, 1.2])
    assert bench.zebra_game_seconds(tmp_path / "absent.log") == 0.0


def test_skip_selects_the_openings_after_the_first_k(bench: ModuleType,
                                                     tmp_path: Path) -> None:
    f = tmp_path / "o.txt"
    f.write_text("# header\nf5 d6\nf5 f6\nf5 f4\nf5 d6 c3\n")
    assert bench.select_openings(f, 0, 2) == ["f5 d6", "f5 f6"]
    assert bench.select_openings(f, 1, 2) == ["f5 f6", "f5 f4"]
    assert bench.select_openings(f, 3, 100) == ["f5 d6 c3"]
    with pytest.raises(ValueError, match=r"--skip 4: expected 0 <= K < 4 \(the openings in "):
        bench.select_openings(f, 4, 1)
    with pytest.raises(ValueError, match="-n 0: expected at least 1 opening"):
        bench.select_openings(f, 0, 0)
