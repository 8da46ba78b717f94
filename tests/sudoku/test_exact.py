"""Exact solver: the numba kernel against the plain-Python reference, and the public API."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from gameopt.core import StopFlag
from gameopt.errors import InvalidInputError
from gameopt.sudoku.exact import (
    STATUSES,
    ExactOutcome,
    count_array,
    count_many,
    count_solutions,
    solve_exact,
    warm,
)
from gameopt.sudoku.formats import read_puzzles
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.reference import count_solutions_reference
from gameopt.sudoku.verify import solution_problems, verify

from .conftest import ARTICLE, ARTICLE_SOLUTION

# --------------------------------------------------------------------------------------
# Puzzles made here, without the solvers: a pattern grid under random symmetries, with
# cells blanked, and sometimes a given changed to a value none of its peers holds.
# --------------------------------------------------------------------------------------


def shuffled_grid(box: int, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """A valid full grid: the pattern (b*(r % b) + r//b + c) % n, lines and values shuffled."""
    n = box * box
    r, c = np.indices((n, n))
    grid = (box * (r % box) + r // box + c) % n + 1

    def order() -> npt.NDArray[np.int64]:
        return np.concatenate([b * box + rng.permutation(box) for b in rng.permutation(box)])

    grid = grid[order()][:, order()]
    relabel = np.concatenate([[0], rng.permutation(n) + 1])
    return relabel[grid].ravel().astype(np.int8)


def peer_values(cells: npt.NDArray[np.int8], box: int, i: int) -> set[int]:
    n = box * box
    r, c = divmod(i, n)
    grid = cells.reshape(n, n)
    r0, c0 = r - r % box, c - c % box
    vals = set(grid[r].tolist()) | set(grid[:, c].tolist())
    vals |= set(grid[r0:r0 + box, c0:c0 + box].ravel().tolist())
    vals.discard(int(grid[r, c]))
    return vals - {0}


def made_puzzles(box: int, count: int, blanks: tuple[int, int], seed: int) -> list[Puzzle]:
    """Puzzles with 0, 1 or several solutions (a third of them have a given changed)."""
    rng = np.random.default_rng(seed)
    n = box * box
    out = []
    for k in range(count):
        cells = shuffled_grid(box, rng)
        cells[rng.choice(n * n, size=int(rng.integers(*blanks)), replace=False)] = 0
        if k % 3 == 2:  # change a given to a value that no given peer holds
            for i in rng.permutation(np.flatnonzero(cells)):
                free = set(range(1, n + 1)) - peer_values(cells, box, int(i)) - {cells[i]}
                if free:
                    cells[i] = sorted(free)[int(rng.integers(len(free)))]
                    break
        out.append(Puzzle(box, cells, name=f"made box={box} #{k}"))
    return out


def check_against_reference(puzzles: list[Puzzle], limit: int) -> list[int]:
    outs = count_many(puzzles, limit=limit)
    counts = []
    for p, out in zip(puzzles, outs, strict=True):
        want, _ = count_solutions_reference(p, limit=limit)
        assert out.count == want, (p.name, p.to_line(), out.count, want)
        if want:
            assert out.solution is not None and verify(p, out.solution), p.name
        else:
            assert out.solution is None and out.status == "none"
        counts.append(want)
    return counts


# --------------------------------------------------------------------------------------
# Kernel against reference
# --------------------------------------------------------------------------------------


def test_4x4_exact_counts_match_reference() -> None:
    puzzles = made_puzzles(2, 150, (4, 15), seed=1)
    counts = check_against_reference(puzzles, limit=1000)  # every solution counted
    assert 0 in counts and 1 in counts and max(counts) > 10  # all three cases seen
    empty = Puzzle(2, np.zeros(16, dtype=np.int8))
    assert count_solutions(empty, limit=1000).count == 288  # all 4x4 grids


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_9x9_counts_match_reference(limit: int) -> None:
    puzzles = made_puzzles(3, 40, (40, 58), seed=10 + limit)
    counts = check_against_reference(puzzles, limit=limit)
    assert 0 in counts and 1 in counts
    if limit > 1:
        assert limit in counts


def test_16x16_counts_match_reference() -> None:
    puzzles = made_puzzles(4, 12, (30, 70), seed=7)
    counts = check_against_reference(puzzles, limit=3)
    assert 0 in counts and 1 in counts


@pytest.mark.parametrize("box", [3, 4])
def test_a_set_stop_flag_stops_the_count(box: int) -> None:
    empty = Puzzle(box, np.zeros(box ** 4, dtype=np.int8))
    warm(box)  # compiled before the timer starts
    flag = StopFlag()
    timer = threading.Timer(0.2, flag.set)  # set while the kernel runs
    timer.start()
    try:  # without the flag: years (every grid counted)
        out = count_solutions(empty, limit=10 ** 12, stop=flag)
    finally:
        timer.cancel()
    assert (out.status, out.count, out.solution) == ("stopped", -1, None) and out.nodes > 0
    grids = np.stack([empty.cells, Puzzle.from_string(ARTICLE).cells if box == 3
                      else empty.cells])
    counts, _, _ = count_array(grids, box, 2, stop=flag.array)  # set before: nothing done
    assert counts.tolist() == [-1, -1]
    flag.clear()
    assert count_solutions(empty, limit=3, stop=flag).status == "multiple"
    with pytest.raises(InvalidInputError, match="stop: expected a StopFlag's array"):
        count_array(grids, box, 2, stop=np.zeros(1, dtype=np.int64))  # type: ignore[arg-type]


def test_statuses_follow_count_and_limit() -> None:
    p = Puzzle.from_string(ARTICLE)
    assert count_solutions(p, limit=1).status == "solved"
    assert count_solutions(p, limit=2).status == "unique"
    empty = Puzzle(3, np.zeros(81, dtype=np.int8))
    many = count_solutions(empty, limit=7)
    assert (many.status, many.count) == ("multiple", 7)
    assert many.solution is not None and verify(empty, many.solution)
    assert {o.status for o in count_many([p, empty], 2)} <= set(STATUSES)


# --------------------------------------------------------------------------------------
# Puzzles with no solution that no unit shows at a glance
# --------------------------------------------------------------------------------------


def test_cell_without_candidate_has_no_solution() -> None:
    # r1c9 must be 9 (row 1 holds 1..8) but column 9 already has a 9.
    p = Puzzle.from_string("12345678." + "." * 27 + "........9" + "." * 36)
    out = count_solutions(p)
    assert (out.status, out.count, out.solution) == ("none", 0, None)


def test_consistent_looking_grid_without_solution() -> None:
    # The article puzzle with its r1c3 given 6 changed to 5: no unit repeats a value, but
    # there is no solution (the reference search is exhaustive).
    cells = list(ARTICLE)
    cells[2] = "5"
    p = Puzzle.from_string("".join(cells))
    assert count_solutions_reference(p, 2)[0] == 0
    assert count_solutions(p).status == "none"


def test_givens_repeating_in_a_unit_count_zero_in_the_array_api() -> None:
    grid = np.zeros((1, 81), dtype=np.int8)
    grid[0, [0, 40]] = 5  # r1c1 and r5c5: same value, no shared unit: fine
    assert count_array(grid, 3, 2)[0][0] == 2
    grid[0, 1] = 5  # r1c2 repeats r1c1
    assert count_array(grid, 3, 2)[0][0] == 0


# --------------------------------------------------------------------------------------
# Known puzzles
# --------------------------------------------------------------------------------------


def test_article_puzzle_unique_and_verified() -> None:
    p = Puzzle.from_string(ARTICLE)
    out = solve_exact(p)
    assert isinstance(out, ExactOutcome)
    assert (out.status, out.count) == ("unique", 1)
    assert out.solution is not None and not out.solution.flags.writeable
    assert solution_problems(p, out.solution) == []
    assert "".join(map(str, out.solution.tolist())) == ARTICLE_SOLUTION
    assert out.nodes >= 0 and out.seconds >= 0.0 and out.clock == "cpu"


def test_16x16_and_25x25_grids() -> None:
    rng = np.random.default_rng(3)
    for box in (4, 5):
        full = shuffled_grid(box, rng)
        n = box * box
        one_blank = full.copy()
        one_blank[rng.choice(n * n, size=n, replace=False)] = 0  # n blanks: some are forced
        for cells in (full, one_blank):
            p = Puzzle(box, cells)
            out = count_solutions(p)
            assert out.solution is not None and verify(p, out.solution)
            assert out.count == count_solutions_reference(p, 2)[0]
        empty = Puzzle(box, np.zeros(n * n, dtype=np.int8))
        out = count_solutions(empty)
        assert out.status == "multiple" and verify(empty, out.solution)


def test_36x36_empty_grid() -> None:
    empty = Puzzle(6, np.zeros(6 ** 4, dtype=np.int8))
    out = count_solutions(empty, limit=2)
    assert out.status == "multiple" and verify(empty, out.solution)


def test_shared_data_sets(sudoku_data: Path) -> None:
    hard = read_puzzles(sudoku_data / "tdoku_forum_hardest_1106_100.txt")[:20]
    clue17 = read_puzzles(sudoku_data / "tdoku_17_clue_200.txt")[:50]
    for p, out in zip(hard + clue17, count_many(hard + clue17), strict=True):
        assert out.status == "unique", p.name
        assert verify(p, out.solution), p.name
    csv = read_puzzles(sudoku_data / "radcliffe_hard_d6-8.5_200.csv")[:50]
    for p, out in zip(csv, count_many(csv), strict=True):
        assert out.status == "unique" and p.solution is not None
        assert np.array_equal(out.solution, p.solution), p.name
    # the README says sabuncu3 has at least two solutions as stored
    logic = read_puzzles(sudoku_data / "lloyd_amos_logic_solvable_9x9.txt")
    for p, out in zip(logic, count_many(logic), strict=True):
        assert out.status == ("multiple" if "(sabuncu3)" in p.name else "unique"), p.name
        assert verify(p, out.solution), p.name


def check_band_against_cells(grids: npt.NDArray[np.int8], limit: int) -> npt.NDArray[np.int64]:
    """The 9x9 band kernel and the cell kernel agree on every count; a unique puzzle has
    one solution, so both must return it; every solution either returns is valid."""
    counts, sols, _ = count_array(grids, 3, limit, kernel="band")
    want, want_sols, _ = count_array(grids, 3, limit, kernel="cells")
    assert counts.tolist() == want.tolist()
    for g, k, s, t in zip(grids, counts.tolist(), sols, want_sols, strict=True):
        if k == 0:
            assert not s.any()
        else:
            assert verify(Puzzle(3, g), s)
            if k == 1 and limit > 1:  # proved unique
                assert np.array_equal(s, t)
    return counts


@pytest.mark.parametrize("limit", [1, 2, 3, 20])
def test_band_kernel_matches_cell_kernel_on_made_puzzles(limit: int) -> None:
    puzzles = made_puzzles(3, 300, (35, 64), seed=40 + limit)
    counts = check_band_against_cells(np.stack([p.cells for p in puzzles]), limit)
    assert 0 in counts and 1 in counts and (limit == 1 or limit in counts)


def test_band_kernel_matches_cell_kernel_on_shared_sets(sudoku_data: Path) -> None:
    for name in ("tdoku_17_clue_200.txt", "tdoku_forum_hardest_1106_100.txt",
                 "radcliffe_medium_d3-4_200.csv", "magictour_top95.txt"):
        grids = np.stack([p.cells for p in read_puzzles(sudoku_data / name)])
        assert (check_band_against_cells(grids, 2) == 1).all(), name
        blanked = grids.copy()  # a given fewer: several solutions, or still one
        for g in blanked:
            g[np.flatnonzero(g)[0]] = 0
        check_band_against_cells(blanked, 2)


# --------------------------------------------------------------------------------------
# Input errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, -3, 1.5, True, "2"])
def test_bad_limit_is_named(limit: object) -> None:
    p = Puzzle.from_string(ARTICLE)
    with pytest.raises(InvalidInputError, match=f"limit must be an integer >= 1, got {limit!r}"):
        count_solutions(p, limit=limit)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="limit must be"):
        count_many([p], limit=limit)  # type: ignore[arg-type]


def test_bad_inputs_are_named() -> None:
    p9 = Puzzle.from_string(ARTICLE)
    p4 = Puzzle(2, np.zeros(16, dtype=np.int8), name="small")
    with pytest.raises(InvalidInputError, match="expected a Puzzle, got str"):
        count_solutions(ARTICLE)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"puzzle 1 \(small\) has box 2, puzzle 0 has 3"):
        count_many([p9, p4])
    with pytest.raises(InvalidInputError, match="item 1 is a list, not a Puzzle"):
        count_many([p9, [0] * 81])  # type: ignore[list-item]
    assert count_many([]) == []
    with pytest.raises(InvalidInputError, match="box size must be an integer 2..6, got 7"):
        count_array(np.zeros((1, 7 ** 4)), 7)
    with pytest.raises(InvalidInputError, match=r"shape \(m, 81\) for box 3, got \(2, 80\)"):
        count_array(np.zeros((2, 80)), 3)
    bad = np.zeros((2, 81), dtype=np.int8)
    bad[1, 5] = 10
    with pytest.raises(InvalidInputError, match="grid 1: value 10 at cell 5 is out of range 0..9"):
        count_array(bad, 3)
    with pytest.raises(InvalidInputError, match="kernel 'band': expected 'auto', 'cells', or"):
        count_array(np.zeros((1, 16)), 2, kernel="band")
    with pytest.raises(InvalidInputError, match="kernel 'fast': expected"):
        count_array(np.zeros((1, 81)), 3, kernel="fast")


def test_reference_rejects_bad_limit() -> None:
    with pytest.raises(InvalidInputError, match="limit must be an integer >= 1, got 0"):
        count_solutions_reference(Puzzle.from_string(ARTICLE), 0)
