"""Exact-proof claim: the largest n the CP-SAT deck model proves optimal within 60 s.

Random dense scores (R uniform on [0, 1), symmetric), deck size 15, costs 1..20 with a
binding cap (the cheapest 15 plus half the way to the average deck's cost). n runs through
20, 30, 40, 60, 80, 100, 150 and stops at the first n not proved. Baseline in the same
run: the VDS deck's score (the hint). Run: ``python benchmarks/bench_deck_exact.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gameopt.deck.build import build_deck
from gameopt.deck.exact import solve_exact, upper_bound
from gameopt.deck.problem import DeckProblem

SIZES = (20, 30, 40, 60, 80, 100, 150)


def instance(n: int, seed: int, size: int = 15) -> DeckProblem:
    """Uniform symmetric R, costs 1..20, a binding cost cap."""
    rng = np.random.default_rng(seed)
    U = rng.random((n, n))
    R = ((U + U.T) / 2).astype(np.float32)
    cost = rng.integers(1, 21, n).astype(np.int32)
    cheapest = int(np.sort(cost)[:size].sum())
    cap = cheapest + int(0.5 * (cost.mean() * size - cheapest))
    return DeckProblem(R, size, cost=cost, cost_cap=cap)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    build_deck(instance(20, 0), "vds", seed=0)  # numba compile / cache load
    print(f"{'n':>5}{'VDS':>10}{'exact':>10}{'bound':>10}{'cheap UB':>10}"
          f"{'gap %':>8}{'proven':>8}{'wall s':>8}")
    largest = None
    for n in SIZES:
        p = instance(n, args.seed)
        vds = build_deck(p, "vds", seed=0)
        t = time.perf_counter()
        r = solve_exact(p, time_limit=args.time_limit, workers=args.workers)
        wall = time.perf_counter() - t
        print(f"{n:>5}{vds.score:>10.3f}{r.score:>10.3f}{r.upper_bound:>10.3f}"
              f"{upper_bound(p):>10.3f}{100 * r.gap:>8.3f}{'yes' if r.proven else 'no':>8}"
              f"{wall:>8.1f}", flush=True)
        if not r.proven:
            break
        largest = n
    print(f"largest n proved optimal within {args.time_limit:g} s: {largest}")


if __name__ == "__main__":
    main()
