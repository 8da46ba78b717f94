"""MSP(m, n) by any method, every board checked by the board library; the table."""

from __future__ import annotations

import numpy as np

from gameopt.core import Limit, ProgressCallback
from gameopt.errors import InvalidInputError, SolverError
from gameopt.go.board import Board
from gameopt.go.msp import MspResult, check_size, formula_gamma, msp_position

__all__ = ["METHODS", "solve_msp", "check_msp_board", "best_method", "msp_table"]

METHODS = ("ip-basic", "ip-improved", "dp", "construct")

#: Largest board side on which ``best_method`` uses the DP (memory 2·3^w bytes; the
#: optimal set itself needs more, see :mod:`gameopt.go.msp_dp`).
DP_DEFAULT_MAX = 15


def solve_msp(m: int, n: int | None = None, method: str = "auto", *,
              limit: Limit | None = None,
              progress: ProgressCallback | None = None) -> MspResult:
    """MSP(m, n) with ``method`` (``"auto"``: :func:`best_method`), board checked.

    ``dp`` proves γ; it gives the board itself where its tables fit in memory, and
    otherwise the board comes from CP-SAT with the DP's γ as a bound on both sides.

    Parameters
    ----------
    m, n : int
        Board size (``n`` defaults to ``m``).
    method : {"auto", "ip-basic", "ip-improved", "dp", "construct"}
    limit : Limit, optional
        Wall time (the clock CP-SAT keeps; the DP and the construction take either) and
        an external stop flag. Each stage of a method (the DP, then CP-SAT for its board)
        gets the whole limit.
    progress : ProgressCallback, optional
        DP rows (task ``"msp-dp"``), CP-SAT boards (``"msp-ip"``), construction windows
        (``"msp-construct"``).

    Returns
    -------
    MspResult
        ``seconds`` on ``clock``; kernel load and compile time excluded.

    Raises
    ------
    InvalidInputError
        Unknown method, bad size, a limit the method cannot keep, or a construction asked
        where the theorem does not hold.
    SolverError
        A board that fails the check (a bug), or no board within the limit.

    References
    ----------
    H. Miyashiro, T. Yano, M. Muramatsu, "Maximum number of strings on a Go board" (in
    Japanese), RIMS Kôkyûroku 1584, 2008 (the problem and its IP); S. Alanko et al.,
    "Computing the domination number of grid graphs", 2011 (the DP); D. Gonçalves et al.,
    "The domination number of grids", 2011 (the construction).
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

        res = solve_msp_ip(m, n, method[3:], limit=limit, progress=progress)
    elif method == "construct":
        from gameopt.go.construct import construct_msp

        if formula_gamma(m, n) is None:
            raise InvalidInputError(f"MSP {m}x{n}: construction needs both sides >= 16 "
                                    "(the theorem's range); use dp or ip-improved")
        res = construct_msp(m, n, limit=limit, progress=progress)
    else:
        res = _solve_dp(m, n, limit, progress)
    check_msp_board(res)
    return res


def _solve_dp(m: int, n: int, limit: Limit | None,
              progress: ProgressCallback | None) -> MspResult:
    from gameopt.go import msp_dp

    msp_dp.warm()
    rule = (limit or Limit()).start()
    try:
        dp = msp_dp.optimal_dominating_set(m, n, limit=limit, progress=progress)
        empty = np.asarray(dp.dominating_set, dtype=bool)
        extra: dict[str, object] = {}
    except InvalidInputError:  # the back-tracking tables do not fit: γ alone, then a board
        dp = msp_dp.domination_number(m, n, limit=limit, progress=progress)
        empty, extra = _board_of_size(m, n, dp.gamma, limit)
    return MspResult(m, n, dp.gamma, dp.msp, True, "dp", rule.elapsed(), empty,
                     bound=dp.gamma, stats={"states": dp.states, "dp_seconds": dp.seconds,
                                            **extra}, clock=rule.clock)


def _board_of_size(m: int, n: int, gamma: int, limit: Limit | None
                   ) -> tuple[np.ndarray, dict[str, object]]:
    """A dominating set of exactly ``gamma`` points: the construction where the theorem
    holds, else CP-SAT with Σx fixed to ``gamma`` (a feasibility problem)."""
    if formula_gamma(m, n) == gamma:
        from gameopt.go.construct import construct_msp

        c = construct_msp(m, n)
        if c.empty is not None and c.gamma == gamma:
            return c.empty, {"board_from": "construction", "board_seconds": c.seconds}
    from gameopt.go.msp_ip import solve_msp_ip

    ip = solve_msp_ip(m, n, "improved", lower=gamma, upper=gamma, limit=limit)
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


def msp_table(sizes: list[int], *, limit: Limit | None = None,
              progress: ProgressCallback | None = None) -> list[list[object]]:
    """Rows ``[n, MSP(n), γ, proved by, seconds, board check]`` for square boards.

    ``seconds`` are on the clock of ``limit`` (wall by default); ``limit`` applies to
    each size.
    """
    rows: list[list[object]] = []
    for n in sizes:
        res = solve_msp(n, n, limit=limit, progress=progress)
        how = {"construct": "theorem + construction", "dp": "DP",
               "ip-improved": "IP (improved)", "ip-basic": "IP (basic)"}[res.method]
        if not res.proven:
            how += f" (not proven; bound {res.bound})"
        rows.append([n, res.msp, res.gamma, how, round(res.seconds, 3), "legal, strings ok"])
    return rows
