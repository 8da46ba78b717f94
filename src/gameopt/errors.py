"""Every exception and warning class of gameopt.

One hierarchy: :class:`GameoptError` at the root; each leaf also subclasses the builtin
it refines, so ``except ValueError`` still catches bad input. Messages name the bad value
and where it came from (file, line, field, cell).
"""

from __future__ import annotations

__all__ = [
    "GameoptError",
    "InvalidInputError",
    "InfeasibleError",
    "SolverError",
    "BudgetExhaustedError",
    "GameoptWarning",
]


class GameoptError(Exception):
    """Root of every error gameopt raises on purpose."""


class InvalidInputError(GameoptError, ValueError):
    """Input that cannot be used: wrong length, unknown character, value out of range..."""


class InfeasibleError(GameoptError, ValueError):
    """The problem, as posed, has no solution (a proof, not a failure to find one)."""


class SolverError(GameoptError, RuntimeError):
    """A solver failed for a reason other than the input (crash, unknown status, model error)."""


class BudgetExhaustedError(GameoptError, TimeoutError):
    """A search ran out of its time or iteration budget before reaching its goal."""


class GameoptWarning(UserWarning):
    """Something worth knowing that does not stop the work."""
