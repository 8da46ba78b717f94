"""Exact-proof claim: which n are proved optimal within 60 s, branch and bound vs CP-SAT.

Two kinds of instance, deck size 15:

* ``random``: dense R uniform on [0, 1) (symmetric), costs 1..20 and a binding cap (the
  cheapest 15 plus half the way to the average deck's cost); n = 20, 30, 40, 50, 60, 80,
  100, 150.
* ``synth``: n owned pieces drawn at random from the 2,000-piece collection of
  ``synthesize(seed)`` (archetype structure, scores learnt from its deck corpus), one piece
  per character and a cost cap of 150; n = 100, 200, 500, 1000, 2000.

For each n: the branch and bound (``solve(p, "bnb")``, VDS incumbent, time limit in CPU
s) and the baseline, the CP-SAT model (``solve(p, "exact")``, VDS hint, time limit in wall
s, ``--workers`` workers), on every n of the list (difficulty
is not monotonic in n: a sub-collection may be harder than a larger one). Reported:
score, bound, gap, CPU s (process time, the VDS run included) and, for the branch and
bound, nodes. A bound not proved is the method's own bound capped by
:func:`gameopt.deck.exact.upper_bound` (with a binding cap, its Lagrangian part).

Run: ``python benchmarks/bench_deck_exact.py --kind random`` (and ``--kind synth``);
``--sizes 100,200,500`` restricts the list, so a kind can be split into runs under 10
minutes; ``--method bnb`` (or ``cpsat``) runs one method.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import DeckProblem, DeckResult, Rules, solve, to_problem
from gameopt.deck.pool import Collection
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import synthesize

SIZES = {"random": (20, 30, 40, 50, 60, 80, 100, 150),
         "synth": (100, 200, 500, 1000, 2000)}


def instance(n: int, seed: int, size: int = 15) -> DeckProblem:
    """Uniform symmetric R, costs 1..20, a binding cost cap."""
    rng = np.random.default_rng(seed)
    U = rng.random((n, n))
    R = ((U + U.T) / 2).astype(np.float32)
    cost = rng.integers(1, 21, n).astype(np.int32)
    cheapest = int(np.sort(cost)[:size].sum())
    cap = cheapest + int(0.5 * (cost.mean() * size - cheapest))
    return DeckProblem(R, size, cost=cost, cost_cap=cap)


def synth_instances(seed: int) -> dict[int, DeckProblem]:
    """Sub-collections of n pieces of ``synthesize(seed)``'s collection, cap 150."""
    data = synthesize(seed)
    scores = deck_scores(data.decks, data.pool.ids)
    owned = np.array(data.collection.owned)
    rng = np.random.default_rng(seed)
    out = {}
    for n in SIZES["synth"]:
        pick = owned if n >= len(owned) else rng.choice(owned, n, replace=False)
        coll = Collection(tuple(int(i) for i in pick))
        out[n] = to_problem(data.pool, coll, Rules(size=15, cost_cap=150), scores)[0]
    return out


def _row(kind: str, n: int, method: str, r: DeckResult, cpu: float) -> list[object]:
    return [kind, n, method, f"{r.score:.3f}", f"{r.bound:.3f}",
            f"{100 * (r.gap or 0.0):.3f}", "yes" if r.proven else "no", f"{cpu:.2f}",
            f"{r.stats['nodes']:,}" if method == "bnb" else ""]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=sorted(SIZES), default="random")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", help="comma-separated n to run (default: the kind's list)")
    ap.add_argument("--method", choices=("both", "bnb", "cpsat"), default="both",
                    help="run one method only (default: both)")
    args = ap.parse_args()
    sizes = (SIZES[args.kind] if args.sizes is None
             else tuple(int(x) for x in args.sizes.split(",")))
    solve(instance(20, 0), "vds", seed=0)  # numba compile / cache load
    solve(instance(12, 0, 4), "bnb")
    problems = ({n: instance(n, args.seed) for n in sizes}
                if args.kind == "random" else synth_instances(args.seed))
    rows: list[list[object]] = []
    proved: dict[str, list[int]] = {"bnb": [], "cpsat [baseline]": []}
    for method in proved:
        if args.method != "both" and not method.startswith(args.method):
            continue
        for n in sizes:
            p = problems[n]
            t = time.process_time()
            if method == "bnb":
                r = solve(p, "bnb", limit=Limit(time=args.time_limit, clock="cpu"), seed=0)
            else:
                r = solve(p, "exact", limit=Limit(time=args.time_limit, clock="wall"),
                          workers=args.workers)
            rows.append(_row(args.kind, n, method, r, time.process_time() - t))
            print(*rows[-1], flush=True)
            if r.proven:
                proved[method].append(n)
    print(format_table(["kind", "n", "method", "score", "bound", "gap %", "proven", "CPU s",
                        "nodes"], rows))
    for method, ns in proved.items():
        if args.method != "both" and not method.startswith(args.method):
            continue
        print(f"{args.kind}: n proved optimal within {args.time_limit:g} s by {method}: "
              f"{', '.join(map(str, ns)) or 'none'} (of {', '.join(map(str, sizes))})")


if __name__ == "__main__":
    main()
