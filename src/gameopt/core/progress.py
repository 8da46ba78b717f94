"""Progress callbacks: the library reports, the front end decides how to show it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Progress", "ProgressCallback", "Throttle"]


@dataclass(frozen=True)
class Progress:
    """One progress report.

    Attributes
    ----------
    task : str
        What is running (``"evolution"``, ``"bench"``...).
    done : int
        Units done so far (epochs, jobs, nodes).
    total : int or None
        Units expected in all, when known.
    best : float or None
        Best objective so far.
    info : dict
        Anything else worth showing (restart number, ...).
    """

    task: str
    done: int
    total: int | None = None
    best: float | None = None
    info: dict[str, object] = field(default_factory=dict)


class ProgressCallback(Protocol):
    """Anything callable with a :class:`Progress`."""

    def __call__(self, progress: Progress, /) -> None: ...


class Throttle:
    """Forwards at most one report every ``interval`` seconds (wall) to ``callback``.

    The first report and any report with ``done == total`` always pass, so a display sees
    the start and the end. A long search wraps its callback in this so that it may report
    after every chunk of work without flooding the front end.
    """

    def __init__(self, callback: ProgressCallback, interval: float = 0.2) -> None:
        self.callback = callback
        self.interval = interval
        self._last: float | None = None

    def __call__(self, progress: Progress, /) -> None:
        now = time.monotonic()
        final = progress.total is not None and progress.done >= progress.total
        if self._last is not None and now - self._last < self.interval and not final:
            return
        self._last = now
        self.callback(progress)
