"""An independent verifier: is this grid a solution of that puzzle?

It shares no code with the solvers (not even the unit tables of :mod:`grid`), so a bug in
one cannot hide a bug in the other.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from gameopt.sudoku.grid import Puzzle

__all__ = ["verify", "solution_problems", "failing_rows"]


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


def failing_rows(givens: npt.NDArray[np.integer], solutions: npt.NDArray[np.integer],
                 box: int) -> npt.NDArray[np.intp]:
    """The rows of ``solutions`` that are not solutions of the same rows of ``givens``.

    Vectorised check of many grids at once: every row, column and box of each solution
    holds 1..n once, and every given is kept. :func:`solution_problems` says why a row
    fails.

    Parameters
    ----------
    givens, solutions : ndarray of int, shape (m, n*n)
        Puzzles and their claimed solutions, row-major.
    box : int
        Box size b (side n = b*b).

    Returns
    -------
    ndarray of intp
        Indices of the failing rows (empty when every solution is valid).

    Notes
    -----
    O(m * n^2) array operations.
    """
    n = box * box
    m = solutions.shape[0]
    wide = np.int32 if n < 31 else np.int64
    sol = solutions.reshape(m, n * n)
    in_range = ((sol >= 1) & (sol <= n)).all(axis=1)
    # Each group a permutation of 1..n: n bits 1 << v that sum to 2 + 4 + ... + 2**n
    # (n powers of two sum to a number with n one-bits only when they are distinct).
    bits = np.left_shift(wide(1), np.clip(sol, 0, n).astype(wide)[:, _groups(box)])
    full = (1 << (n + 1)) - 2
    perms = (bits.sum(axis=2) == full).all(axis=1)
    g = givens.reshape(m, n * n)
    kept = ((g == 0) | (g == sol)).all(axis=1)
    return np.flatnonzero(~(in_range & perms & kept))


@functools.cache
def _groups(box: int) -> npt.NDArray[np.intp]:
    """Cell indices of every row, column and box, shape (3n, n): built here, apart from
    :func:`gameopt.sudoku.grid.units`, so the check shares no table with the solvers."""
    n = box * box
    cell = np.arange(n * n).reshape(n, n)
    boxes = cell.reshape(box, box, box, box).transpose(0, 2, 1, 3).reshape(n, n)
    out = np.concatenate([cell, cell.T, boxes]).astype(np.intp)
    out.flags.writeable = False
    return out
