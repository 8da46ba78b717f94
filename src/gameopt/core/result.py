"""The result shape every search reports, and the generic record metaheuristics return.

Every system's result type (``SudokuSolution``, ``DeckResult``, ``SearchResult``, ...)
carries the fields of :class:`Outcome`: the seconds the search took, the clock they were
measured on, whether the answer is proven, a bound where an exact method has one, and
statistics. Kernel load/compile time is never part of ``seconds``: callers warm a kernel
first or report its load time apart (``stats["load_seconds"]``). A conformance test checks
each system's result type against this protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

__all__ = ["Outcome", "Result"]

S = TypeVar("S")


@runtime_checkable
class Outcome(Protocol):
    """What every search result says about the run that made it.

    Attributes
    ----------
    seconds : float
        Time the search took, on ``clock``, compile/load time excluded.
    clock : str
        ``"cpu"`` (process CPU time) or ``"wall"``.
    proven : bool
        The answer is proven (optimal, exact value, unique solution, proven infeasible).
    bound : float or None
        The best bound an exact method proved on the objective (``None`` where the method
        has none).
    stats : dict
        Method-specific figures (nodes, epochs, restarts, ...).
    """

    @property
    def seconds(self) -> float: ...

    @property
    def clock(self) -> str: ...

    @property
    def proven(self) -> bool: ...

    @property
    def bound(self) -> float | None: ...

    @property
    def stats(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Result(Generic[S]):
    """Outcome of one metaheuristic search (an :class:`Outcome`).

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
    seconds : float
        Seconds used, on ``clock``.
    clock : str
        ``"cpu"`` or ``"wall"``.
    restarts : int
        Restarts done.
    proven : bool
        The solution is proven optimal.
    bound : float or None
        A proven bound on the objective, if any.
    stats : dict
        Algorithm-specific statistics (counts, per-restart bests, ...).
    """

    solution: S
    objective: float
    status: str
    iterations: int = 0
    seconds: float = 0.0
    clock: str = "wall"
    restarts: int = 0
    proven: bool = False
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
