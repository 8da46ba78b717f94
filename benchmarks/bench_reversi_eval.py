"""Learned pattern evaluation against the heuristic: accuracy, then a paired match.

Part 1, accuracy: positions with 20-24 empties from self-play games the weights never saw
(a different seed), each solved exactly; mean absolute error in discs of the static
evaluation, per number of empties, for the heuristic [baseline] and the learned weights.

Part 2, strength: the learned evaluation against the heuristic at the same fixed depth
(``--depth``), over ``--openings`` balanced openings, each played twice with colours
swapped (:func:`gameopt.reversi.match.run_match`): W/D/L, score with 95 % interval, Elo,
p-value. Target (issue 4): score >= 80 % with the interval above 50 %.

Run: ``python benchmarks/bench_reversi_eval.py [WEIGHTS] [--positions 60] [--openings 200]``
(default: the shipped weights).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from gameopt.core.table import format_table
from gameopt.reversi.board import Board
from gameopt.reversi.match import Player, make_openings, pattern_params, run_match
from gameopt.reversi.patterns import stage_of
from gameopt.reversi.search import EvalKind, SearchParams, evaluate, solve
from gameopt.reversi.train import generate
from gameopt.reversi.weights import SHIPPED


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", nargs="?", default=str(SHIPPED),
                    help="pattern weights (.npz from gameopt reversi train fit; default: "
                         "the shipped weights)")
    ap.add_argument("--positions", type=int, default=60, help="exactly solved positions")
    ap.add_argument("--openings", type=int, default=200)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=987654)
    args = ap.parse_args()
    learned = pattern_params(args.weights)
    heuristic = SearchParams(eval_kind=EvalKind.HEURISTIC)

    # Part 1: accuracy on held-out positions with 20-24 empties, solved exactly
    data = generate(max(8, args.positions // 2), seed=args.seed, exact_empties=14, workers=1)
    empties = data.empties
    pick = np.flatnonzero((empties >= 20) & (empties <= 24))
    rng = np.random.default_rng(args.seed)
    pick = rng.choice(pick, min(args.positions, len(pick)), replace=False)
    err: dict[int, list[tuple[float, float]]] = {}
    t = time.process_time()
    for i in pick:
        b = Board(int(data.player[i]), int(data.opponent[i]))
        exact = solve(b).score
        err.setdefault(b.empties, []).append((abs(evaluate(b, heuristic) - exact),
                                              abs(evaluate(b, learned) - exact)))
    rows = []
    for e in sorted(err):
        h, lrn = zip(*err[e], strict=True)
        rows.append([e, stage_of(e), len(h), f"{statistics.fmean(h):.2f}",
                     f"{statistics.fmean(lrn):.2f}"])
    allh = [x for v in err.values() for x, _ in v]
    alll = [y for v in err.values() for _, y in v]
    rows.append(["all", "", len(allh), f"{statistics.fmean(allh):.2f}",
                 f"{statistics.fmean(alll):.2f}"])
    print(f"Part 1: static evaluation error on {len(allh)} held-out positions "
          f"(exact solves: {time.process_time() - t:.0f} CPU s)")
    print(format_table(["empties", "stage", "positions", "heuristic MAE [baseline]",
                        "learned MAE"],
                       rows))

    # Part 2: paired match at the same depth
    ops = make_openings(args.openings, 8, seed=args.seed)
    t0 = time.perf_counter()
    res = run_match(Player(f"learned d{args.depth}", depth=args.depth,
                           eval_file=args.weights),
                    Player(f"heuristic d{args.depth}", depth=args.depth, params=heuristic), ops)
    print(f"\nPart 2: {res.summary()} ({time.perf_counter() - t0:.0f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
