"""VDS claim: milliseconds per deck on 2,000-piece collections, and score against a long run.

Instances: the synthetic data (``synthesize(seed)``: 4,000 kinds, a 2,000-piece
collection, scores learnt from its deck corpus) for ``--data-seeds``, each under three
rule sets:

* ``cap``: cost cap 200;
* ``god+leader``: cost cap 200, at least 10 God pieces, a fixed leader (the first owned
  God of rarity S), leader-conditioned scores;
* ``cap150+char2+must``: cost cap 150, at most 2 pieces per character, 2 must-include
  pieces (the first two owned pieces of cost ≤ 8).

For each instance: the reference is the best of a long VDS run (``--long`` CPU s,
iterated local search) and every short run below. Then greedy (the in-game baseline),
1-swap hill climbing and VDS, each with its default settings, over ``--runs`` run seeds,
every run on a fresh problem (so no cached per-problem data). Reported: median and max
CPU ms per deck, median and worst score as a fraction of the reference, and the share
of runs at ≥ 99.9 % of it.

Run: ``python benchmarks/bench_deck_vds.py [--data-seeds 0-4] [--runs 5] [--long 60]``.
A 60 s reference over 15 instances takes more than 10 minutes, so the seeds can be run in
chunks, each saving its raw figures (``--out part.json``), and the tables printed from all
of them (``--merge part1.json part2.json ...``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import DeckProblem, Rules, solve, to_problem
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import synthesize

METHODS = ("greedy", "hc", "vds")


def instances(seed: int) -> list[tuple[str, DeckProblem]]:
    data = synthesize(seed)
    pool, coll = data.pool, data.collection
    scores = deck_scores(data.decks, pool.ids)
    leader = next(pid for pid in coll.owned
                  if pool[pid].attribute == "god" and pool[pid].rarity == "S")
    cheap = [pid for pid in coll.owned if pool[pid].cost <= 8][:2]
    sets = [("cap", Rules(cost_cap=200)),
            ("god+leader", Rules(cost_cap=200, attribute="god", attribute_min=10,
                                 leader=leader)),
            ("cap150+char2+must", Rules(cost_cap=150, char_limit=2, must=tuple(cheap)))]
    return [(name, to_problem(pool, coll, rules, scores)[0]) for name, rules in sets]


def measure(seeds: range, runs: int, long_s: float) -> dict[str, list]:
    """Raw figures: per method the CPU ms and score fractions, and the instance rows."""
    warm = instances(99)[2][1]
    for m in METHODS:
        solve(warm, m, seed=0)  # numba compile / cache load
    ms: dict[str, list[float]] = {m: [] for m in METHODS}
    frac: dict[str, list[float]] = {m: [] for m in METHODS}
    rows = []
    for s in seeds:
        for name, p in instances(s):
            long = solve(p, "vds", seed=12345, restarts=10**9,
                         limit=Limit(time=long_s, clock="cpu"))
            got: dict[str, list[tuple[float, float]]] = {m: [] for m in METHODS}
            for m in METHODS:
                for run in range(runs):
                    r = solve(dataclasses.replace(p), m, seed=run)
                    got[m].append((r.score, r.seconds * 1000))
            ref = max([long.score] + [sc for m in METHODS for sc, _ in got[m]])
            line: list[object] = [f"{s}", name, f"{ref:.3f}",
                                  f"{long.score / ref:.4f} @{long.stats['seconds_to_best']:.2f}s"]
            for m in METHODS:
                fr = [sc / ref for sc, _ in got[m]]
                frac[m] += fr
                ms[m] += [t for _, t in got[m]]
                line.append(f"{min(fr):.4f}")
            rows.append(line)
            print(" ".join(map(str, line)), file=sys.stderr, flush=True)
    return {"rows": rows, "ms": [ms[m] for m in METHODS], "frac": [frac[m] for m in METHODS]}


def report(parts: list[dict[str, list]], long_s: float) -> None:
    rows = [r for part in parts for r in part["rows"]]
    print(format_table(["data", "rules", "reference", f"long {long_s:g}s (to best)"]
                       + [f"{m} worst" for m in METHODS], rows))
    print()
    summary = []
    for i, m in enumerate(METHODS):
        ms = [t for part in parts for t in part["ms"][i]]
        frac = [f for part in parts for f in part["frac"][i]]
        summary.append([m + (" [baseline]" if m == "greedy" else ""),
                        f"{statistics.median(ms):.1f}", f"{max(ms):.1f}",
                        f"{statistics.median(frac):.4f}", f"{min(frac):.4f}",
                        f"{sum(f >= 0.999 for f in frac)}/{len(frac)}"])
    print(format_table(["method", "median ms", "max ms", "median score/ref",
                        "worst score/ref", "runs >= 99.9%"], summary))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-seeds", default="0-4", metavar="A-B")
    ap.add_argument("--runs", type=int, default=5, help="run seeds per method and instance")
    ap.add_argument("--long", type=float, default=60.0, help="CPU s of the reference run")
    ap.add_argument("--out", type=Path, help="also save the raw figures to this JSON file")
    ap.add_argument("--merge", type=Path, nargs="+", help="print the tables of saved runs")
    args = ap.parse_args()
    if args.merge:
        report([json.loads(f.read_text()) for f in args.merge], args.long)
        return 0
    lo, _, hi = args.data_seeds.partition("-")
    part = measure(range(int(lo), int(hi or lo) + 1), args.runs, args.long)
    if args.out:
        args.out.write_text(json.dumps(part))
    report([part], args.long)
    return 0


if __name__ == "__main__":
    sys.exit(main())
