"""make_rng and spawn_seeds: determinism, validation, independence of the job count."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import make_rng, spawn_seeds
from gameopt.errors import InvalidInputError


def test_same_seed_same_stream() -> None:
    a = make_rng(42).integers(0, 1 << 30, size=20)
    b = make_rng(42).integers(0, 1 << 30, size=20)
    assert np.array_equal(a, b)


def test_different_seeds_differ() -> None:
    assert not np.array_equal(make_rng(1).random(8), make_rng(2).random(8))


def test_numpy_integer_seed_is_accepted() -> None:
    assert np.array_equal(make_rng(np.int64(7)).random(4), make_rng(7).random(4))


def test_none_gives_fresh_entropy() -> None:
    assert not np.array_equal(make_rng(None).random(8), make_rng(None).random(8))


def test_generator_passes_through() -> None:
    rng = np.random.default_rng(3)
    assert make_rng(rng) is rng


def test_pcg64() -> None:
    assert isinstance(make_rng(0).bit_generator, np.random.PCG64)


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(InvalidInputError, match=r"make_rng: seed must be a non-negative integer "
                       rf"or None, got {seed!r}"):
        make_rng(seed)  # type: ignore[arg-type]


def test_spawn_seeds_deterministic() -> None:
    assert spawn_seeds(5, 4) == spawn_seeds(5, 4)
    assert spawn_seeds(5, 4) != spawn_seeds(6, 4)


def test_spawn_seeds_independent_of_count() -> None:
    # Job i gets the same seed however many jobs there are.
    assert spawn_seeds(11, 3) == spawn_seeds(11, 10)[:3]


def test_spawn_seeds_are_distinct_63_bit_ints() -> None:
    seeds = spawn_seeds(0, 200)
    assert len(set(seeds)) == 200
    assert all(isinstance(s, int) and 0 <= s < 1 << 63 for s in seeds)
    make_rng(seeds[0])  # usable as a seed


def test_spawn_seeds_zero_jobs() -> None:
    assert spawn_seeds(1, 0) == []


def test_spawn_seeds_bad_input() -> None:
    with pytest.raises(InvalidInputError, match=r"spawn_seeds: n must be >= 0, got -1"):
        spawn_seeds(1, -1)
    with pytest.raises(InvalidInputError, match=r"spawn_seeds: seed must be a non-negative"):
        spawn_seeds(-3, 2)
