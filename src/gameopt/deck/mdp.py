"""MDPLIB instances of the Maximum Diversity Problem, solved with the deck engine.

Format (MDPLIB, Martí, Gallego, Duarte): first line ``n m``, then one line ``i j d_ij``
per unordered pair, 0-based. Only the size rule applies.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", EJOR 200(1), 2010 (MDPLIB).
"""

from __future__ import annotations

import dataclasses

from gameopt.core.limit import Limit
from gameopt.core.progress import ProgressCallback
from gameopt.deck.problem import DeckProblem
from gameopt.deck.result import DeckResult
from gameopt.deck.solve import MDP_METHODS, solve
from gameopt.errors import InvalidInputError

__all__ = ["solve_mdp"]


def solve_mdp(problem: DeckProblem, method: str = "tabu", *, limit: Limit | None = None,
              seed: int | None = None, rel_tol: float = 1e-6,
              progress: ProgressCallback | None = None) -> DeckResult:
    """Iterated tabu search (or another method of :data:`MDP_METHODS`) on an MDP instance.

    Restarts until the time limit (process CPU seconds by default; default limit: none)
    or until ``limit.target`` (e.g. the best-known value) is reached within ``rel_tol``.

    Returns
    -------
    DeckResult
        With ``stats["reached"]`` (the target was reached) and ``stats["seconds_to_best"]``.

    Raises
    ------
    InvalidInputError
        A method not in :data:`MDP_METHODS`.
    """
    if method not in MDP_METHODS:
        raise InvalidInputError(f"method: {method!r} does not suit MDP instances (choose "
                                f"one of {', '.join(MDP_METHODS)})")
    limit = limit if limit is not None else Limit(clock="cpu")
    target = limit.target
    tgt = None if target is None else target * (1.0 - rel_tol)
    r = solve(problem, method, limit=dataclasses.replace(limit, target=tgt), seed=seed,
              progress=progress, restarts=10**9)
    r.stats["reached"] = tgt is not None and r.score >= tgt - 1e-9 * abs(tgt)
    return r
