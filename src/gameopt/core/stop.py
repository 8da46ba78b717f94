"""Deadlines and stop rules.

A :class:`Deadline` measures wall-clock or process CPU time from its creation; a
:class:`StopRule` combines a deadline, an iteration budget and a target objective, and can
be stopped from outside (another thread, a signal handler, a protocol command).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

from gameopt.errors import InvalidInputError

__all__ = ["Deadline", "StopRule"]


class Deadline:
    """A time budget in seconds, measured from construction.

    Parameters
    ----------
    seconds : float or None
        Budget; ``None`` or ``math.inf`` means no limit.
    cpu : bool
        Measure process CPU time (:func:`time.process_time`) instead of wall time.
    """

    __slots__ = ("seconds", "cpu", "_clock", "_start")

    def __init__(self, seconds: float | None = None, *, cpu: bool = False) -> None:
        if seconds is not None and (math.isnan(seconds) or seconds < 0):
            raise InvalidInputError(f"time limit must be >= 0 seconds, got {seconds!r}")
        self.seconds = math.inf if seconds is None else float(seconds)
        self.cpu = cpu
        self._clock = time.process_time if cpu else time.perf_counter
        self._start = self._clock()

    def elapsed(self) -> float:
        """Seconds used since construction."""
        return self._clock() - self._start

    def remaining(self) -> float:
        """Seconds left (``inf`` without a limit, never negative)."""
        return max(0.0, self.seconds - self.elapsed())

    def expired(self) -> bool:
        """True once the budget is used up."""
        return self.elapsed() >= self.seconds

    def __repr__(self) -> str:
        return f"Deadline({self.seconds!r}, cpu={self.cpu!r})"


@dataclass
class StopRule:
    """When a search must stop: time, iterations, a reached target, or an outside request.

    Parameters
    ----------
    deadline : Deadline
        Time budget (default: none).
    max_iterations : int or None
        Iteration budget (the meaning of one iteration is the algorithm's: an epoch, a node).
    target : float or None
        Stop as soon as the objective is ``<= target`` (minimisation).
    """

    deadline: Deadline = field(default_factory=Deadline)
    max_iterations: int | None = None
    target: float | None = None
    _event: threading.Event = field(default_factory=threading.Event, repr=False)

    def request_stop(self) -> None:
        """Ask the search to stop at its next check (thread-safe)."""
        self._event.set()

    @property
    def stop_requested(self) -> bool:
        return self._event.is_set()

    def should_stop(self, iterations: int = 0, objective: float | None = None) -> str | None:
        """Return the reason to stop now (``"time"``, ``"iterations"``, ``"target"``,
        ``"requested"``), or ``None`` to go on."""
        if self._event.is_set():
            return "requested"
        if self.target is not None and objective is not None and objective <= self.target:
            return "target"
        if self.max_iterations is not None and iterations >= self.max_iterations:
            return "iterations"
        if self.deadline.expired():
            return "time"
        return None
