"""Exact dynamic program for the domination number of grid graphs, and so MSP(m, n).

A set ``D`` of cells of the m×n grid dominates it when every cell is in ``D`` or next
to a cell of ``D``; γ(G_{m,n}) is the least size of such a set. The maximum-strings
problem of Go (issue 7) is MSP(m, n) = m·n − γ(G_{m,n}): leave ``D`` empty and colour the
other points like a checkerboard. This module proves γ by a transfer (broken-profile)
dynamic program over the grid, independently of any solver; the numba kernels are in
:mod:`gameopt.go._dp_kernel`, and :mod:`gameopt.go.msp_brute` is the slow reference.

Examples
--------
>>> r = domination_number(8)
>>> r.gamma, r.msp
(16, 48)
>>> s = optimal_dominating_set(3, 5)
>>> s.gamma, s.dominating_set.shape
(4, (3, 5))
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from gameopt.core import Limit, Progress, ProgressCallback, StopRule, default_workers
from gameopt.errors import InvalidInputError, SolverError
from gameopt.go import _dp_kernel as _k
from gameopt.go.msp_brute import is_dominating

__all__ = ["DPResult", "LAYER_LIMIT", "domination_number", "optimal_dominating_set",
           "plain_domination_number", "warm"]

logger = logging.getLogger(__name__)

#: Most bytes of DP tables :func:`optimal_dominating_set` keeps to recover a set
#: (16×16 needs 1.4 GB, 17×17 4.5 GB).
LAYER_LIMIT = 2 * 10**9

_TASK = "msp-dp"
#: Phase 1 works on blocks of ``3**_BLOCK_DIGITS`` bytes (531 KB: within L2).
_BLOCK_DIGITS = 12
#: Phase 2 runs the cells ``_BLOCK_DIGITS..w-1`` in pieces of at most this many cells, so
#: a work unit is at most ``3**5`` streams of ``_CHUNK`` bytes (measured at w = 19: one
#: piece of 7 cells, 6561 streams, is 3x slower than two pieces).
_PIECE = 4
_CHUNK = 2048
_SCRATCH = 4096
#: Largest value a table entry may hold (255 is INF).
_TOP = 254


@dataclass(frozen=True)
class DPResult:
    """γ(G_{m,n}) and MSP(m, n) proved by the dynamic program.

    Attributes
    ----------
    gamma : int
        The domination number γ(G_{m,n}).
    msp : int
        m·n − gamma: the maximum number of strings on an m×n Go board.
    m, n : int
        Rows and columns.
    states : int
        DP states per table: ``3**min(m, n)``.
    seconds : float
        Time of the run on ``clock`` (the kernels are loaded or compiled before the clock
        starts: :func:`warm`).
    dominating_set : ndarray of bool, shape (m, n), or None
        A minimum dominating set (for MSP: the empty points), from
        :func:`optimal_dominating_set`; ``None`` from :func:`domination_number`.
    clock : str
        The clock of ``seconds``: the limit's (wall by default).

    An :class:`~gameopt.core.Outcome`: ``proven`` is always true (a DP cut short by its
    limit raises), ``bound`` is ``gamma``.
    """

    gamma: int
    msp: int
    m: int
    n: int
    states: int
    seconds: float
    dominating_set: npt.NDArray[np.bool_] | None = field(default=None, repr=False,
                                                          compare=False)
    clock: str = "wall"

    @property
    def proven(self) -> bool:
        return True

    @property
    def bound(self) -> float | None:
        return float(self.gamma)

    @property
    def stats(self) -> dict[str, object]:
        return {"states": self.states}


@functools.cache
def warm() -> None:
    """Load (or compile) every DP kernel outside any timing: a 3x3 and a 13x13 sweep (the
    plain path, phase 1 and phase 2), a back-tracking, and the table normalisation."""
    for w in (3, 13):
        sweep = _Sweep(w, w, 1, keep_rows=w == 3)
        sweep.run(None, "warm-up", StopRule())
        gamma, state = sweep.answer()
        if w == 3:
            sweep.back_track(state, gamma)
    table = np.zeros(9, dtype=np.uint8)
    lo, _ = (int(v) for v in _k.minmax(table))
    _k.shift_down(table, lo)


def domination_number(m: int, n: int | None = None, *, threads: int | None = None,
                      limit: Limit | None = None,
                      progress: ProgressCallback | None = None) -> DPResult:
    """Prove γ(G_{m,n}), and so MSP(m, n), by the transfer dynamic program.

    Parameters
    ----------
    m : int
        Rows, at least 1.
    n : int or None
        Columns, at least 1 (default: ``m``, a square board).
    threads : int or None
        Threads for the large tables (default: the CPUs this process may use). The
        result does not depend on it.
    limit : Limit or None
        Time (on its clock) and an external stop flag, checked after each row; ``nodes``
        counts rows. A run it stops raises (a DP has no answer before its last row).
    progress : ProgressCallback or None
        Called with ``Progress(task="msp-dp", done=rows swept, total=rows)`` after each
        row of the sweep (rows along the longer side).

    Returns
    -------
    DPResult
        ``dominating_set`` is ``None``; see :func:`optimal_dominating_set`.

    Raises
    ------
    InvalidInputError
        If a size is not a positive integer, or the table (``3**min(m, n)`` bytes) does
        not fit in the memory available (on a 24 GB machine: up to ``min(m, n) = 21``,
        10.5 GB).
    SolverError
        If the limit stopped the sweep (the message gives the lower bound on γ proved by
        the rows swept), or the values in the table spread over more than a byte holds
        (not seen; it would be a bug, never a wrong answer).

    Notes
    -----
    The grid is swept along its longer side ``h``, one cell at a time, with the shorter
    side ``w`` as the frontier: each frontier cell is in the set, dominated, or not yet
    dominated, so there are ``3**w`` states, each holding the least set size so far (one
    byte). A cell that leaves the frontier must be dominated. Time O(m·n·3^w), memory
    ``3**w`` bytes (one table updated in place). Rows are cache-blocked and skip blocks of
    unreachable states (most of them: about ``2.414**w`` of the ``3**w`` are reachable);
    see :mod:`gameopt.go._dp_kernel`. Measured times, against the unblocked DP
    (:func:`plain_domination_number`): ``benchmarks/bench_go_dp.py`` and the README.

    References
    ----------
    .. [1] S. Alanko, S. Crevals, A. Isopoussu, P. Östergård, V. Pettersson, "Computing
       the domination number of grid graphs", Electronic Journal of Combinatorics 18(1)
       P141, 2011.
    .. [2] D. Gonçalves, A. Pinlou, M. Rao, S. Thomassé, "The domination number of
       grids", SIAM Journal on Discrete Mathematics 25(3), 1443-1453, 2011.
    .. [3] H. Miyashiro, T. Yano, M. Muramatsu, "Maximum number of strings on a Go
       board" (in Japanese), RIMS Kôkyûroku 1584, 2008.
    """
    m, n = _check_sizes(m, n, "domination_number")
    h, w = max(m, n), min(m, n)
    _guard(3**w, m, n, "domination_number", f"3**{w} one-byte DP states", None)
    rule = _start(limit)
    sweep = _Sweep(h, w, _check_threads(threads))
    sweep.run(progress, f"{m}x{n}", rule)
    gamma, _ = sweep.answer()
    return DPResult(gamma, m * n - gamma, m, n, 3**w, rule.elapsed(), clock=rule.clock)


def optimal_dominating_set(m: int, n: int | None = None, *, threads: int | None = None,
                           limit: Limit | None = None,
                           progress: ProgressCallback | None = None) -> DPResult:
    """Prove γ(G_{m,n}) and return a minimum dominating set, by back-tracking the DP.

    Parameters
    ----------
    m, n, threads, limit, progress
        As for :func:`domination_number` (the limit is checked during the forward sweep).

    Returns
    -------
    DPResult
        With ``dominating_set`` a boolean (m, n) array of ``gamma`` cells, checked to
        dominate the grid.

    Raises
    ------
    InvalidInputError
        As :func:`domination_number`, and when the tables kept for the back-tracking,
        ``(max(m, n) + min(m, n) + 1) * 3**min(m, n)`` bytes, exceed ``LAYER_LIMIT`` or
        the memory available: up to 16×16 (and 16×n for n up to about 28) fits in the
        default 2 GB. Beyond, only the value is available (:func:`domination_number`).
    SolverError
        If the back-tracking or the final check fails (a bug, never a wrong answer).

    Notes
    -----
    The forward sweep keeps the table at the start of each row (``h`` tables). Going
    back from the best final state, each row is swept again cell by cell from its saved
    table, and at each cell one predecessor state and choice giving the value is found
    among the 9 states that differ in the cell's two digits. Time about twice that of
    :func:`domination_number`, memory ``(h + w + 1) * 3**w`` bytes.

    References
    ----------
    As :func:`domination_number`.
    """
    m, n = _check_sizes(m, n, "optimal_dominating_set")
    h, w = max(m, n), min(m, n)
    _guard((h + w + 1) * 3**w, m, n, "optimal_dominating_set",
           f"DP tables to recover a set ({h + w + 1} tables of 3**{w} bytes)", LAYER_LIMIT)
    rule = _start(limit)
    sweep = _Sweep(h, w, _check_threads(threads), keep_rows=True)
    sweep.run(progress, f"{m}x{n}", rule)
    gamma, state = sweep.answer()
    grid = sweep.back_track(state, gamma)  # h rows of w cells
    board = grid if n <= m else grid.T
    if int(board.sum()) != gamma or not is_dominating(board):
        raise SolverError(f"optimal_dominating_set: {m}x{n}: the recovered set has "
                          f"{int(board.sum())} cells and dominates: {is_dominating(board)}; "
                          f"expected a dominating set of {gamma}")
    return DPResult(gamma, m * n - gamma, m, n, 3**w, rule.elapsed(), board,
                    clock=rule.clock)


def _start(limit: Limit | None) -> StopRule:
    """Warm the kernels, then start the limit's clock."""
    if limit is not None and (limit.depth is not None or limit.target is not None):
        raise InvalidInputError("domination DP: a limit takes time, nodes (rows) and a stop "
                                "flag here, not depth or target")
    warm()
    return (limit or Limit()).start()


def plain_domination_number(n: int) -> int:
    """γ(G_{n,n}) by the unblocked DP: ``n*n`` passes of the cell kernel over the whole
    table, no cache blocking, no skipping of unreachable blocks (the shape of a plain C
    implementation). The baseline :func:`domination_number` is measured against.

    Raises
    ------
    InvalidInputError
        If ``n`` is not a positive integer or the table does not fit in memory.
    """
    n, _ = _check_sizes(n, n, "plain_domination_number")
    _guard(3**n, n, n, "plain_domination_number", f"3**{n} one-byte DP states", None)
    t = np.full(3**n, _k.INF, dtype=np.uint8)
    t[(3**n - 1) // 2] = 0
    s0, s1 = _scratch()
    offset = bound = 0
    for _ in range(n):
        if bound + n > _TOP:  # keep the values within a byte, as the blocked sweep does
            lo, hi = (int(v) for v in _k.minmax(t))
            _k.shift_down(t, lo)
            offset, bound = offset + lo, hi - lo
        for c in range(n):
            _k.cell_step(t, c, s0, s1)
        bound += n
    value, _ = _k.final_min(t, n)
    return int(value) + offset


#: A kernel over a range of blocks or units, with its scratch: ``job(i0, i1, s0, s1)``.
_Job = Callable[[int, int, npt.NDArray[np.uint8], npt.NDArray[np.uint8]], int]


class _Sweep:
    """The forward DP over ``h`` rows of ``w`` cells, and its back-tracking.

    Invariants: ``table[s] + offset`` is the least number of set cells swept so far that
    leaves the frontier in state ``s`` (``table[s] == INF``: none does); every finite
    entry is at most ``bound`` <= ``_TOP``. With ``keep_rows``, ``rows[r]`` and
    ``offsets[r]`` are the table and offset at the start of row ``r``.
    """

    def __init__(self, h: int, w: int, threads: int, keep_rows: bool = False) -> None:
        self.h, self.w, self.threads = h, w, threads
        self.table = np.full(3**w, _k.INF, dtype=np.uint8)
        self.table[(3**w - 1) // 2] = 0  # all digits 1: a virtual row of dominated cells
        self.offset = 0
        self.bound = 0
        self.keep_rows = keep_rows
        self.rows: list[npt.NDArray[np.uint8]] = []
        self.offsets: list[int] = []
        self.k, self.pieces = _plan(w)

    def run(self, progress: ProgressCallback | None, board: str, rule: StopRule) -> None:
        pool = ThreadPoolExecutor(self.threads) if self.threads > 1 and self.k < self.w \
            else None
        try:
            for r in range(self.h):
                tick = time.perf_counter()
                self._normalise()
                if self.keep_rows:
                    self.rows.append(self.table.copy())
                    self.offsets.append(self.offset)
                busy = self._row(pool, partial(self._stop_if, rule, r, board))
                self.bound += self.w
                logger.debug("%s row %d/%d: %.3f s, busy blocks/units %s", board, r + 1,
                             self.h, time.perf_counter() - tick, busy)
                if progress is not None:
                    progress(Progress(task=_TASK, done=r + 1, total=self.h,
                                      info={"board": board}))
                if r + 1 < self.h:
                    self._stop_if(rule, r + 1, board)
        finally:
            if pool is not None:
                pool.shutdown()

    def _stop_if(self, rule: StopRule, rows: int, board: str) -> None:
        """Raise when ``rule`` says stop, with the bound on γ that the table proves (its
        least entry: set cells only add up as the sweep goes on)."""
        reason = rule.should_stop(rows)
        if reason is not None:
            lo, _ = _k.minmax(self.table)
            raise SolverError(
                f"domination DP {board}: stopped by the {reason} limit after {rows} of "
                f"{self.h} rows ({rule.elapsed():.3g} s {rule.clock}); the cells swept "
                f"prove γ >= {int(lo) + self.offset}")

    def _row(self, pool: ThreadPoolExecutor | None, check: Callable[[], None]) -> list[int]:
        """One row of cells; ``check()`` runs between its phases (it may raise)."""
        t, w = self.table, self.w
        if w < _k.LOW:  # tiny tables: the plain path
            s0, s1 = _scratch()
            for c in range(w):
                _k.cell_step(t, c, s0, s1)
            return []
        busy = [self._spread(pool, partial(_k.phase1, t, self.k), 3 ** (w - self.k))]
        check()
        for a, b in self.pieces:
            units = -(-(3 ** (a - 1)) // _CHUNK) * 3 ** (w - b)
            busy.append(self._spread(pool, partial(_k.phase2, t, a, b, _CHUNK), units))
            check()
        return busy

    def _spread(self, pool: ThreadPoolExecutor | None, job: _Job, total: int) -> int:
        """Run ``job(i0, i1, s0, s1)`` over ``range(total)``, split among the threads."""
        if pool is None or total < 2:
            return int(job(0, total, *_scratch()))
        parts = min(total, 8 * self.threads)  # small parts: blocks differ in work
        cuts = [total * i // parts for i in range(parts + 1)]
        futures = [pool.submit(job, i0, i1, *_scratch()) for i0, i1 in pairwise(cuts)]
        return sum(int(f.result()) for f in futures)

    def _normalise(self) -> None:
        """Subtract the least entry when the next row could push one past ``_TOP``."""
        if self.bound + self.w <= _TOP:
            return
        lo, hi = (int(v) for v in _k.minmax(self.table))
        _k.shift_down(self.table, lo)
        self.offset += lo
        self.bound = hi - lo
        if self.bound + self.w > _TOP:
            raise SolverError(f"domination DP: values spread over {self.bound} at width "
                              f"{self.w}, more than a byte holds")

    def answer(self) -> tuple[int, int]:
        """``(gamma, state)``: the least value over final states with no cell left
        undominated, and a state that has it."""
        value, state = _k.final_min(self.table, self.w)
        if value == _k.INF:
            raise SolverError(f"domination DP: no final state for width {self.w}")
        return int(value) + self.offset, int(state)

    def back_track(self, state: int, gamma: int) -> npt.NDArray[np.bool_]:
        """The cells of a minimum set, as an (h, w) array, from the kept rows."""
        w = self.w
        chosen = np.zeros((self.h, w), dtype=bool)
        value = gamma
        s0, s1 = _scratch()
        for r in reversed(range(self.h)):
            tables = [self.rows[r]]
            for c in range(w - 1):
                nxt = tables[-1].copy()
                _k.cell_step(nxt, c, s0, s1)
                tables.append(nxt)
            for c in reversed(range(w)):
                state, value, chosen[r, c] = _undo_cell(tables[c], self.offsets[r], c,
                                                        state, value)
        if state != (3**w - 1) // 2 or value != 0:
            raise SolverError(f"domination DP: back-tracking ended in state {state} with "
                              f"value {value}, not the start")
        return chosen


def _undo_cell(table: npt.NDArray[np.uint8], offset: int, c: int, after: int,
               value: int) -> tuple[int, int, bool]:
    """A state before cell ``c`` and a choice that lead to ``after`` with ``value``."""
    pu = 3**c
    pl = 3 ** (c - 1) if c else 0
    u2 = after // pu % 3
    l2 = after // pl % 3 if c else 0
    rest = after - u2 * pu - l2 * pl
    for up in range(3):
        for left in range(3) if c else (0,):
            before = rest + up * pu + left * pl
            if table[before] == _k.INF:
                continue
            for place in (False, True):
                if (_transition(up, left, place, c > 0) == (u2, l2)
                        and int(table[before]) + offset + place == value):
                    return before, value - place, place
    raise SolverError(f"domination DP: no predecessor of state {after} at cell {c}")


def _transition(up: int, left: int, place: bool, has_left: bool) -> tuple[int, int] | None:
    """New digits (the cell, its left neighbour) from ``up`` (the cell above, leaving the
    frontier) and ``left`` (ignored unless ``has_left``), or None when ``up`` would leave
    undominated. The plain-Python statement of the kernels' cell update."""
    if place:
        return 0, (1 if left == 2 else left)
    if up == 2:
        return None
    return (1 if up == 0 or (has_left and left == 0) else 2), left


def _plan(w: int) -> tuple[int, list[tuple[int, int]]]:
    """Phase 1 digit count and the phase-2 pieces ``(a, b)`` (cells ``a..b-1``)."""
    k = min(w, _BLOCK_DIGITS)
    rest = w - k
    count = -(-rest // _PIECE)
    cuts = [k + round(i * rest / count) for i in range(count + 1)] if count else [k]
    return k, list(pairwise(cuts))


def _scratch() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    return np.empty(_SCRATCH, dtype=np.uint8), np.empty(_SCRATCH, dtype=np.uint8)


def _check_sizes(m: int, n: int | None, where: str) -> tuple[int, int]:
    n = m if n is None else n
    for name, v in (("m", m), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
            raise InvalidInputError(f"{where}: {name} must be a positive integer, got {v!r}")
    return int(m), int(n)


def _check_threads(threads: int | None) -> int:
    if threads is None:
        return default_workers()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise InvalidInputError(f"domination DP: threads must be a positive integer, got "
                                f"{threads!r}")
    return threads


def _guard(need: int, m: int, n: int, where: str, what: str, limit: int | None) -> None:
    avail = _available_memory()
    if limit is not None and need > limit:
        raise InvalidInputError(f"{where}: {m}x{n} needs {need / 1e9:.1f} GB of {what}, more "
                                f"than the limit of {limit / 1e9:.1f} GB; "
                                "domination_number gives the value alone")
    if avail is not None and need > avail:
        raise InvalidInputError(f"{where}: {m}x{n} needs {need / 1e9:.1f} GB of {what}, only "
                                f"{avail / 1e9:.1f} GB of memory available")


def _available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux ``MemAvailable``), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
