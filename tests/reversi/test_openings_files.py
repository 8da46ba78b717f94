"""The benchmark openings files: 100 legal 8-ply openings each, and no position twice,
within a file or across files, not even through a board symmetry or a transposition (the
later files exist to check choices on new games, so they must not replay the others)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameopt.reversi.board import Board
from gameopt.reversi.book import canonical
from gameopt.reversi.match import read_openings

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
FILES = sorted(DATA.glob("reversi-openings-8ply*.txt"))


def test_there_are_three_files() -> None:
    assert [f.name for f in FILES] == ["reversi-openings-8ply-b.txt",
                                       "reversi-openings-8ply-c.txt",
                                       "reversi-openings-8ply.txt"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_holds_100_legal_8_ply_openings(path: Path) -> None:
    lines = read_openings(path)
    assert len(lines) == 100
    assert all(len(x) == 16 and Board.from_moves(x).empties == 52 for x in lines)


#: the issue's own file reaches one position twice (c4c3c2b4c5b6e6f4 and, through a
#: symmetry, e6f6c4e3g6e7d6c7); it stays as it is, the baseline of every earlier row
KNOWN_REPEATS = {"reversi-openings-8ply.txt": 1}


def test_no_position_twice_across_the_files() -> None:
    seen: dict[tuple[int, int], str] = {}
    for path in FILES:
        repeats = 0
        for line in read_openings(path):
            key = canonical(Board.from_moves(line))[0]
            if key in seen:
                assert seen[key].startswith(path.name), f"{path.name}: {line} is {seen[key]}"
                repeats += 1
            seen[key] = f"{path.name}: {line}"
        assert repeats == KNOWN_REPEATS.get(path.name, 0), path.name
    assert len(seen) == 300 - sum(KNOWN_REPEATS.values())
