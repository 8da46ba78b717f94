"""MSP(m, n) as a 0-1 program on OR-Tools CP-SAT (Miyashiro, Yano, Muramatsu 2008).

``x[i][j] = 1`` when point (i, j) is left empty. Minimise Σ x subject to
x_ij + x_{i−1,j} + x_{i+1,j} + x_{i,j−1} + x_{i,j+1} ≥ 1 at every point (the empty
points dominate the board; see :mod:`gameopt.go.msp`).

The *improved* formulation adds the seed's corner cut at each corner and, on square
boards, its symmetry breaking around the centre.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
from ortools.sat.python import cp_model

from gameopt.errors import InvalidInputError, SolverError
from gameopt.go.msp import MspResult, check_size, is_dominating
from gameopt.ip.cpsat import solve

__all__ = ["FORMULATIONS", "build_msp_model", "solve_msp_ip", "DEFAULT_PARAMETERS"]

FORMULATIONS = ("basic", "improved")

#: Measured on this 2-core machine (issue 7): with 2 workers and default subsolvers CP-SAT
#: never raises its lower bound on this model; the core-based and LP-based workers prove it.
DEFAULT_PARAMETERS: Mapping[str, object] = {"subsolvers": ["core", "max_lp"]}

Var = cp_model.IntVar


def build_msp_model(m: int, n: int | None = None, formulation: str = "improved", *,
                    lower: int | None = None, upper: int | None = None
                    ) -> tuple[cp_model.CpModel, list[list[Var]]]:
    """The seed's model of MSP on an m×n board.

    Parameters
    ----------
    m, n : int
        Rows and columns (``n`` defaults to ``m``).
    formulation : {"basic", "improved"}
        ``improved`` adds the corner cuts (boards of at least 3×3) and, on square boards of
        at least 3×3, the centre symmetry breaking.
    lower, upper : int, optional
        Known bounds on Σ x (e.g. the DP's γ), added as constraints.

    Returns
    -------
    model, x
        ``x[i][j]`` (0-based) is 1 when the point is empty.

    References
    ----------
    T. Miyashiro, H. Yano, M. Muramatsu, "The maximum number of strings on a Go board by
    integer programming" (in Japanese), RIMS Kôkyûroku 1584, 2008.
    """
    n = m if n is None else n
    check_size(m, n, where="MSP model")
    if formulation not in FORMULATIONS:
        raise InvalidInputError(f"MSP model: unknown formulation {formulation!r}; "
                                f"choose {' or '.join(FORMULATIONS)}")
    model = cp_model.CpModel()
    model.name = f"msp-{formulation}-{m}x{n}"
    # Variables: x[i][j] = 1 when (i, j) is empty (in the dominating set).
    x = [[model.new_bool_var(f"x{i}_{j}") for j in range(n)] for i in range(m)]
    # Every point has an empty point in its closed neighbourhood (its stone has a liberty).
    for i in range(m):
        for j in range(n):
            around = [x[a][b] for a, b in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                      if 0 <= a < m and 0 <= b < n]
            model.add_bool_or(around)
    if formulation == "improved":
        _corner_cuts(model, x, m, n)
        if m == n:
            _centre_symmetry(model, x, n)
    # Bounds known from elsewhere.
    total = sum(x[i][j] for i in range(m) for j in range(n))
    if lower is not None:
        model.add(total >= lower)
    if upper is not None:
        model.add(total <= upper)
    # Objective: as few empty points as possible (as many strings as possible).
    model.minimize(total)
    return model, x


def _corner_cuts(model: cp_model.CpModel, x: list[list[Var]], m: int, n: int) -> None:
    """x13 + x22 + x23 + x31 + x32 >= 1 at each corner (1-based, seen from the corner)."""
    if m < 3 or n < 3:
        return
    for flip_i in (False, True):
        for flip_j in (False, True):
            cut = [x[m - i if flip_i else i - 1][n - j if flip_j else j - 1]
                   for i, j in ((1, 3), (2, 2), (2, 3), (3, 1), (3, 2))]
            model.add_bool_or(cut)


def _centre_symmetry(model: cp_model.CpModel, x: list[list[Var]], n: int) -> None:
    """The seed's symmetry breaking around the centre of a square board (1-based c)."""
    if n < 3:
        return

    def v(i: int, j: int) -> Var:
        return x[i - 1][j - 1]

    if n % 2 == 0:
        c = n // 2
        model.add(v(c, c) <= v(c, c + 1))
        model.add(v(c, c) <= v(c + 1, c))
        model.add(v(c, c) <= v(c + 1, c + 1))
        model.add(v(c + 1, c) <= v(c, c + 1))
        model.add(v(c + 1, c + 1) <= v(c, c + 1))
    else:
        c = (n + 1) // 2
        model.add(v(c, c - 1) <= v(c - 1, c))
        model.add(v(c, c - 1) <= v(c, c + 1))
        model.add(v(c, c - 1) <= v(c + 1, c))
        model.add(v(c + 1, c) <= v(c - 1, c))
        model.add(v(c, c + 1) <= v(c - 1, c))
        model.add(v(c, c) + v(c - 1, c) >= 1)


def solve_msp_ip(m: int, n: int | None = None, formulation: str = "improved", *,
                 time_limit: float | None = None, workers: int = 2, seed: int | None = 0,
                 lower: int | None = None, upper: int | None = None,
                 parameters: Mapping[str, object] | None = None) -> MspResult:
    """Solve MSP(m, n) with CP-SAT; returns the board and whether it is proven optimal.

    Raises
    ------
    SolverError
        If no board was found within the time limit.
    """
    n = m if n is None else n
    t0 = time.perf_counter()
    model, x = build_msp_model(m, n, formulation, lower=lower, upper=upper)
    params = dict(DEFAULT_PARAMETERS if parameters is None else parameters)
    if workers < 2 and "subsolvers" in params:
        params.pop("subsolvers")  # a single worker runs one search: the default one
    res = solve(model, time_limit=time_limit, workers=workers, seed=seed, parameters=params)
    empty = np.array([[bool(res.solver.value(x[i][j])) for j in range(n)] for i in range(m)])
    if not is_dominating(empty):
        raise SolverError(f"MSP {m}x{n}: CP-SAT returned a set that does not dominate")
    gamma = int(empty.sum())
    bound = int(np.ceil((res.bound or 0) - 1e-6))
    return MspResult(m, n, gamma, m * n - gamma, res.status == "optimal",
                     f"ip-{formulation}", time.perf_counter() - t0, empty,
                     bound=max(bound, lower or 0), stats={"wall_time": res.wall_time})
