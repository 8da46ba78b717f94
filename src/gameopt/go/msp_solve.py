"""MSP(m, n) by any method, every board checked by the board library; the table."""

from __future__ import annotations

import time

import numpy as np

from gameopt.errors import InvalidInputError, SolverError
from gameopt.go.board import Board
from gameopt.go.msp import MspResult, check_size, formula_gamma, msp_position

__all__ = ["METHODS", "solve_msp", "check_msp_board", "best_method", "msp_table"]

METHODS = ("ip-basic", "ip-improved", "dp", "construct")

#: Largest board side on which ``best_method`` uses the DP (memory 2·3^w bytes; the
#: optimal set itself needs more, see :mod:`gameopt.go.msp_dp`).
DP_DEFAULT_MAX = 15


def solve_msp(m: int, n: int | None = None, method: str = "auto", *,
              time_limit: float | None = None) -> MspResult:
    """MSP(m, n) with ``method`` (``"auto"``: :func:`best_method`), board checked.

    ``dp`` proves γ; it gives the board itself where its tables fit in memory, and
    otherwise the board comes from CP-SAT with the DP's γ as a bound on both sides.

    Raises
    ------
    InvalidInputError
        Unknown method, bad size, or a construction asked where the theorem does not hold.
    SolverError
        A board that fails the check (a bug), or no board within the time limit.
    """
    n = m if n is None else n
    check_size(m, n, where="MSP")
    if method == "auto":
        method = best_method(m, n)
    if method not in METHODS:
        raise InvalidInputError(f"MSP: unknown method {method!r}; choose one of "
                                f"{', '.join(METHODS)} or auto")
    if method.startswith("ip-"):
        from gameopt.go.msp_ip import solve_msp_ip

        res = solve_msp_ip(m, n, method[3:], time_limit=time_limit)
    elif method == "construct":
        from gameopt.go.construct import construct_msp

        if formula_gamma(m, n) is None:
            raise InvalidInputError(f"MSP {m}x{n}: construction needs both sides >= 16 "
                                    "(the theorem's range); use dp or ip-improved")
        res = construct_msp(m, n)
    else:
        res = _solve_dp(m, n, time_limit)
    check_msp_board(res)
    return res


def _solve_dp(m: int, n: int, time_limit: float | None) -> MspResult:
    from gameopt.go import msp_dp

    t0 = time.perf_counter()
    try:
        dp = msp_dp.optimal_dominating_set(m, n)
        empty = np.asarray(dp.dominating_set, dtype=bool)
        extra: dict[str, object] = {}
    except InvalidInputError:  # the back-tracking tables do not fit: γ alone, then a board
        dp = msp_dp.domination_number(m, n)
        empty, extra = _board_of_size(m, n, dp.gamma, time_limit)
    return MspResult(m, n, dp.gamma, dp.msp, True, "dp", time.perf_counter() - t0, empty,
                     bound=dp.gamma, stats={"states": dp.states, "dp_seconds": dp.seconds,
                                            **extra})


def _board_of_size(m: int, n: int, gamma: int, time_limit: float | None
                   ) -> tuple[np.ndarray, dict[str, object]]:
    """A dominating set of exactly ``gamma`` points: the construction where the theorem
    holds, else CP-SAT with Σx fixed to ``gamma`` (a feasibility problem)."""
    if formula_gamma(m, n) == gamma:
        from gameopt.go.construct import construct_msp

        c = construct_msp(m, n)
        if c.empty is not None and c.gamma == gamma:
            return c.empty, {"board_from": "construction", "board_seconds": c.seconds}
    from gameopt.go.msp_ip import solve_msp_ip

    ip = solve_msp_ip(m, n, "improved", lower=gamma, upper=gamma, time_limit=time_limit)
    if ip.empty is None:
        raise SolverError(f"MSP {m}x{n}: CP-SAT found no board of size {gamma}")
    return ip.empty, {"board_from": "ip-improved at the DP's value",
                      "board_seconds": ip.seconds}


def check_msp_board(res: MspResult) -> Board:
    """Load the result's board into the board library and check it: legal, and its
    string count equals the claimed MSP. Returns the board."""
    if res.empty is None:
        raise SolverError(f"MSP {res.m}x{res.n} ({res.method}): no board to check")
    board = Board.from_array(msp_position(res.empty))  # raises if a string has no liberty
    strings = board.string_count()
    if strings != res.msp or int(res.empty.sum()) != res.gamma:
        raise SolverError(f"MSP {res.m}x{res.n} ({res.method}): board has {strings} strings, "
                          f"claimed {res.msp}")
    return board


def best_method(m: int, n: int) -> str:
    """construct where the theorem holds, the DP on small boards, else ip-improved."""
    if formula_gamma(m, n) is not None:
        return "construct"
    if min(m, n) <= DP_DEFAULT_MAX:
        return "dp"
    return "ip-improved"


def msp_table(sizes: list[int], *, time_limit: float | None = None) -> list[list[object]]:
    """Rows ``[n, MSP(n), γ, proved by, seconds, board check]`` for square boards."""
    rows: list[list[object]] = []
    for n in sizes:
        res = solve_msp(n, n, time_limit=time_limit)
        how = {"construct": "theorem + construction", "dp": "DP",
               "ip-improved": "IP (improved)", "ip-basic": "IP (basic)"}[res.method]
        if not res.proven:
            how += f" (not proven; bound {res.bound})"
        rows.append([n, res.msp, res.gamma, how, round(res.seconds, 3), "legal, strings ok"])
    return rows
