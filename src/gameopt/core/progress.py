"""Progress callbacks: the library reports, the front end decides how to show it."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Protocol, TextIO

__all__ = ["Progress", "ProgressCallback", "StderrProgress"]


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


class StderrProgress:
    """Writes one line to a stream (stderr by default) at most every ``interval`` seconds.

    Nothing is written during the first ``interval`` seconds, so short runs stay quiet.
    """

    def __init__(self, interval: float = 1.0, stream: TextIO | None = None) -> None:
        self.interval = interval
        self.stream = stream if stream is not None else sys.stderr
        self._last = time.monotonic()

    def __call__(self, progress: Progress, /) -> None:
        now = time.monotonic()
        if now - self._last < self.interval:
            return
        self._last = now
        total = f"/{progress.total}" if progress.total is not None else ""
        best = f" best={progress.best:g}" if progress.best is not None else ""
        extra = "".join(f" {k}={v}" for k, v in progress.info.items())
        print(f"[{progress.task}] {progress.done}{total}{best}{extra}", file=self.stream,
              flush=True)
