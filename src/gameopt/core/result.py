"""The result record every search returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["Result"]

S = TypeVar("S")


@dataclass(frozen=True)
class Result(Generic[S]):
    """Outcome of one search.

    Attributes
    ----------
    solution : S
        Best solution found (problem-specific type).
    objective : float
        Its objective value (for minimisation problems, the error; 0 may mean perfect).
    status : str
        ``"optimal"``, ``"solved"``, ``"feasible"``, ``"budget"``, ``"infeasible"``... the
        algorithm documents its own values.
    iterations : int
        Iterations done in all (epochs, nodes...).
    elapsed : float
        Seconds used.
    restarts : int
        Restarts done.
    stats : dict
        Algorithm-specific statistics (counts, per-restart bests, ...).
    """

    solution: S
    objective: float
    status: str
    iterations: int = 0
    elapsed: float = 0.0
    restarts: int = 0
    stats: dict[str, Any] = field(default_factory=dict)
