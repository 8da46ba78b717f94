"""Penalty weights tuned by simulation: Kendall τ before/after, exact vs SLIM vs Dutch-like
vs naive.

Runs the search of ``gameopt pair tune`` (:func:`gameopt.pairing.tune.tune_and_validate`,
the same code) on ``--events`` training events per size, then judges the start and the
tuned weights on ``--holdout`` held-out events per size (seeds of ``--seed + 1``) with a
paired 95 % interval of the τ difference, and prints the table of every rule under both
weight sets on the held-out seeds: Kendall τ, rematches, floats, colour statistics
(``|blacks − whites|``, colour-tier breaks: a third same colour in a row of played games
or a difference beyond 2) and byes given above the lowest score group.

With ``--tuned FILE`` the search is skipped: the start (the built-in defaults, or
``--start FILE``: ``benchmarks/pairing_penalties_papp.toml`` for PAPP's weights) and the
weights of ``FILE`` (``default``: the built-in defaults, the ``"tuned"`` preset, also in
``benchmarks/pairing_penalties_tuned.toml``) are judged on the ``--holdout`` events (the
1,000-event tables): every rule on the same events, each with its paired 95 % interval of
the τ difference against the exact rule under the start; the Dutch-like and naive rules
run under the start's weights only.

The events run in ``--workers`` local processes (or on a Dask ``--scheduler``); times are
wall-clock seconds of the whole run (the machine's load is printed with them).
Run: ``python benchmarks/bench_pairing_tune.py [--sizes 40x7,100x9] [--events 20]
[--holdout 200] [--max-evals 24] [--tuned TUNED.toml|default --start START.toml]``.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

from gameopt.core import Limit, parallel_map, spawn_seeds
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.pairing import PenaltyParams, SimConfig
from gameopt.pairing.simulate import EventStats, simulate_event
from gameopt.pairing.tune import (
    COMPARE_COLUMNS,
    COMPARE_RULES,
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
    ap.add_argument("--start", default=None, help="starting weights (TOML)")
    ap.add_argument("--tuned", default=None,
                    help="no search: judge these weights (TOML, or 'default': the built-in)")
    args = ap.parse_args()
    try:
        configs = _sizes(args.sizes)
        start = PenaltyParams.from_toml(args.start) if args.start else PenaltyParams()
        if args.tuned:
            tuned = (PenaltyParams() if args.tuned == "default"
                     else PenaltyParams.from_toml(args.tuned))
            return _judge(args, configs, start, tuned)
        t0 = time.perf_counter()
        v = tune_and_validate(configs, events=args.events, holdout=args.holdout,
                              seed=args.seed, start=start, max_evals=args.max_evals,
                              limit=Limit(time=args.time_limit, clock="wall"),
                              workers=args.workers, scheduler=args.scheduler)
        t1 = time.perf_counter()
        rows = compare_rules({"start": v.result.start.params, "tuned": v.result.params},
                             list(COMPARE_RULES), configs, events=args.holdout,
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


#: The rules whose pairings depend on the penalty weights (the Dutch-like and naive rules
#: run under the start weights only).
WEIGHTED = ("exact", "slim")


def _event(job: tuple[str, str, SimConfig, int, PenaltyParams]) -> tuple[str, EventStats]:
    label, rule, cfg, seed, params = job
    return label, simulate_event(rule, cfg, seed, params)


def _judge(args: argparse.Namespace, configs: list[SimConfig], start: PenaltyParams,
           tuned: PenaltyParams) -> int:
    """Every rule under the start and ``tuned`` on the same held-out events: the table,
    and each rule's paired τ difference against the exact rule with the start."""
    t0 = time.perf_counter()
    seeds = spawn_seeds(args.seed + 1, args.holdout)
    weights = {"start": start, "tuned": tuned}
    plan = [(label, rule) for label in weights for rule in COMPARE_RULES
            if label == "start" or rule in WEIGHTED]
    jobs = [(label, rule, cfg, s, weights[label]) for cfg in configs
            for label, rule in plan for s in seeds]
    out = parallel_map(_event, jobs, workers=args.workers, scheduler=args.scheduler)
    t1 = time.perf_counter()
    cpu = sum(e.seconds for _, e in out)
    print(f"no search; {args.holdout} held-out events per size and rule (seeds of "
          f"{args.seed + 1}); {t1 - t0:.0f} s wall, pairing {cpu:.0f} s CPU in the workers "
          f"(load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    names = list(GRID)
    print(format_table(["weights", *names],
                       [[label, *(weight_value(p, n) for n in names)]
                        for label, p in weights.items()]))
    k = len(seeds)
    rows, diffs = [], []
    for j, cfg in enumerate(configs):
        base = [e for _, e in out[j * len(plan) * k:(j * len(plan) + 1) * k]]
        for r, (label, rule) in enumerate(plan):
            at = (j * len(plan) + r) * k
            ev = [e for _, e in out[at:at + k]]
            d = [e.colour_diffs for e in ev]
            flat = [x for ds in d for x in ds]
            size = f"{cfg.players}x{cfg.rounds}"
            rows.append([label, f"{rule} {size}", k,
                         round(statistics.fmean(e.kendall_tau for e in ev), 4),
                         round(statistics.fmean(e.rematches for e in ev), 3),
                         round(statistics.fmean(e.floats for e in ev), 2),
                         round(statistics.fmean(flat), 3), max(flat),
                         round(statistics.fmean(e.stats["colour_breaks"] for e in ev), 2),
                         round(statistics.fmean(e.stats["high_byes"] for e in ev), 3)])
            if (label, rule) != ("start", "exact"):
                delta = [a.kendall_tau - b.kendall_tau
                         for a, b in zip(ev, base, strict=True)]
                mean = statistics.fmean(delta)
                half = 1.96 * statistics.stdev(delta) / math.sqrt(k)
                diffs.append([f"{label} {rule} {size}", f"{mean:+.4f}",
                              f"{mean - half:+.4f} .. {mean + half:+.4f}"])
    print(format_table(list(COMPARE_COLUMNS), rows))
    print(format_table(["against start exact (same events)", "mean τ difference",
                        "95% CI"], diffs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
