"""MDPLIB instances of the Maximum Diversity Problem, solved with the deck engine.

Format (MDPLIB, Martí, Gallego, Duarte): first line ``n m``, then one line ``i j d_ij``
per unordered pair, 0-based. Only the size rule applies.

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", EJOR 200(1), 2010 (MDPLIB).
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gameopt.deck.build import build_deck
from gameopt.deck.problem import DeckProblem
from gameopt.errors import InvalidInputError

__all__ = ["read_mdp", "solve_mdp", "MdpResult"]


def read_mdp(path: str | Path) -> DeckProblem:
    """Read an MDPLIB file (``.txt`` or ``.txt.gz``) into a size-only DeckProblem.

    Raises
    ------
    InvalidInputError
        Naming the file and line of a malformed header, pair or index.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        head = f.readline().split()
        if len(head) != 2:
            raise InvalidInputError(f"{path}:1: header {' '.join(head)!r} is not 'n m'")
        n, m = int(head[0]), int(head[1])
        try:
            data = np.loadtxt(f, dtype=np.float64, ndmin=2)
        except ValueError as e:
            raise InvalidInputError(f"{path}: bad pair line ({e})") from None
    if data.shape[1] != 3:
        raise InvalidInputError(f"{path}: pair lines need 3 fields, got {data.shape[1]}")
    i, j = data[:, 0].astype(np.int64), data[:, 1].astype(np.int64)
    bad = np.flatnonzero((i < 0) | (i >= n) | (j < 0) | (j >= n))
    if bad.size:
        raise InvalidInputError(f"{path}:{int(bad[0]) + 2}: index outside 0..{n - 1}")
    R = np.zeros((n, n), np.float32)
    R[i, j] = data[:, 2]
    R[j, i] = data[:, 2]
    return DeckProblem(R, m)


@dataclass(frozen=True)
class MdpResult:
    """Best subset found, its value, and CPU seconds to reach it (and ``target``)."""

    subset: tuple[int, ...]
    value: float
    cpu_to_best: float
    reached: bool
    cpu_seconds: float


def solve_mdp(path: str | Path, time_limit: float = 10.0, seed: int | None = None, *,
              target: float | None = None, rel_tol: float = 1e-6,
              method: str = "tabu") -> MdpResult:
    """Iterated tabu search (or another deck method) on an MDPLIB instance.

    Stops at ``time_limit`` CPU seconds or once ``target`` (e.g. the best-known value) is
    reached within ``rel_tol``. The reading time is not counted. ``method`` is any of
    :data:`gameopt.deck.build.METHODS` (``vds`` restarts with iterated local search).
    """
    problem = read_mdp(path)
    t0 = time.process_time()
    tgt = None if target is None else target * (1.0 - rel_tol)
    r = build_deck(problem, method, seed=seed, restarts=10**9, time_limit=time_limit,
                   target=tgt)
    reached = tgt is not None and r.score >= tgt - 1e-9 * abs(tgt)
    return MdpResult(r.deck, r.score, float(r.stats["cpu_to_best"]), reached,
                     time.process_time() - t0)
