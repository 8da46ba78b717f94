"""What the Sudoku result records share as :class:`~gameopt.core.Outcome`\\ s."""

from __future__ import annotations

__all__ = ["SETTLED", "CountedOutcome"]

#: Statuses that settle a puzzle: one solution only (proven), or none (proven).
SETTLED = frozenset({"unique", "none"})


class CountedOutcome:
    """``proven`` and ``bound`` of a result whose ``status`` comes from counting solutions:
    proven when the count settles the question (:data:`SETTLED`); Sudoku has no objective
    to bound, so ``bound`` is None."""

    __slots__ = ()
    status: str

    @property
    def proven(self) -> bool:
        """True when the count settles the question: one solution only, or none."""
        return self.status in SETTLED

    @property
    def bound(self) -> float | None:
        return None
