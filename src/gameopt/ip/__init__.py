"""OR-Tools CP-SAT plumbing shared by every model: solve, status mapping, solution counts.

``ip`` imports only :mod:`gameopt.core` and :mod:`gameopt.errors`.
"""

from gameopt.ip.cpsat import STATUS_NAMES, CpsatResult, SolutionCount, count_solutions, solve

__all__ = ["STATUS_NAMES", "CpsatResult", "SolutionCount", "count_solutions", "solve"]
