"""Seeded generation of Sudoku puzzles with a unique solution, any box size.

A random full grid is made by filling the diagonal boxes with random permutations (they
share no row, column or box, so any filling is consistent), completing it with the exact
solver and shuffling it with random validity-preserving symmetries. Givens are then
removed in random order, each removal kept only if the exact solver still proves the
puzzle unique.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gameopt.core.rng import make_rng
from gameopt.errors import InvalidInputError, SolverError
from gameopt.sudoku.exact import count_array
from gameopt.sudoku.grid import Puzzle

__all__ = ["generate", "min_givens", "default_givens", "random_grid"]

#: Smallest number of givens a unique puzzle can have, where it is known: 4 for 4x4,
#: 17 for 9x9 (McGuire, Tugemann and Civario 2014). For larger grids ``n - 1`` is used,
#: the trivial bound (two values absent from the givens could be swapped).
_KNOWN_MIN = {2: 4, 3: 17}

#: Tries at completing random diagonal boxes before giving up (one is enough in practice).
_FILL_TRIES = 20


def min_givens(box: int) -> int:
    """Smallest ``givens`` accepted by :func:`generate` for box size ``box``."""
    return _KNOWN_MIN.get(box, box * box - 1)


def default_givens(box: int) -> int | None:
    """Target used when ``givens`` is None: ``None`` (as few as possible, a minimal
    puzzle) up to 16x16; about 60 % of the cells for 25x25 and 36x36, where proving
    uniqueness of sparse grids gets slow."""
    if box <= 4:
        return None
    return int(0.6 * box ** 4)


def generate(box: int = 3, givens: int | None = None, seed: int | None = None) -> Puzzle:
    """A random puzzle of box size ``box`` with a unique solution.

    Parameters
    ----------
    box : int
        Box size 2..6 (4x4 up to 36x36). 5 and 6 are best effort: proving sparse
        grids unique gets slow.
    givens : int or None
        Target number of givens. Removal stops there, or earlier when no given can be
        removed without losing uniqueness: the puzzle returned is then *minimal* (every
        given is needed) and has more givens than asked. ``None``: see
        :func:`default_givens`.
    seed : int or None
        Seed of the random generator; the same seed gives the same puzzle.

    Returns
    -------
    Puzzle
        With its solution attached (``puzzle.solution``) and a name recording box and
        seed.

    Raises
    ------
    InvalidInputError
        Box size not 2..6, ``givens`` outside ``min_givens(box) .. n*n``, or a bad seed.
    SolverError
        If no random full grid could be completed (not expected to happen).

    Notes
    -----
    Each removal is tried once, in a random order: a removal that breaks uniqueness
    breaks it for every sparser puzzle too, so the result does not depend on when a
    removal is retried. That is ``n*n`` uniqueness proofs at most, batched a few at a
    time through :func:`gameopt.sudoku.exact.count_array` when removals start failing.
    The full grids are not uniformly distributed over all Sudoku grids.

    References
    ----------
    .. [1] T. Dillon, "Tdoku: A fast Sudoku solver and generator", 2019,
       https://t-dillon.github.io/tdoku (generation by removal with uniqueness checks).
    .. [2] G. McGuire, B. Tugemann and G. Civario, "There is no 16-clue Sudoku: solving
       the Sudoku minimum number of clues problem via hitting set enumeration",
       Experimental Mathematics 23(2), 2014.
    """
    if isinstance(box, bool) or not isinstance(box, int) or not 2 <= box <= 6:
        raise InvalidInputError(f"generate: box size must be an integer 2..6, got {box!r}")
    ncell = box ** 4
    target = default_givens(box) if givens is None else givens
    if target is not None and (isinstance(target, bool)
                               or not isinstance(target, int | np.integer)
                               or not min_givens(box) <= target <= ncell):
        raise InvalidInputError(
            f"generate: givens must be an integer {min_givens(box)}..{ncell} for box {box}, "
            f"got {givens!r}")
    rng = make_rng(seed)
    full = random_grid(box, rng)
    cells = _remove_givens(full, box, int(target) if target is not None else 0, rng)
    return Puzzle(box, cells, name=f"generated box={box} seed={seed}", solution=full)


def random_grid(box: int, rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """A random full grid (row-major, int8) of box size ``box``."""
    n = box * box
    for _ in range(_FILL_TRIES):
        grid = np.zeros((n, n), dtype=np.int8)
        for i in range(box):
            rows = slice(i * box, (i + 1) * box)
            grid[rows, rows] = (rng.permutation(n) + 1).reshape(box, box)
        counts, solutions, _ = count_array(grid.reshape(1, -1), box, limit=1)
        if counts[0]:
            return _shuffle(solutions[0].reshape(n, n), box, rng).ravel()
    raise SolverError(f"generate: no completion of {_FILL_TRIES} random diagonal fillings "
                      f"for box {box}")


def _shuffle(grid: npt.NDArray[np.int8], box: int, rng: np.random.Generator
             ) -> npt.NDArray[np.int8]:
    """Apply random symmetries: rows within bands, bands, columns within stacks, stacks,
    transposition and a relabelling of the values (each keeps a grid valid)."""
    def line_order() -> npt.NDArray[np.int64]:
        bands = rng.permutation(box)
        return np.concatenate([b * box + rng.permutation(box) for b in bands])

    out = grid[line_order()][:, line_order()]
    if rng.random() < 0.5:
        out = out.T
    relabel = np.concatenate([[0], rng.permutation(box * box) + 1]).astype(np.int8)
    return np.ascontiguousarray(relabel[out])


def _remove_givens(full: npt.NDArray[np.int8], box: int, target: int,
                   rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """Blank cells of ``full`` in random order while the puzzle stays unique."""
    cells = full.copy()
    order = rng.permutation(cells.size)
    left = cells.size
    i = 0
    chunk = 1  # removals tried per kernel call; grows while removals keep failing
    while i < order.size and left > target:
        tries = order[i:i + chunk]
        batch = np.repeat(cells[None, :], tries.size, axis=0)
        batch[np.arange(tries.size), tries] = 0
        counts = count_array(batch, box, limit=2)[0]
        ok = np.flatnonzero(counts == 1)
        if ok.size:  # keep the first success; the failures before it are final
            j = int(ok[0])
            cells[tries[j]] = 0
            left -= 1
            i += j + 1
            chunk = max(1, chunk // 2)
        else:
            i += tries.size
            chunk = min(2 * chunk, 64)
    return cells
