"""A slow, obviously correct Sudoku solution counter: the reference for the fast kernel.

Plain Python, plain backtracking: fill an empty cell with every value its row, column and
box allow, recurse, undo. The only concession to speed is which empty cell is filled next
(the one with the fewest allowed values); any choice gives the same count, since every
solution fills every cell. No propagation, no bit tricks, nothing shared with
:mod:`gameopt.sudoku._exact_kernel`.
"""

from __future__ import annotations

from gameopt.errors import InvalidInputError
from gameopt.sudoku.grid import Puzzle

__all__ = ["count_solutions_reference"]


def count_solutions_reference(puzzle: Puzzle, limit: int = 2) -> tuple[int, list[int] | None]:
    """Count the solutions of ``puzzle`` up to ``limit`` by plain backtracking.

    Parameters
    ----------
    puzzle : Puzzle
        Any box size (only small or nearly full grids finish in reasonable time).
    limit : int
        Stop after this many solutions (>= 1).

    Returns
    -------
    count : int
        Number of solutions found, at most ``limit``.
    first : list of int or None
        The first solution found (row-major values), ``None`` if there is none.

    Raises
    ------
    InvalidInputError
        If ``limit`` < 1.

    Notes
    -----
    Exponential in the number of empty cells; meant for tests.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInputError(f"limit must be an integer >= 1, got {limit!r}")
    b, n = puzzle.box, puzzle.side
    grid = [int(v) for v in puzzle.cells.tolist()]
    # two givens with the same value in one unit: no solution (Puzzle refuses them anyway)
    for i, v in enumerate(grid):
        if v and v not in _allowed(grid, i, n, b, ignore_self=True):
            return 0, None
    found: list[list[int]] = []
    count = _search(grid, n, b, limit, found)
    return count, (found[0] if found else None)


def _allowed(grid: list[int], i: int, n: int, b: int, ignore_self: bool = False) -> set[int]:
    """Values no peer of cell ``i`` holds."""
    r, c = divmod(i, n)
    used = set()
    for k in range(n):
        if k != c or not ignore_self:
            used.add(grid[r * n + k])
        if k != r or not ignore_self:
            used.add(grid[k * n + c])
    r0, c0 = r - r % b, c - c % b
    for rr in range(r0, r0 + b):
        for cc in range(c0, c0 + b):
            if (rr, cc) != (r, c) or not ignore_self:
                used.add(grid[rr * n + cc])
    return set(range(1, n + 1)) - used


def _search(grid: list[int], n: int, b: int, limit: int, found: list[list[int]]) -> int:
    best, options = -1, set[int]()
    for i, v in enumerate(grid):
        if v == 0:
            allowed = _allowed(grid, i, n, b)
            if best < 0 or len(allowed) < len(options):
                best, options = i, allowed
            if not allowed:
                return 0
    if best < 0:  # no empty cell: a solution
        found.append(list(grid))
        return 1
    count = 0
    for v in sorted(options):
        grid[best] = v
        count += _search(grid, n, b, limit - count, found)
        grid[best] = 0
        if count >= limit:
            break
    return count
