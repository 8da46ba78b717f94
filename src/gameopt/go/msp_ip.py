"""MSP(m, n) as a 0-1 program on OR-Tools CP-SAT (Miyashiro, Yano, Muramatsu 2008).

``x[i][j] = 1`` when point (i, j) is left empty. Minimise Σ x subject to
x_ij + x_{i−1,j} + x_{i+1,j} + x_{i,j−1} + x_{i,j+1} ≥ 1 at every point (the empty
points dominate the board; see :mod:`gameopt.go.msp`).

The *improved* formulation adds Miyashiro, Yano and Muramatsu's corner cut at each corner
and, on square boards, their symmetry breaking around the centre.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
from ortools.sat.python import cp_model

from gameopt.core import Limit, Progress, ProgressCallback
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
    """Miyashiro, Yano and Muramatsu's 0-1 model of MSP on an m×n board.

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
    """Miyashiro, Yano and Muramatsu's symmetry breaking around the centre of a square
    board (1-based c)."""
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


class _Report(cp_model.CpSolverSolutionCallback):
    """Reports each board CP-SAT finds: ``Progress("msp-ip", solutions, best=γ)`` with the
    proven lower bound on γ in ``info``."""

    def __init__(self, progress: ProgressCallback, board: str) -> None:
        super().__init__()
        self.progress = progress
        self.board = board
        self.found = 0

    def on_solution_callback(self) -> None:
        self.found += 1
        self.progress(Progress("msp-ip", self.found, best=self.objective_value,
                               info={"board": self.board,
                                     "bound": self.best_objective_bound}))


def solve_msp_ip(m: int, n: int | None = None, formulation: str = "improved", *,
                 limit: Limit | None = None, workers: int = 2, seed: int | None = 0,
                 lower: int | None = None, upper: int | None = None,
                 parameters: Mapping[str, object] | None = None,
                 progress: ProgressCallback | None = None) -> MspResult:
    """Solve MSP(m, n) with CP-SAT; returns the board and whether it is proven optimal.

    Parameters
    ----------
    m, n, formulation, lower, upper
        As :func:`build_msp_model`.
    limit : Limit, optional
        Wall time (CP-SAT's clock) and an external stop flag.
    workers, seed, parameters
        CP-SAT's (see :func:`gameopt.ip.solve`).
    progress : ProgressCallback, optional
        Called at each better board CP-SAT finds (task ``"msp-ip"``, ``best`` = its γ,
        ``info["bound"]`` = the proven lower bound).

    Returns
    -------
    MspResult
        ``seconds`` on the wall clock, model building included.

    Raises
    ------
    SolverError
        If no board was found within the limit.
    InvalidInputError
        A limit CP-SAT cannot keep (a CPU clock, nodes, depth, target).
    """
    n = m if n is None else n
    t0 = time.perf_counter()
    model, x = build_msp_model(m, n, formulation, lower=lower, upper=upper)
    params = dict(DEFAULT_PARAMETERS if parameters is None else parameters)
    if workers < 2 and "subsolvers" in params:
        params.pop("subsolvers")  # a single worker runs one search: the default one
    report = None if progress is None else _Report(progress, f"{m}x{n}")
    res = solve(model, limit=limit, workers=workers, seed=seed, parameters=params,
                callback=report)
    empty = np.array([[bool(res.solver.value(x[i][j])) for j in range(n)] for i in range(m)])
    if not is_dominating(empty):
        raise SolverError(f"MSP {m}x{n}: CP-SAT returned a set that does not dominate")
    gamma = int(empty.sum())
    bound = int(np.ceil((res.bound or 0) - 1e-6))
    return MspResult(m, n, gamma, m * n - gamma, res.status == "optimal",
                     f"ip-{formulation}", time.perf_counter() - t0, empty,
                     bound=max(bound, lower or 0),
                     stats={"solver_seconds": res.seconds, "stop": res.stats["stop"],
                            "branches": res.stats["branches"]})
