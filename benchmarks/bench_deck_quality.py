"""Deck quality: each method's score against the proven optimum, at its defaults and at
equal CPU time.

Instances (all on the embedded synthetic data, ``synthetic_data(0)``: a 2,000-piece
collection; one piece per character unless said):

* stress: ``cap200+god10+leader`` (cost cap 200, at least 10 God pieces, leader 1000)
  and ``cap200`` (cost cap 200 alone), where tabu stopped far below VDS;
* tight caps: ``cost 80`` .. ``cost 90`` (``--tight``), near the cheapest deck (80);
* synthetic: ``cap150+char2+must`` (cost cap 150, two per character, two must-include
  pieces).

The reference is the best of the branch and bound's deck (``--ref`` CPU s; "proven" or
its bound) and, at a tight cap, the optimum proven offline by CP-SAT or the branch and
bound (:data:`bench_deck_vds_stress.PROVEN`). Each heuristic runs twice: with its default
settings (score and CPU ms), and with unbounded restarts for ``--cpu`` CPU s (equal CPU
for all). Cells hold the score as a fraction of the reference deck's (1.0000: as good as
the best deck known; with a proof, optimal).

Run: ``python benchmarks/bench_deck_quality.py [--cpu 1] [--ref 20] [--tight 80-90]``
(``--tight 80,82,84`` for a few caps).
"""

from __future__ import annotations

import argparse
import sys

from bench_deck_vds_stress import PROVEN
from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import DeckProblem, Rules, solve, to_problem
from gameopt.deck.synth import synthetic_data

HEURISTICS = ("greedy", "hc", "vds", "tabu")


def instances(tight: list[int]) -> list[tuple[str, DeckProblem]]:
    pool, coll, scores = synthetic_data(0)
    rules = {"cap200+god10+leader": Rules(cost_cap=200, attribute="god", attribute_min=10,
                                          leader=1000),
             "cap200": Rules(cost_cap=200)}
    rules.update({f"cost {c}": Rules(cost_cap=c) for c in tight})
    rules["cap150+char2+must"] = Rules(cost_cap=150, char_limit=2, must=(1001, 1004))
    return [(name, to_problem(pool, coll, r, scores)[0]) for name, r in rules.items()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", type=float, default=1.0, help="CPU s of each equal-time run")
    ap.add_argument("--ref", type=float, default=20.0, help="CPU s of the bnb reference")
    ap.add_argument("--tight", default="80-90", metavar="A-B|A,B,...",
                    help="the tight caps: a range or a list")
    args = ap.parse_args()
    if "-" in args.tight:
        lo, _, hi = args.tight.partition("-")
        caps = list(range(int(lo), int(hi) + 1))
    else:
        caps = [int(c) for c in args.tight.split(",")]
    rows = []
    for name, p in instances(caps):
        for m in HEURISTICS[:-1]:  # (solve loads every kernel first; tabu takes seconds)
            solve(p, m, seed=0)  # first-call costs paid
        ref = solve(p, "bnb", limit=Limit(time=args.ref, clock="cpu"))
        opt, how = PROVEN.get(int(name.split()[1]), (None, "")) if name.startswith("cost") \
            else (None, "")
        best = ref.score if opt is None else max(opt, ref.score)
        found = {}
        line: list[object] = [name, "-" if opt is None else f"{opt:.3f} ({how})",
                              f"{ref.score:.3f}",
                              "proven" if ref.proven else f"≤ {ref.bound:.3f}",
                              f"{ref.seconds:.1f}"]
        for m in HEURISTICS:
            d = solve(p, m, seed=0)
            more = {} if m == "greedy" else {"restarts": 10**9}  # greedy: one construction
            e = solve(p, m, seed=0, limit=Limit(time=args.cpu, clock="cpu"), **more)
            found[m] = max(d.score, e.score)
            line.append(f"{d.score / best:.4f} ({d.seconds * 1000:.0f} ms)")
            line.append(f"{e.score / best:.4f}")
        rows.append(line)
        print(" | ".join(map(str, line)), file=sys.stderr, flush=True)
    head = ["instance", "proven optimum", "bnb deck", "bnb status", "bnb CPU s"]
    for m in HEURISTICS:
        head += [f"{m} default" + (" [baseline]" if m == "greedy" else ""),
                 f"{m} {args.cpu:g} s"]
    print(format_table(head, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
