"""MDP claim: CPU seconds for the deck VDS engine to reach the best-known value.

On the shared MDPLIB instances (n=500, m=50), 10 CPU-s limit each. Baseline in the same
run: the greedy deck's value (gap to the BKV). Run: ``python benchmarks/bench_deck_mdp.py``.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

from gameopt.deck.build import build_deck
from gameopt.deck.mdp import read_mdp, solve_mdp

DATA = Path("/work/shared/data/mdp")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = list(csv.DictReader((DATA / "bkv.csv").open()))
    solve_mdp(DATA / rows[0]["file"], time_limit=0.01, seed=0)  # numba compile / cache load
    print(f"{'instance':<20}{'BKV':>12}{'greedy':>12}{'VDS':>12}{'reached':>9}{'CPU s':>9}")
    times, reached = [], 0
    for row in rows:
        path, bkv = DATA / row["file"], float(row["bkv"])
        greedy = build_deck(read_mdp(path), "greedy").score
        t = time.process_time()
        r = solve_mdp(path, time_limit=args.time_limit, seed=args.seed, target=bkv)
        assert time.process_time() - t < args.time_limit + 5
        reached += r.reached
        times.append(r.cpu_to_best if r.reached else float("inf"))
        cpu = f"{r.cpu_to_best:.3f}" if r.reached else f">{args.time_limit:g}"
        print(f"{row['instance']:<20}{bkv:>12.3f}{greedy:>12.3f}{r.value:>12.3f}"
              f"{'yes' if r.reached else 'no':>9}{cpu:>9}")
    med = statistics.median(times)
    print(f"median CPU s to BKV: {med:.3f}; reached {reached}/{len(rows)}")


if __name__ == "__main__":
    main()
