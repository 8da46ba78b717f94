"""FFO endgame benchmark: solve OBF positions and compare with the scores in the file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from gameopt.core import Limit, ProgressCallback
from gameopt.errors import InvalidInputError
from gameopt.reversi.files import ObfEntry, read_obf
from gameopt.reversi.search import SearchParams, SearchResult, solve

__all__ = ["FFO_FILES", "ffo_positions", "parse_range", "BenchRow", "run_ffo"]

#: FFO numbers held by each shared file
FFO_FILES = {"fforum-1-19.obf": 1, "fforum-20-39.obf": 20, "fforum-40-59.obf": 40,
             "fforum-60-79.obf": 60}


def parse_range(text: str) -> tuple[int, int]:
    """``'40-49' -> (40, 49)``; ``'40' -> (40, 40)``."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", text)
    if not m:
        raise InvalidInputError(f"--range {text!r}: expected A-B, e.g. 40-49")
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 1 <= a <= b <= 79:
        raise InvalidInputError(f"--range {text!r}: FFO positions are numbered 1..79")
    return a, b


def ffo_positions(data_dir: Path, first: int, last: int) -> Iterator[tuple[int, ObfEntry]]:
    """(FFO number, entry) for first..last, read from the shared OBF files in ``data_dir``."""
    if not data_dir.is_dir():
        raise InvalidInputError(f"--data {data_dir}: no such directory (the FFO files live in "
                                "../shared/data/reversi)")
    for name, base in FFO_FILES.items():
        if base > last or base + 19 < first:
            continue
        path = data_dir / name
        if not path.exists():
            raise InvalidInputError(f"{path}: missing FFO file")
        for i, entry in enumerate(read_obf(path)):
            if first <= base + i <= last:
                yield base + i, entry


@dataclass(frozen=True)
class BenchRow:
    """One FFO position solved: the result (its ``seconds`` on the CPU clock, kernel load
    excluded) and what the file expects."""

    number: int
    empties: int
    result: SearchResult
    expected_score: int | None
    expected_moves: tuple[str, ...]

    @property
    def seconds(self) -> float:
        return self.result.seconds

    @property
    def clock(self) -> str:
        return self.result.clock

    @property
    def correct(self) -> bool:
        return (self.result.score == self.expected_score
                and str(self.result.move).lower() in self.expected_moves)


def run_ffo(data_dir: Path, first: int, last: int, params: SearchParams | None = None,
            on_row: Callable[[BenchRow], None] | None = None,
            progress: ProgressCallback | None = None) -> list[BenchRow]:
    """Solve FFO ``first..last`` with ``params``; CPU seconds measured per position.

    ``progress`` is passed to each :func:`~gameopt.reversi.search.solve` (root moves).
    """
    rows = []
    for number, entry in ffo_positions(data_dir, first, last):
        r = solve(entry.board, Limit(clock="cpu"), params=params, progress=progress)
        row = BenchRow(number, entry.board.empties, r, entry.best_score,
                       tuple(str(m).lower() for m in entry.best_moves))
        rows.append(row)
        if on_row:
            on_row(row)
    return rows
