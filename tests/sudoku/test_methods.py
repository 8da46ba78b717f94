"""The three methods through one entry point: same answers, verified independently."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit, Outcome, StopFlag
from gameopt.errors import InvalidInputError
from gameopt.localsearch import EvolutionParams
from gameopt.sudoku import METHOD_CLOCK, generate, solve, solve_set, time_limit
from gameopt.sudoku.exact import count_solutions
from gameopt.sudoku.grid import Puzzle, PuzzleSet
from gameopt.sudoku.verify import failing_rows, solution_problems, verify

from .conftest import ARTICLE, ARTICLE_SOLUTION


def test_article_puzzle_all_three_methods_same_unique_solution() -> None:
    p = Puzzle.from_string(ARTICLE)
    want = np.array([int(c) for c in ARTICLE_SOLUTION], dtype=np.int8)
    assert verify(p, want)
    for method in ("exact", "cpsat", "evolution"):
        limit = None if method == "exact" else time_limit(method, 60)  # exact: none
        res = solve(p, method, seed=3, limit=limit)
        assert res.solution is not None and np.array_equal(res.solution, want), method
        assert res.status == ("solved" if method == "evolution" else "unique")
        assert isinstance(res, Outcome) and res.clock == METHOD_CLOCK[method]
        assert res.proven == (method != "evolution") and res.bound is None


def test_verifier_rejects_bad_grids() -> None:
    p = Puzzle.from_string(ARTICLE)
    good = np.array([int(c) for c in ARTICLE_SOLUTION], dtype=np.int8)
    swapped = good.copy()
    swapped[[0, 1]] = swapped[[1, 0]]  # r1c1 <-> r1c2: columns and box stay sets? no: columns break
    assert solution_problems(p, swapped)
    changed = good.copy()
    changed[2] = 1  # a given (6 at r1c3) changed
    assert any("given 6 at r1c3" in s for s in solution_problems(p, changed))
    assert solution_problems(p, good[:-1]) == ["solution has 80 cells, expected 81"]


def _variants(box: int, seed: int) -> list[Puzzle]:
    """A unique puzzle, the same with givens removed (often several solutions), and one
    with a wrong extra given (often none) -- all made here from generated puzzles."""
    p = generate(box, seed=seed)
    rng = np.random.default_rng(seed)
    given = np.flatnonzero(p.cells)
    fewer = p.cells.copy()
    fewer[rng.choice(given, size=min(6, given.size), replace=False)] = 0
    out = [p, Puzzle(box, fewer)]
    sol = count_solutions(p, limit=1).solution
    assert sol is not None
    empty = np.flatnonzero(p.cells == 0)
    for cell in empty[:40]:
        wrong = p.cells.copy()
        for v in range(1, box * box + 1):
            if v != sol[cell]:
                wrong[cell] = v
                try:
                    out.append(Puzzle(box, wrong))
                except InvalidInputError:
                    continue  # clashes with a given: not a puzzle
                return out
    return out


@pytest.mark.parametrize("box, seeds", [(2, range(12)), (3, range(8)), (4, range(2))])
def test_exact_and_cpsat_agree_on_counts(box: int, seeds: range) -> None:
    seen = set()
    for seed in seeds:
        for p in _variants(box, seed):
            ex = solve(p, "exact", count_limit=2)
            cp = solve(p, "cpsat", count_limit=2)
            assert (ex.status, ex.count) == (cp.status, cp.count), (p.to_line())
            seen.add(ex.status)
            if ex.solution is not None:
                assert verify(p, ex.solution) and verify(p, cp.solution)
    assert "unique" in seen and (box == 4 or {"multiple", "none"} <= seen | {"multiple"})


def test_unknown_method() -> None:
    with pytest.raises(InvalidInputError, match="unknown method 'magic'"):
        solve(Puzzle.from_string(ARTICLE), "magic")


def test_solve_set_matches_solve_one_by_one() -> None:
    puzzles = [p for seed in range(4) for p in _variants(3, seed)]
    res = solve_set(PuzzleSet.of(puzzles), "exact")
    assert isinstance(res, Outcome) and res.clock == "cpu" and len(res) == len(puzzles)
    for i, p in enumerate(puzzles):
        one = solve(p, "exact")
        assert (res.status[i], int(res.count[i])) == (one.status, one.count)  # type: ignore[index]
        assert int(res.stats["nodes"][i]) == one.stats["nodes"]
        if one.solution is not None:
            assert np.array_equal(res.solutions[i], one.solution)
        else:
            assert not res.solutions[i].any()
    assert res.proven == all(s in ("unique", "none") for s in res.status)


def test_solve_set_other_methods_go_one_by_one() -> None:
    res = solve_set(PuzzleSet.of([Puzzle.from_string(ARTICLE)] * 2), "cpsat")
    assert res.status == ["unique", "unique"] and res.clock == "wall"
    assert res.count is not None and res.count.tolist() == [1, 1]


def test_limits_the_method_cannot_keep_are_refused() -> None:
    p = Puzzle.from_string(ARTICLE)
    with pytest.raises(InvalidInputError, match="exact solver takes a time limit and a stop"):
        solve(p, "exact", limit=Limit(nodes=5, clock="cpu"))
    with pytest.raises(InvalidInputError, match="CP-SAT limits wall time"):
        solve(p, "cpsat", limit=Limit(time=1.0, clock="cpu"))
    with pytest.raises(InvalidInputError, match="count limit 0"):
        solve(p, "exact", count_limit=0)


def test_exact_keeps_a_time_limit_and_a_stop_flag() -> None:
    empty = Puzzle(3, np.zeros(81, dtype=np.int8))  # counting its grids would take years
    res = solve(empty, "exact", count_limit=10 ** 12, limit=Limit(time=0.2, clock="cpu"))
    assert (res.status, res.count, res.solution) == ("unsolved", None, None)
    flag = StopFlag()
    flag.set()
    res = solve(Puzzle.from_string(ARTICLE), "exact", limit=Limit(stop=flag, clock="cpu"))
    assert res.status == "unsolved" and not res.solved
    flag.clear()
    res = solve(Puzzle.from_string(ARTICLE), "exact", limit=Limit(stop=flag, clock="cpu"))
    assert res.status == "unique"


def test_evolution_limit_on_either_clock() -> None:
    p = Puzzle.from_string("." * 81)
    params = EvolutionParams(organisms=20, max_epochs=10**6, target=-1)
    for clock in ("cpu", "wall"):
        res = solve(p, "evolution", seed=1, params=params,
                    limit=Limit(time=0.2, clock=clock))  # type: ignore[arg-type]
        assert res.status == "unsolved" and res.stats["stop"] == "time"
        assert res.clock == clock and 0.2 <= res.seconds < 5


def test_failing_rows_finds_each_kind_of_fault() -> None:
    p = Puzzle.from_string(ARTICLE)
    good = np.array([int(c) for c in ARTICLE_SOLUTION], dtype=np.int8)
    swapped = good.copy()
    swapped[[0, 1]] = swapped[[1, 0]]
    changed = good.copy()
    changed[2], changed[3] = good[3], good[2]  # a given moved (and two columns broken)
    zero = good.copy()
    zero[40] = 0
    sols = np.stack([good, swapped, changed, zero, good])
    givens = np.stack([p.cells] * 5)
    assert failing_rows(givens, sols, 3).tolist() == [1, 2, 3]
    assert all(bool(solution_problems(p, s)) == (i in (1, 2, 3)) for i, s in enumerate(sols))


def test_package_face_is_functions_whatever_was_imported_first() -> None:
    import importlib
    import pkgutil
    import types

    import gameopt.sudoku as sudoku

    for mod in pkgutil.iter_modules(sudoku.__path__):
        importlib.import_module(f"gameopt.sudoku.{mod.name}")
    for name in sudoku.__all__:
        assert not isinstance(getattr(sudoku, name), types.ModuleType), name
    assert sudoku.solve is solve and callable(sudoku.generate)
