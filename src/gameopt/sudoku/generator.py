"""Seeded generation of Sudoku puzzles with a unique solution, any box size.

A random full grid is made by filling the diagonal boxes with random permutations (they
share no row, column or box, so any filling is consistent), completing it with the exact
solver and shuffling it with random validity-preserving symmetries. Givens are then
removed in random order, each removal kept only if the exact solver still proves the
puzzle unique.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from gameopt.core import Limit, StopRule, check_count
from gameopt.core.rng import make_rng
from gameopt.errors import BudgetExhaustedError, InvalidInputError, SolverError
from gameopt.sudoku.exact import count_array
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.logic import RATINGS, explain
from gameopt.sudoku.verify import solution_problems

__all__ = ["generate", "min_givens", "default_givens", "default_moves", "random_grid"]

#: Smallest number of givens a unique puzzle can have, where it is known: 4 for 4x4,
#: 17 for 9x9 (McGuire, Tugemann and Civario 2014). For larger grids ``n - 1`` is used,
#: the trivial bound (two values absent from the givens could be swapped).
_KNOWN_MIN = {2: 4, 3: 17}

#: Swap moves of the walk towards fewer givens on 9x9 (see :func:`generate`).
_DEFAULT_MOVES = 200

#: Full grids tried for a difficulty when the limit sets no ``nodes``.
_DIFFICULTY_TRIES = 2000

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


def default_moves(box: int) -> int:
    """Swap moves of the walk towards fewer givens used when ``moves`` is None: 9x9
    only (elsewhere removal alone; proving 16x16 and larger grids unique is slower)."""
    return _DEFAULT_MOVES if box == 3 else 0


def generate(box: int = 3, givens: int | None = None, seed: int | None = None, *,
             difficulty: str | None = None, moves: int | None = None,
             limit: Limit | None = None, solution: npt.ArrayLike | None = None) -> Puzzle:
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
    difficulty : str or None
        One of :data:`gameopt.sudoku.logic.RATINGS` (``"easy"``, ``"medium"``,
        ``"hard"``, ``"expert"``...): the puzzle returned is rated exactly that by the
        logical solver (:func:`gameopt.sudoku.logic.explain`). Random full grids are
        tried until one's minimal puzzle has that rating, and the walk towards fewer
        givens only moves to puzzles with that rating. None: any rating.
    moves : int or None
        Swap moves of the walk towards fewer givens, after removal (see Notes); None:
        :func:`default_moves` (0 unless 9x9).
    limit : Limit or None
        Budget: ``nodes`` counts full grids tried for ``difficulty`` (default 2000),
        ``time`` bounds the whole call; a walk cut by the time limit returns the best
        puzzle so far. ``stop`` stops it the same way.
    solution : array_like of int, shape (n*n,), optional
        A full grid to carve the puzzle from (row-major values 1..n), for instance the
        solution of a puzzle someone likes; every try then starts from it, with a new
        removal order. None: a random grid per try.

    Returns
    -------
    Puzzle
        With its solution attached (``puzzle.solution``) and a name recording box, seed
        and difficulty.

    Raises
    ------
    InvalidInputError
        Box size not 2..6, ``givens`` outside ``min_givens(box) .. n*n``, a bad seed,
        an unknown ``difficulty``, a negative ``moves`` or a ``solution`` that is not a
        full valid grid of box size ``box``.
    BudgetExhaustedError
        If no grid tried within ``limit`` gave a puzzle of the asked difficulty.
    SolverError
        If no random full grid could be completed (not expected to happen).

    Notes
    -----
    Removal tries each given once, in a random order: a removal that breaks uniqueness
    breaks it for every sparser puzzle too, so the result does not depend on when a
    removal is retried. That is ``n*n`` uniqueness proofs at most, batched a few at a
    time through :func:`gameopt.sudoku.exact.count_array` when removals start failing.
    Random removal ends at about 24 givens on 9x9; the walk then makes ``moves``
    -1+1 swaps, each blanking a random given and filling one of the empty cells that
    restore uniqueness (one batch of about ``n*n`` proofs), then removing the givens
    that became redundant: a walk over the minimal puzzles of one solution grid that
    goes downhill whenever a swap frees a given. The full grids are not uniformly
    distributed over all Sudoku grids, and the puzzles are biased towards few givens.

    References
    ----------
    .. [1] T. Dillon, "Tdoku: A fast Sudoku solver and generator", 2019,
       https://t-dillon.github.io/tdoku (generation by removal with uniqueness checks).
    .. [2] G. McGuire, B. Tugemann and G. Civario, "There is no 16-clue Sudoku: solving
       the Sudoku minimum number of clues problem via hitting set enumeration",
       Experimental Mathematics 23(2), 2014.
    .. [3] G. Royle, "Minimum Sudoku", University of Western Australia, 2005 (17-clue
       puzzles collected by -1+1 moves between minimal puzzles).
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
    if difficulty is not None and difficulty not in RATINGS:
        raise InvalidInputError(f"generate: difficulty {difficulty!r}: expected one of "
                                f"{', '.join(RATINGS)}")
    steps = check_count(default_moves(box) if moves is None else moves, "generate: moves",
                        minimum=0)
    assert steps is not None
    fixed = None if solution is None else _full_grid(solution, box)
    rng = make_rng(seed)
    rule = limit.start() if limit is not None else None
    stop = 0 if target is None else int(target)
    name = f"generated box={box} seed={seed}"
    if difficulty is None:
        full = random_grid(box, rng) if fixed is None else fixed
        cells = _remove_givens(full, box, stop, rng)
        cells = _walk(cells, full, box, stop, steps, rng, lambda _: True, rule)
        return Puzzle(box, cells, name=name, solution=full)
    tries = limit.nodes if limit is not None and limit.nodes is not None else _DIFFICULTY_TRIES
    tried = 0
    while tried < tries:
        if rule is not None and rule.should_stop() is not None:
            break
        tried += 1
        full = random_grid(box, rng) if fixed is None else fixed
        cells = _remove_givens(full, box, stop, rng)
        if _rating(cells, box, full) != difficulty:
            continue

        def same(cand: npt.NDArray[np.int8], _full: npt.NDArray[np.int8] = full) -> bool:
            return _rating(cand, box, _full) == difficulty

        cells = _walk(cells, full, box, stop, steps, rng, same, rule)
        return Puzzle(box, cells, name=f"{name} difficulty={difficulty}", solution=full)
    raise BudgetExhaustedError(
        f"generate: no {difficulty} puzzle of box {box} in {tried} full grids tried")


def _full_grid(solution: npt.ArrayLike, box: int) -> npt.NDArray[np.int8]:
    """``solution`` as an int8 grid, checked to be a full valid grid of box ``box``."""
    try:
        grid = np.asarray(solution, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"generate: solution is not an array of integers: {exc}"
                                ) from None
    problems = solution_problems(Puzzle(box, np.zeros(box ** 4, dtype=np.int8)), grid)
    if problems:
        raise InvalidInputError(f"generate: solution is not a full grid of box {box}: "
                                f"{problems[0]}")
    return grid.astype(np.int8)


def _rating(cells: npt.NDArray[np.int8], box: int, full: npt.NDArray[np.int8]) -> str:
    """The logical solver's rating of a unique puzzle."""
    return explain(Puzzle(box, cells, solution=full)).rating


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


def _remove_givens(cells: npt.NDArray[np.int8], box: int, target: int,
                   rng: np.random.Generator) -> npt.NDArray[np.int8]:
    """Blank givens of ``cells`` in random order while the puzzle stays unique."""
    cells = cells.copy()
    order = rng.permutation(np.flatnonzero(cells))
    left = int(np.count_nonzero(cells))
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


def _swap(cells: npt.NDArray[np.int8], full: npt.NDArray[np.int8], box: int,
          rng: np.random.Generator) -> npt.NDArray[np.int8] | None:
    """A -1+1 move: blank a random given, then fill a random empty cell (with its value
    in ``full``) that makes the puzzle unique again; None when no cell does."""
    base = cells.copy()
    base[rng.choice(np.flatnonzero(cells))] = 0
    empty = np.flatnonzero(base == 0)
    batch = np.repeat(base[None, :], empty.size, axis=0)
    batch[np.arange(empty.size), empty] = full[empty]
    ok = empty[count_array(batch, box, limit=2)[0] == 1]
    ok = ok[cells[ok] == 0]  # putting the blanked given back is no move
    if not ok.size:
        return None
    cell = int(rng.choice(ok))
    base[cell] = full[cell]
    return base


def _walk(cells: npt.NDArray[np.int8], full: npt.NDArray[np.int8], box: int, target: int,
          moves: int, rng: np.random.Generator,
          accept: Callable[[npt.NDArray[np.int8]], bool], rule: StopRule | None
          ) -> npt.NDArray[np.int8]:
    """Walk over minimal puzzles of solution ``full`` towards fewer givens.

    Each of ``moves`` steps makes a -1+1 swap (:func:`_swap`), then blanks every given
    that has become redundant; the result replaces ``cells`` when ``accept`` says so
    (a walk on the plateau of equal givens, downhill when a given drops out).
    """
    for _ in range(moves):
        if np.count_nonzero(cells) <= target or (rule is not None and rule.should_stop()):
            break
        moved = _swap(cells, full, box, rng)
        if moved is None:
            continue
        moved = _remove_givens(moved, box, target, rng)
        if accept(moved):
            cells = moved
    return cells
