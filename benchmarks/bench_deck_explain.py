"""Explanation cost: CPU ms of :func:`gameopt.deck.explain.binding_rules` against the search.

One request as the CLI and the API serve it, in a warm process: the problem from the
synthetic data (seed 0: a 2,000-piece collection), a VDS search, then the explanation of
its deck (one re-solve per active rule). Rule sets: ``cap200+god10+leader`` (cost cap 200,
at least 10 God pieces, leader 1000), ``cap150+char2+must`` (cost cap 150, at most 2
pieces per character, two must-include pieces) and ``cap84`` (a tight cap). Each over
``--runs`` run seeds; reported: median and max process CPU ms of the search and of the
explanation, and their ratio (the baseline, the search, measured in the same run).

Run: ``python benchmarks/bench_deck_explain.py [--runs 9] [--method vds]``; the figures
before the change came from the same script with ``--old`` on the earlier checkout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import Rules, solve, to_problem
from gameopt.deck.explain import binding_rules
from gameopt.deck.synth import synthetic_data

RULES = {
    "cap200+god10+leader": Rules(cost_cap=200, attribute="god", attribute_min=10,
                                 leader=1000),
    "cap150+char2+must": Rules(cost_cap=150, char_limit=2, must=(1001, 1004)),
    "cap84": Rules(cost_cap=84),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--method", default="vds")
    ap.add_argument("--old", action="store_true",
                    help="call binding_rules(problem, deck, seed=...) only (the signature "
                    "before the method and budget), to measure an older checkout")
    args = ap.parse_args()
    pool, coll, scores = synthetic_data(0)
    rows = []
    for name, rules in RULES.items():
        problem, _ = to_problem(pool, coll, rules, scores)
        solve(problem, args.method, seed=0)  # warm: kernels loaded, first-call costs paid
        binding_rules(problem, solve(problem, args.method, seed=0).deck, seed=0)
        search, explain = [], []
        for seed in range(args.runs):
            t = time.process_time()
            r = solve(problem, args.method, seed=seed)
            search.append(1000 * (time.process_time() - t))
            t = time.process_time()
            if args.old:
                binding_rules(problem, r.deck, seed=seed)
            else:  # as the CLI calls it: the same method, within the search's time
                binding_rules(problem, r.deck, seed=seed, method=args.method,
                              limit=Limit(time=r.seconds, clock="cpu"))
            explain.append(1000 * (time.process_time() - t))
        ms, me = statistics.median(search), statistics.median(explain)
        rows.append([name, f"{ms:.1f}", f"{max(search):.1f}", f"{me:.1f}",
                     f"{max(explain):.1f}", f"{me / ms:.2f}"])
    print(format_table(["rules", "search median ms [baseline]", "max", "explain median ms",
                        "max", "explain/search"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
