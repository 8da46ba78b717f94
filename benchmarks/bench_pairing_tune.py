"""Penalty weights tuned by simulation: Kendall τ before/after, exact vs SLIM vs naive.

Runs the search of ``gameopt pair tune`` (:func:`gameopt.pairing.tune.tune_and_validate`,
the same code) on ``--events`` training events per size, then judges the start and the
tuned weights on ``--holdout`` held-out events per size (seeds of ``--seed + 1``) with a
paired 95 % interval of the τ difference, and prints the table of every rule under both
weight sets on the held-out seeds: Kendall τ, rematches, floats, colour statistics
(``|blacks − whites|``, colour-tier breaks: a third same colour in a row of played games
or a difference beyond 2) and byes given above the lowest score group.

The events run in ``--workers`` local processes (or on a Dask ``--scheduler``); times are
wall-clock seconds of the whole run (the machine's load is printed with them).
Run: ``python benchmarks/bench_pairing_tune.py [--sizes 40x7,100x9] [--events 20]
[--holdout 200] [--max-evals 24]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.pairing import PenaltyParams, SimConfig
from gameopt.pairing.tune import (
    COMPARE_COLUMNS,
    GRID,
    compare_rules,
    params_toml,
    tune_and_validate,
    weight_value,
)


def _sizes(text: str) -> list[SimConfig]:
    out = []
    for part in text.split(","):
        p, sep, r = part.strip().lower().partition("x")
        if not sep or not p.isdigit() or not r.isdigit():
            raise InvalidInputError(f"--sizes: expected PLAYERSxROUNDS, got {part!r}")
        out.append(SimConfig(players=int(p), rounds=int(r)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="40x7,100x9")
    ap.add_argument("--events", type=int, default=20, help="training events per size")
    ap.add_argument("--holdout", type=int, default=200, help="held-out events per size")
    ap.add_argument("--max-evals", type=int, default=24)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=None, help="wall seconds, search")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--scheduler", default=None)
    args = ap.parse_args()
    try:
        configs = _sizes(args.sizes)
        t0 = time.perf_counter()
        v = tune_and_validate(configs, events=args.events, holdout=args.holdout,
                              seed=args.seed, max_evals=args.max_evals,
                              limit=Limit(time=args.time_limit, clock="wall"),
                              workers=args.workers, scheduler=args.scheduler)
        t1 = time.perf_counter()
        rows = compare_rules({"start": v.result.start.params, "tuned": v.result.params},
                             ["exact", "slim", "naive"], configs, events=args.holdout,
                             seed=args.seed + 1, workers=args.workers,
                             scheduler=args.scheduler)
        t2 = time.perf_counter()
    except InvalidInputError as exc:
        print(f"bench_pairing_tune: {exc}", file=sys.stderr)
        return 2
    r = v.result
    print(f"search: {r.stats['evaluations']} candidates x {r.stats['events']} events, "
          f"stopped: {r.stats['stopped']}; tune+validate {t1 - t0:.0f} s, table "
          f"{t2 - t1:.0f} s (wall, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    names = list(GRID)
    print(format_table(["weights", *names, "τ (training)", "τ (held-out)"],
                       [["start", *(weight_value(r.start.params, n) for n in names),
                         round(r.start.tau, 4), round(v.before.tau, 4)],
                        ["tuned", *(weight_value(r.params, n) for n in names),
                         round(r.best.tau, 4), round(v.after.tau, 4)]]))
    mean, low, high = v.difference
    print(f"held-out τ difference over {len(v.after.taus)} paired events: {mean:+.4f} "
          f"(95% CI {low:+.4f} .. {high:+.4f}); better: {v.better}")
    print(format_table(list(COMPARE_COLUMNS), rows))
    if r.params != PenaltyParams():
        print("tuned weights (TOML):\n" + params_toml(r.params))
    return 0


if __name__ == "__main__":
    sys.exit(main())
