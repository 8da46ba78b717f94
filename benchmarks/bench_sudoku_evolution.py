"""Sudoku combinatorial evolution: the issue's benchmark tables.

1. The article's puzzle over 20 seeds: the article's algorithm (baseline), plateau moves
   only, and gameopt's default (plateau moves + pruning by singles and candidates + swaps
   focused on clashing values).
2. ``lloyd_amos_logic_solvable_9x9.txt`` and ``magictour_top95.txt``: gameopt's default
   within 60 s CPU each (target >= 95 % solved); the article's algorithm on the 16
   logic-solvable puzzles as the baseline.
3. The 16x16 and 25x25 Lloyd & Amos samples: solved count and time, the plain scheme
   (``propagate=False``, gameopt's default before the propagation) as the baseline, then
   the default with constraint propagation between runs.

CPU seconds are process time inside each job (jobs run on local processes, ``--workers``;
the measure does not depend on it). Run: ``python benchmarks/bench_sudoku_evolution.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.localsearch import EvolutionParams
from gameopt.sudoku import SUDOKU_EVOLUTION, bench
from gameopt.sudoku.examples import article_puzzle
from gameopt.sudoku.formats import read_puzzles

ARTICLE = EvolutionParams()
UNLIMITED = dataclasses.replace(SUDOKU_EVOLUTION, max_restarts=10**9)
ARTICLE_UNLIMITED = dataclasses.replace(ARTICLE, max_restarts=10**9)


def row(label: str, runs: list[bench.EvoRun]) -> list[object]:
    s = bench.summarise_evolution(runs)
    return [label, f"{s['solved']}/{s['runs']}", f"{100 * s['share']:.0f}%", s["median_cpu"],
            s["max_cpu"], s["median_restarts"]]


HEAD = ["configuration", "solved", "share", "median CPU s", "max CPU s", "median restarts"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared"
                    / "data")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--parts", default="1,2,3", help="which tables (1,2,3)")
    ap.add_argument("--sizes", default="16,25", help="table 3: which sides (16,25)")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    seeds = list(range(args.seeds))
    lim = args.time_limit

    if "1" in parts:
        p = [article_puzzle()]
        rows = [
            row("article algorithm [baseline]",
                bench.run_evolution(p, seeds, ARTICLE, lim, refined=False, workers=args.workers)),
            row("plateau moves only",
                bench.run_evolution(p, seeds, SUDOKU_EVOLUTION, lim, refined=False,
                                    workers=args.workers)),
            row("gameopt default (plateau + pruning + focus)",
                bench.run_evolution(p, seeds, SUDOKU_EVOLUTION, lim, workers=args.workers)),
        ]
        print(f"\n### Article puzzle, {len(seeds)} seeds, {lim:g} s CPU limit each\n")
        print(format_table(HEAD, rows), flush=True)

    d = args.data / "sudoku"
    if not d.is_dir():
        print(f"\n(data folder {d} not found: tables 2 and 3 skipped)")
        return 0
    if "2" in parts:
        rows = []
        logic = read_puzzles(d / "lloyd_amos_logic_solvable_9x9.txt")
        rows.append(row("logic_solvable_9x9: article algorithm [baseline]",
                        bench.run_evolution(logic, [0], ARTICLE_UNLIMITED, lim, refined=False,
                                            workers=args.workers)))
        rows.append(row("logic_solvable_9x9: gameopt default",
                        bench.run_evolution(logic, [0], UNLIMITED, lim, workers=args.workers)))
        top95 = read_puzzles(d / "magictour_top95.txt")
        rows.append(row("magictour_top95: gameopt default",
                        bench.run_evolution(top95, [0], UNLIMITED, lim, workers=args.workers)))
        print(f"\n### Hard 9x9 sets, seed 0, restarts until {lim:g} s CPU each\n")
        print(format_table(HEAD, rows), flush=True)
    if "3" in parts:
        rows = []
        for side in args.sizes.split(","):
            name = f"lloyd_amos_general_{side}x{side}_sample20.txt"
            puzzles = read_puzzles(d / name)
            after = row(f"{name}: propagation between runs (default)",
                        bench.run_evolution(puzzles, [0], UNLIMITED, lim,
                                            workers=args.workers))
            print(format_table(HEAD, [after]), flush=True)  # the long baseline comes next
            rows.append(row(f"{name}: plain scheme, propagate=False [before]",
                            bench.run_evolution(puzzles, [0], UNLIMITED, lim,
                                                propagate=False, workers=args.workers)))
            rows.append(after)
        print(f"\n### Larger grids, seed 0, restarts until {lim:g} s CPU each\n")
        print(format_table(HEAD, rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
