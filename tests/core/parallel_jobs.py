"""Module-level job functions for the parallel_map tests (they must pickle by reference).

Imported as ``tests.core.parallel_jobs`` (pytest puts the project root on ``sys.path``); the
Dask worker started by the tests gets the project root through ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import time


def square(x: int) -> int:
    """x squared."""
    return x * x


def pid_of(_: object) -> int:
    """The id of the process that ran the job."""
    return os.getpid()


def sleep_then_echo(job: tuple[float, int]) -> int:
    """Sleep ``job[0]`` seconds, then return ``job[1]`` (to finish out of order)."""
    time.sleep(job[0])
    return job[1]


def fail_on_three(x: int) -> int:
    """Raise ValueError for 3, else return x."""
    if x == 3:
        raise ValueError(f"bad job value {x}")
    return x
