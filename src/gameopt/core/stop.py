"""Deadlines, stop flags and running stop rules.

A :class:`Deadline` measures wall-clock or process CPU time from its creation; a
:class:`StopFlag` is the one switch numba kernels poll; a :class:`StopRule` is a running
:class:`~gameopt.core.limit.Limit`: a deadline, an iteration budget, a target objective and
a stop flag that can be set from outside (another thread, a signal handler, a protocol
command, a disconnected web client).

Kernels that run long without returning to Python poll ``rule.flag.array`` and are stopped
on time by :meth:`StopRule.watch`, a watchdog thread that sets the flag when the deadline
passes (on either clock).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["Deadline", "StopFlag", "StopRule", "on_flag"]


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

    @property
    def clock(self) -> str:
        """``"cpu"`` or ``"wall"``: the clock this deadline measures."""
        return "cpu" if self.cpu else "wall"

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


class StopFlag:
    """A stop switch shared with running kernels; :meth:`set` may be called from any thread.

    Attributes
    ----------
    array : ndarray of uint8, shape (1,)
        What numba kernels poll: ``array[0] != 0`` means stop. Pass it to a kernel as is.
    """

    __slots__ = ("array",)

    def __init__(self) -> None:
        self.array: npt.NDArray[np.uint8] = np.zeros(1, dtype=np.uint8)

    def set(self) -> None:
        """Ask every search that polls this flag to stop at its next check."""
        self.array[0] = 1

    def clear(self) -> None:
        """Lower the flag so the next search can run."""
        self.array[0] = 0

    def is_set(self) -> bool:
        return bool(self.array[0])

    def __repr__(self) -> str:
        return f"StopFlag(set={self.is_set()})"



@contextlib.contextmanager
def on_flag(flag: StopFlag, action: Callable[[], None], poll: float = 0.01
            ) -> Iterator[None]:
    """Call ``action`` once when ``flag`` is set, while the ``with`` block runs (at once
    when it is set already).

    For what cannot poll the flag itself: another solver's stop call (CP-SAT's
    ``stop_search``), or a flag of its own that follows a caller's without ever raising
    it. A thread polls ``flag`` every ``poll`` seconds and ends with the block.
    """
    if flag.is_set():
        action()
        yield
        return
    done = threading.Event()

    def run() -> None:
        while not done.wait(poll):
            if flag.is_set():
                action()
                return

    thread = threading.Thread(target=run, name="gameopt-on-flag", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()

@dataclass
class StopRule:
    """When a running search must stop: time, iterations, a reached target, or a request.

    Usually made by :meth:`gameopt.core.limit.Limit.start`.

    Parameters
    ----------
    deadline : Deadline
        Time budget (default: none), started when the rule was made.
    max_iterations : int or None
        Iteration budget (the meaning of one iteration is the algorithm's: an epoch, a node).
    target : float or None
        Stop as soon as the objective is ``<= target`` (minimisation; maximising searches
        pass the negated objective).
    flag : StopFlag
        The external stop switch; kernels poll ``flag.array``.
    """

    deadline: Deadline = field(default_factory=Deadline)
    max_iterations: int | None = None
    target: float | None = None
    flag: StopFlag = field(default_factory=StopFlag)

    @property
    def clock(self) -> str:
        """``"cpu"`` or ``"wall"``: the clock of the deadline, and of reported seconds."""
        return self.deadline.clock

    def elapsed(self) -> float:
        """Seconds on :attr:`clock` since the rule started."""
        return self.deadline.elapsed()

    def request_stop(self) -> None:
        """Ask the search to stop at its next check (thread-safe)."""
        self.flag.set()

    @property
    def stop_requested(self) -> bool:
        return self.flag.is_set()

    def should_stop(self, iterations: int = 0, objective: float | None = None) -> str | None:
        """Return the reason to stop now (``"time"``, ``"iterations"``, ``"target"``,
        ``"requested"``), or ``None`` to go on."""
        if self.flag.is_set():
            return "requested"
        if self.target is not None and objective is not None and objective <= self.target:
            return "target"
        if self.max_iterations is not None and iterations >= self.max_iterations:
            return "iterations"
        if self.deadline.expired():
            return "time"
        return None

    @contextlib.contextmanager
    def watch(self, poll: float = 0.01) -> Iterator[StopFlag]:
        """Set :attr:`flag` when the deadline passes, while the ``with`` block runs.

        For kernels that poll the flag and do not come back to Python before they end.
        Without a time limit no thread is started. The flag stays set after a timeout, so
        the caller can tell the search was cut short (``rule.stop_requested``); the reason
        is ``"time"`` when the deadline has passed.
        """
        if math.isinf(self.deadline.seconds):
            yield self.flag
            return
        done = threading.Event()

        def run() -> None:
            while not done.is_set():
                left = self.deadline.remaining()
                if left <= 0.0:
                    self.flag.set()
                    return
                done.wait(min(poll if self.deadline.cpu else left, left))

        thread = threading.Thread(target=run, name="gameopt-deadline", daemon=True)
        thread.start()
        try:
            yield self.flag
        finally:
            done.set()
            thread.join()

    def reason(self) -> str | None:
        """Why a search that saw the flag stopped: ``"time"`` once the deadline passed,
        ``"requested"`` for an outside request, ``None`` when the flag is down."""
        if not self.flag.is_set():
            return None
        return "time" if self.deadline.expired() else "requested"
