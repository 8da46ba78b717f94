"""Placeholders for a problem's operators in the kernel template (never called for real)."""

from __future__ import annotations

from numba import njit

_MSG = "evolution kernel template used without a problem: use evolution.kernel_for()"


@njit(cache=True)
def random_fill(data, rng, sol):
    raise RuntimeError(_MSG)


@njit(cache=True)
def error(data, sol):
    raise RuntimeError(_MSG)


@njit(cache=True)
def neighbour(data, rng, sol, err, move):
    raise RuntimeError(_MSG)


@njit(cache=True)
def undo(data, sol, move):
    raise RuntimeError(_MSG)


@njit(cache=True)
def merge(data, rng, a, b, child, prob):
    raise RuntimeError(_MSG)
