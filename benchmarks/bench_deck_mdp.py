"""MDP claim: CPU seconds for the deck engine to reach the best-known value (MDPLIB).

On the shared MDPLIB instances (n=500, m=50), for several seeds: iterated tabu search (the
MDP default) against VDS hill climbing with iterated local search (the deck default), each
stopped at the best-known value (BKV, 1e-6 relative) or at ``--time-limit`` CPU seconds.
The greedy deck's value is printed as a second baseline. Reported: runs reaching the BKV
and the median CPU seconds to it (a run that does not reach it counts as infinite).

Run: ``python benchmarks/bench_deck_mdp.py [--data ../shared/data] [--seeds 5]``.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import solve
from gameopt.deck.formats import read_mdp
from gameopt.deck.mdp import solve_mdp


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--time-limit", type=float, default=5.0, help="CPU s per run")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--no-vds", action="store_true", help="skip the VDS baseline")
    args = ap.parse_args()
    folder = args.data / "mdp"
    if not (folder / "bkv.csv").is_file():
        print(f"{folder}/bkv.csv: not found (MDPLIB lives in ../shared/data/mdp)",
              file=sys.stderr)
        return 2
    rows = list(csv.DictReader((folder / "bkv.csv").open()))
    first = read_mdp(folder / rows[0]["file"])
    solve_mdp(first, limit=Limit(time=0.01, clock="cpu"), seed=0)  # compile / cache load
    solve_mdp(first, "vds", limit=Limit(time=0.01, clock="cpu"), seed=0)
    methods = ["tabu"] + ([] if args.no_vds else ["vds"])
    table: list[list[object]] = []
    every: dict[str, list[float]] = {m: [] for m in methods}
    for row in rows:
        path, bkv = folder / row["file"], float(row["bkv"])
        problem = read_mdp(path)
        greedy = solve(problem, "greedy").score
        line: list[object] = [row["instance"], f"{bkv:.3f}", f"{greedy:.3f}"]
        for m in methods:
            times, best = [], -float("inf")
            for seed in range(args.seeds):
                r = solve_mdp(problem, m, seed=seed,
                              limit=Limit(time=args.time_limit, clock="cpu", target=bkv))
                best = max(best, r.score)
                times.append(r.stats["seconds_to_best"] if r.stats["reached"]
                             else float("inf"))
            every[m] += times
            ok = sum(t < float("inf") for t in times)
            med = statistics.median(times)
            line += [f"{best:.3f}", f"{ok}/{args.seeds}",
                     f"{med:.3f}" if med < float("inf") else f">{args.time_limit:g}"]
        table.append(line)
    total = ["all", "", ""]
    for m in methods:
        t = every[m]
        med = statistics.median(t)
        total += ["", f"{sum(x < float('inf') for x in t)}/{len(t)}",
                  f"{med:.3f}" if med < float("inf") else f">{args.time_limit:g}"]
    table.append(total)
    head = ["instance", "BKV", "greedy [baseline]"]
    for m in methods:
        tag = " [baseline]" if m == "vds" else ""
        head += [f"{m} best{tag}", "reached", "median CPU s"]
    print(format_table(head, table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
