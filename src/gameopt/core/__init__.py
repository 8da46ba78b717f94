"""Shared core: randomness, stop rules, result records, progress callbacks, parallel map.

``core`` imports nothing else from gameopt except :mod:`gameopt.errors`.
"""

from gameopt.core.parallel import default_workers, parallel_map
from gameopt.core.progress import Progress, ProgressCallback, StderrProgress
from gameopt.core.result import Result
from gameopt.core.rng import make_rng, spawn_seeds
from gameopt.core.stop import Deadline, StopRule

__all__ = [
    "Deadline",
    "Progress",
    "ProgressCallback",
    "Result",
    "StderrProgress",
    "StopRule",
    "default_workers",
    "make_rng",
    "parallel_map",
    "spawn_seeds",
]
