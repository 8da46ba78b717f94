"""Evolution with constraint propagation between runs: the numba propagation against the
plain reference, no true candidate ever removed, verified answers, the CLI flag."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from gameopt.core import Limit
from gameopt.localsearch import EvolutionParams
from gameopt.sudoku import _propagate as P
from gameopt.sudoku import count_solutions, solve, verify
from gameopt.sudoku.evolution import (
    _Propagator,
    clash_free,
    propagate_singles,
    solve_evolution,
)
from gameopt.sudoku.formats import read_puzzles
from gameopt.sudoku.grid import Puzzle

from .conftest import ARTICLE, ARTICLE_SOLUTION


def _puzzles(sudoku_data: Path, side: int, k: int) -> list[Puzzle]:
    return read_puzzles(sudoku_data / f"lloyd_amos_general_{side}x{side}_sample20.txt")[:k]


def _numba_propagate(p: Puzzle) -> tuple[bool, np.ndarray, np.ndarray]:
    prop = _Propagator(p.box)
    n = p.side
    cells = np.zeros(n * n, np.int8)
    cand = np.full(n * n, sum(1 << v for v in range(1, n + 1)), np.int64)
    for c in np.flatnonzero(p.cells):
        P.place(cells, cand, prop.peers, int(c), int(p.cells[c]))
    ok = P.propagate(cells, cand, prop.units, prop.peers)
    return ok, cells, cand


def _solution(p: Puzzle) -> np.ndarray:
    found = count_solutions(p, 1).solution
    assert found is not None
    return found


def test_numba_propagation_equals_the_reference_on_the_article() -> None:
    p = Puzzle.from_string(ARTICLE)
    ok, cells, cand = _numba_propagate(p)
    ref_cells, ref_cand = propagate_singles(p)
    assert ok and np.array_equal(cells, ref_cells) and np.array_equal(cand, ref_cand)
    sol = np.array([int(x) for x in ARTICLE_SOLUTION])
    assert all(cand[c] >> int(sol[c]) & 1 for c in range(81))


@pytest.mark.parametrize("side", [16, 25])
def test_numba_propagation_equals_the_reference_and_keeps_the_solution(
        sudoku_data: Path, side: int) -> None:
    for p in _puzzles(sudoku_data, side, 6 if side == 16 else 3):
        ok, cells, cand = _numba_propagate(p)
        ref_cells, ref_cand = propagate_singles(p)
        assert ok and np.array_equal(cells, ref_cells) and np.array_equal(cand, ref_cand)
        sol = _solution(p)
        assert all(cand[c] >> int(sol[c]) & 1 for c in range(p.side ** 2)), p.name
        assert np.all((cells == 0) | (cells == sol))


def test_propagation_finds_a_contradiction() -> None:
    p = Puzzle.from_string(ARTICLE)
    prop = _Propagator(3)
    cells, cand = propagate_singles(p)
    c = int(np.flatnonzero(cells == 0)[0])
    cand[c] = 0  # an open cell with no value left
    assert not P.propagate(cells, cand, prop.units, prop.peers)
    assert not P.consistent(cells, cand, prop.units)


def test_guided_partial_never_excludes_a_solution_it_follows() -> None:
    p = Puzzle.from_string(ARTICLE)
    sol = np.array([int(x) for x in ARTICLE_SOLUTION], np.int8)
    prop = _Propagator(3)
    cells, cand = prop.guided(propagate_singles(p), sol, np.random.default_rng(0))
    assert P.consistent(cells, cand, prop.units)
    assert all(cand[c] >> int(sol[c]) & 1 for c in range(81))
    assert np.all((cells == 0) | (cells == sol))


def test_guided_partial_skips_wrong_values_and_stays_consistent() -> None:
    p = Puzzle.from_string(ARTICLE)
    wrong = np.array([int(x) for x in ARTICLE_SOLUTION], np.int8)
    wrong[[0, 1]] = wrong[[1, 0]]  # two values of box 1 swapped: clash in columns
    assert not clash_free(wrong, _Propagator(3).units)[[0, 1]].any()
    prop = _Propagator(3)
    for seed in range(5):
        cells, cand = prop.guided(propagate_singles(p), wrong, np.random.default_rng(seed))
        assert P.consistent(cells, cand, prop.units)
        assert cells[0] in (0, 7) and cells[1] in (0, 1)


def test_propagating_evolution_solves_and_repeats_with_the_seed() -> None:
    p = Puzzle.from_string(ARTICLE)
    params = EvolutionParams(accept_equal=True, max_restarts=200)
    r1 = solve_evolution(p, params, seed=3, propagate=True)
    r2 = solve_evolution(p, params, seed=3, propagate=True)
    assert r1.status == "solved" and verify(p, r1.solution)
    assert r1.iterations == r2.iterations and r1.stats == r2.stats
    assert len(r1.stats["fixed_cells"]) == r1.restarts + 1


def test_9x9_keeps_the_plain_scheme_by_default() -> None:
    p = Puzzle.from_string(ARTICLE)
    auto = solve(p, "evolution", seed=5)
    plain = solve(p, "evolution", seed=5, propagate=False)
    assert auto.stats == plain.stats and np.array_equal(auto.solution, plain.solution)


def test_epoch_budget_counts_over_all_runs() -> None:
    p = Puzzle.from_string("." * 256)  # an empty 16x16: many grids, few epochs given
    params = EvolutionParams(organisms=4, max_restarts=10**6, max_epochs=3)
    r = solve_evolution(p, params, seed=0, limit=Limit(nodes=10, clock="cpu"),
                        propagate=True)
    assert r.status in ("solved", "iterations") and r.iterations <= 10


@pytest.mark.parametrize("side", [16])
def test_propagating_evolution_solves_a_16x16_sample(sudoku_data: Path, side: int) -> None:
    p = _puzzles(sudoku_data, side, 1)[0]
    r = solve(p, "evolution", seed=0,
              params=dataclasses.replace(EvolutionParams(accept_equal=True),
                                         max_restarts=10**6),
              limit=Limit(time=60, clock="cpu"))
    assert r.solved and verify(p, r.solution)


@pytest.mark.slow
def test_25x25_sample_solved_within_60_cpu_seconds(sudoku_data: Path) -> None:
    params = EvolutionParams(accept_equal=True, max_restarts=10**9)
    puzzles = _puzzles(sudoku_data, 25, 20)
    solved = 0
    for p in puzzles:
        r = solve(p, "evolution", seed=0, params=params, limit=Limit(time=60, clock="cpu"))
        if r.solved:
            assert verify(p, r.solution)
            solved += 1
    assert solved >= 16, f"{solved}/20 solved"
