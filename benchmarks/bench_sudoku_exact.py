"""Exact Sudoku solver: puzzles per CPU second, uniqueness proved (counting up to 2).

For each data set, the exact solver's rate is the median of ``--repeats`` measurements,
each looping over the whole set (one batch call per pass) until ``--min-cpu`` seconds of
process CPU time are used; compilation is done before any measurement. The baseline,
measured in the same run, is CP-SAT (:func:`gameopt.sudoku.cpsat.count_solutions`, also
counting up to 2) on the first ``--cpsat`` puzzles of each set, one pass. Every puzzle of
these sets is unique; the ``unique`` column checks it.

Run: ``python benchmarks/bench_sudoku_exact.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.sudoku.cpsat import count_solutions as cpsat_count
from gameopt.sudoku.exact import count_many
from gameopt.sudoku.formats import read_puzzles
from gameopt.sudoku.grid import Puzzle

SETS = [
    ("tdoku_17_clue_200.txt", "17 clues (tdoku sample)"),
    ("tdoku_forum_hardest_1106_100.txt", "hardest for backtracking (forum 1106)"),
    ("radcliffe_easy_d0-1_200.csv", "easy (Radcliffe d0-1)"),
]


def exact_rate(puzzles: list[Puzzle], min_cpu: float, repeats: int) -> tuple[float, int, float]:
    """Median puzzles per CPU second, puzzles proved unique, mean guesses per puzzle."""
    outs = count_many(puzzles, limit=2)  # compiles (or loads the cache) outside the timing
    unique = sum(o.status == "unique" for o in outs)
    guesses = statistics.fmean(o.nodes for o in outs)
    rates = []
    for _ in range(repeats):
        done = 0
        t0 = time.process_time()
        while True:
            count_many(puzzles, limit=2)
            done += len(puzzles)
            used = time.process_time() - t0
            if used >= min_cpu:
                break
        rates.append(done / used)
    return statistics.median(rates), unique, guesses


def cpsat_rate(puzzles: list[Puzzle]) -> tuple[float, int]:
    """Puzzles per CPU second of CP-SAT counting up to 2 (one pass), and unique count."""
    cpsat_count(puzzles[0], limit=2)  # load OR-Tools outside the timing
    t0 = time.process_time()
    unique = sum(cpsat_count(p, limit=2).status == "unique" for p in puzzles)
    return len(puzzles) / (time.process_time() - t0), unique


def find(data: Path, name: str) -> Path | None:
    for p in (data / "sudoku" / name, data / name):
        if p.is_file():
            return p
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--min-cpu", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="measurements per set (median)")
    ap.add_argument("--cpsat", type=int, default=20, help="puzzles per set for CP-SAT")
    args = ap.parse_args()

    rows = []
    for name, label in SETS:
        path = find(args.data, name)
        if path is None:
            print(f"({name} not found under {args.data}: skipped)", file=sys.stderr)
            continue
        puzzles = read_puzzles(path)
        rate, unique, guesses = exact_rate(puzzles, args.min_cpu, args.repeats)
        subset = puzzles[:args.cpsat]
        cp_rate, cp_unique = cpsat_rate(subset)
        rows.append([label, len(puzzles), f"{unique}/{len(puzzles)}", round(guesses, 1),
                     f"{rate:,.0f}", f"{cp_rate:,.1f}", f"{cp_unique}/{len(subset)}",
                     f"{rate / cp_rate:,.0f}x"])
    if not rows:
        print(f"no data sets found under {args.data}", file=sys.stderr)
        return 1
    print("\n### Exact solver, uniqueness proved (count up to 2), puzzles per CPU second\n")
    print(format_table(["set", "puzzles", "unique", "guesses/puzzle", "exact /CPU s",
                        "CP-SAT /CPU s [baseline]", "CP-SAT unique", "speed-up"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
