from __future__ import annotations

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.sudoku.formats import parse_puzzles, read_puzzles
from gameopt.sudoku.grid import Puzzle, format_grid, format_lines

from .conftest import ARTICLE, ARTICLE_SOLUTION


def test_line_round_trip() -> None:
    p = Puzzle.from_string(ARTICLE)
    assert p.box == 3 and p.side == 9 and p.givens == 27
    assert p.to_line() == ARTICLE
    assert eval(repr(p), {"Puzzle": Puzzle}).to_line() == ARTICLE
    assert Puzzle.from_string(ARTICLE.replace(".", "0")).to_line() == ARTICLE


def test_multiline_grid_round_trip() -> None:
    p = Puzzle.from_string(ARTICLE)
    drawn = format_grid(p.cells, 3)
    assert "|" in drawn and Puzzle.from_string(drawn).to_line() == ARTICLE
    assert parse_puzzles(drawn + "\n", "grid.txt")[0].to_line() == ARTICLE


def test_sixteen_by_sixteen_in_numbers_and_letters() -> None:
    cells = np.zeros(256, dtype=np.int8)
    cells[0], cells[17], cells[255] = 16, 10, 1
    nums = ",".join(str(v) for v in cells)
    p = Puzzle.from_string(nums)
    assert p.box == 4 and p.givens == 3 and int(p.cells[0]) == 16
    assert Puzzle.from_string(p.to_line()).to_line() == p.to_line()
    assert "G" in p.to_line()


@pytest.mark.parametrize("text, match", [
    (ARTICLE[:-1], "80 cells is not a square grid"),
    (ARTICLE[:5] + "x" + ARTICLE[6:], r"unknown character 'x' at r1c6"),
    ("6" + ARTICLE[1:], r"in.txt:3: value 6 given twice in row 1: r1c1 and r1c3"),
])
def test_bad_lines(text: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Puzzle.from_string(text, name="in.txt:3")


def test_repeated_given_names_both_cells() -> None:
    bad = "1" + "." * 8 + "1" + "." * 71  # r1c1 and r2c1 both 1: a column clash
    with pytest.raises(InvalidInputError, match=r"in.txt:7: value 1 given twice in column 1: "
                                                r"r1c1 and r2c1"):
        Puzzle.from_string(bad, name="in.txt:7")
    bad_box = "1" + "." * 9 + "1" + "." * 70  # r1c1, r2c2
    with pytest.raises(InvalidInputError, match=r"box 1: r1c1 and r2c2"):
        Puzzle.from_string(bad_box)


def test_value_out_of_range() -> None:
    with pytest.raises(InvalidInputError, match=r"value '5' at r1c1 is out of range 1..4"):
        Puzzle.from_string("5" + "." * 15)
    with pytest.raises(InvalidInputError, match=r"value 17 at r1c1 is out of range"):
        Puzzle(4, np.array([17] + [0] * 255))


def test_line_formats_of_the_shared_files() -> None:
    text = "\n".join([
        "# comment",
        ARTICLE,
        "aiescargot;" + ARTICLE,
        "20;5;" + ",".join(c if c != "." else "0" for c in ARTICLE),
        f"{ARTICLE},{ARTICLE_SOLUTION}",
        "32397e9c5be8 " + ARTICLE.replace(".", "0") + "  7.2",
    ])
    ps = parse_puzzles(text, "mixed.txt")
    assert [p.to_line() for p in ps] == [ARTICLE] * 5
    assert ps[0].name == "mixed.txt:2" and "aiescargot" in ps[1].name
    assert ps[3].solution is not None and "".join(map(str, ps[3].solution)) == ARTICLE_SOLUTION


def test_csv() -> None:
    text = ("puzzle,solution,clues,difficulty\n"
            f"{ARTICLE.replace('.', '0')},{ARTICLE_SOLUTION},27,0.0\n")
    (p,) = parse_puzzles(text, "x.csv")
    assert p.to_line() == ARTICLE and p.name == "x.csv:2" and p.solution is not None


def test_bad_line_in_file_names_file_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "p.txt"
    f.write_text(f"# c\n{ARTICLE}\n{ARTICLE[:40]}z{ARTICLE[41:]}\n")
    with pytest.raises(InvalidInputError, match=r"p.txt:3: unknown character 'z'"):
        read_puzzles(f)
    with pytest.raises(InvalidInputError, match=r"puzzle file .*missing.txt: no such file"):
        read_puzzles(tmp_path / "missing.txt")


def test_every_shared_file_parses(sudoku_data) -> None:  # type: ignore[no-untyped-def]
    sizes = {}
    for f in sorted(sudoku_data.iterdir()):
        if f.suffix in (".txt", ".csv"):
            ps = read_puzzles(f)
            assert ps, f
            sizes[f.name] = (len(ps), ps[0].box)
    assert sizes["magictour_top95.txt"] == (95, 3)
    assert sizes["lloyd_amos_general_25x25_sample20.txt"] == (20, 5)
    assert sizes["lloyd_amos_general_16x16_sample20.txt"] == (20, 4)


def test_puzzle_set_reads_l81_as_the_general_parser(sudoku_data) -> None:  # type: ignore[no-untyped-def]
    from gameopt.sudoku.formats import _parse_l81, read_puzzle_set

    for name in ("tdoku_17_clue_200.txt", "norvig_hardest11.txt",
                 "radcliffe_easy_d0-1_200.csv", "lloyd_amos_general_16x16_sample20.txt"):
        path = sudoku_data / name
        slow = read_puzzles(path)
        fast = read_puzzle_set(path)
        assert len(fast) == len(slow) and fast.box == slow[0].box
        assert np.array_equal(fast.cells, np.stack([p.cells for p in slow]))
        assert list(fast.names) == [p.name for p in slow]
    assert _parse_l81((sudoku_data / "tdoku_17_clue_200.txt").read_text(), "x") is not None


def test_puzzle_set_checks_givens_and_sizes() -> None:
    from gameopt.sudoku.formats import parse_puzzle_set

    bad = "6" + ARTICLE[1:]
    with pytest.raises(InvalidInputError,
                       match=r"f:2: value 6 given twice in row 1: r1c1 and r1c3"):
        parse_puzzle_set(f"{ARTICLE}\n{bad}\n", "f")
    with pytest.raises(InvalidInputError, match=r"a 4x4 puzzle among 9x9 ones"):
        parse_puzzle_set(f"{ARTICLE}\n{'.' * 16}\n", "f")
    with pytest.raises(InvalidInputError, match=r"f:1: unknown character 'x'"):
        parse_puzzle_set("x" + ARTICLE[1:], "f")
    s = parse_puzzle_set(f"# c\n{ARTICLE}\n\n{ARTICLE}\n", "f")
    assert len(s) == 2 and s.names == ("f:2", "f:4") and s[1].to_line() == ARTICLE.replace(
        "0", ".")
    assert format_lines(s.cells) == [s[0].to_line(), s[1].to_line()]


def test_write_then_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from gameopt.sudoku import write_puzzles

    path = tmp_path / "out.txt"
    write_puzzles(path, [Puzzle.from_string(ARTICLE), Puzzle.from_string(ARTICLE).cells])
    assert [p.to_line() for p in read_puzzles(path)] == [Puzzle.from_string(ARTICLE).to_line()] * 2
