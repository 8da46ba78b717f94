"""Random number generators from seeds.

Stochastic code takes a :class:`numpy.random.Generator`; public entry points take
``seed: int | None``. There is no module-level random state.
"""

from __future__ import annotations

import numpy as np

from gameopt.errors import InvalidInputError

__all__ = ["make_rng", "spawn_seeds"]


def _check_seed(seed: int | None, where: str) -> None:
    bad_type = isinstance(seed, bool) or not isinstance(seed, int | np.integer)
    if seed is not None and (bad_type or seed < 0):
        raise InvalidInputError(
            f"{where}: seed must be a non-negative integer or None, got {seed!r}")


def make_rng(seed: int | None | np.random.Generator = None) -> np.random.Generator:
    """Return a PCG64 generator for ``seed`` (``None``: fresh OS entropy).

    A :class:`numpy.random.Generator` passed in is returned unchanged, so functions can
    accept either form.

    Raises
    ------
    InvalidInputError
        If ``seed`` is negative or not an integer.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    _check_seed(seed, "make_rng")
    return np.random.default_rng(seed)


def spawn_seeds(seed: int | None, n: int) -> list[int]:
    """Return ``n`` independent 63-bit seeds derived from ``seed`` (for parallel jobs).

    Uses :class:`numpy.random.SeedSequence` spawning, so job ``i`` gets the same seed
    whatever the number of workers that run the jobs.
    """
    _check_seed(seed, "spawn_seeds")
    if n < 0:
        raise InvalidInputError(f"spawn_seeds: n must be >= 0, got {n}")
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for c in children]
