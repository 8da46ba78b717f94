"""Sudoku combinatorial evolution: the box invariant, incremental error, determinism."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.localsearch import EvolutionParams
from gameopt.sudoku import _evolution_ops as ops
from gameopt.sudoku.evolution import SudokuEvolutionProblem, solve_evolution
from gameopt.sudoku.grid import Puzzle, units
from gameopt.sudoku.verify import verify

from .conftest import ARTICLE


def boxes_ok(sol: np.ndarray, box: int) -> bool:
    n = box * box
    return all(sorted(sol[u].tolist()) == list(range(1, n + 1)) for u in units(box)[2 * n:])


def slow_error(sol: np.ndarray, n: int) -> int:
    g = sol.reshape(n, n)
    return sum(n - len(set(g[r])) for r in range(n)) + sum(n - len(set(g[:, c]))
                                                           for c in range(n))


@pytest.mark.parametrize("refined", [True, False])
@pytest.mark.parametrize("text", [ARTICLE, "1..." + "." * 12])
def test_operators_keep_box_invariant_and_givens(text: str, refined: bool) -> None:
    p = Puzzle.from_string(text)
    prob = SudokuEvolutionProblem(p, prune=refined, focus=refined)
    rng = np.random.default_rng(0)
    n = p.side
    a = np.zeros(n * n, np.int8)
    b = np.zeros(n * n, np.int8)
    child = np.zeros(n * n, np.int8)
    move = np.zeros(8, np.int64)
    given = p.cells != 0
    ops.random_fill(prob.data, rng, a)
    ops.random_fill(prob.data, rng, b)
    err = ops.error(prob.data, a)
    for _ in range(3000):
        before = a.copy()
        new = ops.neighbour(prob.data, rng, a, err, move)
        assert new == slow_error(a, n) == ops.error(prob.data, a)
        assert boxes_ok(a, p.box) and np.array_equal(a[given], p.cells[given])
        assert np.count_nonzero(a != before) == 2
        if rng.random() < 0.5:
            ops.undo(prob.data, a, move)
            assert np.array_equal(a, before)
        else:
            err = new
    ops.merge(prob.data, rng, a, b, child, 0.5)
    assert boxes_ok(child, p.box) and np.array_equal(child[given], p.cells[given])
    for k in units(p.box)[2 * n:]:
        assert np.array_equal(child[k], a[k]) or np.array_equal(child[k], b[k])


def test_solves_article_puzzle_same_seed_same_result() -> None:
    p = Puzzle.from_string(ARTICLE)
    params = EvolutionParams(accept_equal=True)
    r1 = solve_evolution(p, params, seed=4)
    r2 = solve_evolution(p, params, seed=4)
    assert r1.status == "solved" and verify(p, r1.solution)
    assert r1.iterations == r2.iterations and r1.stats == r2.stats


def test_article_strict_acceptance_also_solves() -> None:
    r = solve_evolution(Puzzle.from_string(ARTICLE), seed=2)  # article defaults
    assert r.status == "solved" and verify(Puzzle.from_string(ARTICLE), r.solution)


def test_budget_outcome_keeps_best_grid() -> None:
    p = Puzzle.from_string(ARTICLE)
    r = solve_evolution(p, EvolutionParams(organisms=4, max_epochs=2, max_restarts=1), seed=0)
    assert r.status == "budget" and r.objective > 0 and r.restarts == 1
    assert boxes_ok(r.solution, 3)


def test_no_free_pairs_left() -> None:
    sol = "1234341221434321"
    p = Puzzle.from_string("." + sol[1:])
    r = solve_evolution(p, seed=0)
    assert r.status == "solved" and "".join(map(str, r.solution)) == sol


def test_pruning_fixes_forced_cells_and_keeps_candidates() -> None:
    from gameopt.sudoku.evolution import propagate_singles

    p = Puzzle.from_string(ARTICLE)
    cells, cand = propagate_singles(p)
    assert np.count_nonzero(cells) > p.givens  # the article's 3 at r1c5 and more
    assert int(cells[4]) == 3
    sol = np.array([int(c) for c in
                    "716235984528974316394816527845163792271489635639752841982647153163528479457391268"])
    assert all(cand[c] >> int(sol[c]) & 1 for c in range(81))  # the solution survives
    assert all(cells[c] in (0, sol[c]) for c in range(81))
