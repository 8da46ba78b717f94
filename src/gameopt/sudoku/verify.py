"""An independent verifier: is this grid a solution of that puzzle?

It shares no code with the solvers (not even the unit tables of :mod:`grid`), so a bug in
one cannot hide a bug in the other.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gameopt.sudoku.grid import Puzzle

__all__ = ["verify", "solution_problems"]


def solution_problems(puzzle: Puzzle, solution: npt.ArrayLike) -> list[str]:
    """Every reason ``solution`` is not a solution of ``puzzle`` (empty list: it is)."""
    b, n = puzzle.box, puzzle.side
    sol = np.asarray(solution).reshape(-1)
    if sol.size != n * n:
        return [f"solution has {sol.size} cells, expected {n * n}"]
    grid = [[int(sol[r * n + c]) for c in range(n)] for r in range(n)]
    want = set(range(1, n + 1))
    problems = []
    for r in range(n):
        if set(grid[r]) != want:
            problems.append(f"row {r + 1} is not a permutation of 1..{n}")
    for c in range(n):
        if {grid[r][c] for r in range(n)} != want:
            problems.append(f"column {c + 1} is not a permutation of 1..{n}")
    for br in range(b):
        for bc in range(b):
            vals = {grid[br * b + i][bc * b + j] for i in range(b) for j in range(b)}
            if vals != want:
                problems.append(f"box {br * b + bc + 1} is not a permutation of 1..{n}")
    givens = puzzle.cells.tolist()
    for i, g in enumerate(givens):
        if g and grid[i // n][i % n] != g:
            problems.append(f"given {g} at r{i // n + 1}c{i % n + 1} was changed")
    return problems


def verify(puzzle: Puzzle, solution: npt.ArrayLike) -> bool:
    """True when ``solution`` fills ``puzzle`` correctly."""
    return not solution_problems(puzzle, solution)
