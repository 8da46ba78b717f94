"""Shared core: run control (limits, stop rules), results, progress, files, rng, parallel map.

``core`` imports nothing else from gameopt except :mod:`gameopt.errors`.
"""

from gameopt.core.files import (
    atomic_write_bytes,
    atomic_write_text,
    read_bytes,
    read_npz,
    read_text,
)
from gameopt.core.limit import (
    CLOCKS,
    Clock,
    Limit,
    check_count,
    check_finite,
    check_seconds,
)
from gameopt.core.parallel import default_workers, parallel_map
from gameopt.core.progress import Progress, ProgressCallback, Throttle
from gameopt.core.result import Outcome, Result
from gameopt.core.rng import make_rng, spawn_seeds
from gameopt.core.stop import Deadline, StopFlag, StopRule, on_flag

__all__ = [
    "CLOCKS",
    "Clock",
    "Deadline",
    "Limit",
    "Outcome",
    "Progress",
    "ProgressCallback",
    "Result",
    "StopFlag",
    "StopRule",
    "Throttle",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_count",
    "check_finite",
    "check_seconds",
    "default_workers",
    "make_rng",
    "on_flag",
    "parallel_map",
    "read_bytes",
    "read_npz",
    "read_text",
    "spawn_seeds",
]
