"""A slow, obviously correct Go board: the reference for :mod:`gameopt.go.board`.

Plain Python on a list of rows, nothing kept between calls: every question is answered by
a fresh flood fill from scratch. Nothing is shared with :mod:`gameopt.go.board` or its
kernels except the colour numbers (0 empty, 1 black, 2 white); points are ``(row, col)``
from the top-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Grid", "reference_strings", "reference_play", "reference_legal_moves"]

#: A position: ``grid[row][col]`` is 0 (empty), 1 (black) or 2 (white).
Grid = list[list[int]]


def _neighbours(grid: Sequence[Sequence[int]], r: int, c: int) -> list[tuple[int, int]]:
    rows, cols = len(grid), len(grid[0])
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def _flood(grid: Sequence[Sequence[int]], r: int, c: int
           ) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The stones of the string through (r, c) and its liberties."""
    colour = grid[r][c]
    stones = {(r, c)}
    libs: set[tuple[int, int]] = set()
    todo = [(r, c)]
    while todo:
        p = todo.pop()
        for q in _neighbours(grid, *p):
            v = grid[q[0]][q[1]]
            if v == 0:
                libs.add(q)
            elif v == colour and q not in stones:
                stones.add(q)
                todo.append(q)
    return stones, libs


def reference_strings(grid: Sequence[Sequence[int]]
                      ) -> list[tuple[int, list[tuple[int, int]], list[tuple[int, int]]]]:
    """Every string as ``(colour, sorted stones, sorted liberties)``, in row-major order of
    each string's first stone. O((rows*cols)**2) at worst; meant for tests."""
    done: set[tuple[int, int]] = set()
    out = []
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == 0 or (r, c) in done:
                continue
            stones, libs = _flood(grid, r, c)
            done |= stones
            out.append((v, sorted(stones), sorted(libs)))
    return out


def reference_play(grid: Sequence[Sequence[int]], colour: int, point: tuple[int, int],
                   ko: tuple[int, int] | None = None, allow_suicide: bool = False
                   ) -> tuple[Grid, list[tuple[int, int]], tuple[int, int] | None] | None:
    """Play ``colour`` at ``point`` by the rules of Go; ``None`` if the move is illegal.

    ``ko`` is the point ``colour`` may not play on this move (simple ko). Returns the new
    grid, the captured points (sorted) and the point the opponent may not retake next.
    """
    r, c = point
    if grid[r][c] != 0 or point == ko:
        return None
    new = [list(row) for row in grid]
    new[r][c] = colour
    captured: set[tuple[int, int]] = set()
    for q in _neighbours(new, r, c):
        if new[q[0]][q[1]] == 3 - colour and q not in captured:
            stones, libs = _flood(new, *q)
            if not libs:
                captured |= stones
    for q in captured:
        new[q[0]][q[1]] = 0
    stones, libs = _flood(new, r, c)
    if not libs:
        if not allow_suicide:
            return None
        for q in stones:
            new[q[0]][q[1]] = 0
    next_ko = None
    if len(captured) == 1 and len(stones) == 1 and len(libs) == 1:
        next_ko = next(iter(captured))
    return new, sorted(captured), next_ko


def reference_legal_moves(grid: Sequence[Sequence[int]], colour: int,
                          ko: tuple[int, int] | None = None,
                          allow_suicide: bool = False) -> list[tuple[int, int]]:
    """Every point where :func:`reference_play` accepts a move, in row-major order."""
    return [(r, c) for r, row in enumerate(grid) for c in range(len(row))
            if reference_play(grid, colour, (r, c), ko, allow_suicide) is not None]
