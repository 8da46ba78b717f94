"""Explanation cost: CPU ms of :func:`gameopt.deck.explain.binding_rules` against the search.

One request as the CLI and the API serve it, in a warm process: the problem from the
synthetic data (seed 0: a 2,000-piece collection), a VDS search, then the explanation of
its deck (one re-solve per active rule). Rule sets: ``cap200+god10+leader`` (cost cap 200,
at least 10 God pieces, leader 1000), ``cap150+char2+must`` (cost cap 150, at most 2
pieces per character, two must-include pieces) and ``cap84`` (a tight cap). Each over
``--runs`` run seeds; reported: median and max process CPU ms of the search and of the
explanation, and their ratio (the baseline, the search, measured in the same run).

Run: ``python benchmarks/bench_deck_explain.py [--runs 9] [--method greedy,hc,vds,bnb,exact]``
(one table row per rule set and method; ``bnb`` and ``exact`` search within ``--time``
seconds on their clock, the others until done); the figures before a change come from
the same script on the earlier checkout (``--old``: the signature before the method and
budget).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import METHODS, DeckProblem, Rules, solve, to_problem
from gameopt.deck.explain import binding_rules
from gameopt.deck.synth import synthetic_data

RULES = {
    "cap200+god10+leader": Rules(cost_cap=200, attribute="god", attribute_min=10,
                                 leader=1000),
    "cap150+char2+must": Rules(cost_cap=150, char_limit=2, must=(1001, 1004)),
    "cap84": Rules(cost_cap=84),
}


def measure(problem: DeckProblem, method: str, args: argparse.Namespace) -> list[str]:
    """Median and max CPU ms of the search and the explanation over ``args.runs`` seeds."""
    spec = METHODS[method]
    limit = (Limit(time=args.time, clock=spec.clock) if spec.default_time is not None
             else None)
    search, explain = [], []
    for seed in range(-1, args.runs):  # seed -1 warms: kernels loaded, first calls paid
        t = time.process_time()
        r = solve(problem, method, seed=max(seed, 0), limit=limit)
        if seed >= 0:
            search.append(1000 * (time.process_time() - t))
        t = time.process_time()
        if args.old:
            binding_rules(problem, r.deck, seed=max(seed, 0))
        else:  # as the CLI calls it: the same method, within the search's time
            binding_rules(problem, r.deck, seed=max(seed, 0), method=method,
                          limit=Limit(time=max(r.seconds, 1e-3),
                                      clock="wall" if r.clock == "wall" else "cpu"))
        if seed >= 0:
            explain.append(1000 * (time.process_time() - t))
    ms, me = statistics.median(search), statistics.median(explain)
    return [f"{ms:.1f}", f"{max(search):.1f}", f"{me:.1f}", f"{max(explain):.1f}",
            f"{me / ms:.2f}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--method", default="vds", help="one or more methods, comma-separated")
    ap.add_argument("--time", type=float, default=1.0,
                    help="search time of bnb and exact (s, on their clock)")
    ap.add_argument("--old", action="store_true",
                    help="call binding_rules(problem, deck, seed=...) only (the signature "
                    "before the method and budget), to measure an older checkout")
    args = ap.parse_args()
    pool, coll, scores = synthetic_data(0)
    rows = []
    methods = args.method.split(",")
    for name, rules in RULES.items():
        problem, _ = to_problem(pool, coll, rules, scores)
        for method in methods:
            rows.append([name, method, *measure(problem, method, args)])
    print(format_table(["rules", "method", "search median ms [baseline]", "max",
                        "explain median ms", "max", "explain/search"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
