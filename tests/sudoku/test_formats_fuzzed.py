"""Puzzle text the issue and the fuzzing (benchmarks/fuzz) found misread."""

from __future__ import annotations

import pytest

from gameopt.errors import InvalidInputError
from gameopt.sudoku import Puzzle, parse_puzzles


@pytest.mark.parametrize("text, match", [
    ("١" + "0" * 80, r"unknown character '١' at r1c1"),     # Arabic-Indic one was read as 1
    ("２" + "0" * 80, r"unknown character '２' at r1c1"),     # fullwidth two was read as 2
    (" ".join(["0"] * 80 + ["²"]), r"unknown character '²' at r9c9"),
    (",".join(["0"] * 80 + ["9" * 5000]), r"value '999999999999'\.\.\. at r9c9 is out of"),
])
def test_only_ascii_digits_are_values(text: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Puzzle.from_string(text, name="p")


def test_lloyd_amos_line_names_the_bad_value() -> None:
    # was: "511 cells is not a square grid" (the line read one character per cell)
    line = "20;24;" + ",".join(["0"] * 40 + ["x"] + ["0"] * 40)
    with pytest.raises(InvalidInputError, match=r"f\.txt:1 \(20% #24\): unknown character "
                                                r"'x' at r5c5 \(cell 41\)"):
        parse_puzzles(line, "f.txt")


def test_lloyd_amos_line_still_reads() -> None:
    (p,) = parse_puzzles("20;24;" + ",".join(["0"] * 80 + ["7"]), "f.txt")
    assert p.cells[80] == 7 and p.givens == 1


def test_csv_with_a_giant_field() -> None:
    text = 'puzzle,solution\n"' + "1" * 200_000 + '",x\n'
    with pytest.raises(InvalidInputError, match=r"^f\.csv: not CSV \(field larger than"):
        parse_puzzles(text, "f.csv")


def test_csv_header_that_csv_splits_otherwise() -> None:
    # found by the long fuzz run: str.splitlines cuts at U+2028, csv does not, so the
    # header check passed and csv's header row had no 'puzzle' (ValueError from .index)
    with pytest.raises(InvalidInputError, match=r"^f\.csv:1: CSV header .* has no 'puzzle'"):
        parse_puzzles("puzzle\u2028x,y\n1,2\n", "f.csv")
