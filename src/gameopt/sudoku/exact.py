"""Exact Sudoku solver: count the solutions of a puzzle of any box size, up to a limit.

Counting up to 2 proves a puzzle unique (one solution found, and the whole rest of the
search tree shown empty) or shows it has several. The search runs in compiled numba
kernels (:mod:`gameopt.sudoku._exact_kernel`), one specialised build per box size, with
a plain-Python reference (:mod:`gameopt.sudoku.reference`) for the tests.

Examples
--------
>>> from gameopt.sudoku.grid import Puzzle
>>> p = Puzzle.from_string(
...     "..62...8...897......481.5......6...2.7.....3.6...5......2.471....3.284...5...12..")
>>> out = count_solutions(p)
>>> out.status, out.count
('unique', 1)
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core import StopFlag
from gameopt.errors import InvalidInputError
from gameopt.sudoku import _band_kernel, _exact_kernel
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.outcome import CountedOutcome

__all__ = ["ExactOutcome", "STATUSES", "count_array", "count_many", "count_solutions",
           "solve_exact", "status_of", "warm"]

#: Every status an :class:`ExactOutcome` can have.
STATUSES = ("unique", "multiple", "none", "solved", "stopped")

#: Locked candidates after the singles: more work per node, far fewer guesses. Measured on
#: the benchmark sets: faster on 17-clue and hard puzzles, no change on easy ones.
_USE_LOCKED = True

#: Counts stop here whatever the limit asked (the kernel counts in int64).
_MAX_LIMIT = 2 ** 62


@dataclass(frozen=True, eq=False)
class ExactOutcome(CountedOutcome):
    """What the exact solver found for one puzzle.

    Attributes
    ----------
    status : str
        ``"unique"`` (exactly one solution, proved: needs ``limit >= 2``), ``"multiple"``
        (at least two), ``"none"`` (no solution, proved), ``"solved"`` (``limit == 1``
        and a solution found; uniqueness not examined) or ``"stopped"`` (the stop flag
        was set before the count ended; no solution is reported).
    count : int
        Solutions found, at most the ``limit`` asked for; -1 when stopped.
    solution : ndarray of int8, shape (n*n,), or None
        The first solution found (row-major, read-only); ``None`` when there is none. For
        ``"multiple"`` it is one of the solutions.
    nodes : int
        Guesses made: values tried at branching cells (0 when propagation alone decides).
    seconds : float
        CPU seconds of the search (the kernel is compiled or loaded before the clock
        starts). For :func:`count_many`, the batch time divided evenly among its puzzles
        (the kernel does not time puzzles one by one).

    An :class:`~gameopt.core.Outcome`: ``clock`` is ``"cpu"``; ``proven`` is true for
    ``"unique"`` and ``"none"``; ``bound`` is None.
    """

    status: str
    count: int
    solution: npt.NDArray[np.int8] | None
    nodes: int
    seconds: float

    @property
    def clock(self) -> str:
        return "cpu"

    @property
    def stats(self) -> dict[str, Any]:
        return {"nodes": self.nodes}


def count_solutions(puzzle: Puzzle, limit: int = 2, *, stop: StopFlag | None = None
                    ) -> ExactOutcome:
    """Count the solutions of ``puzzle`` up to ``limit`` by exact search.

    Parameters
    ----------
    puzzle : Puzzle
        Any box size 2..6 (4x4 up to 36x36).
    limit : int
        Stop after this many solutions (>= 1). 2 (the default) proves uniqueness; 1 only
        finds a solution.
    stop : StopFlag, optional
        Read every ``STOP_EVERY`` (1024) guesses: once set, the search ends with status
        ``"stopped"``.

    Returns
    -------
    ExactOutcome

    Raises
    ------
    InvalidInputError
        If ``puzzle`` is not a :class:`Puzzle` or ``limit`` is not an integer >= 1.

    Notes
    -----
    Depth-first search over candidate bitmasks. Each node propagates naked and hidden
    singles to a fixpoint (only units that lost a candidate are rescanned), then locked
    candidates (pointing and claiming), and branches on a cell with the fewest candidates
    (minimum remaining values), preferring among two-valued cells the one whose values
    appear most among its peers. A guess copies one level of ``n*n`` words; the last value
    of a cell reuses the level.

    9x9 puzzles go to a kernel over digit planes split into bands of three rows (27
    cells per machine word, :mod:`gameopt.sudoku._band_kernel`): the same propagation
    and branching rule, each step a few word operations per digit, hidden singles and
    locked candidates rescanned only for digits whose candidates changed.

    Sudoku is NP-complete for general ``n`` (Yato and Seta), so the worst case is
    exponential in the number of empty cells; a node costs at most O(n**3) word
    operations (``n*n`` cells, each with fewer than ``3n`` peers). Sparse puzzles above
    16x16 can take far longer than 9x9 ones (measured rates: the README and
    ``benchmarks/bench_sudoku_exact.py``).

    References
    ----------
    .. [1] P. Norvig, "Solving Every Sudoku Puzzle", 2006 (constraint propagation with
       depth-first search on the fewest-candidate cell).
    .. [2] D. E. Knuth, "Dancing Links", Millennial Perspectives in Computer Science,
       2000 (Sudoku as exact cover; branching on the most constrained choice).
    .. [3] T. Dillon, "Tdoku: A fast Sudoku solver and generator", 2019,
       https://t-dillon.github.io/tdoku (singles and locked candidates, guess heuristics,
       benchmark sets).
    .. [4] T. Yato and T. Seta, "Complexity and completeness of finding another solution
       and its application to puzzles", IEICE Trans. Fundamentals E86-A(5), 2003.
    """
    if not isinstance(puzzle, Puzzle):
        raise InvalidInputError(f"count_solutions: expected a Puzzle, got {type(puzzle).__name__}")
    return count_many([puzzle], limit, stop=stop)[0]


def solve_exact(puzzle: Puzzle, limit: int = 2, *, stop: StopFlag | None = None
                ) -> ExactOutcome:
    """Alias of :func:`count_solutions`."""
    return count_solutions(puzzle, limit, stop=stop)


def count_many(puzzles: list[Puzzle], limit: int = 2, *, stop: StopFlag | None = None
               ) -> list[ExactOutcome]:
    """Count the solutions of many puzzles of one box size in one kernel call.

    Parameters
    ----------
    puzzles : list of Puzzle
        All of the same box size (an empty list gives an empty list).
    limit : int
        Stop each count at this many solutions (>= 1).
    stop : StopFlag, optional
        As :func:`count_solutions`; the puzzles not finished when it is set get status
        ``"stopped"``.

    Returns
    -------
    list of ExactOutcome
        In the order of ``puzzles``.

    Raises
    ------
    InvalidInputError
        If an item is not a :class:`Puzzle`, the box sizes differ, or ``limit`` is bad.

    Notes
    -----
    Same search as :func:`count_solutions`; batching keeps the per-call Python overhead
    out of the rate.
    """
    _check_limit(limit)
    puzzles = list(puzzles)
    if not puzzles:
        return []
    for i, p in enumerate(puzzles):
        if not isinstance(p, Puzzle):
            raise InvalidInputError(f"count_many: item {i} is a {type(p).__name__}, not a Puzzle")
    box = puzzles[0].box
    for i, p in enumerate(puzzles):
        if p.box != box:
            raise InvalidInputError(
                f"count_many: all puzzles must have one box size; puzzle {i}"
                f"{' (' + p.name + ')' if p.name else ''} has box {p.box}, puzzle 0 has {box}")
    grids = np.stack([p.cells for p in puzzles]).astype(np.int8)
    warm(box)
    t0 = time.process_time()
    counts, solutions, nodes = count_array(grids, box, limit,
                                           stop=None if stop is None else stop.array)
    each = (time.process_time() - t0) / len(puzzles)
    solutions.flags.writeable = False  # each outcome gets a read-only row of the batch
    return [ExactOutcome(status_of(k, limit), k, solutions[j] if k > 0 else None, g, each)
            for j, (k, g) in enumerate(zip(counts.tolist(), nodes.tolist(), strict=True))]


def count_array(grids: npt.ArrayLike, box: int, limit: int = 2, *, kernel: str = "auto",
                stop: npt.NDArray[np.uint8] | None = None
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Array form of :func:`count_many`: one puzzle per row, no per-puzzle objects.

    Parameters
    ----------
    grids : array_like of int, shape (m, n*n) or (n*n,)
        Row-major values, 0 = empty. Givens may repeat in a unit (the count is then 0).
    box : int
        Box size 2..6.
    limit : int
        Stop each count at this many solutions (>= 1).
    kernel : {"auto", "band", "cells"}
        ``"band"``: the 9x9 digit-plane kernel; ``"cells"``: the kernel of every box
        size, cell by cell; ``"auto"``: band for 9x9, cells otherwise. Both give the same
        counts (and the same solution of a unique puzzle); nodes and the first of
        several solutions may differ.
    stop : ndarray of uint8, shape (1,), optional
        A stop flag's array (:attr:`gameopt.core.StopFlag.array`), read between puzzles
        and every ``STOP_EVERY`` (1024) guesses; once it is nonzero, the puzzle being
        counted and those after it get count -1.

    Returns
    -------
    counts : ndarray of int64, shape (m,)
        Solutions found, up to ``limit``; -1 for puzzles not finished when stopped.
    solutions : ndarray of int8, shape (m, n*n)
        The first solution found for each row; zeros where there is none.
    nodes : ndarray of int64, shape (m,)
        Guesses made for each row.

    Raises
    ------
    InvalidInputError
        Bad box size, shape, cell value, limit or kernel.
    """
    _check_limit(limit)
    if kernel not in ("auto", "band", "cells") or (kernel == "band" and box != 3):
        raise InvalidInputError(
            f"kernel {kernel!r}: expected 'auto', 'cells', or 'band' (9x9 only)")
    if isinstance(box, bool) or not isinstance(box, int) or not 2 <= box <= 6:
        raise InvalidInputError(f"box size must be an integer 2..6, got {box!r}")
    n = box * box
    ncell = n * n
    arr = np.asarray(grids)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != ncell:
        raise InvalidInputError(
            f"grids must have shape (m, {ncell}) for box {box}, got {np.shape(grids)}")
    if arr.size and (arr.min() < 0 or arr.max() > n):
        bad = np.argwhere((arr < 0) | (arr > n))[0]
        raise InvalidInputError(
            f"grid {bad[0]}: value {arr[bad[0], bad[1]]} at cell {bad[1]} is out of range 0..{n}")
    grids8 = np.ascontiguousarray(arr, dtype=np.int8)
    if not grids8.flags.writeable:  # numba compiles read-only arrays as another type
        grids8 = grids8.copy()
    if stop is None:
        stop = np.zeros(1, dtype=np.uint8)
    elif not (isinstance(stop, np.ndarray) and stop.dtype == np.uint8 and stop.shape == (1,)):
        raise InvalidInputError("stop: expected a StopFlag's array (uint8, shape (1,))")
    m = grids8.shape[0]
    counts = np.zeros(m, dtype=np.int64)
    solutions = np.zeros((m, ncell), dtype=np.int8)
    nodes = np.zeros(m, dtype=np.int64)
    if box == 3 and kernel != "cells":
        _band_kernel.solve_rows(grids8, min(int(limit), _MAX_LIMIT),
                                np.empty(82 * _band_kernel.W, dtype=np.int64),
                                np.empty(82, dtype=np.int64), np.empty(82, dtype=np.int64),
                                counts, solutions, nodes, stop)
        return counts, solutions, nodes
    _exact_kernel.solver(box)(grids8, min(int(limit), _MAX_LIMIT), _USE_LOCKED, *_workspace(box),
                              counts, solutions, nodes, stop)
    return counts, solutions, nodes


def _workspace(box: int) -> tuple[np.ndarray, ...]:
    n = box * box
    ncell = n * n
    return (np.empty(ncell * (ncell + 1), dtype=_exact_kernel.dtype_for(box)),
            np.empty(ncell + 1, dtype=np.int32),  # queue
            np.empty(ncell + 1, dtype=np.int32),  # branching cells
            np.empty(ncell + 1, dtype=np.int64),  # values left to try
            np.empty(ncell + 1, dtype=np.int64),  # unplaced cells per level
            np.empty(2 * n * box, dtype=np.int64))  # segment masks


@functools.cache
def warm(box: int) -> None:
    """Compile (or load from numba's cache) the kernel for ``box`` outside any timing."""
    count_array(np.zeros((0, box ** 4), dtype=np.int8), box, 1)
    if box == 3:
        count_array(np.zeros((0, 81), dtype=np.int8), box, 1, kernel="cells")


def _check_limit(limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int | np.integer) or limit < 1:
        raise InvalidInputError(f"limit must be an integer >= 1, got {limit!r}")


def status_of(count: int, limit: int) -> str:
    """The :data:`STATUSES` word of a count made up to ``limit`` (-1: stopped)."""
    if count < 0:
        return "stopped"
    if count == 0:
        return "none"
    if count >= 2:
        return "multiple"
    return "solved" if limit == 1 else "unique"
