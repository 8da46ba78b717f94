"""benchmarks/bench_reversi_book_worth.py: the self-play row without Zebra, the paired
difference, and bad arguments in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from gameopt.reversi.match import GameRecord, match_stats


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_book_worth")


def test_without_zebra_it_plays_the_self_play_row(bench: ModuleType, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--plies", "2", "--depth", "1", "-n", "2", "--workers", "1",
                       "--peers", str(tmp_path / "none"), "--zebra-dir", str(tmp_path / "z"),
                       "--games", str(tmp_path / "g")]) == 0
    cap = capsys.readouterr()
    assert "Zebra rows skipped: Zebra is not available" in cap.err
    rows = [line for line in cap.out.splitlines() if line.startswith("| book ")]
    assert len(rows) == 1 and "| 4 " in rows[0]  # 2 openings x 2 colours
    assert "gameopt reversi book openings --plies 2" in cap.out
    assert (tmp_path / "g" / "book-nobook.ggf").is_file()


def _result(points: list[float]) -> object:
    diff = {1.0: 2, 0.5: 0, 0.0: -2}
    games = [GameRecord(f"op{i // 2}", i % 2 == 0, (), diff[p] if i % 2 == 0 else -diff[p])
             for i, p in enumerate(points)]
    return match_stats("a", "b", games)


def test_paired_difference(bench: ModuleType) -> None:
    a = _result([1, 1, 1, 0, 0.5, 0.5])
    b = _result([1, 0, 0, 0, 0.5, 0.5])
    mean, lo, hi = bench.paired(a, b)
    assert mean == pytest.approx(50 * (1 + 1 + 0) / 3)  # pair points 2-1, 1-0, 1-1
    assert lo < mean < hi
    with pytest.raises(ValueError, match="other openings"):
        bench.paired(a, match_stats("a", "b", [GameRecord("x", True, (), 2)] * 6))


def test_bad_arguments_are_one_line(bench: ModuleType, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    for argv, words in ((["--depth", "0"], "--depth 1..20, --workers >= 1, -n >= 1"),
                        (["--plies", "40"], "no book position 12 plies from the start")):
        with pytest.raises(SystemExit) as e:
            bench.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert words in err[-1] and err[-1].count("error:") == 1
