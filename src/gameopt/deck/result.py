"""What every deck method returns: the deck and how the run went (a core ``Outcome``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DeckResult"]


@dataclass(frozen=True)
class DeckResult:
    """A deck that keeps every rule, and the run that found it.

    Attributes
    ----------
    deck : tuple of int
        Piece indices, sorted; checked by :mod:`gameopt.deck.verify`.
    score : float
        :func:`~gameopt.deck.problem.deck_score` of the deck (float64).
    cost : int
        Total cost (0 without costs).
    method : str
        The method of :data:`gameopt.deck.METHODS` that built it.
    seconds : float
        Time the run took on ``clock``, kernel compile/load time excluded (it is in
        ``stats["load_seconds"]`` when the run loaded kernels).
    clock : str
        ``"cpu"`` or ``"wall"``: the clock of ``seconds`` and of the run's time limit.
    proven : bool
        The deck is proven optimal (exact methods only).
    bound : float or None
        A valid upper bound on the score of every feasible deck (exact methods), or
        ``None``.
    stats : dict
        Method-specific figures: ``restarts``, ``moves``, ``swaps``, ``iterations``,
        ``seconds_to_best`` (heuristics); ``nodes`` (branch and bound); ``hint_seconds``
        (exact methods: the VDS incumbent's share of ``seconds``); ``stop`` (why the run
        ended early: ``"time"``, ``"target"``, ``"requested"``).
    """

    deck: tuple[int, ...]
    score: float
    cost: int
    method: str
    seconds: float
    clock: str
    proven: bool = False
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def gap(self) -> float | None:
        """``(bound - score) / max(|score|, 1e-9)``, or ``None`` without a bound."""
        if self.bound is None:
            return None
        return (self.bound - self.score) / max(abs(self.score), 1e-9)
