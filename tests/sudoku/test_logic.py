"""The logical solver: each technique on a minimal candidate state, paths checked against
the exact solution, ratings, errors, and the published sets."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import StopFlag
from gameopt.errors import BudgetExhaustedError, InvalidInputError, SolverError
from gameopt.sudoku import Puzzle, explain, hint
from gameopt.sudoku.formats import read_puzzles
from gameopt.sudoku.grid import cell_name
from gameopt.sudoku.logic import RATINGS, _check, format_candidates
from gameopt.sudoku.techniques import TECHNIQUES, Candidates, LogicStep

from .conftest import ARTICLE, ARTICLE_SOLUTION

GUESSING = "98.7.....7...8.9....6..5.7.4..3..7...9.....4...2.....1.3.8..4......1..5......6..2"


def cell(name: str) -> int:
    """Flat index of ``r4c7``."""
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def blank() -> Candidates:
    """An empty 9x9 grid: every cell has every candidate."""
    return Candidates(np.zeros(81, dtype=np.int8), 3)


def only(s: Candidates, value: int, keep: list[str], unit_cells: list[int]) -> None:
    """Remove ``value`` from ``unit_cells`` except the cells named in ``keep``."""
    kept = {cell(k) for k in keep}
    for c in unit_cells:
        if c not in kept:
            s.cands[c] &= ~(1 << (value - 1))


def set_cands(s: Candidates, name: str, values: set[int]) -> None:
    s.cands[cell(name)] = sum(1 << (v - 1) for v in values)


def row(r: int) -> list[int]:
    return [(r - 1) * 9 + c for c in range(9)]


def col(c: int) -> list[int]:
    return [r * 9 + c - 1 for r in range(9)]


def find(name: str):  # type: ignore[no-untyped-def]
    return next(t.find for t in TECHNIQUES if t.name == name)


def removed(step: LogicStep | None) -> set[tuple[str, int]]:
    assert step is not None
    return {(cell_name(c, 9), v) for c, v in step.eliminations}


def test_at_least_twelve_techniques_in_tier_order() -> None:
    assert len(TECHNIQUES) >= 12
    order = [RATINGS.index(t.tier) for t in TECHNIQUES]
    assert order == sorted(order)


def test_naked_pair() -> None:
    s = blank()
    set_cands(s, "r1c1", {1, 2})
    set_cands(s, "r1c2", {1, 2})
    step = find("naked pair")(s)
    assert step.technique == "naked pair" and step.units == ("row 1",)
    assert removed(step) == {(f"r1c{c}", v) for c in range(3, 10) for v in (1, 2)}
    assert step.text.startswith("Naked pair {1, 2} in r1c1, r1c2 (row 1): remove 1 from r1c3")


def test_naked_triple_without_any_cell_holding_all_three() -> None:
    s = blank()
    for name, vals in (("r2c2", {4, 5}), ("r5c2", {5, 6}), ("r9c2", {4, 6})):
        set_cands(s, name, vals)
    step = find("naked triple")(s)
    assert step.units == ("column 2",)
    assert removed(step) == {(f"r{r}c2", v) for r in (1, 3, 4, 6, 7, 8) for v in (4, 5, 6)}


def test_hidden_pair() -> None:
    s = blank()
    for v in (3, 4):
        only(s, v, ["r1c1", "r1c2"], row(1))
    step = find("hidden pair")(s)
    assert step.text.startswith("Hidden pair {3, 4} in row 1 (only in r1c1, r1c2)")
    assert removed(step) == {(n, v) for n in ("r1c1", "r1c2") for v in (1, 2, 5, 6, 7, 8, 9)}


def test_hidden_triple() -> None:
    s = blank()
    for v, keep in ((1, ["r4c1", "r4c5"]), (2, ["r4c5", "r4c9"]), (3, ["r4c1", "r4c9"])):
        only(s, v, keep, row(4))
    step = find("hidden triple")(s)
    assert removed(step) == {(n, v) for n in ("r4c1", "r4c5", "r4c9") for v in range(4, 10)}


def test_pointing() -> None:
    s = blank()
    only(s, 5, ["r1c1", "r1c2", "r1c3"], [r * 9 + c for r in range(3) for c in range(3)])
    step = find("pointing")(s)
    assert step.units == ("box 1", "row 1")
    assert removed(step) == {(f"r1c{c}", 5) for c in range(4, 10)}


def test_box_line_reduction() -> None:
    s = blank()
    only(s, 5, ["r1c1", "r1c2", "r1c3"], row(1))
    step = find("box-line reduction")(s)
    assert step.text.startswith("Box-line reduction: in row 1, 5 can only be in box 1")
    assert removed(step) == {(f"r{r}c{c}", 5) for r in (2, 3) for c in (1, 2, 3)}


def test_x_wing() -> None:
    s = blank()
    for r in (2, 8):
        only(s, 5, [f"r{r}c3", f"r{r}c7"], row(r))
    step = find("X-Wing")(s)
    assert step.text.startswith("X-Wing on 5 in rows 2 and 8 (columns 3, 7): remove 5 from")
    assert removed(step) == {(f"r{r}c{c}", 5) for r in (1, 3, 4, 5, 6, 7, 9) for c in (3, 7)}


def test_x_wing_on_columns() -> None:
    s = blank()
    for c in (4, 6):
        only(s, 9, [f"r1c{c}", f"r5c{c}"], col(c))
    step = find("X-Wing")(s)
    assert "in columns 4 and 6 (rows 1, 5)" in step.text
    assert removed(step) == {(f"r{r}c{c}", 9) for r in (1, 5) for c in (1, 2, 3, 5, 7, 8, 9)}


def test_swordfish_with_two_candidates_per_row() -> None:
    s = blank()
    for r, keep in ((1, (1, 4)), (5, (4, 7)), (9, (1, 7))):
        only(s, 6, [f"r{r}c{c}" for c in keep], row(r))
    assert find("X-Wing")(s) is None
    step = find("Swordfish")(s)
    assert "Swordfish on 6 in rows 1, 5 and 9 (columns 1, 4, 7)" in step.text
    assert removed(step) == {(f"r{r}c{c}", 6) for r in (2, 3, 4, 6, 7, 8) for c in (1, 4, 7)}


def test_jellyfish() -> None:
    s = blank()
    for r, keep in ((1, (1, 2)), (3, (2, 5)), (6, (5, 9)), (8, (1, 9))):
        only(s, 2, [f"r{r}c{c}" for c in keep], row(r))
    assert find("X-Wing")(s) is None and find("Swordfish")(s) is None
    step = find("Jellyfish")(s)
    assert removed(step) == {(f"r{r}c{c}", 2) for r in (2, 4, 5, 7, 9) for c in (1, 2, 5, 9)}


def test_xy_wing() -> None:
    s = blank()
    set_cands(s, "r1c1", {1, 2})
    set_cands(s, "r1c5", {1, 3})
    set_cands(s, "r5c1", {2, 3})
    step = find("XY-Wing")(s)
    assert step.cells == (cell("r1c1"), cell("r1c5"), cell("r5c1"))
    assert removed(step) == {("r5c5", 3)}


def test_xyz_wing() -> None:
    s = blank()
    set_cands(s, "r1c1", {1, 2, 3})
    set_cands(s, "r1c5", {1, 3})
    set_cands(s, "r2c2", {2, 3})
    assert find("XY-Wing")(s) is None
    step = find("XYZ-Wing")(s)
    assert removed(step) == {("r1c2", 3), ("r1c3", 3)}


def test_w_wing() -> None:
    s = blank()
    set_cands(s, "r1c1", {1, 2})
    set_cands(s, "r5c9", {1, 2})
    only(s, 1, ["r9c1", "r9c9"], row(9))
    step = find("W-Wing")(s)
    assert "strong link on 1 in row 9 (r9c1-r9c9)" in step.text
    assert removed(step) == {("r1c9", 2), ("r5c1", 2)}


def test_simple_colouring_trap() -> None:
    s = blank()
    only(s, 7, ["r1c1", "r1c5"], row(1))
    only(s, 7, ["r1c5", "r5c5"], col(5))
    only(s, 7, ["r5c5", "r5c2"], row(5))
    step = find("simple colouring")(s)
    assert "colour A r1c1, r5c5; colour B r1c5, r5c2" in step.text
    assert removed(step) == {("r2c2", 7), ("r3c2", 7), ("r4c1", 7), ("r6c1", 7)}


def test_simple_colouring_trap_on_a_longer_chain() -> None:
    s = blank()
    only(s, 4, ["r1c1", "r1c4"], row(1))   # r1c1 A, r1c4 B
    only(s, 4, ["r1c4", "r4c4"], col(4))   # r4c4 A
    only(s, 4, ["r4c4", "r4c2"], row(4))   # r4c2 B
    only(s, 4, ["r4c2", "r9c2"], col(2))   # r9c2 A
    step = find("simple colouring")(s)
    # r5c1 and r6c1 see r1c1 (A, column 1) and r4c2 (B, box 4); r2c3 sees r1c1 (A) but
    # no B cell; the rows and columns of the links hold no other 4.
    assert removed(step) == {("r5c1", 4), ("r6c1", 4)}


def test_simple_colouring_colour_wrap() -> None:
    s = blank()
    only(s, 3, ["r1c1", "r1c5"], row(1))   # r1c1 A, r1c5 B
    only(s, 3, ["r1c5", "r5c5"], col(5))   # r5c5 A
    only(s, 3, ["r5c5", "r5c2"], row(5))   # r5c2 B
    only(s, 3, ["r5c2", "r2c2"], col(2))   # r2c2 A: sees r1c1 (A) in box 1
    step = find("simple colouring")(s)
    assert "are both colour A and see each other, so colour A is false" in step.text
    assert removed(step) == {("r1c1", 3), ("r5c5", 3), ("r2c2", 3)}


def test_x_chain_skyscraper() -> None:
    s = blank()
    only(s, 1, ["r1c1", "r8c1"], col(1))
    only(s, 1, ["r2c5", "r8c5"], col(5))
    step = find("X-Chain")(s)
    assert "r1c1 = r8c1 - r8c5 = r2c5" in step.text
    assert removed(step) == {("r1c4", 1), ("r1c6", 1), ("r2c2", 1), ("r2c3", 1)}


def test_xy_chain() -> None:
    s = blank()
    for name, vals in (("r1c1", {1, 2}), ("r1c9", {2, 3}), ("r9c9", {3, 4}), ("r9c2", {4, 1})):
        set_cands(s, name, vals)
    assert find("XY-Wing")(s) is None
    step = find("XY-Chain")(s)
    assert step.cells == tuple(cell(n) for n in ("r1c1", "r1c9", "r9c9", "r9c2"))
    # cells seeing r1c1 and r9c2: row 1 / column 2, box 1 / column 2, column 1 / box 7
    assert removed(step) == {("r1c2", 1), ("r2c2", 1), ("r3c2", 1), ("r7c1", 1), ("r8c1", 1),
                             ("r9c1", 1)}


def test_aic_mixing_cells_and_units() -> None:
    s = blank()
    set_cands(s, "r1c1", {1, 2})
    only(s, 2, ["r1c5", "r6c5"], col(5))
    only(s, 3, ["r6c5", "r6c1"], row(6))
    step = find("AIC")(s)
    assert step.text.startswith(
        "Alternating inference chain r1c1(1) = r1c1(2) - r1c5(2) = r6c5(2) - r6c5(3) = "
        "r6c1(3) (= strong, - weak): r1c1 is 1 or r6c1 is 3")
    assert removed(step) == {("r6c1", 1)}


def test_unique_rectangle_type_1() -> None:
    s = blank()
    for name in ("r1c1", "r1c4", "r3c1"):
        set_cands(s, name, {5, 9})
    set_cands(s, "r3c4", {2, 5, 9})
    step = find("unique rectangle")(s)
    assert removed(step) == {("r3c4", 5), ("r3c4", 9)}
    set_cands(s, "r3c4", {2, 5, 9})
    set_cands(s, "r3c1", {5, 8, 9})   # two corners with extras: not type 1
    assert find("unique rectangle")(s) is None


def test_article_puzzle_path() -> None:
    p = Puzzle.from_string(ARTICLE)
    out = explain(p)
    assert out.solved and out.proven and out.rating == "medium"
    assert "".join(map(str, out.grid.tolist())) == ARTICLE_SOLUTION
    assert out.steps[0].text == "r5c5 = 8: hidden single in box 5"
    assert str(hint(p)) == out.steps[0].text
    assert out.stats["placements"] == 81 - p.givens
    assert out.seconds < 1.0 and out.clock == "cpu"


def test_max_steps_cuts_the_path_without_calling_it_guessing() -> None:
    out = explain(Puzzle.from_string(ARTICLE), max_steps=3)
    assert len(out.steps) == 3 and not out.solved and not out.stuck
    assert out.rating == "easy" and out.stop_text == ""


def test_a_set_stop_flag_stops_hint_and_explain() -> None:
    p = Puzzle.from_string(ARTICLE)
    flag = StopFlag()
    flag.set()
    with pytest.raises(BudgetExhaustedError, match="stopped before the solution was proven"):
        hint(p, stop=flag)
    with pytest.raises(BudgetExhaustedError, match="stopped before"):
        explain(p, stop=flag)
    flag.clear()
    step = hint(p, stop=flag)
    assert step is not None and step.text == "r5c5 = 8: hidden single in box 5"


def test_hint_on_a_solved_grid_is_none() -> None:
    assert hint(Puzzle.from_string(ARTICLE_SOLUTION)) is None


@pytest.mark.parametrize("line, message", [
    ("." * 81, "several solutions"),
    ("11" + "." * 79, "value 1 given twice in row 1"),
    ("12345678." + "." * 71 + "9", "no solution"),
])
def test_unusable_puzzles(line: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        explain(Puzzle.from_string(line))


def test_bad_max_steps() -> None:
    with pytest.raises(InvalidInputError, match="max_steps"):
        explain(Puzzle.from_string(ARTICLE), max_steps=-1)


def test_a_wrong_step_is_a_solver_error() -> None:
    p = Puzzle.from_string(ARTICLE)
    sol = np.array([int(ch) for ch in ARTICLE_SOLUTION], dtype=np.int8)
    bad = LogicStep("naked single", ((0, 1),), (), (0,), (), "r1c1 = 1: naked single")
    with pytest.raises(SolverError, match="placed 1 at r1c1, the solution has 7"):
        _check(bad, sol, p)
    bad = LogicStep("X-Wing", (), ((0, 7),), (0,), (), "X-Wing on 7")
    with pytest.raises(SolverError, match="removed 7 from r1c1, the solution's value"):
        _check(bad, sol, p)


def test_guessing_puzzle_says_where_logic_stops() -> None:
    # The first of the forum's hardest (Sudoku Explainer > 11): no technique applies.
    p = Puzzle.from_string(GUESSING)
    out = explain(p)
    assert out.stuck and not out.solved and out.rating == "guessing" and out.hardest is None
    assert out.steps == () and hint(p) is None
    assert out.stop_text == (f"Logic stops here with 58 cells empty: none of the "
                             f"{len(TECHNIQUES)} techniques applies; the rest needs guessing "
                             f"(trial and error).")
    drawing = format_candidates(out.grid, out.candidates, 3)
    assert drawing.splitlines()[0] == (
        "9      8      1345   | 7      2346   1234   | 12356  1236   3456")


@pytest.mark.parametrize("box, givens", [(2, 6), (4, 180), (4, None)])
def test_other_box_sizes(box: int, givens: int | None) -> None:
    from gameopt.sudoku import generate

    p = generate(box, givens, seed=3)
    out = explain(p)
    assert out.stats["placements"] > 0 and out.seconds < 30
    assert np.all(out.grid[out.grid != 0] == out.solution[out.grid != 0])


def test_hard_sets_every_step_checked(sudoku_data) -> None:  # type: ignore[no-untyped-def]
    ratings = []
    for name in ("magictour_top95.txt", "tdoku_forum_hardest_1905_11plus_200.txt",
                 "sudokuexchange_diabolical_200.txt"):
        for p in read_puzzles(sudoku_data / name)[:15]:
            out = explain(p)  # raises SolverError on any step against the solution
            assert out.solved == (out.rating != "guessing")
            assert np.all(out.grid[out.grid != 0] == out.solution[out.grid != 0])
            ratings.append(out.rating)
    assert "guessing" in ratings and len(set(ratings)) >= 3
