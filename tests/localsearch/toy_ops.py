"""Operators of a toy evolution problem (a permutation to sort), for the engine tests."""

from __future__ import annotations

import numpy as np
from numba import njit

# Toy problem: a permutation of 0..L-1; error = number of positions i with sol[i] != i.
# Neighbour = swap two positions; merge = take each half from one parent (then repair to
# a permutation by order of first appearance).


@njit(cache=True)
def random_fill(data, rng, sol):  # type: ignore[no-untyped-def]
    n = sol.shape[0]
    for i in range(n):
        sol[i] = i
    for i in range(n - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        sol[i], sol[j] = sol[j], sol[i]


@njit(cache=True)
def error(data, sol):  # type: ignore[no-untyped-def]
    e = 0
    for i in range(sol.shape[0]):
        if sol[i] != i:
            e += 1
    return e


@njit(cache=True)
def neighbour(data, rng, sol, err, move):  # type: ignore[no-untyped-def]
    n = sol.shape[0]
    a = int(rng.random() * n)
    b = int(rng.random() * n)
    before = (sol[a] != a) + (sol[b] != b) if a != b else (sol[a] != a)
    sol[a], sol[b] = sol[b], sol[a]
    after = (sol[a] != a) + (sol[b] != b) if a != b else (sol[a] != a)
    move[0] = a
    move[1] = b
    return err - before + after


@njit(cache=True)
def undo(data, sol, move):  # type: ignore[no-untyped-def]
    a = move[0]
    b = move[1]
    sol[a], sol[b] = sol[b], sol[a]


@njit(cache=True)
def merge(data, rng, a, b, child, prob):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    used = np.zeros(n, dtype=np.bool_)
    k = 0
    src = b if rng.random() < prob else a
    for i in range(n // 2):
        child[k] = src[i]
        used[src[i]] = True
        k += 1
    for i in range(n):
        if not used[a[i]]:
            child[k] = a[i]
            used[a[i]] = True
            k += 1


