"""Service claim: one deck request's CPU cost per stage (problem, search, explanation).

A warm process holds the embedded synthetic data (``synthesize(seed)``: 4,000 kinds, a
2,000-piece collection, scores learnt from its deck corpus). Each repetition takes the
next of four rule sets (none; cost cap 200; cap 200 + ≥ 10 God + a leader; cap 150 +
2 per character + 2 must-include + a forbidden pair) and serves it twice, interleaved so
both meet the same machine load:

* ``before``: the problem built as ``gameopt deck build`` builds it
  (``to_problem(pool, Collection(ids), rules, scores)``, every check of ``DeckProblem``);
* ``after``: ``DeckCatalogue.problem(ids, rules)`` over the arrays loaded once.

Then the search (``solve(problem, --method)``) and the explanation (``binding_rules`` and
``contributions``) on each problem, the explanation as the service makes it (:func:`explain`:
the same method, within the search's own time). The problems are equal array for array (checked on
every repetition), so the search and explanation rows measure the same work twice.
Reported: median and p99 of process CPU milliseconds (``time.process_time``) per stage,
and of the wall milliseconds of the whole request.

Run: ``python benchmarks/bench_deck_service.py [--reps 40] [--method vds] [--no-explain]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.deck import DeckCatalogue, Rules, solve, to_problem
from gameopt.deck.explain import binding_rules, contributions
from gameopt.deck.pool import Collection
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import synthesize


def rule_sets(pool, coll) -> list[tuple[str, Rules]]:  # type: ignore[no-untyped-def]
    leader = next(pid for pid in coll.owned
                  if pool[pid].attribute == "god" and pool[pid].rarity == "S")
    cheap = [pid for pid in coll.owned if pool[pid].cost <= 8][:4]
    return [("none", Rules()),
            ("cap200", Rules(cost_cap=200)),
            ("cap200+god10+leader", Rules(cost_cap=200, attribute="god", attribute_min=10,
                                          leader=leader)),
            ("cap150+char2+must+forbid", Rules(cost_cap=150, char_limit=2,
                                               must=tuple(cheap[:2]),
                                               forbid=((cheap[2], cheap[3]),)))]


def same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (np.array_equal(a.R, b.R) and np.array_equal(a.cost, b.cost)
            and np.array_equal(a.character, b.character) and a.must == b.must
            and a.cost_cap == b.cost_cap and a.forbidden_pairs == b.forbidden_pairs)


def explain(p, r, seed: int, method: str) -> None:  # type: ignore[no-untyped-def]
    """The explanation as ``DeckCatalogue.advise`` and ``gameopt deck build`` make it: the
    deck's own method, within the search's own time (on its clock)."""
    budget = Limit(time=max(r.seconds, 1e-3), clock="wall" if r.clock == "wall" else "cpu")
    binding_rules(p, r.deck, seed=seed, method=method, limit=budget)
    contributions(p, r.deck)


def stats(ms: list[float]) -> list[str]:
    a = np.asarray(ms)
    return [f"{np.median(a):.2f}", f"{np.percentile(a, 99):.2f}", f"{a.max():.2f}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=40, help="requests per path (default 40)")
    ap.add_argument("--method", default="vds")
    ap.add_argument("--seed", type=int, default=0, help="synthetic data seed")
    ap.add_argument("--no-explain", action="store_true", help="skip the explanation stage")
    args = ap.parse_args()
    if not 1 <= args.reps <= 10_000:
        ap.error("--reps: 1..10000")

    data = synthesize(args.seed)
    pool, coll = data.pool, data.collection
    scores = deck_scores(data.decks, pool.ids)
    t = time.process_time()
    cat = DeckCatalogue(pool, scores)
    load_ms = (time.process_time() - t) * 1000
    sets = rule_sets(pool, coll)
    owned = np.asarray(coll.owned, dtype=np.int64)
    # warm: kernels (gather, search, explanation) and caches, outside the clock
    for _, rules in sets:
        p, _ = cat.problem(owned, rules)
        r = solve(p, args.method, seed=0)
        if not args.no_explain:
            explain(p, r, 0, args.method)
        to_problem(pool, coll, rules, scores)

    rows: dict[str, dict[str, list[float]]] = {
        path: {"problem": [], "search": [], "explain": [], "wall": []}
        for path in ("before", "after")}
    for rep in range(args.reps):
        _, rules = sets[rep % len(sets)]
        problems = {}
        for path in ("before", "after"):
            w0, c0 = time.perf_counter(), time.process_time()
            if path == "before":
                p, _ = to_problem(pool, Collection(coll.owned), rules, scores)
            else:
                p, _ = cat.problem(owned, rules)
            c1 = time.process_time()
            r = solve(p, args.method, seed=rep)
            c2 = time.process_time()
            if not args.no_explain:
                explain(p, r, rep, args.method)
            c3 = time.process_time()
            w3 = time.perf_counter()
            problems[path] = p
            out = rows[path]
            out["problem"].append((c1 - c0) * 1000)
            out["search"].append((c2 - c1) * 1000)
            out["explain"].append((c3 - c2) * 1000)
            out["wall"].append((w3 - w0) * 1000)
        if not same(problems["before"], problems["after"]):
            raise SystemExit(f"repetition {rep}: the two problems differ")

    table = []
    for stage in ("problem", "search", "explain", "wall"):
        if stage == "explain" and args.no_explain:
            continue
        b, a = rows["before"][stage], rows["after"][stage]
        table.append([stage + (" (wall ms)" if stage == "wall" else " (CPU ms)"),
                      *stats(b), *stats(a), f"{np.median(b) / max(np.median(a), 1e-9):.1f}x"])
    print(f"{args.reps} requests per path, 2,000-piece collection ({len(coll)} owned), "
          f"method {args.method}; catalogue made once in {load_ms:.0f} ms CPU")
    print(format_table(["stage", "before p50", "p99", "max", "after p50", "p99", "max",
                        "p50 ratio"], table))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
