"""Large optimal MSP boards by construction (square and rectangular, 16 ≤ min(m, n)).

Gonçalves, Pinlou, Rao and Thomassé (2011) proved γ(G_{m,n}) = ⌊(m+2)(n+2)/5⌋ − 4 for
16 ≤ m ≤ n. We build a dominating set of that size in two steps and check it:

1. *Diagonal pattern.* On the grid extended by one ring, the points with
   (i + 2j) mod 5 = k dominate every point of the extended grid (each point's closed
   neighbourhood holds exactly one of them). Pattern points on the ring are moved onto
   the nearest board point; ring corners, next to no board point, are dropped.
2. *Local re-optimisation.* The four corner windows (where the theorem's −4 comes from),
   then if needed windows along the edges, are re-solved exactly with CP-SAT, everything
   outside a window fixed, so the set stays dominating and never grows. The first of the
   10 patterns (5 offsets, 2 diagonal directions) that reaches the theorem's value after
   its corners are re-solved is kept (else the smallest).

The result is verified to dominate; its size is compared with the theorem by the caller
(:func:`construct_msp`), which reports ``proven`` only when they agree.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from ortools.sat.python import cp_model

from gameopt.core import Limit, Progress, ProgressCallback, StopRule
from gameopt.errors import SolverError
from gameopt.go.msp import MspResult, check_size, dominated, formula_gamma, is_dominating
from gameopt.ip.cpsat import solve

__all__ = ["diagonal_pattern", "reoptimise_window", "construct_dominating_set",
           "construct_msp"]


def diagonal_pattern(m: int, n: int, k: int, transpose: bool = False
                     ) -> npt.NDArray[np.bool_]:
    """Step 1 for one offset ``k`` (0..4) and direction; a dominating set of the board."""
    i, j = np.indices((m + 2, n + 2)) - 1  # extended coordinates -1..m, -1..n
    ext = ((j + 2 * i) % 5 == k) if transpose else ((i + 2 * j) % 5 == k)
    out = np.zeros((m, n), dtype=bool)
    out |= ext[1:-1, 1:-1]
    out[0, :] |= ext[0, 1:-1]          # ring above -> first row
    out[-1, :] |= ext[-1, 1:-1]        # ring below -> last row
    out[:, 0] |= ext[1:-1, 0]          # ring left -> first column
    out[:, -1] |= ext[1:-1, -1]        # ring right -> last column
    return out


def reoptimise_window(empty: npt.NDArray[np.bool_], top: int, left: int, h: int, w: int,
                      *, time_limit: float = 10.0) -> int:
    """Re-solve the h×w window at (top, left) exactly, the rest fixed; in place.

    Returns the number of points saved (>= 0). Every point whose closed neighbourhood
    meets the window must stay dominated; points outside count their fixed neighbours.
    """
    m, n = empty.shape
    r0, r1 = max(0, top), min(m, top + h)
    c0, c1 = max(0, left), min(n, left + w)
    inside = np.zeros_like(empty)
    inside[r0:r1, c0:c1] = True
    outside_set = empty & ~inside
    covered_outside = dominated(outside_set)  # what stays dominated whatever the window
    model = cp_model.CpModel()
    y = {(i, j): model.new_bool_var(f"y{i}_{j}") for i in range(r0, r1) for j in range(c0, c1)}
    for i in range(max(0, r0 - 1), min(m, r1 + 1)):
        for j in range(max(0, c0 - 1), min(n, c1 + 1)):
            if covered_outside[i, j]:
                continue
            near = [y[p] for p in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                    if p in y]
            if not near:
                raise SolverError(f"window at ({top}, {left}): point ({i}, {j}) cannot be "
                                  "dominated")
            model.add_bool_or(near)
    before = int(empty[r0:r1, c0:c1].sum())
    model.add(sum(y.values()) <= before)
    for (i, j), var in y.items():
        model.add_hint(var, bool(empty[i, j]))
    model.minimize(sum(y.values()))
    res = solve(model, time_limit=time_limit, workers=2, seed=0,
                parameters={"subsolvers": ["core", "max_lp"]})
    after = int(res.objective or before)
    if after < before:
        for (i, j), var in y.items():
            empty[i, j] = bool(res.solver.value(var))
    return before - after


def construct_dominating_set(m: int, n: int | None = None, *, window: int = 10,
                             target: int | None = None, stop: StopRule | None = None,
                             progress: ProgressCallback | None = None
                             ) -> npt.NDArray[np.bool_]:
    """A small dominating set of the m×n grid (see the module docstring).

    Windows of ``window``×``window`` slide along the border ring with stride
    ``window // 2``, corners first; the sweep stops early once ``target`` is reached, or
    when ``stop`` says so (checked before each window: the set is then the best so far,
    still dominating). ``progress`` hears ``Progress("msp-construct", windows solved,
    best=set size)`` after each window.
    """
    n = m if n is None else n
    check_size(m, n, where="construction")
    stop = stop or StopRule()
    done = 0

    def window_at(empty: npt.NDArray[np.bool_], top: int, left: int) -> None:
        nonlocal done
        reoptimise_window(empty, top, left, window, window,
                          time_limit=min(10.0, stop.deadline.remaining()))
        done += 1
        if progress is not None:
            progress(Progress("msp-construct", done, best=float(empty.sum()),
                              info={"board": f"{m}x{n}"}))

    def reached(empty: npt.NDArray[np.bool_] | None) -> bool:
        return empty is not None and target is not None and int(empty.sum()) <= target

    best: npt.NDArray[np.bool_] | None = None
    for k in range(5):
        for transpose in (False, True):
            empty = diagonal_pattern(m, n, k, transpose)
            for top, left in _border_windows(m, n, window)[:4]:  # the four corners
                if stop.should_stop(done) is None:
                    window_at(empty, top, left)
            if best is None or empty.sum() < best.sum():
                best = empty
            if reached(best) or stop.should_stop(done) is not None:
                break
        if reached(best) or stop.should_stop(done) is not None:
            break
    assert best is not None
    empty = best
    for top, left in _border_windows(m, n, window)[4:]:  # then along the edges
        if reached(empty) or stop.should_stop(done) is not None:
            break
        window_at(empty, top, left)
    if not is_dominating(empty):
        raise SolverError(f"construction {m}x{n}: the set does not dominate (a bug)")
    return empty


def _border_windows(m: int, n: int, w: int) -> list[tuple[int, int]]:
    """Window corners: the four board corners first, then along each edge."""
    corners = [(0, 0), (0, n - w), (m - w, 0), (m - w, n - w)]
    step = max(1, w // 2)
    edges = ([(0, j) for j in range(step, n - w, step)]
             + [(m - w, j) for j in range(step, n - w, step)]
             + [(i, 0) for i in range(step, m - w, step)]
             + [(i, n - w) for i in range(step, m - w, step)])
    return corners + edges


def construct_msp(m: int, n: int | None = None, *, window: int = 10,
                  limit: Limit | None = None,
                  progress: ProgressCallback | None = None) -> MspResult:
    """An MSP board by construction; ``proven`` when its size meets the theorem's value.

    ``limit`` (time on its clock, a stop flag) is checked before each window; a run it
    cuts short returns the best board so far, not proven unless it already meets the
    theorem. ``seconds`` are on the limit's clock (wall by default).

    References
    ----------
    D. Gonçalves, A. Pinlou, M. Rao, S. Thomassé, "The domination number of grids", SIAM
    Journal on Discrete Mathematics 25(3), 1443-1453, 2011.
    """
    n = m if n is None else n
    rule = (limit or Limit()).start()
    target = formula_gamma(m, n)
    empty = construct_dominating_set(m, n, window=window, target=target, stop=rule,
                                     progress=progress)
    gamma = int(empty.sum())
    proven = target is not None and gamma == target
    return MspResult(m, n, gamma, m * n - gamma, proven, "construct", rule.elapsed(), empty,
                     bound=target if proven else None,
                     stats={"theorem_gamma": target, "stop": rule.should_stop()},
                     clock=rule.clock)
